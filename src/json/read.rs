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

/// Nesting deeper than this is refused, as serde_json refuses it: 127 open
/// arrays or objects are read, the 128th is an error.
pub const MAX_DEPTH: usize = 128;

/// Why a document is not JSON, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub kind: ReadErrorKind,
    /// Byte offset of the problem in the document.
    pub offset: usize,
}

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

const fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    i
}

/// Checks that `b` is exactly one JSON value, with optional white space
/// around it.
pub const fn validate(b: &[u8]) -> Result<(), ReadError> {
    // Bit `d` of `arrays` is set when level `d` is an array, clear for an object.
    let mut arrays: u128 = 0;
    let mut depth: usize = 0;
    let mut i = skip_ws(b, 0);
    loop {
        // A value starts at `i`.
        if i >= b.len() {
            return fail(ReadErrorKind::Eof, i);
        }
        let mut closed = false;
        match b[i] {
            b'{' | b'[' => {
                let array = b[i] == b'[';
                depth += 1;
                if depth >= MAX_DEPTH {
                    return fail(ReadErrorKind::TooDeep, i);
                }
                if array {
                    arrays |= 1 << depth;
                } else {
                    arrays &= !(1 << depth);
                }
                i = skip_ws(b, i + 1);
                let close = if array { b']' } else { b'}' };
                if i < b.len() && b[i] == close {
                    i += 1;
                    depth -= 1;
                    closed = true;
                } else if !array {
                    i = match member_key(b, i) {
                        Ok(next) => next,
                        Err(e) => return Err(e),
                    };
                    continue;
                } else {
                    continue;
                }
            }
            b'"' => {
                i = match string_end(b, i) {
                    Ok(end) => end,
                    Err(e) => return Err(e),
                };
            }
            b'-' | b'0'..=b'9' => {
                i = match number_end(b, i) {
                    Ok(end) => end,
                    Err(e) => return Err(e),
                };
            }
            b't' => i = match literal(b, i, b"true") {
                Ok(end) => end,
                Err(e) => return Err(e),
            },
            b'f' => i = match literal(b, i, b"false") {
                Ok(end) => end,
                Err(e) => return Err(e),
            },
            b'n' => i = match literal(b, i, b"null") {
                Ok(end) => end,
                Err(e) => return Err(e),
            },
            _ => return fail(ReadErrorKind::Unexpected, i),
        }
        let _ = closed;
        // A value ended at `i`: close containers or move to the next item.
        loop {
            i = skip_ws(b, i);
            if depth == 0 {
                if i < b.len() {
                    return fail(ReadErrorKind::Trailing, i);
                }
                return Ok(());
            }
            if i >= b.len() {
                return fail(ReadErrorKind::Eof, i);
            }
            let array = arrays & (1 << depth) != 0;
            let close = if array { b']' } else { b'}' };
            if b[i] == close {
                i += 1;
                depth -= 1;
                continue;
            }
            if b[i] != b',' {
                return fail(ReadErrorKind::Unexpected, i);
            }
            i = skip_ws(b, i + 1);
            if !array {
                i = match member_key(b, i) {
                    Ok(next) => next,
                    Err(e) => return Err(e),
                };
            }
            break;
        }
    }
}

/// Reads `"key" :` at `i` and returns where the member's value starts.
const fn member_key(b: &[u8], i: usize) -> Result<usize, ReadError> {
    if i >= b.len() {
        return fail(ReadErrorKind::Eof, i);
    }
    if b[i] != b'"' {
        return fail(ReadErrorKind::Unexpected, i);
    }
    let i = match string_end(b, i) {
        Ok(end) => skip_ws(b, end),
        Err(e) => return Err(e),
    };
    if i >= b.len() {
        return fail(ReadErrorKind::Eof, i);
    }
    if b[i] != b':' {
        return fail(ReadErrorKind::Unexpected, i);
    }
    Ok(skip_ws(b, i + 1))
}

