//! `case::to_lowercase(name)`
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        subako_tiny::case::to_lowercase(name)
    }
}
