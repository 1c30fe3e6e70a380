//! `format!("{x:.2}").parse::<f64>()`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let x = name.len() as f64 * 0.37 - 2.0;
        let y = alloc::format!("{x:.2}").parse::<f64>().unwrap_or(x);
        if y > 1.5 { "big" } else { "small" }
    }
}
