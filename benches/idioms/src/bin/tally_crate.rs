//! Counting by key with `tally::Tally<String>`, then the first in key order.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        let mut counts = subako_tiny::tally::Tally::new();
        for part in name.split(',') {
            counts.add(String::from(part));
        }
        counts.sorted().into_iter().next().map(|(k, _)| k).unwrap_or_default()
    }
}
