//! The size table of a package: each module of each build, measured; its
//! notes (refusals, warnings, a failed or isError call, the advisor), the
//! budget verdict, and its change against an earlier report.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::builds::{PackageOptions, build, log, names_build};
use super::costs::FeatureCosts;
use super::measure::{Row, measure_row, wasm_opt_version};
use super::{Package, SETTINGS, Variant, profile};
use crate::Error;
use crate::text::{count, decimal, table, thousands};

/// Advice on fewer bytes than this stays out of the table (`--explain` gives it all).
const ADVICE_MIN_BYTES: u64 = 100;

/// What the report was made with.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Meta {
    pub date: String,
    pub rustc: String,
    pub wasm_opt: Option<String>,
    pub wasmtime: Option<String>,
    pub command: String,
    pub quick: bool,
    pub calls: usize,
    pub compiles: usize,
}

impl Meta {
    pub fn now(quick: bool, calls: usize, compiles: usize) -> Meta {
        let rustc = std::process::Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
            .arg("-V")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        let args: Vec<String> = std::env::args().skip(1).collect();
        Meta {
            date: today(),
            rustc,
            wasm_opt: wasm_opt_version(),
            wasmtime: Some(crate::WASMTIME_VERSION.to_string()),
            command: format!("subako-tiny {}", args.join(" ")),
            quick,
            calls,
            compiles,
        }
    }
}

/// Today's date (UTC), `YYYY-MM-DD`.
fn today() -> String {
    let days = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400);
    // Howard Hinnant's civil-from-days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A package's size table, as `size --manifest-path … --json` prints it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct PackageReport {
    #[serde(flatten)]
    pub meta: Meta,
    /// The package's manifest.
    #[serde(default)]
    pub package: String,
    #[serde(default)]
    pub name: String,
    /// Whether the rows are the package's examples (a report without the
    /// key is the repository's record of its examples).
    #[serde(default = "yes")]
    pub examples: bool,
    /// Each build: its allocator and the features that give it.
    #[serde(default)]
    pub variants: Vec<VariantText>,
    pub rows: Vec<Row>,
    /// Notes for the whole package (a profile that is not the size profile).
    #[serde(default)]
    pub notes: Vec<String>,
    /// The modules the package sets a budget for.
    #[serde(default)]
    pub budgeted: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature_costs: Option<FeatureCosts>,
    /// The link arguments given through RUSTFLAGS (`--link-args`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub link_args: Vec<String>,
    /// Whether the advisor looked at each module (not `--no-advice`), so
    /// that finding nothing is said, not left as silence.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub advised: bool,
}

fn yes() -> bool {
    true
}

/// A build, as the report names it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct VariantText {
    pub allocator: String,
    pub features: String,
}

/// The parts of a report's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Part {
    /// The header: date, toolchain, package and its builds.
    Header,
    /// The size table.
    Table,
    /// What the rows say beyond the table: refusals, warnings, a failed
    /// call, the advisor; and the package's own warnings.
    Notes,
    /// The feature costs' table.
    Costs,
    /// The change against a baseline (with `--baseline`).
    Change,
}

impl Part {
    /// What `size --from` prints when no part is named.
    pub const ALL: [Part; 5] = [Part::Header, Part::Table, Part::Notes, Part::Costs, Part::Change];
}

