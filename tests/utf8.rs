//! The reader's UTF-8, taken a word at a time, against the byte-at-a-time
//! reading it replaced (copied below as `reference`) and against
//! `core::str::from_utf8`: the same documents accepted, the same error kind
//! at the same offset.
//!
//! Every 1-, 2- and 3-byte sequence, and every 4-byte one whose lead is
//! F0–F4, is put inside a JSON string after ASCII or UTF-8 that puts it in
//! each lane of the words the reader takes whole, and before ASCII, UTF-8
//! or the closing quote. The JSON Lines reader, whose string loop is its
//! own, is held to the same answers on every document. 1- and 2-byte sequences get every arrangement; a
//! debug `cargo test` gives each 3- and 4-byte sequence one of them in
//! turn (each arrangement meets every value of each byte), and the 4-byte
//! ones their last byte from a set of sixteen; `cargo test --release
//! --test utf8` gives each 3-byte sequence every prefix, and the 4-byte
//! ones every last byte (a minute or two on one core). `UTF8_FULL=1` does
//! that in a debug build too, `UTF8_FULL=0` turns it off in release, and
//! `UTF8_ALL_FOUR=1` adds all 2^32 four-byte sequences, one arrangement
//! each (release: about an hour).
//!
//! And a differential test on random text: long strings of Japanese,
//! French, emoji and ASCII, with bytes flipped, cut short, and overlong
//! forms, surrogates and code points past U+10FFFF spliced in
//! (`UTF8_CASES=N`, `UTF8_SEED=S`).

use subako_tiny::__test::validate_line;
use subako_tiny::json::{self, ReadError, ReadErrorKind};

/// The reader of a JSON string as it was before the word-wide UTF-8 path:
/// `string_end` and `utf8_end` copied from `src/json/validator.rs`, with
/// `plain_end` (a word-at-a-time search of printable ASCII) and `hex4` read
/// one byte at a time, which they are equal to.
mod reference {
    use super::{ReadError, ReadErrorKind};

    fn at(b: &[u8], i: usize) -> u8 {
        if i < b.len() { b[i] } else { 0 }
    }

    const NOT_HEX: u32 = 0x10000;

    fn hex4(b: &[u8], i: usize) -> u32 {
        let mut v = 0;
        for k in 0..4 {
            let d = match at(b, i + k) {
                c @ b'0'..=b'9' => c - b'0',
                c @ b'a'..=b'f' => c - b'a' + 10,
                c @ b'A'..=b'F' => c - b'A' + 10,
                _ => return NOT_HEX,
            };
            v = v << 4 | d as u32;
        }
        v
    }

    fn fail<T>(kind: ReadErrorKind, offset: usize) -> Result<T, ReadError> {
        Err(ReadError { kind, offset })
    }

    /// Checks the string whose opening quote is at `start`; returns the
    /// offset just past its closing quote.
    pub fn string_end(b: &[u8], start: usize) -> Result<usize, ReadError> {
        let mut i = start + 1;
        loop {
            let c = at(b, i);
            let next = if c == b'"' {
                return Ok(i + 1);
            } else if c == b'\\' {
                escape_end(b, i)
            } else if c >= 0x80 {
                utf8_end(b, i)
            } else if c >= 0x20 {
                Some(i + 1)
            } else if i < b.len() {
                None
            } else {
                return fail(ReadErrorKind::Eof, i);
            };
            i = match next {
                Some(next) => next,
                None => return fail(ReadErrorKind::BadString, i),
            };
        }
    }

