//! A float with a fixed number of decimals, as `format!("{x:.2}")` writes
//! it, by exact integer arithmetic on the float's value: no `core::fmt`, no
//! tables, no panics.

use alloc::vec::Vec;

use crate::json::write::{put, put_byte};

/// The limbs (32 bits each, lowest first) of the integers worked on: the
/// largest is the largest float's 53-bit significand times 2^971 times
/// 10^255 (the most decimals a `u8` asks for), under 1,872 bits.
const LIMBS: usize = 60;

type Big = [u32; LIMBS];

/// Appends `x` rounded to `decimals` digits after the point, as std's
/// `format!("{x:.decimals$}")`: the exact value of `x` rounded to the
/// nearest, ties to even; `-` before any negative `x`, `-0.0` and
/// negatives that round to zero included; `NaN`, `inf`, `-inf`.
pub(crate) fn write_fixed(out: &mut Vec<u8>, x: f64, decimals: u8) {
    if x.is_nan() {
        put(out, b"NaN");
        return;
    }
    let bits = x.to_bits();
    if bits >> 63 != 0 {
        put_byte(out, b'-');
    }
    if x.is_infinite() {
        put(out, b"inf");
        return;
    }
    // |x| = m × 2^e exactly.
    let (m, e) = crate::json::float::significand_exponent(x);
    // |x| × 10^decimals, rounded to an integer: its digits are the answer's.
    // In a `u64` when it fits, as it does for the decimals tools write (a
    // few, of a number under 2^53): the whole-number path costs many times
    // the work (author trial 70).
    let small = scaled(m, e, decimals);
    let mut n: Big = [0; LIMBS];
    // The limbs from `live` up are 0: a digit divides only those below.
    let mut live = 0;
    let mut rest = small.unwrap_or(0);
    if small.is_none() {
        n[0] = m as u32;
        n[1] = (m >> 32) as u32;
        for _ in 0..decimals {
            mul_add(&mut n, 10, 0);
        }
        if e > 0 {
            shift_left(&mut n, e as u32);
        } else {
            shift_right_even(&mut n, e.unsigned_abs());
        }
        live = LIMBS;
    }
    // The digits, lowest first with the point among them, then turned.
    let start = out.len();
    let mut written = 0u32;
    loop {
        let digit = if live == 0 {
            let digit = rest % 10;
            rest /= 10;
            digit as u32
        } else {
            let digit = div_small(n.get_mut(..live).unwrap_or_default(), 10);
            while let Some(0) = n.get(live.wrapping_sub(1)) {
                live -= 1;
            }
            digit
        };
        put_byte(out, b'0' + digit as u8);
        written += 1;
        if written == u32::from(decimals) {
            put_byte(out, b'.');
        }
        if written > u32::from(decimals) && live == 0 && rest == 0 {
            break;
        }
    }
    // Turned by hand: `reverse` links a bounds check's panic path here.
    let mut digits = out.get_mut(start..).unwrap_or_default();
    while let [first, middle @ .., last] = digits {
        core::mem::swap(first, last);
        digits = middle;
    }
}

/// `m × 2^e × 10^decimals` rounded to the nearest integer, ties to even,
/// when `e ≤ 0` and `m × 10^decimals` fits a `u64`; else `None`.
fn scaled(m: u64, e: i32, decimals: u8) -> Option<u64> {
    if e > 0 {
        return None;
    }
    if m == 0 {
        return Some(0);
    }
    // The zeros at the significand's end take no part: 0.5, 2.25 and whole
    // numbers leave room for more decimals.
    let zeros = m.trailing_zeros().min(e.unsigned_abs()).min(63);
    let (mut n, s) = (m >> zeros, e.unsigned_abs() - zeros);
    for _ in 0..decimals {
        n = n.checked_mul(10)?;
    }
    if s == 0 {
        return Some(n);
    }
    if s > 63 {
        return None;
    }
    let half = n >> (s - 1) & 1 != 0;
    let below = n & ((1 << (s - 1)) - 1) != 0;
    let q = n >> s;
    Some(if half && (below || q & 1 != 0) { q + 1 } else { q })
}

/// `n = n × k + carry` (the result fits: see [`LIMBS`]).
#[inline(never)]
fn mul_add(n: &mut Big, k: u32, mut carry: u64) {
    for limb in n.iter_mut() {
        let v = u64::from(*limb) * u64::from(k) + carry;
        *limb = v as u32;
        carry = v >> 32;
    }
}

/// `n = n / k`, returning the remainder.
#[inline(never)]
fn div_small(n: &mut [u32], k: u32) -> u32 {
    let mut rest = 0u64;
    for limb in n.iter_mut().rev() {
        let v = rest << 32 | u64::from(*limb);
        *limb = (v / u64::from(k)) as u32;
        rest = v % u64::from(k);
    }
    rest as u32
}

/// Limb `i` of `n`, 0 outside it.
fn limb(n: &Big, i: usize) -> u64 {
    n.get(i).map_or(0, |&l| u64::from(l))
}

/// `n = n × 2^s`.
fn shift_left(n: &mut Big, s: u32) {
    let (words, bits) = ((s / 32) as usize, s % 32);
    // From the top down: each limb reads only limbs at or below it, not
    // yet moved.
    for i in (0..LIMBS).rev() {
        let pair = limb(n, i.wrapping_sub(words)) << 32 | limb(n, i.wrapping_sub(words + 1));
        n[i] = (pair << bits >> 32) as u32;
    }
}

/// `n = n / 2^s`, rounded to the nearest integer, ties to even.
fn shift_right_even(n: &mut Big, s: u32) {
    if s == 0 {
        return;
    }
    // The bit worth a half, and whether any below it is set.
    let (words, bits) = (((s - 1) / 32) as usize, (s - 1) % 32);
    let half = limb(n, words) >> bits & 1 != 0;
    let below = n.iter().take(words).any(|&l| l != 0) || limb(n, words) & ((1 << bits) - 1) != 0;
    let (words, bits) = ((s / 32) as usize, s % 32);
    // From the bottom up: each limb reads only limbs at or above it.
    for i in 0..LIMBS {
        let pair = limb(n, i.wrapping_add(words + 1)) << 32 | limb(n, i.wrapping_add(words));
        n[i] = (pair >> bits) as u32;
    }
    if half && (below || n[0] & 1 != 0) {
        mul_add(n, 1, 1);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::write_fixed;
    use std::format;
    use std::string::String;
    use std::vec::Vec;

    fn fixed(x: f64, decimals: u8) -> String {
        let mut out = Vec::new();
        write_fixed(&mut out, x, decimals);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn specials_ties_and_extremes_are_std_s() {
        let values = [
            0.0,
            -0.0,
            -0.001,
            0.125,
            0.375,
            0.5,
            1.5,
            2.5,
            -2.5,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            5e-324,
            1e21,
            1e300,
            123.456,
            0.1,
            9.995,
            999.9999,
        ];
        for x in values {
            for decimals in [0u8, 1, 2, 3, 17, 20, 255] {
                assert_eq!(fixed(x, decimals), format!("{x:.*}", usize::from(decimals)), "{x:?} to {decimals}");
            }
        }
    }
}
