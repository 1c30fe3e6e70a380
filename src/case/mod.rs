//! Unicode case mapping with std's answers, in a fraction of std's bytes.
//!
//! | std | here | what it costs a module |
//! |---|---|---|
//! | `s.to_lowercase()` | [`to_lowercase`] | see below |
//! | `s.to_uppercase()` | [`to_uppercase`] | see below |
//! | `c.to_lowercase()` / `c.to_uppercase()` (on a `char`) | [`lower`] / [`upper`] | the same tables |
//! | `a.to_lowercase() == b.to_lowercase()` | [`eq_ignore_case`] | no allocation |
//! | `h.to_lowercase().contains(&n.to_lowercase())` | [`contains_ignore_case`] | no allocation, but for inputs made to be slow (a few times std's work there) |
//! | `h.to_lowercase().find(&n.to_lowercase())`, for where the match is in `h` | [`find_ignore_case`], [`find_range_ignore_case`] | as `contains_ignore_case`; a byte range of `h` itself, which std's idiom does not give |
//! | `h.to_lowercase().matches(&n.to_lowercase()).count()` | [`count_ignore_case`] | as `contains_ignore_case`; on inputs made to be slow, two words a char of the needle |
//! | offsets in `h.to_lowercase()` back to `h` (std has none) | [`original_offsets`] | one pass over `h` for any number of offsets |
//!
//! std's `to_lowercase` brings about 13 KB of Unicode tables into a module,
//! `to_uppercase` as much again; both here, with the final-sigma rule, cost
//! under a third of one of them, code and data together (the guide's
//! [price list](crate::guide::small_modules) has the bytes, which
//! `benches/idioms/measure.sh` measures). A search passes a word at a time
//! the bytes that cannot begin a match. The answers are std's for every string: a test
//! compares every scalar value with `char::to_lowercase`/`to_uppercase` and
//! strings of every script with `str::to_lowercase`/`to_uppercase`, for the
//! Unicode version of the toolchain's core ([`UNICODE_VERSION`]).
//!
//! The price is speed on the first of each letter beyond ASCII that has a
//! case: it is looked up by reading a compressed table from the nearest of
//! a dozen places a reading may start at before it, where std searches a
//! larger one by halves: a few thousand wasm operations, a few entries in
//! for Latin-1 (so most French, German and Spanish). The answers found are kept (128 sets of two slots, by char
//! and direction), so a text's letters, which recur, are looked up about
//! once each, two scripts mixed in one text included (tests/case_costs.rs
//! counts the reads; a text that keeps three letters of one set in turn,
//! from three scripts, reads the table for them again): a page of Greek or Cyrillic
//! costs a few times what a page of ASCII does, a single word of it several
//! times more per letter. The final-sigma rule, which looks at the chars
//! around each Σ, answers a letter beside it from its mapping. The scripts without case
//! (CJK, kana, Hangul, Arabic, Hebrew, Indic, Thai, emoji) take a shortcut.
//! [`to_lowercase`] and [`to_uppercase`] copy the chars that are their own
//! case in runs, not one by one, pass ASCII eight bytes a turn and CJK and
//! Hangul without decoding: a page of English or Japanese takes less work
//! than std's. `benches/case.sh` measures each kind of text beside std's.
//!
//! Ignoring case here is what the std idiom does: `to_lowercase` of both
//! sides, not Unicode's case folding. So `ß` and `SS` differ (`"straße"`
//! against `"strasse"`), as they do in `h.to_lowercase().contains(..)`.
//! For a search that must find `Größe` from `GRÖSSE`, search the
//! uppercase of one in the uppercase of the other with [`chars::find`]
//! (`h.to_uppercase().contains(&n.to_uppercase())` in std's words), at
//! the price of an uppercase copy of each. Uppercase spells `ß` as `SS`
//! and all three sigmas as `Σ`; it does not find `i` in `İ`, which the
//! lowercase search does. Not [`contains_ignore_case`] of the two
//! uppercase copies: it lowercases them again, and a needle ending in
//! `Σ` becomes a final `ς` that `σσ` in the middle of a word is not.
//! ```
//! use subako_tiny::{case, chars};
//!
//! let (title, query) = ("Größe prüfen", "GRÖSSE");
//! assert!(!case::contains_ignore_case(title, query));
//! assert!(chars::find(&case::to_uppercase(title), &case::to_uppercase(query)).is_some());
//! // The sigmas alike; contains_ignore_case of the uppercase copies misses this.
//! assert!(chars::find(&case::to_uppercase("ΟΔΥΣΣΕΥΣ"), &case::to_uppercase("οδυς")).is_some());
//! assert!(!case::contains_ignore_case(&case::to_uppercase("ΟΔΥΣΣΕΥΣ"), &case::to_uppercase("οδυσ")));
//! ```
//!
//! [`chars::find`]: crate::chars::find
//!
//! # Examples
//! ```
//! use subako_tiny::case;
//!
//! assert_eq!(case::to_lowercase("ΟΔΥΣΣΕΥΣ"), "οδυσσευς"); // a final sigma
//! assert_eq!(case::to_uppercase("straße"), "STRASSE");
//! assert!(case::eq_ignore_case("Straße", "STRASSE") == false); // lowercase: "straße" vs "strasse"
//! assert!(case::eq_ignore_case("ΚΑΛΗΜΕΡΑ", "καλημέρα") == false); // the accent differs
//! assert!(case::eq_ignore_case("İstanbul", "i\u{307}stanbul"));
//! assert_eq!(case::find_ignore_case("Hello, Wörld", "WÖR"), Some(7));
//! ```

mod tables;

use alloc::string::String;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::bits::{Bits, contains};
use crate::chars::{decode, unpack};

/// The Unicode version whose case mappings the tables hold: core's
/// `char::UNICODE_VERSION` for the toolchain the crate is built with (a
/// test checks that they agree).
pub const UNICODE_VERSION: (u8, u8, u8) = tables::UNICODE_VERSION;

