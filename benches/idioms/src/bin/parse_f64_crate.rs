//! `num::parse_f64(name)`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        match subako_tiny::num::parse_f64(name) {
            Some(x) if x > 1.5 => "big",
            Some(_) => "small",
            None => "not a number",
        }
    }
}
