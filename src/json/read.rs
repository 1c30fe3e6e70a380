//! A validating JSON reader that never recurses and never copies.
//!
//! [`validate`] checks a whole document in one pass with an explicit,
//! fixed-size stack (a bit per level), so no input can overflow the call
//! stack. After that, a [`Value`] is just the bytes of one value: members
//! and elements are found by skipping over validated text, and strings are
//! unescaped only when asked.
//!
//! `validate` is a `const fn`, so a package's hand-written schemas are
//! checked at build time by the same code that reads requests at run time.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::write::{put, put_byte};

/// Nesting deeper than this is refused, as serde_json refuses it: 127 open
/// arrays or objects are read, the 128th is an error.
pub const MAX_DEPTH: usize = 128;

/// The most members [`members`] looks up in one reading.
pub(crate) const MAX_KEYS: usize = 6;

/// What separates the keys [`members`] is given: a byte no UTF-8 text
/// holds, so any `&str` is one key.
pub(crate) const KEY_SEPARATOR: u8 = 0xFF;

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

const fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// The byte at `i`, or 0 past the end. No JSON token contains a NUL byte
/// outside a string, so 0 reads as "nothing valid here", and indexing
/// through this never panics.
const fn at(b: &[u8], i: usize) -> u8 {
    if i < b.len() { b[i] } else { 0 }
}

pub(crate) const fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while is_ws(at(b, i)) {
        i += 1;
    }
    i
}

