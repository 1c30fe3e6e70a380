//! Random numbers inside a module, in wasmtime: `draw` (tests/e2e/vendored)
//! reads WASI's `random_get` through `random::fill` and seeds a generator
//! with it (`Rng::from_platform`); two runs draw differently, the shuffle
//! is a permutation, and the upload check takes the import.

use subako_tiny_e2e::{request, vendored};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

fn draw(module: &Module) -> serde_json::Value {
    let stdin = request(serde_json::json!(1), "tools/call", serde_json::json!({"name": "draw", "arguments": {}}));
    let output =
        run(module, &RunOptions { argv: vec!["vendored".into()], stdin: stdin.into_bytes(), ..RunOptions::default() })
            .unwrap();
    assert!(matches!(output.exit, Exit::Code(0)), "{:?}: {}", output.exit, String::from_utf8_lossy(&output.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    answer["result"]["structuredContent"].clone()
}

#[test]
fn a_module_draws_the_platform_s_random_bytes() {
    let bytes = std::fs::read(vendored(&[])).unwrap();
    assert!(subako_tiny_runner::check(&bytes, None).accepted(), "the upload check refuses random_get");
    let module = Module::from_file(vendored(&[])).unwrap();
    let (a, b) = (draw(&module), draw(&module));
    assert_ne!(a["bytes"], b["bytes"], "two runs drew the same 16 bytes: {a} {b}");
    for drawn in [&a, &b] {
        let mut order: Vec<u64> = drawn["order"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
        order.sort_unstable();
        assert_eq!(order, (1..=10).collect::<Vec<_>>(), "{drawn}");
    }
}