/// Builds every selected module of the package once per build and measures it.
pub fn measure_package(opts: &PackageOptions) -> Result<(Package, PackageReport), Error> {
    let mut pkg = Package::load(&opts.manifest, opts.examples)?;
    if let Some(sel) = &opts.features {
        pkg.choose(sel.clone())?;
    }
    for name in &opts.only {
        if !pkg.targets.iter().any(|t| &t.name == name) {
            let names: Vec<&str> = pkg.targets.iter().map(|t| t.name.as_str()).collect();
            return Err(Error::Input(format!(
                "{} has no {} {name:?} (its {}: {})",
                pkg.name,
                if pkg.examples { "example" } else { "binary" },
                if pkg.examples { "examples" } else { "binaries" },
                names.join(", ")
            )));
        }
    }
    let variants = select_variants(&pkg, &opts.allocators)?;
    let mut report = PackageReport {
        meta: Meta::now(opts.measure.quick, opts.measure.calls, opts.measure.compiles),
        package: pkg.manifest.display().to_string(),
        name: pkg.name.clone(),
        examples: pkg.examples,
        variants: variants
            .iter()
            .map(|v| VariantText { allocator: v.label.clone(), features: v.selection.dir() })
            .collect(),
        budgeted: pkg.budget.keys().cloned().collect(),
        advised: opts.advice,
        ..PackageReport::default()
    };
    if let Some(w) = profile::warning(&pkg.workspace_root, &pkg.manifest)? {
        report.notes.push(w);
    }
    if opts.features.is_some() && !pkg.chosen.args().is_empty() {
        report.notes.push(format!("built with {}: not as the package's defaults alone", pkg.chosen.args().join(" ")));
    }
    let authors = authors(&pkg);
    // The package's assets, for a call that reads them, unless --assets
    // says otherwise.
    let mut measure = opts.measure.clone();
    if measure.call.assets_dir.is_none() {
        measure.call.assets_dir = pkg.assets.clone();
    }
    // And its data and call, unless the options give them.
    if measure.call.data_dir.is_none() {
        measure.call.data_dir = pkg.data.clone();
    }
    // The settings' tool unless one is named; their arguments with it,
    // unless others are given (review 80: `--args` alone measured the
    // first tool).
    if measure.tool.is_none() && pkg.tool.is_some() {
        measure.tool = pkg.tool.clone();
        measure.tool_from_settings = true;
    }
    if measure.args.is_none() && measure.tool == pkg.tool {
        measure.args = pkg.args.clone();
    }
    for t in pkg.targets.iter().filter(|t| opts.only.is_empty() || opts.only.contains(&t.name)) {
        for v in &variants {
            let sel = pkg.selection(v, t);
            log(&format!("{} ({}: {})…", t.name, v.label, sel.dir()));
            let path = build(&pkg, opts, &sel, Some(&t.name), &[])?.join(format!("{}.wasm", t.name));
            if !path.is_file() {
                return Err(Error::Command(format!(
                    "{} was not built: {} {} needs features {:?}",
                    path.display(),
                    if pkg.examples { "example" } else { "binary" },
                    t.name,
                    t.required_features
                )));
            }
            let names = if opts.advice { Some(names_build(&pkg, opts, &sel, &t.name)?) } else { None };
            let mut a: Vec<&str> = authors.iter().map(String::as_str).collect();
            let own = t.name.replace('-', "_");
            a.push(&own);
            let mut row = measure_row(&path, names.as_deref(), &a, &measure)?;
            row.example = t.name.clone();
            row.allocator = opts.label.clone().unwrap_or_else(|| v.label.clone());
            row.module = pkg.shown(&path);
            row.budget = pkg.budget_for(&t.name, &v.label);
            report.rows.push(row);
        }
    }
    Ok((pkg, report))
}

/// The crates whose code is the package author's: the package's library (its name, `-` as `_`).
fn authors(pkg: &Package) -> Vec<String> {
    vec![pkg.name.replace('-', "_")]
}