/// What one char maps to: one to three chars, as an iterator (std's
/// `ToLowercase`/`ToUppercase` yield the same).
///
/// # Examples
/// ```
/// use subako_tiny::case;
///
/// assert!(case::upper('ß').eq(['S', 'S']));
/// assert_eq!(case::lower('Σ').len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct CaseMapping {
    chars: Packed,
    left: u8,
}

/// Up to three chars, 21 bits each from the lowest; the second and third
/// are never U+0000, so a 0 there means none.
type Packed = u64;

/// The bits of one char in a [`Packed`].
const CHAR: Packed = 0x1F_FFFF;

impl CaseMapping {
    fn new(chars: Packed) -> CaseMapping {
        CaseMapping { chars, left: 1 + (chars >> 21 != 0) as u8 + (chars >> 42 != 0) as u8 }
    }

    /// How many chars are left to yield.
    pub fn len(&self) -> usize {
        self.left as usize
    }

    /// Whether all have been yielded.
    pub fn is_empty(&self) -> bool {
        self.left == 0
    }
}

impl Iterator for CaseMapping {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        if self.left == 0 {
            return None;
        }
        let c = (self.chars & CHAR) as u32;
        self.chars >>= 21;
        self.left -= 1;
        char::from_u32(c)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len(), Some(self.len()))
    }
}

/// What `c.to_lowercase()` yields: one char, or two for U+0130 (İ → i̇).
///
/// # Examples
/// ```
/// use subako_tiny::case;
///
/// assert!(case::lower('Ä').eq(['ä']));
/// assert!(case::lower('İ').eq(['i', '\u{307}']));
/// assert!(case::lower('Σ').eq(['σ'])); // a char alone has no final sigma
/// ```
pub fn lower(c: char) -> CaseMapping {
    CaseMapping::new(map(c as u32, false))
}

/// What `c.to_uppercase()` yields: one to three chars.
///
/// # Examples
/// ```
/// use subako_tiny::case;
///
/// assert!(case::upper('ä').eq(['Ä']));
/// assert!(case::upper('ﬃ').eq(['F', 'F', 'I']));
/// ```
pub fn upper(c: char) -> CaseMapping {
    CaseMapping::new(map(c as u32, true))
}

/// `s.to_lowercase()`, with its final-sigma rule: Σ becomes ς at the end
/// of a word (a cased letter before it and none after, skipping
/// case-ignorable chars such as accents and apostrophes), σ elsewhere.
///
/// # Examples
/// ```
/// use subako_tiny::case::to_lowercase;
///
/// assert_eq!(to_lowercase("Hello, WORLD"), "hello, world");
/// assert_eq!(to_lowercase("ΣΑΣ ΛΕΣ"), "σας λες");
/// assert_eq!(to_lowercase("ǅ"), "ǆ");
/// ```
pub fn to_lowercase(s: &str) -> String {
    convert(s, false)
}

/// `s.to_uppercase()`.
///
/// # Examples
/// ```
/// use subako_tiny::case::to_uppercase;
///
/// assert_eq!(to_uppercase("Grüße, ǆ"), "GRÜSSE, Ǆ");
/// assert_eq!(to_uppercase("ᾳ"), "ΑΙ");
/// ```
pub fn to_uppercase(s: &str) -> String {
    convert(s, true)
}

/// `a.to_lowercase() == b.to_lowercase()`, without building either.
///
/// # Examples
/// ```
/// use subako_tiny::case::eq_ignore_case;
///
/// assert!(eq_ignore_case("Ünïcödé", "ÜNÏCÖDÉ"));
/// assert!(eq_ignore_case("ΌΣΟΣ", "όσος"));
/// assert!(!eq_ignore_case("ß", "SS")); // "ß" against "ss"
/// ```
pub fn eq_ignore_case(a: &str, b: &str) -> bool {
    Lower::new(a.as_bytes(), 0).eq(Lower::new(b.as_bytes(), 0))
}

/// Where `needle` first occurs in `haystack` when both are lowercased:
/// the byte offset in `haystack` of the char whose lowercase begins the
/// first match of `needle.to_lowercase()` in `haystack.to_lowercase()`
/// (or holds its start: U+0130's lowercase is two chars, and a match may
/// begin at the second). Each string is lowercased whole, so a sigma in
/// `haystack` is final or not by its own neighbours, not by where the
/// match ends. An empty needle is found at 0.
///
/// Linear in the lengths, as std's search is: it compares at each char
/// that could begin a match, allocating nothing, until the chars compared
/// pass half the haystack's bytes (long partial matches, as in "aaa…ab"
/// sought in "aaa…a"); then it goes on from there with a table of the
/// needle (two words a char of its lowercase). On such input it takes a
/// few times std's work (`to_lowercase` on both, then `contains`); on
/// text, less (`benches/notes.sh` searches notes both ways).
///
/// Each call reads `haystack` again, lowering it as it goes: to look for
/// many terms in one text, lowercase the text once ([`to_lowercase`]) and
/// each term, and search the lowercase with [`chars::find`](crate::chars::find)
/// (or std's `str::find`, a kilobyte more, which stays linear where a
/// term's bytes are everywhere in the text), which is cheaper past a few
/// terms (a term that is not there reads the whole text each
/// time; author trial 55 looked for 1,429 terms in each of 50 files this
/// way and ran out of time). The lowercase's offsets are not the text's:
/// [`original_offsets`] maps them back, all in one pass (or find the one
/// match to show again with [`find_range_ignore_case`]).
///
/// # Examples
/// ```
/// use subako_tiny::case::find_ignore_case;
///
/// assert_eq!(find_ignore_case("Grüße aus KÖLN", "köln"), Some(12));
/// assert_eq!(find_ignore_case("ΟΔΟΣ", "ος"), Some(4)); // "οδος" holds "ος"
/// assert_eq!(find_ignore_case("ΟΔΟΣ", "οσ"), None); // its sigma is final: "οδος"
/// assert_eq!(find_ignore_case("abc", ""), Some(0));
/// ```
pub fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    find::<false>(haystack.as_bytes(), needle.as_bytes()).map(|(start, _)| start)
}

