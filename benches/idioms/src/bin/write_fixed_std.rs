//! Writes as many floats as the name has bytes with `write!(s, "{x:.2},")`,
//! of the kind its first byte names (`subako_idioms::float_value`): for
//! benches/floats.sh.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        use core::fmt::Write;
        let mut out = String::new();
        let kind = name.bytes().next().unwrap_or(b'p');
        for i in 0..name.len() {
            let _ = write!(out, "{:.2},", subako_idioms::float_value(kind, i));
        }
        subako_tiny::text!(out.len()).into()
    }
}
