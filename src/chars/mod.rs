//! Small text routines with std's answers and fewer bytes.
//!
//! | std | here | why |
//! |---|---|---|
//! | `s.trim()`, `trim_start()`, `trim_end()` | [`trim`], [`trim_start`], [`trim_end`] | a loop over the chars at each end, with `White_Space` as a dozen comparisons instead of std's 256-byte table and pattern searcher (when ASCII whitespace is enough, std's `trim_ascii` is smaller still) |
//! | `s.chars().count()` | [`count`] | eight bytes a turn, not a decoder |
//! | `s.find("ab")` | [`find`] | a plain scan, not the Two-Way searcher (and its bounds-check panic) |
//! | `c.is_alphanumeric()` | [`is_alphanumeric`] | one table of runs, Exp-Golomb coded, where std has two (`Alphabetic` and `N*`) of bytes |
//! | `s.split(\|c: char\| !c.is_alphanumeric()).filter(\|w\| !w.is_empty())` | [`words`] | the same, as one iterator |
//! | `s.split('\t')` (a char) | [`split`] | the separator's first byte looked for eight bytes at a time, not core's pattern searcher |
//! | `s.lines()` | [`lines`] | the same, for newlines |
//!
//! Each gives exactly std's answer (the tests compare them on every
//! scalar value and on random strings); `benches/idioms/measure.sh` prints
//! what each adds to a module beside std's.
//!
//! There is no `is_alphabetic` or `is_numeric` alone: a table each would
//! cost about what the one for both does.
//!
//! # Examples
//! ```
//! use subako_tiny::chars;
//!
//! assert_eq!(chars::trim("\u{3000} tea\t\n"), "tea");
//! assert_eq!(chars::count("naïve"), 5);
//! assert_eq!(chars::find("a cup of tea", "tea"), Some(9));
//! ```

mod tables;

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::bits::run_of;

/// The Unicode version whose `Alphabetic` and numeric chars
/// [`is_alphanumeric`] holds: core's `char::UNICODE_VERSION` for the
/// toolchain the crate is built with (a test checks that they agree).
pub const UNICODE_VERSION: (u8, u8, u8) = tables::UNICODE_VERSION;

/// Whether `c` is Unicode `White_Space`: what `char::is_whitespace` and
/// `str::trim` test.
///
/// # Examples
/// ```
/// assert!(subako_tiny::chars::is_whitespace('\u{A0}'));
/// assert!(!subako_tiny::chars::is_whitespace('\u{200B}'));
/// ```
pub fn is_whitespace(c: char) -> bool {
    whitespace(c as u32)
}

/// [`is_whitespace`] of a scalar value.
fn whitespace(c: u32) -> bool {
    matches!(c, 0x09..=0x0D | 0x20 | 0x85 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000)
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
    let b = s.as_bytes();
    let mut at = 0;
    loop {
        let (c, len) = unpack(decode(b, at));
        if len == 0 || !whitespace(c) {
            return s.get(at..).unwrap_or_default();
        }
        at += len;
    }
}

/// `s.trim_end()`: without the `White_Space` chars at the end.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::chars::trim_end(" x \u{3000}"), " x");
/// ```
pub fn trim_end(s: &str) -> &str {
    let b = s.as_bytes();
    let mut end = b.len();
    while let Some(last) = end.checked_sub(1) {
        // Back to the first byte of the last char.
        let mut start = last;
        while start > 0 && b.get(start).is_some_and(|&byte| byte & 0xC0 == 0x80) {
            start -= 1;
        }
        if !whitespace(unpack(decode(b, start)).0) {
            break;
        }
        end = start;
    }
    s.get(..end).unwrap_or_default()
}

/// `s.chars().count()`: how many chars (bytes that do not continue one),
/// thirty-two bytes a turn.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::chars::count("日本語"), 3);
/// ```
pub fn count(s: &str) -> usize {
    count_utf8(s.as_bytes())
}

