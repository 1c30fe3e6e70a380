//! The text of a build-time error: `const fn`s cannot format, so the
//! package table's and the schema rules' checks copy pieces into a fixed
//! buffer. A leaf: both `package` and `schema` use it.

use crate::bytes::HEX;

/// A build-time error message: `const fn`s cannot format, so the pieces
/// are copied into a fixed buffer, and the buffer's text is the panic
/// message (`panic!("{}", message.as_str())`, written where the check is
/// called so the build error shows one frame, not the helpers').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildMessage {
    buf: [u8; BuildMessage::CAPACITY],
    len: usize,
}

impl BuildMessage {
    /// Longer messages are cut (at a character boundary).
    pub const CAPACITY: usize = 384;

    /// An empty message.
    pub const fn new() -> BuildMessage {
        BuildMessage { buf: [0; BuildMessage::CAPACITY], len: 0 }
    }

    /// `s` appended.
    #[must_use]
    pub const fn push(self, s: &str) -> BuildMessage {
        self.push_bytes(s.as_bytes())
    }

    /// Bytes copied as they are (text from a schema: valid UTF-8).
    #[must_use]
    pub const fn push_bytes(mut self, b: &[u8]) -> BuildMessage {
        let mut i = 0;
        while i < b.len() && self.len < self.buf.len() {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// One byte appended (ASCII, or part of a character pushed whole).
    #[must_use]
    pub const fn push_byte(mut self, b: u8) -> BuildMessage {
        if self.len < self.buf.len() {
            self.buf[self.len] = b;
            self.len += 1;
        }
        self
    }

    /// `n` in decimal.
    #[must_use]
    pub const fn push_usize(self, n: usize) -> BuildMessage {
        self.push_bytes(crate::bytes::u64_digits(n as u64, &mut [0; 20]))
    }

    /// `b` between double quotes, with `"` and `\` escaped and control
    /// characters written as `\n`, `\t` or `\u00XX`, as a JSON string.
    #[must_use]
    pub const fn push_quoted(self, b: &[u8]) -> BuildMessage {
        let mut m = self.push_byte(b'"');
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            m = match c {
                b'"' | b'\\' => m.push_byte(b'\\').push_byte(c),
                b'\n' => m.push("\\n"),
                b'\r' => m.push("\\r"),
                b'\t' => m.push("\\t"),
                0..0x20 => m.push("\\u00").push_byte(HEX[(c >> 4) as usize]).push_byte(HEX[(c & 15) as usize]),
                _ => m.push_byte(c),
            };
            i += 1;
        }
        m.push_byte(b'"')
    }

    /// The text so far (cut at the last whole character if it was cut).
    pub const fn as_str(&self) -> &str {
        let (text, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(text) => text,
            Err(e) => match core::str::from_utf8(text.split_at(e.valid_up_to()).0) {
                Ok(text) => text,
                Err(_) => "invalid package table",
            },
        }
    }
}

impl Default for BuildMessage {
    fn default() -> BuildMessage {
        BuildMessage::new()
    }
}
