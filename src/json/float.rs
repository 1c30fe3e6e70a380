//! Exact decimal arithmetic for floats both ways, in a fraction of the
//! bytes of core's and ryu's table-driven code.
//!
//! **Reading**: JSON number text to the nearest `f64`, bit for bit as
//! `str::parse::<f64>` reads it. Core's parser brings its Eisel–Lemire power
//! tables (a large data segment) into every module that reads a float.
//! Two paths, neither with a table:
//! - **Clinger's fast path.** A mantissa of at most 2^53 and a power of ten
//!   of at most 22 are both exact `f64`s, so one multiply or divide, which
//!   IEEE rounds correctly, gives the answer. That covers the short
//!   decimals requests and records carry (`19.99`, `0.25`, `-3e5`). One
//!   with no exponent and at most 15 characters is read straight from its
//!   text, before the exact path's digits are cleared: clearing them costs
//!   more than reading it.
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
//!
//! **Writing** ([`shortest`]): the fewest significant digits that read back
//! as a given `f64`, and of those the nearest to it (ties to even), as ryu
//! finds them, without its tables and with the reader's own code: the
//! value's exact digits (at most 767, so nothing is ever dropped) are
//! rounded to 1 digit, 2, and so on, and each is read back until one gives
//! the same bits. A length is passed over unread when its first digit cut
//! off shows that it is too far from the value to read back as it, so an
//! everyday number reads back once or twice, on the reader's fast path. At
//! the extremes of the range the last lengths read back through the exact
//! arithmetic: a few times the cost of one such read.

/// Digits kept; see the module comment.
const MAX_DIGITS: usize = 800;

/// A nonnegative decimal `0.d[0]d[1]…d[nd-1] × 10^dp` (digits as values
/// 0–9, `d[0]` nonzero unless `nd` is 0, no trailing zeros after `trim`),
/// plus `trunc`: nonzero digits were dropped past the kept ones.
#[derive(Clone)]
pub(super) struct Decimal {
    d: [u8; MAX_DIGITS],
    /// How many digits there are.
    pub(super) nd: usize,
    /// Where the decimal point is: 10^(dp-1) ≤ value < 10^dp.
    pub(super) dp: i64,
    trunc: bool,
}

impl Decimal {
    /// `v · 2^k`, exactly (as long as that has at most [`MAX_DIGITS`]
    /// digits, as every `f64` and halfway point between two has).
    fn of(v: u64, k: i64) -> Decimal {
        let mut dec = Decimal { d: [0; MAX_DIGITS], nd: 0, dp: 0, trunc: false };
        for &c in crate::bytes::u64_digits(v, &mut [0; 20]) {
            dec.put(dec.nd, (c - b'0') as u64);
            dec.nd += 1;
        }
        dec.dp = dec.nd as i64;
        dec.trim();
        dec.shift(k);
        dec
    }

    /// Digit `i` (a value, 0–9), 0 past the kept ones and before the first
    /// (an index below zero, wrapped, is past them too).
    pub(super) fn digit(&self, i: usize) -> u64 {
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

    /// Multiplies a nonzero decimal by 2^k, any k, in runs of at most 60 bits.
    fn shift(&mut self, mut k: i64) {
        while k != 0 {
            let step = k.clamp(-60, 60);
            if step > 0 {
                self.shl(step as u32);
            } else {
                self.shr(-step as u32);
            }
            k -= step;
        }
    }

    /// Whether cutting to the first `n` digits rounds up, half to even: the
    /// digits from `n` on are more than half a unit of the last kept one,
    /// or exactly half and that digit odd.
    fn rounds_up(&self, n: usize) -> bool {
        let next = self.digit(n);
        // Trimmed: digits after `next` mean more than half.
        next > 5 || next == 5 && (n + 1 < self.nd || self.trunc || self.digit(n.wrapping_sub(1)) & 1 == 1)
    }

    /// Cuts to the first `n` digits (`n` ≤ `nd`) and adds one unit of the
    /// last: `0.1299` at 3 digits is `0.13`, `0.999` at 2 is `1.0`.
    fn round_up(&mut self, n: usize) {
        let mut i = n;
        while i > 0 {
            i -= 1;
            let c = self.digit(i);
            if c < 9 {
                self.put(i, c + 1);
                self.nd = i + 1;
                return;
            }
        }
        // All nines: one digit, a place up.
        self.put(0, 1);
        self.nd = 1;
        self.dp += 1;
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
        // When the point is before the digits (dp < 0), all of them are
        // less than half.
        n + (self.dp >= 0 && self.rounds_up(i)) as u64
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
    read::<false>(text).unwrap_or(0.0)
}

/// Reads the numbers of core's float grammar as `str::parse::<f64>` does
/// (`[+-]?` then digits with at most one `.` and at least one digit, then
/// optionally `[eE][+-]?[0-9]+`, or after the sign `inf`, `infinity` or
/// `nan` in any case); `None` for other text.
pub(crate) fn parse_checked(text: &[u8]) -> Option<f64> {
    read::<true>(text)
}

/// [`parse`] (`CHECKED` false: the text is known to be a number) and
/// [`parse_checked`], one loop: a module that reads both ways has two
/// copies of it, and one of the arithmetic after it.
fn read<const CHECKED: bool>(text: &[u8]) -> Option<f64> {
    let (negative, text) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) if CHECKED => (false, rest),
        _ => (false, text),
    };
    // Most numbers are short decimals (see the module comment).
    let quick = short_decimal(text);
    if quick >= 0.0 {
        return Some(if negative { -quick } else { quick });
    }
    let mut dec = Decimal { d: [0; MAX_DIGITS], nd: 0, dp: 0, trunc: false };
    let mut bytes = text.iter();
    let mut dot = false;
    let mut digits = false;
    while let Some(&c) = bytes.next() {
        match c {
            b'.' => {
                if CHECKED && dot {
                    return None;
                }
                dot = true;
            }
            b'0'..=b'9' => {
                digits = true;
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
                if CHECKED && c | 0x20 != b'e' {
                    // Core's words, alone after the sign and in any case:
                    // the bytes, each `| 0x20` (which lowercases letters and
                    // makes no other byte a letter), as one number.
                    let rest = bytes.as_slice();
                    let mut word = (c | 0x20) as u64;
                    for &c in rest {
                        word = word << 8 | (c | 0x20) as u64;
                    }
                    let magnitude = match (digits || dot, rest.len(), word) {
                        (false, 2, 0x69_6E66) | (false, 7, 0x696E_6669_6E69_7479) => f64::INFINITY,
                        (false, 2, 0x6E_616E) => f64::NAN,
                        _ => return None,
                    };
                    return Some(if negative { -magnitude } else { magnitude });
                }
                // `e` or `E`: the exponent, saturating far past where any
                // number is 0 or infinite whatever its digits (a length of
                // input beyond 10^12 digits is not to be had).
                let mut exp = 0i64;
                let mut sign = 1;
                // Checked: a sign only first, then at least one digit.
                let mut exponent_digits = false;
                let mut at = 0;
                // A counter of its own: `enumerate` here makes modules larger.
                #[allow(clippy::explicit_counter_loop)]
                for &c in bytes.by_ref() {
                    match c {
                        b'-' | b'+' if CHECKED && at > 0 => return None,
                        b'-' => sign = -1,
                        b'0'..=b'9' => {
                            exponent_digits = true;
                            if exp < 1_000_000_000_000 {
                                exp = exp * 10 + (c - b'0') as i64;
                            }
                        }
                        b'+' => {}
                        _ if CHECKED => return None,
                        _ => {}
                    }
                    at += 1;
                }
                if CHECKED && !exponent_digits {
                    return None;
                }
                dec.dp = dec.dp.saturating_add(sign * exp);
            }
        }
    }
    if CHECKED && !digits {
        return None;
    }
    dec.trim();
    let magnitude = magnitude(&mut dec);
    Some(if negative { -magnitude } else { magnitude })
}

