//! `float::round_to::<2>(x)`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let x = name.len() as f64 * 0.37 - 2.0;
        let y = subako_tiny::float::round_to::<2>(x);
        if y > 1.5 { "big" } else { "small" }
    }
}
