//! This project's targets for the growth benchmark: our modules against the
//! official SDK's twins, each judged met or not. The figures come from
//! `subako_tiny_runner::growth`; the bounds are ours, so they live here and
//! not in the command an author runs.

use subako_tiny_runner::{GrowthFigures, GrowthKind, GrowthReport, MIB};

/// One target: what is judged, our figure, its bound, and whether it is met.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub what: String,
    pub value: f64,
    pub bound: f64,
    pub met: bool,
}

/// Fuel per byte of an ASCII argument the tool reads, and of one it does not,
/// at 1 MiB on 2026-12-02: no worse than that.
const ASCII_READ_TODAY: f64 = 33.3;
const ASCII_UNUSED_TODAY: f64 = 15.1;
/// Pages a call with a 1 MiB name may end at.
const PAGES_1MIB: f64 = 80.0;

fn at_most(out: &mut Vec<Target>, what: String, value: f64, bound: f64) {
    out.push(Target { what, value, bound, met: value <= bound });
}

/// The targets for `r.a` (ours) against `r.b` (the official twin): per byte
/// at 16 MiB (a used argument at most 0.75× the official's, an unused one at
/// most 1×), each kind within 5 % of linear, the seed's call at most half
/// the official's fuel; at 1 MiB raw French and Japanese text read at most
/// 0.5× the official's and unread at most 1×, escapes at most 0.75×, ASCII
/// no worse than today, and the call with a 1 MiB ASCII name at most 80
/// pages. Empty without a second module.
pub fn targets(r: &GrowthReport) -> Vec<Target> {
    let Some(b) = &r.b else { return Vec::new() };
    let a = &r.a;
    let mut out = Vec::new();
    let per_byte = |f: &GrowthFigures, size, kind| f.per_byte(size, kind);
    for (kind, share) in [(GrowthKind::Ascii, 0.75), (GrowthKind::Escaped, 0.75), (GrowthKind::Unused, 1.0)] {
        if let (Some(x), Some(y)) = (per_byte(a, 16 * MIB, kind), per_byte(b, 16 * MIB, kind)) {
            at_most(&mut out, format!("{} fuel/byte at 16 MiB <= {share} x the official's", kind.name()), x, share * y);
        }
    }
    for kind in GrowthKind::ALL {
        if let Some(l) = a.linearity(kind) {
            out.push(Target {
                what: format!("{} linear: 16 MiB over 128 KiB within 5 %", kind.name()),
                value: l,
                bound: 1.05,
                met: (l - 1.0).abs() <= 0.05,
            });
        }
    }
    if a.seed.problem.is_none() && b.seed.problem.is_none() {
        at_most(
            &mut out,
            "seed call fuel <= 0.5 x the official's".into(),
            a.seed.fuel as f64,
            0.5 * b.seed.fuel as f64,
        );
    }
    for (kind, share) in [
        (GrowthKind::French, 0.5),
        (GrowthKind::Japanese, 0.5),
        (GrowthKind::FrenchUnused, 1.0),
        (GrowthKind::JapaneseUnused, 1.0),
        (GrowthKind::Escaped, 0.75),
    ] {
        if let (Some(x), Some(y)) = (per_byte(a, MIB, kind), per_byte(b, MIB, kind)) {
            at_most(&mut out, format!("{} fuel/byte at 1 MiB <= {share} x the official's", kind.name()), x, share * y);
        }
    }
    for (kind, today) in [(GrowthKind::Ascii, ASCII_READ_TODAY), (GrowthKind::Unused, ASCII_UNUSED_TODAY)] {
        if let Some(x) = per_byte(a, MIB, kind) {
            at_most(&mut out, format!("{} fuel/byte at 1 MiB no worse than today's", kind.name()), x, today);
        }
    }
    if let Some(row) = a.row(MIB, GrowthKind::Ascii).filter(|r| r.problem.is_none()) {
        at_most(&mut out, "pages after a call with a 1 MiB name".into(), row.pages as f64, PAGES_1MIB);
    }
    out
}

/// The JSON Lines targets for `r.a` against `r.b`: at 1 MiB and 8 MiB at
/// most 0.75× the official's fuel, and linear (fuel per byte at 8 MiB within
/// 5 % of that at 1 MiB).
pub fn jsonl_targets(r: &GrowthReport) -> Vec<Target> {
    let Some(b) = &r.b else { return Vec::new() };
    let mut out = Vec::new();
    for (size, label) in [(MIB, "1 MiB"), (8 * MIB, "8 MiB")] {
        if let (Some(x), Some(y)) = (r.a.jsonl_at(size), b.jsonl_at(size))
            && x.problem.is_none()
            && y.problem.is_none()
        {
            at_most(
                &mut out,
                format!("JSON Lines at {label}: fuel <= 0.75 x the official's"),
                x.fuel as f64,
                0.75 * y.fuel as f64,
            );
        }
    }
    let per = |size| r.a.jsonl_at(size).and_then(|p| p.fuel_per_byte);
    if let (Some(x), Some(y)) = (per(MIB), per(8 * MIB)) {
        let l = y / x;
        out.push(Target {
            what: "JSON Lines linear: fuel/byte at 8 MiB within 5 % of 1 MiB's".into(),
            value: l,
            bound: 1.05,
            met: (l - 1.0).abs() <= 0.05,
        });
    }
    out
}

/// The targets as lines: `what  value vs bound  met|NOT MET`.
pub fn to_text(targets: &[Target]) -> String {
    let mut s = String::new();
    for t in targets {
        s += &format!(
            "{:<56} {:>14.3} vs {:>14.3}  {}\n",
            t.what,
            t.value,
            t.bound,
            if t.met { "met" } else { "NOT MET" }
        );
    }
    s
}
