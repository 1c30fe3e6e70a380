//! `chars::words(name)`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said<'a>(_: &Args<'_>, name: &'a str) -> &'a str {
        subako_tiny::chars::words(name).last().unwrap_or("nobody")
    }
}
