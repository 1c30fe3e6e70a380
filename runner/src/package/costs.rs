//! Feature costs: each module built without and with each optional feature
//! of the crate that the package can turn on, and with the other allocator.

use serde::{Deserialize, Serialize};

use super::builds::{PackageOptions, build, log};
use super::cargo::Selection;
use super::{Package, Target, Variant, allocator};
use crate::Error;
use crate::text::{count, table, thousands};

/// One module's bytes without and with a feature.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CostRow {
    /// The module.
    pub example: String,
    /// The crate's feature; `lean-alloc` or `dlmalloc`: that allocator instead of the other.
    pub feature: String,
    /// `None` where the module requires the feature.
    pub without: Option<u64>,
    pub with: u64,
}

/// The feature costs of a package's modules.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct FeatureCosts {
    pub rows: Vec<CostRow>,
    /// Features that could not be measured, and why.
    #[serde(default)]
    pub notes: Vec<String>,
}

impl FeatureCosts {
    /// The table, one row per module and feature, and the notes.
    pub fn to_text(&self) -> String {
        let mut s = String::from(
            "\nfeature costs (bytes; each module built without and with the feature, the rest as it is):\n",
        );
        s += &self.table();
        for n in &self.notes {
            s += &format!("  {n}\n");
        }
        s
    }

    /// The table alone.
    pub fn table(&self) -> String {
        let body: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                let label = match r.feature.as_str() {
                    "lean-alloc" => "lean-alloc instead of dlmalloc".to_string(),
                    "dlmalloc" => "dlmalloc instead of lean-alloc".to_string(),
                    f => f.to_string(),
                };
                match r.without {
                    None => {
                        vec![r.example.clone(), label, "-".into(), count(Some(r.with)), "required by the module".into()]
                    }
                    Some(w) => {
                        let d = r.with as i64 - w as i64;
                        let sign = if d < 0 { "-" } else { "+" };
                        let pct =
                            if w > 0 { format!(" ({:+.1}%)", d as f64 / w as f64 * 100.0) } else { String::new() };
                        vec![
                            r.example.clone(),
                            label,
                            count(Some(w)),
                            count(Some(r.with)),
                            format!("{sign}{}{pct}", thousands(d.unsigned_abs() as usize)),
                        ]
                    }
                }
            })
            .collect();
        table(&["module", "feature", "without", "with", "cost"], &body, &[0, 1], "")
    }
}

/// Builds each target without and with each optional feature of the crate
/// (those off by default, but the allocators) that the package can turn
/// on, and with the other allocator where it can choose one.
pub fn feature_costs(pkg: &Package, opts: &PackageOptions, variants: &[Variant]) -> Result<FeatureCosts, Error> {
    let mut costs = FeatureCosts::default();
    let base = &variants[0];
    let targets: Vec<&Target> =
        pkg.targets.iter().filter(|t| opts.only.is_empty() || opts.only.contains(&t.name)).collect();
    let size = |sel: &Selection, t: &Target| -> Result<u64, Error> {
        let path = build(pkg, opts, sel, Some(&t.name), &[])?.join(format!("{}.wasm", t.name));
        std::fs::metadata(&path).map(|m| m.len()).map_err(|e| Error::file(&path, e))
    };
    let base_features = pkg.crate_features_of(&base.selection)?.unwrap_or_default();
    let defaults = pkg.crate_features.get("default").cloned().unwrap_or_default();
    let optional: Vec<&String> = pkg
        .crate_features
        .keys()
        .filter(|f| *f != "default" && !defaults.contains(f) && !["lean-alloc", "dlmalloc"].contains(&f.as_str()))
        .collect();
    for feature in optional {
        let forwarding = pkg.forwarding(feature)?;
        // (without, with): the base build on one side, the other built.
        let pair: (Option<Selection>, Option<Selection>) = if base_features.contains(feature) {
            let without = Selection::new(false, pkg.defaults_without(feature)?);
            if pkg.crate_features_of(&without)?.unwrap_or_default().contains(feature) {
                costs.notes.push(format!(
                    "{feature}: always on (the {} dependency itself enables it): nothing to compare",
                    super::CRATE
                ));
                continue;
            }
            (Some(without), None)
        } else if let Some(f) = forwarding.first() {
            (None, Some(Selection::new(true, vec![f.clone()])))
        } else {
            costs.notes.push(format!(
                "{feature}: not forwarded by {}; to measure it, add to [features]: {feature} = [\"{}/{feature}\"]",
                pkg.name,
                super::CRATE
            ));
            continue;
        };
        for t in &targets {
            if t.required_features.contains(feature) {
                log(&format!("{}: {feature} (required)…", t.name));
                let with = size(&pkg.selection(base, t), t)?;
                costs.rows.push(CostRow { example: t.name.clone(), feature: feature.clone(), without: None, with });
                continue;
            }
            let sized = |s: &Option<Selection>| -> Result<u64, Error> {
                let sel = match s {
                    Some(s) => pkg.selection(&Variant { label: String::new(), selection: s.clone() }, t),
                    None => pkg.selection(base, t),
                };
                log(&format!("{}: {feature} ({})…", t.name, sel.dir()));
                size(&sel, t)
            };
            let without = match sized(&pair.0) {
                Ok(bytes) => Some(bytes),
                // Its code uses the feature (`typed!` needs miniserde): it
                // is required, as by a target's required-features.
                Err(Error::Command(e)) if pair.0.is_some() => {
                    let first = e.lines().find(|l| l.starts_with("error")).unwrap_or_default();
                    costs
                        .notes
                        .push(format!("{}: does not build without {feature}, so it is required ({first})", t.name));
                    None
                }
                Err(e) => return Err(e),
            };
            let with = sized(&pair.1)?;
            costs.rows.push(CostRow { example: t.name.clone(), feature: feature.clone(), without, with });
        }
    }
    match variants {
        [a, b, ..] => {
            let feature = if b.label == "lean" { "lean-alloc" } else { "dlmalloc" };
            for t in &targets {
                log(&format!("{}: {} instead of {}…", t.name, b.label, a.label));
                let without = size(&pkg.selection(a, t), t)?;
                let with = size(&pkg.selection(b, t), t)?;
                costs.rows.push(CostRow {
                    example: t.name.clone(),
                    feature: feature.into(),
                    without: Some(without),
                    with,
                });
            }
        }
        [only] => costs.notes.push(format!(
            "allocator: {} only: {} has no feature that forwards the other allocator while turning {} off (e.g. \
             default = [\"dlmalloc\"], dlmalloc = [\"subako-tiny/dlmalloc\"], lean-alloc = \
             [\"subako-tiny/lean-alloc\", \"subako-tiny/panic-handler\"], with default-features = false on the \
             dependency)",
            allocator(pkg.crate_features_of(&only.selection)?.as_deref()),
            pkg.name,
            only.label
        )),
        [] => {}
    }
    Ok(costs)
}
