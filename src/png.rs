//! A small PNG encoder: 8-bit indexed (palette) or RGB images, written a
//! row at a time into a `Vec<u8>` or straight into an [`fs::File`], so an
//! image never has to sit whole in memory.
//!
//! The pixels are compressed with deflate (LZ77 over a 32 KiB window, one
//! fixed-Huffman block) inside a zlib stream with its Adler-32, and every
//! chunk carries its CRC-32. Each row is filtered with None or Up,
//! whichever leaves smaller bytes: for charts and diagrams (runs of one
//! colour, rows like the one above) that is a few bytes per row.
//!
//! ```
//! use subako_tiny::png::{Color, Writer};
//! const PALETTE: [[u8; 3]; 2] = [[255, 255, 255], [0, 0, 0]];
//! let mut png = Writer::new(Vec::new(), 8, 2, Color::Indexed(&PALETTE)).unwrap();
//! png.write_row(&[0, 1, 0, 1, 0, 1, 0, 1]).unwrap();
//! png.write_row(&[1, 0, 1, 0, 1, 0, 1, 0]).unwrap();
//! let bytes: Vec<u8> = png.finish().unwrap();
//! assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
//! ```
//!
//! [`fs::File`]: crate::fs::File

use alloc::vec::Vec;
use core::convert::Infallible;

use crate::fs::{File, FsError};
use crate::reply::ToolError;

/// Where encoded bytes go.
pub trait Output {
    /// What writing can fail with ([`Infallible`] for a `Vec<u8>`).
    type Error;
    /// Writes all of `bytes` after what was written before.
    fn put(&mut self, bytes: &[u8]) -> Result<(), Self::Error>;
}

impl Output for Vec<u8> {
    type Error = Infallible;
    fn put(&mut self, bytes: &[u8]) -> Result<(), Infallible> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

impl Output for File {
    type Error = FsError;
    fn put(&mut self, bytes: &[u8]) -> Result<(), FsError> {
        self.write_all(bytes)
    }
}

/// The image's pixel format.
#[derive(Clone, Copy, Debug)]
pub enum Color<'a> {
    /// One byte per pixel, an index into this palette (1 to 256 colours).
    Indexed(&'a [[u8; 3]]),
    /// Three bytes per pixel: red, green, blue.
    Rgb,
}

/// Why encoding stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PngError<E> {
    /// The output refused the bytes.
    Output(E),
    /// The image was described wrongly (sizes, rows, palette).
    Invalid(&'static str),
}

impl From<PngError<FsError>> for ToolError {
    fn from(e: PngError<FsError>) -> ToolError {
        match e {
            PngError::Output(e) => e.into(),
            PngError::Invalid(what) => ToolError::from_parts(&["png: ", what]),
        }
    }
}

impl From<PngError<Infallible>> for ToolError {
    fn from(e: PngError<Infallible>) -> ToolError {
        match e {
            PngError::Invalid(what) => ToolError::from_parts(&["png: ", what]),
        }
    }
}

/// Compressed bytes are sent on in IDAT chunks of about this size.
const IDAT_SIZE: usize = 32 * 1024;

/// A PNG being written, row by row from the top.
pub struct Writer<O: Output> {
    out: O,
    height: u32,
    rows: u32,
    palette_len: usize,
    previous: Vec<u8>,
    filtered: Vec<u8>,
    adler: Adler32,
    deflate: Deflate,
}

impl<O: Output> Writer<O> {
    /// Starts an image of `width` × `height` pixels: writes the signature
    /// and the header (and palette) to `out`.
    pub fn new(mut out: O, width: u32, height: u32, color: Color<'_>) -> Result<Writer<O>, PngError<O::Error>> {
        if width == 0 || height == 0 || width > i32::MAX as u32 || height > i32::MAX as u32 {
            return Err(PngError::Invalid("width and height must be from 1 to 2^31-1"));
        }
        let (bytes_per_pixel, color_type, palette) = match color {
            Color::Indexed(palette) if palette.is_empty() || palette.len() > 256 => {
                return Err(PngError::Invalid("a palette holds 1 to 256 colours"));
            }
            Color::Indexed(palette) => (1usize, 3u8, palette),
            Color::Rgb => (3, 2, &[][..]),
        };
        let Some(row_len) = (width as usize).checked_mul(bytes_per_pixel).filter(|&n| n < usize::MAX / 4) else {
            return Err(PngError::Invalid("the image is too wide"));
        };
        out.put(b"\x89PNG\r\n\x1a\n").map_err(PngError::Output)?;
        let mut header = [0u8; 13];
        header[..4].copy_from_slice(&width.to_be_bytes());
        header[4..8].copy_from_slice(&height.to_be_bytes());
        // Bit depth 8; compression, filter and interlace methods 0.
        header[8] = 8;
        header[9] = color_type;
        write_chunk(&mut out, b"IHDR", &header)?;
        if !palette.is_empty() {
            let mut plte = Vec::with_capacity(palette.len() * 3);
            for rgb in palette {
                plte.extend_from_slice(rgb);
            }
            write_chunk(&mut out, b"PLTE", &plte)?;
        }
        let mut deflate = Deflate::new();
        // zlib: deflate with a 32 KiB window, no dictionary, fastest level.
        deflate.out.extend_from_slice(&[0x78, 0x01]);
        deflate.start_block();
        Ok(Writer {
            out,
            height,
            rows: 0,
            palette_len: palette.len(),
            previous: alloc::vec![0; row_len],
            filtered: Vec::with_capacity(row_len + 1),
            adler: Adler32::new(),
            deflate,
        })
    }