/// `Unexpected` at a byte, `Eof` past the end.
const fn unexpected<T>(b: &[u8], i: usize) -> Result<T, ReadError> {
    fail(if i < b.len() { ReadErrorKind::Unexpected } else { ReadErrorKind::Eof }, i)
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
/// given, learns where its largest containers end.
const fn document(b: &[u8], ends: Option<&mut Ends>) -> Result<(usize, usize), ReadError> {
    let start = skip_ws(b, 0);
    match value_end(b, start, false, ends) {
        Ok(end) => {
            let i = skip_ws(b, end);
            if i < b.len() { fail(ReadErrorKind::Trailing, i) } else { Ok((start, end)) }
        }
        Err(e) => Err(e),
    }
}

/// Checks the one value that starts at `i` and returns the offset just
/// past it. Reading validated text also skips values with it, `trusted`:
/// one scanner serves both, and in validated text it takes an escape as
/// its backslash and the next byte without reading it again. `ends`, if
/// given, learns where the containers at [`Ends`]' levels end.
pub(crate) const fn value_end(
    b: &[u8],
    mut i: usize,
    trusted: bool,
    mut ends: Option<&mut Ends>,
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
                if depth >= MAX_DEPTH {
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
                i = skip_ws(b, i + 1);
                if at(b, i) == c + 2 {
                    // `[]` or `{}`: `]` and `}` are two past `[` and `{`.
                    depth -= 1;
                    Ok(i + 1)
                } else {
                    key_due = !array;
                    continue;
                }
            }
            b'"' => string_end(b, i, trusted),
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
            i = skip_ws(b, i);
            if at(b, i) != b':' {
                return unexpected(b, i);
            }
            i = skip_ws(b, i + 1);
            key_due = false;
            continue;
        }
        // A value ended at `i`: close containers, or move to the next item.
        loop {
            if depth == 0 {
                return Ok(i);
            }
            i = skip_ws(b, i);
            let array = arrays[depth / 8 % arrays.len()] & (1 << (depth % 8)) != 0;
            let c = at(b, i);
            if c == if array { b']' } else { b'}' } {
                i += 1;
                if let Some(ends) = &mut ends
                    && depth.wrapping_sub(2) < 2
                {
                    // The level's largest container is the one kept.
                    let from = if depth == 2 { opened.0 } else { opened.1 };
                    let (start, end) = ends.spans[depth & 1];
                    if i - from > end - start {
                        ends.spans[depth & 1] = (from, i);
                    }
                }
                depth -= 1;
                continue;
            }
            if c != b',' {
                return unexpected(b, i);
            }
            i = skip_ws(b, i + 1);
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

/// The four hex digits at `i`, if there are four: all four at once, a
/// byte to a lane of one word.
const fn hex4(b: &[u8], i: usize) -> u32 {
    let Some((_, rest)) = b.split_at_checked(i) else {
        return NOT_HEX;
    };
    let Some(digits) = rest.first_chunk::<4>() else {
        return NOT_HEX;
    };
    let x = u32::from_le_bytes(*digits);
    // For a byte below 0x80 no sum below carries out of its lane, and the
    // lane's high bit says whether the byte is at least a bound. A byte of
    // 0x80 or more passes neither test, whatever carries into its lane
    // (its own carries go only to lanes above). `| 0x20` lowers `A`-`F` and
    // leaves `a`-`f`; no other byte lands there. (Checked against a
    // byte-at-a-time reading for all 2^32 words.)
    let lower = x | 0x2020_2020;
    let digit = x.wrapping_add(0x5050_5050) & !x.wrapping_add(0x4646_4646); // 0x30 to 0x39
    let letter = lower.wrapping_add(0x1F1F_1F1F) & !lower.wrapping_add(0x1919_1919); // 0x61 to 0x66
    if (digit | letter) & 0x8080_8080 != 0x8080_8080 {
        return NOT_HEX;
    }
    // `0`-`9` hold their value in their low four bits; `A`-`F` and `a`-`f`
    // hold 1 to 6 there and have bit 6 set: nine more. The first digit is
    // the lowest lane and the highest of the four.
    let nibbles = (x & 0x0F0F_0F0F) + ((x >> 6) & 0x0101_0101) * 9;
    let pairs = (nibbles << 4) | (nibbles >> 8);
    ((pairs & 0xFF) << 8) | ((pairs >> 16) & 0xFF)
}

/// What [`hex4`] returns for anything but four hex digits: past every value
/// four digits can spell.
const NOT_HEX: u32 = 0x10000;

/// Checks the string whose opening quote is at `start`; returns the offset
/// just past its closing quote. In `trusted` (validated) text an escape is
/// just its backslash and the byte after it.
pub(crate) const fn string_end(b: &[u8], start: usize, trusted: bool) -> Result<usize, ReadError> {
    let mut i = start + 1;
    loop {
        let c = at(b, i);
        let next = if c == b'"' {
            return Ok(i + 1);
        } else if c == b'\\' {
            // Validated `\u` has its four hex digits: none is a quote.
            if trusted { Some(i + if at(b, i + 1) == b'u' { 6 } else { 2 }) } else { escape_end(b, i) }
        } else if c >= 0x80 {
            utf8_end(b, i)
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

/// Eight copies of byte `b`, to test a word's eight bytes at once.
const fn splat(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = splat(0x80);

/// Past the plain string text (0x20 to 0x7F, but `"` and `\\`; with
/// `high`, also every byte from 0x80 on) from `i` on, eight bytes a turn:
/// the first offset whose byte is not plain, or where fewer than eight
/// bytes are left (the caller goes on byte by byte), or `b.len()`.
/// Validation takes runs of text whole with it, and the writer finds what it must escape with it (`high`: it copies
/// UTF-8 as it is).
#[inline(never)]
pub(crate) const fn plain_end(b: &[u8], i: usize, high: bool) -> usize {
    let Some((_, mut rest)) = b.split_at_checked(i) else {
        return b.len();
    };
    // The bytes whose high bit does not end the run.
    let keep = if high { u64::MAX } else { 0 };
    while let Some((word, next)) = rest.split_first_chunk::<8>() {
        let w = u64::from_le_bytes(*word);
        // A byte's high bit ends up set when it is `"` or `\\` (which the XOR
        // makes 0, which the subtraction wraps), below 0x20 (wraps too), or
        // 0x80 and above. Borrows carry only from such a byte upward: the
        // lowest mark is the first such byte. Taking out the bytes of 0x80
        // and above (`keep`) leaves the lowest mark exact: such a byte
        // wraps no subtraction, so it starts no borrow.
        let m = ((w ^ splat(b'"')).wrapping_sub(splat(1))
            | (w ^ splat(b'\\')).wrapping_sub(splat(1))
            | w.wrapping_sub(splat(0x20))
            | w)
            & HIGH_BITS;
        // Taken out only when some byte is marked, so the common turn costs nothing more.
        let m = if m != 0 { m & !(w & keep) } else { 0 };
        if m != 0 {
            return b.len() - rest.len() + (m.trailing_zeros() / 8) as usize;
        }
        rest = next;
    }
    b.len() - rest.len()
}

/// The first offset at or after `i` that holds `x`, or `b.len()`: eight
/// bytes a turn, stopping only at `x` (the line reader's newline, a
/// string's backslash).
#[inline(never)]
pub(crate) const fn find(b: &[u8], i: usize, x: u8) -> usize {
    let Some((_, mut rest)) = b.split_at_checked(i) else {
        return b.len();
    };
    while let Some((word, next)) = rest.split_first_chunk::<8>() {
        // A byte of `x` is a zero byte here; the subtraction wraps it, and
        // `!y` keeps only bytes that were below 0x80. As in [`plain_end`],
        // the lowest mark is exact.
        let y = u64::from_le_bytes(*word) ^ splat(x);
        let m = y.wrapping_sub(splat(1)) & !y & HIGH_BITS;
        if m != 0 {
            return b.len() - rest.len() + (m.trailing_zeros() / 8) as usize;
        }
        rest = next;
    }
    while let [first, more @ ..] = rest {
        if *first == x {
            break;
        }
        rest = more;
    }
    b.len() - rest.len()
}

/// Checks the UTF-8 sequence starting at `i` (a byte ≥ 0x80): no overlong
/// forms, no surrogates, nothing past U+10FFFF. Returns the offset past it,
/// or `None` for a bad one.
const fn utf8_end(b: &[u8], i: usize) -> Option<usize> {
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
const fn number_end(b: &[u8], mut i: usize) -> Result<usize, ReadError> {
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

/// Where the validator saw containers end: the largest at each of levels
/// 2 and 3 (a request's `params`, and the arguments in it). Walking an
/// object skips each member's value to reach the next key; with this, a
/// walk over the message or its params skips those values without reading
/// them again, so a request's arguments are read once by validation and
/// once by the tool.
pub(crate) struct Ends {
    /// The address of the text the offsets are in.
    base: usize,
    /// For levels 2 and 3 (at `level & 1`), a container's `(start, end)`
    /// offsets.
    spans: [(usize, usize); 2],
}

impl Ends {
    /// A table that knows no container.
    pub(crate) const NONE: Ends = Ends { base: 0, spans: [(0, 0); 2] };

    /// Where the container starting at `b[i]` ends in `b`, if it is known.
    /// An entry never set is `(0, 0)`, and no skipped value starts at
    /// offset 0: the document's own value is walked, never skipped.
    fn end_of(&self, b: &[u8], i: usize) -> Option<usize> {
        let start = (b.as_ptr() as usize).wrapping_sub(self.base).wrapping_add(i);
        let (from, to) = self.spans[(self.spans[1].0 == start) as usize];
        if from == start { Some(i + (to - from)) } else { None }
    }
}

/// The offset just past the value starting at `i` in validated text.
fn skip_value(b: &[u8], i: usize, ends: Option<&Ends>) -> usize {
    if let Some(end) = ends.and_then(|e| e.end_of(b, i)) {
        return end;
    }
    match value_end(b, i, true, None) {
        Ok(end) => end,
        Err(_) => b.len(),
    }
}

/// [`parse`], learning in `ends` where the first containers end.
pub(crate) fn parse_with_ends<'a>(b: &'a [u8], ends: &mut Ends) -> Result<Value<'a>, ReadError> {
    ends.base = b.as_ptr() as usize;
    let (start, end) = document(b, Some(ends))?;
    Ok(Value { raw: span(b, start, end) })
}

/// Parses a whole document: the one value in `b`, with optional white
/// space around it.
///
/// # Errors
/// A [`ReadError`] naming the first problem and its byte offset, when `b`
/// is not exactly one JSON value.
///
/// # Examples
/// ```
/// use subako_tiny::json::{self, Kind, ReadErrorKind};
///
/// let value = json::parse(b" [1, 2] ").unwrap();
/// assert_eq!(value.kind(), Kind::Array);
/// assert_eq!(value.raw(), b"[1, 2]");
///
/// let error = json::parse(br#"{"a": 1,}"#).unwrap_err();
/// assert_eq!((error.kind, error.offset), (ReadErrorKind::Unexpected, 8));
/// assert_eq!(json::parse(b"1 2").unwrap_err().kind, ReadErrorKind::Trailing);
/// ```
pub fn parse(b: &[u8]) -> Result<Value<'_>, ReadError> {
    let (start, end) = document(b, None)?;
    Ok(Value { raw: span(b, start, end) })
}

/// The values of JSON Lines text (one JSON value per line, as
/// [`fs::append_line`](crate::fs::append_line) writes them), in order. A
/// line that is not one whole value (an empty line, or the last line of a
/// file whose write was cut short) is skipped, not an error.
///
/// ```
/// use subako_tiny::json;
///
/// let text = b"{\"n\":1}\n{\"n\":2}\n\n{\"n\":";
/// let values: Vec<&[u8]> = json::lines(text).map(|v| v.raw()).collect();
/// assert_eq!(values, [&b"{\"n\":1}"[..], b"{\"n\":2}"]);
/// // The last one: count them, then skip to it.
/// let last = json::lines(text).skip(json::lines(text).count().saturating_sub(1));
/// assert_eq!(last.map(|v| v.raw()).collect::<Vec<_>>(), [b"{\"n\":2}"]);
/// ```
pub fn lines(text: &[u8]) -> Lines<'_> {
    Lines { rest: text }
}

/// The iterator [`lines`] makes.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Lines<'a> {
    type Item = Value<'a>;

    fn next(&mut self) -> Option<Value<'a>> {
        while !self.rest.is_empty() {
            let end = find(self.rest, 0, b'\n');
            let line = span(self.rest, 0, end);
            self.rest = self.rest.get(end + 1..).unwrap_or(&[]);
            if let Ok(value) = parse(line) {
                return Some(value);
            }
        }
        None
    }
}

/// `b[start..end]`, or nothing if that is out of range (never, for offsets
/// into validated text; this just keeps panics out of the code).
fn span(b: &[u8], start: usize, end: usize) -> &[u8] {
    b.get(start..end).unwrap_or(&[])
}

/// One validated JSON value: the exact bytes it was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value<'a> {
    raw: &'a [u8],
}

/// Which of JSON's six kinds a value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number, integer or not.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl Kind {
    /// The kind with an article, as error messages name it.
    pub const fn article_name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }
}

