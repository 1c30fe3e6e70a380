//! `subako-tiny size --manifest-path`: an author's package (or, with
//! `--examples`, a package's examples) built for wasm32-wasip1 with its own
//! release profile, once per allocator its features can choose, each module
//! checked as upload does, measured, held to its budget and explained.
//!
//! What the package is comes from `cargo metadata`, which features a build
//! selects from `cargo tree`: Cargo's own rules, not a copy of them.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::Error;

mod builds;
pub(crate) mod cargo;
mod costs;
mod explain;
mod measure;
mod profile;
mod report;

pub use builds::{Measure, PackageOptions};
pub use cargo::Selection;
pub use costs::{CostRow, FeatureCosts, feature_costs};
pub use explain::advice_text;
pub use explain::{Explained, explain};
pub use measure::{Row, sample_args};
pub use report::{Meta, PackageReport, Part, compare, measure_package};

/// The crate whose features pick the allocator.
pub const CRATE: &str = "subako-tiny";
/// Where a package's settings live.
pub const SETTINGS: &str = "package.metadata.subako-tiny";
/// The allocator labels a budget may name.
pub const ALLOCATORS: [&str; 3] = ["dlmalloc", "lean", "own allocator"];

/// One module a package builds: a binary, or an example with the features it requires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub name: String,
    pub required_features: Vec<String>,
}

/// A build of the package: its allocator's label and the features that give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub label: String,
    pub selection: Selection,
}

/// A package as `cargo metadata` describes it.
#[derive(Debug)]
pub struct Package {
    pub name: String,
    pub manifest: PathBuf,
    pub workspace_root: PathBuf,
    pub target_directory: PathBuf,
    /// Its `[features]`.
    pub features: BTreeMap<String, Vec<String>>,
    /// Its binaries, or (`examples`) its examples.
    pub targets: Vec<Target>,
    pub examples: bool,
    /// The crate's own features (when the package is or depends on it).
    pub crate_features: BTreeMap<String, Vec<String>>,
    /// The features its builds are measured with: the defaults, unless
    /// [`choose`](Package::choose) was given others (`size --features`).
    pub chosen: Selection,
    /// `budget` of `[package.metadata.subako-tiny]`, as given.
    pub budget: BTreeMap<String, Value>,
    /// `assets` of `[package.metadata.subako-tiny]`: the directory mounted
    /// at /package for the measured call when `--assets` is not given.
    pub assets: Option<PathBuf>,
    /// `data`: the directory a copy of which is mounted at /volume/data for
    /// the measured call when `--data` is not given.
    pub data: Option<PathBuf>,
    /// `tool` and `args`: the measured call when `--tool` and `--args` are
    /// not given.
    pub tool: Option<String>,
    pub args: Option<Value>,
    resolved: RefCell<HashMap<Selection, Option<Vec<String>>>>,
}

