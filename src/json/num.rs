//! Numbers as JSON text, with no `core::fmt` and no panics.

use alloc::vec::Vec;

use super::write::put_byte;

/// Defines a function that writes the decimal digits of an unsigned `$t`
/// at the end of a 20-byte buffer (room for any `u64`) and returns them.
macro_rules! digits_fn {
    ($(#[$doc:meta])* $name:ident: $t:ty) => {
        $(#[$doc])*
        pub fn $name(mut n: $t, buf: &mut [u8; 20]) -> &[u8] {
            let mut at = buf.len();
            // Twenty digits hold any u64, so `at` never runs out.
            while let Some(slot) = buf.get_mut(at.wrapping_sub(1)) {
                *slot = b'0' + (n % 10) as u8;
                at -= 1;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            buf.get(at..).unwrap_or(&[])
        }
    };
}

digits_fn!(
    /// The decimal digits of `n`, written at the end of `buf`.
    u64_digits: u64
);

digits_fn!(
    /// [`u64_digits`] for a `usize`, the width of the crate's own numbers
    /// (lengths, offsets, errnos). On wasm32 that is 32-bit arithmetic, and a
    /// module that writes no JSON integer has no function taking an `i64`:
    /// wasmtime compiles a trampoline for each distinct function signature.
    usize_digits: usize
);

/// Appends the decimal digits of `n`.
pub fn write_u64(out: &mut Vec<u8>, n: u64) {
    super::write::put(out, u64_digits(n, &mut [0; 20]));
}

/// Appends the decimal digits of `n`; see [`usize_digits`].
pub fn write_usize(out: &mut Vec<u8>, n: usize) {
    super::write::put(out, usize_digits(n, &mut [0; 20]));
}

/// Appends the decimal digits of `n`, after a `-` when it is negative.
///
/// # Examples
/// ```
/// let mut out = b"n=".to_vec();
/// subako_tiny::json::num::write_i64(&mut out, i64::MIN);
/// assert_eq!(out, b"n=-9223372036854775808");
/// ```
pub fn write_i64(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        put_byte(out, b'-');
    }
    write_u64(out, n.unsigned_abs());
}

/// Appends `x` in the shortest form that reads back as the same `f64`, as
/// serde_json writes it (`1.0`, `0.1`, `1e+100`, `1e-7`); `null` when JSON
/// cannot hold it.
pub fn write_f64(out: &mut Vec<u8>, x: f64) {
    if !x.is_finite() {
        super::write::put(out, b"null");
        return;
    }
    let mut buf = ryu::Buffer::new();
    let text = buf.format_finite(x).as_bytes();
    // ryu writes `1e100`; serde_json signs the exponent (it formats with zmij, 1.0.150 on).
    let (digits, exponent) = match text.iter().position(|&b| b == b'e') {
        Some(e) => text.split_at(e + 1),
        None => (text, &[][..]),
    };
    super::write::put(out, digits);
    if exponent.first().is_some_and(|&b| b != b'-') {
        put_byte(out, b'+');
    }
    super::write::put(out, exponent);
}
