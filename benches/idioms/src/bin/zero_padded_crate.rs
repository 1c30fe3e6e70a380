//! `text!(text::zero_padded(n, 4))`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        let n = name.len() as i64;
        subako_tiny::text!(subako_tiny::text::zero_padded(n, 4)).into_string()
    }
}