    /// Adds the next row: `width` bytes of palette indexes, or `width × 3`
    /// bytes of RGB.
    pub fn write_row(&mut self, row: &[u8]) -> Result<(), PngError<O::Error>> {
        if row.len() != self.previous.len() {
            return Err(PngError::Invalid("a row has the wrong length"));
        }
        if self.rows == self.height {
            return Err(PngError::Invalid("more rows than the image's height"));
        }
        if self.palette_len != 0 && self.palette_len < 256 && row.iter().any(|&i| i as usize >= self.palette_len) {
            return Err(PngError::Invalid("a pixel's colour is past the end of the palette"));
        }
        // Up (the difference from the row above) when its bytes are smaller
        // in sum, seen as signed: rows like the one above become zeros.
        let cost = |bytes: &mut dyn Iterator<Item = u8>| bytes.map(|b| (b as i8).unsigned_abs() as u64).sum::<u64>();
        let plain = cost(&mut row.iter().copied());
        let up = cost(&mut row.iter().zip(&self.previous).map(|(a, b)| a.wrapping_sub(*b)));
        self.filtered.clear();
        if up < plain {
            self.filtered.push(2);
            self.filtered.extend(row.iter().zip(&self.previous).map(|(a, b)| a.wrapping_sub(*b)));
        } else {
            self.filtered.push(0);
            self.filtered.extend_from_slice(row);
        }
        self.previous.copy_from_slice(row);
        self.rows += 1;
        self.adler.update(&self.filtered);
        self.deflate.feed(&self.filtered);
        if self.deflate.out.len() >= IDAT_SIZE {
            write_chunk(&mut self.out, b"IDAT", &self.deflate.out)?;
            self.deflate.out.clear();
        }
        Ok(())
    }

