//! Unescaping a validated string's contents into UTF-8.

use alloc::vec::Vec;

use super::scan::{at, find, hex4, span};
use super::write::{put, put_scalar};

/// Appends the unescaped text of validated string contents `b`: the text
/// between escapes is copied a run at a time.
pub(crate) fn unescape_into(out: &mut Vec<u8>, b: &[u8]) {
    let mut i = 0;
    loop {
        // Escapes often come in a row: no search and no empty copy then.
        let escape = if at(b, i) == b'\\' { i } else { find(b, i, b'\\') };
        if escape > i {
            put(out, span(b, i, escape));
        }
        if escape >= b.len() {
            return;
        }
        i = escape + 2;
        let cp = match at(b, escape + 1) {
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => 0x0A,
            b'r' => 0x0D,
            b't' => 0x09,
            b'u' => {
                let hi = hex4(b, i);
                i += 4;
                if hi & 0xFC00 == 0xD800 {
                    // Validated: the trailing half follows as `\uDCxx`.
                    let lo = hex4(b, i + 2);
                    i += 6;
                    0x10000 + ((hi & 0x3FF) << 10) + (lo & 0x3FF)
                } else {
                    hi
                }
            }
            other => other as u32,
        };
        put_scalar(out, cp);
    }
}