    /// Checks the UTF-8 sequence starting at `i` (a byte ≥ 0x80).
    #[allow(clippy::manual_range_contains)] // as it was written, in a `const fn`
    fn utf8_end(b: &[u8], i: usize) -> Option<usize> {
        let c = at(b, i) as u32;
        let (more, min) = match c {
            0xC2..=0xDF => (1, 0x80),
            0xE0..=0xEF => (2, 0x800),
            0xF0..=0xF4 => (3, 0x10000),
            _ => return None,
        };
        let mut cp = c & (0x7F >> (more + 1));
        let mut k = 1;
        while k <= more {
            let next = at(b, i + k) as u32;
            if next & 0xC0 != 0x80 {
                return None;
            }
            cp = cp << 6 | (next & 0x3F);
            k += 1;
        }
        if cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000) {
            return None;
        }
        Some(i + k)
    }

    fn escape_end(b: &[u8], i: usize) -> Option<usize> {
        match at(b, i + 1) {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(i + 2),
            b'u' => match hex4(b, i + 2) {
                0xD800..=0xDBFF => match (at(b, i + 6), at(b, i + 7), hex4(b, i + 8)) {
                    (b'\\', b'u', 0xDC00..=0xDFFF) => Some(i + 12),
                    _ => None,
                },
                0xDC00..=0xDFFF | NOT_HEX => None,
                _ => Some(i + 6),
            },
            _ => None,
        }
    }

    /// `json::validate` of a document that starts with a string.
    pub fn validate(doc: &[u8]) -> Result<(), ReadError> {
        let mut i = string_end(doc, 0)?;
        while matches!(at(doc, i), b' ' | b'\n' | b'\r' | b'\t') {
            i += 1;
        }
        if i < doc.len() { fail(ReadErrorKind::Trailing, i) } else { Ok(()) }
    }
}

/// What `core::str::from_utf8` says of `doc`, a string whose every ASCII
/// byte is plain text: accepted when the text is UTF-8, else refused where
/// the first bad sequence starts. `None` when the text holds a quote, a
/// backslash or a control byte (the reference alone judges those).
fn by_core(doc: &[u8]) -> Option<Result<(), ReadError>> {
    let text = &doc[1..doc.len() - 1];
    if text.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\') {
        return None;
    }
    Some(match core::str::from_utf8(text) {
        Ok(_) => Ok(()),
        Err(e) => Err(ReadError { kind: ReadErrorKind::BadString, offset: 1 + e.valid_up_to() }),
    })
}

/// Whether the line reader must answer for `doc` as the document reader
/// did: up to its first newline, which ends a line but is white space in a
/// document.
fn same_as_a_line(doc: &[u8], ours: Result<(), ReadError>) -> bool {
    match doc.iter().position(|&c| c == b'\n') {
        None => true,
        Some(newline) => ours.is_err_and(|e| e.offset < newline),
    }
}

/// The string `"` `prefix` `seq` `suffix` `"` is read alike by the reader,
/// the reference and core.
fn check(doc: &mut Vec<u8>, prefix: &[u8], seq: &[u8], suffix: &[u8]) {
    doc.clear();
    doc.push(b'"');
    doc.extend_from_slice(prefix);
    doc.extend_from_slice(seq);
    doc.extend_from_slice(suffix);
    doc.push(b'"');
    let ours = json::validate(doc);
    let theirs = reference::validate(doc);
    if ours != theirs {
        panic!("{seq:02X?} after {prefix:?}: ours {ours:?}, the reference {theirs:?}, in {doc:02X?}");
    }
    let line = validate_line(doc);
    if same_as_a_line(doc, ours) && line != ours {
        panic!("{seq:02X?} after {prefix:?}: as a line {line:?}, as a document {ours:?}, in {doc:02X?}");
    }
    if let Some(core) = by_core(doc)
        && ours != core
    {
        panic!("{seq:02X?} after {prefix:?}: ours {ours:?}, core {core:?}, in {doc:02X?}");
    }
}

/// What comes before a sequence. The reader takes printable ASCII, and
/// words whose high bytes are whole two-byte sequences, eight bytes a turn
/// from just past a string's first character: after 1 to 9 ASCII bytes the
/// sequence falls in each lane of such a word and in the next word, and
/// after `aé` it shares a word with a two-byte sequence. After UTF-8 (`é`,
/// `あ`, `😀`) it goes on a run of sequences, each turn reading eight bytes
/// as one word and taking one sequence, or two three-byte ones: after `あ`
/// or `éあ` a three-byte sequence is the second of such a pair, after `ああ`
/// the first of the next, and with nothing before it the first.
fn prefixes() -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = (1..=9).map(|n| b"abcdefghi"[..n].to_vec()).collect();
    for n in 0..=6 {
        all.push(["aé".as_bytes(), &b"bcdefg"[..n]].concat());
    }
    for p in ["", "é", "éあ", "😀", "あa", "ああ"] {
        all.push(p.as_bytes().to_vec());
    }
    all
}

/// What comes after: ASCII, a two-byte sequence in the same word, UTF-8,
/// or nothing (the closing quote right after).
const SUFFIXES: [&[u8]; 4] = [b"0123456789ABCDEF", "xé0123456789".as_bytes(), "ああああ".as_bytes(), b""];

