//! Structured output that cannot be malformed: an object is a closure, so
//! every key has its value and every brace closes. [`ToJson`] is what a
//! member or an element may be. The one way around it is to swap two
//! writers of different depths (`core::mem::swap` of the writers two
//! nested closures get): each writer holds its document and its count of
//! how deep it is, so the braces, or the count that refuses a reply
//! nested past 125 levels, go with the wrong one. Nothing checks for that
//! (review 82 swapped back and forth to send 126 levels).
//!
//! ```
//! use subako_tiny::Reply;
//!
//! let tags = ["math", "engines"];
//! let reply = Reply::object(|o| {
//!     o.field("name", "Ada").field("age", 36).field("ratio", 0.5).field("tags", &tags[..]);
//!     o.object("address", |a| a.field("city", "London").field("zip", None::<&str>))
//!         .array("scores", |s| s.push(1).push(2.5).object(|p| p.field("best", true)))
//! });
//! assert_eq!(
//!     reply.structured(),
//!     Some(&br#"{"name":"Ada","age":36,"ratio":0.5,"tags":["math","engines"],"address":{"city":"London","zip":null},"scores":[1,2.5,{"best":true}]}"#[..])
//! );
//! ```

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::value::{Array, Object, Str, Value};
use super::writer::JsonWriter;
use crate::text::{Piece, Text};

/// A JSON object that `members` writes: for a JSON Lines entry, a
/// request body, or a value to put into another document. Whole by
/// construction, so, unlike a [`JsonWriter`] made with
/// [`JsonWriter::new`], it does not bring the check of the module's replies
/// into the module.
///
/// ```
/// use subako_tiny::json;
///
/// let line = json::object(|o| o.field("id", 7).field("title", "日記").array("tags", |t| t.push("a")));
/// assert_eq!(line, r#"{"id":7,"title":"日記","tags":["a"]}"#.as_bytes());
/// ```
pub fn object(members: impl FnOnce(&mut ObjectWriter) -> &mut ObjectWriter) -> JsonBytes {
    let mut out = JsonWriter::whole();
    out.object(members);
    JsonBytes(out.into_bytes())
}

/// A JSON array that `elements` writes: [`object`]'s twin.
///
/// ```
/// use subako_tiny::json;
///
/// assert_eq!(json::array(|a| a.push(1).push("two").push(None::<u8>)), br#"[1,"two",null]"#);
/// ```
pub fn array(elements: impl FnOnce(&mut ArrayWriter) -> &mut ArrayWriter) -> JsonBytes {
    let mut out = JsonWriter::whole();
    out.array(elements);
    JsonBytes(out.into_bytes())
}

/// The bytes of one whole JSON value, made by [`object`] and [`array()`]. It
/// reads as a `&[u8]` (for [`fs::append_line`](crate::fs::append_line) or
/// a request body) and, put into another document, is written as the value
/// it is: a `Vec<u8>` there would be an array of numbers.
///
/// ```
/// use subako_tiny::json;
///
/// let point = json::object(|p| p.field("x", 1).field("y", 2));
/// let path = json::array(|a| a.push(&point).push(&point));
/// assert_eq!(path, br#"[{"x":1,"y":2},{"x":1,"y":2}]"#);
/// assert_eq!(point.as_str(), r#"{"x":1,"y":2}"#);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct JsonBytes(Vec<u8>);

impl JsonBytes {
    /// The JSON text, which is UTF-8 by construction.
    ///
    /// ```
    /// assert_eq!(subako_tiny::json::array(|a| a.push("é")).as_str(), r#"["é"]"#);
    /// ```
    pub fn as_str(&self) -> &str {
        // SAFETY: only the sealed writers made these bytes: strings from
        // `str`s and sealed pieces, JSON the reader validated, and ASCII.
        unsafe { crate::sys::assume_utf8(&self.0) }
    }

