//! Reads the name and parses nothing: for benches/walk.sh.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        if name.len() > 3 { "found" } else { "missing" }
    }
}
