//! JSON number text to the nearest `f64`, bit for bit as `str::parse::<f64>`
//! reads it, in a fraction of the bytes: core's parser brings its
//! Eisel–Lemire power tables (a large data segment) into every module that
//! reads a float.
//!
//! Two paths, neither with a table:
//! - **Clinger's fast path.** A mantissa of at most 2^53 and a power of ten
//!   of at most 22 are both exact `f64`s, so one multiply or divide, which
//!   IEEE rounds correctly, gives the answer. That covers the short
//!   decimals requests carry (`19.99`, `0.25`, `-3e5`).
//! - **Exact decimal arithmetic otherwise** (the "simple decimal conversion"
//!   Go's `strconv` falls back on): the digits, up to [`MAX_DIGITS`] of them
//!   and a flag for any nonzero digit beyond, are halved or doubled by
//!   whole runs of bits, exactly, until the number is in [0.5, 1); then 53
//!   more doublings leave the mantissa as the integer part, rounded half to
//!   even from the digits after it. Slow (a few hundred passes over the
//!   digits at worst) and rare.
//!
//! 800 digits are enough: the halfway point between two adjacent `f64`s has
//! at most 767 significant digits, so a decimal that agrees with it on 800
//! and has something nonzero further on is above it.

/// Digits kept; see the module comment.
const MAX_DIGITS: usize = 800;

/// A nonnegative decimal `0.d[0]d[1]…d[nd-1] × 10^dp` (digits as values
/// 0–9, `d[0]` nonzero unless `nd` is 0, no trailing zeros after `trim`),
/// plus `trunc`: nonzero digits were dropped past the kept ones.
struct Decimal {
    d: [u8; MAX_DIGITS],
    nd: usize,
    dp: i64,
    trunc: bool,
}

impl Decimal {
    /// Digit `i`, 0 past the kept ones.
    fn digit(&self, i: usize) -> u64 {
        match self.d.get(i) {
            Some(&c) if i < self.nd => c as u64,
            _ => 0,
        }
    }

    /// Writes digit `v` at `i`, or notes it as dropped past the buffer.
    fn put(&mut self, i: usize, v: u64) {
        match self.d.get_mut(i) {
            Some(slot) => *slot = v as u8,
            None => self.trunc |= v != 0,
        }
    }

    fn trim(&mut self) {
        while self.nd > 0 && self.digit(self.nd - 1) == 0 {
            self.nd -= 1;
        }
    }

    /// Multiplies by 2^k, 1 ≤ k ≤ 60, from the last digit up. The product
    /// gains as many leading digits as the carry out of the top has, so a
    /// first pass counts them and the second writes.
    fn shl(&mut self, k: u32) {
        // The carry stays below 2^k: (2^k - 1) + 9·2^k < 10·2^k < 2^64.
        let mut n = 0u64;
        let mut r = self.nd;
        while r > 0 {
            r -= 1;
            n = (n + (self.digit(r) << k)) / 10;
        }
        let mut grow = 0;
        while n > 0 {
            n /= 10;
            grow += 1;
        }
        let mut r = self.nd;
        let mut w = self.nd + grow;
        while w > 0 {
            let mut v = n;
            if r > 0 {
                r -= 1;
                v += self.digit(r) << k;
            }
            w -= 1;
            self.put(w, v % 10);
            n = v / 10;
        }
        self.nd = (self.nd + grow).min(MAX_DIGITS);
        self.dp += grow as i64;
        self.trim();
    }

    /// Divides by 2^k, 1 ≤ k ≤ 60, from the first digit down, as long
    /// division (the running remainder stays below 10·2^k < 2^64).
    fn shr(&mut self, k: u32) {
        let mut r = 0;
        let mut n = 0u64;
        // Read digits until the first digit of the quotient is nonzero.
        while n >> k == 0 {
            if r >= self.nd && n == 0 {
                // Zero (never reached: zero is handled before any shift).
                self.nd = 0;
                return;
            }
            n = n * 10 + self.digit(r);
            r += 1;
        }
        self.dp -= r as i64 - 1;
        let mask = (1u64 << k) - 1;
        let mut w = 0;
        loop {
            self.put(w, n >> k);
            w += 1;
            n &= mask;
            if r >= self.nd && n == 0 {
                break;
            }
            // Past the digits, `digit` reads 0: each step sheds a bit of
            // `n`, so this ends within k steps.
            n = n * 10 + self.digit(r);
            r += 1;
        }
        self.nd = w.min(MAX_DIGITS);
        self.trim();
    }