/// [`count`] of UTF-8 bytes: those that are not continuation bytes,
/// `10xxxxxx`.
pub(crate) fn count_utf8(b: &[u8]) -> usize {
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    /// Word `k` of `block`'s continuation bytes (bit 7 set, bit 6 clear,
    /// moved up to bit 7), marked in bit 7 of each, moved down by `k`.
    #[inline(always)]
    fn marks(block: &[u8; 32], k: usize) -> u64 {
        let w = u64::from_le_bytes(block.get(k * 8..).and_then(|r| r.first_chunk::<8>()).copied().unwrap_or_default());
        (w & !(w << 1) & HIGH_BITS) >> k
    }
    let (blocks, rest) = b.as_chunks::<32>();
    let mut continuations = 0;
    // Four words a turn: each word's marks, moved down a bit more than the
    // last's, miss the others', so one count takes all four (a loop of
    // single words spends most of its turn on the loop).
    for block in blocks {
        continuations += (marks(block, 0) | marks(block, 1) | marks(block, 2) | marks(block, 3)).count_ones() as usize;
    }
    for &b in rest {
        continuations += usize::from(b & 0xC0 == 0x80);
    }
    b.len() - continuations
}

/// `haystack.find(needle)`: the byte offset of the first occurrence, 0
/// for an empty needle. It skips to each place the needle's rarest-looking
/// byte is (the last byte of a char that is not ASCII, before an ASCII
/// letter or digit, before punctuation), eight bytes a step, and compares
/// there: fast when
/// that byte is rare in the haystack (a whole file searched for one entry's
/// key, say), up to `haystack.len() × needle.len()` steps when it is
/// everywhere, where std's takes about `haystack.len() + needle.len()`: for
/// long needles in long text made to be slow ("aaa…ab" in "aaa…a"), use
/// std's.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::chars::find("ababc", "abc"), Some(2));
/// assert_eq!(subako_tiny::chars::find("abc", ""), Some(0));
/// assert_eq!(subako_tiny::chars::find("abc", "d"), None);
/// ```
pub fn find(haystack: &str, needle: &str) -> Option<usize> {
    // A match of whole UTF-8 text starts on a char boundary, as std's does:
    // it starts with the needle's first byte, which begins a char.
    crate::json::scan::find_bytes(haystack.as_bytes(), needle.as_bytes())
}

/// `c.is_alphanumeric()`: whether `c` is `Alphabetic` or numeric (general
/// category `Nd`, `Nl` or `No`), for the Unicode version of
/// [`UNICODE_VERSION`].
///
/// Most 512-char blocks of the BMP (CJK ideographs, Hangul, most of
/// Latin, Greek and Cyrillic) are all in or all out, a bit each. For a
/// char of the others it reads a compressed table, from where the group
/// of runs that holds it starts: some thousands of wasm operations, where
/// std searches a larger one by halves. The answers found are kept (256
/// slots, by char), so a text's chars, which recur, are looked up about
/// once each: a page of text costs less than std's (`benches/words.sh`),
/// a single word of it more.
///
/// # Examples
/// ```
/// use subako_tiny::chars::is_alphanumeric;
///
/// assert!(is_alphanumeric('é') && is_alphanumeric('語') && is_alphanumeric('²'));
/// assert!(!is_alphanumeric('、') && !is_alphanumeric('_') && !is_alphanumeric('🦀'));
/// ```
pub fn is_alphanumeric(c: char) -> bool {
    alphanumeric(c as u32)
}

