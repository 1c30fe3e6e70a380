//! This project's targets for the growth benchmark: our module against the
//! official SDK's twin, each judged met or not. The figures come from
//! `subako_tiny_runner::growth`; the bounds are ours, so they live here and
//! not in the command an author runs.

use subako_tiny_runner::{GrowthKind, GrowthReport, MIB};

/// One target: what is judged, our figure, its bound, and whether it is met.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub what: String,
    pub value: f64,
    pub bound: f64,
    pub met: bool,
}

/// The per-byte targets for the first module against the second (the
/// official hello). A used string argument at most 0.75× the second's fuel
/// per byte at 16 MiB (ASCII and escaped), an unused one at most the
/// second's, each kind within 5 % of linear (16 MiB over 128 KiB), and the
/// seed's call at most half the second's fuel. Empty without a second module.
pub fn targets(r: &GrowthReport) -> Vec<Target> {
    let Some(b) = &r.b else { return Vec::new() };
    let mut out = Vec::new();
    for (kind, share) in [(GrowthKind::Ascii, 0.75), (GrowthKind::Escaped, 0.75), (GrowthKind::Unused, 1.0)] {
        if let (Some(x), Some(y)) = (r.a.per_byte(16 * MIB, kind), b.per_byte(16 * MIB, kind)) {
            let bound = share * y;
            out.push(Target {
                what: format!("{} fuel/byte at 16 MiB <= {share} x the second's", kind.name()),
                value: x,
                bound,
                met: x <= bound,
            });
        }
    }
    for kind in GrowthKind::ALL {
        if let Some(l) = r.a.linearity(kind) {
            out.push(Target {
                what: format!("{} linear: 16 MiB over 128 KiB within 5 %", kind.name()),
                value: l,
                bound: 1.05,
                met: (l - 1.0).abs() <= 0.05,
            });
        }
    }
    if r.a.seed.problem.is_none() && b.seed.problem.is_none() {
        let (x, bound) = (r.a.seed.fuel as f64, 0.5 * b.seed.fuel as f64);
        out.push(Target { what: "seed call fuel <= 0.5 x the second's".into(), value: x, bound, met: x <= bound });
    }
    out
}

/// The targets as lines: `what  value vs bound  met|NOT MET`.
pub fn to_text(targets: &[Target]) -> String {
    let mut s = String::new();
    for t in targets {
        s += &format!(
            "{:<52} {:>12.3} vs {:>12.3}  {}\n",
            t.what,
            t.value,
            t.bound,
            if t.met { "met" } else { "NOT MET" }
        );
    }
    s
}
