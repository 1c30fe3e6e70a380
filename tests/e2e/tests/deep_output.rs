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

/// `n` objects, one in another, then an array of arrays: `n + 3` levels.
fn slices(args: &Args<'_>) -> Result<Reply, ToolError> {
    fn nest(o: &mut ObjectWriter, n: i64) -> &mut ObjectWriter {
        if n == 0 { o.field("leaf", [[1]]) } else { o.object("a", |p| nest(p, n - 1)) }
    }
    let n = args.int("n", 0, 100_000)?;
    Ok(Reply::object(|o| nest(o, n)))
}

/// `deep`'s reply, made inside a `json::object`'s closure.
fn inside(args: &Args<'_>) -> Result<Reply, ToolError> {
    let n = args.int("n", 0, 100_000)?;
    let mut reply = None;
    let _apart = json::object(|o| {
        reply = Some(Reply::object(|p| objects(p, n)));
        o.field("x", 1)
    });
    reply.ok_or_else(|| ToolError::new("no reply"))
}

const ANY: &str = r#"{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}"#;
const PACKAGE: Package = Package::new("probe", "0.1.0", "Deep values.", &[
    Tool::new("deep", "Nests objects.", ANY, deep),
    Tool::new("apart", "Nests a json::object.", ANY, apart),
    Tool::new("slices", "Nests arrays at the deepest level.", ANY, slices),
    Tool::new("inside", "Nests objects inside a json::object's closure.", ANY, inside),
]);
subako_tiny::main!(PACKAGE);
"##;

/// The answers to `calls` (tool, n), each in an instance of its own or all
/// on one stdin.
fn answers(module: &Module, calls: &[(&str, i64)], alone: bool) -> Vec<Value> {
    let requests: Vec<String> = calls
        .iter()
        .enumerate()
        .map(|(id, (tool, n))| request(json!(id), "tools/call", json!({"name": tool, "arguments": {"n": n}})))
        .collect();
    let stdins = if alone { requests } else { vec![requests.concat()] };
    let mut answers = Vec::new();
    for stdin in stdins {
        let output = run(module, &RunOptions { stdin: stdin.into_bytes(), ..RunOptions::default() }).unwrap();
        assert_eq!(output.exit, Exit::Code(0), "{}", String::from_utf8_lossy(&output.stderr));
        let stdout = String::from_utf8(output.stdout).unwrap();
        for line in stdout.lines() {
            answers.push(serde_json::from_str::<Value>(line).expect("each stdout line is JSON serde_json reads"));
        }
    }
    assert_eq!(answers.len(), calls.len(), "{answers:?}");
    answers
}

#[test]
fn a_value_nested_past_what_readers_take_is_an_error_naming_the_tool() {
    let module = Module::from_file(probe_package("probe-deep-output", PROBE)).unwrap();
    // The levels each tool's value has, less n: deep's and inside's n + 1,
    // apart's n + 2, slices' n + 3.
    let more = |tool: &str| match tool {
        "deep" | "inside" => 1,
        "apart" => 2,
        _ => 3,
    };
    let mut calls = Vec::new();
    for tool in ["deep", "apart", "slices", "inside"] {
        let fits = 125 - more(tool);
        calls.extend([(tool, fits), (tool, fits + 1), (tool, 1_000)]);
    }
    // Alone, as the platform runs each call (review 77: a reply made
    // inside a json::object's closure went out malformed as the first call
    // of an instance), and all on one stdin.
    for alone in [true, false] {
        for (answer, &(tool, n)) in answers(&module, &calls, alone).iter().zip(&calls) {
            let result = &answer["result"];
            if n + more(tool) <= 125 {
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
}