fn env(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// Whether to try every sequence at every offset.
fn full() -> bool {
    env("UTF8_FULL").map_or(!cfg!(debug_assertions), |v| v != 0)
}

#[test]
fn every_one_and_two_byte_sequence() {
    let (prefixes, mut doc) = (prefixes(), Vec::new());
    for x in 0..=0xFFu8 {
        for prefix in &prefixes {
            for suffix in SUFFIXES {
                check(&mut doc, prefix, &[x], suffix);
            }
        }
    }
    for x in 0..=0xFFFFu16 {
        for prefix in &prefixes {
            for suffix in SUFFIXES {
                check(&mut doc, prefix, &x.to_be_bytes(), suffix);
            }
        }
    }
}

#[test]
fn every_three_byte_sequence() {
    let (full, prefixes, mut doc) = (full(), prefixes(), Vec::new());
    for x in 0..1u32 << 24 {
        let seq = &x.to_be_bytes()[1..];
        let k = turn(x);
        if full {
            for prefix in &prefixes {
                check(&mut doc, prefix, seq, SUFFIXES[k % SUFFIXES.len()]);
            }
        } else {
            check(&mut doc, &prefixes[k % prefixes.len()], seq, SUFFIXES[k / prefixes.len() % SUFFIXES.len()]);
        }
    }
}

/// Which surroundings sequence `x` gets when each gets one: a hash, so
/// each prefix and suffix meets every value of each byte.
fn turn(x: u32) -> usize {
    (x.wrapping_mul(0x9E37_79B9) >> 8) as usize
}

/// Last bytes of 4-byte sequences in a debug run: each class a lane can be
/// told apart by (continuations at both ends and inside, ASCII, quote and
/// backslash, leads of each width, bytes never in UTF-8).
const LAST_BYTES: [u8; 16] =
    [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0x00, 0x22, 0x5C, 0x41, 0x7F, 0xC0, 0xC3, 0xE3, 0xF0, 0xFF];

#[test]
fn every_four_byte_sequence_from_f0_to_f4() {
    let (full, prefixes, mut doc) = (full(), prefixes(), Vec::new());
    let all: Vec<u8> = (0..=0xFF).collect();
    let last_bytes = if full { &all[..] } else { &LAST_BYTES[..] };
    for lead in 0xF0..=0xF4u8 {
        for x in 0..1u32 << 16 {
            let [_, _, b1, b2] = x.to_be_bytes();
            for &b3 in last_bytes {
                let k = turn(u32::from_be_bytes([lead, b1, b2, b3]));
                let (prefix, suffix) = (&prefixes[k % prefixes.len()], SUFFIXES[k / prefixes.len() % SUFFIXES.len()]);
                check(&mut doc, prefix, &[lead, b1, b2, b3], suffix);
            }
        }
    }
}

/// All 2^32 four-byte sequences, each at one offset: `UTF8_ALL_FOUR=1`.
#[test]
fn every_four_byte_sequence() {
    if env("UTF8_ALL_FOUR") != Some(1) {
        return;
    }
    let (prefixes, mut doc) = (prefixes(), Vec::new());
    for x in 0..=u32::MAX {
        let k = turn(x);
        check(&mut doc, &prefixes[k % prefixes.len()], &x.to_be_bytes(), SUFFIXES[k / prefixes.len() % SUFFIXES.len()]);
    }
}

/// xorshift64*: the same cases every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Text of several scripts, for random strings to be made of.
const PIECES: [&str; 12] = [
    "サバコの関数パッケージは、小さく速く起動する。",
    "日本語のテキスト、カタカナ（ｶﾀｶﾅ）と漢字。",
    "Le cœur a ses raisons que la raison ne connaît point. Où êtes-vous ?",
    "déjà vu, naïve façade, Éloïse à l'école",
    "😀🎉👍🏽🇯🇵👨‍👩‍👧",
    "𝄞𝕏𐍈",
    "hello, world ",
    "plain ASCII text that runs on for a while, word after word, ",
    "Ελληνικά Русский текст עברית العربية हिन्दी 한국어 ไทย",
    "\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\u{D7FF}\u{E000}",
    "tab\\tand\\\"quote\\\" \\u00e9\\ud83d\\ude00",
    " ",
];

/// Byte sequences no UTF-8 holds, and near misses that it does.
const SPLICES: [&[u8]; 20] = [
    &[0xC0, 0x80],
    &[0xC1, 0xBF],
    &[0xE0, 0x80, 0x80],
    &[0xE0, 0x9F, 0xBF],
    &[0xF0, 0x80, 0x80, 0x80],
    &[0xF0, 0x8F, 0xBF, 0xBF],
    &[0xED, 0xA0, 0x80],
    &[0xED, 0xBF, 0xBF],
    &[0xF4, 0x90, 0x80, 0x80],
    &[0xF5, 0x80, 0x80, 0x80],
    &[0xF8, 0x88, 0x80, 0x80, 0x80],
    &[0xFF],
    &[0x80],
    &[0xBF, 0xBF],
    &[0xE3, 0x81],
    &[0xF0, 0x9F, 0x98],
    &[0xED, 0x9F, 0xBF],
    &[0xF4, 0x8F, 0xBF, 0xBF],
    &[0x22],
    &[0x1F],
];

/// A long string of mixed scripts, then mutated.
fn random_text(rng: &mut Rng) -> Vec<u8> {
    let mut text = Vec::new();
    let long = rng.below(4) == 0;
    let len = 1 + rng.below(if long { 2000 } else { 120 });
    while text.len() < len {
        text.extend_from_slice(rng.pick(&PIECES).as_bytes());
    }
    // Start anywhere, even inside a character.
    let from = rng.below(text.len().min(8));
    text.drain(..from);
    for _ in 0..rng.below(4) {
        if text.is_empty() {
            break;
        }
        let at = rng.below(text.len());
        match rng.below(5) {
            0 => text[at] = rng.next() as u8,
            1 => text[at] ^= 1 << rng.below(8),
            2 => text.truncate(at),
            3 => {
                let splice = *rng.pick(&SPLICES);
                text.splice(at..at, splice.iter().copied());
            }
            _ => {
                text.remove(at);
            }
        }
    }
    text
}

#[test]
fn random_and_mutated_text_reads_as_core_reads_it() {
    let cases = env("UTF8_CASES").unwrap_or(if cfg!(debug_assertions) { 20_000 } else { 500_000 });
    let mut rng = Rng(env("UTF8_SEED").unwrap_or(0x5EED_07F8));
    let mut doc = Vec::new();
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..cases {
        let text = random_text(&mut rng);
        doc.clear();
        doc.push(b'"');
        doc.extend_from_slice(&text);
        doc.push(b'"');
        let ours = json::validate(&doc);
        assert_eq!(ours, reference::validate(&doc), "the reference differs on {doc:02X?}");
        if same_as_a_line(&doc, ours) {
            assert_eq!(validate_line(&doc), ours, "the line reader differs on {doc:02X?}");
        }
        if let Some(core) = by_core(&doc) {
            assert_eq!(ours, core, "core differs on {doc:02X?}");
        }
        // The same string as an object's member, after a key.
        let mut member = br#"{"k":"#.to_vec();
        member.extend_from_slice(&doc);
        member.push(b'}');
        let shifted = json::validate(&member).map_err(|e| (e.kind, e.offset - 5));
        match ours {
            Ok(()) => assert_eq!(shifted, Ok(())),
            // A string cut short by a quote is refused after it, and one
            // whose closing quote is escaped at the end: there what
            // follows differs.
            Err(e) if !matches!(e.kind, ReadErrorKind::Trailing | ReadErrorKind::Eof) => {
                assert_eq!(shifted, Err((e.kind, e.offset)))
            }
            Err(_) => assert!(shifted.is_err()),
        }
        if ours.is_ok() { accepted += 1 } else { refused += 1 }
    }
    // Both outcomes are well represented.
    assert!(accepted > cases / 10 && refused > cases / 10, "{accepted} accepted, {refused} refused");
}

/// Long runs, so most of the text is read a whole word at a time; a bad
/// byte anywhere in them is found at its sequence's start.
#[test]
fn a_bad_byte_in_a_long_run_is_found_where_core_finds_it() {
    let mut doc = Vec::new();
    for piece in PIECES {
        let text = piece.repeat(40);
        for at in (0..text.len()).step_by(7) {
            for bad in [0xFF, 0x80, 0xC0, 0xE0, 0xED, 0xF4, 0xF5, 0x41] {
                let mut t = text.clone().into_bytes();
                t[at] = bad;
                check(&mut doc, b"", &t, b"");
            }
        }
    }
}
