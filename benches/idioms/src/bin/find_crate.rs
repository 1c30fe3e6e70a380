//! `chars::find(name, "ab")`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        if subako_tiny::chars::find(name, "ab").is_some_and(|at| at > 2) { "late" } else { "early" }
    }
}
