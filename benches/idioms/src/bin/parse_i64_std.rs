//! `name.parse::<i64>()`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        match name.parse::<i64>() {
            Ok(x) if x > 15 => "big",
            Ok(_) => "small",
            Err(_) => "not a number",
        }
    }
}