/// Clinger's fast path straight from the text: `digits` or
/// `digits.digits` (either side may be empty, not both), at most 15 bytes
/// in all: the digits as an integer (below 10^15, under 2^53) and the
/// power of ten to divide it by are exact `f64`s, so their quotient, which
/// IEEE rounds correctly, is the answer. -1 for anything else.
#[inline(never)]
fn short_decimal(text: &[u8]) -> f64 {
    if text.len() > 15 {
        return -1.0;
    }
    let (mut w, mut p, mut dot) = (0u64, 1.0, false);
    for &c in text {
        let digit = c.wrapping_sub(b'0');
        if c == b'.' && !dot {
            dot = true;
        } else if digit <= 9 {
            w = w * 10 + digit as u64;
            if dot {
                p *= 10.0;
            }
        } else {
            return -1.0;
        }
    }
    if text.len() == dot as usize {
        return -1.0;
    }
    w as f64 / p
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
        dec.shift(exp + 1022);
        exp = -1022;
    }
    dec.shift(53);
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

/// `|x| = m × 2^e` exactly, for a finite `x`: its significand with the
/// hidden bit (none for a subnormal) and the exponent of its last bit
/// (for NaN and infinities, e = 972).
#[inline(always)]
pub(crate) const fn significand_exponent(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let biased = (bits >> 52 & 0x7FF) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) }
}

/// The shortest decimal that reads back as the positive finite `f64` with
/// bits `bits` (sign clear, not zero): fewest digits, then nearest to it,
/// then even, as ryu finds it, with the reader's own code in place of
/// ryu's tables. Each length in turn, from 1: the value's exact digits
/// rounded to it, read back with [`magnitude`]. Only the two decimals of a
/// length either side of the value can read back as it (the others are
/// further out), so the nearer is tried and then the other, which wins
/// only next to a power of two, where the halfway point below is twice as
/// close.
pub(super) fn shortest(bits: u64) -> Decimal {
    // x = mant · 2^e: the next f64 up is 2^e further.
    let (mant, e) = significand_exponent(f64::from_bits(bits));
    let e = i64::from(e);
    let exact = Decimal::of(mant, e);
    let mut n = 1;
    while n < exact.nd {
        // The digits cut off are a run of the first one (none past it, when
        // it is 1 to 8; 0s or 9s, else), then a digit `k` that is neither:
        // both decimals of this length are at least a unit of digit `k`,
        // 10^a, from the value. At 2^e or more that is past the halfway
        // points, so neither reads back and neither is tried. ⌊a·log2 10⌋
        // from below: 850/256 is under log2 10 and 851/256 over it, for `a`
        // either side of 0.
        let first = exact.digit(n);
        let mut k = n;
        while k < exact.nd && exact.digit(k) == first && (first == 0 || first == 9) {
            k += 1;
        }
        let a = exact.dp - k as i64 - 1;
        let too_far = k < exact.nd && (a * if a < 0 { 851 } else { 850 }) >> 8 >= e;
        if !too_far {
            // The nearer first.
            let mut up = exact.rounds_up(n);
            for _ in 0..2 {
                let mut d = exact.clone();
                if up {
                    d.round_up(n);
                } else {
                    d.nd = n;
                    d.trim();
                }
                if magnitude(&mut d.clone()).to_bits() == bits {
                    return d;
                }
                up = !up;
            }
        }
        n += 1;
    }
    exact
}