/// Where `needle` first occurs in `haystack` when both are lowercased, as
/// a byte range of `haystack` that always slices it: from the char whose
/// lowercase holds the match's first char ([`find_ignore_case`]'s answer)
/// to the end of the char whose lowercase holds its last. For marking the
/// match or quoting around it: the match need not be `needle.len()` bytes
/// long (the Kelvin sign, three bytes, is found by `k`, one; `ẞ` by `ß`),
/// so `&haystack[start..start + needle.len()]` can cut a char and panic.
/// An empty needle is found at `0..0`. Linear in the lengths, as
/// [`find_ignore_case`] is. The match is the whole haystack's: a Σ in the
/// range lowercases to σ or ς by its neighbours outside it too, so
/// `&haystack[range]` alone may lowercase otherwise (`"AΣ"` holds `"ς"`
/// at `1..3`, and `"Σ"` alone lowercases to `"σ"`).
///
/// # Examples
/// ```
/// use subako_tiny::case::find_range_ignore_case;
///
/// let text = "Grüße aus KÖLN, am Rhein";
/// let found = find_range_ignore_case(text, "köln").unwrap();
/// assert_eq!(&text[found], "KÖLN");
///
/// let kelvin = "300 \u{212A} exactly";
/// let found = find_range_ignore_case(kelvin, "k").unwrap();
/// assert_eq!((found.clone(), &kelvin[found]), (4..7, "\u{212A}"));
///
/// // İ lowercases to "i\u{307}": a match of "i" alone ends with İ.
/// assert_eq!(find_range_ignore_case("İz", "i"), Some(0..2));
/// assert_eq!(find_range_ignore_case("abc", ""), Some(0..0));
/// assert_eq!(find_range_ignore_case("abc", "d"), None);
/// ```
pub fn find_range_ignore_case(haystack: &str, needle: &str) -> Option<core::ops::Range<usize>> {
    find::<true>(haystack.as_bytes(), needle.as_bytes()).map(|(start, end)| start..end)
}

/// Maps byte offsets in [`to_lowercase`]`(text)` back to `text`, in one
/// pass over it whatever their number: each of `offsets`, which must be
/// ascending, becomes the offset in `text` of the char whose lowercase
/// holds that byte (`text.len()` at or past the lowercase's end). The way
/// to show, from the text itself, matches found in its lowercase: for
/// many terms in one text, [`find_ignore_case`] advises lowercasing the
/// text once and searching that. A char's lowercase may be longer or
/// shorter than it (`İ`, 2 bytes, lowercases to `i̇`, 3; the Kelvin sign,
/// 3 bytes, to `k`, 1), so the two texts' offsets part at the first such
/// char. An offset inside one char's lowercase (only `İ`'s has two chars)
/// maps to that char's start.
///
/// # Examples
/// ```
/// use subako_tiny::{case, chars};
///
/// let text = "\u{212A}elvin and İstanbul: KELVIN, ISTANBUL";
/// let lower = case::to_lowercase(text);
/// // Every match of each term in the lowercase, then where each is in the text.
/// let mut starts = Vec::new();
/// for term in ["kelvin", "istanbul"] {
///     let mut from = 0;
///     while let Some(at) = chars::find(&lower[from..], term) {
///         starts.push(from + at);
///         from += at + term.len();
///     }
/// }
/// starts.sort();
/// let mut mapped = starts.clone();
/// case::original_offsets(text, &mut mapped);
/// // "kelvin and i̇stanbul: kelvin, istanbul": İ's lowercase has a dot above.
/// assert_eq!(starts, [0, 23, 31]);
/// assert_eq!(mapped, [0, 24, 32]);
/// assert!(text[mapped[1]..].starts_with("KELVIN"));
/// ```
pub fn original_offsets(text: &str, offsets: &mut [usize]) {
    // Bytes of the lowercase up to the end of the char at `at`.
    let (mut lowered, mut k) = (0, 0);
    for (at, c) in text.char_indices() {
        // Σ's lowercase is σ or ς by its place, two bytes either way.
        lowered += if c.is_ascii() { 1 } else { lower(c).map(char::len_utf8).sum() };
        while let Some(offset) = offsets.get_mut(k)
            && *offset < lowered
        {
            *offset = at;
            k += 1;
        }
    }
    for offset in offsets.iter_mut().skip(k) {
        *offset = text.len();
    }
}

/// The first match's start and, when `END` asks for it, its end (else 0):
/// one search for both, and [`find_ignore_case`], which asks for the start
/// alone, keeps none of the end's work.
#[inline(always)]
fn find<const END: bool>(h: &[u8], needle: &[u8]) -> Option<(usize, usize)> {
    // The needle is lowered as it is compared, once per char of the
    // haystack whose lowercase begins with the needle's.
    let mut rest = Lower::new(needle, 0);
    let Some(first) = rest.next() else { return Some((0, 0)) };
    let bytes = first_bytes(first);
    let mut budget = budget(h);
    let mut at = 0;
    loop {
        at = candidate(h, at, bytes);
        #[cfg(not(target_arch = "wasm32"))]
        CANDIDATES.fetch_add(1, Ordering::Relaxed);
        let mut from = Lower::new(h, at);
        loop {
            // A match begins at `from`'s next char, if any; `at` is the
            // char whose lowercase holds it.
            if from.next()? == first {
                let mut hay = from.clone();
                if rest.clone().all(|c| {
                    budget = budget.saturating_sub(1);
                    hay.next() == Some(c)
                }) {
                    // `hay` has passed the char that holds the match's end.
                    return Some((at, if END { hay.at } else { 0 }));
                }
                if budget == 0 {
                    // No match begins before `at`: the search goes on from it.
                    return find_linear::<END>(h, at, needle);
                }
            }
            if !from.pending {
                break;
            }
        }
        at = from.at;
    }
}

