//! Writes as many floats as the name has bytes to two decimals with
//! `text::fixed`, of the kind its first byte names
//! (`subako_idioms::float_value`): for benches/floats.sh.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        let mut out = subako_tiny::text::Text::new();
        let kind = name.bytes().next().unwrap_or(b'p');
        for i in 0..name.len() {
            out.push(&subako_tiny::text::fixed(subako_idioms::float_value(kind, i), 2)).push(",");
        }
        subako_tiny::text!(out.as_str().len()).into()
    }
}