impl Package {
    /// Reads the package at `manifest` (a `Cargo.toml`, or its directory).
    pub fn load(manifest: &Path, examples: bool) -> Result<Package, Error> {
        let mp = if manifest.is_dir() { manifest.join("Cargo.toml") } else { manifest.to_path_buf() };
        if !mp.is_file() {
            return Err(Error::Input(format!(
                "--manifest-path {}: no such file; give the package's Cargo.toml (e.g. --manifest-path \
                 ../mytool/Cargo.toml)",
                manifest.display()
            )));
        }
        let mp = mp.canonicalize().map_err(|e| Error::file(&mp, e))?;
        let meta = cargo::metadata(&mp)?;
        let packages = meta["packages"].as_array().cloned().unwrap_or_default();
        let same =
            |p: &Value| p["manifest_path"].as_str().and_then(|m| Path::new(m).canonicalize().ok()) == Some(mp.clone());
        let Some(pkg) = packages.iter().find(|p| same(p)) else {
            let members: Vec<&str> = packages.iter().filter_map(|p| p["manifest_path"].as_str()).collect();
            return Err(Error::Input(format!(
                "--manifest-path {} is a workspace manifest without a package; give a member's Cargo.toml ({})",
                manifest.display(),
                if members.is_empty() { "it has no members".to_string() } else { members.join(", ") }
            )));
        };
        let name = pkg["name"].as_str().unwrap_or_default().to_string();
        let kind = if examples { "example" } else { "bin" };
        let mut targets: Vec<Target> = pkg["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| t["kind"].as_array().is_some_and(|k| k.iter().any(|k| k == kind)))
            .map(|t| Target {
                name: t["name"].as_str().unwrap_or_default().to_string(),
                required_features: strings(&t["required-features"]),
            })
            .collect();
        targets.sort_by(|a, b| a.name.cmp(&b.name));
        if targets.is_empty() {
            return Err(Error::Input(if examples {
                format!("{}: package {name} has no examples (examples/*.rs)", mp.display())
            } else {
                format!(
                    "{}: package {name} has no binary target; a Subako module is a bin: src/main.rs, \
                     src/bin/NAME.rs or a [[bin]] table",
                    mp.display()
                )
            }));
        }
        let features: BTreeMap<String, Vec<String>> =
            pkg["features"].as_object().into_iter().flatten().map(|(k, v)| (k.clone(), strings(v))).collect();
        let crate_features = if name == CRATE { features.clone() } else { crate_features(&mp)? };
        let Settings { budget, assets, data, tool, args } = read_settings(&mp, pkg, &targets)?;
        Ok(Package {
            name,
            manifest: mp,
            workspace_root: PathBuf::from(meta["workspace_root"].as_str().unwrap_or_default()),
            target_directory: PathBuf::from(meta["target_directory"].as_str().unwrap_or_default()),
            features,
            targets,
            examples,
            crate_features,
            chosen: Selection::new(true, Vec::new()),
            budget,
            assets,
            data,
            tool,
            args,
            resolved: RefCell::new(HashMap::new()),
        })
    }

    /// The crate's features a build of this package with `sel` gets; `None`
    /// when the package does not depend on the crate.
    pub fn crate_features_of(&self, sel: &Selection) -> Result<Option<Vec<String>>, Error> {
        if let Some(r) = self.resolved.borrow().get(sel) {
            return Ok(r.clone());
        }
        let r = cargo::features_of(&self.manifest, &self.name, sel, CRATE)?;
        self.resolved.borrow_mut().insert(sel.clone(), r.clone());
        Ok(r)
    }

    /// Measure builds with `sel` rather than the package's defaults
    /// (`size --features`, `--no-default-features`); a feature the package
    /// does not have is refused, with those it has.
    pub fn choose(&mut self, sel: Selection) -> Result<(), Error> {
        // As cargo reads them: `default` turns the defaults on, a name
        // given twice is one, `dep/feature` is the dependency's (review 92).
        let mut sel = sel;
        if sel.features.iter().any(|f| f == "default") {
            sel.default_features = true;
        }
        let mut features: Vec<String> = Vec::new();
        for f in sel.features.drain(..) {
            if f != "default" && !features.contains(&f) {
                features.push(f);
            }
        }
        sel.features = features;
        if let Some(f) = sel.features.iter().find(|f| !f.contains('/') && !self.features.contains_key(*f)) {
            let names: Vec<&str> = self.features.keys().filter(|k| *k != "default").map(String::as_str).collect();
            return Err(Error::Input(format!(
                "--features {f}: package {} has no such feature ({})",
                self.name,
                if names.is_empty() {
                    "it has none".to_string()
                } else {
                    format!("its features: {}", names.join(", "))
                }
            )));
        }
        self.chosen = sel;
        Ok(())
    }

    /// The build as it is chosen (the defaults, or [`choose`](Package::choose)'s
    /// features), labelled by the allocator it gets, and the other allocator
    /// where the package's features can choose it (turning the first one
    /// off, the rest of the choice kept): dlmalloc first.
    pub fn variants(&self) -> Result<Vec<Variant>, Error> {
        let base = self.chosen.clone();
        let label = allocator(self.crate_features_of(&base)?.as_deref());
        let mut out = vec![Variant { label: label.to_string(), selection: base }];
        let (feature, other, off) = match label {
            "dlmalloc" => ("lean-alloc", "lean", "dlmalloc"),
            "lean" => ("dlmalloc", "dlmalloc", "lean-alloc"),
            _ => return Ok(out),
        };
        let mut kept = if self.chosen.default_features { self.defaults_without(off)? } else { Vec::new() };
        for f in &self.chosen.features {
            let got = self.crate_features_of(&Selection::new(false, vec![f.clone()]))?;
            if !kept.contains(f) && !got.unwrap_or_default().iter().any(|x| x == off) {
                kept.push(f.clone());
            }
        }
        for f in self.forwarding(feature)? {
            let mut features = vec![f.clone()];
            features.extend(kept.iter().filter(|d| **d != f).cloned());
            let sel = Selection::new(false, features);
            let got = self.crate_features_of(&sel)?;
            if allocator(got.as_deref()) == other && !got.as_deref().unwrap_or_default().iter().any(|x| x == off) {
                out.push(Variant { label: other.to_string(), selection: sel });
                break;
            }
        }
        out.sort_by_key(|v| v.label != "dlmalloc");
        Ok(out)
    }

    /// The package's features that turn on the crate's `feature` by
    /// themselves: those that name it first, then the others, by name.
    pub fn forwarding(&self, feature: &str) -> Result<Vec<String>, Error> {
        let mut direct = Vec::new();
        let mut others = Vec::new();
        for (f, list) in &self.features {
            if f == "default" {
                continue;
            }
            let got = self.crate_features_of(&Selection::new(false, vec![f.clone()]))?;
            if !got.unwrap_or_default().iter().any(|x| x == feature) {
                continue;
            }
            let names_it = list.iter().any(|x| x == feature || x.ends_with(&format!("/{feature}")));
            if names_it { direct.push(f.clone()) } else { others.push(f.clone()) }
        }
        direct.extend(others);
        Ok(direct)
    }

    /// The package's default features, less those that turn the crate's `feature` on.
    pub fn defaults_without(&self, feature: &str) -> Result<Vec<String>, Error> {
        let mut out = Vec::new();
        for d in self.features.get("default").into_iter().flatten() {
            let got = self.crate_features_of(&Selection::new(false, vec![d.clone()]))?;
            if !got.unwrap_or_default().iter().any(|x| x == feature) {
                out.push(d.clone());
            }
        }
        Ok(out)
    }

    /// The budget of `target` built with `allocator`, if the package sets one.
    pub fn budget_for(&self, target: &str, allocator: &str) -> Option<u64> {
        match self.budget.get(target)? {
            Value::Object(per) => per.get(allocator)?.as_u64(),
            v => v.as_u64(),
        }
    }

    /// Where this package's builds go: `target_dir` when given, else the
    /// package's target directory's `size-report/`.
    pub fn out_dir(&self, target_dir: Option<&Path>) -> PathBuf {
        target_dir.map_or_else(|| self.target_directory.join("size-report"), Path::to_path_buf)
    }

    /// The features a build of `target` with `variant` selects: the variant's
    /// and those the target requires.
    pub fn selection(&self, variant: &Variant, target: &Target) -> Selection {
        let mut s = variant.selection.clone();
        for f in &target.required_features {
            if !s.features.contains(f) {
                s.features.push(f.clone());
            }
        }
        s
    }

    /// A path for the table: relative to the workspace root when inside it.
    pub fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.workspace_root).unwrap_or(path).display().to_string()
    }
}