    /// The integer part (at most 16 digits here), rounded half to even by
    /// the digits after it.
    fn rounded(&self) -> u64 {
        let mut n = 0u64;
        let mut i = 0;
        while (i as i64) < self.dp {
            n = n * 10 + self.digit(i);
            i += 1;
        }
        // The first digit after the point: 0 when the point is before the
        // digits (dp < 0).
        let next = if self.dp < 0 { 0 } else { self.digit(i) };
        // Trimmed: digits after `next` mean more than half.
        let up = next > 5 || next == 5 && (i + 1 < self.nd || self.trunc || n & 1 == 1);
        n + up as u64
    }
}

/// How many bits to shift by to move a decimal with decimal point `dp`
/// (in absolute value) towards [0.5, 1) without passing it:
/// ⌊dp · log2 10⌋ or a little less (850/256 < log2 10), at most 60.
fn shift_for(dp: i64) -> u32 {
    ((dp * 850) >> 8).clamp(1, 60) as u32
}

/// Reads JSON number text (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`)
/// as the nearest `f64`, ties to even: exactly what `str::parse::<f64>`
/// returns for it, ±infinity past `f64::MAX` and ±0 below the least
/// subnormal included. Other text reads as something, never a panic.
pub fn parse(text: &[u8]) -> f64 {
    let (negative, text) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let mut dec = Decimal { d: [0; MAX_DIGITS], nd: 0, dp: 0, trunc: false };
    let mut bytes = text.iter();
    let mut dot = false;
    while let Some(&c) = bytes.next() {
        match c {
            b'.' => dot = true,
            b'0'..=b'9' => {
                if c == b'0' && dec.nd == 0 {
                    // A leading zero: only moves the point, after it.
                    dec.dp -= dot as i64;
                } else {
                    dec.put(dec.nd, (c - b'0') as u64);
                    dec.nd = (dec.nd + 1).min(MAX_DIGITS);
                    dec.dp += !dot as i64;
                }
            }
            _ => {
                // `e` or `E`: the exponent, saturating far past where any
                // number is 0 or infinite whatever its digits (a length of
                // input beyond 10^12 digits is not to be had).
                let mut exp = 0i64;
                let mut sign = 1;
                for &c in bytes.by_ref() {
                    match c {
                        b'-' => sign = -1,
                        b'0'..=b'9' if exp < 1_000_000_000_000 => exp = exp * 10 + (c - b'0') as i64,
                        _ => {}
                    }
                }
                dec.dp = dec.dp.saturating_add(sign * exp);
            }
        }
    }
    dec.trim();
    let magnitude = magnitude(&mut dec);
    if negative { -magnitude } else { magnitude }
}

fn magnitude(dec: &mut Decimal) -> f64 {
    // 10^(dp-1) ≤ value < 10^dp.
    if dec.nd == 0 || dec.dp < -330 {
        return 0.0;
    }
    if dec.dp > 310 {
        return f64::INFINITY;
    }
    if dec.nd <= 19 && !dec.trunc {
        // value = w · 10^e, w < 10^19 < 2^64.
        let mut w = 0u64;
        for i in 0..dec.nd {
            w = w * 10 + dec.digit(i);
        }
        let mut e = dec.dp - dec.nd as i64;
        // 123e30 is 123000000000e22: still exact.
        while e > 22 && w <= (1 << 53) / 10 {
            w *= 10;
            e -= 1;
        }
        if w <= 1 << 53 && (-22..=22).contains(&e) {
            let mut p = 1.0;
            for _ in 0..e.unsigned_abs() {
                p *= 10.0;
            }
            let w = w as f64;
            return if e < 0 { w / p } else { w * p };
        }
    }
    // value = dec · 2^exp throughout.
    let mut exp: i64 = 0;
    while dec.dp > 0 {
        let k = shift_for(dec.dp);
        dec.shr(k);
        exp += k as i64;
    }
    while dec.nd > 0 && (dec.dp < 0 || dec.dp == 0 && dec.digit(0) < 5) {
        let k = shift_for(-dec.dp);
        dec.shl(k);
        exp -= k as i64;
    }
    // dec in [0.5, 1): value = (2·dec) · 2^(exp-1), 2·dec in [1, 2).
    exp -= 1;
    if exp < -1022 {
        // Subnormal: the mantissa loses the bits below 2^-1074.
        let mut n = -1022 - exp;
        while n > 0 {
            let k = n.min(60);
            dec.shr(k as u32);
            n -= k;
        }
        exp = -1022;
    }
    dec.shl(53);
    let mut mantissa = dec.rounded();
    if mantissa == 2 << 52 {
        // Rounded up to the next power of two.
        mantissa >>= 1;
        exp += 1;
    }
    if exp > 1023 {
        return f64::INFINITY;
    }
    if mantissa >> 52 == 0 {
        // Subnormal (or rounded to zero): the biased exponent is 0.
        exp = -1023;
    }
    f64::from_bits(mantissa & ((1 << 52) - 1) | ((exp + 1023) as u64) << 52)
}
