//! `chars::is_alphanumeric(c)`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        name.chars().filter(|&c| subako_tiny::chars::is_alphanumeric(c)).collect()
    }
}