/// The allocator a build of the crate with these features gets (the
/// crate's own rule: lean-alloc wins when both are on); `-` without the crate.
pub fn allocator(features: Option<&[String]>) -> &'static str {
    match features {
        None => "-",
        Some(f) if f.iter().any(|x| x == "lean-alloc") => "lean",
        Some(f) if f.iter().any(|x| x == "dlmalloc") => "dlmalloc",
        Some(_) => "own allocator",
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().into_iter().flatten().filter_map(|x| x.as_str().map(str::to_string)).collect()
}

/// The crate's own `[features]`, from the full `cargo metadata` of the
/// package (empty when it does not depend on the crate).
fn crate_features(manifest: &Path) -> Result<BTreeMap<String, Vec<String>>, Error> {
    let mut c = cargo::cargo();
    c.args(["metadata", "--format-version", "1", "--filter-platform", cargo::TRIPLE, "--manifest-path"]).arg(manifest);
    let out = cargo::output(c, &format!("cargo metadata --manifest-path {}", manifest.display()))?;
    let meta: Value = serde_json::from_slice(&out)?;
    Ok(meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["name"] == CRATE)
        .and_then(|p| p["features"].as_object())
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), strings(v)))
        .collect())
}

/// The settings a package gives: its budgets, its assets' directory, and
/// the call `size` measures.
#[derive(Debug, Default, PartialEq)]
struct Settings {
    budget: BTreeMap<String, Value>,
    assets: Option<PathBuf>,
    data: Option<PathBuf>,
    tool: Option<String>,
    args: Option<Value>,
}