/// [`is_alphanumeric`] of a scalar value.
fn alphanumeric(c: u32) -> bool {
    if c < 0x80 {
        return (c | 0x20).wrapping_sub(b'a' as u32) < 26 || c.wrapping_sub(b'0' as u32) < 10;
    }
    // Most 512-char blocks of the BMP (CJK, Hangul, most of Latin, Greek
    // and Cyrillic) are all in or all out: one bit each.
    if c < 0x1_0000 {
        let bit = |blocks: [u64; 2]| blocks[(c >> 15) as usize & 1] >> (c >> 9 & 63) & 1 == 1;
        if bit(tables::BLOCKS_IN) {
            return true;
        }
        if bit(tables::BLOCKS_OUT) {
            return false;
        }
    }
    // The table is read from where `c`'s group starts, some thousands of
    // operations: a text's chars recur, so each is looked up once. A slot
    // holds `c + 1` and the answer. Atomics so that threads on the host
    // share the slots safely; on wasm32 they are plain loads and stores.
    let key = (c + 1) << 1;
    let slot = &SEEN[(c ^ c >> 8) as usize % SEEN.len()];
    let seen = slot.load(Ordering::Relaxed);
    if seen & !1 == key {
        return seen & 1 == 1;
    }
    // The run of chars, all in or all out, that the last walk ended in: a
    // script's letters are mostly one run (Cyrillic's а to я, Greek's α
    // to ω), so a text's other letters of it need no walk.
    // One atomic, so that threads on the host see a run whole.
    let run = RUN.load(Ordering::Relaxed);
    let found = if c.wrapping_sub(run as u32) < (run >> 32) as u32 & 0x7FFF_FFFF {
        run >> 63 == 1
    } else {
        #[cfg(not(target_arch = "wasm32"))]
        WALKS.fetch_add(1, Ordering::Relaxed);
        // The last group that starts at or before `c` (the first starts at U+0000).
        let mut group = 0;
        for &g in &tables::ALPHANUMERIC_GROUPS {
            if g >> 11 > c {
                break;
            }
            group = g;
        }
        let runs = tables::ALPHANUMERIC.get((group & 0x7FF) as usize..).unwrap_or_default();
        let base = group >> 11;
        let (found, start, end) = run_of(runs, c - base, tables::ALPHANUMERIC_OUT, tables::ALPHANUMERIC_IN);
        let length = end.wrapping_sub(start) & 0x7FFF_FFFF;
        RUN.store(u64::from(base + start) | u64::from(length) << 32 | u64::from(found) << 63, Ordering::Relaxed);
        found
    };
    slot.store(key | found as u32, Ordering::Relaxed);
    found
}

/// The run of [`alphanumeric`]'s table the last walk of it ended in: its
/// first char, its length above that, and whether its chars are in the set
/// in the top bit (0 before any walk: a run of no chars).
static RUN: AtomicU64 = AtomicU64::new(0);

/// How many times [`alphanumeric`] has walked its table, on the host: for
/// tests/chars_costs.rs, which holds a text's walks to about the runs its
/// letters are in. Not on wasm32, where nothing reads it.
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub static WALKS: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(0);

/// Answers [`is_alphanumeric`] found in the table, in slots by char.
static SEEN: [AtomicU32; 256] = [const { AtomicU32::new(0) }; 256];

/// The words of `s`: its runs of [`is_alphanumeric`] chars, what
/// `s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty())`
/// yields. Everything else (spaces, punctuation, symbols, emoji) is
/// between words. Text written without spaces (Japanese, Chinese, Thai)
/// is split only at its punctuation: `吾輩は猫である` is one word, as in
/// std's split; splitting it into dictionary words is not done here.
/// ASCII is classed eight bytes at a time, other chars one at a time
/// (`benches/words.sh` measures each script beside std's split). Digits
/// are word chars, as in `is_alphanumeric` (`2nd`, `½`, `Ⅻ` are words):
/// for words of letters alone, split with `!c.is_alphabetic()` (core's,
/// its own table; author trial 95 counted `2nd` where it meant `nd`).
///
/// Split first, then lowercase each word: lowercasing can add a char
/// that is not alphanumeric inside a word (`İ` becomes `i` and U+0307, a
/// combining dot), so the lowercase of `İstanbul` splits in two, with
/// std's split as with this one.
///
/// # Examples
/// ```
/// use subako_tiny::{case, chars::words};
///
/// assert!(words("Hello, wörld! 2 × 3").eq(["Hello", "wörld", "2", "3"]));
/// assert!(words("東京、大阪。").eq(["東京", "大阪"]));
/// assert!(words("吾輩は猫である。").eq(["吾輩は猫である"]));
/// assert_eq!(words(" -- ").next(), None);
/// // Split, then lowercase: one word. The other way round: two.
/// assert!(words("İstanbul").map(case::to_lowercase).eq(["i\u{307}stanbul"]));
/// assert!(words(&case::to_lowercase("İstanbul")).eq(["i", "stanbul"]));
/// ```
pub fn words(s: &str) -> Words<'_> {
    Words { rest: s }
}