impl<'a> Value<'a> {
    /// The value's text, exactly as it came.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    fn first(&self) -> u8 {
        at(self.raw, 0)
    }

    /// Which kind of value it is.
    pub fn kind(&self) -> Kind {
        match self.first() {
            b'n' => Kind::Null,
            b't' | b'f' => Kind::Bool,
            b'"' => Kind::String,
            b'[' => Kind::Array,
            b'{' => Kind::Object,
            _ => Kind::Number,
        }
    }

    /// True when the value is `null`.
    pub fn is_null(&self) -> bool {
        self.first() == b'n'
    }

    /// The boolean, or `None` when the value is not `true` or `false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self.first() {
            b't' => Some(true),
            b'f' => Some(false),
            _ => None,
        }
    }

    /// The string as written, escapes and all ([`Str::to_str`] unescapes
    /// it), or `None` when the value is not a string.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let value = json::parse(br#""caf\u00e9""#).unwrap();
    /// let text = value.as_str().unwrap();
    /// assert_eq!(text.raw(), br"caf\u00e9");
    /// assert_eq!(text.to_str(), "café");
    /// assert!(json::parse(b"42").unwrap().as_str().is_none());
    /// ```
    pub fn as_str(&self) -> Option<Str<'a>> {
        match self.raw {
            [b'"', raw @ .., _] => Some(Str { raw }),
            _ => None,
        }
    }

    /// The object, or `None` when the value is not an object.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let value = json::parse(br#"{"user": {"name": "Ada", "admin": true}}"#).unwrap();
    /// let user = value.as_object().and_then(|o| o.get("user")).and_then(|u| u.as_object()).unwrap();
    /// assert_eq!(user.get("admin").and_then(|a| a.as_bool()), Some(true));
    /// assert!(json::parse(b"[]").unwrap().as_object().is_none());
    /// ```
    pub fn as_object(&self) -> Option<Object<'a>> {
        match self.first() {
            b'{' => Some(Object { raw: self.raw }),
            _ => None,
        }
    }

    /// The array, or `None` when the value is not an array.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let value = json::parse(b"[10, 20, 30]").unwrap();
    /// let sum: i64 = value.as_array().unwrap().iter().filter_map(|v| v.as_i64()).sum();
    /// assert_eq!(sum, 60);
    /// ```
    pub fn as_array(&self) -> Option<Array<'a>> {
        match self.first() {
            b'[' => Some(Array { raw: self.raw }),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is an integer written without a
    /// fraction or exponent and fits.
    pub fn as_i64(&self) -> Option<i64> {
        match self.raw.split_first() {
            Some((b'-', digits)) => {
                let magnitude = parse_digits(digits)?;
                0i64.checked_sub_unsigned(magnitude)
            }
            _ => i64::try_from(parse_digits(self.raw)?).ok(),
        }
    }

    /// The number as a `u64`, if it is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        parse_digits(self.raw)
    }

    /// Any number as the nearest `f64`, bit for bit as `str::parse::<f64>`
    /// reads it (beyond `f64::MAX`, ±infinity). Only modules that call it
    /// carry a float parser: the crate's own, much smaller than core's (docs/SIZE.md).
    pub fn as_f64(&self) -> Option<f64> {
        if self.kind() != Kind::Number {
            return None;
        }
        Some(super::float::parse(self.raw))
    }
}

