//! What a tool answers: MCP's `CallToolResult`, as blocks the model reads
//! and, for a JSON value, the same value as `structuredContent`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::JsonWriter;
use crate::json::write::{escape_into, put, put_byte, write_escaped};

/// A failure the model should read: the message is all it is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
}

impl ToolError {
    /// An error whose message, all the model is told, is `message`.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, Reply, ToolError};
    ///
    /// fn divide(args: &Args<'_>) -> Result<Reply, ToolError> {
    ///     let divisor = args.float("divisor")?;
    ///     if divisor == 0.0 {
    ///         return Err(ToolError::new("divisor must not be 0: pick any other number"));
    ///     }
    ///     Ok(Reply::text("ok"))
    /// }
    ///
    /// let arguments = subako_tiny::json::parse(br#"{"divisor": 0}"#).unwrap();
    /// let error = divide(&Args::new(arguments.as_object().unwrap())).unwrap_err();
    /// assert_eq!(error.message(), "divisor must not be 0: pick any other number");
    /// ```
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError { message: message.into() }
    }

    /// A message made of several pieces, without `core::fmt`.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::ToolError;
    ///
    /// let city = "Atlantis";
    /// let error = ToolError::from_parts(&["no weather station in ", city]);
    /// assert_eq!(error.message(), "no weather station in Atlantis");
    /// ```
    pub fn from_parts(parts: &[&str]) -> ToolError {
        ToolError { message: join(parts) }
    }

    /// `invalid input: ` and then `parts` joined, as the official SDK words
    /// a refused argument.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::ToolError;
    ///
    /// let error = ToolError::invalid_input(&["`end` must not be before `start`"]);
    /// assert_eq!(error.message(), "invalid input: `end` must not be before `start`");
    /// ```
    pub fn invalid_input(parts: &[&str]) -> ToolError {
        ToolError { message: join_after("invalid input: ", parts) }
    }

    /// The four pieces joined: the crate's own messages, made without
    /// building an array of parts at each call.
    #[inline(never)]
    pub(crate) fn four(a: &str, b: &str, c: &str, d: &str) -> ToolError {
        let mut message = Vec::new();
        put(&mut message, a.as_bytes());
        put(&mut message, b.as_bytes());
        put(&mut message, c.as_bytes());
        put(&mut message, d.as_bytes());
        // SAFETY: joined from `str`s.
        ToolError { message: unsafe { crate::sys::validated_string(message) } }
    }

    /// The message, as the model reads it.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// `parts` joined into one `String`, grown the crate's way: `concat` and
/// `String`'s own pushes link alloc's growth routines into the module.
#[inline(always)]
pub(crate) fn join(parts: &[&str]) -> String {
    join_after("", parts)
}

/// `prefix` and then `parts`, joined: the one loop behind [`join`] and
/// [`ToolError::invalid_input`].
#[inline(never)]
fn join_after(prefix: &str, parts: &[&str]) -> String {
    let mut out = Vec::new();
    put(&mut out, prefix.as_bytes());
    for part in parts {
        put(&mut out, part.as_bytes());
    }
    // SAFETY: joined from `str`s.
    unsafe { crate::sys::validated_string(out) }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> ToolError {
        ToolError::new(message)
    }
}

impl From<String> for ToolError {
    fn from(message: String) -> ToolError {
        ToolError { message }
    }
}

/// A message built by [`text!`](crate::text!), numbers and all.
impl From<Text> for ToolError {
    fn from(text: Text) -> ToolError {
        ToolError { message: text.into_string() }
    }
}

/// Text built from pieces (`&str`, `String`, integers, floats), with the
/// crate's own digit writers rather than `core::fmt`. Usually made with
/// [`text!`](crate::text!); a module that never builds one carries none of
/// its code.
///
/// ```
/// use subako_tiny::reply::Text;
///
/// let mut text = Text::new();
/// text.push("order ").push(&1042u32).push(" costs ").push(&12.5);
/// assert_eq!(text.as_str(), "order 1042 costs 12.5");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Text {
    bytes: Vec<u8>,
}

impl Text {
    /// Empty text.
    pub const fn new() -> Text {
        Text { bytes: Vec::new() }
    }

    /// Appends `piece`: text as it is, a number in decimal (see [`Piece`]).
    pub fn push<P: Piece + ?Sized>(&mut self, piece: &P) -> &mut Text {
        piece.write_to(&mut self.bytes);
        self
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        // SAFETY: a `Text` holds only what the crate's sealed pieces wrote:
        // `str`s, chars and ASCII digits.
        unsafe { crate::sys::validated_str(&self.bytes) }
    }