const fn literal(b: &[u8], i: usize, word: &[u8]) -> Result<usize, ReadError> {
    let mut k = 0;
    while k < word.len() {
        if i + k >= b.len() {
            return fail(ReadErrorKind::Eof, i + k);
        }
        if b[i + k] != word[k] {
            return fail(ReadErrorKind::Unexpected, i + k);
        }
        k += 1;
    }
    Ok(i + k)
}

const fn hex(b: u8) -> Option<u32> {
    match b {
        b'0'..=b'9' => Some((b - b'0') as u32),
        b'a'..=b'f' => Some((b - b'a' + 10) as u32),
        b'A'..=b'F' => Some((b - b'A' + 10) as u32),
        _ => None,
    }
}

/// The four hex digits at `i`, if there are four.
const fn hex4(b: &[u8], i: usize) -> Option<u32> {
    if i + 4 > b.len() {
        return None;
    }
    let mut v = 0;
    let mut k = 0;
    while k < 4 {
        match hex(b[i + k]) {
            Some(d) => v = v * 16 + d,
            None => return None,
        }
        k += 1;
    }
    Some(v)
}

/// Checks the string whose opening quote is at `start`; returns the offset
/// just past its closing quote.
const fn string_end(b: &[u8], start: usize) -> Result<usize, ReadError> {
    let mut i = start + 1;
    // Start of the current run of plain bytes, checked as UTF-8 in one go.
    let mut run = i;
    loop {
        if i >= b.len() {
            return fail(ReadErrorKind::Eof, i);
        }
        let c = b[i];
        if c == b'"' || c == b'\\' {
            let (_, tail) = b.split_at(run);
            let (plain, _) = tail.split_at(i - run);
            if core::str::from_utf8(plain).is_err() {
                return fail(ReadErrorKind::BadString, run);
            }
            if c == b'"' {
                return Ok(i + 1);
            }
            i = match escape_end(b, i) {
                Ok(end) => end,
                Err(e) => return Err(e),
            };
            run = i;
        } else if c < 0x20 {
            return fail(ReadErrorKind::BadString, i);
        } else {
            i += 1;
        }
    }
}

/// Checks the escape whose backslash is at `i`; returns the offset past it.
const fn escape_end(b: &[u8], i: usize) -> Result<usize, ReadError> {
    if i + 1 >= b.len() {
        return fail(ReadErrorKind::Eof, i + 1);
    }
    match b[i + 1] {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Ok(i + 2),
        b'u' => match hex4(b, i + 2) {
            Some(0xD800..=0xDBFF) => {
                // A leading surrogate needs its trailing half right after it.
                if i + 7 < b.len() && b[i + 6] == b'\\' && b[i + 7] == b'u' {
                    match hex4(b, i + 8) {
                        Some(0xDC00..=0xDFFF) => Ok(i + 12),
                        _ => fail(ReadErrorKind::BadString, i),
                    }
                } else {
                    fail(ReadErrorKind::BadString, i)
                }
            }
            Some(0xDC00..=0xDFFF) | None => fail(ReadErrorKind::BadString, i),
            Some(_) => Ok(i + 6),
        },
        _ => fail(ReadErrorKind::BadString, i),
    }
}

