//! The float reader and writer settle almost every number with one 128-bit
//! product, whatever its exponent, and run their exact decimal arithmetic
//! (hundreds of passes over hundreds of digits at the ends of the range)
//! only for the few that product leaves open: counted, not timed. Trial 17
//! loaded 150,000 p-values near 1e-300 and ran out of time, every one
//! having taken the exact path both ways. tests/floats.rs holds the
//! answers to core's and ryu's.

use std::sync::atomic::Ordering;

use subako_tiny::__test::float_exact_runs;
use subako_tiny::__test::json_num::write_f64;
use subako_tiny::num::parse_f64;

// The shared generator; not every helper beside it is used here.
#[allow(dead_code)]
mod common;
use common::{Rng, env};

/// One test at a time: the count is the process's.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn numbers_of_every_exponent_are_read_and_written_without_the_exact_arithmetic() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let cases = env("FLOAT_CASES", 20_000);
    let mut text = Vec::new();
    let mut exact = 0;
    for _ in 0..cases {
        // Any positive finite f64, one in eight subnormal (trial 17 read
        // values near 1e-310 at 180 times the official twin's fuel).
        let bits = rng.next();
        let x = f64::from_bits(if bits.is_multiple_of(8) {
            bits % (1 << 52) + 1
        } else {
            bits % 0x7FE0_0000_0000_0000 + (1 << 52)
        });
        text.clear();
        let before = float_exact_runs.load(Ordering::SeqCst);
        write_f64(&mut text, x);
        let read = parse_f64(std::str::from_utf8(&text).unwrap());
        exact += float_exact_runs.load(Ordering::SeqCst) - before;
        assert_eq!(read.map(f64::to_bits), Some(x.to_bits()), "{x:e} written as {}", String::from_utf8_lossy(&text));
    }
    // Writing reads back a candidate or two, and reading is one more: each
    // could take the exact path, in a tie or next to one (a few in a
    // thousand).
    assert!(exact * 100 <= cases, "the exact arithmetic ran {exact} times for {cases} numbers written and read");
}

#[test]
fn whole_numbers_halfway_between_two_floats_are_read_without_the_exact_arithmetic() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // Every odd whole number from 2^53 to 2^54 lies halfway between two
    // f64s, as do a quarter of those to 2^55: the 128-bit product cannot
    // tell which side, and such a number took the exact path (about eight
    // times core's work). Up to 19 digits, the conversion of the integer
    // rounds as the reader must.
    let mut rng = Rng(0x0005_EED0_F1D5);
    let mut exact = 0;
    for i in 0..20_000u64 {
        let n = match i % 4 {
            0 => ((1 << 53) + rng.next() % (1 << 53)) | 1,
            1 => (((1 << 54) + rng.next() % (1 << 54)) & !3) | 2,
            2 => rng.next() % 10_000_000_000_000_000_000,
            _ => 9_999_999_999_999_999_999 - rng.next() % 1_000_000,
        };
        let text = n.to_string();
        let before = float_exact_runs.load(Ordering::SeqCst);
        let read = parse_f64(&text);
        exact += float_exact_runs.load(Ordering::SeqCst) - before;
        assert_eq!(read.map(f64::to_bits), text.parse::<f64>().ok().map(f64::to_bits), "{text}");
    }
    // Those ending in zeros are read with them as an exponent (a few in
    // ten thousand take the exact path still); before, nearly half did.
    assert!(exact <= 20, "the exact arithmetic ran {exact} times for 20,000 whole numbers");
}
