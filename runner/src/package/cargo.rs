//! Cargo, run as a program: `cargo metadata` for what a package is (its
//! targets, features, dependencies and `[package.metadata]`), `cargo tree`
//! for which features a build selects, `cargo build` for the modules.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::Error;

/// The target every module is built for.
pub const TRIPLE: &str = "wasm32-wasip1";

/// `cargo`, as the environment names it (`CARGO` inside a cargo run).
pub fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    // What an enclosing build sets must not leak into the package's own. A
    // target directory set where no cargo runs above this process (`CARGO`
    // unset) is the author's own choice, and kept.
    let enclosed = std::env::var_os("CARGO").is_some();
    for k in ["CARGO_TARGET_DIR", "CARGO_BUILD_TARGET", "RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_MANIFEST_DIR"] {
        if enclosed || k != "CARGO_TARGET_DIR" {
            c.env_remove(k);
        }
    }
    c
}

/// Runs `cmd`, returning its stdout; a failure names `what` and carries
/// cargo's stderr (and the fix when the wasm32 target is missing).
pub fn output(mut cmd: Command, what: &str) -> Result<Vec<u8>, Error> {
    let out = cmd.output().map_err(|e| Error::Command(format!("{what}: cannot run cargo: {e}")))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let hint = if stderr.contains("can't find crate for `core`") || stderr.contains("target may not be installed") {
            "\nthe wasm32-wasip1 target is missing: rustup target add wasm32-wasip1"
        } else {
            ""
        };
        return Err(Error::Command(format!("{what} failed:\n{}{hint}", stderr.trim_end())));
    }
    Ok(out.stdout)
}

/// `cargo metadata --no-deps` of the manifest: packages, workspace root, target directory.
pub fn metadata(manifest: &Path) -> Result<Value, Error> {
    let mut c = cargo();
    c.args(["metadata", "--no-deps", "--format-version", "1", "--manifest-path"]).arg(manifest);
    let out = output(c, &format!("cargo metadata --manifest-path {}", manifest.display())).map_err(|e| {
        Error::Input(format!("{e}\n(give the Cargo.toml of a package: --manifest-path PATH/Cargo.toml)"))
    })?;
    Ok(serde_json::from_slice(&out)?)
}

/// Features selected for a build: the defaults or not, and a list.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Selection {
    pub default_features: bool,
    pub features: Vec<String>,
}

impl Selection {
    pub fn new(default_features: bool, features: Vec<String>) -> Selection {
        Selection { default_features, features }
    }

    /// The flags that select it.
    pub fn args(&self) -> Vec<String> {
        let mut a = Vec::new();
        if !self.default_features {
            a.push("--no-default-features".to_string());
        }
        if !self.features.is_empty() {
            a.push("--features".to_string());
            a.push(self.features.join(","));
        }
        a
    }

    /// A directory name for its builds: `default` or `nodefault`, then
    /// `+feature` for each (`/` written `_`).
    pub fn dir(&self) -> String {
        let mut s = String::from(if self.default_features { "default" } else { "nodefault" });
        for f in &self.features {
            s.push('+');
            s.push_str(&f.replace('/', "_"));
        }
        s
    }
}

/// The features `package` (a package spec) gets when `root`'s package is
/// built for wasm32 with `sel`, as Cargo resolves them for that build
/// (`cargo tree -e normal --target wasm32-wasip1 -i PACKAGE`); `None` when
/// the build does not depend on it.
///
/// Not `cargo metadata`'s resolve graph: that one unifies the features of
/// every member of the workspace, so a member that depends on the crate with
/// its defaults turns `--no-default-features` back on there, where the
/// build itself (`cargo build -p …`) resolves for the package alone.
pub fn features_of(root: &Path, spec: &str, sel: &Selection, package: &str) -> Result<Option<Vec<String>>, Error> {
    let mut c = cargo();
    c.args(["tree", "--manifest-path"]).arg(root);
    c.args(["-p", spec, "-e", "normal", "--target", TRIPLE, "--prefix", "none", "--format", "{p}|{f}"]);
    c.args(sel.args());
    let what = format!("cargo tree -p {spec} {}", sel.args().join(" "));
    let out = output(c, &what)?;
    let text = String::from_utf8_lossy(&out);
    for line in text.lines() {
        let Some((p, f)) = line.split_once('|') else { continue };
        if p.split_whitespace().next() == Some(package) {
            return Ok(Some(f.split(',').filter(|x| !x.is_empty()).map(str::to_string).collect()));
        }
    }
    Ok(None)
}

/// What one `cargo build` of modules is.
pub struct Build<'a> {
    pub manifest: &'a Path,
    /// `-p SPEC`, when the manifest is a workspace's.
    pub spec: Option<&'a str>,
    pub selection: &'a Selection,
    /// `--example NAME` each; empty: binaries.
    pub examples: Vec<&'a str>,
    /// `--bin NAME` each; both empty: `--bins`.
    pub bins: Vec<&'a str>,
    pub target_dir: PathBuf,
    /// Environment for the build (profile overrides, RUSTFLAGS).
    pub env: Vec<(String, String)>,
    pub ignore_rust_version: bool,
}

impl Build<'_> {
    /// Builds with the release profile; the directory the modules are in.
    pub fn run(&self, what: &str) -> Result<PathBuf, Error> {
        let mut c = cargo();
        c.args(["build", "--quiet", "--release", "--target", TRIPLE, "--manifest-path"]).arg(self.manifest);
        if let Some(s) = self.spec {
            c.args(["-p", s]);
        }
        if self.examples.is_empty() && self.bins.is_empty() {
            c.arg("--bins");
        }
        for b in &self.bins {
            c.args(["--bin", b]);
        }
        for e in &self.examples {
            c.args(["--example", e]);
        }
        if self.ignore_rust_version {
            c.arg("--ignore-rust-version");
        }
        c.args(self.selection.args()).arg("--target-dir").arg(&self.target_dir);
        for (k, v) in &self.env {
            c.env(k, v);
        }
        output(c, &format!("building {what}"))?;
        let release = self.target_dir.join(TRIPLE).join("release");
        Ok(if self.examples.is_empty() { release } else { release.join("examples") })
    }
}
