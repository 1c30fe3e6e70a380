//! The name read as tab-separated lines with `lines()` and `split('\t')`:
//! the longest field (benches/split.sh).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said<'a>(_: &Args<'_>, name: &'a str) -> &'a str {
        let mut longest = "";
        for line in name.lines() {
            for field in line.split('\t') {
                if field.len() > longest.len() {
                    longest = field;
                }
            }
        }
        longest
    }
}
