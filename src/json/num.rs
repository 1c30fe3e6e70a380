//! Numbers as JSON text, with no `core::fmt` and no panics.

use alloc::vec::Vec;

use super::write::put_byte;

/// The decimal digits of `n`, written at the end of `buf` (room for any
/// `u64`).
#[inline]
pub fn u64_digits(n: u64, buf: &mut [u8; 20]) -> &[u8] {
    crate::bytes::u64_digits(n, buf)
}

/// [`u64_digits`] for a `usize`, the width of the crate's own numbers
/// (lengths, offsets, errnos): one digit loop in every module, the 64-bit
/// one, rather than a second for 32 bits beside it wherever a JSON integer
/// is written too.
#[inline]
pub fn usize_digits(n: usize, buf: &mut [u8; 20]) -> &[u8] {
    u64_digits(n as u64, buf)
}

/// Appends the decimal digits of `n`.
pub fn write_u64(out: &mut Vec<u8>, n: u64) {
    super::write::put(out, u64_digits(n, &mut [0; 20]));
}

/// Appends the decimal digits of `n`; see [`usize_digits`].
#[inline]
pub fn write_usize(out: &mut Vec<u8>, n: usize) {
    write_u64(out, n as u64);
}

/// Appends the decimal digits of `n`, after a `-` when it is negative.
///
/// # Examples
/// ```
/// let mut out = b"n=".to_vec();
/// subako_tiny::__test::json_num::write_i64(&mut out, i64::MIN);
/// assert_eq!(out, b"n=-9223372036854775808");
/// ```
pub fn write_i64(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        put_byte(out, b'-');
    }
    write_u64(out, n.unsigned_abs());
}

/// Appends `x` in the shortest form that reads back as the same `f64`, as
/// serde_json writes it (`1.0`, `0.1`, `1e+100`, `1e-7`, `-0.0`); `null`
/// when JSON cannot hold it.
///
/// The digits are the fewest that read back as `x`, the nearest to it of
/// those, ties to even, found by reading candidates back with the float
/// reader instead of with ryu's tables: far less code and no data, and a
/// module that reads floats too carries that code once (docs/SIZE.md).
/// They are laid out as ryu lays them out, with serde_json's signed
/// exponent: plainly when that takes at most 16 digits before the point, or
/// at most 4 zeros after it before the first digit (`1234000000000000.0`,
/// `1234.5`, `0.00001234`); as `d.ddde±x` otherwise (`1e+16`, `1.234e-6`).
///
/// # Examples
/// ```
/// let mut out = Vec::new();
/// for x in [1.0, 0.1, -0.0, 1e100, 1e-7, 123456.789, f64::MIN_POSITIVE, f64::INFINITY] {
///     subako_tiny::__test::json_num::write_f64(&mut out, x);
///     out.push(b' ');
/// }
/// assert_eq!(out, b"1.0 0.1 -0.0 1e+100 1e-7 123456.789 2.2250738585072014e-308 null ");
/// ```
pub fn write_f64(out: &mut Vec<u8>, x: f64) {
    write_shortest::<false>(out, x);
}

/// [`write_f64`]'s digits laid out as JSON (`STD` false) or as
/// `format!("{x}")` lays them out (`STD` true, for a finite `x`): never an
/// exponent, and no `.0` after a whole number (`1`, `-0`, `1e20` as
/// `100000000000000000000`), a tie between two shortest decimals broken
/// up rather than to even.
pub(crate) fn write_shortest<const STD: bool>(out: &mut Vec<u8>, x: f64) {
    if !x.is_finite() {
        super::write::put(out, b"null");
        return;
    }
    if x.is_sign_negative() {
        put_byte(out, b'-');
    }
    if x == 0.0 {
        super::write::put(out, if STD { &b"0"[..] } else { b"0.0" });
        return;
    }
    let bits = x.abs().to_bits();
    // The digits (ASCII, or values 0–9: the low four bits are the digit)
    // and the point: 10^(dp-1) ≤ |x| < 10^dp.
    let mut buf = [0; 20];
    let dec;
    let (digits, dp) =
        match super::float::short_shortest(x.abs()).map_or_else(|| super::float::product_shortest(x.abs()), Ok) {
            Ok((mut c, mut exp)) => {
                // c · 10^exp, c > 0: its digits without the zeros at its end.
                while c % 10 == 0 {
                    c /= 10;
                    exp += 1;
                }
                let digits = u64_digits(c, &mut buf);
                (digits, digits.len() as i64 + exp)
            }
            Err(from) => {
                dec = super::float::shortest(bits, from, STD);
                (dec.digits(), dec.dp)
            }
        };
    let nd = digits.len() as i64;
    let plain = STD || -5 < dp && dp <= 16;
    // Digits before the point: all up to it, or the first one.
    let point = if plain { dp } else { 1 };
    if point <= 0 {
        put_byte(out, b'0');
    }
    // The rest after it, with at least one (a `0`) when plain but for
    // `format!`, and zeros between the point and the first digit: 0
    // outside the digits, and below index 0 (wrapped past them).
    let end = if STD {
        nd.max(point)
    } else if plain {
        nd.max(point + 1)
    } else {
        nd
    };
    let mut i = point.min(0);
    while i < end {
        if i == point {
            put_byte(out, b'.');
        }
        put_byte(out, b'0' | digits.get(i as usize).map_or(0, |d| d & 0x0F));
        i += 1;
    }
    if !plain {
        put_byte(out, b'e');
        let e = dp - 1;
        put_byte(out, if e < 0 { b'-' } else { b'+' });
        write_usize(out, e.unsigned_abs() as usize);
    }
}
