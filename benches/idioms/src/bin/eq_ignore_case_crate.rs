//! `case::eq_ignore_case(a, b)`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        if subako_tiny::case::eq_ignore_case(name, "ödön") { "same" } else { "other" }
    }
}
