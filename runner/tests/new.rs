//! `subako-tiny new`: the package it writes builds for wasm32-wasip1 outside
//! this repository, passes `check`, starts at 2 pages, is the size of the
//! hello example, and its own `cargo test` passes. And what it refuses.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;
use subako_tiny_runner::{CallOptions, Module, call, check};

fn repo_root() -> PathBuf {
    Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("..").canonicalize().unwrap()
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    // Nothing of the outer build leaks into the package's own.
    for k in ["CARGO_TARGET_DIR", "CARGO_BUILD_TARGET", "RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_MANIFEST_DIR"] {
        c.env_remove(k);
    }
    c
}

fn run(c: &mut Command) -> String {
    let out = c.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{c:?} failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

fn subako_tiny(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_subako-tiny")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file the root Cargo.toml's `include` names (read from the tree
/// now), plus Cargo.toml: what `vendor/subako-tiny/` must hold.
fn included_files(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let child = format!("{rel}/{}", e.file_name().to_str().unwrap());
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &child, out);
            } else {
                out.push(child);
            }
        }
    }
    let mut out = vec!["Cargo.toml".to_string()];
    for f in ["build.rs", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "size-report"] {
        out.push(f.into());
    }
    walk(&root.join("src"), "src", &mut out);
    out.sort();
    out
}

