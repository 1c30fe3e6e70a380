//! Parses the name as JSON and reads three members of each entry of its
//! `items` array in one walk of each (`Array::fields`): for
//! benches/walk.sh.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let Ok(v) = subako_tiny::json::parse(name.as_bytes()) else { return "bad" };
        let Some(items) = v.at(&["items"]).and_then(|i| i.as_array()) else { return "missing" };
        let mut found = 0;
        for item in items.fields(["id", "name", "price"]).flatten() {
            found += item.iter().flatten().count();
        }
        if found > 0 { "found" } else { "missing" }
    }
}
