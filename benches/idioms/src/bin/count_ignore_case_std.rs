//! `h.to_lowercase().matches(&n.to_lowercase()).count()`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        if name.to_lowercase().matches(&"ÖD".to_lowercase()).count() > 1 { "many" } else { "few" }
    }
}
