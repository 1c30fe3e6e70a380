//! `subako-tiny size`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde_json::{Value, json};
use subako_tiny_runner::{
    Error, Measure, PackageOptions, PackageReport, Part, Selection, advice_text, advise, compare, explain,
    feature_costs, measure_package,
};

use super::CallSpec;

/// What a module is made of: sections, code and data bytes, functions, initial pages, imports and exports;
/// --explain adds every function by size and owner and the std routines with a cheaper equivalent. With
/// --manifest-path: builds the package's binaries for wasm32-wasip1 with its release profile (each allocator its
/// features can choose), checks each as the upload does, measures it (bytes, wasm-opt -Oz, gzip -9, pages,
/// compile and call time, fuel), and holds it to the budgets of [package.metadata.subako-tiny].
#[derive(Args)]
pub struct Size {
    /// The module (or give --manifest-path to build and measure a package)
    #[arg(conflicts_with = "manifest_path")]
    module: Option<PathBuf>,
    /// The package to build and measure (its Cargo.toml, or its directory)
    #[arg(long = "manifest-path", value_name = "PATH")]
    manifest_path: Option<PathBuf>,
    /// Measure the package's examples instead of its binaries
    #[arg(long, requires = "manifest_path")]
    examples: bool,
    /// Exit 1 when a module is over its budget (budget = { BIN = BYTES } or { BIN = { dlmalloc = BYTES, lean =
    /// BYTES } } in [package.metadata.subako-tiny]), naming the module, its bytes and its budget; with
    /// --feature-costs or --explain, after their report, from the release builds
    #[arg(long, requires = "manifest_path")]
    check: bool,
    /// Build each module without and with each optional feature of subako-tiny the package can turn on, and with
    /// the other allocator, and print the difference
    #[arg(long = "feature-costs", requires = "manifest_path")]
    feature_costs: bool,
    /// Where the bytes go: with MODULE.wasm, every function by size and owner (an unstripped build has the
    /// names); with --manifest-path, of binary (or example) NAME, from an unstripped build of it with the package's
    /// default features or --features (--allocator dlmalloc or lean for the other)
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "")]
    explain: Option<String>,
    /// Also print the change of each row against an earlier --json report (FILE)
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Print the report as JSON
    #[arg(long)]
    json: bool,
    /// Also write the JSON report to FILE (a package's report then goes
    /// there, not to the target directory's size-report/report.json)
    #[arg(long = "json-out", value_name = "FILE")]
    json_out: Option<PathBuf>,
    /// Rows of --explain's lists
    #[arg(long, value_name = "N", default_value_t = 25)]
    top: usize,
    /// Only this binary or example (repeatable)
    #[arg(long, value_name = "NAME")]
    only: Vec<String>,
    /// Only the build with this allocator (dlmalloc or lean; repeatable)
    #[arg(long, value_name = "ALLOCATOR")]
    allocator: Vec<String>,
    /// Build with these features of the package as well as its defaults (comma- or space-separated;
    /// repeatable), as cargo build --features does
    #[arg(long, value_name = "FEATURES", requires = "manifest_path", conflicts_with = "feature_costs")]
    features: Vec<String>,
    /// Build without the package's default features (give its allocator's feature with --features), as cargo
    /// build --no-default-features does
    #[arg(long = "no-default-features", requires = "manifest_path", conflicts_with = "feature_costs")]
    no_default_features: bool,
    /// Sizes and the check only: no compile or call time, no fuel
    #[arg(long)]
    quick: bool,
    /// Leave out the advisor (it needs an unstripped build of each module)
    #[arg(long = "no-advice")]
    no_advice: bool,
    /// Timed calls per module
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = super::at_least_one)]
    calls: usize,
    /// Timed cold compiles per module
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = super::at_least_one)]
    compiles: usize,
    /// Build under DIR (one directory per feature selection); default: size-report in the package's target
    /// directory (CARGO_TARGET_DIR's, when set)
    #[arg(long = "target-dir", value_name = "DIR")]
    target_dir: Option<PathBuf>,
    /// Pass --ignore-rust-version to cargo build
    #[arg(long = "ignore-rust-version")]
    ignore_rust_version: bool,
    /// Build with the link arguments of the README's build.rs, through RUSTFLAGS (for a package without that build.rs)
    #[arg(long = "link-args")]
    link_args: bool,
    /// Write LABEL in the rows' allocator column
    #[arg(long, value_name = "LABEL")]
    label: Option<String>,
    /// Print an earlier --json report (FILE) again instead of measuring
    #[arg(long, value_name = "FILE", conflicts_with_all = ["module", "manifest_path"])]
    from: Option<PathBuf>,
    /// With --from: only these parts (repeatable)
    #[arg(long, value_enum, requires = "from")]
    part: Vec<Part>,
    #[command(flatten)]
    calls_: CallSpec,
}

