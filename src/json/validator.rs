//! The validator: checks a whole document in one pass with an explicit,
//! fixed-size stack (a bit per level), so no input can overflow the call
//! stack. It is a `const fn`, so a package's hand-written schemas are
//! checked at build time by the same code that reads requests at run time.

use core::num::NonZeroUsize;
use core::sync::atomic::{AtomicBool, Ordering};

use super::scan::{
    HIGH_BITS, NOT_HEX, WS, WS_IN_LINE, at, find, hex4, plain_end, skip_ws_in, structure_end, text_marks,
    two_byte_only, utf8_end,
};

/// Nesting deeper than this is refused, as serde_json refuses it: 127 open
/// arrays or objects are read, the 128th is an error.
pub const MAX_DEPTH: usize = 128;

/// Why a document is not JSON, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// What is wrong.
    pub kind: ReadErrorKind,
    /// Byte offset of the problem in the document.
    pub offset: usize,
}

/// What makes a document not JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// The document ended where a value or more of one was due.
    Eof,
    /// A byte that no JSON value can start with or continue with here.
    Unexpected,
    /// A string holding a raw control character, a bad escape, a lone
    /// surrogate or bytes that are not UTF-8.
    BadString,
    /// A number that breaks JSON's grammar (`01`, `1.`, `-`, `1e`).
    BadNumber,
    /// More than [`MAX_DEPTH`] - 1 levels of arrays and objects.
    TooDeep,
    /// Something after the value.
    Trailing,
}

/// `invalid number at byte 4`: the words of [`ReadErrorKind::describe`]
/// and the offset.
impl core::fmt::Display for ReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.kind.describe())?;
        f.write_str(" at byte ")?;
        for &digit in crate::bytes::u64_digits(self.offset as u64, &mut [0; 20]) {
            core::fmt::Write::write_char(f, digit as char)?;
        }
        Ok(())
    }
}

impl core::error::Error for ReadError {}

impl ReadErrorKind {
    /// What went wrong, in the words of an error message.
    pub const fn describe(self) -> &'static str {
        match self {
            ReadErrorKind::Eof => "EOF while parsing a value",
            ReadErrorKind::Unexpected => "expected value",
            ReadErrorKind::BadString => "invalid string",
            ReadErrorKind::BadNumber => "invalid number",
            ReadErrorKind::TooDeep => "recursion limit exceeded",
            ReadErrorKind::Trailing => "trailing characters",
        }
    }
}

const fn fail<T>(kind: ReadErrorKind, offset: usize) -> Result<T, ReadError> {
    Err(ReadError { kind, offset })
}

/// `Unexpected` at a byte, `Eof` past the end.
const fn unexpected<T>(b: &[u8], i: usize) -> Result<T, ReadError> {
    fail(if i < b.len() { ReadErrorKind::Unexpected } else { ReadErrorKind::Eof }, i)
}

/// Where the validator saw values end: the largest container at each of
/// levels 2 and 3 (a request's `params`, and the arguments in it), and the
/// longest string. Walking an object skips each member's value to reach
/// the next key; with this, a walk over the message, its params or its
/// arguments (the tool's [`Args`](crate::Args)) skips those values without
/// reading them again: a request's arguments, and its longest text, are
/// read once by validation and once by the tool. That text, if it holds
/// no escape, is borrowed by [`Args::str`](crate::Args::str) with no look
/// for a backslash, and `validated!` only counts its characters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KnownEnds {
    /// The address of the text the offsets are in.
    pub(crate) base: usize,
    /// For levels 2 and 3 (at `level & 1`), the largest container's
    /// offset and length.
    pub(crate) spans: [(usize, usize); 2],
    /// The longest string: its opening quote's offset, and its length with
    /// its quotes.
    pub(crate) string: (usize, usize),
    /// The longest string holds no escape.
    pub(crate) plain: bool,
}

impl KnownEnds {
    /// A table that knows no value.
    pub(crate) const NONE: KnownEnds = KnownEnds { base: 0, spans: [(0, 0); 2], string: (0, 0), plain: false };