    /// The text, as a `String`.
    pub fn into_string(self) -> String {
        // SAFETY: as in `as_str`.
        unsafe { crate::sys::validated_string(self.bytes) }
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        text.into_string()
    }
}

/// Something [`Text`] can hold: text as it is, integers in decimal
/// (`-42`), floats in the shortest form that reads back as the same value,
/// as JSON writes them (`12.5`, `1.0`, `1e+100`), and `NaN`, `inf`, `-inf`
/// for the floats JSON cannot hold. (No `f32`: widened, `0.1f32` would read
/// `0.10000000149011612`; convert it as you mean it.)
///
/// Sealed: [`Text`] trusts every piece to write UTF-8, so only the crate's
/// own kinds are pieces; write anything else as a `str` first.
pub trait Piece: sealed::Sealed {
    /// Appends the piece, as UTF-8, to `out`.
    fn write_to(&self, out: &mut Vec<u8>);
}

mod sealed {
    /// What may be a [`Piece`](super::Piece).
    pub trait Sealed {}
    impl<P: Sealed + ?Sized> Sealed for &P {}
    impl Sealed for str {}
    impl Sealed for alloc::string::String {}
    impl Sealed for alloc::borrow::Cow<'_, str> {}
    impl Sealed for super::Text {}
    impl Sealed for char {}
    impl Sealed for f64 {}
    macro_rules! sealed {
        ($($t:ty),*) => {$(impl Sealed for $t {})*};
    }
    sealed!(u8, u16, u32, usize, u64, i8, i16, i32, i64, isize);
}

impl<P: Piece + ?Sized> Piece for &P {
    fn write_to(&self, out: &mut Vec<u8>) {
        (**self).write_to(out)
    }
}

impl Piece for str {
    fn write_to(&self, out: &mut Vec<u8>) {
        put(out, self.as_bytes())
    }
}

impl Piece for String {
    fn write_to(&self, out: &mut Vec<u8>) {
        put(out, self.as_bytes())
    }
}

impl Piece for alloc::borrow::Cow<'_, str> {
    fn write_to(&self, out: &mut Vec<u8>) {
        put(out, self.as_bytes())
    }
}

impl Piece for Text {
    fn write_to(&self, out: &mut Vec<u8>) {
        put(out, &self.bytes)
    }
}

impl Piece for char {
    fn write_to(&self, out: &mut Vec<u8>) {
        put(out, self.encode_utf8(&mut [0; 4]).as_bytes())
    }
}

/// Unsigned integers: through `usize` where they fit it, so a module on
/// wasm32 keeps to 32-bit arithmetic for them.
macro_rules! unsigned_pieces {
    ($($t:ty => $write:ident as $via:ty),*) => {$(
        impl Piece for $t {
            fn write_to(&self, out: &mut Vec<u8>) {
                crate::json::num::$write(out, *self as $via)
            }
        }
    )*};
}

unsigned_pieces!(u8 => write_usize as usize, u16 => write_usize as usize, u32 => write_u64 as u64,
    usize => write_usize as usize, u64 => write_u64 as u64);

macro_rules! signed_pieces {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn write_to(&self, out: &mut Vec<u8>) {
                crate::json::num::write_i64(out, *self as i64)
            }
        }
    )*};
}

signed_pieces!(i8, i16, i32, i64, isize);

impl Piece for f64 {
    fn write_to(&self, out: &mut Vec<u8>) {
        let x = *self;
        if x.is_nan() {
            put(out, b"NaN");
        } else if x.is_infinite() {
            put(out, if x > 0.0 { b"inf" } else { b"-inf" });
        } else {
            crate::json::num::write_f64(out, x);
        }
    }
}

/// Builds a [`Text`] from pieces in one expression: string slices,
/// `String`s, integers and floats (any [`Piece`]), written without
/// `core::fmt`. It converts into a [`ToolError`] or a `String`.
///
/// ```
/// use subako_tiny::{ToolError, text};
///
/// let base = "https://api.example.com";
/// let error = ToolError::from(text!("status ", 503, " for ", base, " after ", 2.5, " s"));
/// assert_eq!(error.message(), "status 503 for https://api.example.com after 2.5 s");
///
/// let n: u64 = 18_446_744_073_709_551_615;
/// assert_eq!(text!(n, " ", -7i8, " ", 1e100, " ", 'é').as_str(), "18446744073709551615 -7 1e+100 é");
/// ```
#[macro_export]
macro_rules! text {
    ($($piece:expr),* $(,)?) => {{
        #[allow(unused_mut)] // `text!()` pushes nothing
        let mut text = $crate::reply::Text::new();
        $(text.push(&$piece);)*
        text
    }};
}