/// The bytes that can begin a char whose lowercase begins with `first`.
///
/// An ASCII char lowercases to one ASCII char (itself, or its letter's
/// lowercase), and of the others only İ (to `i` and U+0307) and the
/// Kelvin sign (to `k`) lowercase to something beginning with ASCII
/// (tests/case.rs checks every scalar value): so for a needle that begins
/// with `i` or `k` the chars that begin with İ's or the Kelvin sign's
/// first byte are looked at too (author trial 33: every char beyond ASCII
/// was, which doubled a search of Japanese text for "istanbul"), for one
/// that begins with other ASCII none is. For `first` beyond ASCII, the
/// chars whose lowercase holds it begin with its own first byte or its
/// uppercase's, but for five (tests/case.rs finds them in std: ϴ, ẞ, the
/// Ohm and Ångström signs, and İ for U+0307), whose first byte is looked
/// for too. The searches pass the other bytes a word at a time.
fn first_bytes(first: u32) -> [u8; 3] {
    if first < 0x80 {
        let f = first as u8;
        let extra = match f {
            b'i' => lead_byte(0x130),
            b'k' => lead_byte(0x212A),
            _ => f,
        };
        [f, f.to_ascii_uppercase(), extra]
    } else {
        let extra = match first {
            0x3B8 => 0xCF,
            0xDF => 0xE1,
            0x3C9 | 0xE5 => 0xE2,
            0x307 => 0xC4,
            _ => lead_byte(first),
        };
        [lead_byte(first), lead_byte((map(first, true) & CHAR) as u32), extra]
    }
}

/// How many chars the searches compare at candidates before they go on
/// in linear time: comparing at each candidate is quick when partial
/// matches are short, as in text, but costs up to the product of the
/// lengths when they are long ("aaa…ab" in "aaa…a").
fn budget(h: &[u8]) -> usize {
    (h.len() / 2).saturating_add(64)
}

/// [`find_ignore_case`] by its linear search alone, which it turns to on
/// inputs made to be slow: for tests/case.rs, which holds both to std.
#[doc(hidden)]
pub fn find_ignore_case_linear(haystack: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    find_linear::<false>(haystack.as_bytes(), 0, needle.as_bytes()).map(|(start, _)| start)
}

/// [`find_range_ignore_case`] by the linear search alone (as
/// [`find_ignore_case_linear`]).
#[doc(hidden)]
pub fn find_range_ignore_case_linear(haystack: &str, needle: &str) -> Option<core::ops::Range<usize>> {
    if needle.is_empty() {
        return Some(0..0);
    }
    find_linear::<true>(haystack.as_bytes(), 0, needle.as_bytes()).map(|(start, end)| start..end)
}

/// [`find`] in time linear in the lengths (Knuth, Morris and
/// Pratt's search over the lowercase chars) from the char at byte `start`,
/// for the inputs on which comparing at each candidate is slow. It
/// allocates two words for each char of the needle's lowercase.
#[inline(never)]
#[cold]
fn find_linear<const END: bool>(h: &[u8], start: usize, needle: &[u8]) -> Option<(usize, usize)> {
    let (words, m) = needle_table(needle);
    // The first match's end, counted in chars of the haystack's lowercase
    // from `start`.
    let mut n = 0;
    let mut k = 0;
    let mut lowered = Lower::new(h, start);
    while let Some(c) = lowered.next() {
        n += 1;
        k = advance(&words, m, k, c);
        if k == m {
            // The char whose lowercase holds the match's first char.
            let mut hay = Lower::new(h, start);
            let mut holder = 0;
            for _ in 0..=n - m {
                if !hay.pending {
                    holder = hay.at;
                }
                hay.next();
            }
            // `lowered` has passed the char that holds the match's end.
            return Some((holder, if END { lowered.at } else { 0 }));
        }
    }
    None
}

/// The needle's lowercase chars, then each one's border (the length of
/// the longest proper prefix of the needle up to it that also ends there):
/// a word each, in one buffer grown the crate's way (a `Vec` of words would
/// link alloc's growth routines); and how many chars.
fn needle_table(needle: &[u8]) -> (Vec<u8>, usize) {
    let mut words = Vec::new();
    for c in Lower::new(needle, 0) {
        crate::sys::append(&mut words, &c.to_le_bytes());
    }
    let m = words.len() / 4;
    crate::sys::resize_zeroed(&mut words, m * 8);
    let mut k = 0;
    for i in 1..m {
        k = advance(&words, m, k, word(&words, i));
        set_word(&mut words, m + i, k as u32);
    }
    (words, m)
}

