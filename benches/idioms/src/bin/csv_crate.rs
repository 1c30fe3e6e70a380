//! `csv::records(name)`, quoted fields and all: the longest field.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
use alloc::borrow::Cow;
subako_idioms::probe! {
    fn said<'a>(_: &Args<'_>, name: &'a str) -> Cow<'a, str> {
        let mut longest = Cow::Borrowed("");
        for record in subako_tiny::csv::records(name) {
            for field in record {
                if field.len() > longest.len() {
                    longest = field;
                }
            }
        }
        longest
    }
}