    /// The bytes, as `String::as_bytes` gives them (a `JsonBytes` also
    /// reads as a `&[u8]` where one is asked for: `fs::append_line(path,
    /// &entry)`).
    ///
    /// ```
    /// assert_eq!(subako_tiny::json::array(|a| a.push(1)).as_bytes(), b"[1]");
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The bytes, as a `Vec` of their own.
    ///
    /// ```
    /// let bytes: Vec<u8> = subako_tiny::json::array(|a| a.push(1)).into_bytes();
    /// assert_eq!(bytes, b"[1]");
    /// ```
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

impl core::ops::Deref for JsonBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for JsonBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<JsonBytes> for Vec<u8> {
    fn from(json: JsonBytes) -> Vec<u8> {
        json.0
    }
}

impl core::fmt::Debug for JsonBytes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<[u8]> for JsonBytes {
    fn eq(&self, other: &[u8]) -> bool {
        self.0 == other
    }
}

impl PartialEq<&[u8]> for JsonBytes {
    fn eq(&self, other: &&[u8]) -> bool {
        self.0 == *other
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for JsonBytes {
    fn eq(&self, other: &&[u8; N]) -> bool {
        self.0 == other[..]
    }
}

impl PartialEq<&str> for JsonBytes {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

/// The members of one JSON object being written; made by
/// [`Reply::object`](crate::Reply::object), [`JsonWriter::object`] and
/// the `object` methods here. Every method writes one whole member.
#[derive(Debug)]
pub struct ObjectWriter {
    pub(super) json: JsonWriter,
}

/// The elements of one JSON array being written; made by the `array`
/// methods. Every method writes one whole element.
#[derive(Debug)]
pub struct ArrayWriter {
    json: JsonWriter,
}

impl ObjectWriter {
    /// The member `key` with `value` (any [`ToJson`]: text, numbers,
    /// booleans, `Option`s, slices and arrays, values read from JSON). A
    /// key given twice is written twice, which readers disagree on: not
    /// checked here (it would cost every object), but `testing::call`
    /// fails a test whose answer holds one.
    ///
    /// ```
    /// let reply = subako_tiny::Reply::object(|o| o.field("n", 3u8).field("ok", true).field("note", None::<&str>));
    /// assert_eq!(reply.structured(), Some(&br#"{"n":3,"ok":true,"note":null}"#[..]));
    /// ```
    pub fn field(&mut self, key: &str, value: impl ToJson) -> &mut ObjectWriter {
        self.json.key(key);
        counted(&mut self.json, &value);
        value.write_json(&mut self.json);
        self
    }

    /// The member `key` with a string made of pieces (see
    /// [`Piece`]: text and numbers), written straight into the output.
    ///
    /// ```
    /// let name = "Ada";
    /// let reply = subako_tiny::Reply::object(|o| o.text("message", ("Hello, ", name, "! You are #", 7)));
    /// assert_eq!(reply.structured(), Some(&br#"{"message":"Hello, Ada! You are #7"}"#[..]));
    /// ```
    pub fn text(&mut self, key: &str, pieces: impl Piece) -> &mut ObjectWriter {
        self.json.key(key).string_of(pieces);
        self
    }

    /// The member `key` with an object whose members `members` writes.
    ///
    /// ```
    /// let reply = subako_tiny::Reply::object(|o| o.object("point", |p| p.field("x", 1).field("y", 2)));
    /// assert_eq!(reply.structured(), Some(&br#"{"point":{"x":1,"y":2}}"#[..]));
    /// ```
    pub fn object(
        &mut self,
        key: &str,
        members: impl FnOnce(&mut ObjectWriter) -> &mut ObjectWriter,
    ) -> &mut ObjectWriter {
        self.open(key);
        members(self);
        self.close()
    }

    /// `"key":{`, a level deeper. Out of line, as is [`ObjectWriter::close`],
    /// so that each closure's call site is two calls.
    #[inline(never)]
    fn open(&mut self, key: &str) {
        self.json.key(key).begin_object();
        self.json.enter();
    }

    /// `}`, a level up.
    #[inline(never)]
    fn close(&mut self) -> &mut ObjectWriter {
        self.json.leave();
        self.json.end_object();
        self
    }

    /// The member `key` with an array whose elements `elements` writes.
    ///
    /// ```
    /// let reply = subako_tiny::Reply::object(|o| {
    ///     o.array("squares", |a| {
    ///         for n in 1..4 {
    ///             a.push(n * n);
    ///         }
    ///         a
    ///     })
    /// });
    /// assert_eq!(reply.structured(), Some(&br#"{"squares":[1,4,9]}"#[..]));
    /// ```
    pub fn array(
        &mut self,
        key: &str,
        elements: impl FnOnce(&mut ArrayWriter) -> &mut ArrayWriter,
    ) -> &mut ObjectWriter {
        self.json.key(key);
        self.json.array_at(elements);
        self
    }
}

impl ArrayWriter {
    /// One element, `value` (any [`ToJson`]).
    ///
    /// ```
    /// let reply = subako_tiny::Reply::object(|o| o.array("mixed", |a| a.push("x").push(1).push(None::<u8>)));
    /// assert_eq!(reply.structured(), Some(&br#"{"mixed":["x",1,null]}"#[..]));
    /// ```
    pub fn push(&mut self, value: impl ToJson) -> &mut ArrayWriter {
        counted(&mut self.json, &value);
        value.write_json(&mut self.json);
        self
    }

    /// One element: a string made of pieces (see [`Piece`]).
    ///
    /// ```
    /// let reply = subako_tiny::Reply::object(|o| o.array("lines", |a| a.text(("line ", 1)).text(("line ", 2))));
    /// assert_eq!(reply.structured(), Some(&br#"{"lines":["line 1","line 2"]}"#[..]));
    /// ```
    pub fn text(&mut self, pieces: impl Piece) -> &mut ArrayWriter {
        self.json.string_of(pieces);
        self
    }

    /// One element: an object whose members `members` writes.
    ///
    /// ```
    /// let reply = subako_tiny::Reply::object(|o| o.array("people", |a| a.object(|p| p.field("name", "Ada"))));
    /// assert_eq!(reply.structured(), Some(&br#"{"people":[{"name":"Ada"}]}"#[..]));
    /// ```
    pub fn object(&mut self, members: impl FnOnce(&mut ObjectWriter) -> &mut ObjectWriter) -> &mut ArrayWriter {
        self.json.object_at(members);
        self
    }

    /// One element: an array whose elements `elements` writes.
    ///
    /// ```
    /// let reply = subako_tiny::Reply::object(|o| o.array("grid", |a| a.array(|row| row.push(1).push(2))));
    /// assert_eq!(reply.structured(), Some(&br#"{"grid":[[1,2]]}"#[..]));
    /// ```
    pub fn array(&mut self, elements: impl FnOnce(&mut ArrayWriter) -> &mut ArrayWriter) -> &mut ArrayWriter {
        self.json.array_at(elements);
        self
    }
}

impl JsonWriter {
    /// An object whose members `members` writes: whole by construction (a
    /// key given twice aside: see [`ObjectWriter::field`]).
    ///
    /// ```
    /// use subako_tiny::JsonWriter;
    ///
    /// let mut out = JsonWriter::new();
    /// out.object(|o| o.field("a", 1));
    /// assert_eq!(out.as_bytes(), br#"{"a":1}"#);
    /// ```
    pub fn object(&mut self, members: impl FnOnce(&mut ObjectWriter) -> &mut ObjectWriter) -> &mut JsonWriter {
        self.outer_object(members);
        self
    }

    /// [`JsonWriter::object`], for [`Reply::object`](crate::Reply::object)
    /// too.
    pub(crate) fn outer_object(&mut self, members: impl FnOnce(&mut ObjectWriter) -> &mut ObjectWriter) {
        // The outermost of its closures: a level that counts for nothing.
        let mut o = self.open_outer_object();
        members(&mut o);
        *self = o.json;
        self.end_object();
    }

    /// [`JsonWriter::open_object`] for the outermost object, a closure at
    /// the level of the writer's.
    fn open_outer_object(&mut self) -> ObjectWriter {
        self.begin_object();
        ObjectWriter { json: core::mem::replace(self, JsonWriter::whole()) }
    }

    /// [`JsonWriter::object`] for an object a level deeper than the
    /// closure whose writer this is.
    fn object_at(&mut self, members: impl FnOnce(&mut ObjectWriter) -> &mut ObjectWriter) -> &mut JsonWriter {
        let mut o = self.open_object();
        members(&mut o);
        self.close_object(o)
    }

    /// `{`, a level deeper, and its writer, which holds this one's bytes
    /// until [`JsonWriter::close_object`]. Out of line, as that is: each
    /// closure's call site is two calls.
    #[inline(never)]
    fn open_object(&mut self) -> ObjectWriter {
        self.begin_object();
        self.enter();
        ObjectWriter { json: core::mem::replace(self, JsonWriter::whole()) }
    }

    /// The bytes back from `o`, a level up, then `}`.
    fn close_object(&mut self, o: ObjectWriter) -> &mut JsonWriter {
        *self = o.json;
        self.leave();
        self.end_object()
    }

    /// An array whose elements `elements` writes.
    ///
    /// ```
    /// use subako_tiny::JsonWriter;
    ///
    /// let mut out = JsonWriter::new();
    /// out.array(|a| a.push("x").push(2));
    /// assert_eq!(out.as_bytes(), br#"["x",2]"#);
    /// ```
    pub fn array(&mut self, elements: impl FnOnce(&mut ArrayWriter) -> &mut ArrayWriter) -> &mut JsonWriter {
        let mut a = self.open_outer_array();
        elements(&mut a);
        *self = a.json;
        self.end_array()
    }

    /// [`JsonWriter::open_outer_object`] for an array.
    fn open_outer_array(&mut self) -> ArrayWriter {
        self.begin_array();
        ArrayWriter { json: core::mem::replace(self, JsonWriter::whole()) }
    }

    /// [`JsonWriter::object_at`] for an array.
    fn array_at(&mut self, elements: impl FnOnce(&mut ArrayWriter) -> &mut ArrayWriter) -> &mut JsonWriter {
        let mut a = self.open_array();
        elements(&mut a);
        self.close_array(a)
    }

    /// [`JsonWriter::open_object`] for an array.
    #[inline(never)]
    fn open_array(&mut self) -> ArrayWriter {
        self.begin_array();
        self.enter();
        ArrayWriter { json: core::mem::replace(self, JsonWriter::whole()) }
    }

    /// [`JsonWriter::close_object`] for an array.
    fn close_array(&mut self, a: ArrayWriter) -> &mut JsonWriter {
        *self = a.json;
        self.leave();
        self.end_array()
    }
}

/// Counts the arrays `value` opens in the value `json`'s closure writes
/// (review 77: a slice at the deepest level went out past what readers
/// take). A scalar's nesting is a constant 0: nothing is counted, or
/// linked.
#[inline]
fn counted(json: &mut JsonWriter, value: &impl ToJson) {
    let nesting = value.nesting();
    if nesting != 0 {
        let level = json.level() + nesting;
        json.opened_at(level);
    }
}

/// JSON's `null` as a member or an element, where `None` would need its
/// type written out (`None::<f64>`).
///
/// ```
/// use subako_tiny::{Reply, json};
///
/// let reply = Reply::object(|o| o.field("reading", json::Null).array("last", |a| a.push(1).push(json::Null)));
/// assert_eq!(reply.structured(), Some(&br#"{"reading":null,"last":[1,null]}"#[..]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Null;

/// A value an [`ObjectWriter`] or [`ArrayWriter`] can write: text (`str`,
/// `String`, [`Text`], `char`, a JSON [`Str`]) as a string; integers and
/// `f64` as numbers (a NaN or an infinity as `null`, as serde_json writes
/// them), and [`text::fixed`](crate::text::fixed) as a number with that
/// many decimals (`12.50`); `bool`; `None` and [`Null`] as `null`; a slice, array or
/// `Vec` as an array; a [`Value`], [`Object`] or [`Array`] read from JSON
/// as it was read, less the white space between its tokens (an answer is
/// one compact line), after a check that it is one whole value: a layer
/// of its own in a module that writes one, which `subako-tiny size
/// --explain` names "the reply check".
///
/// Sealed: every kind writes whole, valid JSON.
pub trait ToJson: sealed::Sealed {
    /// Writes the value as one JSON value.
    fn write_json(&self, out: &mut JsonWriter);

    /// How many levels of arrays it writes (a slice of numbers 1, of
    /// slices 2), for the writer's count of its depth; 0 for a scalar, and
    /// for JSON copied in, which is walked instead. For a scalar type a
    /// constant, so that writing one counts nothing.
    #[doc(hidden)]
    fn nesting(&self) -> usize {
        0
    }
}

mod sealed {
    /// What may be a [`ToJson`](super::ToJson).
    pub trait Sealed {}
}

macro_rules! to_json {
    ($($t:ty => |$v:ident, $out:ident| $body:expr;)*) => {$(
        impl sealed::Sealed for $t {}
        impl ToJson for $t {
            fn write_json(&self, $out: &mut JsonWriter) {
                let $v = self;
                $body;
            }
        }
    )*};
}

to_json! {
    str => |s, out| out.string(s);
    String => |s, out| out.string(s);
    Cow<'_, str> => |s, out| out.string(s);
    Text => |s, out| out.string(s.as_str());
    char => |c, out| out.string_of(*c);
    Str<'_> => |s, out| out.string_of(*s);
    bool => |b, out| out.bool(*b);
    Null => |_n, out| out.null();
    i8 => |n, out| out.int(*n as i64);
    i16 => |n, out| out.int(*n as i64);
    i32 => |n, out| out.int(*n as i64);
    i64 => |n, out| out.int(*n);
    isize => |n, out| out.int(*n as i64);
    u8 => |n, out| out.uint(*n as u64);
    u16 => |n, out| out.uint(*n as u64);
    u32 => |n, out| out.uint(*n as u64);
    u64 => |n, out| out.uint(*n);
    usize => |n, out| out.uint(*n as u64);
    f64 => |x, out| out.float(*x);
    crate::text::Fixed => |f, out| out.fixed(f.x, f.decimals);
    Value<'_> => |v, out| out.copied(v.raw());
    Object<'_> => |v, out| out.copied(v.as_value().raw());
    Array<'_> => |v, out| out.copied(v.as_value().raw());
    JsonBytes => |v, out| {
        // Written into another value, its depth adds to where it goes,
        // which is not known here: the reply is checked (review 76).
        super::output::need_shape();
        out.trusted_raw(&v.0)
    };
}

impl<T: ToJson + ?Sized> sealed::Sealed for &T {}
impl<T: ToJson + ?Sized> ToJson for &T {
    fn write_json(&self, out: &mut JsonWriter) {
        (**self).write_json(out)
    }

    fn nesting(&self) -> usize {
        (**self).nesting()
    }
}

impl<T: ToJson> sealed::Sealed for Option<T> {}
impl<T: ToJson> ToJson for Option<T> {
    fn write_json(&self, out: &mut JsonWriter) {
        match self {
            Some(v) => v.write_json(out),
            None => {
                out.null();
            }
        }
    }

    fn nesting(&self) -> usize {
        self.as_ref().map_or(0, T::nesting)
    }
}

impl<T: ToJson> sealed::Sealed for [T] {}
impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, out: &mut JsonWriter) {
        out.begin_array();
        for v in self {
            v.write_json(out);
        }
        out.end_array();
    }

    fn nesting(&self) -> usize {
        1 + self.iter().map(T::nesting).max().unwrap_or(0)
    }
}

impl<T: ToJson> sealed::Sealed for Vec<T> {}
impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, out: &mut JsonWriter) {
        self.as_slice().write_json(out)
    }

