//! What the optimizer does to the crate's hot helpers in a package, checked
//! in the module: `bytes::same`, which compares every member name the JSON
//! reader looks up, stays a loop of its own (it calls nothing) in a package
//! that also searches text with `chars::find`. It once became a call of
//! the bounds-checked `same_at` there, once the search used that too,
//! making every lookup dearer (author trial 36: a file read 7.7 % dearer).

use subako_tiny_e2e::probe_package;

/// The names of the functions that the function named `name` (demangled,
/// hash dropped) calls directly, in the module at `path`; calls of imports
/// are left out.
fn callees(path: &std::path::Path, name: &str) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    let report = subako_tiny_runner::size(&bytes).unwrap();
    assert!(report.has_names, "{} has no name section", path.display());
    let index =
        report.funcs.iter().position(|f| f.name == name).unwrap_or_else(|| panic!("no {name} in {}", path.display()));
    let calls = subako_tiny_runner::direct_calls(&bytes, &report);
    calls[index].iter().map(|&i| report.funcs[i].name.clone()).collect()
}

#[test]
fn the_name_compare_calls_nothing_beside_a_text_search() {
    let module = probe_package(
        "probe-search",
        r##"#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
extern crate alloc;
use subako_tiny::{Args, Package, Reply, Tool, ToolError, chars, json};
fn count(args: &Args<'_>) -> Result<Reply, ToolError> {
    let query = args.str("query")?;
    let lines = args.str("lines")?;
    let mut n = 0u64;
    for line in lines.split('\n') {
        let Ok(value) = json::parse(line.as_bytes()) else { continue };
        let Some(text) = value.as_object().and_then(|o| o.get("text")).and_then(|v| v.as_str()) else { continue };
        if chars::find(&text.to_str(), &query).is_some() {
            n += 1;
        }
    }
    Ok(Reply::object(|o| o.field("count", n)))
}
const PACKAGE: Package = Package::new("probe", "0.1.0", "Counts.", &[Tool::new(
    "count",
    "Counts the lines whose text holds the query.",
    r#"{"type": "object", "properties": {"query": {"type": "string"}, "lines": {"type": "string"}}, "required": ["query", "lines"]}"#,
    count,
)]);
subako_tiny::main!(PACKAGE);
"##,
    );
    let called = callees(&module, "subako_tiny::bytes::same");
    assert!(called.is_empty(), "bytes::same calls {called:?}");
}