    /// Ends the image (all `height` rows must have been written) and gives
    /// back the output.
    pub fn finish(mut self) -> Result<O, PngError<O::Error>> {
        if self.rows != self.height {
            return Err(PngError::Invalid("fewer rows than the image's height"));
        }
        self.deflate.finish();
        let adler = self.adler.value();
        self.deflate.out.extend_from_slice(&adler.to_be_bytes());
        write_chunk(&mut self.out, b"IDAT", &self.deflate.out)?;
        write_chunk(&mut self.out, b"IEND", &[])?;
        Ok(self.out)
    }
}

/// A whole image at once: `pixels` holds `height` rows, top first.
pub fn encode(width: u32, height: u32, color: Color<'_>, pixels: &[u8]) -> Result<Vec<u8>, PngError<Infallible>> {
    let mut png = Writer::new(Vec::new(), width, height, color)?;
    let row_len = png.previous.len();
    if pixels.len() != row_len * height as usize {
        return Err(PngError::Invalid("the pixels do not fill width × height"));
    }
    for row in pixels.chunks_exact(row_len) {
        png.write_row(row)?;
    }
    png.finish()
}

fn write_chunk<O: Output>(out: &mut O, kind: &[u8; 4], data: &[u8]) -> Result<(), PngError<O::Error>> {
    let crc = !crc32_update(crc32_update(!0, kind), data);
    out.put(&(data.len() as u32).to_be_bytes()).map_err(PngError::Output)?;
    out.put(kind).map_err(PngError::Output)?;
    out.put(data).map_err(PngError::Output)?;
    out.put(&crc.to_be_bytes()).map_err(PngError::Output)
}

/// CRC-32 (ISO 3309, as PNG uses it) four bits at a time: a 16-entry table.
const CRC_NIBBLES: [u32; 16] = {
    let mut table = [0u32; 16];
    let mut i = 0;
    while i < 16 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 4 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// Runs the CRC register `crc` over `bytes` (start from `!0`, invert at the end).
pub fn crc32_update(mut crc: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        crc ^= b as u32;
        crc = (crc >> 4) ^ CRC_NIBBLES[(crc & 15) as usize];
        crc = (crc >> 4) ^ CRC_NIBBLES[(crc & 15) as usize];
    }
    crc
}

/// zlib's checksum of the uncompressed stream.
struct Adler32 {
    a: u32,
    b: u32,
}

impl Adler32 {
    fn new() -> Adler32 {
        Adler32 { a: 1, b: 0 }
    }

    fn update(&mut self, bytes: &[u8]) {
        // 5552 bytes is the most that cannot overflow `b` between reductions.
        for chunk in bytes.chunks(5552) {
            for &x in chunk {
                self.a += x as u32;
                self.b += self.a;
            }
            self.a %= 65521;
            self.b %= 65521;
        }
    }