/// Decimal digits only, as a `u64` that does not overflow.
fn parse_digits(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        // Compared with the largest `n` that can take another digit, not
        // `checked_mul`: on wasm32 that multiplies in 128 bits (`__multi3`).
        const TOP: u64 = u64::MAX / 10;
        let d = (d - b'0') as u64;
        if n > TOP || n == TOP && d > u64::MAX % 10 {
            return None;
        }
        n = n * 10 + d;
    }
    Some(n)
}

/// The items of an array or the members of an object, read in order.
struct Items<'a> {
    raw: &'a [u8],
    at: usize,
}

impl<'a> Items<'a> {
    /// The next item: `(key, value)` for an object, `(None, value)` for an
    /// array.
    fn next_item(&mut self) -> Option<(Option<Str<'a>>, Value<'a>)> {
        let b = self.raw;
        let mut i = skip_ws(b, self.at);
        if matches!(at(b, i), b']' | b'}' | 0) {
            return None;
        }
        let mut key = None;
        if at(b, i) == b'"' && b.first() == Some(&b'{') {
            let key_end = skip_value(b, i, None);
            key = Some(Str { raw: span(b, i + 1, key_end - 1) });
            // Past the colon.
            i = skip_ws(b, skip_ws(b, key_end) + 1);
        }
        let end = skip_value(b, i, None);
        let next = skip_ws(b, end);
        // Past the comma, or left on the closing bracket.
        self.at = if at(b, next) == b',' { next + 1 } else { next };
        Some((key, Value { raw: span(b, i, end) }))
    }
}

