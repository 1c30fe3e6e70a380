//! Reads the name's words (split at spaces) with `num::parse_f64` and adds
//! them up: for benches/floats.sh.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let mut sum = 0.0;
        for word in name.split(' ') {
            if let Some(x) = subako_tiny::num::parse_f64(word) {
                sum += x;
            }
        }
        if sum > 1.5 { "big" } else { "small" }
    }
}
