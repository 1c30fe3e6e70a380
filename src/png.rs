//! A small PNG encoder: 8-bit indexed (palette) or RGB images, written a
//! row at a time into a `Vec<u8>` or straight into an [`fs::File`], so an
//! image never has to sit whole in memory.
//!
//! Each row is filtered with Up (its difference from the row above): where
//! a row agrees with the one above, as most of a chart does, its bytes are
//! zeros, found eight at a time, and [`Writer::write_rows`] takes a run of
//! like rows without looking at the copies. Deflate (one block, with the
//! fixed Huffman codes) then codes each run of one byte, or of one RGB
//! pixel, as a literal and copies of what came before it: what charts and
//! diagrams are made of, with no hash table and no history past the
//! current row. The stream is zlib's, with its Adler-32, and every chunk
//! carries its CRC-32.
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
            PngError::Invalid(what) => ToolError::from(crate::text::concat("png: ", what, "", "")),
        }
    }
}

impl From<PngError<Infallible>> for ToolError {
    fn from(e: PngError<Infallible>) -> ToolError {
        match e {
            PngError::Invalid(what) => ToolError::from(crate::text::concat("png: ", what, "", "")),
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
    /// Bytes from this one up are no colour: the palette's length (256
    /// for RGB, where every byte is one).
    colours: usize,
    bytes_per_pixel: usize,
    /// The last row written (zeros before the first, as PNG has it).
    previous: Vec<u8>,
    /// A stretch of a row's Up bytes, where it differs from `previous`.
    diff: Vec<u8>,
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
            write_chunk(&mut out, b"PLTE", palette.as_flattened())?;
        }
        let mut deflate = Deflate { bits: 0, bit_count: 0, out: Vec::new() };
        // zlib: deflate with a 32 KiB window, no dictionary, fastest level.
        deflate.out.extend_from_slice(&[0x78, 0x01]);
        // BFINAL = 1 (the only block), BTYPE = 01 (fixed Huffman codes).
        deflate.put_bits(0b011, 3);
        Ok(Writer {
            out,
            height,
            rows: 0,
            colours: if palette.is_empty() { 256 } else { palette.len() },
            bytes_per_pixel,
            previous: alloc::vec![0; row_len],
            diff: alloc::vec![0; row_len],
            adler: Adler32 { a: 1, b: 0 },
            deflate,
        })
    }

    /// Adds the next row: `width` bytes of palette indexes, or `width × 3`
    /// bytes of RGB.
    pub fn write_row(&mut self, row: &[u8]) -> Result<(), PngError<O::Error>> {
        self.write_rows(row, 1)
    }

