//! `name.split('\t')`: the longest piece, read forwards.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said<'a>(_: &Args<'_>, name: &'a str) -> &'a str {
        let mut longest = "";
        for piece in name.split('\t') {
            if piece.len() > longest.len() {
                longest = piece;
            }
        }
        longest
    }
}