/// A tool's successful answer: MCP content blocks, each written as JSON
/// when it is added, so a module carries the code for the kinds of block
/// it uses and no other.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    /// The structured value's JSON text (its first `structured` bytes), also
    /// sent as the first text block; then the other blocks as JSON objects,
    /// each after a comma. One buffer, so a reply is one allocation.
    json: Vec<u8>,
    /// 0 when there is no structured value (JSON text is never empty).
    structured: usize,
}

impl Reply {
    /// A JSON value: the model reads it as text, and it travels again as
    /// `structuredContent`. It is written once.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{JsonWriter, Reply};
    ///
    /// let mut out = JsonWriter::new();
    /// out.begin_object().key("total").int(42).end_object();
    /// let reply = Reply::json(out);
    /// assert_eq!(reply.structured(), Some(&br#"{"total":42}"#[..]));
    /// ```
    pub fn json(value: JsonWriter) -> Reply {
        let json = value.into_bytes();
        Reply { structured: json.len(), json }
    }

    /// Text alone, with no JSON beside it.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing};
    ///
    /// fn shout(args: &Args<'_>) -> Result<Reply, ToolError> {
    ///     Ok(Reply::text(&args.str("words")?.to_uppercase()))
    /// }
    ///
    /// const PACKAGE: Package = Package::new("shout", "0.1.0", "Shouts.", &[Tool::new(
    ///     "shout",
    ///     "Repeat words in capitals.",
    ///     r#"{"properties":{"words":{"type":"string"}},"required":["words"],"type":"object"}"#,
    ///     shout,
    /// )]);
    ///
    /// let called = testing::call(&PACKAGE, "shout", r#"{"words": "hello"}"#);
    /// assert_eq!(called.text(), "HELLO");
    /// assert_eq!(called.structured(), None);
    /// ```
    pub fn text(text: &str) -> Reply {
        Reply::default().with_text(text)
    }

    fn block(mut self) -> Reply {
        put_byte(&mut self.json, b',');
        self
    }

    /// Adds a text block after those the reply holds.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{JsonWriter, Reply};
    ///
    /// let mut out = JsonWriter::new();
    /// out.begin_object().key("rows").uint(3).end_object();
    /// let reply = Reply::json(out).with_text("3 rows; ask for `page` 2 to see more.");
    /// assert_eq!(reply.structured(), Some(&br#"{"rows":3}"#[..]));
    /// ```
    pub fn with_text(self, text: &str) -> Reply {
        let mut reply = self.block();
        write_text_block(&mut reply.json, text.as_bytes());
        reply
    }

    /// Adds the image at `path` (absolute, in the session volume) as a
    /// `resource_link`, which Subako reads after the call and shows the
    /// model, named by its file name.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing};
    ///
    /// fn chart(_: &Args<'_>) -> Result<Reply, ToolError> {
    ///     // The tool writes /volume/tmp/charts/sales q3.png first.
    ///     Ok(Reply::text("the chart:").with_image_file("/volume/tmp/charts/sales q3.png"))
    /// }
    ///
    /// const PACKAGE: Package = Package::new("charts", "0.1.0", "Draws charts.", &[Tool::new(
    ///     "chart",
    ///     "Draw the sales chart.",
    ///     r#"{"type":"object"}"#,
    ///     chart,
    /// )]);
    ///
    /// let called = testing::call(&PACKAGE, "chart", "{}");
    /// assert_eq!(
    ///     called.content(),
    ///     r#"[{"text":"the chart:","type":"text"},{"name":"sales q3.png","type":"resource_link","uri":"volume:///tmp/charts/sales%20q3.png"}]"#
    /// );
    /// ```
    pub fn with_image_file(self, path: &str) -> Reply {
        let mut reply = self.block();
        let out = &mut reply.json;
        let name = match path.as_bytes().iter().rposition(|&b| b == b'/') {
            Some(slash) => path.get(slash + 1..).unwrap_or(path),
            None => path,
        };
        put(out, b"{\"name\":");
        write_escaped(out, name.as_bytes());
        put(out, b",\"type\":\"resource_link\",\"uri\":\"");
        let mut uri = Vec::new();
        file_uri(&mut uri, path);
        escape_into(out, &uri);
        put(out, b"\"}");
        reply
    }

