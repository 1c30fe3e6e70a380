//! The value API: after validation, a [`Value`] is just the bytes of one
//! value; members and elements are found by skipping over validated text,
//! and strings are unescaped only when asked.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::scan::{at, find, skip_ws, span};
use super::unescape::unescape_into;
use super::validator::{ReadError, document, skip_string, skip_value};

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
    super::validator::walks_documents();
    let (start, end) = document(b, None)?;
    Ok(Value { raw: span(b, start, end) })
}

/// One validated JSON value: the exact bytes it was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value<'a> {
    pub(crate) raw: &'a [u8],
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

    /// The value's JSON text, exactly as it came, as a `str` (valid JSON
    /// text is UTF-8).
    ///
    /// # Examples
    /// ```
    /// let value = subako_tiny::json::parse(r#" {"a": [1, "é"]} "#.as_bytes()).unwrap();
    /// assert_eq!(value.as_json(), r#"{"a": [1, "é"]}"#);
    /// ```
    pub fn as_json(&self) -> &'a str {
        // SAFETY: the bytes of a validated JSON value: its strings are
        // proven UTF-8, and everything else in it is ASCII.
        unsafe { crate::sys::assume_utf8(self.raw) }
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

    /// True when every JSON reader reads the value alike (RFC 8259's
    /// interoperable JSON): every number within `f64` and no object naming
    /// a member twice; and nested so that it fits a reply copied up to 16
    /// levels down (an entry of `{"entries":[…]}` is two down). A reply
    /// holding a copied value that is not is refused as a whole, so test
    /// text from a file or a server with this before copying it in (the
    /// reader itself accepts both, as serde_json's `Value` does).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// assert!(json::parse(br#"{"a": 1e300, "b": [1, 2]}"#).unwrap().is_interoperable());
    /// assert!(!json::parse(br#"{"a": 1e400}"#).unwrap().is_interoperable());
    /// assert!(!json::parse(br#"{"a": 1, "a": 2}"#).unwrap().is_interoperable());
    /// let nested = |levels| ["[".repeat(levels), "]".repeat(levels)].concat();
    /// assert!(json::parse(nested(109).as_bytes()).unwrap().is_interoperable());
    /// assert!(!json::parse(nested(110).as_bytes()).unwrap().is_interoperable());
    /// ```
    pub fn is_interoperable(&self) -> bool {
        super::output::interoperable(self.raw)
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

    /// The value at `path` inside this one: each step a member's name in
    /// an object, or an index (decimal) in an array; `None` where a step
    /// finds nothing.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let answer = json::parse(br#"{"rates": {"USD": 1.08}, "days": [{"max": 21.5}]}"#).unwrap();
    /// let to = "USD";
    /// assert_eq!(answer.at(&["rates", to]).and_then(|v| v.as_f64()), Some(1.08));
    /// assert_eq!(answer.at(&["days", "0", "max"]).and_then(|v| v.as_f64()), Some(21.5));
    /// assert_eq!(answer.at(&["rates", "JPY"]), None);
    /// assert_eq!(answer.at(&[]), Some(answer));
    /// ```
    pub fn at(&self, path: &[&str]) -> Option<Value<'a>> {
        let mut value = *self;
        for step in path {
            value = match value.first() {
                b'{' => Object { raw: value.raw }.get(step)?,
                b'[' => {
                    let index = usize::try_from(parse_digits(step.as_bytes())?).ok()?;
                    Array { raw: value.raw }.iter().nth(index)?
                }
                _ => return None,
            };
        }
        Some(value)
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
    /// reads it; `None` for a number beyond f64's range (`1e400`), which
    /// is JSON but which `str::parse` makes infinite and serde_json
    /// refuses: written back, an infinity would be `null`. Only modules
    /// that call it carry a float parser: the crate's own, much smaller
    /// than core's (docs/SIZE.md).
    ///
    /// An `f64` is written back as a float (`9` read is sent `9.0`, as
    /// serde_json writes an `f64`): to pass a number on as it was written,
    /// write the `Value` itself (`o.field("minutes", v)`), or read it with
    /// [`as_i64`](Value::as_i64) first (author trial 93).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{json, Reply};
    ///
    /// let minutes = json::parse(b"9").unwrap();
    /// let reply = Reply::object(|o| o.field("as_f64", minutes.as_f64()).field("as_written", minutes));
    /// assert_eq!(reply.structured(), Some(&br#"{"as_f64":9.0,"as_written":9}"#[..]));
    /// assert_eq!(json::parse(b"-2.5e3").unwrap().as_f64(), Some(-2500.0));
    /// assert_eq!(json::parse(b"1e308").unwrap().as_f64(), Some(1e308));
    /// assert_eq!(json::parse(b"1e400").unwrap().as_f64(), None);
    /// assert_eq!(json::parse(b"\"1\"").unwrap().as_f64(), None);
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        if self.kind() != Kind::Number {
            return None;
        }
        Some(super::float::parse(self.raw)).filter(|x| x.is_finite())
    }

    /// [`as_f64`](Self::as_f64), a number beyond f64's range read as
    /// ±infinity, as `str::parse` reads it: for bounds, which such a
    /// number breaks.
    pub(crate) fn as_f64_or_infinity(&self) -> Option<f64> {
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
#[derive(Clone, Debug)]
struct Items<'a> {
    pub(crate) raw: &'a [u8],
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
            let key_end = skip_string(b, i);
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
    pub(crate) raw: &'a [u8],
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

/// Iterator over an object's `(key, value)` pairs.
#[derive(Clone, Debug)]
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
    pub(crate) raw: &'a [u8],
}

