//! Inline images: base64 and [`Reply::with_image`]. Kept apart from
//! `reply` so that only a module that sends an image inline links the
//! encoder; a file in the volume goes as [`Reply::with_image_file`] instead.

use alloc::string::String;
use alloc::vec::Vec;

use crate::reply::Reply;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in standard base64 (RFC 4648, with `=` padding).
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::image::base64(b"foob"), "Zm9vYg==");
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

impl Reply {
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
    pub fn with_image(self, mime_type: &str, bytes: &[u8]) -> Reply {
        self.with_image_base64(mime_type, &base64(bytes))
    }
}

#[cfg(test)]
mod tests {
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
