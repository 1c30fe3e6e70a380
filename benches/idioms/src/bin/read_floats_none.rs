//! Splits the name at spaces as the read_floats probes do, and reads
//! nothing: what benches/floats.sh takes from their fuel.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let mut bytes = 0;
        for word in name.split(' ') {
            bytes += core::hint::black_box(word).len();
        }
        if bytes > 15 { "big" } else { "small" }
    }
}
