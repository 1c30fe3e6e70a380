//! `subako-tiny bench`'s deterministic figures: guest fuel for the call, the
//! upload exchange and the manifest is the same on every run of the real
//! hello example, and the compile instruction count says `-` without valgrind.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The hello example, built for wasm32-wasip1 with the release (size)
/// profile as `tests/new.rs` builds it, once per test process.
fn hello() -> &'static Path {
    static HELLO: OnceLock<PathBuf> = OnceLock::new();
    HELLO.get_or_init(|| {
        let root = repo_root();
        let dir = root.join("target/e2e/default");
        let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(&root)
            .args(["build", "--quiet", "--release", "--target", "wasm32-wasip1", "-p", "subako-tiny"])
            .args(["--example", "hello", "--target-dir"])
            .arg(&dir)
            .env_remove("RUSTFLAGS")
            .output()
            .expect("cargo runs");
        assert!(out.status.success(), "building the hello example failed:\n{}", String::from_utf8_lossy(&out.stderr));
        dir.join("wasm32-wasip1/release/examples/hello.wasm")
    })
}

fn subako_tiny(args: &[&str], path_var: Option<&str>) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_subako-tiny"));
    c.args(args);
    if let Some(p) = path_var {
        c.env("PATH", p);
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `bench --json` of hello, few timed runs (the fuel figures do not depend on them).
fn bench_json(extra: &[&str], path_var: Option<&str>) -> Value {
    let wasm = hello().to_str().unwrap();
    let mut args = vec!["bench", wasm, "--json", "--calls", "3", "--compiles", "1"];
    args.extend(["--tool", "greet", "--args", r#"{"name":"Ada"}"#]);
    args.extend(extra);
    let (code, out, err) = subako_tiny(&args, path_var);
    assert_eq!(code, 0, "bench failed: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("bench --json printed no JSON ({e}): {out}"))
}

#[test]
fn fuel_is_the_same_run_to_run() {
    let a = bench_json(&[], None);
    let b = bench_json(&[], None);
    assert!(a["call_crash"].is_null(), "{a}");
    for k in ["call_fuel", "list_fuel", "manifest_fuel"] {
        let x = a[k].as_u64().unwrap_or_else(|| panic!("{k} is not a count: {a}"));
        assert!(x > 0, "{k} is zero: {a}");
        assert_eq!(a[k], b[k], "{k} differs between two bench runs");
    }
    // Within one run too: each fuel figure is measured twice.
    assert!(a["fuel_varies"].is_null() && b["fuel_varies"].is_null(), "{a}\n{b}");
    // The call does more than the manifest, which reads no stdin.
    assert!(a["call_fuel"].as_u64() > a["manifest_fuel"].as_u64(), "{a}");
}

#[test]
fn compile_instructions_say_dash_without_valgrind() {
    let empty = tempfile::tempdir().unwrap();
    let path = empty.path().to_str().unwrap();
    let j = bench_json(&["--compile-instructions"], Some(path));
    assert!(j["compile_instructions"].is_null(), "{j}");
    let wasm = hello().to_str().unwrap();
    let args = ["bench", wasm, "--calls", "2", "--compiles", "1", "--compile-instructions"];
    let (code, text, err) = subako_tiny(&args, Some(path));
    assert_eq!(code, 0, "{err}");
    let row = text.lines().find(|l| l.starts_with("compile_instr ")).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(row.split_whitespace().nth(1), Some("-"), "{text}");
    assert!(text.contains("valgrind is not on the PATH"), "{text}");
    // Not asked: no row.
    let (_, text, _) = subako_tiny(&["bench", wasm, "--calls", "2", "--compiles", "1"], None);
    assert!(!text.contains("compile_instr"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("call_fuel ")), "{text}");
}