const fn digits_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// Checks the number starting at `i`; returns the offset past it.
const fn number_end(b: &[u8], mut i: usize) -> Result<usize, ReadError> {
    if b[i] == b'-' {
        i += 1;
    }
    if i >= b.len() {
        return fail(ReadErrorKind::Eof, i);
    }
    if b[i] == b'0' {
        i += 1;
    } else if b[i].is_ascii_digit() {
        i = digits_end(b, i);
    } else {
        return fail(ReadErrorKind::BadNumber, i);
    }
    if i < b.len() && b[i] == b'.' {
        let end = digits_end(b, i + 1);
        if end == i + 1 {
            return fail(ReadErrorKind::BadNumber, end);
        }
        i = end;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
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

/// The offset just past the value starting at `i` in validated text.
fn skip_value(b: &[u8], i: usize) -> usize {
    match b[i] {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = i;
            loop {
                match b[i] {
                    b'"' => {
                        i = skip_string(b, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let mut i = i;
            while i < b.len() && !matches!(b[i], b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t')
            {
                i += 1;
            }
            i
        }
    }
}

/// The offset past the closing quote of the validated string at `i`.
fn skip_string(b: &[u8], i: usize) -> usize {
    let mut i = i + 1;
    loop {
        match b[i] {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// Parses a whole document: the one value in `b`.
pub fn parse(b: &[u8]) -> Result<Value<'_>, ReadError> {
    validate(b)?;
    let start = skip_ws(b, 0);
    Ok(Value { raw: &b[start..skip_value(b, start)] })
}

/// One validated JSON value: the exact bytes it was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value<'a> {
    raw: &'a [u8],
}

/// Which of JSON's six kinds a value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
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

    pub fn kind(&self) -> Kind {
        match self.raw[0] {
            b'n' => Kind::Null,
            b't' | b'f' => Kind::Bool,
            b'"' => Kind::String,
            b'[' => Kind::Array,
            b'{' => Kind::Object,
            _ => Kind::Number,
        }
    }

    pub fn is_null(&self) -> bool {
        self.raw[0] == b'n'
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.raw[0] {
            b't' => Some(true),
            b'f' => Some(false),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<Str<'a>> {
        match self.raw[0] {
            b'"' => Some(Str { raw: &self.raw[1..self.raw.len() - 1] }),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<Object<'a>> {
        match self.raw[0] {
            b'{' => Some(Object { raw: self.raw }),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<Array<'a>> {
        match self.raw[0] {
            b'[' => Some(Array { raw: self.raw }),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is an integer written without a
    /// fraction or exponent and fits.
    pub fn as_i64(&self) -> Option<i64> {
        let (negative, digits) = match self.raw.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, self.raw),
        };
        let magnitude = parse_digits(digits)?;
        if negative {
            if magnitude <= i64::MAX as u64 + 1 {
                Some((magnitude as i64).wrapping_neg())
            } else {
                None
            }
        } else {
            i64::try_from(magnitude).ok()
        }
    }

    /// The number as a `u64`, if it is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        parse_digits(self.raw)
    }

    /// Any number as the nearest `f64`. Only modules that call it carry a
    /// float parser.
    pub fn as_f64(&self) -> Option<f64> {
        if self.kind() != Kind::Number {
            return None;
        }
        // Validated number text is ASCII and in the grammar `f64` parses.
        core::str::from_utf8(self.raw).ok()?.parse().ok()
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
        n = n.checked_mul(10)?.checked_add((d - b'0') as u64)?;
    }
    Some(n)
}

/// An object's members, read in order; the last of duplicate keys wins
/// in [`Object::get`], as in serde_json.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Object<'a> {
    raw: &'a [u8],
}

impl<'a> Object<'a> {
    pub fn iter(&self) -> Members<'a> {
        Members { raw: self.raw, at: 1 }
    }

    /// The value of member `key` (compared after unescaping).
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        let mut found = None;
        for (k, v) in self.iter() {
            if k.eq_str(key) {
                found = Some(v);
            }
        }
        found
    }

    /// The number of members (duplicates counted).
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.raw.len() == 2 || self.iter().next().is_none()
    }

    pub fn as_value(&self) -> Value<'a> {
        Value { raw: self.raw }
    }
}

/// Iterator over an object's `(key, value)` pairs.
pub struct Members<'a> {
    raw: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (Str<'a>, Value<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.raw;
        let i = skip_ws(b, self.at);
        if b[i] == b'}' {
            self.at = i;
            return None;
        }
        let key_end = skip_string(b, i);
        let key = Str { raw: &b[i + 1..key_end - 1] };
        let v = skip_ws(b, skip_ws(b, key_end) + 1);
        let v_end = skip_value(b, v);
        let next = skip_ws(b, v_end);
        // Past the comma, or left on the closing brace.
        self.at = if b[next] == b',' { next + 1 } else { next };
        Some((key, Value { raw: &b[v..v_end] }))
    }
}

/// An array's elements, read in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Array<'a> {
    raw: &'a [u8],
}

impl<'a> Array<'a> {
    pub fn iter(&self) -> Elements<'a> {
        Elements { raw: self.raw, at: 1 }
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    pub fn as_value(&self) -> Value<'a> {
        Value { raw: self.raw }
    }
}