/// The keys `[package.metadata.subako-tiny]` takes.
const KEYS: [&str; 5] = ["budget", "assets", "data", "tool", "args"];

/// `[package.metadata.subako-tiny]`, checked: `budget`, a table of target
/// name = bytes, or = { allocator = bytes }; `assets` and `data`,
/// directories (relative to the manifest's) that exist; `tool`, a name;
/// `args`, a table (the arguments' JSON object).
fn read_settings(manifest: &Path, pkg: &Value, targets: &[Target]) -> Result<Settings, Error> {
    let settings = &pkg["metadata"][CRATE];
    let example = format!("budget = {{ {} = 40000 }}", targets[0].name);
    let bad = |what: String| Error::Input(format!("{}: {what}", manifest.display()));
    if settings.is_null() {
        return Ok(Settings::default());
    }
    let Some(settings) = settings.as_object() else {
        return Err(bad(format!("[{SETTINGS}] must be a table (e.g. {example})")));
    };
    if let Some(k) = settings.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(bad(format!("unknown key {k:?} in [{SETTINGS}] (known: {})", KEYS.join(", "))));
    }
    // A directory beside the manifest, mounted at `at` for the measured call.
    let directory = |key: &str, at: &str, why: &str| match settings.get(key) {
        None => Ok(None),
        Some(Value::String(dir)) => {
            let path = manifest.parent().unwrap_or(Path::new(".")).join(dir);
            if !path.is_dir() {
                let what = if path.exists() { "not a directory" } else { "no such directory beside the manifest" };
                return Err(bad(format!(
                    "{SETTINGS}.{key} = {dir:?}: {what} ({}); the directory is mounted at {at} for the measured \
                     call, {why}",
                    path.display()
                )));
            }
            // The package's own directory, or one holding it: its sources
            // and target/ would be copied for each run or bundled (review 80).
            let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
            if canonical(manifest).starts_with(canonical(&path)) {
                return Err(bad(format!(
                    "{SETTINGS}.{key} = {dir:?} holds the package itself ({}): its sources and target directory \
                     would be mounted at {at}; give the files a directory of their own ({key} = \"testdata\")",
                    path.display()
                )));
            }
            Ok(Some(path))
        }
        Some(v) => Err(bad(format!(
            "{SETTINGS}.{key} = {v}: a directory beside the manifest, as a string ({key} = \"{key}\")"
        ))),
    };
    let assets = directory("assets", "/package", "as the bundle mounts the package's assets")?;
    let data = directory("data", "/volume/data", "a fresh copy each time, so the directory is left as it was")?;
    let tool = match settings.get("tool") {
        None => None,
        Some(Value::String(tool)) => Some(tool.clone()),
        Some(v) => return Err(bad(format!("{SETTINGS}.tool = {v}: the measured tool's name, as a string"))),
    };
    let args = match settings.get("args") {
        None => None,
        Some(v @ Value::Object(_)) => Some(v.clone()),
        Some(v) => {
            return Err(bad(format!(
                "{SETTINGS}.args = {v}: the measured call's arguments, as a table (args = {{ name = \"Ada\" }})"
            )));
        }
    };
    let settings_without_budget = Settings { budget: BTreeMap::new(), assets, data, tool, args };
    let Some(budget) = settings.get("budget") else { return Ok(settings_without_budget) };
    let Some(budget) = budget.as_object() else {
        return Err(bad(format!("{SETTINGS}.budget must be a table of binary name = max bytes, e.g. {example}")));
    };
    let names: Vec<&str> = targets.iter().map(|t| t.name.as_str()).collect();
    for (name, v) in budget {
        if !names.contains(&name.as_str()) {
            return Err(bad(format!(
                "{SETTINGS}.budget names {name:?}, which is not a module of {} (its modules: {})",
                pkg["name"].as_str().unwrap_or_default(),
                names.join(", ")
            )));
        }
        let per: Vec<(String, &Value)> = match v {
            // An empty table budgets nothing, which `--check` would pass
            // (review 71): refused, as a misspelt one is.
            Value::Object(m) if m.is_empty() => {
                return Err(bad(format!(
                    "{SETTINGS}.budget.{name} = {{}} budgets nothing: give one number for every build, e.g. \
                     {example}, or one for each allocator ({})",
                    ALLOCATORS.join(", ")
                )));
            }
            Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
            v => vec![(String::new(), v)],
        };
        for (label, n) in per {
            if !label.is_empty() && !ALLOCATORS.contains(&label.as_str()) {
                return Err(bad(format!(
                    "{SETTINGS}.budget.{name}: {label:?} is not an allocator ({}); or give one number for every build",
                    ALLOCATORS.join(", ")
                )));
            }
            if n.as_u64().is_none_or(|n| n == 0) {
                let at = if label.is_empty() { String::new() } else { format!(".{label}") };
                return Err(bad(format!(
                    "{SETTINGS}.budget.{name}{at} = {n}: a budget is a positive whole number of bytes, e.g. {example}"
                )));
            }
        }
    }
    Ok(Settings { budget: budget.iter().map(|(k, v)| (k.clone(), v.clone())).collect(), ..settings_without_budget })
}

