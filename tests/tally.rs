//! `subako_tiny::tally::Tally` against a `BTreeMap` of counts: after every
//! random sequence of adds, the same count for every key (absent ones
//! too), the same number of keys, key order as the map iterates, and the
//! most common first as a stable sort of that by count gives.
//!
//! `TALLY_CASES=N` (default 2,000) and `TALLY_SEED=S`.

use std::collections::BTreeMap;

use subako_tiny::tally::Tally;

mod common;
use common::{Rng, env};

fn map_most_common<K: Clone + Ord>(map: &BTreeMap<K, u64>) -> Vec<(K, u64)> {
    let mut v: Vec<(K, u64)> = map.iter().map(|(k, &n)| (k.clone(), n)).collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    v
}

/// Keys of 0 to 19 chars from a pool with ASCII, 2-, 3- and 4-byte chars
/// and NUL, so hashes take whole words and tails of every length, and
/// keys differ only in a zero tail byte ("a" and "a\0").
fn key(rng: &mut Rng, pool: &[char], distinct: usize) -> String {
    // Few distinct keys in most cases, so counts grow past 1.
    let seed = rng.below(distinct) as u64;
    let mut local = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    (0..local.below(20)).map(|_| pool[local.below(pool.len())]).collect()
}

#[test]
fn random_adds_count_as_a_btreemap_counts() {
    let pool: Vec<char> = "ab\0 é日𝄞".chars().collect();
    let mut rng = Rng(env("TALLY_SEED", 0x7A11));
    for _ in 0..env("TALLY_CASES", 2_000) {
        let many = rng.below(4) == 0;
        let distinct = 1 + rng.below(if many { 3_000 } else { 40 });
        let adds = rng.below(4_000);
        let mut tally = Tally::new();
        let mut map = BTreeMap::new();
        for _ in 0..adds {
            let k = key(&mut rng, &pool, distinct);
            let n = if rng.below(5) == 0 { rng.below(7) as u64 } else { 1 };
            *map.entry(k.clone()).or_insert(0) += n;
            // A third of the single adds borrow the key: `add_ref` owns it
            // only when it is new, and must count as `add` does.
            match n {
                1 if rng.below(3) == 0 => tally.add_ref(k.as_str()),
                1 => tally.add(k),
                _ => tally.add_n(k, n),
            }
        }
        assert_eq!(tally.len(), map.len());
        assert_eq!(tally.is_empty(), map.is_empty());
        for (k, &n) in &map {
            assert_eq!(tally.get(k.as_str()), n, "{k:?}");
        }
        for _ in 0..20 {
            let k = key(&mut rng, &pool, distinct * 2);
            assert_eq!(tally.get(k.as_str()), map.get(&k).copied().unwrap_or(0), "{k:?}");
        }
        // First-added order holds each key once.
        let mut seen: Vec<&String> = tally.iter().map(|(k, _)| k).collect();
        seen.sort();
        assert!(seen.iter().copied().eq(map.keys()));
        let sorted = tally.clone().sorted();
        assert_eq!(sorted, map.iter().map(|(k, &n)| (k.clone(), n)).collect::<Vec<_>>());
        assert_eq!(tally.most_common(), map_most_common(&map));
    }
}

/// Integer keys, whose hashes come from one word each, through
/// `FromIterator`: the same answers as the map's.
#[test]
fn integer_keys_through_collect() {
    let mut rng = Rng(env("TALLY_SEED", 0x7A11) ^ 1);
    for _ in 0..200 {
        let keys: Vec<u64> = (0..rng.below(5_000)).map(|_| (rng.below(1_000) as u64) << rng.below(40)).collect();
        let tally: Tally<u64> = keys.iter().copied().collect();
        let mut map = BTreeMap::new();
        for &k in &keys {
            *map.entry(k).or_insert(0u64) += 1;
        }
        assert_eq!(tally.len(), map.len());
        assert_eq!(tally.clone().sorted(), map.iter().map(|(&k, &n)| (k, n)).collect::<Vec<_>>());
        assert_eq!(tally.most_common(), map_most_common(&map));
    }
}

/// A count stops at `u64::MAX` rather than wrapping or panicking.
#[test]
fn counts_saturate() {
    let mut tally = Tally::new();
    tally.add_n("x", u64::MAX - 1);
    tally.add("x");
    tally.add("x");
    assert_eq!(tally.get("x"), u64::MAX);
}
