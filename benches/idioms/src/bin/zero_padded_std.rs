//! `format!("{n:04}")` with an integer.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        let n = name.len();
        alloc::format!("{n:04}")
    }
}
