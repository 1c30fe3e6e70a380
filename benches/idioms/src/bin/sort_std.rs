//! `v.sort()` on a `Vec<String>`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        let mut v: Vec<String> = name.split(',').map(String::from).collect();
        v.sort();
        v.into_iter().next().unwrap_or_default()
    }
}
