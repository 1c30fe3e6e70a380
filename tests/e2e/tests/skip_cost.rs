//! Passing over a value costs little more in a module that parses
//! documents than in one that does not, whatever the value holds, and far
//! less where it holds numbers; counted in wasmtime fuel (the wasm
//! operators run), not timed. A module that calls `json::parse` passes a
//! container's numbers, literals and white space eight bytes a turn (author trial
//! 98: GeoJSON coordinates); review 101 found that this made containers
//! dense in strings or brackets dearer to pass, up to twice for
//! `[[[[]]]]` (3.08× here), as the word scan was started between every
//! two brackets; review 102, that starting it only where a run goes on
//! left `[1,1,1]` a byte at a time (1.55×). What is left is the test, at
//! each byte, of which of the two ways the skip goes (one loop for both
//! keeps the module smaller), and indented text passed a byte at a time
//! up to its first white space. Two probe modules, the same tool but for one line: in one
//! it first parses `0`, which links the word scan and turns it on.

use serde_json::{Value, json};
use subako_tiny_e2e::{probe_package, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

const PROBE: &str = r##"#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
use subako_tiny::prelude::*;

/// The `last` member of `doc`, found by passing every member before it
/// (with `walk`; without, 7 as if found); in one of the two modules, after
/// parsing a document.
fn last(args: &Args<'_>) -> Result<Reply, ToolError> {
    if PARSE && subako_tiny::json::parse(b"0").is_err() {
        return Err(ToolError::new("0 is JSON"));
    }
    let doc = args.value("doc").ok_or_else(|| ToolError::new("no doc"))?;
    if !args.bool("walk")? {
        return Ok(Reply::object(|o| o.field("last", 7)));
    }
    let last = doc.at(&["last"]).and_then(|v| v.as_i64()).ok_or_else(|| ToolError::new("no last"))?;
    Ok(Reply::object(|o| o.field("last", last)))
}

const ARGS: &str = r#"{"type": "object", "properties": {"walk": {"type": "boolean"}, "doc": {"type": "object"}}}"#;
const PACKAGE: Package = Package::new("probe", "0.1.0", "Skips.", &[Tool::new("last", "The last member.", ARGS, last)]);
subako_tiny::main!(PACKAGE);
"##;

/// The fuel of passing the members of `doc` (JSON text ending in
/// `"last":7}`) before its last: a call that walks less one that does not.
fn fuel(module: &Module, doc: &str) -> u64 {
    call_fuel(module, doc, true) - call_fuel(module, doc, false)
}

/// The fuel of one `last` call.
fn call_fuel(module: &Module, doc: &str, walk: bool) -> u64 {
    let arguments = json!({"walk": walk, "doc": "DOC"});
    let line =
        request(json!(1), "tools/call", json!({"name": "last", "arguments": arguments})).replacen(r#""DOC""#, doc, 1);
    let output = run(module, &RunOptions { stdin: line.into_bytes(), ..RunOptions::default() }).unwrap();
    assert_eq!(output.exit, Exit::Code(0), "{}", String::from_utf8_lossy(&output.stderr));
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["result"]["structuredContent"], json!({"last": 7}), "{answer}");
    output.fuel.unwrap()
}

/// `item` `n` times in an array, as the member before `last`.
fn doc(item: &str, n: usize) -> String {
    format!(r#"{{"items":[{}],"last":7}}"#, vec![item; n].join(","))
}

#[test]
fn passing_a_value_costs_little_more_when_the_module_parses_documents() {
    let probe = |parse: &str| {
        let main_rs = PROBE.replacen("PARSE &&", &format!("{parse} &&"), 1);
        let wasm = probe_package(&format!("skip-cost-{parse}"), &main_rs);
        Module::from_bytes_with_fuel(&std::fs::read(wasm).unwrap()).unwrap()
    };
    let (plain_module, deep_module) = (probe("false"), probe("true"));
    let shapes: [(&str, String, f64); 14] = [
        ("nested brackets", doc("[[[[]]]]", 2_000), 1.2),
        ("pairs of strings", doc(r#"["a","b"]"#, 2_000), 1.2),
        ("short strings", doc(r#""abc""#, 3_000), 1.2),
        ("empty objects", doc("{}", 6_000), 1.2),
        ("small records", doc(r#"{"id":1,"ok":true}"#, 1_000), 1.2),
        ("API records", doc(r#"{"id":"S12","name":"Zürich Flughafen","planned":"07:42","price":null}"#, 300), 1.15),
        ("long strings", doc(r#""a sixteen-byte!""#, 1_000), 1.15),
        ("Japanese", doc(r#""東京の天気は晴れ""#, 1_000), 1.15),
        ("one-digit numbers", doc("1", 8_000), 0.3),
        ("rows of bits", doc("[0,1,0,1,1,0]", 1_000), 0.75),
        ("spaced records", doc(r#"{"id": 12, "lat": 35.6894875, "ok": true}"#, 400), 1.0),
        // Indented as `json.dumps(indent=2)` writes, spaces for the new
        // lines an argument cannot hold (the skip reads both alike).
        ("indented records", doc(r#"{   "id": 12,   "name": "Zürich",   "tags": [     "a",   "b" ] }"#, 300), 1.15),
        ("numbers", doc("1234.5678", 2_000), 0.3),
        ("coordinate rings", doc("[[139.6917064,35.6894875],[135.5022535,34.6937378]]", 400), 0.6),
    ];
    let mut worse = Vec::new();
    for (name, doc, most) in &shapes {
        let plain = fuel(&plain_module, doc);
        let deep = fuel(&deep_module, doc);
        let ratio = deep as f64 / plain as f64;
        eprintln!(
            "{name:>18}: {:>6} bytes, {plain:>9} fuel plain, {deep:>9} with documents parsed: {ratio:.2}×",
            doc.len()
        );
        if ratio > *most {
            worse.push(format!("{name}: {ratio:.2}× (at most {most})"));
        }
    }
    assert!(worse.is_empty(), "passing a value in a module that parses documents costs more: {worse:?}");
}
