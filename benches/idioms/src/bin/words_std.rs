//! `name.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty())`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said<'a>(_: &Args<'_>, name: &'a str) -> &'a str {
        name.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).last().unwrap_or("nobody")
    }
}
