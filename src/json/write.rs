//! A compact JSON writer with no `core::fmt`.
//!
//! Commas are placed by looking at the last byte written: a value or key
//! that follows `[`, `{` or `:` (or starts the document) needs none, any
//! other needs one. So the writer keeps no stack, and a value can be built
//! by any code that holds the writer.

use alloc::vec::Vec;

use super::num;
use super::output;
use super::scan::plain_end;
use crate::bytes::HEX;
use crate::text::Piece;

/// Writes one JSON document into a growable buffer.
///
/// Each method writes one token and returns the writer, so calls chain;
/// commas come by themselves. The writer does not check the document's
/// shape: every `begin_` needs its `end_`, and every [`key`](Self::key)
/// in an object its value.
///
/// # Examples
/// ```
/// use subako_tiny::JsonWriter;
///
/// let mut out = JsonWriter::new();
/// out.begin_object().key("name").string("Ada").key("tags").begin_array();
/// for tag in ["math", "engines"] {
///     out.string(tag);
/// }
/// out.end_array().key("age").int(36).key("admin").bool(false).key("team").null().end_object();
/// assert_eq!(out.as_bytes(), br#"{"name":"Ada","tags":["math","engines"],"age":36,"admin":false,"team":null}"#);
/// ```
#[derive(Debug, Clone)]
pub struct JsonWriter {
    buf: Vec<u8>,
}

impl Default for JsonWriter {
    fn default() -> JsonWriter {
        JsonWriter::new()
    }
}

impl JsonWriter {
    /// An empty writer. Once a module makes one, its replies' structured
    /// values are checked before they are sent (a module written with
    /// [`Reply::object`](crate::Reply::object) alone links no check).
    #[must_use]
    pub fn new() -> JsonWriter {
        output::need_shape();
        JsonWriter::whole()
    }

    /// An empty writer for a document that only closures write, whole by
    /// construction.
    pub(crate) const fn whole() -> JsonWriter {
        JsonWriter { buf: Vec::new() }
    }

    /// The bytes written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The bytes written, as an owned buffer.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    fn separate(&mut self) {
        if let [.., last] = self.buf[..]
            && !matches!(last, b'[' | b'{' | b':')
        {
            put_byte(&mut self.buf, b',');
        }
    }

    /// Opens an object: `{`, then [`key`](Self::key) and a value for each
    /// member, then [`end_object`](Self::end_object).
    pub fn begin_object(&mut self) -> &mut Self {
        self.separate();
        put_byte(&mut self.buf, b'{');
        self
    }

    /// Closes the innermost open object: `}`.
    pub fn end_object(&mut self) -> &mut Self {
        put_byte(&mut self.buf, b'}');
        self
    }

    /// Opens an array: `[`, then its elements, then
    /// [`end_array`](Self::end_array).
    pub fn begin_array(&mut self) -> &mut Self {
        self.separate();
        put_byte(&mut self.buf, b'[');
        self
    }

    /// Closes the innermost open array: `]`.
    pub fn end_array(&mut self) -> &mut Self {
        put_byte(&mut self.buf, b']');
        self
    }

    /// A member's key; its value comes next.
    pub fn key(&mut self, key: &str) -> &mut Self {
        self.string(key);
        put_byte(&mut self.buf, b':');
        self
    }

    /// A string, escaped as serde_json escapes it.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::JsonWriter;
    ///
    /// let mut out = JsonWriter::new();
    /// out.begin_array().string("say \"hi\"\n").string("é").end_array();
    /// assert_eq!(out.as_bytes(), r#"["say \"hi\"\n","é"]"#.as_bytes());
    /// ```
    pub fn string(&mut self, s: &str) -> &mut Self {
        self.separate();
        write_escaped(&mut self.buf, s.as_bytes());
        self
    }

    /// A string made of pieces (see [`Piece`]: text, numbers, tuples of
    /// them), escaped straight into the output.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::JsonWriter;
    ///
    /// let mut out = JsonWriter::new();
    /// out.string_of(("page ", 2, " of \"", "x", '"'));
    /// assert_eq!(out.as_bytes(), br#""page 2 of \"x\"""#);
    /// ```
    pub fn string_of(&mut self, pieces: impl Piece) -> &mut Self {
        self.separate();
        put_byte(&mut self.buf, b'"');
        pieces.write_escaped_to(&mut self.buf);
        put_byte(&mut self.buf, b'"');
        self
    }

    /// A string made of several pieces, written as one.
    #[deprecated(note = "use `string_of`, which takes numbers too: `string_of((\"Hello, \", name, \"!\"))`")]
    pub fn string_parts(&mut self, parts: &[&str]) -> &mut Self {
        self.string_of(parts)
    }

    /// A signed integer.
    pub fn int(&mut self, n: i64) -> &mut Self {
        self.separate();
        num::write_i64(&mut self.buf, n);
        self
    }

    /// An unsigned integer.
    pub fn uint(&mut self, n: u64) -> &mut Self {
        self.separate();
        num::write_u64(&mut self.buf, n);
        self
    }

    /// A float as serde_json writes one (shortest round-trip form; `null`
    /// for NaN and infinities). Only modules that write floats carry it.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::JsonWriter;
    ///
    /// let mut out = JsonWriter::new();
    /// out.begin_array().float(0.1).float(2.0).float(1e100).float(f64::NAN).end_array();
    /// assert_eq!(out.as_bytes(), b"[0.1,2.0,1e+100,null]");
    /// ```
    pub fn float(&mut self, x: f64) -> &mut Self {
        self.separate();
        num::write_f64(&mut self.buf, x);
        self
    }

    /// `true` or `false`.
    pub fn bool(&mut self, b: bool) -> &mut Self {
        self.separate();
        put(&mut self.buf, if b { b"true" } else { b"false" });
        self
    }

    /// `null`.
    pub fn null(&mut self) -> &mut Self {
        self.separate();
        put(&mut self.buf, b"null");
        self
    }

    /// JSON text that is already valid, such as a [`Value`](super::Value)'s
    /// raw bytes, written as it is.
    pub fn raw(&mut self, json: &[u8]) -> &mut Self {
        output::need_strict();
        self.trusted_raw(json)
    }

    /// [`raw`](Self::raw) for JSON text the crate itself wrote or read
    /// with a serializer's guarantees (a request's parts, miniserde's
    /// output): no stricter check of the reply.
    pub(crate) fn trusted_raw(&mut self, json: &[u8]) -> &mut Self {
        self.separate();
        put(&mut self.buf, json);
        self
    }

    /// Valid JSON text with the white space between its tokens taken out,
    /// so a pretty hand-written schema still travels on one line.
    pub fn compact(&mut self, json: &[u8]) -> &mut Self {
        self.separate();
        output::need_strict();
        compact_into(&mut self.buf, json);
        self
    }
}