/// How many times `needle` occurs in `haystack` when both are lowercased:
/// `haystack.to_lowercase().matches(&needle.to_lowercase()).count()`,
/// without building either. Matches are counted from the left and do not
/// overlap ("aaaa" holds "AA" twice); a match may begin or end inside a
/// char whose lowercase is two (İ, whose lowercase is `i` and U+0307). Each
/// string is lowercased whole, so a sigma in `haystack` is final or not by
/// its own neighbours. An empty needle is counted at every boundary between
/// the chars of `haystack`'s lowercase, as std counts it.
///
/// Linear in the lengths, as std's count is: it looks for each match as
/// [`find_ignore_case`] looks for the first, passing a word at a time the
/// bytes that cannot begin one and allocating nothing, until the chars
/// compared pass half the haystack's bytes (long partial matches); then
/// it counts the rest with a table of the needle (Knuth, Morris and
/// Pratt's search over the lowercase chars, two words a char of its
/// lowercase). On text it takes less work than std's (`to_lowercase` on
/// both, then `matches`), once; on inputs made to be slow, a few times more.
///
/// Each call lowers `haystack` again as it reads it, where std's idiom
/// written for many terms lowercases the text once: to count many terms
/// in one text, do that too, with [`to_lowercase`] on the text and each
/// term, counting each in the lowercase with [`chars::find`](crate::chars::find),
/// as below (author trial 84: 3,000 terms in a 2,000-char text took
/// 1.75 times std's work calling this for each term, 0.7 times lowered once).
///
/// ```
/// use subako_tiny::{case, chars};
///
/// let text = case::to_lowercase("Tea, TEA and tea; the teapot");
/// let count = |term: &str| {
///     let term = case::to_lowercase(term);
///     let (mut n, mut at) = (0, 0);
///     while let Some(i) = text.get(at..).and_then(|rest| chars::find(rest, &term)).filter(|_| !term.is_empty()) {
///         (n, at) = (n + 1, at + i + term.len());
///     }
///     n
/// };
/// assert_eq!((count("TEA"), count("the"), count("coffee")), (4, 1, 0));
/// assert_eq!(count("Tea"), case::count_ignore_case("Tea, TEA and tea; the teapot", "Tea"));
/// ```
///
/// # Examples
/// ```
/// use subako_tiny::case::count_ignore_case;
///
/// assert_eq!(count_ignore_case("Tea, TEA and tea", "tea"), 3);
/// assert_eq!(count_ignore_case("aaaa", "AA"), 2);
/// assert_eq!(count_ignore_case("STRASSE, Straße", "ss"), 1); // "straße" holds no "ss"
/// assert_eq!(count_ignore_case("İi", "i"), 2); // "i̇i"
/// assert_eq!(count_ignore_case("ab", ""), 3);
/// ```
pub fn count_ignore_case(haystack: &str, needle: &str) -> usize {
    let h = haystack.as_bytes();
    let mut rest = Lower::new(needle.as_bytes(), 0);
    let Some(first) = rest.next() else { return Lower::new(h, 0).count() + 1 };
    let bytes = first_bytes(first);
    // `find_ignore_case`'s loop, going on from each match's end, which may
    // fall between the two chars of İ's lowercase: then from the U+0307
    // still to come. Its own copy, so that a module that only finds does
    // not carry what counting needs.
    let mut budget = budget(h);
    let (mut count, mut from) = (0, Lower::new(h, 0));
    'candidates: loop {
        if !from.pending {
            from = Lower::new(h, candidate(h, from.at, bytes));
        }
        #[cfg(not(target_arch = "wasm32"))]
        CANDIDATES.fetch_add(1, Ordering::Relaxed);
        let start = from.clone();
        loop {
            let Some(c) = from.next() else { return count };
            if c == first {
                let mut hay = from.clone();
                if rest.clone().all(|c| {
                    budget = budget.saturating_sub(1);
                    hay.next() == Some(c)
                }) {
                    (count, from) = (count + 1, hay);
                    continue 'candidates;
                }
                if budget == 0 {
                    // Every match before `start` is counted.
                    return count + count_linear(start, needle.as_bytes());
                }
            }
            if !from.pending {
                break;
            }
        }
    }
}

/// [`count_ignore_case`] by its linear count alone, which it turns to on
/// inputs made to be slow: for tests/case.rs, which holds both to std.
#[doc(hidden)]
pub fn count_ignore_case_linear(haystack: &str, needle: &str) -> usize {
    let lowered = Lower::new(haystack.as_bytes(), 0);
    if needle.is_empty() {
        return lowered.count() + 1;
    }
    count_linear(lowered, needle.as_bytes())
}

/// The matches of `needle` (not empty) in `lowered`, counted in time
/// linear in the lengths (Knuth, Morris and Pratt's search over the
/// lowercase chars), with a table of two words a char of its lowercase.
#[inline(never)]
#[cold]
fn count_linear(lowered: Lower<'_>, needle: &[u8]) -> usize {
    let (words, m) = needle_table(needle);
    let (mut count, mut k) = (0, 0);
    for c in lowered {
        k = advance(&words, m, k, c);
        if k == m {
            count += 1;
            k = 0;
        }
    }
    count
}

/// How much of the needle (its `m` chars, then their borders, in
/// `words`) is matched after char `c`, when `k` chars were before it.
#[inline(never)]
fn advance(words: &[u8], m: usize, mut k: usize, c: u32) -> usize {
    while k > 0 && word(words, k) != c {
        k = word(words, m + k - 1) as usize;
    }
    if word(words, k) == c { k + 1 } else { k }
}

/// Word `i` of `words` (little-endian), or 0 past its end.
#[inline(never)]
fn word(words: &[u8], i: usize) -> u32 {
    words.get(i * 4..).and_then(|rest| rest.first_chunk::<4>()).map_or(0, |w| u32::from_le_bytes(*w))
}

/// Sets word `i` of `words`, if it has one.
#[inline(never)]
fn set_word(words: &mut [u8], i: usize, value: u32) {
    if let Some(w) = words.get_mut(i * 4..).and_then(|rest| rest.first_chunk_mut::<4>()) {
        *w = value.to_le_bytes();
    }
}

/// The first byte of the UTF-8 of scalar value `c`: past ASCII, as many
/// leading ones as the sequence has bytes, then `c`'s highest bits.
fn lead_byte(c: u32) -> u8 {
    if c < 0x80 {
        return c as u8;
    }
    // The continuation bytes after it.
    let n = 1 + u32::from(c >= 0x800) + u32::from(c >= 0x1_0000);
    (0xFF << (7 - n) | c >> (6 * n)) as u8
}

/// The first offset from `at` on whose byte is one of `bytes`, or
/// `s.len()`: eight bytes a turn. Each byte looked for begins a char, so
/// the offset is a char boundary when `at` is.
#[inline(never)]
fn candidate(s: &[u8], at: usize, [x, y, z]: [u8; 3]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let (x, y, z) = (ONES * x as u64, ONES * y as u64, ONES * z as u64);
    let mut rest = s.get(at..).unwrap_or(&[]);
    while let Some((word, next)) = rest.split_first_chunk::<8>() {
        let w = u64::from_le_bytes(*word);
        // A byte equal to one of `bytes` is a zero byte of its XOR, which
        // wraps the subtraction; borrows carry only upward from a zero, so
        // the lowest mark is exact.
        let (p, q, r) = (w ^ x, w ^ y, w ^ z);
        let m = (p.wrapping_sub(ONES) & !p | q.wrapping_sub(ONES) & !q | r.wrapping_sub(ONES) & !r) & ONES << 7;
        if m != 0 {
            return s.len() - rest.len() + (m.trailing_zeros() / 8) as usize;
        }
        rest = next;
    }
    // Fewer than eight bytes: the same test, a byte at a time.
    while let [first, more @ ..] = rest {
        let b = ONES * *first as u64;
        if b == x || b == y || b == z {
            break;
        }
        rest = more;
    }
    s.len() - rest.len()
}

