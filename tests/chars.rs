//! `subako_tiny::chars` against std: `is_whitespace` on every scalar
//! value, `trim`/`trim_start`/`trim_end` on every scalar value at each
//! end, and those, `count` and `find` on random strings.
//!
//! `CHARS_CASES=N` (default 20,000) and `CHARS_SEED=S`.

use subako_tiny::chars;

mod common;
use common::{Rng, env};

fn check(s: &str) {
    assert_eq!(chars::trim(s), s.trim(), "trim({s:?})");
    assert_eq!(chars::trim_start(s), s.trim_start(), "trim_start({s:?})");
    assert_eq!(chars::trim_end(s), s.trim_end(), "trim_end({s:?})");
    assert_eq!(chars::count(s), s.chars().count(), "count({s:?})");
}

#[test]
fn every_scalar_value() {
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        assert_eq!(chars::is_whitespace(c), c.is_whitespace(), "{c:?}");
        for s in [format!("{c}"), format!("{c}x{c}"), format!(" {c}"), format!("{c}\u{3000}")] {
            check(&s);
        }
    }
}

#[test]
fn random_strings() {
    let pool: Vec<char> = " \t\n\r\u{B}\u{C}\u{85}\u{A0}\u{1680}\u{2000}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{200B}\u{FEFF}abé日𝄞"
        .chars()
        .collect();
    let mut rng = Rng(env("CHARS_SEED", 0xC4A5));
    for _ in 0..env("CHARS_CASES", 20_000) {
        let make =
            |rng: &mut Rng, n: usize| -> String { (0..rng.below(n)).map(|_| pool[rng.below(pool.len())]).collect() };
        let h = make(&mut rng, 16);
        check(&h);
        let n = if rng.below(3) == 0 {
            // A piece of the haystack, so that it is found.
            let cut: Vec<char> = h.chars().collect();
            let a = rng.below(cut.len() + 1);
            let b = a + rng.below(cut.len() - a + 1);
            cut[a..b].iter().collect()
        } else {
            make(&mut rng, 4)
        };
        assert_eq!(chars::find(&h, &n), h.find(n.as_str()), "find({h:?}, {n:?})");
    }
    for (h, n) in [("", ""), ("", "a"), ("a", ""), ("aaab", "aab"), ("ab", "abc"), ("日本", "本"), ("日本", "\u{672C}")]
    {
        assert_eq!(chars::find(h, n), h.find(n), "find({h:?}, {n:?})");
    }
}
