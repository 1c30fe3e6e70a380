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
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError { message: message.into() }
    }

    /// A message made of several pieces, without `core::fmt`.
    pub fn from_parts(parts: &[&str]) -> ToolError {
        ToolError::joined("", parts)
    }

    /// `invalid input: ` and then `parts` joined, as the official SDK words
    /// a refused argument.
    pub fn invalid_input(parts: &[&str]) -> ToolError {
        ToolError::joined("invalid input: ", parts)
    }

    /// `prefix` and `parts`, joined into one message.
    fn joined(prefix: &str, parts: &[&str]) -> ToolError {
        let mut message = Vec::new();
        put(&mut message, prefix.as_bytes());
        for part in parts {
            put(&mut message, part.as_bytes());
        }
        ToolError { message: crate::platform::validated_string(message) }
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
        ToolError { message: crate::platform::validated_string(message) }
    }

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
    pub fn json(value: JsonWriter) -> Reply {
        let json = value.into_bytes();
        Reply { structured: json.len(), json }
    }

    /// Text alone, with no JSON beside it.
    pub fn text(text: &str) -> Reply {
        Reply::default().with_text(text)
    }

    fn block(mut self) -> Reply {
        put_byte(&mut self.json, b',');
        self
    }

    /// Adds a text block after those the reply holds.
    pub fn with_text(self, text: &str) -> Reply {
        let mut reply = self.block();
        write_text_block(&mut reply.json, text.as_bytes());
        reply
    }

    /// Adds the image at `path` (absolute, in the session volume) as a
    /// `resource_link`, which Subako reads after the call and shows the
    /// model, named by its file name.
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

    /// The structured value's JSON text, if the reply has one.
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