    fn nesting(&self) -> usize {
        self.as_slice().nesting()
    }
}

impl<T: ToJson, const N: usize> sealed::Sealed for [T; N] {}
impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn write_json(&self, out: &mut JsonWriter) {
        self.as_slice().write_json(out)
    }

    fn nesting(&self) -> usize {
        self.as_slice().nesting()
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::*;
    use crate::Reply;

    #[test]
    fn every_kind_of_value_is_written_whole() {
        let doc = crate::json::parse(br#"{"raw":[1,{"x":"\u00e9"}],"s":"caf\u00e9"}"#).unwrap();
        let object = doc.as_object().unwrap();
        let reply = Reply::object(|o| {
            o.field("str", "a\"b")
                .field("string", String::from("s"))
                .field("cow", Cow::Borrowed("c"))
                .field("text", crate::text!("t", 1))
                .field("char", '\n')
                .field("json_str", object.get("s").unwrap().as_str().unwrap())
                .field("ints", (i8::MIN, u64::MAX).0)
                .field("u64", u64::MAX)
                .field("i64", i64::MIN)
                .field("float", 0.1)
                .field("nan", f64::NAN)
                .field("some", Some(1))
                .field("none", None::<i32>)
                .field("vec", vec![true, false])
                .field("empty", &[] as &[u8])
                .field("value", object.get("raw").unwrap())
                .field("object", object)
                .field("array", object.get("raw").unwrap().as_array().unwrap())
        });
        let text = core::str::from_utf8(reply.structured().unwrap()).unwrap();
        assert_eq!(
            text,
            r#"{"str":"a\"b","string":"s","cow":"c","text":"t1","char":"\n","json_str":"café","ints":-128,"u64":18446744073709551615,"i64":-9223372036854775808,"float":0.1,"nan":null,"some":1,"none":null,"vec":[true,false],"empty":[],"value":[1,{"x":"\u00e9"}],"object":{"raw":[1,{"x":"\u00e9"}],"s":"caf\u00e9"},"array":[1,{"x":"\u00e9"}]}"#
        );
        let parsed: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(parsed["json_str"], "café");
    }

    #[test]
    fn empty_and_deeply_nested_shapes_close() {
        assert_eq!(Reply::object(|o| o).structured(), Some(&b"{}"[..]));
        let reply = Reply::object(|o| {
            o.object("a", |a| a.object("b", |b| b.array("c", |c| c.array(|d| d).object(|e| e).push(0))))
        });
        assert_eq!(reply.structured(), Some(&br#"{"a":{"b":{"c":[[],{},0]}}}"#[..]));
    }

    #[test]
    fn a_json_object_put_into_another_document_is_the_object_not_its_bytes() {
        // Author trial 43 pushed `&json::object(…)` into an array; as a
        // `Vec<u8>` it came out as `[123,34,…]`.
        let point = crate::json::object(|p| p.field("x", 1));
        let list = crate::json::array(|a| a.push(&point).push(point.clone()));
        assert_eq!(list.as_str(), r#"[{"x":1},{"x":1}]"#);
        let reply = Reply::object(|o| o.field("p", &point).field("ps", vec![point.clone()]).field("l", &list));
        assert_eq!(reply.structured(), Some(&br#"{"p":{"x":1},"ps":[{"x":1}],"l":[{"x":1},{"x":1}]}"#[..]));
        let bytes: &[u8] = &point;
        assert_eq!(bytes, br#"{"x":1}"#);
        assert_eq!(alloc::format!("{point:?}"), r#"{"x":1}"#);
    }
}
