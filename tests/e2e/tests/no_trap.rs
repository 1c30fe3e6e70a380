//! No input traps a module: thousands of mutated requests (bit flips,
//! truncations, splices, deep nesting, long strings, invalid UTF-8, CRLF,
//! NUL bytes, odd ids) against every example, built for wasm32-wasip1 and
//! run in real wasmtime through the runner. Every output line must be a
//! JSON-RPC 2.0 message answering an id that was sent (or `null` for a line
//! with no readable id), every request answered, every run ending with exit
//! code 0 within its time limit.
//!
//! And memory exhaustion: a tool whose allocation fails answers its request
//! with an isError result saying "out of memory", then the module exits 0.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use subako_tiny::json::{Kind, parse};
use subako_tiny_e2e::{Variant, example_variant, examples, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

/// Lines per run, and runs per example: 2,000 mutated requests each.
const LINES_PER_RUN: usize = 500;
const RUNS: usize = 4;

/// xorshift64: deterministic, so a failure is reproduced by running again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn module(name: &str, features: &[&'static str]) -> Module {
    let mut variant = Variant::default();
    variant.features.extend_from_slice(features);
    Module::from_file(example_variant(name, &variant)).unwrap()
}

fn options(stdin: Vec<u8>, volume: &std::path::Path) -> RunOptions {
    RunOptions {
        argv: vec!["module".into()],
        stdin,
        preopens: vec![("/volume".into(), volume.to_path_buf(), false)],
        time_limit: Duration::from_secs(30),
        ..RunOptions::default()
    }
}

/// Arguments a tool's input schema accepts, roughly: a plain value of each
/// property's type.
fn arguments(schema: &Value) -> Value {
    let mut args = serde_json::Map::new();
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        let value = match property["type"].as_str() {
            Some("string") => json!("text"),
            Some("integer") => property["minimum"].as_i64().map_or(json!(1), |m| json!(m.max(1))),
            Some("number") => json!(1.5),
            Some("boolean") => json!(true),
            Some("array") => match property["items"]["type"].as_str() {
                Some("number" | "integer") => json!([1, 2.5, 3]),
                Some("string") => json!(["a", "b"]),
                _ => json!([]),
            },
            Some("object") => json!({}),
            _ => json!(null),
        };
        args.insert(name.clone(), value);
    }
    Value::Object(args)
}

/// Valid requests for the module: discovery, the list, and a call of each
/// tool it lists, with plain arguments and with none.
fn valid_requests(module: &Module, volume: &std::path::Path) -> Vec<Vec<u8>> {
    let list = request(json!(0), "tools/list", json!({}));
    let output = run(module, &options(list.clone().into_bytes(), volume)).unwrap();
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut lines = vec![request(json!(0), "server/discover", json!({})), list];
    for tool in answer["result"]["tools"].as_array().unwrap() {
        let name = &tool["name"];
        lines.push(request(
            json!(0),
            "tools/call",
            json!({"name": name, "arguments": arguments(&tool["inputSchema"])}),
        ));
        lines.push(request(json!(0), "tools/call", json!({"name": name})));
    }
    lines.into_iter().map(|l| l.trim_end().as_bytes().to_vec()).collect()
}

const ODD_IDS: &[&str] = &[
    "-0",
    "1e400",
    "-1E-400",
    "18446744073709551616",
    "1.5e-7",
    r#""\ud83d\ude00""#,
    r#""""#,
    "null",
    "[1]",
    "{}",
    "true",
    r#""\u0000""#,
];

/// `line` with `insert` put in right after its first `{` (or in front).
fn after_brace(line: &[u8], insert: &[u8]) -> Vec<u8> {
    let at = line.iter().position(|&b| b == b'{').map_or(0, |i| i + 1);
    [&line[..at], insert, &line[at..]].concat()
}

