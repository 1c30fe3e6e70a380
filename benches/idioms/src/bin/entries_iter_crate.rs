//! Parses the name as JSON and reads three members of each entry of its
//! `items` array, passing each entry (`iter`) and then walking its members
//! (`fields`): for benches/walk.sh.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let Ok(v) = subako_tiny::json::parse(name.as_bytes()) else { return "bad" };
        let Some(items) = v.at(&["items"]).and_then(|i| i.as_array()) else { return "missing" };
        let mut found = 0;
        for item in items.iter() {
            let Some(item) = item.as_object() else { continue };
            found += item.fields(["id", "name", "price"]).iter().flatten().count();
        }
        if found > 0 { "found" } else { "missing" }
    }
}