/// An object's members, read in order; the last of duplicate keys wins
/// in [`Object::get`], as in serde_json.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Object<'a> {
    raw: &'a [u8],
}

impl<'a> Object<'a> {
    /// The members as `(key, value)` pairs, in the order written,
    /// duplicates included.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let value = json::parse(br#"{"b": 1, "a": 2}"#).unwrap();
    /// let keys: Vec<_> = value.as_object().unwrap().iter().map(|(key, _)| key.to_str()).collect();
    /// assert_eq!(keys, ["b", "a"]);
    /// ```
    pub fn iter(&self) -> Members<'a> {
        Members(Items { raw: self.raw, at: 1 })
    }

    /// The value of member `key` (compared after unescaping), or `None`
    /// when the object has no such member.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let value = json::parse(br#"{"rate": 1.05, "base": "EUR", "base": "USD"}"#).unwrap();
    /// let object = value.as_object().unwrap();
    /// assert_eq!(object.get("rate").and_then(|v| v.as_f64()), Some(1.05));
    /// assert!(object.get("base").unwrap().as_str().unwrap().eq_str("USD"));
    /// assert_eq!(object.get("date"), None);
    /// ```
    // Inlined: the call of `members` costs less at each use than a function
    // of its own does in every module.
    #[inline(always)]
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        let [found, ..] = members(Some(self.as_value()), key.as_bytes(), None);
        found
    }

    /// The number of members (duplicates counted).
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// True when the object has no members.
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// The object as a [`Value`], with the same text.
    pub fn as_value(&self) -> Value<'a> {
        Value { raw: self.raw }
    }
}

