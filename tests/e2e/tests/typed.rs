//! The `typed` packages as real `.wasm` in real wasmtime: `typed` (plain
//! accessors, arguments checked by `validated!`) and `typed_serde`
//! (miniserde structs, feature `miniserde`) answer the same calls the same
//! way, word for word, except where miniserde alone decides that an input
//! is bad: then both are isError results naming the value's path, each in
//! its own words.
//! `typed_by_hand` (accessors, rules checked by hand) answers every good
//! call byte for byte as `typed` does, and every bad one with an isError
//! result too, in its own words.

use std::sync::OnceLock;

use serde_json::{Value, json};
use subako_tiny_e2e::{Variant, example, example_variant, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

#[path = "../../../examples/typed.rs"]
mod typed;

struct Modules {
    plain: Module,
    serde: Module,
    by_hand: Module,
}

fn modules() -> &'static Modules {
    static MODULES: OnceLock<Modules> = OnceLock::new();
    MODULES.get_or_init(|| Modules {
        plain: Module::from_file(example("typed")).unwrap(),
        serde: Module::from_file(example_variant(
            "typed_serde",
            &Variant { features: vec!["miniserde"], default_features: true },
        ))
        .unwrap(),
        by_hand: Module::from_file(example("typed_by_hand")).unwrap(),
    })
}