/// The iterator [`words`] returns.
#[derive(Clone, Debug)]
pub struct Words<'a> {
    rest: &'a str,
}

impl core::iter::FusedIterator for Words<'_> {}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let s = self.rest.as_bytes();
        let mut at = 0;
        // Where the word starts, once a char of it is met.
        let mut start = None;
        while let Some(&first) = s.get(at) {
            let mut b = first;
            // ASCII, most of most text, eight bytes a turn without decoding,
            // up to the first byte of the other class (the edge) or past
            // ASCII, which the next turn looks at.
            if b < 0x80
                && let Some(eight) = s.get(at..).and_then(|rest| rest.first_chunk::<8>())
            {
                let w = u64::from_le_bytes(*eight);
                let alnum = ascii_alphanumeric(w);
                let stop = if start.is_some() { !alnum & HIGH } else { alnum | (w & HIGH) };
                if stop == 0 {
                    at += 8;
                    continue;
                }
                at += (stop.trailing_zeros() / 8) as usize;
                match s.get(at) {
                    Some(&edge) if edge < 0x80 => b = edge,
                    _ => continue,
                }
            }
            let (c, len) = if b < 0x80 { (u32::from(b), 1) } else { unpack(decode(s, at)) };
            let inside = alphanumeric(c);
            match start {
                None if inside => start = Some(at),
                Some(from) if !inside => {
                    let (word, rest) = s.split_at_checked(at).unwrap_or_default();
                    // SAFETY: `from` and `at` are char boundaries of UTF-8 text.
                    self.rest = unsafe { crate::sys::assume_utf8(rest) };
                    // SAFETY: as above.
                    return word.get(from..).map(|w| unsafe { crate::sys::assume_utf8(w) });
                }
                _ => {}
            }
            at += len;
        }
        self.rest = "";
        // SAFETY: as above.
        start.and_then(|from| s.get(from..)).map(|w| unsafe { crate::sys::assume_utf8(w) })
    }
}

/// `s.split(sep)` for a char `sep`: the text before, between and after
/// each `sep`, in order (an empty piece between two together, and at an
/// end that is one). The separator's first byte is looked for eight bytes
/// at a time: reading a file of short fields (a TSV, a CSV without quotes)
/// with this and [`lines`] takes about three quarters of the work of
/// std's `lines` and `split` (the repository's `benches/split.sh`), in
/// fewer bytes. Forward only (no `rev`).
///
/// # Examples
/// ```
/// use subako_tiny::chars;
///
/// assert!(chars::split("Zürich\tCH\t421878", '\t').eq(["Zürich", "CH", "421878"]));
/// assert!(chars::split(",a,,b,", ',').eq(["", "a", "", "b", ""]));
/// assert!(chars::split("東京・大阪", '・').eq(["東京", "大阪"]));
/// assert!(chars::split("", ',').eq([""]));
/// ```
pub fn split(s: &str, sep: char) -> Split<'_> {
    let mut bytes = [0; 4];
    let len = sep.encode_utf8(&mut bytes).len();
    Split { rest: Some(s), sep: bytes, len: len as u8 }
}

