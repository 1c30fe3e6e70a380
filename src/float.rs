//! Float operations with std's results: those wasm has as one
//! instruction, and std's `f64` functions beyond them (`sin`, `exp`, …).
//!
//! | std (not in core) | here | what it costs a module |
//! |---|---|---|
//! | `x.sqrt()` | [`sqrt`] | `f64.sqrt`: a few bytes (`libm::sqrt` is about 900) |
//! | `x.floor()`, `x.ceil()`, `x.trunc()` | [`floor`], [`ceil`], [`trunc`] | `f64.floor`, `f64.ceil`, `f64.trunc` |
//! | `x.round_ties_even()` | [`round_ties_even`] | `f64.nearest` |
//! | `x.round()` | [`round`] | `f64.trunc` and a few more: wasm has no instruction that rounds halves away from zero |
//! | `x.abs()`, `x.copysign(y)` | [`abs`], [`copysign`] | `f64.abs`, `f64.copysign` |
//! | `x.min(y)`, `x.max(y)` | [`min`], [`max`] | a few instructions: NaN loses, as in std (wasm's `f64.min` would answer NaN) |
//! | `format!("{x:.2}").parse::<f64>()` | [`round_to::<2>`](round_to) | exact integer arithmetic, no `core::fmt` or float parser |
//! | `x.sin()`, `x.cos()`, `x.tan()`, `x.asin()`, `x.acos()`, `x.atan()`, `y.atan2(x)` | [`sin`], [`cos`], [`tan`], [`asin`], [`acos`], [`atan`], [`atan2`] | wasi-libc's routine, std's own on wasm32: one to three KB each, some shared (`benches/idioms/measure.sh` prices `sin` and `cos` together) |
//! | `x.exp()`, `x.exp2()`, `x.ln()`, `x.log2()`, `x.log10()`, `x.powf(y)`, `x.hypot(y)` | [`exp`], [`exp2`], [`ln`], [`log2`], [`log10`], [`powf`], [`hypot`] | the same |
//!
//! A `no_std` module has no `f64::sqrt` on stable Rust (it is std's), and
//! `core::arch::wasm32::f64_sqrt` is unstable. These are wasi-libc's
//! functions on wasm32, which compile to the instructions above, and std's
//! elsewhere, so a package's host tests get std's answers; abs, copysign,
//! min and max are core's. [`float::f32`](mod@f32) has the same for `f32`.
//! `benches/idioms/measure.sh` checks that each is its instruction.
//!
//! The rest (`sin` … `hypot`) are no instruction: they are the C routines
//! std's `f64` methods call on wasm32 (wasi-libc's, which a module links
//! already), so their answers are std's bit for bit there
//! (tests/e2e/tests/float_calls.rs runs both in wasmtime), and std's on the
//! host. std's own answers differ between the two in the last bit for some
//! inputs (the host's come from its C library, glibc on Linux): a host
//! test of a distance or an angle compares within a tolerance, or runs
//! the module in wasmtime, as the crate's does. The `libm` crate has them too, in fewer bytes (wasi-libc's are
//! built for speed), but they take more work: a great-circle distance
//! (sin, cos, asin and sqrt) takes about four times the wasm operations
//! through `libm` (the repository's `benches/trig.sh`). Only `f64`'s are
//! here, and not `cbrt`: a module's link takes
//! compiler-builtins' `cbrt`, not wasi-libc's, and its answers differ from
//! std's in the last bit.
//!
//! # Examples
//! ```
//! use subako_tiny::float;
//!
//! assert_eq!(float::sqrt(2.25), 1.5);
//! assert_eq!(float::floor(-1.5), -2.0);
//! assert_eq!(float::round_ties_even(2.5), 2.0);
//! assert_eq!(float::max(f64::NAN, 1.0), 1.0);
//! ```

use crate::sys::float as sys;

/// `x.sqrt()`: NaN for a negative `x` (but −0.0 for −0.0).
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::sqrt(16.0), 4.0);
/// assert!(subako_tiny::float::sqrt(-1.0).is_nan());
/// ```
#[inline]
pub fn sqrt(x: f64) -> f64 {
    sys::sqrt(x)
}

