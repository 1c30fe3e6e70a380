//! Both: `name.to_lowercase()` and `name.to_uppercase()`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        if name.len() > 3 { name.to_lowercase() } else { name.to_uppercase() }
    }
}