#[cfg(test)]
mod tests {
    use super::{Target, read_settings};
    use serde_json::json;

    #[test]
    fn the_settings_give_budgets_and_an_asset_directory_beside_the_manifest() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("assets")).unwrap();
        let manifest = dir.path().join("Cargo.toml");
        let targets = [Target { name: "glossary".into(), required_features: Vec::new() }];
        let read = |settings| read_settings(&manifest, &json!({"metadata": {"subako-tiny": settings}}), &targets);
        let settings = read(json!({"budget": {"glossary": 60000}, "assets": "assets"})).unwrap();
        assert_eq!(settings.budget["glossary"], 60000);
        assert_eq!(settings.assets, Some(dir.path().join("assets")));
        // A directory that is not there, or not a string, is refused, saying how to give it.
        let missing = read(json!({"assets": "asets"})).unwrap_err().to_string();
        assert!(missing.contains("assets = \"asets\": no such directory beside the manifest"), "{missing}");
        std::fs::write(&manifest, "").unwrap();
        let file = read(json!({"assets": "Cargo.toml"})).unwrap_err().to_string();
        assert!(file.contains("assets = \"Cargo.toml\": not a directory"), "{file}");
        let number = read(json!({"assets": 1})).unwrap_err().to_string();
        assert!(number.contains("as a string (assets = \"assets\")"), "{number}");
        let unknown = read(json!({"asset": "assets"})).unwrap_err().to_string();
        assert!(
            unknown.contains("unknown key \"asset\"") && unknown.contains("(known: budget, assets, data, tool, args)"),
            "{unknown}"
        );
        assert_eq!(read(json!(null)).unwrap(), Default::default());
        let empty = read(json!({"budget": {"glossary": {}}})).unwrap_err().to_string();
        assert!(empty.contains("budget.glossary = {} budgets nothing"), "{empty}");
    }

    /// The measured call a package names, so that a plain `size` measures
    /// a tool answering (author trials 75 and 78: it measured an isError).
    #[test]
    fn the_settings_give_the_measured_call() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("testdata")).unwrap();
        let manifest = dir.path().join("Cargo.toml");
        let targets = [Target { name: "stations".into(), required_features: Vec::new() }];
        let read = |settings| read_settings(&manifest, &json!({"metadata": {"subako-tiny": settings}}), &targets);
        let settings = read(json!({"data": "testdata", "tool": "report", "args": {"station": "ST0016"}})).unwrap();
        assert_eq!(settings.data, Some(dir.path().join("testdata")));
        assert_eq!(settings.tool.as_deref(), Some("report"));
        assert_eq!(settings.args, Some(json!({"station": "ST0016"})));
        let missing = read(json!({"data": "data"})).unwrap_err().to_string();
        assert!(missing.contains("data = \"data\": no such directory beside the manifest"), "{missing}");
        assert!(missing.contains("mounted at /volume/data"), "{missing}");
        // The package's own directory, or one above it (review 80: `data = "."`
        // copied its sources and target directory for every run).
        for (key, dir) in [("data", "."), ("assets", "./"), ("data", "..")] {
            let own = read(json!({ key: dir })).unwrap_err().to_string();
            assert!(own.contains(&format!("{key} = {dir:?} holds the package itself")), "{own}");
            assert!(own.contains(&format!("a directory of their own ({key} = \"testdata\")")), "{own}");
        }
        let tool = read(json!({"tool": 1})).unwrap_err().to_string();
        assert!(tool.contains("tool = 1: the measured tool's name, as a string"), "{tool}");
        let args = read(json!({"args": "{\"station\": 1}"})).unwrap_err().to_string();
        assert!(args.contains("as a table (args = { name = \"Ada\" })"), "{args}");
    }
}
