//! A reply that closures nest past what an answer line may hold (125
//! levels below `structuredContent`) is an isError result naming the tool,
//! in real wasmtime: review 76 found 126 levels written through
//! `Reply::object` sent as a line serde_json refuses, which the worker
//! counts as a crash. The line that goes out is read by serde_json here.

use serde_json::{Value, json};
use subako_tiny_e2e::{probe_package, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

const PROBE: &str = r##"#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
use subako_tiny::prelude::*;
use subako_tiny::json::{self, ObjectWriter};

/// `n` objects, one in another, inside `o`.
fn objects(o: &mut ObjectWriter, n: i64) -> &mut ObjectWriter {
    if n == 0 { o.field("leaf", 1) } else { o.object("a", |p| objects(p, n - 1)) }
}

/// A value `n + 1` levels deep.
fn deep(args: &Args<'_>) -> Result<Reply, ToolError> {
    let n = args.int("n", 0, 100_000)?;
    Ok(Reply::object(|o| objects(o, n)))
}

/// The same, `n + 1` levels deep, made apart by `json::object` and put
/// one level down: `n + 2`.
fn apart(args: &Args<'_>) -> Result<Reply, ToolError> {
    let n = args.int("n", 0, 100_000)?;
    let inner = json::object(|o| objects(o, n));
    Ok(Reply::object(|o| o.field("b", &inner)))
}

const ANY: &str = r#"{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}"#;
const PACKAGE: Package = Package::new("probe", "0.1.0", "Deep values.", &[
    Tool::new("deep", "Nests objects.", ANY, deep),
    Tool::new("apart", "Nests a json::object.", ANY, apart),
]);
subako_tiny::main!(PACKAGE);
"##;

#[test]
fn a_value_nested_past_what_readers_take_is_an_error_naming_the_tool() {
    let module = Module::from_file(probe_package("probe-deep-output", PROBE)).unwrap();
    let mut stdin = String::new();
    let calls = [("deep", 124), ("deep", 125), ("deep", 5_000), ("apart", 123), ("apart", 124), ("apart", 5_000)];
    for (id, (tool, n)) in calls.iter().enumerate() {
        stdin.push_str(&request(json!(id), "tools/call", json!({"name": tool, "arguments": {"n": n}})));
    }
    let output = run(&module, &RunOptions { stdin: stdin.into_bytes(), ..RunOptions::default() }).unwrap();
    assert_eq!(output.exit, Exit::Code(0), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each stdout line is JSON serde_json reads"))
        .collect();
    assert_eq!(answers.len(), calls.len(), "{stdout}");
    for (answer, (tool, n)) in answers.iter().zip(calls) {
        let result = &answer["result"];
        let fits = n < if tool == "deep" { 125 } else { 124 };
        if fits {
            assert!(result["isError"].is_null() && result["structuredContent"].is_object(), "{tool} {n}: {answer}");
        } else {
            assert_eq!(result["isError"], true, "{tool} {n}: {answer}");
            let text = result["content"][0]["text"].as_str().unwrap();
            let said = format!(
                "tool `{tool}` answered with structuredContent that nests arrays and objects deeper than 125 levels"
            );
            assert!(text.starts_with(&said), "{tool} {n}: {text}");
        }
    }
}
