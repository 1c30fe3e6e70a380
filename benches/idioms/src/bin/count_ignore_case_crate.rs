//! `case::count_ignore_case(h, n)`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        if subako_tiny::case::count_ignore_case(name, "ÖD") > 1 { "many" } else { "few" }
    }
}
