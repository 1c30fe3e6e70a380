//! Both: `case::to_lowercase(name)` and `case::to_uppercase(name)`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        if name.len() > 3 { subako_tiny::case::to_lowercase(name) } else { subako_tiny::case::to_uppercase(name) }
    }
}