fn read_json(path: &Path) -> Result<Value, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::file(path, e))?;
    serde_json::from_str(&text)
        .map_err(|e| Error::Input(format!("{}: not a report of `subako-tiny size --json` ({e})", path.display())))
}

impl Size {
    pub fn run(mut self) -> Result<ExitCode, Error> {
        if let Some(from) = &self.from {
            return self.reprint(from);
        }
        if self.manifest_path.is_none() && self.module.is_none() {
            match self.explain.take() {
                // `size --explain MODULE.wasm`: the parser gave the path to
                // --explain, whose NAME only a package's binaries have.
                Some(name) if !name.is_empty() => {
                    self.module = Some(name.into());
                    self.explain = Some(String::new());
                }
                _ => {
                    return Err(Error::Input(
                        "size: give MODULE.wasm, or --manifest-path PATH to build and measure a package".into(),
                    ));
                }
            }
        }
        match (self.manifest_path.clone(), self.module.clone()) {
            (Some(m), _) => self.package(&m),
            (None, Some(module)) => {
                // Flags that build or call a package mean nothing for a
                // module read alone: refused, not passed over (review 71).
                let package_only = [
                    ("--check", self.check),
                    ("--feature-costs", self.feature_costs),
                    ("--examples", self.examples),
                    ("--only", !self.only.is_empty()),
                    ("--allocator", !self.allocator.is_empty()),
                    ("--quick", self.quick),
                    ("--no-advice", self.no_advice),
                    ("--baseline", self.baseline.is_some()),
                    ("--json-out", self.json_out.is_some()),
                    ("--target-dir", self.target_dir.is_some()),
                    ("--ignore-rust-version", self.ignore_rust_version),
                    ("--link-args", self.link_args),
                    ("--label", self.label.is_some()),
                    ("--tool", self.calls_.tool.is_some()),
                    ("--args", self.calls_.args.is_some()),
                    ("--args-file", self.calls_.args_file.is_some()),
                    ("--then", !self.calls_.then.then.is_empty()),
                ];
                let given: Vec<&str> = package_only.iter().filter(|(_, on)| *on).map(|(flag, _)| *flag).collect();
                if !given.is_empty() {
                    return Err(Error::Input(format!(
                        "size {}: a module alone is only read, and these flags build, call or report on a package: \
                         {}; give --manifest-path PATH instead of the module",
                        module.display(),
                        given.join(", ")
                    )));
                }
                self.module(&module)
            }
            (None, None) => unreachable!("a module or a manifest is set above"),
        }
    }

    /// `size MODULE.wasm`.
    fn module(&self, p: &Path) -> Result<ExitCode, Error> {
        let bytes = std::fs::read(p).map_err(|e| Error::file(p, e))?;
        let mut r = subako_tiny_runner::size(&bytes).map_err(|e| Error::NotAModule(format!("{}: {e}", p.display())))?;
        let explain = self.explain.is_some();
        if explain {
            r.cut_data(&bytes);
        }
        // A module alone has no package: every crate but the standard ones, the crate's and C's is the author's.
        let authors: Vec<&str> = r.funcs.iter().map(|f| f.owner.as_str()).filter(|o| !library(o)).collect();
        let advice = if explain { advise(&bytes, &r, &authors) } else { Vec::new() };
        if self.json {
            let mut v = r.to_json(explain);
            v["module"] = json!(p);
            if explain {
                v["advice"] = json!(advice);
            }
            subako_tiny_runner::outln!("{v}");
        } else {
            subako_tiny_runner::out!("{}: {}", p.display(), r.to_text(explain, self.top));
            if explain && r.has_names {
                subako_tiny_runner::out!("{}", advice_text(&advice));
            } else if explain {
                // Silence here would read as a clean result.
                subako_tiny_runner::out!(
                    "\nstd routines with a cheaper equivalent: not looked for (a stripped module has no names; \
                     build it with CARGO_PROFILE_RELEASE_STRIP=false, or give --manifest-path)\n"
                );
            }
        }
        Ok(ExitCode::SUCCESS)
    }