#[test]
fn new_writes_a_package_that_builds_checks_and_tests() {
    let root = repo_root();
    let tmp = tempfile::tempdir().unwrap();
    assert!(!tmp.path().starts_with(&root), "the package must be outside the repository");
    let dir = tmp.path().join("greeter");
    // The next steps name the module where cargo puts it: under
    // CARGO_TARGET_DIR when that is set, else the package's target/.
    let new = |dir: &Path, target_dir: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_subako-tiny"));
        cmd.arg("new").arg(dir).env_remove("CARGO_TARGET_DIR");
        if let Some(t) = target_dir {
            cmd.env("CARGO_TARGET_DIR", t);
        }
        let out = cmd.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = new(&tmp.path().join("elsewhere"), Some("/tmp/shared-target"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("subako-tiny check /tmp/shared-target/wasm32-wasip1/release/elsewhere.wasm"), "{out}");
    let (code, out, err) = new(&dir, None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote package greeter in"), "{out}");
    assert!(out.contains("cargo build --release --target wasm32-wasip1"), "{out}");
    assert!(out.contains("subako-tiny check target/wasm32-wasip1/release/greeter.wasm"), "{out}");
    // The next steps: build, test, check and call.
    assert!(out.contains("cargo test"), "{out}");
    assert!(
        out.contains("subako-tiny call target/wasm32-wasip1/release/greeter.wasm greet '{\"name\":\"Ada\"}'"),
        "{out}"
    );

    // vendor/subako-tiny is exactly the include list, byte for byte, plus
    // Cargo.toml as `cargo package` normalises it: no [workspace].
    let vendor = dir.join("vendor/subako-tiny");
    let mut vendored = Vec::new();
    fn list(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                list(&p, base, out);
            } else {
                out.push(p.strip_prefix(base).unwrap().to_str().unwrap().to_string());
            }
        }
    }
    list(&vendor, &vendor, &mut vendored);
    vendored.sort();
    assert_eq!(vendored, included_files(&root));
    for f in vendored.iter().filter(|f| *f != "Cargo.toml") {
        assert_eq!(
            std::fs::read(vendor.join(f)).unwrap(),
            std::fs::read(root.join(f)).unwrap(),
            "{f} differs from the tree"
        );
    }
    let normalised = std::fs::read_to_string(vendor.join("Cargo.toml")).unwrap();
    assert!(normalised.contains("name = \"subako-tiny\"") && !normalised.contains("[workspace"), "{normalised}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(vendor.join("size-report")).unwrap().permissions().mode();
        assert!(mode & 0o100 != 0, "vendor/subako-tiny/size-report is not executable: {mode:o}");
    }
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    for want in [
        "name = \"greeter\"",
        "edition = \"2024\"",
        "subako-tiny = { path = \"vendor/subako-tiny\", default-features = false, features = [\"panic-handler\"] }",
        "lean-alloc = [\"subako-tiny/lean-alloc\"]",
        "miniserde = [\"subako-tiny/miniserde\"]",
        "description = \"Says hello.\"",
        "\n[workspace]\n",
        "opt-level = \"z\"",
        "panic = \"abort\"",
        "[profile.release.package.miniserde]\nopt-level = 2",
        "[package.metadata.subako-tiny]",
        "# budget = { greeter = 20000 }",
        "# assets = \"assets\"",
        "# What the package does, which Subako shows the model: src/main.rs gives\n# it to Package::new (env!(\"CARGO_PKG_DESCRIPTION\")), so it is written here alone.\ndescription = ",
        "subako-tiny size --manifest-path Cargo.toml --check",
    ] {
        assert!(manifest.contains(want), "{want} missing from:\n{manifest}");
    }
    assert!(std::fs::read_to_string(dir.join("build.rs")).unwrap().contains("-zstack-size=65536"));
    assert_eq!(std::fs::read_to_string(dir.join(".gitignore")).unwrap(), "/target\n");
    assert!(std::fs::read_to_string(dir.join("README.md")).unwrap().contains("cargo test"));

    // Which crate was vendored: its version and the checkout's commit, in
    // new's output, the package's README and `--version` alike.
    let version = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let version = version.lines().find_map(|l| l.strip_prefix("version = \"")).unwrap().trim_end_matches('"');
    let head = Command::new("git").arg("-C").arg(&root).args(["rev-parse", "--short=12", "HEAD"]).output().ok();
    let from = match head.filter(|h| h.status.success()) {
        Some(h) => format!("{version} (commit {}", String::from_utf8_lossy(&h.stdout).trim()),
        None => format!("{version} (not from a git checkout)"),
    };
    assert!(out.contains(&format!("the subako-tiny crate {from}")), "{from} missing from:\n{out}");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap().replace('\n', " ");
    assert!(readme.contains(&format!("subako-tiny {from}")), "{from} missing from:\n{readme}");
    let (code, said, _) = subako_tiny(&["--version"]);
    assert!(code == 0 && said.starts_with(&format!("subako-tiny {from}")), "{said}");

    // Its own build, in its own target directory.
    let target = tmp.path().join("target");
    run(cargo()
        .current_dir(&dir)
        .args(["build", "--release", "--target", "wasm32-wasip1"])
        .env("CARGO_TARGET_DIR", &target));
    let wasm = target.join("wasm32-wasip1/release/greeter.wasm");
    let bytes = std::fs::read(&wasm).unwrap();
    let r = check(&bytes, None);
    assert!(r.accepted(), "{:?}\n{}", r.failures, r.stderr_tail);
    assert_eq!(r.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["greet"]);
    let (code, out, _) = subako_tiny(&["check", wasm.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    // A misspelt tool: the module's answer (the wire's words), then on
    // stderr the tools it does have.
    let (code, out, err) = subako_tiny(&["call", wasm.to_str().unwrap(), "gret", r#"{"name":"Ada"}"#]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains(r#""text":"unknown tool: gret""#), "{out}");
    assert!(err.contains("has no tool \"gret\"; its tools: greet (subako-tiny check prints their schemas)"), "{err}");
    let (code, out, err) = subako_tiny(&["call", wasm.to_str().unwrap(), "greet", "{}"]);
    assert_eq!(code, 1, "an error, not named as an unknown tool: {out}{err}");
    assert!(!err.contains("its tools"), "{err}");
    let m = Module::from_bytes(&bytes).unwrap();
    let outcome = call(&m, "greet", json!({"name": "Ada"}), &CallOptions::default()).unwrap();
    assert_eq!(outcome.expect_ok()["structuredContent"], json!({"message": "Hello, Ada!"}));
    assert_eq!(outcome.output.pages_at_start, 2, "the 64 KiB stack of build.rs");
    let manifest = subako_tiny_runner::manifest(&m).unwrap();
    assert_eq!((manifest.name.as_str(), manifest.description.as_str()), ("greeter", "Says hello."));

    // The same size as the hello example built the same way (release, wasm32-wasip1).
    let hello_dir = root.join("target/e2e/default");
    run(cargo()
        .current_dir(&root)
        .args([
            "build",
            "--quiet",
            "--release",
            "--target",
            "wasm32-wasip1",
            "-p",
            "subako-tiny",
            "--example",
            "hello",
            "--target-dir",
        ])
        .arg(&hello_dir));
    let hello = std::fs::metadata(hello_dir.join("wasm32-wasip1/release/examples/hello.wasm")).unwrap().len() as f64;
    let ours = bytes.len() as f64;
    eprintln!("scaffold {ours} bytes, hello {hello} bytes");
    assert!((ours - hello).abs() / hello <= 0.02, "scaffold {ours} bytes vs hello {hello} bytes: more than 2 % apart");

    // And its host tests pass.
    let out = run(cargo().current_dir(&dir).args(["test"]).env("CARGO_TARGET_DIR", &target));
    assert!(out.contains("test result: ok. 2 passed"), "{out}");
}

#[test]
fn new_refuses_a_dir_that_is_not_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("taken");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let (code, out, err) = subako_tiny(&["new", dir.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("exists and is not empty"), "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "nothing written");
    assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "mine");
    // One holding only a fresh `git init`'s .git is as good as empty, and
    // `new .` names the package after the directory it is in.
    let repo = tmp.path().join("repo-tool");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_subako-tiny"))
        .args(["new", "."])
        .current_dir(&repo)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(repo.join("Cargo.toml")).unwrap().contains("name = \"repo-tool\""));
    // An empty one is fine.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (code, _, err) =
        subako_tiny(&["new", empty.to_str().unwrap(), "--name", "ok-name", "--description", "Counts \"words\"."]);
    assert_eq!(code, 0, "{err}");
    let manifest = std::fs::read_to_string(empty.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("name = \"ok-name\"") && manifest.contains(r#"description = "Counts \"words\".""#));
    let main = std::fs::read_to_string(empty.join("src/main.rs")).unwrap();
    assert!(main.contains("env!(\"CARGO_PKG_DESCRIPTION\")") && !main.contains("Counts"), "{main}");
    // An empty description is refused: Subako shows it to the model.
    let other = tmp.path().join("other");
    let (code, _, err) = subako_tiny(&["new", other.to_str().unwrap(), "--description", " "]);
    assert_eq!(code, 2);
    assert!(err.contains("--description"), "{err}");
    assert!(!other.exists(), "nothing written");
}

#[test]
fn new_refuses_a_bad_package_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("My Tool");
    let (code, _, err) = subako_tiny(&["new", dir.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("package name \"My Tool\"") && err.contains("pass --name NAME"), "{err}");
    assert!(!dir.exists(), "nothing written");
    let (code, _, err) = subako_tiny(&["new", dir.to_str().unwrap(), "--name", "fn"]);
    assert_eq!(code, 2);
    assert!(err.contains("--name: package name \"fn\" is reserved"), "{err}");
    let (code, _, err) = subako_tiny(&["new"]);
    assert_eq!(code, 2);
    assert!(err.contains("required arguments were not provided") && err.contains("<DIR>"), "{err}");
}
