//! What a tool answers: MCP's `CallToolResult`, as blocks the model reads
//! and, for a JSON value, the same value as `structuredContent`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::JsonWriter;
use crate::json::write::{escape_into, put, put_byte, write_escaped};
use crate::json::{ObjectWriter, Str};
use crate::text::Piece;
pub(crate) use crate::text::join;

/// A failure the model should read: the message is all it is told.
///
/// A tool fails with [`fail!`](crate::fail!) (pieces, numbers included),
/// or with `?` on any of the crate's errors, which convert into this.
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
    #[must_use]
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError { message: message.into() }
    }

    /// A message made of several pieces: use [`fail!`](crate::fail!) or
    /// `ToolError::from(text!(…))`, which take numbers too.
    #[deprecated(note = "use `fail!(…)` or `ToolError::from(text!(…))`, which take numbers too")]
    #[must_use]
    pub fn from_parts(parts: &[&str]) -> ToolError {
        ToolError { message: join(parts) }
    }

    /// `invalid input: ` and then `message` (a [`Piece`]: text, a number,
    /// or a tuple of them), as the official SDK words a refused argument.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::ToolError;
    ///
    /// let error = ToolError::invalid_input("`end` must not be before `start`");
    /// assert_eq!(error.message(), "invalid input: `end` must not be before `start`");
    /// let error = ToolError::invalid_input(("/items/", 3, "/qty must be at most ", 1000));
    /// assert_eq!(error.message(), "invalid input: /items/3/qty must be at most 1000");
    /// ```
    #[must_use]
    pub fn invalid_input(message: impl Piece) -> ToolError {
        let mut text = crate::text::Text::new();
        text.push("invalid input: ").push(&message);
        text.into()
    }

    /// The message, as the model reads it.
    pub fn message(&self) -> &str {
        &self.message
    }
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
impl From<crate::text::Text> for ToolError {
    fn from(text: crate::text::Text) -> ToolError {
        ToolError { message: text.into_string() }
    }
}

impl core::fmt::Display for ToolError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

impl core::error::Error for ToolError {}

/// The text builder, now [`crate::text::Text`].
#[deprecated(note = "moved: `subako_tiny::text::Text` ")]
#[doc(hidden)]
pub type Text = crate::text::Text;

/// A tool's successful answer: MCP content blocks, each written as JSON
/// when it is added, so a module carries the code for the kinds of block
/// it uses and no other.
#[derive(Debug, Clone, Default)]
pub struct Reply {
    /// The structured value's JSON text (its first `structured` bytes), also
    /// sent as the first text block; then the other blocks as JSON objects,
    /// each after a comma. One buffer, so a reply is one allocation.
    json: Vec<u8>,
    /// 0 when there is no structured value (JSON text is never empty).
    structured: usize,
}

/// [`Reply::structured`]'s length for a [`JsonWriter`] that wrote nothing:
/// past any buffer, so the reply reads as having no value, and the check
/// before it is sent finds no JSON.
const NOTHING_WRITTEN: usize = usize::MAX;

/// [`Reply::structured`]'s length for a value that closures nested deeper
/// than an answer line may hold (review 76: 126 levels went out as a line
/// serde_json refuses): the reply reads as having no value, and is sent
/// as an error naming the tool.
const TOO_DEEP: usize = usize::MAX - 1;

/// Replies are equal when they send the same content.
impl PartialEq for Reply {
    fn eq(&self, other: &Reply) -> bool {
        self.structured == other.structured && self.json == other.json
    }
}

