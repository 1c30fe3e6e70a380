//! `random::Rng::seeded(n).shuffle(&mut v)`: a shuffle by a seed (std has no random numbers).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let mut letters = [name.len(), 1, 2, 3, 4, 5];
        subako_tiny::random::Rng::seeded(name.len() as u64).shuffle(&mut letters);
        if letters[0] > 3 { "big" } else { "small" }
    }
}
