//! Bytes into a buffer: JSON text appended, strings escaped, white space
//! taken out. What every writer of the crate (the JSON writer, the text
//! builder, the protocol's answers) puts its output through.

use alloc::vec::Vec;

use super::scan::plain_end;
use crate::bytes::HEX;

/// Appends `json` (valid JSON text) without white space outside strings:
/// the runs between white space copied whole, each string passed over as
/// the reader passes it (many bytes a step), so text with none is one copy.
pub fn compact_into(out: &mut Vec<u8>, json: &[u8]) {
    let (mut at, mut run) = (0, 0);
    while let Some(&b) = json.get(at) {
        if b == b'"' {
            at = super::validator::skip_string(json, at);
            continue;
        }
        if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            put(out, json.get(run..at).unwrap_or_default());
            run = at + 1;
        }
        at += 1;
    }
    put(out, json.get(run..).unwrap_or_default());
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
    crate::sys::append_byte(out, byte);
}

/// Appends Unicode scalar value `cp` (a code point that is no surrogate:
/// a `char`, or a validated escape's) as UTF-8.
pub(crate) fn put_scalar(out: &mut Vec<u8>, cp: u32) {
    if cp < 0x80 {
        put_byte(out, cp as u8);
        return;
    }
    let (len, lead) = match cp {
        0..0x800 => (2, 0xC0),
        0x800..0x10000 => (3, 0xE0),
        _ => (4, 0xF0),
    };
    put_byte(out, lead | (cp >> (6 * (len - 1))) as u8);
    let mut shift = 6 * (len - 1);
    while shift > 0 {
        shift -= 6;
        put_byte(out, 0x80 | ((cp >> shift) & 0x3F) as u8);
    }
}
