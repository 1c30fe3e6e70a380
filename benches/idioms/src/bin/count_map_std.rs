//! Counting by key with std: `BTreeMap<String, u64>`, `entry(..).or_insert(0) += 1`, then the first in key order.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        let mut counts: alloc::collections::BTreeMap<String, u64> = alloc::collections::BTreeMap::new();
        for part in name.split(',') {
            *counts.entry(String::from(part)).or_insert(0) += 1;
        }
        counts.into_iter().next().map(|(k, _)| k).unwrap_or_default()
    }
}