    /// Where the value starting at `b[i]` ends in `b`, if it is known.
    /// An entry never set is `(0, 0)`, and no skipped value starts at
    /// offset 0: the document's own value is walked, never skipped.
    pub(crate) fn end_of(&self, b: &[u8], i: usize) -> Option<NonZeroUsize> {
        let start = self.offset(b, i);
        let (from, len) =
            if self.string.0 == start { self.string } else { self.spans[(self.spans[1].0 == start) as usize] };
        // A value's end is past its first byte, so never 0.
        if from == start { NonZeroUsize::new(i + len) } else { None }
    }

    /// Where the string starting at `b[i]` ends, if it is the longest and
    /// holds no escape: its text is its raw bytes, with no look for a
    /// backslash.
    pub(crate) fn plain_end(&self, b: &[u8], i: usize) -> Option<usize> {
        (self.plain && self.string.0 == self.offset(b, i)).then_some(i + self.string.1)
    }

    /// The offset of `b[i]` in the text the table's offsets are in.
    fn offset(&self, b: &[u8], i: usize) -> usize {
        (b.as_ptr() as usize).wrapping_sub(self.base).wrapping_add(i)
    }
}

/// The offset just past the value starting at `i` in validated text.
pub(crate) fn skip_value(b: &[u8], i: usize, ends: Option<&KnownEnds>) -> usize {
    if let Some(end) = ends.and_then(|e| e.end_of(b, i)) {
        return end.get();
    }
    skip_with(b, i, WALKED.load(Ordering::Relaxed))
}

/// Set by [`parse`](super::parse): the module reads documents, whose
/// values its code walks level by level (`at`, `fields`, `iter`), each
/// level skipping over the ones below it again (author trial 98: a
/// GeoJSON polygon's coordinates, five levels down, took 2.6 times the
/// official module's work). Its skips then pass a container's numbers,
/// literals and white space eight bytes a turn. A module that parses no
/// document never stores to it, so the optimizer knows it stays false and
/// links the faster skip not at all: a request's own few members do not
/// pay its bytes.
static WALKED: AtomicBool = AtomicBool::new(false);

/// Notes that the module walks parsed documents ([`WALKED`]).
pub(crate) fn walks_documents() {
    WALKED.store(true, Ordering::Relaxed);
}

/// The offset just past the value starting at `i` in validated text, found
/// by counting brackets: a string is passed a word at a time up to its
/// closing quote, and every other byte but a bracket is passed as it is
/// (validation has seen the commas, colons and scalars). Text that is not
/// valid gets some offset up to `b.len()`, never a panic or a hang.
pub(crate) const fn skip(b: &[u8], i: usize) -> usize {
    skip_with(b, i, false)
}

/// [`skip`]; with `deep`, a run of white space, numbers or a literal
/// inside a container is passed eight bytes a turn, up to the next quote
/// or bracket ([`structure_end`]): from a literal's first letter, or from
/// a byte of white space or a number whose next byte is white space, a
/// comma or part of a number (not a quote, a bracket, a colon or a
/// letter, which starts a run of its own). Only there: started after every string and bracket too,
/// a call that finds a quote or a bracket a byte or two on cost more than
/// it saved (review 101: `[[[[]]]]` took twice the work, a list of short
/// strings a third more); its one gain, indented text (a run after every
/// string), is passed here a byte at a time up to the first white space
/// (review 102: about a quarter more work than that design on indented
/// files).
#[inline(always)]
const fn skip_with(b: &[u8], mut i: usize, deep: bool) -> usize {
    let mut depth = 0usize;
    loop {
        let c = at(b, i);
        if c == b'"' {
            i = skip_string(b, i);
        } else if i >= b.len() {
            return b.len();
        } else {
            i += 1;
            // `[` is `{` less 0x20, and `]` is `}` less 0x20.
            let folded = c | 0x20;
            // Without `deep`, the smallest count; with it, the branches
            // that test a bracket also lead to the test for a run.
            if !deep {
                depth = depth.wrapping_add((folded == b'{') as usize).wrapping_sub((folded == b'}') as usize);
            } else if folded == b'{' {
                depth = depth.wrapping_add(1);
            } else if folded == b'}' {
                depth = depth.wrapping_sub(1);
            } else if c <= b'9' {
                if c != b',' && depth != 0 {
                    // White space or a number inside a container: if the
                    // run goes on (`1,1,1`, `1.5`, indentation), it is
                    // passed eight bytes a turn.
                    let next = at(b, i);
                    if next <= b'9' && next != b'"' {
                        i = structure_end(b, i);
                    }
                    continue;
                }
            } else if c >= b'a' && depth != 0 {
                // `true`, `false` or `null` inside a container.
                i = structure_end(b, i);
                continue;
            }
            // A number or a literal at the top ends where white space, a
            // comma or a closing bracket does; so does the text after a
            // container's closing bracket.
            if depth == 0 && !ends_scalar(at(b, i)) {
                continue;
            }
        }
        if depth == 0 {
            return i;
        }
    }
}