/// The package's builds, or those of the allocators asked for.
fn select_variants(pkg: &Package, allocators: &[String]) -> Result<Vec<Variant>, Error> {
    let all = pkg.variants()?;
    if allocators.is_empty() {
        return Ok(all);
    }
    if let Some(a) = allocators.iter().find(|a| !super::ALLOCATORS.contains(&a.as_str())) {
        return Err(Error::Input(format!(
            "--allocator {a}: no such allocator (the labels: {})",
            super::ALLOCATORS.join(", ")
        )));
    }
    let picked: Vec<Variant> = all.iter().filter(|v| allocators.contains(&v.label)).cloned().collect();
    if picked.is_empty() {
        return Err(Error::Input(format!(
            "--allocator {}: {} builds with {} only (no feature of its own forwards the other allocator)",
            allocators.join(", "),
            pkg.name,
            all.iter().map(|v| v.label.as_str()).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(picked)
}

impl PackageReport {
    /// Rows over their budget.
    pub fn over_budget(&self) -> Vec<&Row> {
        self.rows.iter().filter(|r| r.over_budget()).collect()
    }

    /// Whether every module was accepted.
    pub fn accepted(&self) -> bool {
        self.rows.iter().all(|r| r.accepted)
    }

    /// The parts asked for, as text.
    pub fn to_text(&self, parts: &[Part]) -> String {
        let mut s = String::new();
        if parts.contains(&Part::Header) {
            s += &format!(
                "subako-tiny size report, {}, {}, wasm-opt: {}\n",
                self.meta.date,
                self.meta.rustc,
                self.meta.wasm_opt.as_deref().unwrap_or("not installed (apt-get install binaryen)")
            );
            let builds: Vec<String> =
                self.variants.iter().map(|v| format!("{}: {}", v.allocator, v.features)).collect();
            s += &format!("package {} ({}): {}\n", self.name, self.package, builds.join("; "));
        }
        if parts.contains(&Part::Table) {
            s += &self.table();
        }
        if parts.contains(&Part::Notes) {
            s += &self.row_notes();
            for n in &self.notes {
                s += &format!("warning: {n}\n");
            }
        }
        if parts.contains(&Part::Costs)
            && let Some(c) = &self.feature_costs
        {
            s += &c.table();
        }
        s
    }

    /// The size table alone.
    pub fn table(&self) -> String {
        let first = if self.examples { "example" } else { "binary" };
        let budgets = self.rows.iter().any(|r| r.budget.is_some());
        let mut headers = vec![
            first,
            "allocator",
            "bytes",
            "wasm-opt -Oz",
            "gzip -9",
            "pages",
            "compile ms",
            "call µs (p10–p90)",
            "call fuel",
            "check",
        ];
        if budgets {
            headers.push("budget");
        }
        let body: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                let call = match (r.call_us, r.call_us_p10, r.call_us_p90) {
                    (Some(m), Some(lo), Some(hi)) => format!("{m:.0} ({lo:.0}–{hi:.0})"),
                    _ => "-".into(),
                };
                // A call that failed measured the failure, not the tool.
                let fuel = match (&r.call_problem, r.call_fuel) {
                    (Some(p), Some(f)) => {
                        format!("{} ({})", thousands(f as usize), p.split(':').next().unwrap_or("failed"))
                    }
                    (_, f) => count(f),
                };
                let mut cells = vec![
                    r.example.clone(),
                    r.allocator.clone(),
                    thousands(r.bytes as usize),
                    count(r.wasm_opt_bytes),
                    count(r.gzip_bytes),
                    count(r.pages),
                    decimal(r.compile_ms, 2),
                    call,
                    fuel,
                    if r.accepted { "ok".into() } else { "REFUSED".into() },
                ];
                if budgets {
                    cells.push(match r.budget {
                        None => "-".into(),
                        Some(b) if r.bytes <= b => format!("within {}", thousands(b as usize)),
                        Some(b) => format!("OVER {}", thousands(b as usize)),
                    });
                }
                cells
            })
            .collect();
        table(&headers, &body, &[0, 1], "")
    }

    /// Each row's failures, warnings, failed call and advice, as lines.
    pub fn row_notes(&self) -> String {
        let mut s = String::new();
        for r in &self.rows {
            let who = format!("{} ({})", r.example, r.allocator);
            for f in &r.failures {
                s += &format!("{who}: {f}\n");
            }
            for w in &r.warnings {
                s += &format!("{who}: warning: {w}\n");
            }
            // The call the figures are of, once per module (its allocators
            // make the same call).
            let first = self.rows.iter().position(|x| x.example == r.example);
            if r.call_fuel.is_some()
                && first.is_some_and(|i| std::ptr::eq(&self.rows[i], r))
                && let (Some(tool), Some(args)) = (&r.tool, &r.args)
            {
                s += &format!(
                    "{}: the measured call: {tool} {args} (--tool T --args JSON measure another; `tool`, `args` \
                     and `data` in [package.metadata.subako-tiny] make one the package's own)\n",
                    r.example
                );
            }
            if let Some(p) = &r.call_problem {
                s += &format!(
                    "{who}: the measured call {} answered {p}: its figures are the failure's ({})\n",
                    r.tool.as_deref().unwrap_or("-"),
                    measured_call_fix(p)
                );
            }
            for l in &r.layers {
                let tools = if l.tools.is_empty() { String::new() } else { format!(", for {}", l.tools.join(", ")) };
                s += &format!(
                    "{who}: {}: at least {} B ({} of code, {} of data){tools} (size --explain {}: what to write \
                     instead)\n",
                    l.layer,
                    thousands((l.bytes + l.data) as usize),
                    thousands(l.bytes as usize),
                    thousands(l.data as usize),
                    r.example
                );
            }
            let (shown, small): (Vec<_>, Vec<_>) = r.advice.iter().partition(|a| a.bytes >= ADVICE_MIN_BYTES);
            if shown.is_empty() && !small.is_empty() && self.advised {
                s += &format!(
                    "{who}: std routines with a cheaper equivalent: none of {ADVICE_MIN_BYTES} B or more ({} under: \
                     size --explain lists them)\n",
                    small.len()
                );
            }
            if !shown.is_empty() {
                s += &format!(
                    "{who}: std routines with a cheaper equivalent (the least that goes with each, as what the \
                     compiler inlined into your functions goes too; the equivalent's own bytes come back):\n"
                );
                for a in shown {
                    s += &a.to_text();
                }
                if !small.is_empty() {
                    s += &format!(
                        "            (and {} under {ADVICE_MIN_BYTES} B: size --explain lists them)\n",
                        small.len()
                    );
                }
            }
        }
        if self.advised && self.rows.iter().all(|r| r.advice.is_empty()) {
            s += "std routines with a cheaper equivalent: none in any module (the advisor read each)\n";
        }
        s
    }

    /// The `--check` verdict: (text, whether it passed).
    pub fn check_text(&self, manifest: &Path) -> (String, bool) {
        let over = self.over_budget();
        let mut s = String::new();
        let ok;
        if !over.is_empty() {
            s += &format!("\nFAILED: {} module(s) over budget:\n", over.len());
            for r in &over {
                let build = if ["-", ""].contains(&r.allocator.as_str()) {
                    String::new()
                } else {
                    format!(", {} build", r.allocator)
                };
                s += &format!(
                    "  {}: {} bytes, over its budget of {} ({SETTINGS}.budget){build}\n",
                    r.example,
                    thousands(r.bytes as usize),
                    thousands(r.budget.unwrap_or(0) as usize)
                );
            }
            ok = false;
        } else if self.budgeted.is_empty() {
            let names: Vec<String> = unique(self.rows.iter().map(|r| r.example.clone()));
            let list: Vec<String> = names.iter().map(|n| format!("{n} = BYTES")).collect();
            s += &format!(
                "\n--check: no budgets: add to {}:\n[{SETTINGS}]\nbudget = {{ {} }}\n",
                manifest.display(),
                list.join(", ")
            );
            ok = false;
        } else {
            s += &format!("\nwithin budget: every module with a budget ({SETTINGS}.budget)\n");
            ok = true;
        }
        let unbudgeted: Vec<String> =
            unique(self.rows.iter().filter(|r| r.budget.is_none()).map(|r| r.example.clone()));
        if !unbudgeted.is_empty() && !self.budgeted.is_empty() {
            s += &format!("(no budget for: {})\n", unbudgeted.join(", "));
        }
        (s, ok)
    }

    /// The refusals, as a closing line (empty when every module was accepted).
    pub fn refused_text(&self) -> String {
        let refused: Vec<String> =
            self.rows.iter().filter(|r| !r.accepted).map(|r| format!("{} ({})", r.example, r.allocator)).collect();
        if refused.is_empty() {
            String::new()
        } else {
            format!("\nFAILED: {} module(s) refused by check: {}\n", refused.len(), refused.join(", "))
        }
    }
}

fn unique(it: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for x in it {
        if !v.contains(&x) {
            v.push(x);
        }
    }
    v
}

/// The rows of a report (any `size --json`, or a report holding `rows` and
/// `official`), keyed by module and allocator.
fn rows_of(v: &serde_json::Value) -> Vec<Row> {
    let mut out = Vec::new();
    for key in ["rows", "official"] {
        for r in v[key].as_array().into_iter().flatten() {
            if let Ok(row) = serde_json::from_value::<Row>(r.clone()) {
                out.push(row);
            }
        }
    }
    out
}

/// The change of every row of `new` against the same row (module and
/// allocator) of `old`: a table under the line naming `old`. A row of `old`
/// that `new` lacks is `(gone)` when `in_scope` says `new` should have it.
pub fn compare(old: &serde_json::Value, old_name: &str, new: &serde_json::Value) -> String {
    let old_rows: BTreeMap<(String, String), Row> =
        rows_of(old).into_iter().map(|r| ((r.example.clone(), r.allocator.clone()), r)).collect();
    let new_rows = rows_of(new);
    let delta = |o: Option<f64>, n: Option<f64>| -> String {
        let show = |x: f64| if x.fract() == 0.0 { thousands(x.abs() as usize) } else { format!("{x:.2}") };
        match (o, n) {
            (_, None) => "-".into(),
            (None, Some(n)) => format!("{} (new)", show(n)),
            (Some(o), Some(n)) if o == n => format!("{} (=)", show(n)),
            (Some(o), Some(n)) => {
                let d = n - o;
                let sign = if d < 0.0 { "-" } else { "+" };
                let pct = if o != 0.0 { format!(" {:+.1}%", d / o * 100.0) } else { String::new() };
                format!("{} ({sign}{}{pct})", show(n), show(d.abs()))
            }
        }
    };
    let figures = |r: &Row| -> [Option<f64>; 7] {
        [
            Some(r.bytes as f64),
            r.wasm_opt_bytes.map(|x| x as f64),
            r.gzip_bytes.map(|x| x as f64),
            r.pages.map(|x| x as f64),
            r.compile_ms,
            r.call_us,
            r.call_fuel.map(|x| x as f64),
        ]
    };
    let mut body = Vec::new();
    let mut seen = Vec::new();
    for r in &new_rows {
        let key = (r.example.clone(), r.allocator.clone());
        let o = old_rows.get(&key);
        let mut cells = vec![r.example.clone(), r.allocator.clone()];
        let nf = figures(r);
        let of = o.map(figures).unwrap_or([None; 7]);
        cells.extend(of.iter().zip(nf).map(|(o, n)| delta(*o, n)));
        body.push(cells);
        seen.push(key);
    }
    let names: Vec<&str> = new_rows.iter().map(|r| r.example.as_str()).collect();
    let allocators: Vec<&str> = new_rows.iter().map(|r| r.allocator.as_str()).collect();
    let mut outside = 0;
    for key in old_rows.keys() {
        if seen.contains(key) {
            continue;
        }
        if names.contains(&key.0.as_str()) && allocators.contains(&key.1.as_str()) {
            let mut cells = vec![key.0.clone(), key.1.clone()];
            cells.extend(std::iter::repeat_n("(gone)".to_string(), 7));
            body.push(cells);
        } else {
            outside += 1;
        }
    }
    let mut s = format!(
        "\nchange against {old_name} ({}, {}):\n",
        old["date"].as_str().unwrap_or("?"),
        old["rustc"].as_str().unwrap_or("?")
    );
    let headers =
        ["example", "allocator", "bytes", "wasm-opt -Oz", "gzip -9", "pages", "compile ms", "call µs", "call fuel"];
    s += &table(&headers, &body, &[0, 1], "");
    if outside > 0 {
        s += &format!("({outside} rows of the baseline are outside this run's selection)\n");
    }
    s
}

/// What to give `size` so that its measured call answers, for the problem
/// `problem` that call had: the volume the module found missing, or the
/// call itself.
fn measured_call_fix(problem: &str) -> &'static str {
    crate::bench::missing_grant(problem).unwrap_or(
        "give the call with --tool, --args and the call options, or name it in [package.metadata.subako-tiny] \
         (tool, args, data, assets)",
    )
}

#[cfg(test)]
mod tests {
    use super::{PackageReport, measured_call_fix};
    use crate::advisor::Advice;
    use crate::package::measure::{LayerCost, Row};

    fn advice(bytes: u64) -> Advice {
        Advice { idiom: "Vec growth".into(), bytes, routines: vec!["grow_one".into()], instead: "iterate".into() }
    }

    #[test]
    fn the_advisor_finding_nothing_large_is_said() {
        let row = |advice| Row { example: "mytool".into(), allocator: "dlmalloc".into(), advice, ..Row::default() };
        let mut report = PackageReport { rows: vec![row(vec![advice(66)])], advised: true, ..PackageReport::default() };
        let said = report.row_notes();
        assert!(
            said.contains("mytool (dlmalloc): std routines with a cheaper equivalent: none of 100 B or more (1 under"),
            "{said}"
        );
        report.rows = vec![row(vec![])];
        assert!(report.row_notes().contains("none in any module"), "{}", report.row_notes());
        report.rows = vec![row(vec![advice(300)])];
        let said = report.row_notes();
        assert!(said.contains("300 B") && !said.contains("none"), "{said}");
        // The crate's optional layers are named with the tools behind them.
        report.rows = vec![Row {
            layers: vec![LayerCost {
                layer: "validated! (the checker)".into(),
                bytes: 6216,
                data: 300,
                tools: vec!["order".into()],
            }],
            ..row(vec![])
        }];
        let said = report.row_notes();
        assert!(
            said.contains(
                "mytool (dlmalloc): validated! (the checker): at least 6,516 B (6,216 of code, 300 of data), for \
                 order (size --explain mytool"
            ),
            "{said}"
        );
        // The measured call is named once, with the arguments it was given.
        let measured = Row {
            call_fuel: Some(42_755),
            tool: Some("greet".into()),
            args: Some(serde_json::json!({"name": "Ada"})),
            ..row(vec![])
        };
        report.rows = vec![measured.clone(), Row { allocator: "lean".into(), ..measured }];
        let said = report.row_notes();
        assert_eq!(said.matches("the measured call").count(), 1, "{said}");
        assert!(said.contains(r#"mytool: the measured call: greet {"name":"Ada"} (--tool T"#), "{said}");
        // With --no-advice the advisor read nothing, and nothing is claimed.
        report.advised = false;
        report.rows = vec![row(vec![])];
        assert_eq!(report.row_notes(), "");
    }

    #[test]
    fn a_missing_volume_names_the_option_that_mounts_it() {
        let data = "isError: read /volume/data/notes/notes.jsonl: /volume/data is not mounted: the agent has not \
                    enabled it";
        assert!(measured_call_fix(data).contains("--data DIR"));
        let assets = "isError: read /package/stopwords.txt: /package is not mounted: the package has no assets";
        assert!(measured_call_fix(assets).contains("--assets DIR"));
        assert!(measured_call_fix("isError: name: missing").contains("--tool, --args"));
        // Author trial 22: an HTTP tool measured without a grant.
        let http = "isError: HTTP request failed (abi): subako_http returned -1: no network for this call (none \
                    granted; locally: subako-tiny --allow-host), or a range outside memory";
        assert!(measured_call_fix(http).contains("--allow-host HOST"));
    }
}