/// One hostile line made from the valid ones, with `id` where it has one.
fn mutated(rng: &mut Rng, valid: &[Vec<u8>], id: usize) -> Vec<u8> {
    let with_id = |line: &[u8], id: &str| -> Vec<u8> {
        let text = String::from_utf8_lossy(line).replacen("\"id\":0", &format!("\"id\":{id}"), 1);
        text.into_bytes()
    };
    let mut line = with_id(rng.pick::<Vec<u8>>(valid), &id.to_string());
    match rng.below(12) {
        0 => {
            for _ in 0..=rng.below(4) {
                let at = rng.below(line.len());
                line[at] ^= 1 << rng.below(8);
            }
        }
        1 => line.truncate(rng.below(line.len())),
        2 => {
            let other = rng.pick::<Vec<u8>>(valid);
            let (a, b) = (rng.below(line.len()), rng.below(other.len()));
            line = [&line[..a], &other[b..]].concat();
        }
        3 => {
            let depth = *rng.pick(&[1usize, 126, 127, 128, 1000, 100_000][..]);
            let nested = format!("\"deep\":{}{},", "[".repeat(depth), "]".repeat(depth));
            line = after_brace(&line, nested.as_bytes());
        }
        4 => {
            let long = "a".repeat(*rng.pick(&[1usize << 10, 1 << 14, 1 << 18][..]));
            line = String::from_utf8_lossy(&line).replacen("\"text\"", &format!("\"{long}\""), 1).into_bytes();
            line = after_brace(&line, format!("\"pad\":\"{long}\",").as_bytes());
        }
        5 => {
            let at = rng.below(line.len());
            line.insert(at, *rng.pick(&[0x80u8, 0xc0, 0xc3, 0xed, 0xf5, 0xfe, 0xff][..]));
        }
        6 => line.push(b'\r'),
        7 => {
            let at = rng.below(line.len());
            line.insert(at, 0);
        }
        8 => {
            let at = rng.below(line.len());
            line[at] = rng.next() as u8;
        }
        9 => line = with_id(rng.pick::<Vec<u8>>(valid), rng.pick::<&str>(ODD_IDS)),
        10 => line = after_brace(&line, b"\"id\":\"first\",\"jsonrpc\":\"1.0\","), // duplicate keys
        _ => {}                                                                    // left valid
    }
    line
}

/// Checks one run: exit 0, each output line a JSON-RPC 2.0 message with an
/// id that was sent (or null), each request answered. Returns the number
/// of answers.
fn check_run(name: &str, stdin: &[u8], stdout: &[u8], exit: &Exit) -> usize {
    assert_eq!(
        exit,
        &Exit::Code(0),
        "{name}: {}",
        String::from_utf8_lossy(&stdout[stdout.len().saturating_sub(500)..])
    );
    // The ids sent, by their raw text, and how many lines are requests.
    let mut sent: HashMap<Vec<u8>, (usize, usize)> = HashMap::new();
    let lines: Vec<&[u8]> = stdin.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    for line in &lines {
        let Some(message) = parse(line).ok().and_then(|m| m.as_object()) else { continue };
        let Some(id) = message.get("id").filter(|id| matches!(id.kind(), Kind::Number | Kind::String)) else {
            continue;
        };
        let entry = sent.entry(id.raw().to_vec()).or_default();
        entry.1 += 1;
        let string = |key| message.get(key).is_some_and(|v| v.kind() == Kind::String);
        if string("jsonrpc") && string("method") {
            entry.0 += 1;
        }
    }
    assert!(stdout.is_empty() || stdout.ends_with(b"\n"), "{name}: unterminated output");
    let answers: Vec<&[u8]> = stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    assert!(answers.len() <= lines.len(), "{name}: {} answers to {} lines", answers.len(), lines.len());
    let mut answered: HashMap<Vec<u8>, usize> = HashMap::new();
    for answer in &answers {
        let text = String::from_utf8_lossy(answer);
        match serde_json::from_slice::<Value>(answer) {
            Ok(message) => {
                assert_eq!(message["jsonrpc"], "2.0", "{name}: {text}");
                assert!(message["result"].is_object() != message["error"].is_object(), "{name}: {text}");
                if message["error"].is_object() {
                    assert!(
                        message["error"]["code"].is_i64() && message["error"]["message"].is_string(),
                        "{name}: {text}"
                    );
                }
            }
            // An id beyond f64 (1e400), echoed as sent: serde_json refuses it.
            Err(e) => assert!(e.to_string().starts_with("number out of range"), "{name}: {e}: {text}"),
        }
        let message = parse(answer).unwrap().as_object().unwrap();
        let id = message.get("id").unwrap_or_else(|| panic!("{name}: no id: {text}"));
        if !id.is_null() {
            assert!(sent.contains_key(id.raw()), "{name}: answers an id never sent: {text}");
            *answered.entry(id.raw().to_vec()).or_default() += 1;
        }
    }
    for (id, (requests, lines)) in &sent {
        let n = answered.get(id).copied().unwrap_or(0);
        assert!(
            n >= *requests && n <= *lines,
            "{name}: id {} sent in {lines} lines ({requests} requests), answered {n} times",
            String::from_utf8_lossy(id)
        );
    }
    answers.len()
}