    /// Adds `count` rows (maybe none), each `row`: the encoder looks at the
    /// pixels once, not at each copy.
    pub fn write_rows(&mut self, row: &[u8], count: u32) -> Result<(), PngError<O::Error>> {
        if row.len() != self.previous.len() {
            return Err(PngError::Invalid("a row has the wrong length"));
        }
        if count > self.height - self.rows {
            return Err(PngError::Invalid("more rows than the image's height"));
        }
        if count == 0 {
            return Ok(());
        }
        // Up: zeros where the row agrees with the one above, found and
        // coded a run at a time. Only a pixel unlike the one above it can
        // be a new colour (zeros are above the first row, and 0 is one).
        let undo = (self.adler, self.deflate.bits, self.deflate.bit_count, self.deflate.out.len());
        self.adler.update(&[2]);
        self.deflate.put_symbol(2);
        // Every index through `get` (the three have one length, checked
        // above), so that no bounds check links a panic path.
        let mut i = 0;
        while i < row.len() {
            let same = common_prefix(row.get(i..).unwrap_or_default(), self.previous.get(i..).unwrap_or_default());
            self.adler.zeros(same);
            self.deflate.zeros(same);
            i += same;
            let mut n = 0;
            while let (Some(&p), Some(&above), Some(diff)) = (row.get(i), self.previous.get(i), self.diff.get_mut(n))
                && p != above
            {
                if p as usize >= self.colours {
                    // Refused: as if the row had never come.
                    (self.adler, self.deflate.bits, self.deflate.bit_count) = (undo.0, undo.1, undo.2);
                    self.deflate.out.truncate(undo.3);
                    return Err(PngError::Invalid("a pixel's colour is past the end of the palette"));
                }
                *diff = p.wrapping_sub(above);
                n += 1;
                i += 1;
            }
            let diff = self.diff.get(..n).unwrap_or_default();
            self.adler.update(diff);
            self.deflate.feed(diff, self.bytes_per_pixel);
            if n == 0 && same == 0 {
                break; // Unreachable while the lengths agree; no loop without end if not.
            }
        }
        if let Some(previous) = self.previous.get_mut(..row.len()) {
            previous.copy_from_slice(row);
        }
        if count > 1 {
            // A copy's Up is all zeros, and every copy codes to the same
            // bits: found once, then repeated (whole words in `out`, the
            // rest held).
            let mut copy = Deflate { bits: 0, bit_count: 0, out: Vec::new() };
            copy.put_symbol(2);
            copy.zeros(row.len());
            self.adler.copies(count as u64 - 1, row.len() as u64 + 1);
            for _ in 1..count {
                for word in copy.out.as_chunks::<4>().0 {
                    self.deflate.put_bits(u32::from_le_bytes(*word), 32);
                }
                self.deflate.put_bits(copy.bits as u32, copy.bit_count);
            }
        }
        self.rows += count;
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
        // The end of the block, then the bits still held, to a whole byte.
        let deflate = &mut self.deflate;
        deflate.put_symbol(256);
        let held = deflate.bits.to_le_bytes();
        deflate.out.extend_from_slice(held.get(..deflate.bit_count.div_ceil(8) as usize).unwrap_or(&held));
        let adler = self.adler.b << 16 | self.adler.a;
        deflate.out.extend_from_slice(&adler.to_be_bytes());
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
pub(crate) fn crc32_update(mut crc: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        crc ^= b as u32;
        crc = (crc >> 4) ^ CRC_NIBBLES[(crc & 15) as usize];
        crc = (crc >> 4) ^ CRC_NIBBLES[(crc & 15) as usize];
    }
    crc
}

/// zlib's checksum of the uncompressed stream.
#[derive(Clone, Copy)]
struct Adler32 {
    a: u32,
    b: u32,
}

impl Adler32 {
    fn update(&mut self, bytes: &[u8]) {
        let (mut a, mut b) = (self.a, self.b);
        // 5552 bytes is the most that cannot overflow `b` between reductions.
        for chunk in bytes.chunks(5552) {
            for &x in chunk {
                a += x as u32;
                b += a;
            }
            (a, b) = (a % 65521, b % 65521);
        }
        (self.a, self.b) = (a, b);
    }

    /// As `update` with `n` zeros: each adds `a` to `b`.
    fn zeros(&mut self, n: usize) {
        self.b = ((self.b as u64 + self.a as u64 * (n % 65521) as u64) % 65521) as u32;
    }

    /// As `update` with `k` rows of `len` bytes that are a 2 then zeros:
    /// the j-th adds 2 to `a`, then `len` times `a + 2j` to `b`.
    fn copies(&mut self, k: u64, len: u64) {
        let sum = (k * self.a as u64 + k * (k + 1)) % 65521;
        self.b = ((self.b as u64 + len % 65521 * sum) % 65521) as u32;
        self.a = ((self.a as u64 + 2 * k) % 65521) as u32;
    }
}

const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;

/// How many leading bytes `a` and `b` have in common, compared eight at a
/// time: long runs are the common case.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let words = 8 * a.as_chunks::<8>().0.iter().zip(b.as_chunks::<8>().0).take_while(|(x, y)| x == y).count();
    let (a, b) = (a.get(words..).unwrap_or_default(), b.get(words..).unwrap_or_default());
    words + a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// A streaming deflate compressor, coding one fixed-Huffman block.
struct Deflate {
    bits: u64,
    bit_count: u32,
    /// Whole compressed bytes, waiting to be sent.
    out: Vec<u8>,
}

impl Deflate {
    /// Adds the low `count` (up to 32) bits of `value`; they go out four
    /// bytes at a time.
    fn put_bits(&mut self, value: u32, count: u32) {
        self.bits |= (value as u64) << self.bit_count;
        self.bit_count += count;
        if self.bit_count >= 32 {
            self.out.extend_from_slice(&(self.bits as u32).to_le_bytes());
            self.bits >>= 32;
            self.bit_count -= 32;
        }
    }

