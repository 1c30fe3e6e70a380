//! Memory over a long stream: one instance answering many requests on one
//! stdin (a local client, a test) must not grow with every request. hello's
//! `greet` with an escaped name makes the tool allocate the unescaped copy
//! before the reply it frees last, which the lean allocator once left
//! behind on every request (100,000 lines took it from 2 to 99 pages).

use std::time::Duration;

use subako_tiny_e2e::{Variant, example_variant, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

const LINES: usize = 100_000;

/// Runs `LINES` greet calls, each name with a `\u00e9` escape, through hello
/// built as `variant`; returns the pages at exit, after checking that every
/// request was answered, in order, with its greeting.
fn pages_after_a_stream(variant: &Variant) -> u64 {
    let module = Module::from_file(example_variant("hello", variant)).unwrap();
    let mut stdin = String::new();
    for i in 0..LINES {
        let line = request(
            serde_json::json!(i),
            "tools/call",
            serde_json::json!({"name": "greet", "arguments": {"name": format!("Ren\\u00e9e {i}")}}),
        );
        // serde_json writes the backslash escaped; the wire wants the escape.
        stdin.push_str(&line.replace(r"\\u00e9", r"\u00e9"));
    }
    assert!(stdin.contains(r#""Ren\u00e9e 7""#), "{}", &stdin[..300]);
    let options = RunOptions {
        argv: vec!["hello".into()],
        stdin: stdin.into_bytes(),
        time_limit: Duration::from_secs(300),
        ..RunOptions::default()
    };
    let output = run(&module, &options).unwrap();
    assert!(matches!(output.exit, Exit::Code(0)), "{:?}: {}", output.exit, String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), LINES);
    for (i, line) in stdout.lines().enumerate() {
        let answer: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(answer["id"], i, "{line}");
        let message = &answer["result"]["structuredContent"]["message"];
        assert_eq!(message.as_str(), Some(format!("Hello, Renée {i}!").as_str()), "{line}");
    }
    assert_eq!(output.pages_at_start, 2);
    output.pages_at_exit
}

#[test]
fn the_lean_allocator_stays_at_two_pages_over_a_long_stream() {
    assert_eq!(pages_after_a_stream(&Variant::lean()), 2);
}

#[test]
fn dlmalloc_stays_at_two_pages_over_a_long_stream() {
    assert_eq!(pages_after_a_stream(&Variant::default()), 2);
}

#[test]
fn the_dlmalloc_crate_stays_at_two_pages_over_a_long_stream() {
    let variant = Variant { features: vec!["dlmalloc-crate", "panic-handler"], default_features: false };
    assert_eq!(pages_after_a_stream(&variant), 2);
}
