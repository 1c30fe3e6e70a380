//! `subako_tiny::float` against std's `f64`/`f32` methods, bit for bit:
//! special values (NaN, ±0, ±infinity, subnormals, halves, the largest
//! and smallest), every pair of them for the two-argument ones, and random
//! bit patterns. On wasm32 the same functions are the wasm instructions
//! (`benches/idioms/measure.sh` checks the modules for them).
//!
//! `FLOAT_OPS_CASES=N` (default 1,000,000) and `FLOAT_OPS_SEED=S`.

use subako_tiny::float;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn specials() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7FF0_0000_0000_0001),
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::MAX,
        f64::MIN,
        f64::EPSILON,
        4503599627370496.0,
        4503599627370495.5,
        9007199254740993.0,
    ];
    for k in -6..=6 {
        v.push(k as f64 * 0.5);
        v.push(k as f64 * 0.5 + 1e-9);
    }
    let negatives: Vec<f64> = v.iter().map(|x| -x).collect();
    v.extend(negatives);
    v
}

fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn check(x: f64, y: f64) {
    assert!(same(float::sqrt(x), x.sqrt()), "sqrt({x:e})");
    assert!(same(float::floor(x), x.floor()), "floor({x:e})");
    assert!(same(float::ceil(x), x.ceil()), "ceil({x:e})");
    assert!(same(float::trunc(x), x.trunc()), "trunc({x:e})");
    assert!(same(float::round_ties_even(x), x.round_ties_even()), "round_ties_even({x:e})");
    assert!(same(float::round(x), x.round()), "round({x:e})");
    assert!(same(float::abs(x), x.abs()), "abs({x:e})");
    assert!(same(float::copysign(x, y), x.copysign(y)), "copysign({x:e}, {y:e})");
    assert!(same(float::min(x, y), x.min(y)), "min({x:e}, {y:e})");
    assert!(same(float::max(x, y), x.max(y)), "max({x:e}, {y:e})");
    let (x, y) = (x as f32, y as f32);
    let same32 = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
    assert!(same32(float::f32::sqrt(x), x.sqrt()), "f32::sqrt({x:e})");
    assert!(same32(float::f32::floor(x), x.floor()), "f32::floor({x:e})");
    assert!(same32(float::f32::ceil(x), x.ceil()), "f32::ceil({x:e})");
    assert!(same32(float::f32::trunc(x), x.trunc()), "f32::trunc({x:e})");
    assert!(same32(float::f32::round_ties_even(x), x.round_ties_even()), "f32::round_ties_even({x:e})");
    assert!(same32(float::f32::round(x), x.round()), "f32::round({x:e})");
    assert!(same32(float::f32::abs(x), x.abs()));
    assert!(same32(float::f32::copysign(x, y), x.copysign(y)));
    assert!(same32(float::f32::min(x, y), x.min(y)));
    assert!(same32(float::f32::max(x, y), x.max(y)));
}

#[test]
fn special_values() {
    let v = specials();
    for &x in &v {
        for &y in &v {
            check(x, y);
        }
    }
}

#[test]
fn random_bits() {
    let mut rng = Rng(env("FLOAT_OPS_SEED", 0xF10A7));
    for _ in 0..env("FLOAT_OPS_CASES", 1_000_000) {
        check(f64::from_bits(rng.next()), f64::from_bits(rng.next()));
    }
}

/// `round` takes halves away from zero, and only halves: the values
/// next to each half, and every half up to where doubles are whole.
#[test]
fn round_takes_halves_away_from_zero() {
    for (x, want) in [(0.5, 1.0), (1.5, 2.0), (2.5, 3.0), (-0.5, -1.0), (-2.5, -3.0), (0.49999999999999994, 0.0)] {
        assert_eq!(float::round(x).to_bits(), f64::to_bits(want), "round({x})");
    }
    let mut x = 0.5f64;
    while x < 9007199254740992.0 {
        for y in [x, x.next_down(), x.next_up(), -x, -x.next_down(), -x.next_up()] {
            assert!(same(float::round(y), y.round()), "round({y:e})");
        }
        x = x * 2.0 + 0.5;
    }
}

/// Round half to even, not away from zero.
#[test]
fn ties_go_to_even() {
    for (x, want) in [(0.5, 0.0), (1.5, 2.0), (2.5, 2.0), (-0.5, -0.0), (-1.5, -2.0), (-2.5, -2.0)] {
        assert_eq!(float::round_ties_even(x).to_bits(), f64::to_bits(want));
    }
}
