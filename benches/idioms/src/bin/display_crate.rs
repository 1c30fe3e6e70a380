//! `text!(text::plain(x))`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        let x = name.len() as f64 * 0.37 - 2.0;
        subako_tiny::text!(subako_tiny::text::plain(x)).into_string()
    }
}