/// Iterator over an array's elements.
pub struct Elements<'a> {
    raw: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Elements<'a> {
    type Item = Value<'a>;

    fn next(&mut self) -> Option<Value<'a>> {
        let b = self.raw;
        let i = skip_ws(b, self.at);
        if b[i] == b']' {
            self.at = i;
            return None;
        }
        let end = skip_value(b, i);
        let next = skip_ws(b, end);
        self.at = if b[next] == b',' { next + 1 } else { next };
        Some(Value { raw: &b[i..end] })
    }
}

/// A validated JSON string, still escaped: the text between its quotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Str<'a> {
    raw: &'a [u8],
}

/// One piece of a string: a run of plain UTF-8, or one unescaped character.
enum Piece<'a> {
    Plain(&'a [u8]),
    Char([u8; 4], usize),
}

impl<'a> Str<'a> {
    /// The escaped text, as it stood between the quotes.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// True when the string has no escapes, so its raw text is its value.
    pub fn is_plain(&self) -> bool {
        !self.raw.contains(&b'\\')
    }

    /// Calls `f` with each piece of the unescaped text, in order.
    fn pieces(&self, mut f: impl FnMut(Piece<'a>) -> bool) -> bool {
        let b = self.raw;
        let mut i = 0;
        let mut run = 0;
        while i < b.len() {
            if b[i] != b'\\' {
                i += 1;
                continue;
            }
            if run < i && !f(Piece::Plain(&b[run..i])) {
                return false;
            }
            let (c, len) = unescape_at(b, i);
            let mut utf8 = [0u8; 4];
            let n = c.encode_utf8(&mut utf8).len();
            if !f(Piece::Char(utf8, n)) {
                return false;
            }
            i += len;
            run = i;
        }
        run >= b.len() || f(Piece::Plain(&b[run..]))
    }

    /// Compares the unescaped value with `s`, without allocating.
    pub fn eq_str(&self, s: &str) -> bool {
        if self.is_plain() {
            return self.raw == s.as_bytes();
        }
        let mut rest = s.as_bytes();
        let all = self.pieces(|piece| {
            let bytes: &[u8] = match &piece {
                Piece::Plain(p) => p,
                Piece::Char(c, n) => &c[..*n],
            };
            match rest.strip_prefix(bytes) {
                Some(tail) => {
                    rest = tail;
                    true
                }
                None => false,
            }
        });
        all && rest.is_empty()
    }

    /// The unescaped value; borrowed when there is nothing to unescape.
    pub fn to_str(&self) -> Cow<'a, str> {
        if self.is_plain() {
            // SAFETY-free: validated strings are UTF-8; the fallback is unreachable.
            return match core::str::from_utf8(self.raw) {
                Ok(s) => Cow::Borrowed(s),
                Err(_) => Cow::Borrowed(""),
            };
        }
        let mut out = Vec::with_capacity(self.raw.len());
        self.pieces(|piece| {
            match piece {
                Piece::Plain(p) => out.extend_from_slice(p),
                Piece::Char(c, n) => out.extend_from_slice(&c[..n]),
            }
            true
        });
        Cow::Owned(String::from_utf8(out).unwrap_or_default())
    }
}

/// The character escaped at `i` (a backslash) in validated text, and how
/// many bytes the escape takes.
fn unescape_at(b: &[u8], i: usize) -> (char, usize) {
    let c = match b[i + 1] {
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hi = hex4(b, i + 2).unwrap_or(0);
            if (0xD800..0xDC00).contains(&hi) {
                let lo = hex4(b, i + 8).unwrap_or(0xDC00);
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return (char::from_u32(c).unwrap_or('\u{fffd}'), 12);
            }
            return (char::from_u32(hi).unwrap_or('\u{fffd}'), 6);
        }
        other => other as char,
    };
    (c, 2)
}