    /// Huffman codes go most significant bit first.
    fn put_code(&mut self, code: u32, len: u32) {
        self.put_bits(code.reverse_bits() >> (32 - len), len);
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

    /// A copy of the `length` (3 to 258) bytes from `distance` (1 to 4) back.
    fn put_match(&mut self, length: usize, distance: usize) {
        // Lengths 3 to 10 have codes of their own; past them each four
        // codes cover twice the lengths the four before did, the offset in
        // extra bits; 258 has the last code.
        let n = (length - MIN_MATCH) as u32;
        let extra = if length == MAX_MATCH { 0 } else { 29u32.saturating_sub(n.leading_zeros()) };
        let code = if length == MAX_MATCH { 28 } else { 4 * extra + (n >> extra) };
        self.put_symbol(257 + code);
        self.put_bits(n & ((1 << extra) - 1), extra);
        // Distance codes 0 to 3 are distances 1 to 4, with no extra bits.
        self.put_code(distance as u32 - 1, 5);
    }

    /// Codes `n` zeros: one literal, then copies of the byte before.
    fn zeros(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.put_symbol(0);
        let mut left = n - 1;
        while left >= MIN_MATCH {
            let length = left.min(MAX_MATCH);
            self.put_match(length, 1);
            left -= length;
        }
        for _ in 0..left {
            self.put_symbol(0);
        }
    }

    /// Codes `bytes` as literals and as copies of the bytes `distance`
    /// back among them.
    fn feed(&mut self, bytes: &[u8], distance: usize) {
        let mut i = 0;
        while let Some(&byte) = bytes.get(i) {
            let ahead = bytes.get(i..bytes.len().min(i + MAX_MATCH)).unwrap_or_default();
            let back = i.checked_sub(distance).and_then(|j| bytes.get(j..)).unwrap_or_default();
            let length = common_prefix(ahead, back);
            if length < MIN_MATCH {
                self.put_symbol(byte as u32);
                i += 1;
            } else {
                self.put_match(length, distance);
                i += length;
            }
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
        let mut a = Adler32 { a: 1, b: 0 };
        a.update(b"Wikipedia");
        assert_eq!(a.b << 16 | a.a, 0x11E6_0398);
    }

    #[test]
    fn adler32_of_zeros_in_one_step() {
        for n in [0, 1, 5552, 65521, 100_000] {
            let (mut stepped, mut bytewise) = (Adler32 { a: 1, b: 0 }, Adler32 { a: 1, b: 0 });
            stepped.update(b"\xff\x02");
            bytewise.update(b"\xff\x02");
            stepped.zeros(n);
            bytewise.update(&alloc::vec![0; n]);
            assert_eq!((stepped.a, stepped.b), (bytewise.a, bytewise.b), "{n}");
        }
    }

    #[test]
    fn adler32_of_copied_rows_in_one_step() {
        for (k, len) in [(0, 5), (1, 1), (1, 641), (377, 641), (1999, 6001), (70_000, 3)] {
            let (mut stepped, mut bytewise) = (Adler32 { a: 1, b: 0 }, Adler32 { a: 1, b: 0 });
            stepped.update(b"\xff\x02");
            bytewise.update(b"\xff\x02");
            stepped.copies(k as u64, len as u64);
            let mut row = alloc::vec![0; len];
            row[0] = 2;
            for _ in 0..k {
                bytewise.update(&row);
            }
            assert_eq!((stepped.a, stepped.b), (bytewise.a, bytewise.b), "{k} rows of {len}");
        }
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

    const CHART: [[u8; 3]; 4] = [[255, 255, 255], [34, 34, 34], [66, 133, 244], [219, 68, 55]];

    /// Encodes `rows` (row, count) with `write_rows` and checks that they
    /// decode to exactly those rows.
    fn round_trip(width: u32, color: Color<'_>, rows: &[(Vec<u8>, u32)]) -> Vec<u8> {
        let height = rows.iter().map(|(_, n)| n).sum();
        let mut png = Writer::new(Vec::new(), width, height, color).unwrap();
        let mut pixels = Vec::new();
        for (row, n) in rows {
            png.write_rows(row, *n).unwrap();
            for _ in 0..*n {
                pixels.extend_from_slice(row);
            }
        }
        let bytes = png.finish().unwrap();
        let (info, decoded, _) = decode(&bytes);
        assert_eq!((info.width, info.height), (width, height));
        assert_eq!(decoded, pixels);
        bytes
    }

    #[test]
    fn runs_of_every_length() {
        // Each length from 1 to past the longest match, at the start, in
        // the middle and at the end of a row.
        let mut rows = Vec::new();
        for len in 1..=300 {
            let mut row = alloc::vec![0u8; 310];
            row[5..5 + len].fill(2);
            rows.push((row.clone(), 1));
            row.fill(3);
            row[..len].fill(1);
            rows.push((row.clone(), 2));
            row[310 - len..].fill(0);
            rows.push((row, 1));
        }
        round_trip(310, Color::Indexed(&CHART), &rows);
    }

    #[test]
    fn copies_of_rows() {
        let stripes = |at: usize| (0..97).map(|x| ((x + at) / 9 % 4) as u8).collect::<Vec<u8>>();
        let rows = [(stripes(0), 1), (stripes(0), 0), (stripes(0), 40), (stripes(3), 1), (stripes(3), 300)];
        round_trip(97, Color::Indexed(&CHART), &rows);
        // A row of one colour, 1 pixel wide, and wide ones.
        round_trip(1, Color::Indexed(&CHART), &[(alloc::vec![0], 3), (alloc::vec![2], 70_000), (alloc::vec![1], 1)]);
        for width in [2, 3, 7, 8, 9, 258, 259, 260, 261, 2000] {
            let mut bar = alloc::vec![0u8; width];
            bar[width / 3..].fill(2);
            round_trip(width as u32, Color::Indexed(&CHART), &[(bar.clone(), 5), (alloc::vec![1; width], 2), (bar, 9)]);
        }
    }

    #[test]
    fn rgb_flat_colours_and_copies() {
        let (w, h) = (203usize, 3);
        let mut row = Vec::new();
        for x in 0..w {
            row.extend_from_slice(if x < 50 {
                &[255, 255, 255]
            } else if x < 120 {
                &[66, 133, 244]
            } else {
                &[7, 7, 8]
            });
        }
        let mut other = row.clone();
        other[150 * 3..160 * 3].fill(0);
        let bytes = round_trip(w as u32, Color::Rgb, &[(row.clone(), h), (other, 1), (row, 500)]);
        // Under eight bytes a row, against 610 of pixels.
        assert!(bytes.len() < 8 * 505, "{} bytes", bytes.len());
    }

    #[test]
    fn a_refused_row_leaves_no_trace() {
        let mut png = Writer::new(Vec::new(), 300, 3, Color::Indexed(&CHART)).unwrap();
        let first = alloc::vec![1u8; 300];
        png.write_row(&first).unwrap();
        // Coded up to the last pixel, which is no colour: all of it undone.
        let mut bad: Vec<u8> = (0..300).map(|x| (x % 3) as u8).collect();
        bad[299] = 4;
        assert_eq!(png.write_row(&bad), Err(PngError::Invalid("a pixel's colour is past the end of the palette")));
        assert_eq!(png.write_rows(&first, 3), Err(PngError::Invalid("more rows than the image's height")));
        bad[299] = 3;
        png.write_rows(&bad, 2).unwrap();
        let bytes = png.finish().unwrap();
        assert_eq!(decode(&bytes).1, [first, bad.clone(), bad].concat());
    }
}
