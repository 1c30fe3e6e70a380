//! none: the name's length in thousands of pseudo-random `u64`s, not sorted (the baseline) (benches/sort.sh).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        let v: Vec<u64> = subako_idioms::numbers(name.len() * 1000);
        subako_tiny::text!(v.get(v.len() / 3).copied().unwrap_or(0)).into()
    }
}