/// `x.floor()`: the greatest integer at most `x`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::floor(2.7), 2.0);
/// ```
#[inline]
pub fn floor(x: f64) -> f64 {
    sys::floor(x)
}

/// `x.ceil()`: the least integer at least `x`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::ceil(2.1), 3.0);
/// assert_eq!(subako_tiny::float::ceil(-0.5).to_bits(), (-0.0f64).to_bits());
/// ```
#[inline]
pub fn ceil(x: f64) -> f64 {
    sys::ceil(x)
}

/// `x.trunc()`: the integer part, toward zero.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::trunc(-2.7), -2.0);
/// ```
#[inline]
pub fn trunc(x: f64) -> f64 {
    sys::trunc(x)
}

/// `x.round_ties_even()`: the nearest integer, halves to even.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::round_ties_even(3.5), 4.0);
/// assert_eq!(subako_tiny::float::round_ties_even(-2.5), -2.0);
/// ```
#[inline]
pub fn round_ties_even(x: f64) -> f64 {
    sys::rint(x)
}

/// `x.round()`: the nearest integer, halves away from zero (what
/// `format!("{:.0}")` does not do: it rounds halves to even). To print a
/// number with a fixed number of decimals as `format!("{:.2}")` prints
/// it, use [`text::fixed`](crate::text::fixed): rounding `x * 100.0`
/// rounds a product that is itself rounded, and disagrees with it on
/// thousands of everyday values (`0.015`, `0.125`).
///
/// # Examples
/// ```
/// use subako_tiny::float;
///
/// assert_eq!(float::round(2.5), 3.0);
/// assert_eq!(float::round(-2.5), -3.0);
/// assert_eq!(float::round(0.49999999999999994), 0.0); // not floor(x + 0.5)
/// assert_eq!(float::round(-0.4).to_bits(), (-0.0f64).to_bits());
/// // Two decimals, as `(x * 100.0).round() / 100.0` gives them (the
/// // double nearest 1.005 is a little below it):
/// assert_eq!(float::round(2.345 * 100.0) / 100.0, 2.35);
/// assert_eq!(float::round(1.005 * 100.0) / 100.0, 1.0);
/// ```
#[inline]
pub fn round(x: f64) -> f64 {
    // What trunc drops is exact; a half or more steps away from zero
    // (t ± 1 is exact too: below 2^52 t has room, above it x is whole).
    let t = trunc(x);
    if abs(x - t) >= 0.5 { t + copysign(1.0, x) } else { t }
}

/// `x.abs()`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::abs(-3.0), 3.0);
/// ```
#[inline]
pub fn abs(x: f64) -> f64 {
    x.abs()
}

/// `x.copysign(sign)`: `x`'s magnitude with `sign`'s sign.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::copysign(3.0, -0.0), -3.0);
/// ```
#[inline]
pub fn copysign(x: f64, sign: f64) -> f64 {
    x.copysign(sign)
}

/// `x.min(y)`: the lesser; when one is NaN, the other.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::min(f64::NAN, 2.0), 2.0);
/// ```
#[inline]
pub fn min(x: f64, y: f64) -> f64 {
    x.min(y)
}

/// `x.max(y)`: the greater; when one is NaN, the other.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::max(-1.0, f64::NAN), -1.0);
/// ```
#[inline]
pub fn max(x: f64, y: f64) -> f64 {
    x.max(y)
}

/// `x.sin()` (`x` in radians).
///
/// # Examples
/// ```
/// use subako_tiny::float;
///
/// assert_eq!(float::sin(0.0), 0.0);
/// assert_eq!(float::sin(1.0), 1.0f64.sin());
/// ```
#[inline]
pub fn sin(x: f64) -> f64 {
    sys::sin(x)
}

/// `x.cos()` (`x` in radians).
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::cos(0.0), 1.0);
/// ```
#[inline]
pub fn cos(x: f64) -> f64 {
    sys::cos(x)
}

/// `x.tan()` (`x` in radians).
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::tan(0.5), 0.5f64.tan());
/// ```
#[inline]
pub fn tan(x: f64) -> f64 {
    sys::tan(x)
}

