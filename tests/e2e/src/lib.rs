//! Builds this crate's examples for `wasm32-wasip1`, once per test process
//! and variant, so the end-to-end tests run the real modules in wasmtime
//! (through `subako-tiny-runner`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

mod shape;
pub use shape::Shape;

/// The crate's root (where its Cargo.toml is). Read when the test runs
/// (cargo sets `CARGO_MANIFEST_DIR` for it), not when it was compiled: two
/// checkouts sharing one target directory can share this crate's build.
pub fn crate_root() -> PathBuf {
    let e2e =
        std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    Path::new(&e2e).join("../..").canonicalize().unwrap()
}

/// The examples' wasm builds go here, apart from the outer `cargo test`'s
/// own target directory, whose lock it holds while tests run.
fn target_dir() -> PathBuf {
    std::env::var_os("SUBAKO_E2E_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| crate_root().join("target/e2e"))
}

static BUILT: Mutex<Option<HashMap<String, PathBuf>>> = Mutex::new(None);

/// A build of one example: which cargo features, and whether the default
/// ones (dlmalloc, panic-handler) stay on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub features: Vec<&'static str>,
    pub default_features: bool,
}

/// The crate's default features: dlmalloc and the panic handler.
impl Default for Variant {
    fn default() -> Variant {
        Variant { features: vec![], default_features: true }
    }
}

impl Variant {
    /// The lean (bump) allocator instead of dlmalloc.
    pub fn lean() -> Variant {
        Variant { features: vec!["lean-alloc", "panic-handler"], default_features: false }
    }
}

/// The `.wasm` of `example` built with the default features.
pub fn example(example: &str) -> PathBuf {
    example_variant(example, &Variant::default())
}

/// The `.wasm` of `example` built as `variant` asks, with the release
/// (size) profile, exactly as the README's recipe builds it.
pub fn example_variant(example: &str, variant: &Variant) -> PathBuf {
    build(example, variant, true)
}

/// The `.wasm` of `example` (default features) built with the dev profile,
/// debug info and all, as `cargo build --target wasm32-wasip1` builds it.
pub fn example_dev_profile(example: &str) -> PathBuf {
    build(example, &Variant::default(), false)
}

fn build(example: &str, variant: &Variant, release: bool) -> PathBuf {
    let profile = if release { "release" } else { "debug" };
    let key = format!("{example}{variant:?}{profile}");
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    let built = built.get_or_insert_with(HashMap::new);
    if let Some(path) = built.get(&key) {
        return path.clone();
    }
    let dir = target_dir().join(variant_dir(variant));
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo
        .current_dir(crate_root())
        .args(["build", "--quiet", "--target", "wasm32-wasip1", "--example", example])
        .arg("--target-dir")
        .arg(&dir);
    if release {
        cargo.arg("--release");
    }
    if !variant.default_features {
        cargo.arg("--no-default-features");
    }
    if !variant.features.is_empty() {
        cargo.arg("--features").arg(variant.features.join(","));
    }
    let output = cargo.output().expect("cargo runs");
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("wasm32-wasip1")
            && (stderr.contains("target may not be installed") || stderr.contains("can't find crate for `core`"))
        {
            panic!(
                "the wasm32-wasip1 target is not installed: run `rustup target add wasm32-wasip1` \
                 (RUSTUP_AUTO_INSTALL=0 stops rust-toolchain.toml from fetching it)\n{stderr}"
            );
        }
        panic!("building example {example} ({variant:?}) failed:\n{stderr}");
    }
    let path = dir.join("wasm32-wasip1").join(profile).join("examples").join(format!("{example}.wasm"));
    assert!(path.exists(), "{} was not built", path.display());
    built.insert(key, path.clone());
    path
}

fn variant_dir(variant: &Variant) -> String {
    let mut name = String::from(if variant.default_features { "default" } else { "nodefault" });
    for f in &variant.features {
        name.push('+');
        name.push_str(f);
    }
    name
}

/// A request line as the worker writes it, `_meta` and all.
pub fn request(id: serde_json::Value, method: &str, mut params: serde_json::Value) -> String {
    params["_meta"] = serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "subako-tiny-e2e", "version": "0"},
    });
    let message = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    format!("{message}\n")
}

/// Every `examples/*.rs`, sorted, with the features its `[[example]]`
/// entry in the crate's Cargo.toml requires (read line by line: just
/// `name` and `required-features`), so a test that runs every example
/// picks up new ones by itself.
pub fn examples() -> Vec<(String, Vec<&'static str>)> {
    let root = crate_root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut required: Vec<(String, Vec<&'static str>)> = Vec::new();
    let mut in_example = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_example = line == "[[example]]";
            if in_example {
                required.push((String::new(), Vec::new()));
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let Some(entry) = required.last_mut().filter(|_| in_example) else { continue };
        let mut strings = value.split('"').skip(1).step_by(2).map(str::to_string);
        match key.trim() {
            "name" => entry.0 = strings.next().unwrap_or_default(),
            "required-features" => entry.1 = strings.map(|f| &*Box::leak(f.into_boxed_str())).collect(),
            _ => {}
        }
    }
    let mut names: Vec<String> = std::fs::read_dir(root.join("examples"))
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            (path.extension()? == "rs").then(|| path.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let features = required.iter().find(|(name, _)| *name == n).map(|(_, f)| f.clone()).unwrap_or_default();
            (n, features)
        })
        .collect()
}

