//! `subako_tiny::sort` against std's stable sort: the same order for
//! random slices of every length to 2,000 with many equal keys, all equal,
//! sorted, reversed, sawtooth; by comparator, by key, and `Ord`; and a
//! comparator that panics leaves every element in the slice once.
//!
//! `SORT_CASES=N` (default 120; 3,000 in release builds) and `SORT_SEED=S`.

// std's `sort_by` is what is compared with, comparator and all.
#![allow(clippy::unnecessary_sort_by)]

use std::cell::Cell;
use std::cmp::Ordering;
use std::panic::{AssertUnwindSafe, catch_unwind};

use subako_tiny::sort;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Keys with their original places, so that stability shows.
fn shapes(rng: &mut Rng, n: usize) -> Vec<Vec<(u32, usize)>> {
    let distinct = [1, 2, 3, 10, n as u64 / 4 + 1, u32::MAX as u64][rng.below(6) as usize];
    let random: Vec<u32> = (0..n).map(|_| rng.below(distinct) as u32).collect();
    let sorted: Vec<u32> = (0..n as u32).map(|i| i / 3).collect();
    let reversed: Vec<u32> = sorted.iter().rev().copied().collect();
    let sawtooth: Vec<u32> = (0..n as u32).map(|i| i % 7).collect();
    let equal = vec![5; n];
    [random, sorted, reversed, sawtooth, equal]
        .into_iter()
        .map(|keys| keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect())
        .collect()
}

#[test]
fn same_order_as_std() {
    let cases = env("SORT_CASES", if cfg!(debug_assertions) { 120 } else { 3_000 });
    let mut rng = Rng(env("SORT_SEED", 0x5027));
    for case in 0..cases {
        let n = if case < 40 { case as usize } else { rng.below(2_001) as usize };
        for v in shapes(&mut rng, n) {
            let mut want = v.clone();
            want.sort_by(|a, b| a.0.cmp(&b.0));
            let mut got = v.clone();
            sort::sort_by(&mut got, |a, b| a.0.cmp(&b.0));
            assert_eq!(got, want, "sort_by, n = {n}");

            let mut got = v.clone();
            sort::sort_by_key(&mut got, |x| x.0);
            assert_eq!(got, want, "sort_by_key, n = {n}");

            let mut want = v.clone();
            want.sort_by(|a, b| b.0.cmp(&a.0));
            let mut got = v.clone();
            sort::sort_by(&mut got, |a, b| b.0.cmp(&a.0));
            assert_eq!(got, want, "sort_by descending, n = {n}");

            let mut want: Vec<String> = v.iter().map(|x| format!("{:x}", x.0)).collect();
            let mut got = want.clone();
            want.sort();
            sort::sort(&mut got);
            assert_eq!(got, want, "sort of strings, n = {n}");
        }
    }
}

/// At most n·⌈log2 n⌉ comparisons.
#[test]
fn comparisons_are_n_log_n() {
    let mut rng = Rng(7);
    for n in [0usize, 1, 2, 3, 1000, 1024, 1025, 4096] {
        for v in shapes(&mut rng, n) {
            let calls = Cell::new(0u64);
            let mut got = v.clone();
            sort::sort_by(&mut got, |a, b| {
                calls.set(calls.get() + 1);
                a.0.cmp(&b.0)
            });
            let log = (usize::BITS - n.saturating_sub(1).leading_zeros()) as u64;
            assert!(calls.get() <= n as u64 * log, "{} comparisons for {n}", calls.get());
        }
    }
}

/// Counts its drops.
struct Counted<'a> {
    key: u32,
    drops: &'a Cell<usize>,
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.drops.set(self.drops.get() + 1);
    }
}

#[test]
fn a_panicking_comparison_loses_and_doubles_nothing() {
    let mut rng = Rng(11);
    for n in [2usize, 10, 100, 1000] {
        for when in [0u64, 1, n as u64, 5 * n as u64] {
            let drops = Cell::new(0);
            let mut v: Vec<Counted> = (0..n).map(|_| Counted { key: rng.below(10) as u32, drops: &drops }).collect();
            let keys: Vec<u32> = v.iter().map(|c| c.key).collect();
            let calls = Cell::new(0u64);
            let result = catch_unwind(AssertUnwindSafe(|| {
                sort::sort_by(&mut v, |a, b| {
                    calls.set(calls.get() + 1);
                    if calls.get() > when {
                        panic!("comparison {}", calls.get());
                    }
                    a.key.cmp(&b.key)
                })
            }));
            assert!(result.is_err() || calls.get() <= when);
            // Nothing dropped, nothing moved: the slice is as it was.
            assert_eq!(drops.get(), 0);
            if result.is_err() {
                assert_eq!(v.iter().map(|c| c.key).collect::<Vec<_>>(), keys);
            }
            drop(v);
            assert_eq!(drops.get(), n);
        }
    }
}

#[test]
fn inconsistent_comparisons_end() {
    // Not a total order: no promise about the order, but the sort ends
    // with every element still there once.
    let mut rng = Rng(3);
    let mut v: Vec<u32> = (0..500).collect();
    sort::sort_by(&mut v, |_, _| if rng.below(2) == 0 { Ordering::Less } else { Ordering::Greater });
    v.sort();
    assert_eq!(v, (0..500).collect::<Vec<_>>());
}

#[test]
fn zero_sized_elements_of_any_number_are_sorted_at_once() {
    // Before: the buffer of indices for 2 * len overflowed (a panic in a
    // debug build, in release about len steps of nothing).
    let mut v = vec![(); usize::MAX];
    let mut calls = 0;
    subako_tiny::sort::sort_by(&mut v, |_, _| {
        calls += 1;
        core::cmp::Ordering::Equal
    });
    subako_tiny::sort::sort(&mut v);
    assert_eq!((v.len(), calls), (usize::MAX, 0));
}
