//! `name.find("ab")`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        if name.find("ab").is_some_and(|at| at > 2) { "late" } else { "early" }
    }
}
