//! Numbers from text, with std's answers and without its tables.
//!
//! | std | here | what it costs a module |
//! |---|---|---|
//! | `s.parse::<f64>()` | [`parse_f64`] | the crate's own correctly rounded reader (the one JSON numbers use), instead of core's 12 KB of power tables |
//! | `s.parse::<i64>()`, `::<u64>()` | [`parse_i64`], [`parse_u64`] | a digit loop, without the 128-bit multiply core's overflow check links |
//! | `s.parse::<i32>()`, `::<u32>()` | [`parse_i32`], [`parse_u32`] | the same loop and a range check |
//!
//! Each returns `Some` exactly when `str::parse` returns `Ok`, with the
//! same value, bit for bit for floats (the tests compare millions of
//! generated strings with core's): what core accepts is accepted, what it
//! refuses is `None`. `benches/idioms/measure.sh` prints the bytes each
//! adds to a module, beside std's.
//!
//! # Examples
//! ```
//! use subako_tiny::num;
//!
//! assert_eq!(num::parse_f64("-1.5e3"), Some(-1500.0));
//! assert_eq!(num::parse_f64(".5"), Some(0.5));
//! assert_eq!(num::parse_f64("1e400"), Some(f64::INFINITY));
//! assert!(num::parse_f64("NaN").is_some_and(f64::is_nan));
//! assert_eq!(num::parse_f64("1,5"), None);
//! assert_eq!(num::parse_i64("+42"), Some(42));
//! assert_eq!(num::parse_u64("-0"), None);
//! ```

/// `s.parse::<f64>().ok()`: the nearest `f64`, ties to even.
///
/// The text is core's grammar: an optional `+` or `-`, then `inf`,
/// `infinity` or `nan` in any case, or digits with at most one `.` and at
/// least one digit, then optionally `e` or `E`, an optional sign and at
/// least one digit. No spaces and no `_`. Any number of digits is read
/// exactly; a magnitude past `f64::MAX` reads as infinity and one below
/// the least subnormal as zero, with the sign.
///
/// # Examples
/// ```
/// use subako_tiny::num::parse_f64;
///
/// assert_eq!(parse_f64("3.14159"), Some(3.14159));
/// assert_eq!(parse_f64("+5."), Some(5.0));
/// assert_eq!(parse_f64("-0").map(f64::to_bits), Some((-0.0f64).to_bits()));
/// assert_eq!(parse_f64("-Infinity"), Some(f64::NEG_INFINITY));
/// assert_eq!(parse_f64("1e-400"), Some(0.0));
/// assert_eq!(parse_f64("0x10"), None);
/// assert_eq!(parse_f64(" 1"), None);
/// assert_eq!(parse_f64("1e"), None);
/// ```
pub fn parse_f64(s: &str) -> Option<f64> {
    crate::json::float::parse_checked(s.as_bytes())
}

/// `s.parse::<u64>().ok()`: decimal digits after an optional `+`, any
/// number of leading zeros, at most `u64::MAX`.
///
/// # Examples
/// ```
/// use subako_tiny::num::parse_u64;
///
/// assert_eq!(parse_u64("007"), Some(7));
/// assert_eq!(parse_u64("18446744073709551615"), Some(u64::MAX));
/// assert_eq!(parse_u64("18446744073709551616"), None);
/// assert_eq!(parse_u64("+"), None);
/// assert_eq!(parse_u64("-1"), None);
/// ```
pub fn parse_u64(s: &str) -> Option<u64> {
    let (_, digits) = sign(s.as_bytes(), false)?;
    magnitude(digits)
}

/// `s.parse::<i64>().ok()`: decimal digits after an optional `+` or `-`,
/// from `i64::MIN` to `i64::MAX`.
///
/// # Examples
/// ```
/// use subako_tiny::num::parse_i64;
///
/// assert_eq!(parse_i64("-9223372036854775808"), Some(i64::MIN));
/// assert_eq!(parse_i64("9223372036854775808"), None);
/// assert_eq!(parse_i64("-0"), Some(0));
/// assert_eq!(parse_i64("1_000"), None);
/// ```
pub fn parse_i64(s: &str) -> Option<i64> {
    let (negative, digits) = sign(s.as_bytes(), true)?;
    let m = magnitude(digits)?;
    if negative {
        // Down to -2^63, whose magnitude is one past i64::MAX.
        (m <= 1 << 63).then(|| (m as i64).wrapping_neg())
    } else {
        i64::try_from(m).ok()
    }
}

/// `s.parse::<u32>().ok()`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::num::parse_u32("4294967296"), None);
/// ```
pub fn parse_u32(s: &str) -> Option<u32> {
    parse_u64(s).and_then(|n| u32::try_from(n).ok())
}

/// `s.parse::<i32>().ok()`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::num::parse_i32("-2147483648"), Some(i32::MIN));
/// ```
pub fn parse_i32(s: &str) -> Option<i32> {
    parse_i64(s).and_then(|n| i32::try_from(n).ok())
}

/// An optional sign (`-` only when `minus`), then what follows it, which
/// must not be empty: whether it was `-`.
fn sign(b: &[u8], minus: bool) -> Option<(bool, &[u8])> {
    let (negative, rest) = match b.split_first() {
        Some((b'+', rest)) => (false, rest),
        Some((b'-', rest)) if minus => (true, rest),
        _ => (false, b),
    };
    (!rest.is_empty()).then_some((negative, rest))
}

/// Decimal digits (at least one) as a `u64`, if they fit.
fn magnitude(digits: &[u8]) -> Option<u64> {
    let mut n = 0u64;
    for &b in digits {
        let d = b.wrapping_sub(b'0');
        // The overflow check without a 128-bit multiply.
        if d > 9 || n > u64::MAX / 10 {
            return None;
        }
        n = (n * 10).checked_add(d as u64)?;
    }
    Some(n)
}
