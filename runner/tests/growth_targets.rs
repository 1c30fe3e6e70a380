//! This project's growth targets, judged on figures made up to sit on each
//! side of every bound (the bench itself, `benches/growth.rs`, needs real
//! modules and minutes of fuel counting).

#[path = "../benches/growth/targets.rs"]
mod targets;

use std::path::PathBuf;

use subako_tiny_runner::{GrowthFigures, GrowthKind, GrowthProbe, GrowthReport, KIB, MIB};
use targets::targets;

/// Figures with `per_byte[k]` fuel per byte for kind `k` at 128 KiB and
/// `per_byte[k] * stretch` at 16 MiB, and a seed call of `seed` fuel.
fn figures(per_byte: [f64; 3], stretch: f64, seed: u64) -> GrowthFigures {
    let probe = |kind, line_bytes, fuel_per_byte| GrowthProbe {
        kind: Some(kind),
        line_bytes,
        fuel: 0,
        problem: None,
        fuel_per_byte: Some(fuel_per_byte),
    };
    let mut rows = Vec::new();
    for (kind, x) in GrowthKind::ALL.into_iter().zip(per_byte) {
        rows.push(probe(kind, 128 * KIB, x));
        rows.push(probe(kind, 16 * MIB, x * stretch));
    }
    GrowthFigures {
        module: PathBuf::from("m.wasm"),
        tool: "greet".into(),
        member: "name".into(),
        seed: GrowthProbe { kind: None, line_bytes: 299, fuel: seed, problem: None, fuel_per_byte: None },
        baselines: Vec::new(),
        rows,
    }
}

#[test]
fn the_targets_are_judged_against_the_second_module() {
    let official = figures([172.5, 116.5, 15.5], 1.0, 134_521);
    let report = |ours| GrowthReport { a: ours, b: Some(official.clone()) };
    let met = |r: &GrowthReport| targets(r).iter().map(|t| t.met).collect::<Vec<_>>();
    assert_eq!(met(&report(figures([129.0, 87.0, 15.5], 1.0, 67_000))), [true; 7]);
    // Each bound crossed in turn: 0.75x, 0.75x, 1x, linearity, half the seed.
    assert!(!met(&report(figures([130.0, 87.0, 15.5], 1.0, 67_000)))[0]);
    assert!(!met(&report(figures([129.0, 88.0, 15.5], 1.0, 67_000)))[1]);
    assert!(!met(&report(figures([129.0, 87.0, 15.6], 1.0, 67_000)))[2]);
    let curved = met(&report(figures([100.0, 80.0, 10.0], 1.06, 67_000)));
    assert_eq!(&curved[..6], [true, true, true, false, false, false]);
    assert!(!met(&report(figures([129.0, 87.0, 15.5], 1.0, 67_261)))[6]);
    assert!(targets(&GrowthReport { a: official.clone(), b: None }).is_empty());
    let text = targets::to_text(&targets(&report(figures([172.5, 87.0, 15.5], 1.0, 67_000))));
    assert!(text.contains("ascii fuel/byte at 16 MiB <= 0.75 x the second's"), "{text}");
    assert!(text.contains("NOT MET"), "{text}");
}
