//! Reading a request costs the same per byte however long it is, counted
//! in wasmtime fuel (the wasm operators run), not timed: hello answering a
//! greet whose arguments hold a member per 13 bytes, its `name` last,
//! in lines of 1 MiB and 8 MiB. A quadratic step anywhere (finding a
//! member, growing a buffer) would make the longer line's fuel per byte
//! about eight times the shorter's. And a number the float reader's short
//! path leaves (an exponent, over 15 characters) costs a few hundred fuel
//! more than one it takes, counted the same way in typed_by_hand.

use serde_json::{Value, json};
use subako_tiny_e2e::{Variant, example_variant, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

/// A call of `tool` with `arguments` as they are spelled (not as
/// serde_json would write them again).
fn call_line(tool: &str, arguments: &str) -> String {
    request(json!(1), "tools/call", json!({"name": tool, "arguments": "ARGUMENTS"})).replacen(
        r#""ARGUMENTS""#,
        arguments,
        1,
    )
}

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
    call_line("greet", &arguments)
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

/// The fuel of one `order_total` of typed_by_hand: 100 lines, each price
/// spelled `price`, and its answer.
fn order_fuel(module: &Module, price: &str) -> (u64, Value) {
    let items: Vec<String> = (0..100).map(|i| format!(r#"{{"sku":"s{i}","qty":1,"unit_price":{price}}}"#)).collect();
    let line = call_line("order_total", &format!(r#"{{"currency":"EUR","items":[{}]}}"#, items.join(",")));
    let opts = RunOptions { argv: vec!["typed".into()], stdin: line.into_bytes(), ..RunOptions::default() };
    let output = run(module, &opts).unwrap();
    assert_eq!(output.exit, Exit::Code(0), "{}", String::from_utf8_lossy(&output.stderr));
    (output.fuel.unwrap(), serde_json::from_slice(&output.stdout).unwrap())
}

#[test]
fn a_number_past_the_short_path_costs_a_few_hundred_fuel_more_not_thousands() {
    // The reader once cleared an 800-digit buffer for every number its
    // short path (at most 15 characters, no exponent) left: wasmtime
    // charges memory.fill by the byte. The same price spelled two ways, as
    // long or a character longer: the same answer, and the difference is
    // the reading.
    let bytes = std::fs::read(example_variant("typed_by_hand", &Variant::default())).unwrap();
    let module = Module::from_bytes_with_fuel(&bytes).unwrap();
    for (short, other) in
        [("15.00", "1.5e1"), ("15.000000000000", "15.0000000000000"), ("15.00000000000", "1.50000000e+01")]
    {
        assert!(other.len() - short.len() <= 1);
        let (short_fuel, answer) = order_fuel(&module, short);
        let (fuel, same) = order_fuel(&module, other);
        assert_eq!(same, answer);
        let per_number = (fuel as f64 - short_fuel as f64) / 100.0;
        eprintln!("{other}: {per_number:.0} fuel a number more than {short}");
        // About 2,000 while the buffer was cleared for each.
        assert!(per_number < 1000.0, "{other}: {per_number:.0} fuel a number more than {short}");
    }
}