/// Whether `needle` occurs in `haystack` when both are lowercased:
/// `haystack.to_lowercase().contains(&needle.to_lowercase())`, without
/// building either. As there, a Σ that ends a word lowercases to ς, so a
/// needle typed with σ in that place is not found (std's answer too), and
/// a needle that ends in Σ is lowercased with ς: "ΟΔΥΣ" (lowercase
/// "οδυς") is not found in "ΟΔΥΣΣΕΥΣ", whose lowercase is "οδυσσευς". A
/// search for a word's beginning that should find it can lowercase the
/// needle itself ([`lower`] maps Σ to σ alone) or search with "οδυσ".
///
/// # Examples
/// ```
/// use subako_tiny::case::contains_ignore_case;
///
/// assert!(contains_ignore_case("Fahrvergnügen", "VERGNÜG"));
/// assert!(!contains_ignore_case("Fahrvergnügen", "vergnug"));
/// assert!(contains_ignore_case("ΟΔΥΣΣΕΥΣ", "οδυσσευς")); // "οδυσσευς"
/// assert!(!contains_ignore_case("ΟΔΥΣΣΕΥΣ", "οδυσσευσ"));
/// assert!(!contains_ignore_case("ΟΔΥΣΣΕΥΣ", "ΟΔΥΣ")); // "οδυς"
/// assert!(contains_ignore_case("ΟΔΥΣΣΕΥΣ", "ΟΔΥσ"));
/// ```
pub fn contains_ignore_case(haystack: &str, needle: &str) -> bool {
    find_ignore_case(haystack, needle).is_some()
}

/// The lowercase (`upper` false) or uppercase of UTF-8 text, grown the
/// crate's way.
#[inline(never)]
fn convert(text: &str, upper: bool) -> String {
    let s = text.as_bytes();
    // Most text maps to as many bytes: one block of that size, as std
    // takes, rather than doubling up to it (which at the end holds a copy
    // beside a block up to twice the text's size).
    let mut out = crate::text::Text::new();
    out.reserve(s.len());
    // Most chars are their own case: the bytes from `kept` to `at` are,
    // and go out in one copy when a char that is not (or the end) comes.
    let (mut at, mut kept) = (0, 0);
    loop {
        // ASCII, up to eight bytes a turn: kept as they are, or out in one
        // copy with their letters' case changed.
        while s.get(at).is_some_and(u8::is_ascii)
            && let Some(word) = s.get(at..at + 8)
        {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let ascii = ((word & ASCII_HIGH).trailing_zeros() / 8) as usize;
            // Only the bytes before the first beyond ASCII are taken: the
            // flips past it may be wrong, and then cost a copy, no more.
            let flips = ascii_case_flips(word, upper);
            if flips != 0 {
                out.push_chars(s.get(kept..at).unwrap_or_default());
                out.push_chars((word ^ flips).to_le_bytes().get(..ascii).unwrap_or_default());
                kept = at + ascii;
            }
            at += ascii;
            if ascii < 8 {
                break;
            }
        }
        // CJK and Hangul (U+3000 to U+9FFF, U+B000 to U+D7FF): no char
        // there has a case mapping (tests/case.rs), so its three bytes are
        // passed without decoding.
        if s.get(at).is_some_and(|b| matches!(b, 0xE3..=0xE9 | 0xEB..=0xED)) {
            at += 3;
            continue;
        }
        let (c, len) = unpack(decode(s, at));
        if len == 0 {
            break;
        }
        let mut mapping = if upper { map(c, true) } else { lower_at(s, at, c, len) };
        if mapping != c as Packed {
            out.push_chars(s.get(kept..at).unwrap_or_default());
            while mapping != 0 {
                // The table's chars are scalar values (tests/case.rs).
                out.push_scalar((mapping & CHAR) as u32);
                mapping >>= 21;
            }
            kept = at + len;
        }
        at += len;
    }
    out.push_chars(s.get(kept..).unwrap_or_default());
    out.into_string()
}

/// The high bit of each byte of a word: a byte with it is not ASCII.
const ASCII_HIGH: u64 = 0x8080_8080_8080_8080;

/// What to XOR eight ASCII bytes with to change their letters' case:
/// 0x20 in each upper case letter's byte for lower case (`upper` false),
/// in each lower case letter's for upper. A few operations for eight
/// bytes, with no branch for each. Past a byte beyond ASCII the answer
/// is wrong (a sum carries), and so is not used.
fn ascii_case_flips(word: u64, upper: bool) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let (first, last) = if upper { (b'a', b'z') } else { (b'A', b'Z') };
    // A byte below 0x80 plus less than 0x80 carries into no other: its
    // high bit says the byte is at least `first`, and above `last` (a
    // byte beyond ASCII may carry, out of the word too: wrapping).
    let from_first = word.wrapping_add(ONES * u64::from(0x80 - first));
    let past_last = word.wrapping_add(ONES * u64::from(0x7f - last));
    (from_first & !past_last & ASCII_HIGH) >> 2
}

/// The lowercase of char `c`, `len` bytes at `at` in `s`: its own, or
/// for Σ std's Final_Sigma test on the text around it.
fn lower_at(s: &[u8], at: usize, c: u32, len: usize) -> Packed {
    if c == 0x3A3 && cased_beside(s, at, true) && !cased_beside(s, at + len, false) {
        return 0x3C2;
    }
    map(c, false)
}

/// The chars of a string's lowercase, in order, each with the context of
/// the whole string for the final sigma.
#[derive(Clone)]
struct Lower<'a> {
    s: &'a [u8],
    /// The byte offset of the next char.
    at: usize,
    /// The U+0307 of U+0130's lowercase is still to come.
    pending: bool,
}

impl<'a> Lower<'a> {
    fn new(s: &'a [u8], at: usize) -> Lower<'a> {
        Lower { s, at, pending: false }
    }
}

impl Iterator for Lower<'_> {
    type Item = u32;