/// Whether a scalar in validated text ends before `c`.
const fn ends_scalar(c: u8) -> bool {
    (c | 0x20) == b'}' || c <= b' ' || c == b','
}

/// The offset just past the closing quote of the validated string whose
/// opening quote is at `i`: an escape is its backslash and the byte after
/// it (a `\u`'s hex digits are neither quote nor backslash).
pub(crate) const fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    loop {
        i = plain_end(b, i, true);
        let c = at(b, i);
        if c == b'"' {
            return i + 1;
        }
        if i >= b.len() {
            return b.len();
        }
        i += if c == b'\\' { 2 } else { 1 };
    }
}

/// Checks that `b` is exactly one JSON value, with optional white space
/// around it.
pub const fn validate(b: &[u8]) -> Result<(), ReadError> {
    match document(b, None) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Where the one value in `b` starts and ends, if `b` is JSON; `ends`, if
/// given, learns where its largest containers and its longest string end.
pub(crate) const fn document(b: &[u8], ends: Option<&mut KnownEnds>) -> Result<(usize, usize), ReadError> {
    let start = skip_ws_in(b, 0, WS);
    match value_end_in(b, start, ends, WS, MAX_DEPTH) {
        Ok(end) => {
            let i = skip_ws_in(b, end, WS);
            if i < b.len() { fail(ReadErrorKind::Trailing, i) } else { Ok((start, end)) }
        }
        Err(e) => Err(e),
    }
}

/// The first line of `b` (up to a newline or the end) as [`document`]
/// reads a line on its own, in one pass that also finds where the line
/// ends: where its one value starts and ends, if it is one, and where the
/// next line starts (past the end of `b` after the last line).
pub(crate) const fn line(b: &[u8]) -> (Option<(usize, usize)>, usize) {
    // Within the line, a newline is not white space, and nothing else reads
    // past one: so what ends the value or refutes it is on this line.
    let start = skip_ws_in(b, 0, WS_IN_LINE);
    let stop = match value_end_in(b, start, None, WS_IN_LINE, MAX_DEPTH) {
        Ok(end) => {
            let i = skip_ws_in(b, end, WS_IN_LINE);
            if i >= b.len() || at(b, i) == b'\n' {
                return (Some((start, end)), i + 1);
            }
            i
        }
        Err(e) => e.offset,
    };
    (None, find(b, stop, b'\n') + 1)
}

/// Checks the one value that starts at `i` and returns the offset just
/// past it, with white space between tokens as `ws` has it, and `limit`
/// levels of containers refused (the value's own counted as the first: a
/// member of an object the caller walks has one fewer). `ends`, if given,
/// learns where the containers at [`KnownEnds`]' levels end.
pub(super) const fn value_end_in(
    b: &[u8],
    mut i: usize,
    mut ends: Option<&mut KnownEnds>,
    ws: u64,
    limit: usize,
) -> Result<usize, ReadError> {
    // Bit `d` of `arrays` is set when level `d` is an array, clear for an
    // object: the whole stack of open containers in 16 bytes.
    let mut arrays = [0u8; MAX_DEPTH / 8];
    let mut depth: usize = 0;
    // Where the open containers at levels 2 and 3 started.
    let mut opened = (0usize, 0usize);
    // Set when `i` is at an object member's key rather than at a value.
    let mut key_due = false;
    loop {
        // A value, or a member's key, starts at `i`.
        let c = at(b, i);
        if key_due && c != b'"' {
            return unexpected(b, i);
        }
        let end = match c {
            b'{' | b'[' => {
                depth += 1;
                if depth >= limit {
                    return fail(ReadErrorKind::TooDeep, i);
                }
                if depth.wrapping_sub(2) < 2 {
                    if depth == 2 {
                        opened.0 = i;
                    } else {
                        opened.1 = i;
                    }
                }
                let array = c == b'[';
                let bit = 1 << (depth % 8);
                arrays[depth / 8] = if array { arrays[depth / 8] | bit } else { arrays[depth / 8] & !bit };
                i = skip_ws_in(b, i + 1, ws);
                if at(b, i) == c + 2 {
                    // `[]` or `{}`: `]` and `}` are two past `[` and `{`.
                    depth -= 1;
                    Ok(i + 1)
                } else {
                    key_due = !array;
                    continue;
                }
            }
            // JSON Lines text (files of records) gets the string loop made
            // for mixed text; a request line, the smaller one.
            b'"' if ws == WS_IN_LINE => line_string_end(b, i),
            b'"' => {
                let mut escaped = false;
                let end = string_span(b, i, &mut escaped);
                if let Some(ends) = &mut ends
                    && let Ok(end) = end
                    && end - i > ends.string.1
                {
                    ends.string = (i, end - i);
                    ends.plain = !escaped;
                }
                end
            }
            b'-' | b'0'..=b'9' => number_end(b, i),
            b't' | b'f' | b'n' => {
                let word: &[u8] = match c {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                literal(b, i, word)
            }
            _ => unexpected(b, i),
        };
        i = match end {
            Ok(end) => end,
            Err(e) => return Err(e),
        };
        if key_due {
            // A key ended at `i`: its value comes after the colon.
            i = skip_ws_in(b, i, ws);
            if at(b, i) != b':' {
                return unexpected(b, i);
            }
            i = skip_ws_in(b, i + 1, ws);
            key_due = false;
            continue;
        }
        // A value ended at `i`: close containers, or move to the next item.
        loop {
            if depth == 0 {
                return Ok(i);
            }
            i = skip_ws_in(b, i, ws);
            let array = arrays[depth / 8 % arrays.len()] & (1 << (depth % 8)) != 0;
            let c = at(b, i);
            if c == if array { b']' } else { b'}' } {
                i += 1;
                if let Some(ends) = &mut ends
                    && depth.wrapping_sub(2) < 2
                {
                    // The level's largest container is the one kept.
                    let from = if depth == 2 { opened.0 } else { opened.1 };
                    if i - from > ends.spans[depth & 1].1 {
                        ends.spans[depth & 1] = (from, i - from);
                    }
                }
                depth -= 1;
                continue;
            }
            if c != b',' {
                return unexpected(b, i);
            }
            i = skip_ws_in(b, i + 1, ws);
            key_due = !array;
            break;
        }
    }
}

const fn literal(b: &[u8], i: usize, word: &[u8]) -> Result<usize, ReadError> {
    let mut k = 0;
    while k < word.len() {
        if at(b, i + k) != word[k] {
            return unexpected(b, i + k);
        }
        k += 1;
    }
    Ok(i + k)
}

/// Checks the string whose opening quote is at `start`; returns the offset
/// just past its closing quote, and notes in `escaped` whether it holds an
/// escape: a request's longest string without one is its own text,
/// borrowed with no second look ([`KnownEnds::plain_end`]).
const fn string_span(b: &[u8], start: usize, escaped: &mut bool) -> Result<usize, ReadError> {
    let mut i = start + 1;
    loop {
        let c = at(b, i);
        let next = if c == b'"' {
            return Ok(i + 1);
        } else if c == b'\\' {
            *escaped = true;
            escape_end(b, i)
        } else if c >= 0x80 {
            // UTF-8 and the ASCII among it, or a bad sequence here.
            match utf8_end(b, i) {
                end if end > i => Some(end),
                _ => None,
            }
        } else if c >= 0x20 {
            // Printable ASCII, often more of it: a word at a time.
            Some(plain_end(b, i + 1, false))
        } else if i < b.len() {
            // A raw control character.
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

/// [`string_span`], with the word-at-a-time test in its
/// own loop rather than in a call: mixed text (a Japanese word, then ASCII,
/// then a French one) meets a byte that needs a look of its own every few
/// bytes, and a call each time costs more than the test. The same
/// acceptance and error offsets (tests/utf8.rs); used for JSON Lines, whose
/// files are where such text is long, so a module that reads no file
/// keeps the smaller loop.
pub(super) const fn line_string_end(b: &[u8], start: usize) -> Result<usize, ReadError> {
    let mut i = start + 1;
    loop {
        if let Some((_, rest)) = b.split_at_checked(i)
            && let Some(word) = rest.first_chunk::<8>()
        {
            let w = u64::from_le_bytes(*word);
            let m = text_marks(w);
            if m == 0 {
                i += 8;
                continue;
            }
            // Words whose high bytes are whole two-byte sequences (Latin
            // text) pass whole too; else `i` moves to the first byte that
            // is not plain ASCII.
            let hi = w & HIGH_BITS;
            if m == hi && two_byte_only(w, hi) {
                i += 8;
                continue;
            }
            i += (m.trailing_zeros() / 8) as usize;
        }
        let c = at(b, i);
        let next = if c == b'"' {
            return Ok(i + 1);
        } else if c == b'\\' {
            escape_end(b, i)
        } else if c >= 0x80 {
            match utf8_end(b, i) {
                end if end > i => Some(end),
                _ => None,
            }
        } else if c >= 0x20 {
            // Printable ASCII in the last few bytes.
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

/// [`document`] as [`line`] reads a line: white space without newlines.
/// For `Lines::unreadable`, which needs where a line stops being JSON,
/// and for tests/utf8.rs, which holds the line reader's errors to the
/// document reader's.
#[doc(hidden)]
pub const fn validate_line(b: &[u8]) -> Result<(), ReadError> {
    let start = skip_ws_in(b, 0, WS_IN_LINE);
    match value_end_in(b, start, None, WS_IN_LINE, MAX_DEPTH) {
        Ok(end) => {
            let i = skip_ws_in(b, end, WS_IN_LINE);
            if i < b.len() { fail(ReadErrorKind::Trailing, i) } else { Ok(()) }
        }
        Err(e) => Err(e),
    }
}

/// Checks the escape whose backslash is at `i`; returns the offset past it,
/// or `None` for a bad one.
const fn escape_end(b: &[u8], i: usize) -> Option<usize> {
    match at(b, i + 1) {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(i + 2),
        b'u' => match hex4(b, i + 2) {
            // A leading surrogate needs its trailing half right after it.
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

const fn digits_end(b: &[u8], mut i: usize) -> usize {
    while at(b, i).is_ascii_digit() {
        i += 1;
    }
    i
}

/// Checks the number starting at `i`; returns the offset past it.
pub(crate) const fn number_end(b: &[u8], mut i: usize) -> Result<usize, ReadError> {
    if at(b, i) == b'-' {
        i += 1;
    }
    let c = at(b, i);
    if c == b'0' {
        i += 1;
    } else if c.is_ascii_digit() {
        i = digits_end(b, i);
    } else {
        return fail(ReadErrorKind::BadNumber, i);
    }
    if at(b, i) == b'.' {
        let end = digits_end(b, i + 1);
        if end == i + 1 {
            return fail(ReadErrorKind::BadNumber, end);
        }
        i = end;
    }
    if at(b, i) | 0x20 == b'e' {
        i += 1;
        if matches!(at(b, i), b'+' | b'-') {
            i += 1;
        }
        let end = digits_end(b, i);
        if end == i {
            return fail(ReadErrorKind::BadNumber, end);
        }
        i = end;
    }
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// A xorshift generator: the same values on every run.
    struct Gen(u64);

    impl Gen {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len() as u64) as usize]
        }

        /// Appends a value to `out`, with white space inside containers,
        /// and records where each value in it (its own included) starts
        /// and ends.
        fn value(&mut self, out: &mut String, spans: &mut Vec<(usize, usize)>, depth: u32) {
            // Runs longer than a word too, which the deep skip passes
            // eight bytes a turn (review 102).
            const WS: [&str; 7] = ["", " ", "\n", "\t ", "\r\n  ", "\n                  ", "\t\t\t\t\t\t\t\t\t"];
            const SCALARS: [&str; 16] = [
                "0",
                "-0",
                "12.5",
                "-1.5E-7",
                "6.02e+23",
                "1e5",
                "true",
                "false",
                "null",
                "42",
                "-7",
                "0.25",
                "1",
                "123456789012345678",
                "-1.2345678901234567e-300",
                "0.000000000000000001",
            ];
            const STRINGS: [&str; 10] = [
                r#""""#,
                r#""a""#,
                r#""\"""#,
                r#""\\""#,
                r#""x\\\"y""#,
                r#""\u00e9\ud83d\ude00""#,
                r#""日本語のテキスト, ünïcödé""#,
                r#""[{ not brackets }], \"quoted\" \\""#,
                r#""a long string of plain ASCII text that takes several words""#,
                r#""\n\t\/\b\f\r""#,
            ];
            let start = out.len();
            match if depth >= 5 { self.below(2) } else { self.below(4) } {
                0 => out.push_str(self.pick(&SCALARS)),
                1 => out.push_str(self.pick(&STRINGS)),
                kind => {
                    let object = kind == 3;
                    out.push(if object { '{' } else { '[' });
                    out.push_str(self.pick(&WS));
                    // Sometimes many elements: `[1,1,1,…]` is one run.
                    let n = if self.below(8) == 0 { 12 } else { self.below(4) };
                    for k in 0..n {
                        if k > 0 {
                            out.push(',');
                            out.push_str(self.pick(&WS));
                        }
                        if object {
                            // A key is a value too: skipped the same way.
                            let key = out.len();
                            out.push_str(self.pick(&STRINGS));
                            spans.push((key, out.len()));
                            out.push_str(self.pick(&WS));
                            out.push(':');
                            out.push_str(self.pick(&WS));
                        }
                        self.value(out, spans, depth + 1);
                        out.push_str(self.pick(&WS));
                    }
                    out.push(if object { '}' } else { ']' });
                }
            }
            spans.push((start, out.len()));
        }
    }

    /// `skip` ends every value of validated text where the validator ends
    /// it: values of every kind, at every depth, before white space, a
    /// comma, a closing bracket or the end of the text.
    #[test]
    fn skip_ends_every_value_where_the_validator_does() {
        let mut rng = Gen(0x9E37_79B9_7F4A_7C15);
        let mut values = 0;
        for _ in 0..4_000 {
            let (mut doc, mut spans) = (String::new(), Vec::new());
            rng.value(&mut doc, &mut spans, 0);
            doc.push_str(rng.pick(&["", " ", "\n"]));
            let b = doc.as_bytes();
            assert!(validate(b).is_ok(), "{doc}");
            for &(start, end) in &spans {
                assert_eq!(skip(b, start), end, "the value at {start} in {doc}");
                assert_eq!(skip_with(b, start, true), end, "the value at {start} in {doc}, eight bytes a turn");
                assert_eq!(value_end_in(b, start, None, WS, MAX_DEPTH), Ok(end), "{doc}");
                if b[start] == b'"' {
                    assert_eq!(skip_string(b, start), end, "the string at {start} in {doc}");
                }
                values += 1;
            }
        }
        assert!(values > 10_000, "{values} values");
    }

    /// On text that is not valid JSON, `skip` and `skip_string` end within
    /// the text, from every offset: no panic, no hang, nothing past its end.
    #[test]
    fn skip_stays_within_any_text() {
        const BYTES: &[u8] = b"{}[]\",:\\ 0e-tu\x00\xE3\x81  11\n";
        let mut rng = Gen(0x2545_F491_4F6C_DD1D);
        for _ in 0..20_000 {
            // Longer than a few words: runs the deep skip passes a word at
            // a time end anywhere in them.
            let most = if rng.below(4) == 0 { 64 } else { 24 };
            let len = rng.below(most) as usize;
            let text: Vec<u8> = (0..len).map(|_| BYTES[rng.below(BYTES.len() as u64) as usize]).collect();
            for i in 0..=len + 1 {
                assert!(skip(&text, i) <= len, "{text:?} at {i}");
                assert!(skip_with(&text, i, true) <= len, "{text:?} at {i}");
                assert!(skip_string(&text, i) <= len, "{text:?} at {i}");
            }
        }
    }
}