impl<'a> Array<'a> {
    /// The elements, in order. To read members of each element (a list
    /// of records), [`fields`](Array::fields) reads each element once.
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
#[derive(Clone, Debug)]
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
    pub(crate) raw: &'a [u8],
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

    /// [`eq_bytes`](Self::eq_bytes) for a member's name compared with many
    /// keys, `plain` being its [`is_plain`](Self::is_plain), looked for
    /// once: a plain name is its raw text.
    #[inline(always)]
    pub(crate) fn eq_key(&self, plain: bool, key: &[u8]) -> bool {
        if plain { crate::bytes::same(self.raw, key) } else { self.eq_bytes(key) }
    }

    /// As [`eq_str`](Self::eq_str), for any bytes: no allocation for a
    /// string with no escapes (its raw text is its value, borrowed).
    #[inline(never)]
    pub(crate) fn eq_bytes(&self, s: &[u8]) -> bool {
        // Unescaping never lengthens a string: a shorter one cannot match.
        self.raw.len() >= s.len() && crate::bytes::same(self.to_str().as_bytes(), s)
    }

    /// The unescaped value; borrowed when there is nothing to unescape.
    pub fn to_str(&self) -> Cow<'a, str> {
        self.unescaped(false)
    }

    /// [`to_str`](Self::to_str), told that the string holds no escape when
    /// `plain` (a request's longest string, known so from its validation):
    /// then its bytes are borrowed with no look for a backslash.
    pub(crate) fn unescaped(&self, plain: bool) -> Cow<'a, str> {
        if plain || self.is_plain() {
            // SAFETY: a plain string's bytes are validated JSON string bytes.
            return Cow::Borrowed(unsafe { crate::sys::assume_utf8(self.raw) });
        }
        let mut out = Vec::new();
        unescape_into(&mut out, self.raw);
        // SAFETY: validated UTF-8 runs plus whole code points.
        Cow::Owned(unsafe { crate::sys::assume_utf8_string(out) })
    }

    /// The unescaped value as a `String` of its own: what
    /// `to_str().into_owned()` gives, in one block the size of the raw
    /// text, which the unescaped one never passes (`Cow`'s copy links
    /// alloc's allocation routines into the module, and the crate's
    /// growth of a buffer would give a short string 64 bytes).
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
        let mut out = crate::sys::exact_capacity(self.raw.len());
        self.unescape_onto(&mut out);
        // SAFETY: as in `to_str`.
        unsafe { crate::sys::assume_utf8_string(out) }
    }

    /// Appends the unescaped value (UTF-8) to `out`.
    pub(crate) fn unescape_onto(self, out: &mut Vec<u8>) {
        unescape_into(out, self.raw)
    }
}
