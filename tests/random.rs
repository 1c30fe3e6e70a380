//! `random::Rng` against an independent SplitMix64 (Python's, by hand) and
//! its draws against their promises: `below` uniform with no value out of
//! range, even for bounds that reject almost half the draws, `shuffle`
//! every order alike, `float` in [0, 1); `fill` the system's bytes.

use subako_tiny::random::{self, Rng};

#[test]
fn the_numbers_are_splitmix64_s() {
    // From a Python transcription of Vigna's splitmix64.c.
    for (seed, want) in [
        (0, [0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f]),
        (1234567, [0x599ed017fb08fc85, 0x2c73f08458540fa5, 0x883ebce5a3f27c77]),
        (u64::MAX, [0xe4d971771b652c20, 0xe99ff867dbf682c9, 0x382ff84cb27281e9]),
    ] {
        let mut rng = Rng::seeded(seed);
        assert_eq!([rng.next_u64(), rng.next_u64(), rng.next_u64()], want, "seed {seed}");
    }
}

/// Pearson's statistic of `counts` against equal expectations.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum()
}

#[test]
fn below_is_uniform_and_in_range() {
    let mut rng = Rng::seeded(0xD1CE);
    for n in [1u64, 2, 3, 6, 10, 1000] {
        let cells = n.min(10) as usize;
        let mut counts = vec![0u64; cells];
        for _ in 0..100_000 {
            let x = rng.below(n);
            assert!(x < n, "below({n}) gave {x}");
            counts[(x % cells as u64) as usize] += 1;
        }
        if cells > 1 && n % cells as u64 == 0 {
            // 9 degrees of freedom at most: 27.9 is the 0.1 % tail.
            assert!(chi_square(&counts) < 27.9, "below({n}): {counts:?}");
        }
    }
    assert_eq!(rng.below(0), 0);
    // A bound just past 2⁶³ rejects almost half the draws: the answers
    // still split evenly between its halves.
    let n = (1u64 << 63) + 1;
    let low = (0..100_000).filter(|_| rng.below(n) < n / 2).count();
    assert!((49_000..51_000).contains(&low), "{low}");
    let big = (0..1000).map(|_| rng.below(u64::MAX)).max().unwrap();
    assert!(big < u64::MAX && big > u64::MAX / 2);
}

#[test]
fn shuffle_makes_every_order_alike() {
    let mut rng = Rng::seeded(99);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..60_000 {
        let mut items = ['a', 'b', 'c'];
        rng.shuffle(&mut items);
        *counts.entry(items).or_insert(0u64) += 1;
    }
    assert_eq!(counts.len(), 6);
    let counts: Vec<u64> = counts.into_values().collect();
    // 5 degrees of freedom: 20.5 is the 0.1 % tail.
    assert!(chi_square(&counts) < 20.5, "{counts:?}");
    // No items, one item: nothing to do.
    rng.shuffle(&mut [0u8; 0]);
    let mut one = [7];
    rng.shuffle(&mut one);
    assert_eq!(one, [7]);
}

#[test]
fn float_is_in_the_unit_interval() {
    let mut rng = Rng::seeded(5);
    let draws: Vec<f64> = (0..100_000).map(|_| rng.float()).collect();
    assert!(draws.iter().all(|x| (0.0..1.0).contains(x)));
    let mean = draws.iter().sum::<f64>() / draws.len() as f64;
    assert!((mean - 0.5).abs() < 0.005, "{mean}");
}

#[test]
fn fill_reads_the_system_s_bytes() {
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    random::fill(&mut a).unwrap();
    random::fill(&mut b).unwrap();
    assert_ne!(a, b);
    assert_ne!(Rng::from_platform().unwrap(), Rng::from_platform().unwrap());
}

/// Where the system has no `/dev/urandom` (a sandbox without `/dev`), the
/// error names the file and the errno, and an empty fill still succeeds.
/// The test runs itself again in a user and mount namespace over an empty
/// `/dev`, where `unshare` is allowed.
#[test]
fn without_dev_urandom_the_error_names_it() {
    const INSIDE: &str = "SUBAKO_TINY_TEST_NO_URANDOM";
    if std::env::var_os(INSIDE).is_some() {
        assert!(!std::path::Path::new("/dev/urandom").exists(), "the namespace kept /dev/urandom");
        let error = random::fill(&mut [0u8; 8]).unwrap_err();
        assert_eq!(error.message(), "the platform gave no random bytes (/dev/urandom: errno 58)");
        assert_eq!(Rng::from_platform().unwrap_err().message(), error.message());
        random::fill(&mut []).expect("an empty fill needs no source");
        return;
    }
    let allowed = std::process::Command::new("unshare").args(["-rm", "true"]).status().is_ok_and(|s| s.success());
    if !allowed {
        eprintln!("skipped: this machine does not let `unshare -rm` make a namespace");
        return;
    }
    let test = std::env::current_exe().unwrap();
    let output = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", r#"mount -t tmpfs none /dev && exec "$0" --exact "$1" --nocapture"#])
        .arg(&test)
        .arg("without_dev_urandom_the_error_names_it")
        .env(INSIDE, "1")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && said.contains("1 passed"), "{said}");
}