    fn value(&self) -> u32 {
        self.b << 16 | self.a
    }
}

const WINDOW: usize = 32 * 1024;
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;
const HASH_BITS: u32 = 15;

const LENGTH_BASE: [u16; 29] =
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA: [u8; 29] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
    8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA: [u8; 30] =
    [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/// A streaming deflate compressor: LZ77 with one hash candidate per
/// position, coded as a single block with the fixed Huffman codes.
struct Deflate {
    /// The last `WINDOW` bytes already coded, then the bytes not yet coded.
    data: Vec<u8>,
    /// The stream offset of `data[0]`.
    base: usize,
    /// Index in `data` of the next byte to code.
    pos: usize,
    /// For each hash of three bytes, 1 + the stream offset where they last
    /// began (0: never).
    head: Vec<u32>,
    bits: u64,
    bit_count: u32,
    /// Whole compressed bytes, waiting to be sent.
    out: Vec<u8>,
}

impl Deflate {
    fn new() -> Deflate {
        Deflate {
            data: Vec::new(),
            base: 0,
            pos: 0,
            head: alloc::vec![0; 1 << HASH_BITS],
            bits: 0,
            bit_count: 0,
            out: Vec::new(),
        }
    }

    fn put_bits(&mut self, value: u32, count: u32) {
        self.bits |= (value as u64) << self.bit_count;
        self.bit_count += count;
        while self.bit_count >= 8 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.bit_count -= 8;
        }
    }

    /// Huffman codes go most significant bit first.
    fn put_code(&mut self, code: u32, len: u32) {
        self.put_bits(code.reverse_bits() >> (32 - len), len);
    }

    fn start_block(&mut self) {
        // BFINAL = 1 (the only block), BTYPE = 01 (fixed Huffman codes).
        self.put_bits(1, 1);
        self.put_bits(1, 2);
    }

    /// A literal byte (0..=255), the end of the block (256), or a length
    /// code (257..=285), in the fixed code of RFC 1951 §3.2.6.
    fn put_symbol(&mut self, symbol: u32) {
        match symbol {
            0..=143 => self.put_code(0x30 + symbol, 8),
            144..=255 => self.put_code(0x190 + symbol - 144, 9),
            256..=279 => self.put_code(symbol - 256, 7),
            _ => self.put_code(0xC0 + symbol - 280, 8),
        }
    }

    fn put_match(&mut self, length: usize, distance: usize) {
        let code = LENGTH_BASE.iter().rposition(|&base| base as usize <= length).unwrap_or(0);
        self.put_symbol(257 + code as u32);
        self.put_bits((length - LENGTH_BASE[code] as usize) as u32, LENGTH_EXTRA[code] as u32);
        let code = DISTANCE_BASE.iter().rposition(|&base| base as usize <= distance).unwrap_or(0);
        self.put_code(code as u32, 5);
        self.put_bits((distance - DISTANCE_BASE[code] as usize) as u32, DISTANCE_EXTRA[code] as u32);
    }

    fn hash(bytes: &[u8]) -> usize {
        let key = (bytes[0] as u32) << 16 | (bytes[1] as u32) << 8 | bytes[2] as u32;
        (key.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
    }

    /// Remembers that the three bytes at `at` begin there.
    fn insert(&mut self, at: usize) -> Option<usize> {
        if at + MIN_MATCH > self.data.len() {
            return None;
        }
        let slot = &mut self.head[Self::hash(&self.data[at..])];
        let before = *slot;
        *slot = (self.base + at + 1) as u32;
        (before as usize).checked_sub(1)
    }

    fn feed(&mut self, bytes: &[u8]) {
        self.data.extend_from_slice(bytes);
        self.compress(MAX_MATCH);
    }

    /// Codes the input, keeping `lookahead` bytes back so that a match is
    /// never cut short by the end of what has arrived so far.
    fn compress(&mut self, lookahead: usize) {
        while self.pos + lookahead < self.data.len() {
            let pos = self.pos;
            let here = self.base + pos;
            let mut found = None;
            if let Some(earlier) = self.insert(pos)
                && earlier >= self.base
                && here - earlier <= WINDOW
            {
                let from = earlier - self.base;
                let limit = (self.data.len() - pos).min(MAX_MATCH);
                let mut length = 0;
                while length < limit && self.data[from + length] == self.data[pos + length] {
                    length += 1;
                }
                if length >= MIN_MATCH {
                    found = Some((length, here - earlier));
                }
            }
            match found {
                Some((length, distance)) => {
                    self.put_match(length, distance);
                    for at in pos + 1..pos + length {
                        self.insert(at);
                    }
                    self.pos += length;
                }
                None => {
                    self.put_symbol(self.data[pos] as u32);
                    self.pos += 1;
                }
            }
        }
        // Keep one window of history; drop what is older.
        if self.pos > 2 * WINDOW {
            let drop = self.pos - WINDOW;
            self.data.drain(..drop);
            self.base += drop;
            self.pos -= drop;
        }
    }

    fn finish(&mut self) {
        self.compress(0);
        self.put_symbol(256);
        if self.bit_count > 0 {
            self.put_bits(0, 8 - self.bit_count);
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    fn decode(bytes: &[u8]) -> (png::OutputInfo, Vec<u8>, Option<Vec<u8>>) {
        let mut decoder = png::Decoder::new(bytes);
        // Keep palette indexes as they are, so tests can check them.
        decoder.set_transformations(png::Transformations::IDENTITY);
        let mut reader = decoder.read_info().expect("a valid PNG header");
        let palette = reader.info().palette.as_ref().map(|p| p.to_vec());
        let mut pixels = alloc::vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).expect("valid image data: CRCs and Adler-32 check out");
        pixels.truncate(info.buffer_size());
        (info, pixels, palette)
    }

    #[test]
    fn crc32_of_known_strings() {
        assert_eq!(!crc32_update(!0, b"123456789"), 0xCBF4_3926);
        assert_eq!(!crc32_update(!0, b"IEND"), 0xAE42_6082);
    }

    #[test]
    fn adler32_of_wikipedia() {
        let mut a = Adler32::new();
        a.update(b"Wikipedia");
        assert_eq!(a.value(), 0x11E6_0398);
    }

    #[test]
    fn indexed_round_trip() {
        const PALETTE: [[u8; 3]; 4] = [[255, 255, 255], [0, 0, 0], [30, 100, 200], [200, 30, 30]];
        let (w, h) = (97u32, 61u32);
        let mut pixels = Vec::new();
        for y in 0..h {
            for x in 0..w {
                pixels.push(((x / 7 + y / 5 + (x * y) % 3) % 4) as u8);
            }
        }
        let bytes = encode(w, h, Color::Indexed(&PALETTE), &pixels).unwrap();
        let (info, decoded, palette) = decode(&bytes);
        assert_eq!((info.width, info.height), (w, h));
        assert_eq!(info.color_type, png::ColorType::Indexed);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        assert_eq!(decoded, pixels);
        assert_eq!(palette.unwrap(), PALETTE.concat());
    }

    #[test]
    fn rgb_round_trip_with_noise() {
        // Pseudo-random bytes: few matches, so most of the stream is literals.
        let (w, h) = (50u32, 40u32);
        let mut state = 0x1234_5678u32;
        let pixels: Vec<u8> = (0..w * h * 3)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 24) as u8
            })
            .collect();
        let bytes = encode(w, h, Color::Rgb, &pixels).unwrap();
        let (info, decoded, _) = decode(&bytes);
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(decoded, pixels);
    }

