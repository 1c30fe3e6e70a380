//! Running out of memory after a tool was called, at any size: while the
//! tool works, while its answer is escaped into the text block, while it is
//! copied into `structuredContent`. Each is answered with an isError result
//! (`tool ran out of memory: send it less`) and exit 0; only a line that cannot be
//! held at all ends the module with 101 and no answer. (Issue 29, defect 1:
//! before, memory that ran out once the tool had returned ended the module
//! with 101 and the request unanswered.)

use serde_json::{Value, json};
use subako_tiny_e2e::{Variant, example_variant, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

/// What one run in a fresh instance under a 16 MiB memory gave: the exit,
/// and stdout's lines parsed.
fn run_capped(module: &Module, line: String) -> (Exit, Vec<Value>, String) {
    let opts = RunOptions { stdin: line.into_bytes(), memory_limit_bytes: 16 << 20, ..RunOptions::default() };
    let output = run(module, &opts).unwrap();
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    let lines = stdout.lines().map(|l| serde_json::from_str(l).expect("each stdout line is JSON")).collect();
    (output.exit, lines, String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Every run answers its one request, whatever the size: a whole answer, or
/// an out-of-memory isError; or, when the line itself cannot be held, no
/// answer and 101. Returns how many runs ran out of memory with an answer.
fn sweep(
    example: &str,
    tool: &str,
    sizes: impl Iterator<Item = (String, Value)>,
    whole: impl Fn(&Value) -> bool,
) -> usize {
    let sizes: Vec<(String, Value)> = sizes.collect();
    let mut out_of_memory = 0;
    for variant in [Variant::default(), Variant::lean()] {
        let module = Module::from_file(example_variant(example, &variant)).unwrap();
        for (label, arguments) in &sizes {
            let line = request(json!(label), "tools/call", json!({"name": tool, "arguments": arguments}));
            let (exit, answers, stderr) = run_capped(&module, line);
            if exit == Exit::Code(101) {
                assert!(answers.is_empty(), "{variant:?} {label}: 101 with an answer");
                assert!(stderr.contains("out of memory"), "{variant:?} {label}: {stderr}");
                continue;
            }
            assert_eq!(exit, Exit::Code(0), "{variant:?} {label}: {stderr}");
            assert_eq!(answers.len(), 1, "{variant:?} {label}: one answer");
            let answer = &answers[0];
            assert_eq!(answer["id"], json!(label), "{variant:?}");
            let result = &answer["result"];
            if result["isError"] == true {
                let text = result["content"][0]["text"].as_str().unwrap();
                assert!(text.starts_with("tool ran out of memory: send it less"), "{variant:?} {label}: {text}");
                out_of_memory += 1;
            } else {
                assert!(whole(result), "{variant:?} {label}: a success that is not whole");
            }
        }
    }
    out_of_memory
}

#[test]
fn echo_out_of_memory_at_every_size_is_answered() {
    // 1 KiB of text copied from 1,000 to 16,000 times: the copy, its text
    // block and the answer's line each cross 16 MiB somewhere in the range.
    let sizes = (1..=32).map(|k| (format!("ascii-{k}"), json!({"text": "x".repeat(1024), "times": k * 500})));
    let ran_out = sweep("echo", "echo", sizes, |result| result["content"][0]["text"].as_str().is_some());
    assert!(ran_out > 0, "the sweep must reach memory's end");
    // A control character is six bytes once escaped, seven in the text block.
    let sizes = (1..=24).map(|k| (format!("control-{k}"), json!({"text": "\u{1}".repeat(1024), "times": k * 100})));
    let ran_out = sweep("echo", "echo", sizes, |result| result["content"][0]["text"].as_str().is_some());
    assert!(ran_out > 0, "the sweep must reach memory's end");
}

#[test]
fn hello_out_of_memory_while_its_answer_is_written_is_answered() {
    // A name of 1.5 to 4 MiB: read, greeted, escaped into the text block and
    // copied into structuredContent, the answer outgrows 16 MiB somewhere.
    let sizes = (0..=10).map(|k| {
        let bytes = (3 << 19) + k * (1 << 18);
        (format!("name-{bytes}"), json!({"name": "a".repeat(bytes)}))
    });
    sweep("hello", "greet", sizes, |result| result["structuredContent"]["message"].as_str().is_some());
    // Quotes: two bytes each in the request, four in the text block.
    let sizes = (0..=8).map(|k| {
        let count = (1 << 19) + k * (1 << 17);
        (format!("quotes-{count}"), json!({"name": "\"".repeat(count)}))
    });
    sweep("hello", "greet", sizes, |result| result["structuredContent"]["message"].as_str().is_some());
}
