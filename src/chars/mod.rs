//! Small text routines with std's answers and fewer bytes.
//!
//! | std | here | why |
//! |---|---|---|
//! | `s.trim()`, `trim_start()`, `trim_end()` | [`trim`], [`trim_start`], [`trim_end`] | the same search, with `White_Space` as a dozen comparisons instead of std's 256-byte table (when ASCII whitespace is enough, std's `trim_ascii` is smaller still) |
//! | `s.chars().count()` | [`count`] | eight bytes a turn, not a decoder |
//! | `s.find("ab")` | [`find`] | a plain scan, not the Two-Way searcher (and its bounds-check panic) |
//!
//! Each gives exactly std's answer (the tests compare them on every
//! scalar value and on random strings); `benches/idioms/measure.sh` prints
//! what each adds to a module beside std's.
//!
//! # Examples
//! ```
//! use subako_tiny::chars;
//!
//! assert_eq!(chars::trim("\u{3000} tea\t\n"), "tea");
//! assert_eq!(chars::count("naïve"), 5);
//! assert_eq!(chars::find("a cup of tea", "tea"), Some(9));
//! ```

/// Whether `c` is Unicode `White_Space`: what `char::is_whitespace` and
/// `str::trim` test.
///
/// # Examples
/// ```
/// assert!(subako_tiny::chars::is_whitespace('\u{A0}'));
/// assert!(!subako_tiny::chars::is_whitespace('\u{200B}'));
/// ```
pub fn is_whitespace(c: char) -> bool {
    matches!(c as u32, 0x09..=0x0D | 0x20 | 0x85 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000)
}

/// `s.trim()`: without the `White_Space` chars at either end.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::chars::trim("\u{2003}x y\u{85}"), "x y");
/// ```
pub fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
}

/// `s.trim_start()`: without the `White_Space` chars at the start.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::chars::trim_start("  x "), "x ");
/// ```
pub fn trim_start(s: &str) -> &str {
    s.trim_start_matches(is_whitespace)
}

/// `s.trim_end()`: without the `White_Space` chars at the end.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::chars::trim_end(" x \u{3000}"), " x");
/// ```
pub fn trim_end(s: &str) -> &str {
    s.trim_end_matches(is_whitespace)
}

/// `s.chars().count()`: how many chars (bytes that do not continue one),
/// eight bytes a turn.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::chars::count("日本語"), 3);
/// ```
pub fn count(s: &str) -> usize {
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let (words, rest) = s.as_bytes().as_chunks::<8>();
    let mut continuations = 0;
    for word in words {
        // Bit 7 set and bit 6 clear (moved up to bit 7): `10xxxxxx`.
        let w = u64::from_le_bytes(*word);
        continuations += (w & !(w << 1) & HIGH_BITS).count_ones() as usize;
    }
    for &b in rest {
        continuations += usize::from(b & 0xC0 == 0x80);
    }
    s.len() - continuations
}

/// `haystack.find(needle)`: the byte offset of the first occurrence, 0
/// for an empty needle. It compares at each offset in turn, so it takes up
/// to `haystack.len() × needle.len()` steps where std's takes about
/// `haystack.len() + needle.len()`: for long needles in long text made to
/// be slow ("aaa…ab" in "aaa…a"), use std's.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::chars::find("ababc", "abc"), Some(2));
/// assert_eq!(subako_tiny::chars::find("abc", ""), Some(0));
/// assert_eq!(subako_tiny::chars::find("abc", "d"), None);
/// ```
pub fn find(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    // A match of whole UTF-8 text starts on a char boundary, as std's does.
    (0..=h.len().checked_sub(n.len())?).find(|&at| h.get(at..at + n.len()).is_some_and(|w| crate::bytes::same(w, n)))
}
