//! How a package's modules are built: the options of a measuring run, and
//! one `cargo build` per feature selection into a directory of its own.

use std::path::PathBuf;

use serde_json::Value;

use super::Package;
use super::cargo::{Build, Selection};
use crate::Error;
use crate::call::CallOptions;

/// How `measure_package` builds and measures.
#[derive(Clone, Debug, Default)]
pub struct PackageOptions {
    pub manifest: PathBuf,
    /// The package's examples instead of its binaries.
    pub examples: bool,
    /// Only these binaries or examples (all when empty).
    pub only: Vec<String>,
    /// Only these allocators' builds (`dlmalloc`, `lean`; all when empty).
    pub allocators: Vec<String>,
    /// Builds go under it, one directory per feature selection.
    pub target_dir: Option<PathBuf>,
    pub ignore_rust_version: bool,
    /// Build with the link arguments the README's `build.rs` gives, through
    /// `RUSTFLAGS` (for a package without that `build.rs`).
    pub link_args: bool,
    /// Label the rows' allocator column with this instead.
    pub label: Option<String>,
    /// The std routines with a cheaper equivalent, per row (an unstripped
    /// build of each selection, for the names).
    pub advice: bool,
    /// The features to measure with (`size --features`,
    /// `--no-default-features`): the package's defaults when `None`.
    pub features: Option<Selection>,
    pub measure: Measure,
}

/// Progress, on stderr.
pub(crate) fn log(msg: &str) {
    eprintln!("{msg}");
}

/// Builds `target` (every binary when it is `None`: the package's built
/// together) with `sel`; the directory its modules are in. Only `target`,
/// so that another binary that does not build yet stops no one's look at
/// this one (author trial 51).
pub(crate) fn build(
    pkg: &Package,
    opts: &PackageOptions,
    sel: &Selection,
    target: Option<&str>,
    env: &[(&str, &str)],
) -> Result<PathBuf, Error> {
    let mut env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    if opts.link_args {
        // With --target, RUSTFLAGS reach the modules only, not build scripts.
        let flags: Vec<String> = crate::link_args(false).iter().map(|a| format!("-C link-arg={a}")).collect();
        env.push(("RUSTFLAGS".into(), flags.join(" ")));
    }
    let tag = if env.iter().any(|(k, _)| k == "CARGO_PROFILE_RELEASE_STRIP") { "names/" } else { "" };
    let (examples, bins): (Vec<&str>, Vec<&str>) = if pkg.examples {
        (target.into_iter().collect(), Vec::new())
    } else {
        (Vec::new(), target.into_iter().collect())
    };
    let b = Build {
        manifest: &pkg.manifest,
        spec: Some(&pkg.name),
        selection: sel,
        examples,
        bins,
        target_dir: pkg.out_dir(opts.target_dir.as_deref()).join(format!("{tag}{}", sel.dir())),
        env,
        ignore_rust_version: opts.ignore_rust_version,
    };
    b.run(&format!("{} {} ({})", pkg.name, target.unwrap_or("--bins"), sel.dir()))
}

/// An unstripped build of `target` (the same code, with a `name` section).
pub(crate) fn names_build(
    pkg: &Package,
    opts: &PackageOptions,
    sel: &Selection,
    target: &str,
) -> Result<PathBuf, Error> {
    let env = [("CARGO_PROFILE_RELEASE_STRIP", "false"), ("CARGO_PROFILE_RELEASE_DEBUG", "false")];
    Ok(build(pkg, opts, sel, Some(target), &env)?.join(format!("{target}.wasm")))
}

/// How rows are measured.
#[derive(Clone, Debug)]
pub struct Measure {
    /// No timing and no fuel: sizes and the check only.
    pub quick: bool,
    pub calls: usize,
    pub compiles: usize,
    /// The call to measure: `None` is the first listed tool; arguments
    /// `None` are made from the tool's input schema.
    pub tool: Option<String>,
    pub args: Option<Value>,
    /// `tool` is the package's settings' (`[package.metadata.subako-tiny]`),
    /// for every module: one that does not list it is measured with its
    /// first tool.
    pub tool_from_settings: bool,
    /// Calls after it, in sequence.
    pub then: Vec<(String, Value)>,
    pub call: CallOptions,
}

impl Default for Measure {
    fn default() -> Self {
        Measure {
            quick: false,
            calls: 200,
            compiles: 5,
            tool: None,
            args: None,
            tool_from_settings: false,
            then: Vec::new(),
            call: CallOptions::default(),
        }
    }
}
