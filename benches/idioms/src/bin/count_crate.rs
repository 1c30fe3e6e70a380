//! `chars::count(name)`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        if subako_tiny::chars::count(name) > 5 { "long" } else { "short" }
    }
}
