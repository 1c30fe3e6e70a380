//! Floats both ways with a small table (eighteen 128-bit powers of ten)
//! where core's and ryu's bring kilobytes.
//!
//! **Reading**: JSON number text to the nearest `f64`, bit for bit as
//! `str::parse::<f64>` reads it. Core's parser brings its Eisel–Lemire power
//! tables (a large data segment) into every module that reads a float.
//! Three paths:
//! - **Clinger's fast path.** A mantissa of at most 2^53 and a power of ten
//!   of at most 22 are both exact `f64`s, so one multiply or divide, which
//!   IEEE rounds correctly, gives the answer. That covers the short
//!   decimals requests and records carry (`19.99`, `0.25`, `-3e5`). One
//!   with no exponent and at most 15 characters is read straight from its
//!   text; the others give their first 19 digits as an integer as they are
//!   read, eight at a time where they run on (a computed value has
//!   seventeen).
//! - **A 128-bit product** (Clinger's "Bellerophon", wider) for the rest:
//!   the first 19 digits times the power of ten, made of at most nine of
//!   the table's, with a bound on the error; it settles every number but
//!   those within that error of a halfway point between two `f64`s.
//! - **Exact decimal arithmetic for those** (the "simple decimal
//!   conversion" Go's `strconv` falls back on): the digits, read again
//!   from the text into a buffer only then (wasmtime charges its clearing
//!   by the byte, more than reading a number costs), up to
//!   [`MAX_DIGITS`] of them and a flag for any nonzero digit beyond, are
//!   halved or doubled by whole runs of bits, exactly, until the number is
//!   in [0.5, 1); then 53 more doublings leave the mantissa as the integer
//!   part, rounded half to even from the digits after it. Slow (a few
//!   hundred passes over the digits at worst) and rare.
//!
//! 800 digits are enough: the halfway point between two adjacent `f64`s has
//! at most 767 significant digits, so a decimal that agrees with it on 800
//! and has something nonzero further on is above it.
//!
//! **Writing**: the fewest significant digits that read back as a given
//! `f64`, and of those the nearest to it (ties to even), as ryu finds them,
//! without its tables and with the reader's own code. A number of up to 15
//! digits under 2^52 ([`short_shortest`]) is rounded at one place after the
//! point after another, and read back by Clinger's fast path, a division,
//! until it reads back as itself. For the others ([`product_shortest`]),
//! the value's first 18 or 19 digits, from the same 128-bit product, are
//! cut to 1 digit, 2, and so on, and the two candidates of each length
//! near enough to the value are read back until one gives the same bits:
//! an everyday number reads back once or twice. Where the product cannot
//! tell ([`shortest`]), the digits are exact and every length is read back.
//! tests/float_costs.rs counts how seldom the exact arithmetic runs either
//! way.

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
        let mut buf = [0; 20];
        let digits = crate::bytes::u64_digits(v, &mut buf);
        let mut dec = Decimal::read(digits, digits.len() as i64);
        dec.shift(k);
        dec
    }

    /// The digits of number text (`text`, its sign off) before any
    /// exponent, its point at `dp`: its `.` and leading zeros left out.
    fn read(text: &[u8], dp: i64) -> Decimal {
        let mut dec = Decimal { d: [0; MAX_DIGITS], nd: 0, dp, trunc: false };
        for &c in text {
            if c | 0x20 == b'e' {
                break;
            }
            let digit = c.wrapping_sub(b'0');
            if digit <= 9 && (digit as usize | dec.nd) != 0 {
                dec.put(dec.nd, digit as u64);
                dec.nd = (dec.nd + 1).min(MAX_DIGITS);
            }
        }
        dec.trim();
        dec
    }

    /// The kept digits, as values 0–9.
    pub(super) fn digits(&self) -> &[u8] {
        self.d.get(..self.nd).unwrap_or_default()
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
    // The first 19 significant digits as an integer (under 10^19 < 2^64),
    // whether a nonzero one follows them, how many there are, and where the
    // point is (10^(dp-1) ≤ value < 10^dp): enough for the fast path and
    // the product. Only the exact arithmetic needs the digits themselves,
    // and it reads them again from the text: an 800-digit buffer cleared
    // for every number cost more than reading most numbers.
    let (mut w, mut n, mut dp, mut inexact) = (0u64, 0usize, 0i64, false);
    let mut bytes = text.iter();
    let mut dot = false;
    let mut digits = false;
    // Where a run of significant digits may start: after the first, and
    // after the point when one came before it.
    let mut run = false;
    while let Some(&c) = bytes.next() {
        match c {
            b'.' => {
                if CHECKED && dot {
                    return None;
                }
                dot = true;
                run = n > 0;
            }
            b'0'..=b'9' => {
                digits = true;
                if c == b'0' && n == 0 {
                    // A leading zero: only moves the point, after it.
                    dp -= dot as i64;
                } else {
                    if n < 19 {
                        w = w * 10 + (c - b'0') as u64;
                    } else {
                        inexact |= c != b'0';
                    }
                    n += 1;
                    dp += !dot as i64;
                    run = n == 1;
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
                dp = dp.saturating_add(sign * exp);
            }
        }
        // Then eight digits at a time while they fit in `w`: a byte at a
        // time costs tens of wasm operations a digit, and a computed value
        // has seventeen.
        while run
            && n <= 11
            && let Some((chunk, rest)) = bytes.as_slice().split_first_chunk::<8>()
            && let eight = eight_digits(chunk)
            && eight != NOT_DIGITS
        {
            w = w * 100_000_000 + eight;
            n += 8;
            dp += 8 * !dot as i64;
            bytes = rest.iter();
        }
        run = false;
    }
    if CHECKED && !digits {
        return None;
    }
    let magnitude = if n == 0 || dp < -330 {
        0.0
    } else if dp > 310 {
        f64::INFINITY
    } else {
        // `w · 10^e` plus what the digits past `w` add.
        let x = from_parts(w, inexact, dp - n.min(19) as i64);
        if x >= 0.0 { x } else { nearest(&mut Decimal::read(text, dp)) }
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// Eight ASCII digits as their number, first digit first (SWAR: the eight
/// bytes as one little-endian word, paired and summed in three
/// multiplications); [`NOT_DIGITS`] unless all eight are digits (a
/// sentinel, not an `Option`, which wasm returns through memory).
fn eight_digits(bytes: &[u8; 8]) -> u64 {
    let v = u64::from_le_bytes(*bytes).wrapping_sub(0x3030_3030_3030_3030);
    // Each byte now 0–9: neither it nor it plus 0x76 reaches 0x80. A byte
    // that borrows or carries into the next is out of range itself, and
    // the lowest one out of range is seen as it is.
    if (v | v.wrapping_add(0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080 != 0 {
        return NOT_DIGITS;
    }
    let v = v.wrapping_mul(10 << 8 | 1) >> 8;
    let v = (v & 0x00FF_00FF_00FF_00FF).wrapping_mul(100 << 16 | 1) >> 16;
    (v & 0x0000_FFFF_0000_FFFF).wrapping_mul(10_000 << 32 | 1) >> 32
}

/// What [`eight_digits`] answers for bytes that are not all digits.
const NOT_DIGITS: u64 = u64::MAX;

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

/// `w · 10^e` (plus less than one unit of `w` when `inexact`) as the
/// nearest `f64`, when Clinger's fast path or the 128-bit product settles
/// it: -1 when only the exact arithmetic can (a sign, not an `Option`,
/// which wasm returns through memory).
fn from_parts(w: u64, inexact: bool, e: i64) -> f64 {
    if !inexact {
        // A whole number of up to 19 digits (`12345678901234567`): its
        // conversion rounds to nearest, ties to even, as the reader must
        // (halfway between two f64s, the product could not tell).
        if e == 0 {
            return w as f64;
        }
        // 123e30 is 123000000000e22: still exact.
        let (mut w, mut e) = (w, e);
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
    // The 128-bit product, with a bound on its error: the answer unless the
    // value is too close to a halfway point between two f64s to tell which
    // side.
    approximate(w, inexact, e)
}

/// A nonzero [`Decimal`] (a candidate of [`shortest`]) as the nearest
/// `f64`.
#[inline(never)]
fn magnitude(dec: &mut Decimal) -> f64 {
    // value = w · 10^e, w the first 19 digits (w < 10^19 < 2^64): exactly,
    // unless more digits follow.
    let n = dec.nd.min(19);
    let mut w = 0u64;
    for i in 0..n {
        w = w * 10 + dec.digit(i);
    }
    let inexact = dec.nd > n || dec.trunc;
    let x = from_parts(w, inexact, dec.dp - n as i64);
    if x >= 0.0 { x } else { nearest(dec) }
}

/// A [`Decimal`] (nonzero, and no further than a digit or two outside
/// `f64`'s range) as the nearest `f64`, by the exact arithmetic.
fn nearest(dec: &mut Decimal) -> f64 {
    #[cfg(not(target_arch = "wasm32"))]
    EXACT_RUNS.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
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

/// How many times the exact arithmetic has run (a read that the 128-bit
/// product left open, or a write's exact digits), on the host: for
/// tests/float_costs.rs, which holds it to the few cases that need it. Not
/// on wasm32, where nothing reads it.
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub static EXACT_RUNS: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(0);

/// 10^(2^i) (`POWERS[0]`) and 10^-(2^i) (`POWERS[1]`), i from 0 to 8, each
/// as `m · 2^e` with `m` in [2^127, 2^128) (its high and low words),
/// rounded to nearest: within half a unit of `m`'s last bit, exact to
/// 10^16. `e` is ⌊±2^i · log2 10⌋ - 127 (217706 / 2^16 for log2 10 gives
/// it for these eighteen); the test below checks both.
#[rustfmt::skip]
const POWERS: [[(u64, u64); 9]; 2] = [
    [
        (0xA000_0000_0000_0000, 0x0000_0000_0000_0000),
        (0xC800_0000_0000_0000, 0x0000_0000_0000_0000),
        (0x9C40_0000_0000_0000, 0x0000_0000_0000_0000),
        (0xBEBC_2000_0000_0000, 0x0000_0000_0000_0000),
        (0x8E1B_C9BF_0400_0000, 0x0000_0000_0000_0000),
        (0x9DC5_ADA8_2B70_B59D, 0xF020_0000_0000_0000),
        (0xC278_1F49_FFCF_A6D5, 0x3CBF_6B71_C76B_25FB),
        (0x93BA_47C9_80E9_8CDF, 0xC66F_336C_36B1_0137),
        (0xAA7E_EBFB_9DF9_DE8D, 0xDDBB_901B_98FE_EAB8),
    ],
    [
        (0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCD),
        (0xA3D7_0A3D_70A3_D70A, 0x3D70_A3D7_0A3D_70A4),
        (0xD1B7_1758_E219_652B, 0xD3C3_6113_404E_A4A9),
        (0xABCC_7711_8461_CEFC, 0xFDC2_0D2B_36BA_7C3D),
        (0xE695_94BE_C44D_E15B, 0x4C2E_BE68_7989_A9B4),
        (0xCFB1_1EAD_4539_94BA, 0x67DE_18ED_A581_4AF2),
        (0xA87F_EA27_A539_E9A5, 0x3F23_98D7_47B3_6224),
        (0xDDD0_467C_64BC_E4A0, 0xAC7C_B3F6_D05D_DBDF),
        (0xC031_4325_637A_1939, 0xFA91_1155_FEFB_5309),
    ],
];

/// `x · y` as 128 bits: (high, low) words.
const fn mul_wide(x: u64, y: u64) -> (u64, u64) {
    let product = x as u128 * y as u128;
    ((product >> 64) as u64, product as u64)
}

/// A positive number `(high · 2^64 + low) · 2^e`, `high` at least 2^63,
/// with a bound on its error relative to it, in units of 2^-120.
#[derive(Clone, Copy)]
struct Wide {
    high: u64,
    low: u64,
    e: i32,
    err: u64,
}

impl Wide {
    /// The top 128 bits of `self · (high, low)` (`low` 0 for a 64-bit
    /// factor), normalized: the bits dropped and the carries not counted
    /// are a few units of the last bit, which `err` takes in.
    fn times(self, high: u64, low: u64, e: i32) -> Wide {
        let (h1, h0) = mul_wide(self.high, high);
        let (m1, m0) = mul_wide(self.high, low);
        let (n1, n0) = mul_wide(self.low, high);
        let (mid, c1) = h0.overflowing_add(m1);
        let (mid, c2) = mid.overflowing_add(n1);
        let (mid, c3) = mid.overflowing_add(m0.overflowing_add(n0).1 as u64);
        let mut w =
            Wide { high: h1 + c1 as u64 + c2 as u64 + c3 as u64, low: mid, e: self.e + e + 128, err: self.err + 1 };
        if w.high >> 63 == 0 {
            w.high = w.high << 1 | w.low >> 63;
            w.low <<= 1;
            w.e -= 1;
        }
        w
    }
}

/// 10^q, |q| below 512, as a product of [`POWERS`].
fn power_of_ten(q: i64) -> Wide {
    let mut w = Wide { high: 1 << 63, low: 0, e: -127, err: 0 };
    let mut k = q.unsigned_abs();
    let mut step = q.signum();
    for &(high, low) in &POWERS[(q < 0) as usize] {
        if k & 1 == 1 {
            let e = ((step * 217_706) >> 16) as i32 - 127;
            // The first factor as it is (1 times it is a product to spare).
            w = if w.err == 0 { Wide { high, low, e, err: 1 } } else { w.times(high, low, e) };
        }
        k >>= 1;
        step *= 2;
    }
    w
}

/// `w · 10^q` (plus less than one unit of `w` when `inexact`) as the
/// nearest `f64`, when a 128-bit product settles it (Clinger's
/// "Bellerophon", wider): -1 when the bits below the `f64`'s last are
/// within the product's error of half of one (the exact arithmetic
/// decides then), or the result is past `f64::MAX`.
fn approximate(w: u64, inexact: bool, q: i64) -> f64 {
    let s = w.leading_zeros();
    let mut x = power_of_ten(q).times(w << (s & 63), 0, -(s as i32) - 64);
    // `w`'s digits cut short: under one unit of a 19-digit `w` (over 2^59).
    if inexact {
        x.err += 1 << 61;
    }
    // The bits below the last one kept, from their top, in units of 2^-64 of
    // that bit: 75 of them for a normal number (53 kept of 128), more for a
    // subnormal, whose last bit is 2^-1074. The error there is at most
    // err · 2^-120 · 2^128 · 2^-75 of those units.
    let shift = (-1074 - x.e).max(75);
    if w == 0 || shift > 127 {
        return -1.0;
    }
    let below = x.high << (128 - shift) | x.low >> (shift - 64);
    if below.abs_diff(1 << 63) <= (x.err >> 3) + 2 {
        return -1.0;
    }
    let mut mantissa = (x.high >> (shift - 64)) + (below >> 63);
    if shift > 75 {
        // Subnormal: the exponent field is 0, or 1 when rounding up reached
        // the least normal number (its bit 52 set).
        return f64::from_bits(mantissa);
    }
    let mut biased = x.e + 64 + 11 + 52 + 1023;
    if mantissa >> 53 != 0 {
        mantissa >>= 1;
        biased += 1;
    }
    if (1..=2046).contains(&biased) { f64::from_bits(mantissa & ((1 << 52) - 1) | (biased as u64) << 52) } else { -1.0 }
}

/// The first 18 or 19 digits of `mant · 2^e`, from a 128-bit product, as
/// a [`Decimal`] whose digits cut short are marked (`trunc`): for
/// [`shortest`], which rounds them to each length as it would the exact
/// ones, and gets the same roundings, since the value is strictly inside
/// the last digit's unit. `None` when the product cannot tell that (the
/// value is within its error of a whole number of those units, or
/// exactly on one): then the exact digits, which at the ends of the range
/// take hundreds of passes over hundreds of them.
fn first_digits(mant: u64, e: i64) -> Option<Decimal> {
    let (digits, exp, near) = product_digits(mant, e)?;
    if near {
        return None;
    }
    let mut d = Decimal::of(digits, 0);
    // Every digit, the zeros at the end too: more follow.
    d.nd = d.dp as usize;
    d.dp += exp;
    d.trunc = true;
    Some(d)
}

/// [`first_digits`] as an integer `D` and a power of ten `E`, `D` in
/// [10^17, 2 · 10^18]: `mant · 2^e` is strictly between `D · 10^E` and
/// `(D + 1) · 10^E`, or (with `true`) within a small part of a unit of
/// `D · 10^E`, either side or on it.
fn product_digits(mant: u64, e: i64) -> Option<(u64, i64, bool)> {
    // 10^k ≤ x < 2 · 10^(k+1), from x's top bit b: k = ⌊b · log10 2⌋.
    let s = mant.leading_zeros();
    let k = ((e + 63 - i64::from(s)) * 78913) >> 18;
    // D = x · 10^(17-k), in [10^17, 2 · 10^18): its integer part and the 64
    // bits after its point.
    let x = power_of_ten(17 - k).times(mant << (s & 63), 0, e as i32 - s as i32 - 64);
    let shift = -(x.e + 64);
    if !(1..64).contains(&shift) {
        return None;
    }
    let frac = x.high << (64 - shift) | x.low >> shift;
    // The error in units of `frac`: err · 2^-120 · D · 2^64, D under 2^61.
    let slack = x.err * 32 + 2;
    // Within it of a whole unit, the value is near D (or D + 1), on either
    // side or on it.
    let up = frac >= slack.wrapping_neg();
    Some(((x.high >> shift) + up as u64, k - 17, up || frac <= slack))
}

/// [`shortest`] for a positive finite `x` the short path leaves, from the
/// 128-bit product's first digits `D` ([`product_digits`]) as an integer:
/// `Ok((c, e))` for `c · 10^e`, or `Err(n)` to leave it to [`shortest`]
/// from length `n` on (the product cannot tell, or a read back cannot; no
/// shorter length reads back). For each length, the two candidates are
/// `D` cut there and that plus one; the value is strictly inside, so the
/// nearer is plain and there is no tie. A candidate further from `x` than
/// half the gap to the next `f64` cannot read back: that gap is `x / mant`
/// (`2^e`), under `(D + 1) / mant` units of `D`, so one at least
/// `D / (2 · mant) + 1` units away is passed over unread. The rest are
/// read back with [`from_parts`], the nearer first.
pub(super) fn product_shortest(x: f64) -> Result<(u64, i64), usize> {
    let (mant, e) = significand_exponent(x);
    let (d, exp, near) = product_digits(mant, i64::from(e)).ok_or(1usize)?;
    // Over D / (2 · mant) + 1 (`max`: a divisor that is not 0, so the
    // division cannot panic).
    let reach = (d >> 1) / mant.max(1) + 2;
    // Length n of D's L digits (18 or 19): p = 10^(L-n), candidates in
    // units of p.
    let long = d >= 1_000_000_000_000_000_000;
    let mut p: u64 = if long { 1_000_000_000_000_000_000 } else { 100_000_000_000_000_000 };
    let mut scale = exp + 17 + long as i64;
    let mut n = 1;
    while p > 1 {
        let q = d / p.max(1);
        let r = d - q * p;
        // x is above q by r and a fraction of a unit, below q + 1 by the
        // rest: more than `above`. Near D, x is within a fraction of a unit
        // of r above q, and halfway between them is a tie for [`shortest`].
        let above = p - r - 1;
        if near && r == above + 1 {
            return Err(n);
        }
        let mut up = r >= above;
        for _ in 0..2 {
            if (if up { above } else { r.saturating_sub(near as u64) }) < reach {
                let c = q + up as u64;
                let y = from_parts(c, false, scale);
                if y == x {
                    return Ok((c, scale));
                }
                if y < 0.0 {
                    return Err(n);
                }
            }
            up = !up;
        }
        p /= 10;
        scale -= 1;
        n += 1;
    }
    Err(n)
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

/// [`shortest`] for the numbers tools write most (`19.99`, `0.25`, `3.0`,
/// `1e-7`: positive, under 2^52, at most 22 digits after the point), by
/// Clinger's fast path instead of the 128-bit product and whole decimals
/// read back: `(m, -d)` for `m · 10^-d`, or `None` to leave it to
/// [`shortest`]. With `d` digits after the point, for `d` from 0 up: an
/// integer `m` under 2^53 reads back as `m / 10^d`, one correctly rounded
/// division of exact `f64`s. What reads back lies between the halfway
/// points around `x`, less than one unit of `x · 10^d` apart while that is
/// under 2^52 (an `f64` there is at least 2^52 units of its last bit), so
/// at most one integer does: the first `d` with one has the fewest digits,
/// and no other of that length reads back. Only the rounded product is
/// tried; under 2^50 (15 digits) it is that integer when there is one
/// (the test below checks), nearer 2^52 it may be off by one, and
/// [`shortest`] answers.
pub(super) fn short_shortest(x: f64) -> Option<(u64, i64)> {
    const TWO_52: f64 = (1u64 << 52) as f64;
    let mut scale = 1.0;
    for d in 0..23 {
        let y = x * scale;
        if y >= TWO_52 {
            return None;
        }
        // The nearest integer, ties to even: the sum is where an f64's
        // last bit is a unit, and rounds there.
        let m = (y + TWO_52) - TWO_52;
        if m / scale == x {
            return Some((m as u64, -d));
        }
        scale *= 10.0;
    }
    None
}

/// The shortest decimal that reads back as the positive finite `f64` with
/// bits `bits` (sign clear, not zero): fewest digits, then nearest to it,
/// then even as ryu breaks a tie, or up (`ties_up`) as std's `Display`
/// does, for what [`short_shortest`] and [`product_shortest`] leave
/// (a value the product cannot place strictly inside a unit of its digits,
/// or a candidate it cannot read back). Each length in turn: the
/// value's digits (its first 18 or 19 from [`first_digits`], or where that
/// cannot tell, all of them) rounded to it, read back with [`magnitude`],
/// from length `from` on.
/// Only the two decimals of a length either side of the value can read
/// back as it (the others are further out), so the nearer is tried and
/// then the other, which wins only next to a power of two, where the
/// halfway point below is twice as close.
pub(super) fn shortest(bits: u64, from: usize, ties_up: bool) -> Decimal {
    // x = mant · 2^e: the next f64 up is 2^e further.
    let (mant, e) = significand_exponent(f64::from_bits(bits));
    let e = i64::from(e);
    let exact = first_digits(mant, e).unwrap_or_else(|| {
        #[cfg(not(target_arch = "wasm32"))]
        EXACT_RUNS.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
        Decimal::of(mant, e)
    });
    let mut n = from;
    while n < exact.nd {
        // The nearer first.
        let mut up = exact.rounds_up(n) || ties_up && exact.digit(n) == 5 && n + 1 == exact.nd && !exact.trunc;
        for _ in 0..2 {
            // A candidate is its digits: none dropped past them.
            let mut d = Decimal { trunc: false, ..exact.clone() };
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
        n += 1;
    }
    exact
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// A big number's top 128 bits, rounded to nearest (ties up), and the
    /// exponent of their last bit: limbs little-endian, the top one nonzero.
    fn top_128(limbs: &[u64]) -> (u64, u64, i64) {
        let bits = (limbs.len() * 64 - limbs.last().unwrap().leading_zeros() as usize) as i64;
        let bit = |i: i64| if i < 0 { 0 } else { limbs[i as usize / 64] >> (i % 64) & 1 };
        let (mut high, mut low) = (0u64, 0u64);
        for i in (bits - 128..bits).rev() {
            high = high << 1 | low >> 63;
            low = low << 1 | bit(i);
        }
        let e = bits - 128;
        if bit(bits - 129) == 1 {
            let (l, carry) = low.overflowing_add(1);
            low = l;
            high += carry as u64;
        }
        (high, low, e)
    }

    fn times_small(limbs: &mut Vec<u64>, f: u64) {
        let mut carry = 0u128;
        for limb in limbs.iter_mut() {
            let v = *limb as u128 * f as u128 + carry;
            *limb = v as u64;
            carry = v >> 64;
        }
        if carry > 0 {
            limbs.push(carry as u64);
        }
    }

    fn divide_small(limbs: &mut Vec<u64>, d: u64) {
        let mut rem = 0u128;
        for limb in limbs.iter_mut().rev() {
            let v = rem << 64 | *limb as u128;
            *limb = (v / d as u128) as u64;
            rem = v % d as u128;
        }
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
    }

    /// Each of [`POWERS`] is its power of ten rounded to 128 bits: 10^k
    /// multiplied out, and 10^-k as 2^n / 10^k for an `n` that leaves
    /// over 128 bits (the rounding's remainder then shows in the bits kept).
    /// A decimal of at most 15 digits, at most 22 of them after the point,
    /// takes the short path and comes out as written.
    #[test]
    fn short_decimals_take_the_short_path() {
        let mut seed = 0x5407_7E57_u64;
        for _ in 0..200_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let digits = 1 + (seed >> 33) % 15;
            let mut m = (seed >> 8) % 10u64.pow(digits as u32);
            while m > 0 && m.is_multiple_of(10) {
                m /= 10;
            }
            if m == 0 {
                continue;
            }
            let d = ((seed >> 40) % 23) as i64;
            let x: f64 = std::format!("{m}e-{d}").parse().unwrap();
            // Its fewest digits: m has no zero at its end.
            assert_eq!(short_shortest(x), Some((m, -d)), "{m}e-{d}");
        }
    }

    /// A float of any exponent, subnormals included, is written by one of
    /// the two quick paths, all but a few in a thousand; those are left to
    /// [`shortest`] late, where a length cannot be settled by a read back
    /// or is a tie (`2.5` at one digit), rather than from their first digit.
    #[test]
    fn nearly_every_float_takes_a_quick_path() {
        let mut seed = 0x0DDB_1A5E_5BAD_5EED_u64;
        let mut left = 0;
        for _ in 0..100_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let x = f64::from_bits(seed % 0x7FF0_0000_0000_0000);
            if x == 0.0 || short_shortest(x).is_some() {
                continue;
            }
            if let Err(from) = product_shortest(x) {
                assert!(from >= 10, "{x:e} left to the exact digits from length {from}");
                left += 1;
            }
        }
        assert!(left <= 300, "{left} of 100,000 floats left to the exact digits");
    }

    /// Eight bytes are eight digits only when each is one, and then their
    /// number: every byte value in every place among digits, and words of
    /// digits and of bytes at random.
    #[test]
    fn eight_digits_reads_eight_digits_and_nothing_else() {
        let naive =
            |b: &[u8; 8]| b.iter().try_fold(0u64, |n, &c| c.is_ascii_digit().then(|| n * 10 + (c - b'0') as u64));
        let check = |b: [u8; 8]| assert_eq!(Some(eight_digits(&b)).filter(|&n| n != NOT_DIGITS), naive(&b), "{b:?}");
        for place in 0..8 {
            for byte in 0..=255u8 {
                let mut b = *b"90817263";
                b[place] = byte;
                check(b);
            }
        }
        let mut seed = 0x00D1_6175_u64;
        for _ in 0..200_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let digits = std::format!("{:08}", seed % 100_000_000);
            check(*digits.as_bytes().first_chunk().unwrap());
            check(seed.to_le_bytes());
            check((seed & 0x0F0F_0F0F_0F0F_0F0F | 0x3030_3030_3030_3030).to_le_bytes());
        }
    }

    #[test]
    fn the_powers_of_ten_are_exact_to_their_last_bit() {
        for (i, (positive_entry, negative_entry)) in POWERS[0].iter().zip(&POWERS[1]).enumerate() {
            let k = 1u32 << i;
            let mut positive = vec![1u64];
            for _ in 0..k {
                times_small(&mut positive, 10);
            }
            let (high, low, e) = top_128(&positive);
            assert_eq!(*positive_entry, (high, low), "10^{k}");
            assert_eq!(((i64::from(k) * 217_706) >> 16) - 127, e, "10^{k}'s exponent");

            let n = 4 * k as usize + 200;
            let mut negative = vec![0u64; n / 64];
            negative.push(1 << (n % 64));
            for _ in 0..k {
                divide_small(&mut negative, 10);
            }
            let (high, low, e) = top_128(&negative);
            assert_eq!(*negative_entry, (high, low), "10^-{k}");
            assert_eq!(((-i64::from(k) * 217_706) >> 16) - 127, e - n as i64, "10^-{k}'s exponent");
        }
    }
}
