//! The configurations the crate's docs offer beyond its defaults, built
//! and run in wasmtime: no allocator feature (the package brings its own
//! `#[global_allocator]`) and no `panic-handler` (its own
//! `#[panic_handler]`), as `tests/e2e/vendored` does when its features
//! are off.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};
use subako_tiny_e2e::{crate_root, request};
use subako_tiny_runner::{Exit, Module, RunOptions, RunOutput, run};

/// `tests/e2e/vendored` built without default features, with `features`.
fn vendored_without_defaults(features: &str) -> PathBuf {
    let root = crate_root();
    let target = root.join("target/e2e").join(format!("vendored-no-defaults+{features}"));
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&root)
        .args(["build", "--quiet", "--release", "--target", "wasm32-wasip1", "--manifest-path"])
        .arg(root.join("tests/e2e/vendored/Cargo.toml"))
        .args(["--no-default-features", "--features", features, "--target-dir"])
        .arg(&target)
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "building tests/e2e/vendored with only {features} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    target.join("wasm32-wasip1/release/vendored.wasm")
}

fn call(module: &Module, tool: &str, arguments: Value) -> RunOutput {
    let stdin = request(json!(1), "tools/call", json!({"name": tool, "arguments": arguments}));
    run(module, &RunOptions { argv: vec!["vendored".into()], stdin: stdin.into_bytes(), ..RunOptions::default() })
        .unwrap()
}

fn greets(module: &Module, what: &str) -> RunOutput {
    let output = call(module, "greet", json!({"name": "Ada"}));
    assert_eq!(output.exit, Exit::Code(0), "{what}: {}", String::from_utf8_lossy(&output.stderr));
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["id"], json!(1), "{what}: {answer}");
    assert_eq!(answer["result"]["content"], json!([{"type": "text", "text": "Hello, Ada!"}]), "{what}: {answer}");
    output
}

#[test]
fn a_package_with_its_own_allocator_builds_and_runs() {
    let path = vendored_without_defaults("panic-handler");
    let bytes = std::fs::read(&path).unwrap();
    let check = subako_tiny_runner::check(&bytes, None);
    assert!(check.accepted(), "{:?}", check.failures);
    let module = Module::from_bytes(&bytes).unwrap();
    let output = greets(&module, "own allocator");
    // The package's bump allocator starts past the memory a module is
    // given and grows it: the crate's own allocators keep a greeting
    // within the first pages.
    assert!(
        output.pages_at_exit > output.pages_at_start,
        "{} -> {} pages",
        output.pages_at_start,
        output.pages_at_exit
    );
    // Many blocks, none given back: the allocator is the package's, and it holds.
    let heap = call(&module, "heap", json!({}));
    assert_eq!(heap.exit, Exit::Code(0), "{}", String::from_utf8_lossy(&heap.stderr));
    let answer: Value = serde_json::from_slice(&heap.stdout).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], json!("every block kept its bytes"), "{answer}");
}

#[test]
fn a_package_with_its_own_panic_handler_builds_and_runs() {
    let path = vendored_without_defaults("dlmalloc");
    let bytes = std::fs::read(&path).unwrap();
    let check = subako_tiny_runner::check(&bytes, None);
    assert!(check.accepted(), "{:?}", check.failures);
    let module = Module::from_bytes(&bytes).unwrap();
    let output = greets(&module, "own panic handler");
    assert_eq!(output.pages_at_exit, output.pages_at_start);
    // A panic is the package's to handle: its handler speaks, then traps.
    let panicked = call(&module, "bug", json!({}));
    assert!(matches!(panicked.exit, Exit::Trap(_)), "{:?}", panicked.exit);
    assert_eq!(String::from_utf8_lossy(&panicked.stderr), "the package's own panic handler ran\n");
    assert!(panicked.stdout.is_empty(), "{}", String::from_utf8_lossy(&panicked.stdout));
}