    #[test]
    fn long_images_slide_the_window() {
        // 300 KiB of rows, repeating with a long period: matches reach back
        // across dropped history and must still decode.
        const PALETTE: [[u8; 3]; 256] = {
            let mut p = [[0u8; 3]; 256];
            let mut i = 0;
            while i < 256 {
                p[i] = [i as u8, (255 - i) as u8, (i * 7) as u8];
                i += 1;
            }
            p
        };
        let (w, h) = (1000u32, 300u32);
        let pixels: Vec<u8> = (0..w * h).map(|i| ((i / 3 + i / 1000 * 17) % 251) as u8).collect();
        let bytes = encode(w, h, Color::Indexed(&PALETTE), &pixels).unwrap();
        let (_, decoded, _) = decode(&bytes);
        assert_eq!(decoded, pixels);
    }

    #[test]
    fn flat_images_compress_well() {
        const PALETTE: [[u8; 3]; 2] = [[255, 255, 255], [0, 0, 0]];
        let (w, h) = (640u32, 400u32);
        let pixels: Vec<u8> = (0..w * h).map(|i| ((i % w) / 80 % 2) as u8).collect();
        let bytes = encode(w, h, Color::Indexed(&PALETTE), &pixels).unwrap();
        assert!(bytes.len() < 4096, "{} bytes", bytes.len());
        assert_eq!(decode(&bytes).1, pixels);
    }

    #[test]
    fn misuse_is_an_error_not_a_panic() {
        const PALETTE: [[u8; 3]; 2] = [[255, 255, 255], [0, 0, 0]];
        assert!(matches!(Writer::new(Vec::new(), 0, 1, Color::Rgb), Err(PngError::Invalid(_))));
        assert!(matches!(Writer::new(Vec::new(), 1, 1, Color::Indexed(&[])), Err(PngError::Invalid(_))));
        let mut png = Writer::new(Vec::new(), 2, 1, Color::Indexed(&PALETTE)).unwrap();
        assert!(png.write_row(&[0]).is_err());
        assert!(png.write_row(&[0, 2]).is_err());
        png.write_row(&[0, 1]).unwrap();
        assert!(png.write_row(&[0, 1]).is_err());
        let png = Writer::new(Vec::new(), 2, 2, Color::Indexed(&PALETTE)).unwrap();
        assert_eq!(png.finish().err(), Some(PngError::Invalid("fewer rows than the image's height")));
        assert!(encode(2, 2, Color::Rgb, &[0; 5]).is_err());
    }
}
