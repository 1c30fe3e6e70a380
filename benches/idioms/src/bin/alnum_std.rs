//! `c.is_alphanumeric()`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        name.chars().filter(|c| c.is_alphanumeric()).collect()
    }
}
