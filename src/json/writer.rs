//! [`JsonWriter`]: a compact JSON writer with no `core::fmt`.
//!
//! Commas are placed by looking at the last byte written: a value or key
//! that follows `[`, `{` or `:` (or starts the document) needs none, any
//! other needs one. So the writer keeps no stack, and a value can be built
//! by any code that holds the writer.

use alloc::vec::Vec;

use super::num;
use super::output;
use super::write::{compact_into, put, put_byte, write_escaped};
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
    /// How many levels below the outermost closure's the closures writing
    /// it are (a level a closure), and in the top bit, whether closures or
    /// slices opened an object or array deeper than a reply may hold: a
    /// reply with it is refused, naming the tool.
    depth: usize,
}

/// The bit of [`JsonWriter`]'s depth that marks it too deep.
const TOO_DEEP: usize = 1 << (usize::BITS - 1);

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
        JsonWriter { buf: Vec::new(), depth: 0 }
    }

    /// Whether closures or slices opened an object or array in it deeper
    /// than a reply may hold.
    pub(crate) fn too_deep(&self) -> bool {
        self.depth & TOO_DEEP != 0
    }

    /// The level of the value a closure writing it writes: 1 for the
    /// outermost closure's.
    pub(super) fn level(&self) -> usize {
        (self.depth & !TOO_DEEP) + 1
    }

    /// Notes an object or array a closure or slice opens at `level`.
    #[inline]
    pub(super) fn opened_at(&mut self, level: usize) {
        if level > output::MAX_VALUE_DEPTH {
            self.depth |= TOO_DEEP;
            output::went_too_deep();
        }
    }

    /// A closure a level deeper begins.
    pub(super) fn enter(&mut self) {
        self.depth += 1;
        self.opened_at(self.level());
    }

    /// It ends.
    pub(super) fn leave(&mut self) {
        self.depth -= 1;
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

    /// `x` with `decimals` digits after the point, as
    /// [`text::fixed`](crate::text::fixed) writes it (a JSON number);
    /// `null` for NaN and infinities.
    pub(crate) fn fixed(&mut self, x: f64, decimals: u8) -> &mut Self {
        if !x.is_finite() {
            return self.null();
        }
        self.separate();
        crate::text::fixed::write_fixed(&mut self.buf, x, decimals);
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
    /// raw bytes, written with the white space between its tokens taken
    /// out, as [`compact`](Self::compact) writes it: an answer is one
    /// compact line, and a pretty-printed body (an HTTP API's, a file's)
    /// has newlines between its tokens. The text inside strings is kept
    /// byte for byte, escapes included.
    pub fn raw(&mut self, json: &[u8]) -> &mut Self {
        self.compact(json)
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
    /// so a pretty hand-written schema still travels on one line. Text that
    /// is not one JSON value is written as it is inside `<not JSON: …>`,
    /// which no JSON reader accepts, so the reply's check refuses it
    /// wherever it stands: taking its white space out could join it into
    /// JSON that says something else (`1 2` into `12`), and written bare
    /// it could still make JSON (`""` as an array's only element gives
    /// `[]`, `1,2` two elements).
    ///
    /// ```
    /// use subako_tiny::JsonWriter;
    ///
    /// let mut w = JsonWriter::new();
    /// w.begin_array().compact(b" [ 1 ,\n 2 ] ").compact(b"").end_array();
    /// assert_eq!(w.as_bytes(), b"[[1,2],<not JSON: >]");
    /// ```
    pub fn compact(&mut self, json: &[u8]) -> &mut Self {
        if super::validator::validate(json).is_ok() {
            self.copied(json)
        } else {
            output::need_strict();
            self.separate();
            put(&mut self.buf, b"<not JSON: ");
            put(&mut self.buf, json);
            put(&mut self.buf, b">");
            self
        }
    }

    /// JSON text read by the crate's reader (a [`Value`](super::Value)'s),
    /// so valid: written compact, and checked as copied text is.
    pub(crate) fn copied(&mut self, json: &[u8]) -> &mut Self {
        self.separate();
        output::need_strict();
        compact_into(&mut self.buf, json);
        self
    }
}