/// Looks up to [`MAX_KEYS`] members of `object` in one reading of it:
/// slot `k` holds the value of the member named by the `k`th of `keys`
/// (split at [`KEY_SEPARATOR`]; the last of duplicates, as [`Object::get`]
/// finds it), or `None`; every slot is `None` when `object` is not an
/// object.
// Walks the members itself rather than through `iter()`: less code in
// every module, and every module looks members up. The slots are returned
// rather than passed in, so they are cleared in one place.
pub(crate) fn members<'a>(
    object: Option<Value<'a>>,
    keys: &[u8],
    ends: Option<&Ends>,
) -> [Option<Value<'a>>; MAX_KEYS] {
    let mut found = [None; MAX_KEYS];
    let b = match object {
        Some(Value { raw: b @ [b'{', ..] }) => b,
        _ => return found,
    };
    // Each member: its key's opening quote at `i`, then colon, value, and
    // a comma or the closing brace.
    let mut i = skip_ws(b, 1);
    while at(b, i) == b'"' {
        let key_end = skip_value(b, i, ends);
        let start = skip_ws(b, skip_ws(b, key_end) + 1);
        let end = skip_value(b, start, ends);
        let name = Str { raw: span(b, i + 1, key_end - 1) };
        let plain = name.is_plain();
        let value = Some(Value { raw: span(b, start, end) });
        // Each key, up to a separator or the end.
        let mut rest = keys;
        for slot in found.iter_mut() {
            let mut k = 0;
            while k < rest.len() && rest[k] != KEY_SEPARATOR {
                k += 1;
            }
            let key = span(rest, 0, k);
            // A name with no escapes is its raw text.
            if if plain { crate::sys::same(name.raw, key) } else { name.eq_bytes(key) } {
                *slot = value;
            }
            rest = match rest.get(k + 1..) {
                Some(more) => more,
                None => break,
            };
        }
        i = skip_ws(b, skip_ws(b, end) + 1);
    }
    found
}

/// Iterator over an object's `(key, value)` pairs.
pub struct Members<'a>(Items<'a>);

impl<'a> Iterator for Members<'a> {
    type Item = (Str<'a>, Value<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let (key, value) = self.0.next_item()?;
        Some((key.unwrap_or(Str { raw: &[] }), value))
    }
}

/// An array's elements, read in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Array<'a> {
    raw: &'a [u8],
}

impl<'a> Array<'a> {
    /// The elements, in order.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let value = json::parse(br#"["a", 1, null]"#).unwrap();
    /// let array = value.as_array().unwrap();
    /// assert_eq!(array.len(), 3);
    /// let kinds: Vec<_> = array.iter().map(|v| v.kind()).collect();
    /// assert_eq!(kinds, [json::Kind::String, json::Kind::Number, json::Kind::Null]);
    /// ```
    pub fn iter(&self) -> Elements<'a> {
        Elements(Items { raw: self.raw, at: 1 })
    }

    /// The number of elements, counted by reading through them.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// True when the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// The array as a [`Value`], with the same text.
    pub fn as_value(&self) -> Value<'a> {
        Value { raw: self.raw }
    }
}

/// Iterator over an array's elements.
pub struct Elements<'a>(Items<'a>);

impl<'a> Iterator for Elements<'a> {
    type Item = Value<'a>;

    fn next(&mut self) -> Option<Value<'a>> {
        self.0.next_item().map(|(_, value)| value)
    }
}

/// A validated JSON string, still escaped: the text between its quotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Str<'a> {
    raw: &'a [u8],
}

impl<'a> Str<'a> {
    /// The escaped text, as it stood between the quotes.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// True when the string has no escapes, so its raw text is its value.
    // Inlined: smaller than a call, and a function fewer to compile.
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        find(self.raw, 0, b'\\') >= self.raw.len()
    }

    /// Compares the unescaped value with `s`; allocates only for a string
    /// with escapes.
    pub fn eq_str(&self, s: &str) -> bool {
        self.eq_bytes(s.as_bytes())
    }

    /// As [`eq_str`](Self::eq_str), for any bytes: no allocation for a
    /// string with no escapes (its raw text is its value, borrowed).
    #[inline(never)]
    fn eq_bytes(&self, s: &[u8]) -> bool {
        // Unescaping never lengthens a string: a shorter one cannot match.
        self.raw.len() >= s.len() && crate::sys::same(self.to_str().as_bytes(), s)
    }

    /// The unescaped value; borrowed when there is nothing to unescape.
    pub fn to_str(&self) -> Cow<'a, str> {
        if self.is_plain() {
            // SAFETY: a plain string's bytes are validated JSON string bytes.
            return Cow::Borrowed(unsafe { crate::sys::validated_str(self.raw) });
        }
        let mut out = Vec::new();
        unescape_into(&mut out, self.raw);
        // SAFETY: validated UTF-8 runs plus whole code points.
        Cow::Owned(unsafe { crate::sys::validated_string(out) })
    }

    /// The unescaped value as a `String` of its own: what
    /// `to_str().into_owned()` gives, grown the crate's way (`Cow`'s copy
    /// links alloc's allocation routines into the module).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let value = json::parse(br#"{"city": "Z\u00fcrich"}"#).unwrap();
    /// let city = value.as_object().unwrap().get("city").unwrap().as_str().unwrap();
    /// assert_eq!(city.into_string(), "Zürich");
    /// ```
    pub fn into_string(self) -> String {
        let mut out = Vec::new();
        self.unescape_onto(&mut out);
        // SAFETY: as in `to_str`.
        unsafe { crate::sys::validated_string(out) }
    }

    /// Appends the unescaped value (UTF-8) to `out`.
    pub(crate) fn unescape_onto(self, out: &mut Vec<u8>) {
        unescape_into(out, self.raw)
    }
}