    fn options(&self, manifest: &Path) -> Result<PackageOptions, Error> {
        let spec = &self.calls_;
        Ok(PackageOptions {
            manifest: manifest.to_path_buf(),
            examples: self.examples,
            only: self.only.clone(),
            allocators: self.allocator.clone(),
            target_dir: self.target_dir.clone(),
            ignore_rust_version: self.ignore_rust_version,
            link_args: self.link_args,
            label: self.label.clone(),
            advice: !self.no_advice,
            features: self.chosen(),
            measure: Measure {
                quick: self.quick,
                calls: self.calls,
                compiles: self.compiles,
                tool: spec.tool.clone(),
                args: spec.args()?,
                tool_from_settings: false,
                then: spec.then.calls()?,
                call: {
                    spec.call.check_dirs()?;
                    spec.call.measure_options()
                },
            },
        })
    }

    /// The features --features and --no-default-features choose; `None` for the package's defaults.
    fn chosen(&self) -> Option<Selection> {
        let features: Vec<String> = self
            .features
            .iter()
            .flat_map(|f| f.split([',', ' ']))
            .filter(|f| !f.is_empty())
            .map(str::to_string)
            .collect();
        (self.no_default_features || !features.is_empty()).then(|| Selection::new(!self.no_default_features, features))
    }

    /// `size --manifest-path PATH …`.
    fn package(&self, manifest: &Path) -> Result<ExitCode, Error> {
        // Read before this run writes its own report, which may be the same file.
        let baseline = self.baseline.as_deref().map(|b| read_json(b).map(|v| (b, v))).transpose()?;
        let opts = self.options(manifest)?;
        if let Some(name) = &self.explain {
            let mut pkg = subako_tiny_runner::Package::load(manifest, self.examples)?;
            if let Some(sel) = &opts.features {
                pkg.choose(sel.clone())?;
            }
            let variants = pkg.variants()?;
            let variant = match self.allocator.first() {
                Some(a) => variants
                    .iter()
                    .find(|v| &v.label == a)
                    .ok_or_else(|| Error::Input(format!("--allocator {a}: {} has no such build", pkg.name)))?,
                // The build as the package's defaults (or --features) make it.
                None => variants.iter().find(|v| v.selection == pkg.chosen).unwrap_or(&variants[0]),
            };
            let name = if name.is_empty() {
                match pkg.targets.as_slice() {
                    [only] => only.name.clone(),
                    _ => {
                        let names: Vec<&str> = pkg.targets.iter().map(|t| t.name.as_str()).collect();
                        return Err(Error::Input(format!("--explain NAME: which one? ({})", names.join(", "))));
                    }
                }
            } else {
                name.clone()
            };
            let e = explain(&pkg, &opts, variant, &name, self.top)?;
            if self.json {
                subako_tiny_runner::outln!("{}", e.to_json());
            } else {
                subako_tiny_runner::out!("{}", e.to_text());
            }
            return self.check_after(&opts);
        }
        if self.feature_costs {
            let pkg = subako_tiny_runner::Package::load(manifest, self.examples)?;
            let variants = pkg.variants()?;
            let costs = feature_costs(&pkg, &opts, &variants)?;
            if self.json {
                subako_tiny_runner::outln!("{}", serde_json::to_string(&costs)?);
            } else {
                subako_tiny_runner::out!("{}", costs.to_text());
            }
            if let Some(out) = &self.json_out {
                write_json(out, &serde_json::to_value(&costs)?)?;
            }
            return self.check_after(&opts);
        }
        let (pkg, mut report) = measure_package(&opts)?;
        if self.link_args {
            report.link_args = subako_tiny_runner::link_args(false).iter().map(|a| a.to_string()).collect();
            report.notes.push(format!(
                "built with the link arguments of the README's build.rs: {}",
                report.link_args.join(" ")
            ));
        }
        let value = serde_json::to_value(&report)?;
        // Where --json-out says, else the package's last report: two
        // packages that share a target directory can keep theirs apart.
        let out = match &self.json_out {
            Some(o) => o.clone(),
            None => pkg.out_dir(self.target_dir.as_deref()).join("report.json"),
        };
        write_json(&out, &value)?;
        let mut status = if report.accepted() { ExitCode::SUCCESS } else { ExitCode::FAILURE };
        if self.json {
            subako_tiny_runner::outln!("{value}");
        } else {
            subako_tiny_runner::out!("{}", report.to_text(&[Part::Header, Part::Table, Part::Notes]));
            // A file the caller named is theirs to tell of.
            if self.json_out.is_none() {
                subako_tiny_runner::outln!("\nwritten: {}", out.display());
            }
            if let Some((path, old)) = &baseline {
                subako_tiny_runner::out!("{}", compare(old, &path.display().to_string(), &value));
            }
            subako_tiny_runner::out!("{}", report.refused_text());
        }
        if self.check && !self.print_check(&report, &pkg.manifest) {
            status = ExitCode::FAILURE;
        }
        Ok(status)
    }