    #[inline(never)]
    fn next(&mut self) -> Option<u32> {
        #[cfg(not(target_arch = "wasm32"))]
        LOWERED.fetch_add(1, Ordering::Relaxed);
        if self.pending {
            self.pending = false;
            return Some(0x307);
        }
        let (c, len) = unpack(decode(self.s, self.at));
        if len == 0 {
            return None;
        }
        let mapping = lower_at(self.s, self.at, c, len);
        self.pending = mapping >> 21 != 0;
        self.at += len;
        Some((mapping & CHAR) as u32)
    }
}

/// Whether the first char before `at` (`backward`) or from `at` on that
/// is not case-ignorable is cased: std's `case_ignorable_then_cased`.
#[inline(never)]
fn cased_beside(s: &[u8], mut at: usize, backward: bool) -> bool {
    loop {
        let (c, len) = if backward {
            at = match at.checked_sub(1) {
                Some(i) => i,
                None => return false,
            };
            // Back to the first byte of the char.
            if s.get(at).is_some_and(|&b| b & 0xC0 == 0x80) {
                continue;
            }
            (decode(s, at) & CHAR as u32, 0)
        } else {
            unpack(decode(s, at))
        };
        if !backward && len == 0 {
            return false;
        }
        at += len;
        // A char with a case mapping is cased, and of those only U+0345
        // (a combining mark) is case-ignorable (tests/case.rs checks both):
        // so a letter, the common neighbour, is answered by its mapping,
        // which is kept once found, rather than by reading IGNORABLE from
        // its start. The combining diacritical marks, all case-ignorable,
        // are answered without the table too.
        if map(c, false) != c as Packed || map(c, true) != c as Packed {
            if c != 0x345 {
                return true;
            }
        } else if !(0x300..0x370).contains(&c) {
            // The others (punctuation, symbols, CJK) are looked up in the
            // tables once each: the answer is kept, as a mapping is.
            let slot = &CLASSES[(c ^ c >> 6) as usize % CLASSES.len()];
            let seen = slot.load(Ordering::Relaxed);
            let class = if seen >> 2 == c + 1 {
                seen & 3
            } else {
                #[cfg(not(target_arch = "wasm32"))]
                WALKS.fetch_add(1, Ordering::Relaxed);
                let class = if contains(&tables::IGNORABLE, c, tables::IGNORABLE_OUT, tables::IGNORABLE_IN) {
                    IGNORED
                } else {
                    contains(&tables::CASED_UNMAPPED, c, tables::CASED_UNMAPPED_OUT, tables::CASED_UNMAPPED_IN) as u32
                };
                slot.store((c + 1) << 2 | class, Ordering::Relaxed);
                class
            };
            if class != IGNORED {
                return class == 1;
            }
        }
    }
}

/// What [`cased_beside`] found for a char without a case mapping, in slots
/// by char: `c + 1`, then two bits, [`IGNORED`] or whether it is cased.
static CLASSES: [AtomicU32; 64] = [const { AtomicU32::new(0) }; 64];

/// A [`CLASSES`] answer: case-ignorable.
const IGNORED: u32 = 2;

/// `c`'s lowercase (`upper` false) or uppercase mapping.
///
/// The table ([`tables::MAP`]) is a list of entries sorted by key, each a
/// run of `count` sources `stride` apart:
/// - pairs `U`, `L = U + d`: `U`'s lowercase is `L` (kind 1, the key
///   `U`), `L`'s uppercase is `U` (kind 2, the key `L`), or both (kind 3,
///   the key the lesser, a pair less than 1,024 apart: one further apart
///   is a kind 1 and a kind 2);
/// - lowercase chars (the key) whose uppercase is several chars (kind 0):
///   the first is the source plus an offset, then one or two more, the
///   same for the whole run.
///
/// Each entry: the key's difference from the previous key, the kind (2
/// bits), `count - 1`, a stride bit when `count > 1`; then for kinds 1–3 a
/// bit for `d = 1`, else `d`'s difference from the last `d` other than 1;
/// for kind 0 the offset's difference from the last kind 0's, a bit for
/// two further chars (else one), and each further char's difference from
/// the char before. A lookup begins at the last of [`tables::MAP_STARTS`]
/// from which it may: past the key before, and past every char an entry
/// before maps in its direction. That is asked per direction, since a
/// pair maps a char far past its key one way only (ͻ/Ͻ, Ѐ/ѐ), and would
/// otherwise keep the lookups of a whole script from the starts inside it.
#[inline(never)]
fn map(c: u32, upper: bool) -> Packed {
    if c < 0x80 {
        let from = if upper { b'a' } else { b'A' } as u32;
        return (if c.wrapping_sub(from) < 26 { c ^ 0x20 } else { c }) as Packed;
    }
    if c == 0x130 && !upper {
        return 0x69 | 0x307 << 21;
    }
    // CJK, Hangul, Arabic, Indic, emoji…: nothing to look up.
    let [low, high] = tables::UNMAPPED_BLOCKS;
    if c >= tables::END || c < 0x1_0000 && (if c < 0x8000 { low } else { high }) >> (c >> 9 & 63) & 1 == 1 {
        return c as Packed;
    }
    // The table is read from a start before `c`, a few hundred operations
    // an entry: a text's letters recur, so each is looked up once. A slot holds the
    // char and direction (`key`, never 0) and a mapping of one char; the
    // few of several chars are not kept. Atomics so that threads on the
    // host share the slots safely; on wasm32 they are plain loads and stores.
    let key = u64::from(c << 1 | upper as u32) + 1;
    let [newer, older] = &SEEN[(c ^ c >> 7 ^ (upper as u32) << 6) as usize % SEEN.len()];
    let (first, second) = (newer.load(Ordering::Relaxed), older.load(Ordering::Relaxed));
    if first & SEEN_KEY == key {
        return first >> SEEN_KEY.count_ones();
    }
    if second & SEEN_KEY == key {
        // The newer now: two letters that share a set alternate freely.
        newer.store(second, Ordering::Relaxed);
        older.store(first, Ordering::Relaxed);
        return second >> SEEN_KEY.count_ones();
    }
    // The chars the last walk in this direction that found no mapping knows
    // have none: a script's letters with no mapping that way (small ones
    // lowercased) mostly stand together between two entries.
    let none = NONE[upper as usize].load(Ordering::Relaxed);
    let found = if c.wrapping_sub(none as u32) < (none >> 32) as u32 { c as Packed } else { walk(c, upper) };
    if found <= CHAR {
        older.store(first, Ordering::Relaxed);
        newer.store(key | found << SEEN_KEY.count_ones(), Ordering::Relaxed);
    }
    found
}

