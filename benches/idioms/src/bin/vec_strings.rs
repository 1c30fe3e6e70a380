//! The baseline of the sort probes: a `Vec<String>` of runtime length, from the name's comma-separated parts.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        let v: Vec<String> = name.split(',').map(String::from).collect();
        v.into_iter().next().unwrap_or_default()
    }
}