/// Appends the unescaped text of validated string contents `b`: the text
/// between escapes is copied a run at a time.
fn unescape_into(out: &mut Vec<u8>, b: &[u8]) {
    let mut i = 0;
    loop {
        // Escapes often come in a row: no search and no empty copy then.
        let escape = if at(b, i) == b'\\' { i } else { find(b, i, b'\\') };
        if escape > i {
            put(out, span(b, i, escape));
        }
        if escape >= b.len() {
            return;
        }
        i = escape + 2;
        let cp = match at(b, escape + 1) {
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => 0x0A,
            b'r' => 0x0D,
            b't' => 0x09,
            b'u' => {
                let hi = hex4(b, i);
                i += 4;
                if hi & 0xFC00 == 0xD800 {
                    // Validated: the trailing half follows as `\uDCxx`.
                    let lo = hex4(b, i + 2);
                    i += 6;
                    0x10000 + ((hi & 0x3FF) << 10) + (lo & 0x3FF)
                } else {
                    hi
                }
            }
            other => other as u32,
        };
        push_utf8(out, cp);
    }
}

/// Appends code point `cp` (validated: no surrogates) as UTF-8.
fn push_utf8(out: &mut Vec<u8>, cp: u32) {
    if cp < 0x80 {
        put_byte(out, cp as u8);
        return;
    }
    let (len, lead) = match cp {
        0..0x800 => (2, 0xC0),
        0x800..0x10000 => (3, 0xE0),
        _ => (4, 0xF0),
    };
    put_byte(out, lead | (cp >> (6 * (len - 1))) as u8);
    let mut shift = 6 * (len - 1);
    while shift > 0 {
        shift -= 6;
        put_byte(out, 0x80 | ((cp >> shift) & 0x3F) as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    /// The containers the validator remembers change no lookup: every
    /// member found with them is the one found by reading again, for
    /// messages whose levels 2 and 3 hold objects, arrays, empty ones and
    /// duplicates, in any order.
    #[test]
    fn remembered_ends_find_what_reading_again_finds() {
        let params = [
            r#"{"arguments":{"a":[1,{"b":2}]},"_meta":{"v":"x"},"name":"t"}"#,
            r#"{"_meta":{},"arguments":{"pad":"xxxxxxxxxxxxxxxxxxxxxxxx"},"name":"t","name":"u"}"#,
            r#"{"name":[{"x":1},[2]],"arguments":[],"_meta":{"v":[{"w":{}}]}}"#,
            r#"{ "arguments" : { "a" : { "b" : [ ] } } , "arguments" : { "c" : 1 } }"#,
            r#"[{"arguments":{}},[{"a":1}],{}]"#,
            r#""params""#,
        ];
        let keys = b"name\xffarguments\xff_meta";
        for p in params {
            for tail in ["", r#","params":{"name":"late"}"#, r#","id":[1,[2,{"x":3}]]"#] {
                let doc = format!(r#"{{"jsonrpc":"2.0","params":{p},"method":"m"{tail}}}"#);
                let mut ends = Ends::NONE;
                let message = parse_with_ends(doc.as_bytes(), &mut ends).unwrap();
                let message_keys = b"params\xffid\xffmethod";
                let with = members(Some(message), message_keys, Some(&ends));
                let without = members(Some(message), message_keys, None);
                assert_eq!(with, without, "{doc}");
                assert_eq!(members(with[0], keys, Some(&ends)), members(without[0], keys, None), "{doc}");
            }
        }
    }
}