/// Answers [`map`] found in the table, in sets of two slots by char and
/// direction (`key`, then the mapping), the one used last first: the
/// letters of a 128-char block each in a set of their own, the next
/// blocks spread over them by the char's high bits, and a char's two
/// directions apart, since the final-sigma rule asks for both of each char
/// beside a Σ. Two slots a set, so that two scripts mixed in one text
/// (Latin and Greek, Polish and Russian) do not take each other's slots
/// at each letter (author trial 23: `łódź` and `чай` alternating read the
/// table at every letter, fifteen times std's work), and a set's third
/// letter evicts the one used longest ago.
static SEEN: [[AtomicU64; 2]; 128] = [const { [const { AtomicU64::new(0) }; 2] }; 128];

/// For each direction, the chars the last [`walk`] that found no mapping
/// knows have none: the first (32 bits) and how many (0: none yet).
static NONE: [AtomicU64; 2] = [const { AtomicU64::new(0) }; 2];

/// The bits of a [`SEEN`] slot that hold its key.
const SEEN_KEY: u64 = (1 << 23) - 1;

/// How many times a table has been read ([`walk`] of
/// [`tables::MAP`], and `cased_beside`'s look in [`tables::IGNORABLE`] and
/// [`tables::CASED_UNMAPPED`]), on the host: for tests/case_costs.rs, which
/// holds a text's reads to about its distinct chars. Not on wasm32, where
/// nothing reads it.
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub static WALKS: AtomicU64 = AtomicU64::new(0);

/// How many entries of [`tables::MAP`] [`walk`] has read, on the host:
/// for tests/case_costs.rs, which holds each lookup to a few dozen.
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub static ENTRIES: AtomicU64 = AtomicU64::new(0);

/// How many chars the searches and comparisons have lowered ([`Lower`]'s
/// `next`), on the host: for tests/case_costs.rs, which holds a count of
/// a needle to the chars that can begin a match, not every char.
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub static LOWERED: AtomicU64 = AtomicU64::new(0);

/// How many chars [`find_ignore_case`] and [`count_ignore_case`] have
/// compared the needle at, on the host: for tests/case_costs.rs, which
/// holds a search to the chars that can begin a match. Not on wasm32,
/// where nothing reads it.
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub static CANDIDATES: AtomicU64 = AtomicU64::new(0);

/// [`map`] for a char that may be in the table, by reading it.
fn walk(c: u32, upper: bool) -> Packed {
    #[cfg(not(target_arch = "wasm32"))]
    WALKS.fetch_add(1, Ordering::Relaxed);
    // From the last start at or before `c` (no entry before it maps `c`),
    // the differences carried from entry to entry being 0 there.
    let (mut start, mut next) = (0, 0);
    for &s in tables::MAP_STARTS.iter() {
        // The first char a lookup this way may begin here for.
        if ((s >> 13) as u32 & 0x7_FFFF) + ((s >> if upper { 48 } else { 32 }) as u32 & 0xFFFF) > c {
            break;
        }
        (start, next) = (s, next + 1);
    }
    let mut bits = Bits::at(&tables::MAP, (start & 0x1FFF) as usize);
    let mut key = (start >> 13) as u32 & 0x7_FFFF;
    let mut multi = 0u32;
    // The last `d` other than 1.
    let mut last = 0u32;
    // The first char past `c` that a run read maps in this direction, or
    // past `c` itself where a run's span holds it.
    let mut ahead = u32::MAX;
    loop {
        #[cfg(not(target_arch = "wasm32"))]
        ENTRIES.fetch_add(1, Ordering::Relaxed);
        // At each start passed, as at the one begun from.
        if tables::MAP_STARTS.get(next).is_some_and(|&s| (s & 0x1FFF) as usize == bits.position()) {
            (multi, last, next) = (0, 0, next + 1);
        }
        key = key.wrapping_add(bits.number(tables::MAP_GAP));
        if c < key {
            // No entry before this start maps a char from it on, none from
            // here on maps a char below its key, and the runs read map none
            // short of `ahead`: nor does any from `c` up to either.
            NONE[upper as usize].store(u64::from(c) | u64::from(key.min(ahead) - c) << 32, Ordering::Relaxed);
            return c as Packed;
        }
        let kind = bits.bit() | bits.bit() << 1;
        let count = bits.number(tables::MAP_COUNT) + 1;
        let shift = if count > 1 { bits.bit() } else { 0 };
        let (applies, from, delta) = if kind == 0 {
            multi = multi.wrapping_add(bits.signed(tables::MAP_MULTI));
            (upper, key, multi)
        } else {
            let d = if bits.bit() == 1 {
                1
            } else {
                last = last.wrapping_add(bits.signed(tables::MAP_DELTA));
                last
            };
            // The key is the source, but for kind 3 the lesser of `U` and `L`.
            let u = if kind == 2 || kind == 3 && (d as i32) < 0 { key.wrapping_sub(d) } else { key };
            if upper { (kind & 2 != 0, u.wrapping_add(d), d.wrapping_neg()) } else { (kind & 1 != 0, u, d) }
        };
        if applies && from.wrapping_add((count - 1) << shift) >= c {
            ahead = ahead.min(if from > c { from } else { c + 1 });
        }
        let i = c.wrapping_sub(from);
        let mut out = c.wrapping_add(delta) as Packed;
        if kind == 0 {
            // The further chars, the same for the whole run.
            let mut next = from.wrapping_add(delta);
            let mut at = 21;
            let end = 21 + 21 * bits.bit();
            while at <= end {
                next = next.wrapping_add(bits.signed(tables::MAP_TAIL));
                out |= (next as Packed) << at;
                at += 21;
            }
        }
        if applies && i & shift == 0 && i >> shift < count {
            return out;
        }
    }
}