/// The module's whole stdout for one request line.
fn exchange(module: &Module, line: &str) -> String {
    let options = RunOptions { argv: vec!["typed".into()], stdin: line.as_bytes().to_vec(), ..RunOptions::default() };
    let output = run(module, &options).unwrap();
    assert_eq!(output.exit, Exit::Code(0), "stderr: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn call_line(arguments: Option<Value>) -> String {
    let mut params = json!({"name": "order_total"});
    if let Some(arguments) = arguments {
        params["arguments"] = arguments;
    }
    request(json!(7), "tools/call", params)
}

/// Both modules' stdout for `order_total(arguments)`, which must be one
/// JSON-RPC result line each.
fn both(arguments: Value) -> (String, String) {
    let line = call_line(Some(arguments));
    let m = modules();
    let (plain, serde) = (exchange(&m.plain, &line), exchange(&m.serde, &line));
    let by_hand = exchange(&m.by_hand, &line);
    if result(&plain).get("isError").is_none() {
        assert_eq!(by_hand, plain, "typed_by_hand, for {line}");
    } else {
        let (ours, theirs) = (error(&by_hand), error(&plain));
        assert!(
            ours == theirs || ours.starts_with("invalid input"),
            "typed_by_hand, for {line}: {ours} (typed: {theirs})"
        );
    }
    (plain, serde)
}

fn result(stdout: &str) -> Value {
    assert!(stdout.ends_with('\n') && stdout.matches('\n').count() == 1, "one line: {stdout}");
    let message: Value = serde_json::from_str(stdout).unwrap();
    assert_eq!(message["id"], 7, "{stdout}");
    message["result"].clone()
}

/// A successful call's structured value (checked against its text block).
fn total(stdout: &str) -> Value {
    let result = result(stdout);
    assert_eq!(result.get("isError"), None, "{stdout}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), result["structuredContent"]);
    result["structuredContent"].clone()
}

/// A failed call's message.
fn error(stdout: &str) -> String {
    let result = result(stdout);
    assert_eq!(result["isError"], true, "{stdout}");
    assert!(result.get("structuredContent").is_none());
    result["content"][0]["text"].as_str().unwrap().to_string()
}

fn item(sku: &str, qty: i64, unit_price: f64) -> Value {
    json!({"sku": sku, "qty": qty, "unit_price": unit_price})
}

#[test]
fn good_orders_are_totalled_identically() {
    let cases = [
        (
            json!({"items": [item("A-1", 3, 19.99)], "currency": "EUR"}),
            json!({"currency": "EUR", "lines": 1, "total": 59.97}),
        ),
        (
            json!({"items": [item("A", 2, 10.005), item("B", 1, 0.1)], "currency": "USD", "coupon": "SAVE10"}),
            json!({"currency": "USD", "lines": 2, "total": 18.1}),
        ),
        // Half a cent, and half a yen, round away from zero.
        (
            json!({"items": [item("C", 1, 0.125)], "currency": "USD"}),
            json!({"currency": "USD", "lines": 1, "total": 0.13}),
        ),
        (
            json!({"items": [item("Y", 3, 333.5)], "currency": "JPY"}),
            json!({"currency": "JPY", "lines": 1, "total": 1001.0}),
        ),
        (
            json!({"items": [item("Y", 3, 333.5)], "currency": "JPY", "coupon": "SAVE10"}),
            json!({"currency": "JPY", "lines": 1, "total": 900.0}),
        ),
        // Bounds are inclusive; free lines count; names may be any 32 characters.
        (
            json!({"items": [item(&"é".repeat(32), 1000, 0.0), item("😀", 1, 2.5)], "currency": "EUR"}),
            json!({"currency": "EUR", "lines": 2, "total": 2.5}),
        ),
        (
            json!({"items": (0..100).map(|n| item(&format!("SKU-{n}"), 1, 1.01)).collect::<Vec<_>>(), "currency": "EUR"}),
            json!({"currency": "EUR", "lines": 100, "total": 101.0}),
        ),
        // Members the schema does not mention are let through.
        (
            json!({"items": [{"sku": "Z", "qty": 4, "unit_price": 2, "note": "gift"}], "currency": "EUR", "x": 1}),
            json!({"currency": "EUR", "lines": 1, "total": 8.0}),
        ),
    ];
    for (arguments, expected) in cases {
        let (plain, serde) = both(arguments.clone());
        assert_eq!(total(&plain), expected, "typed, for {arguments}");
        assert_eq!(total(&serde), expected, "typed_serde, for {arguments}");
        assert_eq!(plain, serde, "the same bytes, for {arguments}");
    }
}

#[test]
fn range_errors_are_worded_identically() {
    let eur = |items: Value| json!({"items": items, "currency": "EUR"});
    let cases = [
        (eur(json!([])), "invalid input: /items must have at least 1 item"),
        (
            eur(Value::Array((0..101).map(|_| item("A", 1, 1.0)).collect())),
            "invalid input: /items must have at most 100 items",
        ),
        (
            eur(json!([item("A", 1, 1.0), item("", 1, 1.0)])),
            "invalid input: /items/1/sku must be at least 1 character long",
        ),
        (eur(json!([item(&"x".repeat(33), 1, 1.0)])), "invalid input: /items/0/sku must be at most 32 characters long"),
        (eur(json!([item(&"é".repeat(33), 1, 1.0)])), "invalid input: /items/0/sku must be at most 32 characters long"),
        (eur(json!([item("A", 0, 1.0)])), "invalid input: /items/0/qty must be at least 1"),
        (eur(json!([item("A", -5, 1.0)])), "invalid input: /items/0/qty must be at least 1"),
        (
            eur(json!([item("A", 1, 1.0), item("B", 2, 1.0), item("C", 1001, 1.0)])),
            "invalid input: /items/2/qty must be at most 1000",
        ),
        (eur(json!([item("A", 1, -0.01)])), "invalid input: /items/0/unit_price must be at least 0"),
        (json!({"items": [item("A", 1, 1.0)], "currency": "EUR", "coupon": "SAVE20"}), "unknown coupon: SAVE20"),
        (json!({"items": [item("A", 1, 1.0)], "currency": "EUR", "coupon": ""}), "unknown coupon: "),
    ];
    for (arguments, message) in cases {
        let (plain, serde) = both(arguments.clone());
        assert_eq!(error(&plain), message, "typed, for {arguments}");
        assert_eq!(error(&serde), message, "typed_serde, for {arguments}");
        assert_eq!(plain, serde);
    }
}

#[test]
fn type_errors_name_the_path_in_both() {
    let good = || json!({"items": [item("A", 1, 1.0)], "currency": "EUR"});
    let with = |pointer: &str, value: Value| {
        let mut arguments = good();
        *arguments.pointer_mut(pointer).unwrap() = value;
        arguments
    };
    let without = |key: &str| {
        let mut arguments = good();
        arguments.as_object_mut().unwrap().remove(key);
        arguments
    };
    // typed_serde's words: where the value is, as miniserde's types refuse it.
    let cases = [
        (without("items"), "invalid input: /items is required", "invalid input: / lacks a field the tool needs"),
        (without("currency"), "invalid input: /currency is required", "invalid input: / lacks a field the tool needs"),
        (
            with("/currency", json!("GBP")),
            r#"invalid input: /currency must be one of "EUR", "USD", "JPY", not "GBP""#,
            r#"invalid input: /currency cannot be the string "GBP""#,
        ),
        (
            with("/currency", json!(978)),
            "invalid input: /currency must be a string",
            "invalid input: /currency cannot be the number 978",
        ),
        (
            with("/items", json!({"sku": "A"})),
            "invalid input: /items must be an array",
            "invalid input: /items cannot be an object",
        ),
        (
            with("/items/0", json!("A")),
            "invalid input: /items/0 must be an object",
            r#"invalid input: /items/0 cannot be the string "A""#,
        ),
        (
            with("/items/0/qty", json!("3")),
            "invalid input: /items/0/qty must be an integer",
            r#"invalid input: /items/0/qty cannot be the string "3""#,
        ),
        (
            with("/items/0/qty", json!(1.5)),
            "invalid input: /items/0/qty must be an integer, written without a fraction or exponent",
            "invalid input: /items/0/qty cannot be the number 1.5",
        ),
        (
            with("/items/0/unit_price", json!(null)),
            "invalid input: /items/0/unit_price must be a number",
            "invalid input: /items/0/unit_price cannot be null",
        ),
        (
            with("/items/0/sku", json!(12)),
            "invalid input: /items/0/sku must be a string",
            "invalid input: /items/0/sku cannot be the number 12",
        ),
        (
            json!({"items": [item("A", 1, 1.0)], "currency": "EUR", "coupon": 10}),
            "invalid input: /coupon must be a string or null",
            "invalid input: /coupon cannot be the number 10",
        ),
        (
            json!({"items": [{"sku": "A", "qty": 1}], "currency": "EUR"}),
            "invalid input: /items/0/unit_price is required",
            "invalid input: /items/0 lacks a field the tool needs",
        ),
        (json!({}), "invalid input: /items is required", "invalid input: / lacks a field the tool needs"),
    ];
    for (arguments, message, serde_message) in cases {
        let (plain, serde) = both(arguments.clone());
        assert_eq!(error(&plain), message, "typed, for {arguments}");
        assert_eq!(error(&serde), serde_message, "typed_serde, for {arguments}");
    }
    // A null coupon is no coupon in both: the schema allows null because
    // miniserde reads a null `Option` as `None` and cannot tell them apart.
    let (plain, serde) = both(json!({"items": [item("A", 1, 1.0)], "currency": "EUR", "coupon": null}));
    assert_eq!(total(&plain), json!({"currency": "EUR", "lines": 1, "total": 1.0}));
    assert_eq!(total(&serde), total(&plain));
    // No arguments at all read as `{}` in both.
    let m = modules();
    let line = call_line(None);
    assert_eq!(error(&exchange(&m.plain, &line)), "invalid input: /items is required");
    assert_eq!(error(&exchange(&m.serde, &line)), "invalid input: / lacks a field the tool needs");
}

#[test]
fn both_list_the_same_tool_and_schemas() {
    let m = modules();
    let line = request(json!(7), "tools/list", json!({}));
    let plain = exchange(&m.plain, &line);
    assert_eq!(plain, exchange(&m.serde, &line));
    let tools = &result(&plain)["tools"];
    assert_eq!(tools.as_array().unwrap().len(), 1);
    assert_eq!(tools[0]["name"], "order_total");
    let input: Value = serde_json::from_str(typed::ORDER_TOTAL_INPUT).unwrap();
    assert_eq!(tools[0]["inputSchema"], input);
    for module in ["typed", "typed_serde"] {
        let path = if module == "typed" {
            example("typed")
        } else {
            example_variant(module, &Variant { features: vec!["miniserde"], default_features: true })
        };
        let report = subako_tiny_runner::check(&std::fs::read(&path).unwrap(), None);
        assert!(report.accepted(), "{module}: {:?}", report.failures);
    }
}

#[test]
fn the_wasm_answers_as_the_host_does() {
    let arguments = json!({"items": [item("A", 2, 3.3), item("B", 1, 0.01)], "currency": "USD", "coupon": "SAVE10"});
    for arguments in [arguments, json!({"items": [item("A", 2000, 1.0)], "currency": "USD"})] {
        let line = call_line(Some(arguments));
        let (host, _) = subako_tiny::execute(&typed::PACKAGE, &["typed"], line.as_bytes());
        assert_eq!(exchange(&modules().plain, &line), String::from_utf8(host).unwrap());
    }
}

/// `validated!` keeps its schema in the module without the white space it
/// was written with: the compact text is there, the text as written is not.
#[test]
fn validated_keeps_its_schema_compact() {
    let module = std::fs::read(example("typed")).unwrap();
    let holds = |text: &[u8]| module.windows(text.len()).any(|w| w == text);
    let written = typed::ORDER_TOTAL_INPUT.trim().as_bytes();
    assert!(written.iter().any(u8::is_ascii_whitespace), "the example's schema is written compact: nothing to test");
    let mut compact = Vec::new();
    subako_tiny::__test::compact_into(&mut compact, written);
    assert!(holds(&compact), "the compact schema is not in the module");
    assert!(!holds(written), "the schema as written is in the module");
}
