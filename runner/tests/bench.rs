//! `subako-tiny bench`'s deterministic figures: guest fuel for the call, the
//! upload exchange and the manifest is the same on every run of the real
//! hello example, and the compile instruction count says `-` without
//! valgrind; a call measured with volumes, in sequence, and one that answers
//! isError; and the growth benchmark's every kind of line and its JSON Lines
//! workload, on small sizes, answered as they should be.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{Value, json};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// An example, built for wasm32-wasip1 with the release (size) profile as
/// `tests/new.rs` builds it.
fn example(name: &str) -> PathBuf {
    let root = repo_root();
    let dir = root.join("target/e2e/default");
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&root)
        .args(["build", "--quiet", "--release", "--target", "wasm32-wasip1", "-p", "subako-tiny"])
        .args(["--example", name, "--target-dir"])
        .arg(&dir)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "building the {name} example failed:\n{}", String::from_utf8_lossy(&out.stderr));
    dir.join(format!("wasm32-wasip1/release/examples/{name}.wasm"))
}

/// The hello example, built once per test process.
fn hello() -> &'static Path {
    static HELLO: OnceLock<PathBuf> = OnceLock::new();
    HELLO.get_or_init(|| example("hello"))
}

fn subako_tiny(args: &[&str], path_var: Option<&str>) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_subako-tiny"));
    c.args(args);
    if let Some(p) = path_var {
        c.env("PATH", p);
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `bench --json` of hello, few timed runs (the fuel figures do not depend on them).
fn bench_json(extra: &[&str], path_var: Option<&str>) -> Value {
    let mut args = vec!["--args", r#"{"name":"Ada"}"#];
    args.extend(extra);
    bench_json_with(&args, path_var)
}

/// `bench --json` of hello's greet with `extra` arguments.
fn bench_json_with(extra: &[&str], path_var: Option<&str>) -> Value {
    bench_json_exit(extra, path_var, 0)
}

/// [`bench_json_with`], exiting with `expected` (1: a measured call failed).
fn bench_json_exit(extra: &[&str], path_var: Option<&str>, expected: i32) -> Value {
    let wasm = hello().to_str().unwrap();
    let mut args = vec!["bench", wasm, "--json", "--calls", "3", "--compiles", "1", "--tool", "greet"];
    args.extend(extra);
    let (code, out, err) = subako_tiny(&args, path_var);
    assert_eq!(code, expected, "bench: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("bench --json printed no JSON ({e}): {out}"))
}

#[test]
fn fuel_is_the_same_run_to_run() {
    let a = bench_json(&[], None);
    let b = bench_json(&[], None);
    assert!(a["call_crash"].is_null(), "{a}");
    for k in ["call_fuel", "list_fuel", "manifest_fuel"] {
        let x = a[k].as_u64().unwrap_or_else(|| panic!("{k} is not a count: {a}"));
        assert!(x > 0, "{k} is zero: {a}");
        assert_eq!(a[k], b[k], "{k} differs between two bench runs");
    }
    // Within one run too: each fuel figure is measured twice.
    assert!(a["fuel_varies"].is_null() && b["fuel_varies"].is_null(), "{a}\n{b}");
    // The call does more than the manifest, which reads no stdin.
    assert!(a["call_fuel"].as_u64() > a["manifest_fuel"].as_u64(), "{a}");
}

#[test]
fn compile_instructions_say_dash_without_valgrind() {
    let empty = tempfile::tempdir().unwrap();
    let path = empty.path().to_str().unwrap();
    let j = bench_json(&["--compile-instructions"], Some(path));
    assert!(j["compile_instructions"].is_null(), "{j}");
    let wasm = hello().to_str().unwrap();
    let args = ["bench", wasm, "--calls", "2", "--compiles", "1", "--compile-instructions"];
    let (code, text, err) = subako_tiny(&args, Some(path));
    assert_eq!(code, 0, "{err}");
    let row = text.lines().find(|l| l.starts_with("compile_instr ")).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(row.split_whitespace().nth(1), Some("-"), "{text}");
    assert!(text.contains("valgrind is not on the PATH"), "{text}");
    // Not asked: no row. (The first tool called with arguments made from
    // its input schema, as `size` makes them: greet answers, unmarked.)
    let (_, text, _) = subako_tiny(&["bench", wasm, "--calls", "2", "--compiles", "1"], None);
    assert!(!text.contains("compile_instr"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("call_fuel ")), "{text}");
    assert!(!text.contains("isError"), "{text}");
}

/// Without --args, the call's arguments are made from the tool's input
/// schema (an outside author's bench measured `{}` and its refusal); with
/// them, they are what is sent.
#[test]
fn bench_makes_the_arguments_from_the_schema_unless_given() {
    let made = bench_json_with(&[], None);
    assert!(made["call_error"].is_null() && made["call_crash"].is_null(), "{made}");
    let given = bench_json_exit(&["--args", "{}"], None, 1);
    let error = given["call_error"].as_str().unwrap_or_else(|| panic!("{given}"));
    assert!(error.contains("missing field `name`"), "{given}");
}

/// A call given with call's options and a second call after it: `save` then
/// `load` of the files example on a `--data` directory the runner copies
/// afresh for every run (the directory given is left as it was), each call
/// measured; and a call that answers isError is marked so.
#[test]
fn bench_measures_calls_in_sequence_on_the_volumes_given() {
    let files = example("files");
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("before.txt"), "given").unwrap();
    let wasm = files.to_str().unwrap();
    let args = [
        "bench",
        wasm,
        "--json",
        "--calls",
        "2",
        "--compiles",
        "1",
        "--data",
        data.path().to_str().unwrap(),
        "--tool",
        "save",
        "--args",
        r#"{"name":"note","text":"kept","keep":true}"#,
        "--then",
        "load",
        r#"{"name":"note","keep":true}"#,
    ];
    let (code, out, err) = subako_tiny(&args, None);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let calls = v["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2, "{v}");
    assert_eq!((calls[0]["tool"].as_str(), calls[1]["tool"].as_str()), (Some("save"), Some("load")));
    for c in calls {
        assert!(c["crash"].is_null() && c["error"].is_null(), "{v}");
        assert!(c["fuel"].as_u64().unwrap() > 0, "{v}");
    }
    // Each call's answer is there, as the module wrote it: `load` reads
    // back what `save` wrote in the same sequence.
    assert_eq!(calls[1]["answer"]["structuredContent"]["text"], "kept", "{v}");
    assert_eq!(v["call_answer"], calls[0]["answer"], "{v}");
    assert!(v["call_answer"]["structuredContent"].is_object(), "{v}");
    assert!(v["fuel_varies"].is_null(), "every run starts from the same files: {v}");
    let left: Vec<_> = std::fs::read_dir(data.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["before.txt"], "the --data directory given was changed");

    // Without --data, `keep` fails: an isError result, marked in the text.
    let (code, text, err) = subako_tiny(
        &[
            "bench",
            wasm,
            "--calls",
            "2",
            "--compiles",
            "1",
            "--tool",
            "save",
            "--args",
            r#"{"name":"n","text":"t","keep":true}"#,
        ],
        None,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("a measured call crashed or answered isError"), "{err}");
    assert!(text.contains("warning: call 1 (save) in files.wasm isError: "), "{text}");
    assert!(text.lines().any(|l| l.starts_with("call_fuel* ")), "the row is marked: {text}");
    assert!(text.contains("/volume/data is not mounted"), "{text}");
}

/// Every kind of growing line, raw UTF-8 included, is answered with the
/// name the tool read; and the JSON Lines workload reads its file at each
/// size, its fuel growing with the file.
#[test]
fn growth_answers_every_kind_and_reads_the_json_lines_file() {
    use subako_tiny_runner::{GrowthKind, GrowthOptions, JsonlWorkload, KIB, growth};
    let o = GrowthOptions { sizes: vec![KIB, 4 * KIB], ..GrowthOptions::default() };
    let r = growth(hello(), None, &o).unwrap();
    assert_eq!(r.a.rows.len(), 2 * GrowthKind::ALL.len());
    for p in std::iter::once(&r.a.seed).chain(&r.a.baselines).chain(&r.a.rows) {
        assert!(p.problem.is_none(), "{p:?}");
        assert!(p.pages >= 2, "{p:?}");
    }
    for kind in GrowthKind::ALL {
        let p = r.a.row(4 * KIB, kind).unwrap();
        assert_eq!(p.line_bytes, 4 * KIB);
        assert!(p.fuel_per_byte.unwrap() > 0.0, "{kind:?}: {p:?}");
    }
    let text = r.to_text();
    assert!(text.contains("japanese-unused") && text.contains("emoji"), "{text}");

    let w = JsonlWorkload {
        tool: "load".into(),
        args: json!({"name": "records.jsonl", "keep": true}),
        record: json!({"id": 0, "title": "Notes", "body": "Où est la bibliothèque ? 吾輩は猫である。"}),
        path: "files/records.jsonl".into(),
        sizes: vec![4 * KIB, 16 * KIB],
    };
    let o = GrowthOptions { kinds: Vec::new(), jsonl: Some(w), ..GrowthOptions::default() };
    let r = growth(&example("files"), None, &o).unwrap();
    let j = &r.a.jsonl;
    assert_eq!(j.len(), 3, "{j:?}");
    assert_eq!(j[0].lines, 1);
    assert!(j[1].file_bytes >= 4 * KIB && j[2].file_bytes >= 16 * KIB, "{j:?}");
    assert!(j.iter().all(|p| p.problem.is_none()), "{j:?}");
    assert!(j[0].fuel < j[1].fuel && j[1].fuel < j[2].fuel, "{j:?}");
    assert!(j[2].fuel_per_byte.unwrap() > 0.0, "{j:?}");
    assert!(r.to_text().contains("reading a JSON Lines file"), "{}", r.to_text());
}

/// A 150 KB argument, longer than a command line may hold, goes in through
/// `--args-file` and through `--args -` (stdin), to `call` and to `bench`.
#[test]
fn a_150_kb_argument_comes_from_a_file_or_stdin() {
    let name = "é".repeat(75_000);
    let args = json!({ "name": name }).to_string();
    assert!(args.len() > 150_000);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("args.json");
    std::fs::write(&file, &args).unwrap();
    let wasm = hello().to_str().unwrap();
    let file = file.to_str().unwrap();

    // `--args-file FILE`, and `@FILE` in the arguments' place as `--then`
    // and `bench` take it (author trial 86: "not JSON").
    let at_file = format!("@{file}");
    for given in [&["--args-file", file][..], &[&at_file]] {
        let (code, out, err) = subako_tiny(&[&["call", wasm, "greet"][..], given].concat(), None);
        assert_eq!(code, 0, "{given:?}: {err}");
        let v: Value = serde_json::from_str(out.trim_end()).unwrap();
        assert_eq!(v["structuredContent"]["message"], format!("Hello, {name}!"));
    }

    let mut child = Command::new(env!("CARGO_BIN_EXE_subako-tiny"))
        .args(["call", wasm, "greet", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), args.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["structuredContent"]["message"], format!("Hello, {name}!"));

    let j = bench_json_with(&["--args-file", file], None);
    assert!(j["call_crash"].is_null() && j["call_error"].is_null(), "{j}");
    assert_eq!(j["call_answer"]["structuredContent"]["message"], format!("Hello, {name}!"), "{j}");

    // A file with a byte order mark reads; `@` alone and an empty file are
    // named for what they are (review 87).
    let bom = dir.path().join("bom.json");
    std::fs::write(&bom, "\u{feff}{\"name\":\"Bo\"}").unwrap();
    let (code, out, err) = subako_tiny(&["call", wasm, "greet", &format!("@{}", bom.display())], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Hello, Bo!"), "{out}");
    let (code, _, err) = subako_tiny(&["call", wasm, "greet", "@"], None);
    assert_eq!(code, 2);
    assert!(err.contains("`@` names no file: give @FILE, the file's path after it"), "{err}");
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, "").unwrap();
    let (code, _, err) = subako_tiny(&["call", wasm, "greet", &format!("@{}", empty.display())], None);
    assert_eq!(code, 2);
    assert!(err.contains("empty.json are empty: give a JSON object, such as {}"), "{err}");
    // White space alone is nothing too; `@` alone after `--then` as well (review 88).
    std::fs::write(&empty, " \n").unwrap();
    let (code, _, err) = subako_tiny(&["call", wasm, "greet", &format!("@{}", empty.display())], None);
    assert_eq!(code, 2);
    assert!(err.contains("empty.json are empty"), "{err}");
    let (code, _, err) = subako_tiny(&["call", wasm, "greet", "{}", "--then", "greet", "@"], None);
    assert_eq!(code, 2);
    assert!(err.contains("--then greet: `@` names no file"), "{err}");
    // Arguments that are not JSON name where they came from.
    std::fs::write(dir.path().join("bad.json"), "{name").unwrap();
    let bad = dir.path().join("bad.json");
    let (code, _, err) = subako_tiny(&["call", wasm, "greet", "--args-file", bad.to_str().unwrap()], None);
    assert_eq!(code, 2);
    assert!(err.contains("bad.json are not JSON"), "{err}");
    assert!(err.contains("pipe one to `subako-tiny serve MODULE`"), "{err}");
    // A number beyond f64 is JSON to the module, not to serde_json: `call`
    // sends it as written; a command that reads the arguments with serde_json
    // refuses it, saying where it can be sent from.
    let (code, out, err) = subako_tiny(&["call", wasm, "greet", r#"{"name":"x","n":1e400}"#], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Hello, x!"), "{out}");
    // And so are those of the calls after it (author trial 32: `--then`
    // refused `1e400`, with the words above).
    let then = ["call", wasm, "greet", r#"{"name":"x"}"#, "--then", "greet", r#"{"name":"y","n":1e400}"#];
    let (code, out, err) = subako_tiny(&then, None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Hello, y!"), "{out}");
    // So does `bench` (review 100: it read them with serde_json).
    let bench =
        ["bench", wasm, "--calls", "1", "--compiles", "1", "--tool", "greet", "--args", r#"{"name":"x","n":1e400}"#];
    let (code, _, err) = subako_tiny(&bench, None);
    assert_eq!(code, 0, "{err}");
}

/// `call` sends the arguments as they are written: `-0` reaches the module
/// as `-0` (an integer), not as serde_json re-writes it (`-0.0`, which
/// `Args::int` refuses as written with a fraction).
#[test]
fn call_sends_the_arguments_as_written() {
    let plot = example("plot");
    let (_, out, err) = subako_tiny(&["call", plot.to_str().unwrap(), "plot", r#"{"values":[1],"width":-0}"#], None);
    assert!(out.contains("`width` must be an integer from 64 to 2000") && !out.contains("fraction"), "{out}{err}");
    // And `bench` as `call` (review 100: it sent a member named twice once,
    // and escapes decoded): the measured call answers the same isError.
    let bench =
        ["bench", plot.to_str().unwrap(), "plot", r#"{"values":[1],"width":-0}"#, "--calls", "1", "--compiles", "1"];
    let (code, out, err) = subako_tiny(&bench, None);
    assert_eq!(code, 1, "the measured call answered isError: {out}{err}");
    let said = format!("{out}{err}");
    assert!(said.contains("`width` must be an integer from 64 to 2000") && !said.contains("fraction"), "{said}");
}

/// A volume directory that does not exist is refused, not made: a mistyped
/// `--data` would otherwise take the files written to it.
#[test]
fn a_missing_volume_directory_is_refused_not_made() {
    let parent = tempfile::tempdir().unwrap();
    let missing = parent.path().join("typo");
    let wasm = hello().to_str().unwrap();
    for (flag, command) in [("--data", "call"), ("--tmp", "call"), ("--assets", "serve"), ("--data", "bench")] {
        let mut args = vec![command, wasm];
        if command == "call" {
            args.extend(["greet", r#"{"name":"Ada"}"#]);
        }
        args.extend([flag, missing.to_str().unwrap()]);
        let (code, _, stderr) = subako_tiny(&args, None);
        assert_eq!(code, 2, "{command} {flag}: {stderr}");
        assert!(stderr.contains(&format!("{flag} {}: no such directory", missing.display())), "{stderr}");
        assert!(stderr.contains("mkdir -p"), "{stderr}");
        assert!(!missing.exists(), "{command} {flag} made the directory");
    }
    // A file where a directory should be is named as that.
    let file = parent.path().join("afile");
    std::fs::write(&file, "x").unwrap();
    let (code, _, stderr) = subako_tiny(&["call", wasm, "greet", "{}", "--data", file.to_str().unwrap()], None);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(&format!("--data {}: not a directory", file.display())), "{stderr}");
}

/// A lone surrogate escape in bench's arguments is named as `call` names
/// it, not called "not JSON" (review 72).
#[test]
fn bench_names_a_lone_surrogate_in_the_arguments() {
    let wasm = hello().to_str().unwrap();
    let args = ["bench", wasm, "--calls", "1", "--compiles", "1", "--tool", "greet", "--args", r#"{"name":"\ud800"}"#];
    let (code, _, err) = subako_tiny(&args, None);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains(r"\ud800 at byte 9 is a lone surrogate") && !err.contains("not JSON:"), "{err}");
}

/// The tool and its arguments may follow the module as `call` takes them
/// (author trial 73), with the same figures as `--tool` and `--args`.
#[test]
fn bench_takes_the_tool_and_arguments_as_call_does() {
    let wasm = hello().to_str().unwrap();
    let positional = |args: &[&str], expected: i32| {
        let mut all = vec!["bench", wasm, "--json", "--calls", "3", "--compiles", "1"];
        all.extend(args);
        let (code, out, err) = subako_tiny(&all, None);
        assert_eq!(code, expected, "{err}");
        serde_json::from_str::<Value>(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
    };
    let named = bench_json(&[], None);
    let given = positional(&["greet", r#"{"name":"Ada"}"#], 0);
    assert_eq!(given["call_fuel"], named["call_fuel"], "{given}\n{named}");
    let refused = positional(&["greet", "{}"], 1);
    assert!(refused["call_error"].as_str().is_some_and(|e| e.contains("missing field `name`")), "{refused}");
    let (code, _, err) = subako_tiny(&["bench", wasm, "greet", "--tool", "greet"], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--tool"), "{err}");
}
