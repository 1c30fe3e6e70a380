//! `random::Rng::from_platform()?.below(6)`: a die roll (std has no random numbers).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let roll = subako_tiny::random::Rng::from_platform().map(|mut rng| rng.below(6));
        match roll {
            Ok(roll) if roll + name.len() as u64 > 3 => "big",
            Ok(_) => "small",
            Err(_) => "no dice",
        }
    }
}
