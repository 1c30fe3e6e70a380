//! `name.to_ascii_lowercase()` (std's cheap, ASCII-only alternative).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        name.to_ascii_lowercase()
    }
}