/// `x.asin()`: radians, NaN outside −1..=1.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::asin(1.0), core::f64::consts::FRAC_PI_2);
/// assert!(subako_tiny::float::asin(2.0).is_nan());
/// ```
#[inline]
pub fn asin(x: f64) -> f64 {
    sys::asin(x)
}

/// `x.acos()`: radians, NaN outside −1..=1.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::acos(1.0), 0.0);
/// ```
#[inline]
pub fn acos(x: f64) -> f64 {
    sys::acos(x)
}

/// `x.atan()`: radians.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::atan(1.0), core::f64::consts::FRAC_PI_4);
/// ```
#[inline]
pub fn atan(x: f64) -> f64 {
    sys::atan(x)
}

/// `y.atan2(x)`: the angle of the point (`x`, `y`), in radians from −π to π.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::atan2(1.0, -1.0), 1.0f64.atan2(-1.0));
/// ```
#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    sys::atan2(y, x)
}

/// `x.exp()`: e to the power `x`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::exp(0.0), 1.0);
/// assert_eq!(subako_tiny::float::exp(1.0), core::f64::consts::E);
/// ```
#[inline]
pub fn exp(x: f64) -> f64 {
    sys::exp(x)
}

/// `x.exp2()`: 2 to the power `x`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::exp2(10.0), 1024.0);
/// ```
#[inline]
pub fn exp2(x: f64) -> f64 {
    sys::exp2(x)
}

/// `x.ln()`: the natural logarithm; NaN for a negative `x`, −∞ for 0.
///
/// # Examples
/// ```
/// use subako_tiny::float;
///
/// assert_eq!(float::ln(1.0), 0.0);
/// assert_eq!(float::ln(0.0), f64::NEG_INFINITY);
/// ```
#[inline]
pub fn ln(x: f64) -> f64 {
    sys::log(x)
}

/// `x.log2()`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::log2(8.0), 3.0);
/// ```
#[inline]
pub fn log2(x: f64) -> f64 {
    sys::log2(x)
}

/// `x.log10()`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::log10(1000.0), 3.0);
/// ```
#[inline]
pub fn log10(x: f64) -> f64 {
    sys::log10(x)
}

/// `x.powf(y)`: `x` to the power `y`.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::powf(2.0, 0.5), core::f64::consts::SQRT_2);
/// ```
#[inline]
pub fn powf(x: f64, y: f64) -> f64 {
    sys::pow(x, y)
}

/// `x.hypot(y)`: the length of (`x`, `y`), without overflow on the way.
///
/// # Examples
/// ```
/// assert_eq!(subako_tiny::float::hypot(3.0, 4.0), 5.0);
/// ```
#[inline]
pub fn hypot(x: f64, y: f64) -> f64 {
    sys::hypot(x, y)
}

/// `x` rounded to `D` decimals as `format!("{x:.D$}")` rounds it (its
/// exact value to the nearest, halves to even), as the `f64` nearest that
/// decimal: what `format!("{x:.2}").parse::<f64>()` gives for
/// `round_to::<2>(x)`, without `core::fmt` or a float parser. For a mean
/// or a price sent as a JSON number; `(x * 100.0).round() / 100.0` rounds
/// a product that is itself rounded, and disagrees on everyday values. To
/// keep the trailing zeros (`12.50`), write [`text::fixed`](crate::text::fixed)
/// instead, as text or as a JSON number. NaN and infinities are returned
/// as they are. `D` is at most 22 (a larger one does not build): up to
/// there `10^D` is exact in an `f64`, which makes the answer exact. The
/// sign is kept, as `format!` keeps it: a small negative number rounds to
/// −0.0, which a reply writes `-0.0` (as it writes std's `sum()` of no
/// numbers); `round_to::<2>(x) + 0.0` gives a plain 0 there.
///
/// # Examples
/// ```
/// use subako_tiny::float::round_to;
///
/// assert_eq!(round_to::<2>(2.0 / 3.0), 0.67);
/// assert_eq!(round_to::<2>(1.005), 1.0); // the double nearest 1.005 is below it
/// assert_eq!(round_to::<2>(0.125), 0.12); // a tie, to even
/// assert_eq!((round_to::<1>(0.25), (0.25f64 * 10.0).round() / 10.0), (0.2, 0.3)); // halves away from zero there
/// assert_eq!(round_to::<1>(-0.04).to_bits(), (-0.0f64).to_bits());
/// assert_eq!((round_to::<1>(-0.04) + 0.0).to_bits(), 0.0f64.to_bits());
/// assert_eq!(round_to::<0>(2.5), 2.0);
/// ```
pub fn round_to<const D: u8>(x: f64) -> f64 {
    const { assert!(D <= 22, "round_to::<D>: D is at most 22") };
    let (pow5, pow10) = const {
        let (mut five, mut ten, mut i) = (1u64, 1f64, 0);
        while i < D {
            five *= 5;
            ten *= 10.0;
            i += 1;
        }
        (five, ten)
    };
    round_with(x, D as i32, pow5, pow10)
}