    /// Adds an image inline: its MIME type and its bytes, already in base64.
    /// It counts against the call's output, so a large image goes as a file.
    pub fn with_image_base64(self, mime_type: &str, base64: &str) -> Reply {
        let mut reply = self.block();
        let out = &mut reply.json;
        put(out, b"{\"data\":");
        write_escaped(out, base64.as_bytes());
        put(out, b",\"mimeType\":");
        write_escaped(out, mime_type.as_bytes());
        put(out, b",\"type\":\"image\"}");
        reply
    }

    /// The structured value's JSON text, or `None` for a reply made without
    /// one ([`Reply::text`]).
    pub fn structured(&self) -> Option<&[u8]> {
        self.json.get(..self.structured).filter(|json| !json.is_empty())
    }
}

/// Appends `"content":[…]` and, for an error, `"isError":true`: the members
/// of a `CallToolResult` that come before `resultType` in the order
/// serde_json writes them. `structuredContent` comes after, and is the
/// caller's.
pub(crate) fn write_content(out: &mut Vec<u8>, result: &Result<Reply, ToolError>) {
    put(out, b"\"content\":[");
    match result {
        Err(error) => {
            write_text_block(out, error.message.as_bytes());
            put(out, b"],\"isError\":true");
        }
        Ok(reply) => {
            let (value, mut blocks) = reply.json.split_at_checked(reply.structured).unwrap_or((&[], &[]));
            if value.is_empty() {
                // No text block before the first block's comma.
                blocks = blocks.get(1..).unwrap_or(&[]);
            } else {
                write_text_block(out, value);
            }
            put(out, blocks);
            put_byte(out, b']');
        }
    }
}

/// `{"text":…,"type":"text"}`. Inlined into its two callers: one
/// function fewer for wasmtime to compile.
#[inline(always)]
fn write_text_block(out: &mut Vec<u8>, text: &[u8]) {
    put(out, b"{\"text\":");
    write_escaped(out, text);
    put(out, b",\"type\":\"text\"}");
}

/// The URI of the file at `path`: `volume:///` and its path beneath
/// `/volume` when it is in the volume, else `file://` and the path, with
/// every segment percent-encoded (unreserved `A-Za-z0-9-._~` kept).
pub fn file_uri(out: &mut Vec<u8>, path: &str) {
    let rest = match path.strip_prefix("/volume/") {
        Some(inside) => {
            put(out, b"volume:///");
            inside
        }
        None => {
            put(out, b"file://");
            path
        }
    };
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in rest.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            put_byte(out, b);
        } else {
            put(out, &[b'%', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::borrow::Cow;
    use alloc::string::{String, ToString};

    use super::{Text, ToolError};

    #[test]
    fn text_writes_every_kind_of_piece() {
        let owned = String::from("owned");
        let borrowed: Cow<'_, str> = Cow::Borrowed("cow");
        let text = crate::text!("a", owned, &owned, borrowed, 'ß', '"');
        assert_eq!(text.as_str(), "aownedownedcowß\"");
        let ints = crate::text!(0u8, " ", u8::MAX, " ", u16::MAX, " ", u32::MAX, " ", u64::MAX, " ", usize::MAX);
        assert_eq!(ints.as_str(), ["0 255 65535 4294967295 18446744073709551615 ", &usize::MAX.to_string()].concat());
        let signed = crate::text!(i8::MIN, " ", i16::MIN, " ", i32::MIN, " ", i64::MIN, " ", -1isize, " ", 0i64);
        assert_eq!(signed.as_str(), "-128 -32768 -2147483648 -9223372036854775808 -1 0");
        let floats = crate::text!(
            1.0,
            " ",
            0.1,
            " ",
            -2.5e-7,
            " ",
            1e100,
            " ",
            f64::NAN,
            " ",
            f64::INFINITY,
            " ",
            -f64::INFINITY
        );
        assert_eq!(floats.as_str(), "1.0 0.1 -2.5e-7 1e+100 NaN inf -inf");
        assert_eq!(crate::text!().as_str(), "");
        assert_eq!(crate::text!("trailing comma", 1,).into_string(), "trailing comma1");
    }

    #[test]
    fn text_nests_and_converts() {
        let inner = crate::text!("[", 3, "]");
        let outer = crate::text!("x", inner, "y");
        assert_eq!(outer.as_ref(), "x[3]y");
        assert_eq!(String::from(outer.clone()), "x[3]y");
        assert_eq!(ToolError::from(outer), ToolError::new("x[3]y"));
        let mut built = Text::new();
        built.push("n=").push(&42).push(&", ").push(&-0.0);
        assert_eq!(built.as_str(), "n=42, -0.0");
    }
}
