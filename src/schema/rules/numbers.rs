//! JSON numbers compared exactly, as decimals, in const code: a schema's
//! bounds checked against each other.

use crate::bytes::at;

/// The JSON numbers at `x` and `y` compared exactly, as decimals: -1, 0
/// or 1. (Written in const code: core's float parsing is not const.)
pub const fn compare_numbers(b: &[u8], x: usize, y: usize) -> i32 {
    let (x_negative, x_zero, x_magnitude) = decimal(b, x);
    let (y_negative, y_zero, y_magnitude) = decimal(b, y);
    if x_zero && y_zero {
        return 0;
    }
    // The sign of each, zero counting as neither.
    let sx = if x_zero {
        0
    } else if x_negative {
        -1
    } else {
        1
    };
    let sy = if y_zero {
        0
    } else if y_negative {
        -1
    } else {
        1
    };
    if sx != sy {
        return if sx < sy { -1 } else { 1 };
    }
    // Same sign, both nonzero: compare magnitudes, then digits.
    let mut order = if x_magnitude != y_magnitude {
        if x_magnitude < y_magnitude { -1 } else { 1 }
    } else {
        compare_digits(b, x, y)
    };
    if sx < 0 {
        order = -order;
    }
    order
}

/// A JSON number's sign, whether it is zero, and the power of ten of its
/// first significant digit (`123.4` → 2, `0.05` → -2), saturated far
/// beyond any `f64`.
const fn decimal(b: &[u8], v: usize) -> (bool, bool, i64) {
    let negative = at(b, v) == b'-';
    let mut i = if negative { v + 1 } else { v };
    // Digits before the point, and where the first significant one is.
    let mut position: i64 = 0;
    let mut first: Option<i64> = None;
    while at(b, i).is_ascii_digit() {
        if first.is_none() && at(b, i) != b'0' {
            first = Some(position);
        }
        position += 1;
        i += 1;
    }
    let point = position;
    if at(b, i) == b'.' {
        i += 1;
        while at(b, i).is_ascii_digit() {
            if first.is_none() && at(b, i) != b'0' {
                first = Some(position);
            }
            position += 1;
            i += 1;
        }
    }
    let mut exponent: i64 = 0;
    if matches!(at(b, i), b'e' | b'E') {
        i += 1;
        let minus = at(b, i) == b'-';
        if matches!(at(b, i), b'-' | b'+') {
            i += 1;
        }
        while at(b, i).is_ascii_digit() {
            if exponent < 1_000_000_000_000 {
                exponent = exponent * 10 + (at(b, i) - b'0') as i64;
            }
            i += 1;
        }
        if minus {
            exponent = -exponent;
        }
    }
    match first {
        None => (negative, true, 0),
        Some(f) => (negative, false, point - f - 1 + exponent),
    }
}

/// The significant digits of the numbers at `x` and `y` (of the same
/// magnitude) compared in order, a missing digit reading as 0.
const fn compare_digits(b: &[u8], x: usize, y: usize) -> i32 {
    let mut i = first_significant(b, x);
    let mut j = first_significant(b, y);
    loop {
        let (dx, next_i) = next_digit(b, i);
        let (dy, next_j) = next_digit(b, j);
        if dx == 0 && dy == 0 && next_i == i && next_j == j {
            return 0;
        }
        if dx != dy {
            return if dx < dy { -1 } else { 1 };
        }
        i = next_i;
        j = next_j;
    }
}

/// The offset of the first nonzero digit of the number at `v`.
const fn first_significant(b: &[u8], v: usize) -> usize {
    let mut i = v;
    while matches!(at(b, i), b'-' | b'0' | b'.') {
        i += 1;
    }
    i
}

/// The digit at `i` (past a point) and the offset after it; 0 and `i`
/// itself once the digits end.
const fn next_digit(b: &[u8], i: usize) -> (u8, usize) {
    let i = if at(b, i) == b'.' { i + 1 } else { i };
    let c = at(b, i);
    if c.is_ascii_digit() { (c - b'0', i + 1) } else { (0, i) }
}

/// The number at `v` is zero (all its digits are).
pub(super) const fn is_zero(b: &[u8], v: usize) -> bool {
    let (_, zero, _) = decimal(b, v);
    zero
}
