//! `h.to_lowercase().contains(&n.to_lowercase())`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        if name.to_lowercase().contains(&"ÖD".to_lowercase()) { "found" } else { "not found" }
    }
}