/// The crate's side of `benches/idioms` (each probe hello with one of the
/// crate's equivalents of a std idiom, `*_crate`), built for wasm32 with
/// the size profile and the lean allocator (`lean`) or dlmalloc: each
/// probe's name and `.wasm`.
pub fn idiom_probes(lean: bool) -> Vec<(String, PathBuf)> {
    let root = crate_root().join("benches/idioms");
    let mut names: Vec<String> = std::fs::read_dir(root.join("src/bin"))
        .unwrap()
        .filter_map(|e| e.unwrap().path().file_stem()?.to_str().map(str::to_string))
        .filter(|name| name.ends_with("_crate"))
        .collect();
    names.sort();
    let dir = target_dir().join(if lean { "idioms-lean" } else { "idioms-dlmalloc" });
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo
        .current_dir(&root)
        .args(["build", "--quiet", "--release", "--target", "wasm32-wasip1", "--target-dir"])
        .arg(&dir);
    if lean {
        cargo.args(["--no-default-features", "--features", "lean"]);
    }
    for name in &names {
        cargo.args(["--bin", name]);
    }
    let output = cargo.output().expect("cargo runs");
    assert!(output.status.success(), "building benches/idioms failed:\n{}", String::from_utf8_lossy(&output.stderr));
    names
        .into_iter()
        .map(|name| {
            let path = dir.join(format!("wasm32-wasip1/release/{name}.wasm"));
            (name, path)
        })
        .collect()
}

/// The `.wasm` of `tests/e2e/vendored`: a package built exactly as the
/// README tells a vendoring user (its own size profile and build.rs line),
/// with `features` of its own turned on.
pub fn vendored(features: &[&str]) -> PathBuf {
    let key = format!("vendored{features:?}");
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    let built = built.get_or_insert_with(HashMap::new);
    if let Some(path) = built.get(&key) {
        return path.clone();
    }
    let manifest = crate_root().join("tests/e2e/vendored/Cargo.toml");
    let dir = target_dir().join(if features.is_empty() {
        "vendored".to_string()
    } else {
        format!("vendored+{}", features.join("+"))
    });
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo
        .current_dir(crate_root())
        .args(["build", "--quiet", "--release", "--target", "wasm32-wasip1", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&dir);
    if !features.is_empty() {
        cargo.arg("--features").arg(features.join(","));
    }
    let output = cargo.output().expect("cargo runs");
    assert!(
        output.status.success(),
        "building tests/e2e/vendored failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let path = dir.join("wasm32-wasip1/release/vendored.wasm");
    built.insert(key, path.clone());
    path
}

/// Builds for wasm32-wasip1 in release, the name section kept, into
/// `target/e2e/unstripped/<dir>`, in `cwd`; `args` say what. Where the
/// `.wasm` files are.
pub fn build_unstripped(dir: &str, cwd: &Path, args: &[&str]) -> PathBuf {
    let target = crate_root().join("target/e2e/unstripped").join(dir);
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(cwd)
        .env("CARGO_PROFILE_RELEASE_STRIP", "false")
        .args(["build", "--quiet", "--release", "--target", "wasm32-wasip1", "--target-dir"])
        .arg(&target)
        .args(args)
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "building {dir} failed:\n{}", String::from_utf8_lossy(&output.stderr));
    target.join("wasm32-wasip1/release")
}

/// A probe package, `probe`, whose `src/main.rs` is `main_rs`, on this
/// crate with its default features and the README's size profile and
/// build.rs, built with its name section kept: its `.wasm`.
pub fn probe_package(dir_name: &str, main_rs: &str) -> PathBuf {
    probe_package_with(dir_name, main_rs, &[])
}

/// [`probe_package`], built with `cargo_args` added (`--features
/// subako-tiny/panic-message`).
pub fn probe_package_with(dir_name: &str, main_rs: &str, cargo_args: &[&str]) -> PathBuf {
    let root = crate_root();
    let dir = tempfile::Builder::new().prefix("subako-probe").tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            "[package]\nname = \"probe\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\nsubako-tiny = {{ \
             path = {:?} }}\n\n[workspace]\n\n[profile.release]\nopt-level = \"z\"\nlto = true\ncodegen-units = \
             1\npanic = \"abort\"\nstrip = true\n",
            root.display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(root.join("tests/e2e/vendored/build.rs"), dir.path().join("build.rs")).unwrap();
    std::fs::write(dir.path().join("src/main.rs"), main_rs).unwrap();
    build_unstripped(dir_name, dir.path(), cargo_args).join("probe.wasm")
}