    /// After --feature-costs or --explain: with --check, the budgets held against the release builds (sizes only,
    /// as --quick --no-advice measures them), so the exit code says what --check alone would.
    fn check_after(&self, opts: &PackageOptions) -> Result<ExitCode, Error> {
        if !self.check {
            return Ok(ExitCode::SUCCESS);
        }
        let mut opts = opts.clone();
        opts.measure.quick = true;
        opts.advice = false;
        let (pkg, report) = measure_package(&opts)?;
        Ok(if self.print_check(&report, &pkg.manifest) { ExitCode::SUCCESS } else { ExitCode::FAILURE })
    }

    /// Prints the budget verdict (on stderr under --json, which keeps stdout JSON); whether every budget holds.
    fn print_check(&self, report: &PackageReport, manifest: &Path) -> bool {
        let (text, ok) = report.check_text(manifest);
        if self.json {
            eprint!("{text}");
        } else {
            subako_tiny_runner::out!("{text}");
        }
        ok
    }

    /// `size --from FILE`: a stored report printed again.
    fn reprint(&self, from: &Path) -> Result<ExitCode, Error> {
        let value = read_json(from)?;
        let report: PackageReport = serde_json::from_value(value.clone()).map_err(|e| {
            Error::Input(format!("{}: not a report of `subako-tiny size --json` ({e})", from.display()))
        })?;
        let parts = if self.part.is_empty() { Part::ALL.to_vec() } else { self.part.clone() };
        subako_tiny_runner::out!("{}", report.to_text(&parts));
        if let Some(b) = &self.baseline
            && parts.contains(&Part::Change)
        {
            subako_tiny_runner::out!("{}", compare(&read_json(b)?, &b.display().to_string(), &value));
        }
        Ok(ExitCode::SUCCESS)
    }
}

fn write_json(path: &Path, v: &Value) -> Result<(), Error> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::file(dir, e))?;
    }
    std::fs::write(path, format!("{v:#}\n")).map_err(|e| Error::file(path, e))
}

/// The standard library's crates, the subako-tiny crate's, and what is not Rust.
fn library(owner: &str) -> bool {
    ["core", "alloc", "std", "compiler_builtins", "dlmalloc", "libm"].contains(&owner)
        || owner.starts_with("subako_tiny")
        || owner.starts_with("C ")
        || owner.starts_with("wasi")
        || owner.starts_with("global allocator")
        || owner.starts_with('(')
}
