//! A bug in a tool reaches the model as a readable isError result for that
//! request (then the module exits 0), not as a bare trap; and a package
//! built by the README's vendoring recipe starts at 2 memory pages.

use subako_tiny_e2e::{request, vendored};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

fn call(features: &[&str], tool: &str) -> (serde_json::Value, Exit, String, u64) {
    let module = Module::from_file(vendored(features)).unwrap();
    let stdin = request(serde_json::json!("call-1"), "tools/call", serde_json::json!({"name": tool, "arguments": {}}));
    let output = run(&module, &RunOptions { argv: vec!["vendored".into()], stdin: stdin.into_bytes(), ..RunOptions::default() }).unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    (serde_json::from_str(&stdout).unwrap(), output.exit, String::from_utf8(output.stderr).unwrap(), output.pages_at_start)
}

/// The line of `bug`'s `unwrap` in tests/e2e/vendored/src/main.rs.
fn bug_line() -> String {
    let source = include_str!("../vendored/src/main.rs");
    let line = source.lines().position(|l| l.contains("missing.unwrap()")).unwrap() + 1;
    format!("src/main.rs:{line})")
}

#[test]
fn a_panicking_tool_answers_its_request_with_where_it_panicked() {
    let (answer, exit, stderr, _) = call(&[], "bug");
    assert!(matches!(exit, Exit::Code(0)), "{exit:?}");
    assert_eq!(answer["id"], "call-1");
    let result = &answer["result"];
    assert_eq!(result["isError"], true);
    assert_eq!(result["resultType"], "complete");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(text, format!("tool panicked (at {}", bug_line()));
    assert_eq!(stderr, format!("panicked (at {}\n", bug_line()));
    // The start of the answer is the one every result has.
    let (fine, _, _, _) = call(&[], "fine");
    assert_eq!(answer["jsonrpc"], "2.0");
    assert_eq!(result["_meta"], fine["result"]["_meta"]);
    assert!(result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"].is_string(), "{answer}");
}

#[test]
fn with_panic_message_the_answer_says_what_too() {
    let (answer, exit, _, _) = call(&["panic-message"], "bug");
    assert!(matches!(exit, Exit::Code(0)), "{exit:?}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(text, format!("tool panicked: called `Option::unwrap()` on a `None` value (at {}", bug_line()));
}

#[test]
fn the_vendoring_recipe_gives_a_module_that_starts_at_two_pages() {
    let (answer, exit, stderr, pages) = call(&[], "fine");
    assert!(matches!(exit, Exit::Code(0)), "{exit:?}");
    assert!(stderr.is_empty());
    assert_eq!(answer["result"]["content"][0]["text"], "fine");
    assert!(pages <= 2, "starts at {pages} pages");
    let bytes = std::fs::read(vendored(&[])).unwrap();
    assert!(subako_tiny_runner::check(&bytes, None).accepted());
}