/// Appends `json` (valid JSON text) without white space outside strings.
pub fn compact_into(out: &mut Vec<u8>, json: &[u8]) {
    let mut compact = Compactor::new();
    for &b in json {
        if compact.keeps(b) {
            put_byte(out, b);
        }
    }
}

/// Takes the white space out of valid JSON text a byte at a time: the
/// writer's [`compact_into`] and the build-time rendering share it.
pub(crate) struct Compactor {
    in_string: bool,
    /// After a backslash in a string: the next byte is kept whatever it is.
    escaped: bool,
}

impl Compactor {
    pub(crate) const fn new() -> Compactor {
        Compactor { in_string: false, escaped: false }
    }

    /// Whether `b`, the next byte of the text, stays.
    pub(crate) const fn keeps(&mut self, b: u8) -> bool {
        if self.escaped {
            self.escaped = false;
        } else if self.in_string && b == b'\\' {
            self.escaped = true;
        } else if b == b'"' {
            self.in_string = !self.in_string;
        } else if !self.in_string && matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            return false;
        }
        true
    }
}

/// Appends `s` as a quoted JSON string.
pub fn write_escaped(out: &mut Vec<u8>, s: &[u8]) {
    put_byte(out, b'"');
    escape_into(out, s);
    put_byte(out, b'"');
}

/// The letter after the backslash for each control character, as
/// serde_json escapes them: a short form where JSON has one, else `u` for
/// `\u00XX`.
const CONTROL_ESCAPES: &[u8; 32] = b"uuuuuuuubtnufruuuuuuuuuuuuuuuuuu";

/// How serde_json escapes byte `b`: `0` for none, `u` for `\u00XX`, else the
/// letter after the backslash.
const fn escape_of(b: u8) -> u8 {
    match b {
        b'"' | b'\\' => b,
        0..=0x1f => CONTROL_ESCAPES[b as usize],
        _ => 0,
    }
}

/// Writes the escape for `b` into `out` and returns its length (0 when `b`
/// needs none). Shared with the build-time rendering of fixed answers.
pub const fn escape_byte(b: u8, out: &mut [u8; 6]) -> usize {
    let letter = escape_of(b);
    // Written whole either way; the length says how much of it counts.
    *out = [b'\\', letter, b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]];
    match letter {
        0 => 0,
        b'u' => 6,
        _ => 2,
    }
}

/// Appends the escaped body of a JSON string (no quotes): runs of bytes
/// that need no escape are found with the reader's word-wide scan and
/// copied whole.
pub fn escape_into(out: &mut Vec<u8>, s: &[u8]) {
    // `s[run..i]` needs no escape and is not written yet.
    let mut run = 0;
    let mut i = 0;
    loop {
        i = plain_end(s, i, true);
        let Some(&b) = s.get(i) else { break };
        i += 1;
        let letter = escape_of(b);
        if letter != 0 {
            put(out, s.get(run..i - 1).unwrap_or(&[]));
            let escape = [b'\\', letter, b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]];
            put(out, escape.get(..if letter == b'u' { 6 } else { 2 }).unwrap_or(&[]));
            run = i;
        }
    }
    put(out, s.get(run..).unwrap_or(&[]));
}

/// Appends `bytes`. Kept out of line: the protocol writes many fixed
/// fragments, and one call is smaller than an inlined copy each time.
#[inline(never)]
pub fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    crate::sys::append(out, bytes);
}

/// Appends one byte through [`put`]. Used instead of `Vec::push` on the
/// paths a module runs: with no push, alloc's second growth routine
/// (`grow_one`) is not linked, and one out-of-line call is as small.
#[inline(never)]
pub fn put_byte(out: &mut Vec<u8>, byte: u8) {
    put(out, &[byte]);
}