impl Eq for Reply {}

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
    #[must_use]
    pub fn json(value: JsonWriter) -> Reply {
        // The flag first: in a module that never sets it, no mark.
        let too_deep = crate::json::output::any_too_deep() && value.too_deep();
        let json = value.into_bytes();
        // A writer given nothing wrote no value, or one nested too deep:
        // marked, so that the reply is refused rather than sent.
        let structured = if too_deep {
            TOO_DEEP
        } else if json.is_empty() {
            NOTHING_WRITTEN
        } else {
            json.len()
        };
        Reply { structured, json }
    }

    /// A JSON object whose members `members` writes: the model reads it as
    /// text, and it travels again as `structuredContent`. Every key gets
    /// its value and every object and array closes, whatever the tool does.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing};
    ///
    /// fn convert(args: &Args<'_>) -> Result<Reply, ToolError> {
    ///     let (amount, rate) = (args.float("amount")?, 1.08);
    ///     Ok(Reply::object(|o| o.field("amount", amount).field("rate", rate).field("result", amount * rate)))
    /// }
    ///
    /// const PACKAGE: Package = Package::new("rates", "0.1.0", "Converts.", &[Tool::new(
    ///     "convert",
    ///     "Convert euros to dollars.",
    ///     r#"{"properties":{"amount":{"type":"number"}},"required":["amount"],"type":"object"}"#,
    ///     convert,
    /// )]);
    ///
    /// let called = testing::call(&PACKAGE, "convert", r#"{"amount": 2.5}"#);
    /// assert_eq!(called.structured(), Some(r#"{"amount":2.5,"rate":1.08,"result":2.7}"#));
    /// ```
    #[must_use]
    pub fn object(members: impl FnOnce(&mut ObjectWriter) -> &mut ObjectWriter) -> Reply {
        let mut out = JsonWriter::whole();
        out.outer_object(members);
        Reply::json(out)
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
    #[must_use]
    pub fn text(text: impl Piece) -> Reply {
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
    #[must_use]
    pub fn with_text(self, text: impl Piece) -> Reply {
        let mut reply = self.block();
        let out = &mut reply.json;
        put(out, b"{\"text\":\"");
        text.write_escaped_to(out);
        put(out, b"\",\"type\":\"text\"}");
        reply
    }

    /// Adds the file at `path` (absolute, in the session volume) as a
    /// `resource_link` named by its file name: Subako shows an image (PNG,
    /// JPEG, GIF, WebP) there to the model after the call, and any other
    /// file as a line naming it.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing};
    ///
    /// fn chart(_: &Args<'_>) -> Result<Reply, ToolError> {
    ///     // The tool writes /volume/tmp/charts/sales q3.png first.
    ///     Ok(Reply::text("the chart:").with_file("/volume/tmp/charts/sales q3.png"))
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
    #[must_use]
    pub fn with_file(self, path: &str) -> Reply {
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

    /// Adds the image at `path` (absolute, in the session volume): the same
    /// `resource_link` as [`with_file`](Self::with_file), which Subako shows
    /// the model after the call.
    #[must_use]
    #[inline]
    pub fn with_image_file(self, path: &str) -> Reply {
        self.with_file(path)
    }

    /// Adds an image inline: its MIME type (`image/png`, …) and its bytes,
    /// sent as base64. It counts against the call's output, so a large
    /// image should go as a file ([`Reply::with_image_file`]).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::png::{self, Color};
    /// use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing};
    ///
    /// fn dot(_: &Args<'_>) -> Result<Reply, ToolError> {
    ///     let image = png::encode(1, 1, Color::Rgb, &[255, 0, 0])?;
    ///     Ok(Reply::text("a red dot").with_image("image/png", &image))
    /// }
    ///
    /// const PACKAGE: Package =
    ///     Package::new("dots", "0.1.0", "Draws dots.", &[Tool::new("dot", "Draw a dot.", r#"{"type":"object"}"#, dot)]);
    ///
    /// let called = testing::call(&PACKAGE, "dot", "{}");
    /// assert_eq!(called.text(), "a red dot");
    /// assert!(called.content().contains(r#"{"data":"iVBORw0KGgo"#));
    /// assert!(called.content().ends_with(r#"","mimeType":"image/png","type":"image"}]"#));
    /// ```
    #[must_use]
    pub fn with_image(self, mime_type: &str, bytes: &[u8]) -> Reply {
        self.with_image_base64(mime_type, &base64(bytes))
    }

    /// Adds an image inline: its MIME type and its bytes, already in base64.
    /// It counts against the call's output, so a large image goes as a file.
    #[must_use]
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

    /// The reply, or an error naming `tool` when its structured value is
    /// not what every reader accepts: not one JSON value (a
    /// [`JsonWriter`] with a `begin_` and no `end_`, a key and no value),
    /// nested too deep, or, where JSON text was copied in, a number beyond
    /// `f64` or a duplicate member.
    pub(crate) fn verified(self, tool: Str<'_>) -> Result<Reply, ToolError> {
        // The count first: in a module that never counts one, no refusal.
        if crate::json::output::any_too_deep() && self.structured == TOO_DEEP {
            return Err(crate::json::output::too_deep_answer(tool).into());
        }
        let value = if self.structured == NOTHING_WRITTEN { Some(&b""[..]) } else { self.structured() };
        if let (Some(check), Some(value)) = (crate::json::output::needed(), value) {
            check(value, tool, crate::json::output::MAX_VALUE_DEPTH).map_err(ToolError::from)?;
        }
        Ok(self)
    }
}

/// Appends `"content":[…]` and, for an error, `"isError":true`: the members
/// of a `CallToolResult` that come before `resultType` in the order
/// serde_json writes them. `structuredContent` comes after, and is the
/// caller's.
#[inline(always)]
pub(crate) fn write_content(out: &mut Vec<u8>, result: &Result<Reply, ToolError>) {
    put(out, b"\"content\":[");
    match result {
        Err(error) => {
            write_text_block(out, error.message.as_bytes());
            put(out, b"],\"isError\":true");
        }
        Ok(reply) => {
            let (value, mut blocks) = reply.json.split_at_checked(reply.structured).unwrap_or((&[], &reply.json));
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
pub(crate) fn file_uri(out: &mut Vec<u8>, path: &str) {
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
    crate::text::percent_encode(out, rest.as_bytes(), b'/');
}

/// The base64 alphabet (RFC 4648).
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in standard base64 (RFC 4648, with `=` padding).
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::reply::base64(b"foob"), "Zm9vYg==");
/// ```
pub fn base64(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    let mut chunks = bytes.chunks_exact(3);
    for c in &mut chunks {
        let n = (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32;
        out.extend_from_slice(&[
            ALPHABET[(n >> 18) as usize & 63],
            ALPHABET[(n >> 12) as usize & 63],
            ALPHABET[(n >> 6) as usize & 63],
            ALPHABET[n as usize & 63],
        ]);
    }
    match *chunks.remainder() {
        [a] => {
            let n = (a as u32) << 16;
            out.extend_from_slice(&[ALPHABET[(n >> 18) as usize & 63], ALPHABET[(n >> 12) as usize & 63], b'=', b'=']);
        }
        [a, b] => {
            let n = (a as u32) << 16 | (b as u32) << 8;
            out.extend_from_slice(&[
                ALPHABET[(n >> 18) as usize & 63],
                ALPHABET[(n >> 12) as usize & 63],
                ALPHABET[(n >> 6) as usize & 63],
                b'=',
            ]);
        }
        _ => {}
    }
    // Every byte pushed comes from ALPHABET or is `=`: ASCII.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::*;

    #[test]
    fn rfc4648_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain:?}");
        }
    }

    #[test]
    fn every_byte_value() {
        let bytes: Vec<u8> = (0..=255u8).collect();
        let encoded = base64(&bytes);
        assert!(encoded.starts_with("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g"));
        assert!(encoded.ends_with("+fr7/P3+/w=="));
        assert_eq!(encoded.len(), 344);
    }

    #[test]
    fn inline_image_block() {
        let reply = Reply::text("chart").with_image("image/png", b"\x89PNG");
        let mut out = Vec::new();
        crate::reply::write_content(&mut out, &Ok(reply));
        let out = String::from_utf8(out).unwrap();
        assert!(out.ends_with(r#"{"data":"iVBORw==","mimeType":"image/png","type":"image"}]"#), "{out}");
    }
}