/// The iterator [`split`] returns.
#[derive(Clone, Debug)]
pub struct Split<'a> {
    /// The text not yet yielded; `None` once the last piece has been.
    rest: Option<&'a str>,
    sep: [u8; 4],
    len: u8,
}

impl core::iter::FusedIterator for Split<'_> {}

impl<'a> Iterator for Split<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let s = self.rest?;
        let b = s.as_bytes();
        let sep = self.sep.get(..self.len as usize).unwrap_or_default();
        let first = sep.first().copied().unwrap_or_default();
        let mut at = 0;
        loop {
            at = crate::json::scan::find(b, at, first);
            if at >= b.len() {
                self.rest = None;
                return Some(s);
            }
            if crate::bytes::same_at(b, at, at + sep.len(), sep) {
                // Char boundaries: the separator is whole chars.
                self.rest = s.get(at + sep.len()..);
                return s.get(..at);
            }
            at += 1;
        }
    }
}

/// `s.lines()`: the lines of `s`, each without its `\n` or `\r\n`, and
/// no empty line after a final newline; a `\r` not before a `\n` stays,
/// as in std. Each newline is looked for eight bytes at a time, as in
/// [`split`]. Forward only (no `rev`).
///
/// # Examples
/// ```
/// use subako_tiny::chars;
///
/// assert!(chars::lines("name\tpop\r\nBern\t134591\n").eq(["name\tpop", "Bern\t134591"]));
/// assert!(chars::lines("a\n\nb\r").eq(["a", "", "b\r"]));
/// assert_eq!(chars::lines("").next(), None);
/// ```
pub fn lines(s: &str) -> Lines<'_> {
    Lines { rest: s }
}

/// The iterator [`lines`] returns.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: &'a str,
}

impl core::iter::FusedIterator for Lines<'_> {}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let s = self.rest;
        if s.is_empty() {
            return None;
        }
        let b = s.as_bytes();
        let end = crate::json::scan::find(b, 0, b'\n');
        if end >= b.len() {
            self.rest = "";
            return Some(s);
        }
        self.rest = s.get(end + 1..).unwrap_or_default();
        let cut = end - (end > 0 && b.get(end - 1) == Some(&b'\r')) as usize;
        s.get(..cut)
    }
}

/// The high bit of each byte of `w` that is an ASCII letter or digit.
fn ascii_alphanumeric(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    // Each byte's low seven bits, and its letter's lowercase: no sum below
    // carries out of its byte. A byte at or above its range's start gets
    // its high bit from the first sum, one past its end from the second.
    let x = w & !HIGH;
    let lower = x | (ONES * 0x20);
    let letter = (lower + ONES * u64::from(0x80 - b'a')) & !(lower + ONES * u64::from(0x7F - b'z'));
    let digit = (x + ONES * u64::from(0x80 - b'0')) & !(x + ONES * u64::from(0x7F - b'9'));
    (letter | digit) & HIGH & !w
}

/// The char at byte `at` of UTF-8 text (a char boundary), with its
/// length in bytes above its 21 bits; 0 at the end.
pub(crate) fn decode(s: &[u8], at: usize) -> u32 {
    let Some(&first) = s.get(at) else { return 0 };
    let mut c = first as u32;
    let mut len = 1;
    if c >= 0xC0 {
        // 110xxxxx, 1110xxxx, 11110xxx: as many bytes as leading ones.
        len = (c << 24).leading_ones();
        c &= 0x7F >> len;
        for i in 1..len as usize {
            c = c << 6 | (s.get(at + i).map_or(0, |&b| b as u32 & 0x3F));
        }
    }
    c | len << 21
}

/// A [`decode`]d char and its length.
pub(crate) fn unpack(decoded: u32) -> (u32, usize) {
    (decoded & 0x1F_FFFF, (decoded >> 21) as usize)
}
