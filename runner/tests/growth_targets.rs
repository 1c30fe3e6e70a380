//! This project's growth targets, judged on figures made up to sit on each
//! side of every bound (the bench itself, `benches/growth`, needs real
//! modules and minutes of fuel counting).

#[path = "../benches/growth/targets.rs"]
mod targets;

use std::path::PathBuf;

use subako_tiny_runner::{GrowthFigures, GrowthKind, GrowthProbe, GrowthReport, JsonlProbe, KIB, MIB};
use targets::{jsonl_targets, targets};

/// Figures with `per_byte(kind)` fuel per byte for each kind at 128 KiB
/// and 1 MiB, that times `stretch` at 16 MiB, a seed call of `seed` fuel and
/// `pages` at the end of every call.
fn figures(per_byte: impl Fn(GrowthKind) -> f64, stretch: f64, seed: u64, pages: u64) -> GrowthFigures {
    let probe = |kind, line_bytes, fuel_per_byte| GrowthProbe {
        kind: Some(kind),
        line_bytes,
        fuel: 0,
        problem: None,
        fuel_per_byte: Some(fuel_per_byte),
        pages,
    };
    let mut rows = Vec::new();
    let mut baselines = Vec::new();
    for kind in GrowthKind::ALL {
        let x = per_byte(kind);
        baselines.push(GrowthProbe { fuel_per_byte: None, ..probe(kind, 300, 0.0) });
        rows.push(probe(kind, 128 * KIB, x));
        rows.push(probe(kind, MIB, x));
        rows.push(probe(kind, 16 * MIB, x * stretch));
    }
    GrowthFigures {
        module: PathBuf::from("m.wasm"),
        tool: "greet".into(),
        member: "name".into(),
        seed: GrowthProbe { kind: None, line_bytes: 299, fuel: seed, problem: None, fuel_per_byte: None, pages },
        baselines,
        rows,
        jsonl: Vec::new(),
        jsonl_tool: None,
    }
}

/// The official's figures of 2026-12-02 (issue 27's table).
fn official(kind: GrowthKind) -> f64 {
    match kind {
        GrowthKind::Ascii => 172.5,
        GrowthKind::Unused => 15.5,
        GrowthKind::Escaped => 116.8,
        GrowthKind::French => 194.8,
        GrowthKind::Japanese => 193.3,
        GrowthKind::JapaneseUnused => 36.3,
        _ => 40.0,
    }
}

/// Figures that meet every target.
fn good(kind: GrowthKind) -> f64 {
    match kind {
        GrowthKind::Ascii => 33.0,
        GrowthKind::Unused => 15.0,
        GrowthKind::Escaped => 80.0,
        GrowthKind::French | GrowthKind::Japanese => 90.0,
        GrowthKind::JapaneseUnused => 30.0,
        _ => 30.0,
    }
}

fn judged(ours: GrowthFigures) -> Vec<(String, bool)> {
    let official = figures(official, 1.0, 134_521, 160);
    targets(&GrowthReport { a: ours, b: Some(official) }).into_iter().map(|t| (t.what, t.met)).collect()
}

fn not_met(ours: GrowthFigures) -> Vec<String> {
    judged(ours).into_iter().filter(|(_, met)| !met).map(|(what, _)| what).collect()
}

#[test]
fn the_targets_are_judged_against_the_official_twin() {
    let all = judged(figures(good, 1.0, 67_000, 60));
    assert!(all.iter().all(|(_, met)| *met), "{all:?}");
    assert!(all.len() >= 20, "{all:?}");
    // Each bound crossed in turn.
    let worse = |kind: GrowthKind, x: f64| move |k: GrowthKind| if k == kind { x } else { good(k) };
    assert_eq!(
        not_met(figures(worse(GrowthKind::Japanese, 97.0), 1.0, 67_000, 60)),
        ["japanese fuel/byte at 1 MiB <= 0.5 x the official's"]
    );
    assert_eq!(
        not_met(figures(worse(GrowthKind::JapaneseUnused, 109.2), 1.0, 67_000, 60)),
        ["japanese-unused fuel/byte at 1 MiB <= 1 x the official's"]
    );
    assert_eq!(
        not_met(figures(worse(GrowthKind::Ascii, 33.4), 1.0, 67_000, 60)),
        ["ascii fuel/byte at 1 MiB no worse than today's"]
    );
    assert_eq!(
        not_met(figures(worse(GrowthKind::Escaped, 88.0), 1.0, 67_000, 60)),
        ["escaped fuel/byte at 16 MiB <= 0.75 x the official's", "escaped fuel/byte at 1 MiB <= 0.75 x the official's"]
    );
    assert_eq!(not_met(figures(good, 1.0, 67_000, 81)), ["pages after a call with a 1 MiB name"]);
    assert_eq!(not_met(figures(good, 1.0, 67_261, 60)), ["seed call fuel <= 0.5 x the official's"]);
    let curved = not_met(figures(good, 1.06, 67_000, 60));
    assert_eq!(curved.iter().filter(|w| w.contains("linear")).count(), GrowthKind::ALL.len(), "{curved:?}");
    assert!(targets(&GrowthReport { a: figures(good, 1.0, 67_000, 60), b: None }).is_empty());
    let text = targets::to_text(&targets(&GrowthReport {
        a: figures(worse(GrowthKind::French, 100.0), 1.0, 67_000, 60),
        b: Some(figures(official, 1.0, 134_521, 160)),
    }));
    assert!(text.contains("french fuel/byte at 1 MiB <= 0.5 x the official's") && text.contains("NOT MET"), "{text}");
}

#[test]
fn the_json_lines_targets_are_judged_on_whole_calls_and_linearity() {
    let lines = |fuel_1mib: u64, fuel_8mib: u64| {
        let probe = |file_bytes, fuel, per| JsonlProbe {
            file_bytes,
            lines: file_bytes / 100,
            fuel,
            pages: 2,
            problem: None,
            fuel_per_byte: per,
        };
        let mut f = figures(good, 1.0, 67_000, 60);
        f.jsonl = vec![
            probe(100, 10_000, None),
            probe(64 * KIB + 50, 1_000_000, Some(15.0)),
            probe(MIB + 40, fuel_1mib, Some((fuel_1mib - 10_000) as f64 / MIB as f64)),
            probe(8 * MIB + 30, fuel_8mib, Some((fuel_8mib - 10_000) as f64 / (8 * MIB) as f64)),
        ];
        f
    };
    let official = lines(40_000_000, 340_000_000);
    // 8 MiB at 1 MiB's fuel per byte.
    let linear = |at_1mib: u64| lines(at_1mib, 10_000 + 8 * (at_1mib - 10_000));
    let judge = |ours| {
        jsonl_targets(&GrowthReport { a: ours, b: Some(official.clone()) })
            .into_iter()
            .filter(|t| !t.met)
            .map(|t| t.what)
            .collect::<Vec<_>>()
    };
    assert!(judge(linear(20_000_000)).is_empty());
    assert_eq!(judge(linear(31_000_000)), ["JSON Lines at 1 MiB: fuel <= 0.75 x the official's"]);
    // 8 MiB costs more per byte than 1 MiB: not linear, within the bound on fuel still; then over it too.
    assert_eq!(judge(lines(20_000_000, 250_000_000)), ["JSON Lines linear: fuel/byte at 8 MiB within 5 % of 1 MiB's"]);
    assert_eq!(judge(lines(20_000_000, 256_000_000)).len(), 2);
}
