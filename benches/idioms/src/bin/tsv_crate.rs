//! The name read as tab-separated lines with `chars::lines` and
//! `chars::split`: the longest field (benches/split.sh).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
use subako_tiny::chars;
subako_idioms::probe! {
    fn said<'a>(_: &Args<'_>, name: &'a str) -> &'a str {
        let mut longest = "";
        for line in chars::lines(name) {
            for field in chars::split(line, '\t') {
                if field.len() > longest.len() {
                    longest = field;
                }
            }
        }
        longest
    }
}
