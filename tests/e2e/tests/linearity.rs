//! Reading a request costs the same per byte however long it is, counted
//! in wasmtime fuel (the wasm operators run), not timed: hello answering a
//! greet whose arguments hold a member per 13 bytes, its `name` last,
//! in lines of 1 MiB and 8 MiB. A quadratic step anywhere (finding a
//! member, growing a buffer) would make the longer line's fuel per byte
//! about eight times the shorter's.

use serde_json::{Value, json};
use subako_tiny_e2e::{Variant, example_variant, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

/// A greet request of about `bytes` bytes: `{"k0000000":0,"k0000001":1,…,
/// "name":"Ada"}`, every member as long as the others.
fn greet_line(bytes: usize) -> String {
    let mut arguments = String::from("{");
    let mut i = 0;
    while arguments.len() < bytes {
        arguments.push_str(&format!(r#""k{i:07}":{},"#, i % 10));
        i += 1;
    }
    arguments.push_str(r#""name":"Ada"}"#);
    request(json!(1), "tools/call", json!({"name": "greet", "arguments": "ARGUMENTS"})).replacen(
        r#""ARGUMENTS""#,
        &arguments,
        1,
    )
}

/// Fuel per byte of the request line, for a greet of about `bytes` bytes.
fn fuel_per_byte(module: &Module, bytes: usize) -> f64 {
    let line = greet_line(bytes);
    let opts = RunOptions { argv: vec!["hello".into()], stdin: line.clone().into_bytes(), ..RunOptions::default() };
    let output = run(module, &opts).unwrap();
    assert_eq!(output.exit, Exit::Code(0), "{}", String::from_utf8_lossy(&output.stderr));
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["result"]["structuredContent"], json!({"message": "Hello, Ada!"}), "{bytes} bytes");
    output.fuel.unwrap() as f64 / line.len() as f64
}

#[test]
fn a_request_costs_the_same_fuel_per_byte_at_1_mib_and_8_mib() {
    for variant in [Variant::default(), Variant::lean()] {
        let bytes = std::fs::read(example_variant("hello", &variant)).unwrap();
        let module = Module::from_bytes_with_fuel(&bytes).unwrap();
        let short = fuel_per_byte(&module, 1 << 20);
        let long = fuel_per_byte(&module, 8 << 20);
        eprintln!("{variant:?}: {short:.3} fuel per byte at 1 MiB, {long:.3} at 8 MiB");
        assert!(
            (long / short - 1.0).abs() < 0.02,
            "{variant:?}: {short:.3} fuel per byte at 1 MiB, {long:.3} at 8 MiB: not linear"
        );
    }
}