/// [`round_to`] for `d` decimals, with `5^d` and `10^d`: one body for
/// every `D`.
#[inline(never)]
fn round_with(x: f64, d: i32, pow5: u64, pow10: f64) -> f64 {
    // |x| = m × 2^e exactly, so |x| × 10^d = m × 5^d × 2^(e + d), and
    // m × 5^d is below 2^105.
    let (m, e) = crate::json::float::significand_exponent(x);
    let shift = e + d;
    // An |x| × 10^d that is whole: no digit past the d-th to round. NaN
    // and infinities take this way too (their exponent field reads as
    // e = 972).
    if shift >= 0 {
        return x;
    }
    let product = u128::from(m) * u128::from(pow5);
    // |x| × 10^d rounded to an integer, halves to even.
    let k = shift.unsigned_abs();
    let n = if k > 106 {
        0
    } else {
        let (whole, rest, half) = (product >> k, product & ((1 << k) - 1), 1u128 << (k - 1));
        whole + u128::from(rest > half || rest == half && whole & 1 == 1)
    };
    // From 2^53 on, 10^-d is below the spacing of floats at x (for d up to
    // 22), so x is the float nearest its rounding. Below it, n and 10^d
    // are both exact, and one division rounds their quotient once.
    if n >= 1 << 53 {
        return x;
    }
    copysign(n as f64 / pow10, x)
}

/// The same operations for `f32`, with `f32`'s std results.
///
/// # Examples
/// ```
/// use subako_tiny::float::f32;
///
/// assert_eq!(f32::sqrt(6.25), 2.5);
/// assert_eq!(f32::round_ties_even(0.5), 0.0);
/// ```
pub mod f32 {
    use crate::sys::float as sys;

    /// `x.sqrt()`.
    #[inline]
    pub fn sqrt(x: f32) -> f32 {
        sys::sqrtf(x)
    }

    /// `x.floor()`.
    #[inline]
    pub fn floor(x: f32) -> f32 {
        sys::floorf(x)
    }

    /// `x.ceil()`.
    #[inline]
    pub fn ceil(x: f32) -> f32 {
        sys::ceilf(x)
    }

    /// `x.trunc()`.
    #[inline]
    pub fn trunc(x: f32) -> f32 {
        sys::truncf(x)
    }

    /// `x.round_ties_even()`.
    #[inline]
    pub fn round_ties_even(x: f32) -> f32 {
        sys::rintf(x)
    }

    /// `x.round()`: halves away from zero.
    #[inline]
    pub fn round(x: f32) -> f32 {
        let t = trunc(x);
        if abs(x - t) >= 0.5 { t + copysign(1.0, x) } else { t }
    }

    /// `x.abs()`.
    #[inline]
    pub fn abs(x: f32) -> f32 {
        x.abs()
    }

    /// `x.copysign(sign)`.
    #[inline]
    pub fn copysign(x: f32, sign: f32) -> f32 {
        x.copysign(sign)
    }

    /// `x.min(y)`.
    #[inline]
    pub fn min(x: f32, y: f32) -> f32 {
        x.min(y)
    }

    /// `x.max(y)`.
    #[inline]
    pub fn max(x: f32, y: f32) -> f32 {
        x.max(y)
    }
}