#[test]
fn no_mutated_request_traps_any_example() {
    let started = Instant::now();
    let examples = examples();
    assert!(examples.iter().any(|(n, _)| n == "hello"));
    // Two threads: the machine's two cores.
    let chunks: Vec<Vec<(String, Vec<&'static str>)>> =
        vec![examples.iter().step_by(2).cloned().collect(), examples.iter().skip(1).step_by(2).cloned().collect()];
    let reports: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                s.spawn(move || {
                    let mut report = String::new();
                    for (name, features) in chunk {
                        report += &fuzz_example(&name, &features);
                    }
                    report
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    eprintln!("{}in {:?}", reports.concat(), started.elapsed());
}

fn fuzz_example(name: &str, features: &[&'static str]) -> String {
    let module = module(name, features);
    let volume = tempfile::tempdir().unwrap();
    let valid = valid_requests(&module, volume.path());
    let mut rng = Rng(0x5eed_0008 ^ name.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64)));
    let (mut sent, mut answered) = (0, 0);
    let mut slowest = Duration::ZERO;
    for run_index in 0..RUNS {
        let mut stdin = Vec::new();
        for i in 0..LINES_PER_RUN {
            stdin.extend_from_slice(&mutated(&mut rng, &valid, run_index * LINES_PER_RUN + i + 1));
            stdin.push(b'\n');
        }
        if run_index == 0 {
            // One line over the default 16 MiB limit: refused, and the next served.
            stdin.extend(std::iter::repeat_n(b' ', (16 << 20) + 1));
            stdin.push(b'\n');
            stdin.extend_from_slice(request(json!("after"), "server/discover", json!({})).as_bytes());
        }
        let output = run(&module, &options(stdin.clone(), volume.path())).unwrap();
        slowest = slowest.max(output.elapsed);
        sent += stdin.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
        answered += check_run(name, &stdin, &output.stdout, &output.exit);
        if run_index == 0 {
            let tail = String::from_utf8_lossy(&output.stdout);
            let mut last = tail.lines().rev();
            assert!(
                last.next().unwrap().contains(r#""id":"after""#),
                "{name}: the line after a too-long one is served"
            );
            assert!(last.next().unwrap().contains("line too long: over 16777216 bytes"), "{name}");
        }
    }
    format!("{name}: {sent} lines, {answered} answers, slowest run {slowest:?}\n")
}

/// A request to echo `text` `times` times.
fn echo(id: u32, text: &str, times: u32) -> String {
    request(json!(id), "tools/call", json!({"name": "echo", "arguments": {"text": text, "times": times}}))
}

#[test]
fn a_tool_out_of_memory_answers_is_error_and_exits_0() {
    for variant in [Variant::default(), Variant::lean()] {
        let module = Module::from_file(example_variant("echo", &variant)).unwrap();
        // 1 KiB copied 100,000 times: 100 MB, in a 16 MiB memory.
        let stdin = [echo(1, "small", 2), echo(2, &"x".repeat(1024), 100_000), echo(3, "never read", 1)].concat();
        let opts = RunOptions { stdin: stdin.into_bytes(), memory_limit_bytes: 16 << 20, ..RunOptions::default() };
        let output = run(&module, &opts).unwrap();
        assert_eq!(output.exit, Exit::Code(0), "{variant:?}: {}", String::from_utf8_lossy(&output.stderr));
        let answers: Vec<Value> = output
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 2, "{variant:?}: the request after is not served: the process ended");
        assert_eq!(answers[0]["result"]["content"][0]["text"], "smallsmall");
        assert_eq!(answers[1]["id"], 2);
        assert_eq!(answers[1]["result"]["isError"], true);
        let text = answers[1]["result"]["content"][0]["text"].as_str().unwrap();
        // No location: it would be the allocator hook's, in the crate.
        assert_eq!(text, "tool ran out of memory: send it less", "{variant:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("out of memory"));
    }
}

/// Copies past the 4 GiB a wasm32 module addresses are refused before
/// `repeat` would panic on the length's overflow (review 66: the answer
/// was "tool panicked" at std's line).
#[test]
fn echo_refuses_copies_past_what_a_module_addresses() {
    let module = Module::from_file(example_variant("echo", &Variant::default())).unwrap();
    // 50,000 and 21,475 bytes copied 100,000 times: past 4 GiB, and past
    // 2 GiB (`isize::MAX` there, where `repeat` panics: review 68).
    for len in [50_000, 21_475] {
        let stdin = echo(1, &"x".repeat(len), 100_000);
        let output = run(&module, &RunOptions { stdin: stdin.into_bytes(), ..RunOptions::default() }).unwrap();
        let answer: Value = serde_json::from_slice(output.stdout.trim_ascii_end()).unwrap();
        assert_eq!(
            answer["result"]["content"][0]["text"],
            "invalid input: `text` copied `times` times is over 2 GiB: ask for fewer copies",
            "{len}"
        );
    }
}

#[test]
fn a_line_larger_than_memory_ends_the_module_with_101_not_a_trap() {
    // 8 MiB is under the line limit, but over a 4 MiB memory: the reader's
    // buffer cannot grow, outside any tool, so no request can be answered.
    let module = module("hello", &[]);
    let mut stdin = request(json!(1), "server/discover", json!({})).into_bytes();
    stdin.extend(std::iter::repeat_n(b' ', 8 << 20));
    stdin.push(b'\n');
    let opts = RunOptions { stdin, memory_limit_bytes: 4 << 20, ..RunOptions::default() };
    let output = run(&module, &opts).unwrap();
    assert_eq!(output.exit, Exit::Code(101), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("ran out of memory: send it less"));
}
