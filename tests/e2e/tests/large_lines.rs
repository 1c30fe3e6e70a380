//! A request line past 128 MiB, in a package that raised its line limit,
//! is read whole in real wasmtime, answered, and the lines after it too,
//! with no error line when input ends. wasmtime's WASI refuses one read of
//! more than 128 MiB with ENOMEM, and the line reader's buffer, doubling,
//! passes that: before stdin was read in parts, a 160 MB line was
//! answered `stdin unreadable: errno 48` with id null and its request
//! never, and after a 100 MB line the read that meets the end of input
//! failed the same way (review 45).

use serde_json::{Value, json};
use subako_tiny_e2e::{probe_package, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

const PROBE: &str = r##"#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
use subako_tiny::prelude::*;

/// The length of `text`, and its last byte.
fn measure(args: &Args<'_>) -> Result<Reply, ToolError> {
    let text = args.str("text")?;
    Ok(Reply::object(|o| o.field("bytes", text.len()).field("last", text.chars().last())))
}

const PACKAGE: Package = Package::new("probe", "0.1.0", "Long lines.", &[
    Tool::new("measure", "Measures the text.", r#"{"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}"#, measure),
])
.max_line(1 << 30);
subako_tiny::main!(PACKAGE);
"##;

#[test]
fn a_line_past_128_mib_and_the_lines_after_it_are_answered() {
    let module = Module::from_file(probe_package("probe-large-lines", PROBE)).unwrap();
    let long = 140 << 20;
    let mut text = "a".repeat(long - 1);
    text.push('z');
    let mut stdin = request(json!(1), "tools/call", json!({"name": "measure", "arguments": {"text": text}}));
    drop(text);
    stdin.push_str(&request(json!(2), "tools/call", json!({"name": "measure", "arguments": {"text": "é"}})));
    let opts = RunOptions { stdin: stdin.into_bytes(), memory_limit_bytes: 1 << 30, ..RunOptions::default() };
    let output = run(&module, &opts).unwrap();
    assert_eq!(output.exit, Exit::Code(0), "{}", String::from_utf8_lossy(&output.stderr));
    let answers: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("each stdout line is JSON"))
        .collect();
    let results: Vec<(Value, Value)> =
        answers.iter().map(|a| (a["id"].clone(), a["result"]["structuredContent"].clone())).collect();
    assert_eq!(
        results,
        [(json!(1), json!({"bytes": long, "last": "z"})), (json!(2), json!({"bytes": 2, "last": "é"}))],
        "{answers:?}"
    );
}

/// The guide's figure (src/guide/limits.md): under the platform's 256 MiB,
/// a raised limit takes a line of about 70 MiB; the reader holds up to
/// about three times a line while its buffer doubles.
#[test]
fn a_line_of_70_mib_is_answered_under_the_platforms_256_mib() {
    // A target of its own: the test beside it builds the same probe from
    // another directory, which would rebuild it under the other's reading.
    let module = Module::from_file(probe_package("probe-large-lines-70", PROBE)).unwrap();
    let long = 70 << 20;
    let text = "é".repeat(long / 2);
    let stdin = request(json!(1), "tools/call", json!({"name": "measure", "arguments": {"text": text}}));
    drop(text);
    let opts = RunOptions { stdin: stdin.into_bytes(), ..RunOptions::default() };
    assert_eq!(opts.memory_limit_bytes, 256 << 20, "the platform's limit");
    let output = run(&module, &opts).unwrap();
    assert_eq!(output.exit, Exit::Code(0), "{}", String::from_utf8_lossy(&output.stderr));
    let answer: Value = serde_json::from_slice(&output.stdout).expect("one JSON line");
    assert_eq!(answer["result"]["structuredContent"], json!({"bytes": long, "last": "é"}), "{answer}");
}
