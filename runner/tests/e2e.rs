//! End-to-end: purpose-built WAT modules in real wasmtime, one per crash rule,
//! upload refusal and `subako_http` behaviour. One test binary keeps link time down.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use subako_tiny_runner::*;

/// A WAT string literal holding exactly `bytes`.
fn lit(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\{b:02x}")).collect()
}

/// A module that writes `out` to stdout and `err` to stderr, then runs `tail`.
fn writer(out: &str, err: &str, tail: &str) -> Module {
    let wat = format!(
        r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 2)
  (data (i32.const 1024) "{o}")
  (data (i32.const 65536) "{e}")
  (func (export "_start")
    (i32.store (i32.const 0) (i32.const 1024))
    (i32.store (i32.const 4) (i32.const {ol}))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 16)))
    (i32.store (i32.const 0) (i32.const 65536))
    (i32.store (i32.const 4) (i32.const {el}))
    (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 16)))
    {tail}))"#,
        o = lit(out.as_bytes()),
        ol = out.len(),
        e = lit(err.as_bytes()),
        el = err.len(),
    );
    Module::from_bytes(&wat::parse_str(wat).unwrap()).unwrap()
}

const OK_ANSWER: &str = r#"{"jsonrpc":"2.0","id":"call-1","result":{"content":[{"type":"text","text":"{\"message\":\"hi\"}"}],"structuredContent":{"message":"hi"}}}
"#;

fn opts() -> CallOptions {
    CallOptions { package: Some("t".into()), ..CallOptions::default() }
}

fn call_crash(m: &Module, o: &CallOptions) -> Crash {
    let out = call(m, "greet", "{}", o).unwrap();
    out.result.expect_err("expected a crash")
}

#[test]
fn call_success() {
    let m = writer(OK_ANSWER, "log line\n", "");
    let out = call(&m, "greet", json!({"name": "Ada"}), &opts()).unwrap();
    assert_eq!(out.expect_ok()["structuredContent"]["message"], "hi");
    assert_eq!(out.output.exit, Exit::Code(0));
    assert_eq!(out.stderr_tail, "log line\n");
    // proc_exit(0) after answering is fine too.
    let m = writer(OK_ANSWER, "", "(call $exit (i32.const 0))");
    assert!(call(&m, "greet", "{}", &opts()).unwrap().result.is_ok());
}

#[test]
fn crash_trap() {
    let m = writer("", "about to trap\n", "unreachable");
    let out = call(&m, "greet", "{}", &opts()).unwrap();
    assert!(matches!(out.crash(), Some(Crash::Trap(m)) if m.contains("unreachable")), "{:?}", out.result);
    assert_eq!(out.stderr_tail, "about to trap\n");
}

#[test]
fn crash_not_json_rpc() {
    let m = writer("hello world\n", "", "");
    assert!(matches!(call_crash(&m, &opts()), Crash::NotJsonRpc { line } if line == "hello world"));
    // Valid JSON that is no JSON-RPC message, after a good answer, still crashes.
    let m = writer(&format!("{OK_ANSWER}{{\"x\":1}}\n"), "", "");
    assert!(matches!(call_crash(&m, &opts()), Crash::NotJsonRpc { .. }));
    // A blank line is not a message either.
    let m = writer(&format!("\n{OK_ANSWER}"), "", "");
    assert!(matches!(call_crash(&m, &opts()), Crash::NotJsonRpc { .. }));
}

#[test]
fn crash_error_response_and_result_type() {
    let m = writer(r#"{"jsonrpc":"2.0","id":"call-1","error":{"code":-32601,"message":"nope"}}"#, "", "");
    assert!(matches!(call_crash(&m, &opts()), Crash::ErrorResponse { error, .. } if error["code"] == -32601));
    let m = writer(r#"{"jsonrpc":"2.0","id":"call-1","result":{"resultType":"input_required","content":[]}}"#, "", "");
    assert!(matches!(call_crash(&m, &opts()), Crash::NotComplete { .. }));
    let m = writer(r#"{"jsonrpc":"2.0","id":"call-1","result":{"resultType":"complete","content":[]}}"#, "", "");
    assert!(call(&m, "t", "{}", &opts()).unwrap().result.is_ok());
}

#[test]
fn crash_nonzero_exit() {
    let m = writer(OK_ANSWER, "", "(call $exit (i32.const 3))");
    let out = call(&m, "greet", "{}", &opts()).unwrap();
    assert_eq!(out.output.exit, Exit::Code(3));
    assert_eq!(out.crash(), Some(&Crash::NonzeroExit(3)));
}

#[test]
fn crash_no_exit_after_answer() {
    let m = writer(OK_ANSWER, "", "(loop $l (br $l))");
    let t = std::time::Instant::now();
    assert_eq!(call_crash(&m, &opts()), Crash::NoExitAfterStdinClosed);
    let took = t.elapsed();
    assert!(took >= Duration::from_secs(1) && took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn crash_time_limit_and_memory() {
    let m = writer("", "", "(loop $l (br $l))");
    let o = CallOptions { time_limit: Duration::from_millis(300), ..opts() };
    assert_eq!(call_crash(&m, &o), Crash::TimeLimit);
    // Growing past the cap is refused; the module then traps: out of memory.
    let m = writer("", "", "(if (i32.eq (memory.grow (i32.const 100)) (i32.const -1)) (then unreachable))");
    let o = CallOptions { memory_limit_bytes: 1 << 20, ..opts() };
    assert_eq!(call_crash(&m, &o), Crash::OutOfMemory);
    // Within the cap the same module is fine (and answers nothing: exit before answering).
    let o = CallOptions { memory_limit_bytes: 16 << 20, ..opts() };
    assert_eq!(call_crash(&m, &o), Crash::ExitBeforeAnswer);
}

#[test]
fn crash_unasked_id_and_own_request() {
    let m = writer(r#"{"jsonrpc":"2.0","id":"call-2","result":{"content":[]}}"#, "", "");
    assert!(matches!(call_crash(&m, &opts()), Crash::UnaskedId { id } if id == "call-2"));
    // A second answer to the same id was not asked for either.
    let m = writer(&format!("{OK_ANSWER}{OK_ANSWER}"), "", "");
    assert!(matches!(call_crash(&m, &opts()), Crash::UnaskedId { .. }));
    let m = writer(r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{}}"#, "", "");
    assert!(matches!(call_crash(&m, &opts()), Crash::SentRequest { method, .. } if method == "sampling/createMessage"));
    // A notification is not a request: ignored.
    let m = writer(&format!("{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}}\n{OK_ANSWER}"), "", "");
    assert!(call(&m, "greet", "{}", &opts()).unwrap().result.is_ok());
}

#[test]
fn an_error_with_id_null_answers_the_request_the_module_could_not_read() {
    // The answer to a line over the module's limit (or not JSON) has id null:
    // the request's JSON-RPC error, not an answer to an id never asked.
    let too_long =
        r#"{"error":{"code":-32600,"message":"line too long: over 16777216 bytes"},"id":null,"jsonrpc":"2.0"}"#;
    let m = writer(&format!("{too_long}\n"), "", "");
    let crash = call_crash(&m, &opts());
    assert!(matches!(&crash, Crash::ErrorResponse { id: Value::Null, error } if error["code"] == -32600), "{crash:?}");
    let said = crash.to_string();
    assert!(said.contains(r#"{"code":-32600,"message":"line too long: over 16777216 bytes"}"#), "{said}");
    assert!(said.contains("could not read the request line") && said.contains("Package::max_line"), "{said}");
    // A result with id null is still an answer to an id never asked.
    let m = writer("{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{\"content\":[]}}\n", "", "");
    assert!(matches!(call_crash(&m, &opts()), Crash::UnaskedId { id: Value::Null }));

    // The CLI prints the module's error as the call's answer, and exits 1.
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("m.wasm");
    std::fs::write(&wasm, wat::parse_str(writer_wat(&format!("{too_long}\n"))).unwrap()).unwrap();
    let args = dir.path().join("args.json");
    std::fs::write(&args, r#"{"text":"long"}"#).unwrap();
    let (code, out, err) =
        cli(&["call", wasm.to_str().unwrap(), "echo", "--args-file", args.to_str().unwrap(), "--package", "t"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains(r#"{"code":-32600,"message":"line too long: over 16777216 bytes"}"#), "{out}");
    assert!(!out.contains("never asked"), "{out}");
    // A real module, sent a line over its 16 MiB limit.
    let echo = example_wasm("echo");
    std::fs::write(&args, json!({"text": "x".repeat(17 << 20)}).to_string()).unwrap();
    let (code, out, err) = cli(&["call", echo.to_str().unwrap(), "echo", "--args-file", args.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with(
            r#"crashed (Subako's rule: the model reads "the function crashed"): answered with a JSON-RPC error with id null (it could not read the request line): {"code":-32600,"message":"line too long: over 16777216 bytes"}; send shorter arguments"#
        ),
        "{out}"
    );
}

#[test]
fn cli_serve_says_when_the_module_ends_with_lines_unanswered() {
    let echo = example_wasm("echo");
    let serve = |input: &str| {
        let out = cli_serve(&[echo.to_str().unwrap(), "--memory-limit-mb", "16"], input);
        (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let call = |id: u32, args: Value| request_line(id, "tools/call", json!({"name": "echo", "arguments": args}));
    // 100 MB of copies under a 16 MiB cap: out of memory, answered with
    // isError, and the module exits 0; the second request gets no answer.
    let huge = call(1, json!({"text": "x".repeat(1000), "times": 100_000}));
    let small = call(2, json!({"text": "hi"}));
    let note = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n";
    let (code, out, err) = serve(&format!("{huge}{note}{small}"));
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert_eq!(lines[0]["result"]["content"][0]["text"], "tool ran out of memory: send it less", "{out}");
    // The notification asks for no answer, so one line is missing, not two.
    assert!(
        err.contains(
            "subako-tiny: the module exited (code 0) after answering 1 request(s); 1 more line(s) of input were not \
             answered: a panic or running out of memory ends the process, as on the platform, where each call is a \
             fresh instance"
        ),
        "{err}"
    );
    // Every line answered: no notice, and stdout as the module wrote it.
    let (code, out, err) = serve(&format!("{small}{small}"));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(!err.contains("subako-tiny:"), "{err}");
    // Input still open (a terminal) when the module ended: said too.
    let open = Served { asked: 1, answered: 1, input_ended: false };
    let said = open.notice(&Exit::Code(0)).unwrap();
    assert!(said.starts_with("the module exited (code 0) after answering 1 request(s); input after that was not read"));
    let trapped = Served { asked: 3, answered: 1, input_ended: false }.notice(&Exit::OutOfMemory).unwrap();
    assert!(trapped.contains("ran out of memory after answering 1 request(s); 2 more line(s)"), "{trapped}");
    assert_eq!(Served { asked: 2, answered: 2, input_ended: true }.notice(&Exit::Code(0)), None);
}

#[test]
fn crash_exit_before_answer() {
    let m = writer("", "", "");
    assert_eq!(call_crash(&m, &opts()), Crash::ExitBeforeAnswer);
}

#[test]
fn crash_stderr_tail_is_last_4k() {
    let err: String = (0..5000).map(|i| (b'a' + (i % 26) as u8) as char).collect::<String>() + "END";
    let m = writer("", &err, "unreachable");
    let out = call(&m, "greet", "{}", &opts()).unwrap();
    assert_eq!(out.stderr_tail.len(), 4096);
    assert!(out.stderr_tail.ends_with("END"));
    assert!(out.crash().unwrap().to_string().starts_with("trapped"));
}

#[test]
fn call_sends_one_request_with_meta_and_links_volume_files() {
    // Echo stdin to stderr, so the request the worker sends can be inspected.
    let wat = r#"(module
      (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
      (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
      (memory (export "memory") 2)
      (func (export "_start")
        (i32.store (i32.const 0) (i32.const 1024))
        (i32.store (i32.const 4) (i32.const 60000))
        (drop (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 16)))
        (i32.store (i32.const 4) (i32.load (i32.const 16)))
        (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 16)))))"#;
    let m = Module::from_bytes(&wat::parse_str(wat).unwrap()).unwrap();
    let out = call(&m, "greet", r#"{"name":"Ada"}"#, &opts()).unwrap();
    assert_eq!(out.crash(), Some(&Crash::ExitBeforeAnswer));
    let line = out.stderr_tail.trim_end();
    assert!(out.stderr_tail.ends_with('\n') && !line.contains('\n'), "one line: {:?}", out.stderr_tail);
    let req: Value = serde_json::from_str(line).unwrap();
    assert_eq!(req["id"], "call-1");
    assert_eq!(req["method"], "tools/call");
    assert_eq!(req["params"]["name"], "greet");
    assert_eq!(req["params"]["arguments"]["name"], "Ada");
    assert_eq!(req["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert!(req["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"].is_object());

    // resource_link to volume:/// resolves to the host file, percent-decoded.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("my chart.png"), [0u8; 123]).unwrap();
    let answer = r#"{"jsonrpc":"2.0","id":"call-1","result":{"content":[{"type":"text","text":"{}"},{"type":"resource_link","uri":"volume:///tmp/my%20chart.png","name":"my chart.png","mimeType":"image/png"}]}}
"#;
    let m = writer(answer, "", "");
    let o = CallOptions { tmp_dir: Some(tmp.path().into()), ..opts() };
    let out = call(&m, "plot", "{}", &o).unwrap();
    assert!(out.result.is_ok());
    assert_eq!(out.links.len(), 1);
    assert_eq!(out.links[0].guest_path, "/volume/tmp/my chart.png");
    assert_eq!(out.links[0].host_path.as_deref(), Some(tmp.path().join("my chart.png").as_path()));
    assert_eq!(out.links[0].size, Some(123));
}

#[test]
fn run_exit_codes_pages_and_missing_start() {
    let m = Module::from_bytes(
        &wat::parse_str(
            r#"(module (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
        (memory (export "memory") 3)
        (func (export "_start") (drop (memory.grow (i32.const 2))) (call $exit (i32.const 7))))"#,
        )
        .unwrap(),
    )
    .unwrap();
    let out = run(&m, &RunOptions::default()).unwrap();
    assert_eq!(out.exit, Exit::Code(7));
    assert_eq!((out.pages_at_start, out.pages_at_exit), (3, 5));
    let m =
        Module::from_bytes(&wat::parse_str(r#"(module (memory (export "memory") 1) (func (export "main")))"#).unwrap())
            .unwrap();
    let e = run(&m, &RunOptions::default()).unwrap_err();
    assert!(e.to_string().contains("_start"), "{e}");
    // A component is refused up front.
    assert!(Module::from_bytes(b"\0asm\x0d\x00\x01\x00").unwrap_err().to_string().contains("component"));
    // Text is refused in one line, with the file's name (review 71: a page
    // of the parser's expectations).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "hello, not wasm\n").unwrap();
    let e = Module::from_file(dir.path().join("notes.txt")).unwrap_err().to_string();
    assert!(e.contains("notes.txt: not a WebAssembly binary (no \\0asm header)"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn write_budget_gives_edquot() {
    // Opens /volume/tmp/out.bin (fd 3 is the first preopen) and writes 100 bytes
    // twice; prints both errnos as raw i32s.
    let wat = r#"(module
      (import "wasi_snapshot_preview1" "path_open" (func $open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
      (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
      (import "wasi_snapshot_preview1" "fd_filestat_set_size" (func $set_size (param i32 i64) (result i32)))
      (import "wasi_snapshot_preview1" "fd_pwrite" (func $pwrite (param i32 i32 i32 i64 i32) (result i32)))
      (memory (export "memory") 1)
      (data (i32.const 512) "out.bin")
      (data (i32.const 2000) "the module's own 64 bytes, kept as the module left them: always!")
      (func (export "_start") (local $fd i32)
        (drop (call $open (i32.const 3) (i32.const 0) (i32.const 512) (i32.const 7) (i32.const 1)
                          (i64.const 64) (i64.const 0) (i32.const 0) (i32.const 100)))
        (local.set $fd (i32.load (i32.const 100)))
        (i32.store (i32.const 0) (i32.const 1024))
        (i32.store (i32.const 4) (i32.const 100))
        (i32.store (i32.const 200) (call $fd_write (local.get $fd) (i32.const 0) (i32.const 1) (i32.const 16)))
        (i32.store (i32.const 204) (call $fd_write (local.get $fd) (i32.const 0) (i32.const 1) (i32.const 16)))
        ;; Growing the file counts as writing (review 90): 40 of the 50
        ;; left, then 60 more refused, then shrinking it free.
        (memory.copy (i32.const 0) (i32.const 2000) (i32.const 64))
        (i32.store (i32.const 208) (call $set_size (local.get $fd) (i64.const 140)))
        (i32.store (i32.const 212) (call $set_size (local.get $fd) (i64.const 200)))
        (i32.store (i32.const 216) (call $set_size (local.get $fd) (i64.const 10)))
        ;; A write past the end counts the gap too (review 94): one byte
        ;; at 12 is three of the 10 left, one at 10^6 is refused.
        (i32.store (i32.const 400) (i32.const 1024))
        (i32.store (i32.const 404) (i32.const 1))
        (i32.store (i32.const 220) (call $pwrite (local.get $fd) (i32.const 400) (i32.const 1) (i64.const 12) (i32.const 408)))
        (i32.store (i32.const 224) (call $pwrite (local.get $fd) (i32.const 400) (i32.const 1) (i64.const 1000000) (i32.const 408)))
        ;; stdout is not a file: not counted. The errnos, then the 64
        ;; bytes at 0 the file's size was read into, as the module left them.
        (i32.store (i32.const 600) (i32.const 200))
        (i32.store (i32.const 604) (i32.const 28))
        (i32.store (i32.const 608) (i32.const 0))
        (i32.store (i32.const 612) (i32.const 72))
        (drop (call $fd_write (i32.const 1) (i32.const 600) (i32.const 1) (i32.const 300)))
        (drop (call $fd_write (i32.const 1) (i32.const 608) (i32.const 1) (i32.const 300)))))"#;
    let m = Module::from_bytes(&wat::parse_str(wat).unwrap()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let o = RunOptions {
        preopens: vec![("/volume/tmp".into(), tmp.path().into(), false)],
        write_budget: Some(150),
        ..RunOptions::default()
    };
    let out = run(&m, &o).unwrap();
    assert_eq!(out.exit, Exit::Code(0));
    let errnos: Vec<i32> = out.stdout[..28].chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(errnos, vec![0, 19, 0, 19, 0, 0, 19]);
    assert_eq!(&out.stdout[92..], [0u8; 8], "the 8 bytes after, which fd_tell's answer went into");
    assert_eq!(&out.stdout[28..92], b"the module's own 64 bytes, kept as the module left them: always!");
    assert_eq!(std::fs::metadata(tmp.path().join("out.bin")).unwrap().len(), 13);
    // Without the budget every write lands.
    let out = run(&m, &RunOptions { write_budget: None, ..o }).unwrap();
    assert_eq!(out.stdout[..28], [0u8; 28]);
}

// ---- check ----

const DISCOVER: &str =
    r#"{"jsonrpc":"2.0","id":"discover-1","result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}"#;

fn list_answer(tools: Value) -> String {
    format!("{}\n", json!({"jsonrpc":"2.0","id":"tools-list-1","result":{"tools": tools}}))
}

fn greet_tool(name: &str) -> Value {
    json!({"name": name, "description": "Greet someone.", "inputSchema": {"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}})
}

fn writer_wat(out: &str) -> String {
    format!(
        r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 1024) "{}")
  (func (export "_start")
    (i32.store (i32.const 0) (i32.const 1024))
    (i32.store (i32.const 4) (i32.const {}))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 16)))))"#,
        lit(out.as_bytes()),
        out.len()
    )
}

fn check_wat(wat: &str) -> CheckReport {
    check(&wat::parse_str(wat).unwrap(), None)
}

#[test]
fn check_accepts_a_good_module() {
    let out = format!("{DISCOVER}\n{}", list_answer(json!([greet_tool("greet"), greet_tool("wave")])));
    let r = check_wat(&writer_wat(&out));
    assert!(r.accepted(), "{:?}", r.failures);
    assert_eq!(r.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["greet", "wave"]);
    assert_eq!(r.tools[0].description, "Greet someone.");
    assert_eq!(r.pages, 1);
}

#[test]
fn check_refuses_bad_answers() {
    let bad = |out: String, want: &str| {
        let r = check_wat(&writer_wat(&out));
        assert!(r.failures.iter().any(|f| f.contains(want)), "want {want:?} in {:?}", r.failures);
    };
    bad(format!("{DISCOVER}\n{}", list_answer(json!([greet_tool("a"), greet_tool("a")]))), "listed twice");
    bad(
        format!("{DISCOVER}\n{}", list_answer(json!([{"name":"a","inputSchema":{"type":"object"}}]))),
        "no description",
    );
    bad(
        format!("{DISCOVER}\n{}", list_answer(json!([{"name":"a","description":"d","inputSchema":{"type":"string"}}]))),
        "inputSchema",
    );
    bad(
        format!("{DISCOVER}\n{}", list_answer(json!([{"description":"d","inputSchema":{"type":"object"}}]))),
        "no name",
    );
    let old = DISCOVER.replace("2026-07-28", "2025-06-18");
    bad(format!("{old}\n{}", list_answer(json!([greet_tool("a")]))), "supportedVersions");
    let notools = DISCOVER.replace(r#""tools":{}"#, r#""prompts":{}"#);
    bad(format!("{notools}\n{}", list_answer(json!([greet_tool("a")]))), "tools capability");
    bad(format!("{DISCOVER}\n"), "crashed: exited before answering");
    bad(format!("{DISCOVER}\nnot json\n{}", list_answer(json!([greet_tool("a")]))), "no JSON-RPC message");
}

#[test]
fn check_refuses_bad_shapes() {
    let has = |r: &CheckReport, want: &str| {
        assert!(r.failures.iter().any(|f| f.contains(want)), "want {want:?} in {:?}", r.failures)
    };
    has(&check(b"\0asm\x0d\x00\x01\x00", None), "component");
    has(&check(b"(module)", None), "not a WebAssembly binary");
    has(&check_wat(r#"(module (memory (export "memory") 1) (func (export "main")))"#), "does not export `_start`");
    has(
        &check_wat(r#"(module (memory (export "memory") 1) (func (export "_start") (param i32)))"#),
        "`_start` must be",
    );
    has(&check_wat(r#"(module (memory 1) (func (export "_start")))"#), "does not export `memory`");
    has(
        &check_wat(r#"(module (import "env" "foo" (func)) (memory (export "memory") 1) (func (export "_start")))"#),
        "imports env::foo, which Subako does not provide",
    );
    has(
        &check_wat(
            r#"(module (import "wasi_snapshot_preview1" "fd_write" (func (param i32) (result i32)))
                (memory (export "memory") 1) (func (export "_start")))"#,
        ),
        "imports wasi_snapshot_preview1::fd_write as (i32) -> (i32), but it is (i32, i32, i32, i32) -> (i32)",
    );
    has(
        &check_wat(
            r#"(module (import "wasi_snapshot_preview1" "sock_open" (func)) (memory (export "memory") 1) (func (export "_start")))"#,
        ),
        "not a WASI preview 1 function",
    );
    has(
        &check_wat(
            r#"(module (import "subako_http" "request" (func (param i32) (result i32)))
                (memory (export "memory") 1) (func (export "_start")))"#,
        ),
        "subako_http::request as (i32) -> (i32)",
    );
    has(&check_wat(r#"(module (memory (export "memory") 1 1 shared) (func (export "_start")))"#), "threads");
    has(
        &check_wat(r#"(module (tag $e) (memory (export "memory") 1) (func (export "_start") (throw $e)))"#),
        "exceptions",
    );
}

#[test]
fn bundle_writes_dir_and_archive() {
    // A module that prints the manifest when given --subako-manifest needs argv
    // handling; this one always prints the upload answers, so bundle must refuse
    // it for its manifest, after check accepted it.
    let out = format!("{DISCOVER}\n{}", list_answer(json!([greet_tool("greet")])));
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("m.wasm");
    std::fs::write(&wasm, wat::parse_str(writer_wat(&out)).unwrap()).unwrap();
    let e = bundle(&wasm, None, &dir.path().join("out")).unwrap_err();
    assert!(e.to_string().contains("--subako-manifest"), "{e}");

    std::fs::write(&wasm, wat::parse_str(manifest_wat()).unwrap()).unwrap();
    let assets = dir.path().join("assets");
    std::fs::create_dir_all(assets.join("templates")).unwrap();
    std::fs::write(assets.join("templates/a.txt"), "hi").unwrap();
    let r = bundle(&wasm, Some(&assets), &dir.path().join("out")).unwrap();
    assert_eq!(r.manifest.name, "hello");
    assert_eq!(r.asset_files, 1);
    let pkg: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("out/subako-package.json")).unwrap()).unwrap();
    assert_eq!(pkg, json!({"abi":1,"name":"hello","description":"Says hello."}));
    assert!(dir.path().join("out/module.wasm").exists());
    assert_eq!(std::fs::read_to_string(dir.path().join("out/assets/templates/a.txt")).unwrap(), "hi");
    let gz = flate2::read::GzDecoder::new(std::fs::File::open(&r.archive).unwrap());
    let mut names: Vec<String> =
        tar::Archive::new(gz).entries().unwrap().map(|e| e.unwrap().path().unwrap().display().to_string()).collect();
    names.sort();
    assert_eq!(names, ["assets/templates/a.txt", "module.wasm", "subako-package.json"]);
    // call() finds the package name through the manifest.
    let m = Module::from_file(&wasm).unwrap();
    assert_eq!(manifest_of(&m), "hello");
}

/// What `bundle --out` may replace: nothing, or an earlier bundle; never a
/// directory with other files in it, or the module or assets bundled
/// (it removed any directory it was given). And the whole bundle, module
/// and manifest too, within 64 MiB.
#[test]
fn bundle_replaces_only_an_earlier_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("m.wasm");
    std::fs::write(&wasm, wat::parse_str(manifest_wat()).unwrap()).unwrap();
    let assets = dir.path().join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    std::fs::write(assets.join("a.txt"), "hi").unwrap();
    let out = dir.path().join("out");
    bundle(&wasm, Some(&assets), &out).unwrap();
    // Again: the earlier bundle is replaced.
    bundle(&wasm, None, &out).unwrap();
    assert!(!out.join("assets").exists());
    // A trailing slash: the archive is beside the directory, not in it.
    let r = bundle(&wasm, None, &dir.path().join("slash/")).unwrap();
    assert_eq!(r.archive, dir.path().join("slash.tar.gz"));
    assert!(r.archive.exists());
    let refused =
        |out: &std::path::Path, assets: Option<&std::path::Path>| bundle(&wasm, assets, out).unwrap_err().to_string();
    // The directory holding the module and the assets.
    let e = refused(dir.path(), Some(&assets));
    assert!(e.contains("holds the module") && e.contains("give another --out"), "{e}");
    assert!(wasm.exists() && assets.join("a.txt").exists());
    // Assets inside the bundle being replaced.
    bundle(&wasm, Some(&assets), &out).unwrap();
    let e = refused(&out, Some(&out.join("assets")));
    assert!(e.contains("holds the assets"), "{e}");
    assert!(out.join("assets/a.txt").exists());
    // A directory with anything else in it.
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/lib.rs"), "// mine").unwrap();
    let e = refused(&project, None);
    assert!(e.contains("holds src, so it is no earlier bundle"), "{e}");
    assert_eq!(std::fs::read_to_string(project.join("src/lib.rs")).unwrap(), "// mine");
    // Only a bundle's names, but not a bundle: a site's assets/, a build's module.wasm.
    let www = dir.path().join("www");
    std::fs::create_dir_all(www.join("assets")).unwrap();
    std::fs::write(www.join("assets/logo.svg"), "keep").unwrap();
    let e = refused(&www, None);
    assert!(e.contains("has no subako-package.json, so it is no earlier bundle"), "{e}");
    assert!(www.join("assets/logo.svg").exists());
    let build = dir.path().join("build");
    std::fs::create_dir_all(&build).unwrap();
    std::fs::write(build.join("module.wasm"), "keep").unwrap();
    assert!(refused(&build, None).contains("has no subako-package.json"));
    assert_eq!(std::fs::read_to_string(build.join("module.wasm")).unwrap(), "keep");
    // A bundle inside its own assets would hold itself.
    let e = refused(&assets.join("bundle"), Some(&assets));
    assert!(e.contains("is inside --assets"), "{e}");
    assert!(!assets.join("bundle").exists());
    let e = refused(std::path::Path::new("."), None);
    assert!(e.contains("names no directory of its own"), "{e}");
    // Missing assets are named.
    let e = refused(&out, Some(&dir.path().join("nope")));
    assert!(e.contains("--assets") && e.contains("nope: no such directory"), "{e}");
    // 64 MiB of assets and a module: over what a bundle holds in all.
    let big = dir.path().join("big");
    std::fs::create_dir_all(&big).unwrap();
    std::fs::File::create(big.join("weights.bin")).unwrap().set_len(64 << 20).unwrap();
    let e = refused(&dir.path().join("big-out"), Some(&big));
    assert!(e.contains("over the 67108864 (64 MiB) a bundle may hold in all"), "{e}");
    assert!(!dir.path().join("big-out").exists());
    // A file where the archive goes that is no earlier bundle's archive, or
    // a directory there: refused before anything is written (review 71: the
    // file was overwritten).
    std::fs::write(dir.path().join("d1.tar.gz"), "precious").unwrap();
    let e = refused(&dir.path().join("d1"), None);
    assert!(e.contains("d1.tar.gz is there, no earlier bundle's archive"), "{e}");
    assert_eq!(std::fs::read_to_string(dir.path().join("d1.tar.gz")).unwrap(), "precious");
    assert!(!dir.path().join("d1").exists());
    std::fs::create_dir(dir.path().join("d2.tar.gz")).unwrap();
    let e = refused(&dir.path().join("d2"), None);
    assert!(e.contains("d2.tar.gz is there, a directory"), "{e}");
    assert!(!dir.path().join("d2").exists());
    // A link, even to an earlier bundle's archive (review 72: named as no
    // archive).
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&r.archive, dir.path().join("d3.tar.gz")).unwrap();
        let e = refused(&dir.path().join("d3"), None);
        assert!(e.contains("d3.tar.gz is there, a symbolic link"), "{e}");
    }
}

/// A module that answers discover and tools/list (one `greet` tool), and
/// prints its manifest when given two arguments (`--subako-manifest`).
fn manifest_wat() -> String {
    let out = format!("{DISCOVER}\n{}", list_answer(json!([greet_tool("greet")])));
    let manifest = "{\n  \"abi\": 1,\n  \"name\": \"hello\",\n  \"description\": \"Says hello.\"\n}\n";
    format!(
        r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 1024) "{o}")
  (data (i32.const 8192) "{mf}")
  (func (export "_start")
    (drop (call $args (i32.const 32) (i32.const 36)))
    (if (i32.eq (i32.load (i32.const 32)) (i32.const 2))
      (then (i32.store (i32.const 0) (i32.const 8192)) (i32.store (i32.const 4) (i32.const {mfl})))
      (else (i32.store (i32.const 0) (i32.const 1024)) (i32.store (i32.const 4) (i32.const {ol}))))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 16)))))"#,
        o = lit(out.as_bytes()),
        ol = out.len(),
        mf = lit(manifest.as_bytes()),
        mfl = manifest.len()
    )
}

fn manifest_of(m: &Module) -> String {
    subako_tiny_runner::manifest(m).unwrap().name
}

// ---- subako_http ----

/// A tiny HTTP/1.1 server: one request per connection, answers by path.
/// Connections each test server (by port) has taken.
static HITS: std::sync::Mutex<std::collections::BTreeMap<u16, usize>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

fn server_hits(port: u16) -> usize {
    HITS.lock().unwrap().get(&port).copied().unwrap_or(0)
}

fn server() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(s) = s else { continue };
            *HITS.lock().unwrap().entry(port).or_insert(0) += 1;
            std::thread::spawn(move || handle(s));
        }
    });
    port
}

fn handle(mut s: TcpStream) {
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut first = String::new();
    if r.read_line(&mut first).is_err() {
        return;
    }
    let mut parts = first.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    let mut headers = serde_json::Map::new();
    let mut len = 0usize;
    loop {
        let mut h = String::new();
        r.read_line(&mut h).unwrap();
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').unwrap();
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_string());
        if k == "content-length" {
            len = v.parse().unwrap();
        }
        headers.insert(k, Value::String(v));
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).unwrap();
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    if path == "/cut" {
        // A body cut short: ten of the thousand bytes announced.
        let head = "HTTP/1.1 200 X\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n";
        let _ = s.write_all(format!("{head}PARTIAL123").as_bytes());
        return;
    }
    let (status, ctype, extra, out): (u16, &str, String, Vec<u8>) = match path {
        "/text" => (200, "text/plain", String::new(), b"hello".to_vec()),
        "/echo" => {
            let v = json!({"method": method, "headers": headers, "body": String::from_utf8_lossy(&body)});
            (200, "application/json", "X-Echo: Yes\r\n".into(), v.to_string().into_bytes())
        }
        "/bin" => (200, "application/octet-stream", String::new(), (0..50_000u32).map(|i| (i % 251) as u8).collect()),
        "/redirect" => (302, "text/plain", "Location: /text\r\n".into(), Vec::new()),
        "/to" => (307, "text/plain", format!("Location: {query}\r\n"), Vec::new()),
        "/loop" => (302, "text/plain", "Location: /loop\r\n".into(), Vec::new()),
        "/slow" => {
            std::thread::sleep(Duration::from_secs(3));
            (200, "text/plain", String::new(), b"late".to_vec())
        }
        "/big" => (200, "text/plain", String::new(), vec![b'x'; 300 * 1024]),
        _ => (404, "text/plain", String::new(), b"not found".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
        out.len()
    );
    let _ = s.write_all(head.as_bytes());
    let _ = s.write_all(&out);
}

/// A module that sends `req` through subako_http and prints the answer.
fn http_module(req: &Value) -> Module {
    let req = req.to_string();
    let wat = format!(
        r#"(module
  (import "subako_http" "request" (func $req (param i32 i32) (result i32)))
  (import "subako_http" "read_response" (func $read (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 20)
  (data (i32.const 1024) "{}")
  (func (export "_start") (local $n i32)
    (local.set $n (call $req (i32.const 1024) (i32.const {})))
    (drop (call $read (i32.const 65536) (local.get $n)))
    (i32.store (i32.const 0) (i32.const 65536))
    (i32.store (i32.const 4) (local.get $n))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 16)))))"#,
        lit(req.as_bytes()),
        req.len()
    );
    Module::from_bytes(&wat::parse_str(wat).unwrap()).unwrap()
}

fn local() -> HttpConfig {
    HttpConfig { allow_hosts: vec!["127.0.0.1".into()], allow_loopback: true }
}

fn fetch(req: Value, http: Option<HttpConfig>, tmp: Option<&Path>) -> Value {
    let mut o = RunOptions { http, ..RunOptions::default() };
    if let Some(t) = tmp {
        o.preopens.push(("/volume/tmp".into(), t.into(), false));
    }
    let out = run(&http_module(&req), &o).unwrap();
    assert_eq!(out.exit, Exit::Code(0));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(&out.stdout)))
}

/// [`fetch`] with `/volume/tmp` at `tmp` and a write budget (`None`: none).
fn fetch_budgeted(req: Value, tmp: &Path, budget: Option<u64>) -> Value {
    let o = RunOptions {
        http: Some(local()),
        preopens: vec![("/volume/tmp".into(), tmp.into(), false)],
        write_budget: budget,
        ..RunOptions::default()
    };
    let out = run(&http_module(&req), &o).unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(&out.stdout)))
}

fn kind(v: &Value) -> &str {
    v["error"]["kind"].as_str().unwrap_or_else(|| panic!("not an error: {v}"))
}

#[test]
fn http_get_post_file() {
    let port = server();
    let base = format!("http://127.0.0.1:{port}");
    let v = fetch(json!({"method":"GET","url":format!("{base}/text")}), Some(local()), None);
    assert_eq!(v["ok"]["status"], 200);
    assert_eq!(v["ok"]["headers"]["content-type"], "text/plain");
    assert_eq!(v["ok"]["body"], json!({"type":"inline","text":"hello"}));

    let v = fetch(
        json!({"method":"POST","url":format!("{base}/echo"),"headers":{"Accept":"application/json","X-Token":"t1"},
               "body":{"type":"json","json":{"order":1042}}}),
        Some(local()),
        None,
    );
    assert_eq!(v["ok"]["headers"]["x-echo"], "Yes", "header names lowercase");
    let echo: Value = serde_json::from_str(v["ok"]["body"]["text"].as_str().unwrap()).unwrap();
    assert_eq!(echo["method"], "POST");
    assert_eq!(echo["headers"]["accept"], "application/json");
    assert_eq!(echo["headers"]["x-token"], "t1");
    assert_eq!(echo["headers"]["content-type"], "application/json");
    assert_eq!(echo["body"], r#"{"order":1042}"#);

    let tmp = tempfile::tempdir().unwrap();
    let v = fetch(
        json!({"method":"GET","url":format!("{base}/bin"),"output":{"type":"file","path":"/volume/tmp/out.bin"}}),
        Some(local()),
        Some(tmp.path()),
    );
    assert_eq!(v["ok"]["body"], json!({"type":"file","path":"/volume/tmp/out.bin","bytes":50000}));
    let data = std::fs::read(tmp.path().join("out.bin")).unwrap();
    assert_eq!(data, (0..50_000u32).map(|i| (i % 251) as u8).collect::<Vec<_>>());
    // A file body from the volume.
    std::fs::write(tmp.path().join("up.txt"), "from a file").unwrap();
    let v = fetch(
        json!({"method":"PUT","url":format!("{base}/echo"),"body":{"type":"file","path":"/volume/tmp/up.txt"}}),
        Some(local()),
        Some(tmp.path()),
    );
    let echo: Value = serde_json::from_str(v["ok"]["body"]["text"].as_str().unwrap()).unwrap();
    assert_eq!((echo["method"].as_str(), echo["body"].as_str()), (Some("PUT"), Some("from a file")));
    // Outside the volume: bad_path.
    let v = fetch(
        json!({"url":format!("{base}/bin"),"output":{"type":"file","path":"/etc/passwd"}}),
        Some(local()),
        Some(tmp.path()),
    );
    assert_eq!(kind(&v), "bad_path");
    let v = fetch(
        json!({"url":format!("{base}/bin"),"output":{"type":"file","path":"/volume/tmp/../x"}}),
        Some(local()),
        Some(tmp.path()),
    );
    assert_eq!(kind(&v), "bad_path");
    assert_eq!(
        v["error"]["message"],
        r#""/volume/tmp/../x" holds `..`, which a body or output path may not: give it without"#
    );
    // Each refusal names its rule (reviews 83 and 87), before the request
    // is sent: the server sees none of them.
    let data_off = "is not under a mounted volume (/volume/data is not mounted: the agent has not enabled it)";
    let directory = "names a directory: end it with a file name";
    let ends = "names a directory (it ends in `/` or `/.`): end it with a file name";
    std::fs::create_dir_all(tmp.path().join("sub")).unwrap();
    let hits = server_hits(port);
    for (path, why) in [
        ("/volume/data/x.json", data_off),
        ("/volume//data/x.json", data_off),
        ("/volume/./data/x.json", data_off),
        ("/volume/tmp", directory),
        ("/volume/tmp/sub", directory),
        ("/volume/tmp/.", ends),
        ("/volume/tmp/sub/", ends),
        ("/volume/out.json", "is not a file in a volume: a body or output file is on /volume/tmp or /volume/data"),
        (
            "/volume/cache/x",
            "is not under a mounted volume (/volume/cache is no volume: they are /volume/tmp and /volume/data)",
        ),
        ("/etc/passwd", "is not under /volume: a body or output file is on /volume/tmp or /volume/data"),
        ("/volume", "is not a file in a volume: a body or output file is on /volume/tmp or /volume/data"),
        ("volume/tmp/x.json", "is not under /volume: a body or output file is on /volume/tmp or /volume/data"),
        // `//` and `/./` before `volume` are nothing, as after it (review 89).
        ("//volume/data/x.json", data_off),
        ("/./volume/tmp/sub", directory),
    ] {
        let v = fetch(
            json!({"method":"POST","url":format!("{base}/echo"),"output":{"type":"file","path":path}}),
            Some(local()),
            Some(tmp.path()),
        );
        assert_eq!(kind(&v), "bad_path", "{path}");
        assert_eq!(v["error"]["message"], format!("{path:?} {why}"), "{path}");
    }
    assert_eq!(server_hits(port), hits, "a refused path sent no request");
    // No way out of the volume through a symbolic link a module made
    // (review 88: std::fs followed one out), and no request for a path the
    // file system would refuse; a link within the volume is followed, as
    // the module's own WASI calls follow it (review 89).
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret"), "host file").unwrap();
    std::os::unix::fs::symlink(outside.path(), tmp.path().join("out")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret"), tmp.path().join("secret")).unwrap();
    std::fs::write(tmp.path().join("plain"), "a file").unwrap();
    let link =
        "leads through a symbolic link out of its volume or to an absolute path, which a body or output path may not";
    let long = format!("/volume/tmp/{}", "n".repeat(256));
    let longest = format!("/volume/tmp{}/x", format!("/{}", "n".repeat(250)).repeat(17));
    for (path, why) in [
        ("/volume/tmp/out/planted.txt", link),
        ("/volume/tmp/out/deeper/planted.txt", link),
        ("/volume/tmp/secret", link),
        ("/volume/tmp/plain/x.bin", "has a file where a directory should be"),
        ("/volume/tmp/a\u{0}b", "holds a NUL byte, which no file name may"),
        (long.as_str(), "has a name longer than 255 bytes, the most a file system takes"),
        (longest.as_str(), "is longer than 4,095 bytes beneath its volume, the most a path may be"),
    ] {
        for request in [
            json!({"method":"POST","url":format!("{base}/echo"),"output":{"type":"file","path":path}}),
            json!({"method":"POST","url":format!("{base}/echo"),"body":{"type":"file","path":path}}),
        ] {
            let v = fetch(request, Some(local()), Some(tmp.path()));
            assert_eq!(kind(&v), "bad_path", "{path}");
            assert_eq!(v["error"]["message"], format!("{path:?} {why}"), "{path}");
        }
    }
    assert_eq!(server_hits(port), hits, "a refused path sent no request");
    // A link to nothing where a directory should be, and one in a loop:
    // refused before the request too, each in its words (review 90: the
    // first let the request out, then failed at the open).
    std::os::unix::fs::symlink("nothing", tmp.path().join("dangling")).unwrap();
    std::os::unix::fs::symlink("nowhere/file", tmp.path().join("into_nowhere")).unwrap();
    let v = fetch(
        json!({"method":"POST","url":format!("{base}/echo"),"output":{"type":"file","path":"/volume/tmp/into_nowhere"}}),
        Some(local()),
        Some(tmp.path()),
    );
    assert_eq!(
        v["error"]["message"], r#""/volume/tmp/into_nowhere" is a symbolic link into a directory that does not exist"#,
        "{v}"
    );
    std::os::unix::fs::symlink("looped", tmp.path().join("looped")).unwrap();
    for (path, why) in [
        ("/volume/tmp/dangling/x.bin", "has a symbolic link to nothing where a directory should be"),
        ("/volume/tmp/looped/x.bin", "has a symbolic link that leads to itself in a loop"),
    ] {
        for request in [
            json!({"method":"POST","url":format!("{base}/echo"),"output":{"type":"file","path":path}}),
            json!({"method":"POST","url":format!("{base}/echo"),"body":{"type":"file","path":path}}),
        ] {
            let v = fetch(request, Some(local()), Some(tmp.path()));
            assert_eq!(v["error"]["message"], format!("{path:?} {why}"), "{path}");
        }
    }
    assert_eq!(server_hits(port), hits, "a refused path sent no request");
    // The output file is opened before the request, and left as it was
    // when no answer comes: one that was there kept, one it made removed.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    std::fs::write(tmp.path().join("old.txt"), "kept").unwrap();
    for path in ["/volume/tmp/old.txt", "/volume/tmp/made/new.txt"] {
        let v = fetch(
            json!({"url":format!("http://127.0.0.1:{closed}/"),"output":{"type":"file","path":path}}),
            Some(local()),
            Some(tmp.path()),
        );
        assert_eq!(kind(&v), "connection", "{v}");
    }
    assert_eq!(std::fs::read_to_string(tmp.path().join("old.txt")).unwrap(), "kept");
    assert!(!tmp.path().join("made").exists(), "a file made for an answer that never came was left, or its directory");
    // Nor does a body cut short, or past the write budget, touch it
    // (review 92: it was emptied, or held the part that came).
    for (path, budget, why) in [("/cut", None, "connection"), ("/bin", Some(1000), "write_budget")] {
        for output in ["/volume/tmp/old.txt", "/volume/tmp/made/new.txt"] {
            let req = json!({"url":format!("{base}{path}"),"output":{"type":"file","path":output}});
            let v = fetch_budgeted(req, tmp.path(), budget);
            assert_eq!(kind(&v), why, "{path} {output}: {v}");
        }
    }
    assert_eq!(std::fs::read_to_string(tmp.path().join("old.txt")).unwrap(), "kept");
    assert!(!tmp.path().join("made").exists(), "a file made for a body cut short was left, or its directory");
    // The budget's refusal says the sizes; a HEAD's length is no body
    // (review 94: it was refused as past the budget).
    let budgeted = |req: Value| fetch_budgeted(req, tmp.path(), Some(1000));
    let v = budgeted(json!({"url":format!("{base}/bin"),"output":{"type":"file","path":"/volume/tmp/b.bin"}}));
    assert_eq!(
        v["error"]["message"], "the body (50000 bytes) would go past this call's file write budget (1000 bytes left)",
        "{v}"
    );
    let v = budgeted(
        json!({"method":"HEAD","url":format!("{base}/bin"),"output":{"type":"file","path":"/volume/tmp/h.bin"}}),
    );
    assert_eq!(v["ok"]["body"]["bytes"], 0, "{v}");
    // A body file that is not there is said so; a FIFO is refused, not
    // waited on past every time limit (review 92).
    let v = fetch(
        json!({"method":"POST","url":format!("{base}/echo"),"body":{"type":"file","path":"/volume/tmp/missing.bin"}}),
        Some(local()),
        Some(tmp.path()),
    );
    assert_eq!(
        v["error"]["message"],
        r#""/volume/tmp/missing.bin" does not exist (nothing is there, or a symbolic link on the way leads to nothing)"#
    );
    assert!(std::process::Command::new("mkfifo").arg(tmp.path().join("fifo")).status().unwrap().success());
    let hits = server_hits(port);
    for request in [
        json!({"method":"POST","url":format!("{base}/echo"),"body":{"type":"file","path":"/volume/tmp/fifo"}}),
        json!({"method":"POST","url":format!("{base}/echo"),"output":{"type":"file","path":"/volume/tmp/fifo"}}),
    ] {
        let v = fetch(request, Some(local()), Some(tmp.path()));
        assert_eq!(
            v["error"]["message"], r#""/volume/tmp/fifo" is not a regular file (a FIFO, a socket or a device)"#,
            "{v}"
        );
    }
    assert_eq!(server_hits(port), hits, "a refused path sent no request");
    // A missing path is the request's fault, said as such.
    let v = fetch(json!({"url":format!("{base}/text"),"output":{"type":"file"}}), Some(local()), Some(tmp.path()));
    assert_eq!(v["error"]["message"], "output.path is missing: a file output names its /volume path", "{v}");
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1, "nothing written outside the volume");
    assert_eq!(std::fs::read_to_string(outside.path().join("secret")).unwrap(), "host file");
    std::fs::create_dir(tmp.path().join("inside")).unwrap();
    std::os::unix::fs::symlink("inside", tmp.path().join("alias")).unwrap();
    let v = fetch(
        json!({"url":format!("{base}/bin"),"output":{"type":"file","path":"/volume/tmp/alias/kept.bin"}}),
        Some(local()),
        Some(tmp.path()),
    );
    assert_eq!(v["ok"]["body"]["bytes"], 50000, "{v}");
    assert_eq!(std::fs::metadata(tmp.path().join("inside/kept.bin")).unwrap().len(), 50000);
    // Write budget applies to file output.
    let req = json!({"url":format!("{base}/bin"),"output":{"type":"file","path":"/volume/tmp/o2.bin"}});
    assert_eq!(kind(&fetch_budgeted(req, tmp.path(), Some(1000))), "write_budget");
    // Unknown fields and methods are invalid requests.
    assert_eq!(kind(&fetch(json!({"url":format!("{base}/text"),"extra":1}), Some(local()), None)), "invalid_request");
    assert_eq!(
        kind(&fetch(json!({"method":"TRACE","url":format!("{base}/text")}), Some(local()), None)),
        "invalid_request"
    );
}

#[test]
fn http_redirects() {
    let port = server();
    let other = server();
    let base = format!("http://127.0.0.1:{port}");
    let v = fetch(json!({"url":format!("{base}/redirect")}), Some(local()), None);
    assert_eq!(v["ok"]["body"]["text"], "hello");
    let v = fetch(json!({"url":format!("{base}/redirect"),"follow_redirects":false}), Some(local()), None);
    assert_eq!(v["ok"]["status"], 302);
    assert_eq!(v["ok"]["headers"]["location"], "/text");
    // Same origin keeps authorization; another origin (port) drops it and cookies.
    let hdrs = json!({"authorization":"Bearer s3cret","cookie":"a=b","x-keep":"1"});
    let v = fetch(json!({"url":format!("{base}/to?/echo"),"headers":hdrs}), Some(local()), None);
    let echo: Value = serde_json::from_str(v["ok"]["body"]["text"].as_str().unwrap()).unwrap();
    assert_eq!(echo["headers"]["authorization"], "Bearer s3cret");
    let v =
        fetch(json!({"url":format!("{base}/to?http://127.0.0.1:{other}/echo"),"headers":hdrs}), Some(local()), None);
    let echo: Value = serde_json::from_str(v["ok"]["body"]["text"].as_str().unwrap()).unwrap();
    assert!(echo["headers"].get("authorization").is_none() && echo["headers"].get("cookie").is_none(), "{echo}");
    assert_eq!(echo["headers"]["x-keep"], "1");
    // Each hop is re-checked against the allowlist.
    let only = HttpConfig { allow_hosts: vec![format!("127.0.0.1:{port}")], allow_loopback: true };
    let v = fetch(json!({"url":format!("{base}/to?http://127.0.0.1:{other}/echo")}), Some(only), None);
    assert_eq!(kind(&v), "host_not_allowed");
    assert_eq!(kind(&fetch(json!({"url":format!("{base}/loop")}), Some(local()), None)), "too_many_redirects");
}

#[test]
fn http_refusals_and_limits() {
    let port = server();
    let base = format!("http://127.0.0.1:{port}");
    let none = HttpConfig { allow_hosts: vec![], allow_loopback: true };
    assert_eq!(kind(&fetch(json!({"url":format!("{base}/text")}), Some(none), None)), "host_not_allowed");
    let no_loop = HttpConfig { allow_hosts: vec!["127.0.0.1".into()], allow_loopback: false };
    assert_eq!(kind(&fetch(json!({"url":format!("{base}/text")}), Some(no_loop), None)), "forbidden_destination");
    let private = HttpConfig { allow_hosts: vec!["10.1.2.3".into()], allow_loopback: true };
    assert_eq!(kind(&fetch(json!({"url":"https://10.1.2.3/"}), Some(private), None)), "forbidden_destination");
    let t = std::time::Instant::now();
    assert_eq!(kind(&fetch(json!({"url":format!("{base}/slow"),"timeout_ms":200}), Some(local()), None)), "timeout");
    assert!(t.elapsed() < Duration::from_secs(2));
    // Without timeout_ms, a request to a slow server fails with kind
    // `timeout` before the run's time is out, and the module answers (an
    // outside author's call ended with "ran out of time" instead: with the
    // request's deadline at the run's own, the answer raced the run's end;
    // here it usually won, so this holds the outcome, not the race).
    let o = RunOptions { http: Some(local()), time_limit: Duration::from_secs(2), ..RunOptions::default() };
    let out = run(&http_module(&json!({"url":format!("{base}/slow")})), &o).unwrap();
    assert_eq!(out.exit, Exit::Code(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(kind(&serde_json::from_slice(&out.stdout).unwrap()), "timeout");
    assert_eq!(kind(&fetch(json!({"url":format!("{base}/big")}), Some(local()), None)), "too_large");
    assert_eq!(kind(&fetch(json!({"url":format!("{base}/bin")}), Some(local()), None)), "not_text");
}

#[test]
fn http_abi_codes() {
    // Records the return codes of a sequence of calls as raw i32s on stdout.
    let req = json!({"url":"https://example.com/"}).to_string();
    let wat = format!(
        r#"(module
  (import "subako_http" "request" (func $req (param i32 i32) (result i32)))
  (import "subako_http" "read_response" (func $read (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 2)
  (data (i32.const 1024) "{}")
  (func (export "_start") (local $n i32)
    (i32.store (i32.const 200) (call $read (i32.const 4096) (i32.const 10)))
    (i32.store (i32.const 204) (call $req (i32.const 0x7fff0000) (i32.const 10)))
    (local.set $n (call $req (i32.const 1024) (i32.const {})))
    (i32.store (i32.const 208) (local.get $n))
    (i32.store (i32.const 212) (call $read (i32.const 4096) (i32.add (local.get $n) (i32.const 1))))
    (i32.store (i32.const 216) (call $read (i32.const 0x7fff0000) (local.get $n)))
    (i32.store (i32.const 220) (call $read (i32.const 4096) (local.get $n)))
    (i32.store (i32.const 224) (call $read (i32.const 4096) (local.get $n)))
    (i32.store (i32.const 0) (i32.const 200))
    (i32.store (i32.const 4) (i32.const 28))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 16)))
    (i32.store (i32.const 0) (i32.const 4096))
    (i32.store (i32.const 4) (local.get $n))
    (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 16)))))"#,
        lit(req.as_bytes()),
        req.len()
    );
    let m = Module::from_bytes(&wat::parse_str(wat).unwrap()).unwrap();
    let codes = |out: &RunOutput| -> Vec<i32> {
        out.stdout.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
    };
    let out = run(&m, &RunOptions { http: Some(HttpConfig::default()), ..RunOptions::default() }).unwrap();
    let c = codes(&out);
    assert!(c[2] > 0, "{c:?}");
    assert_eq!([c[0], c[1], c[3], c[4], c[5], c[6]], [-2, -1, -3, -1, 0, -2]);
    let answer: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(kind(&answer), "host_not_allowed");
    // The platform stub: request -1, read_response -2.
    let out = run(&m, &RunOptions::default()).unwrap();
    let c = codes(&out);
    assert_eq!(&c[..3], &[-2, -1, -1]);
}

#[test]
fn bench_runs() {
    let out = format!("{DISCOVER}\n{}", list_answer(json!([greet_tool("greet")])));
    // Answers discover, tools/list and call-1 alike: enough for the bench run.
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.wasm");
    std::fs::write(&a, wat::parse_str(writer_wat(&out)).unwrap()).unwrap();
    let b = dir.path().join("b.wasm");
    std::fs::write(&b, wat::parse_str(writer_wat(OK_ANSWER)).unwrap()).unwrap();
    let o = BenchOptions { calls: 5, compiles: 2, tool: Some("greet".into()), ..BenchOptions::default() };
    let r = bench(&b, Some(&a), &o).unwrap();
    let j = r.to_json();
    for k in
        ["compile_ms", "call_us_median", "call_us_p10", "call_us_p90", "list_us_median", "pages_start", "pages_exit"]
    {
        assert!(j["a"][k].is_number(), "{k}: {j}");
        assert!(j["ratio"][k].is_number() || j["ratio"][k].is_null(), "{k}: {j}");
    }
    assert_eq!(j["a"]["pages_start"], 1);
    let f = |v: &Value| v.as_f64().unwrap();
    assert!(
        f(&j["a"]["compile_ms_p10"]) <= f(&j["a"]["compile_ms"])
            && f(&j["a"]["compile_ms"]) <= f(&j["a"]["compile_ms_p90"]),
        "{j}"
    );
    // One ratio per interleaved pair of compiles, its median between the extremes.
    let pairs = &j["compile_ratio_pairs"];
    assert_eq!(pairs["count"], 2, "{j}");
    assert!(
        f(&pairs["min"]) > 0.0 && f(&pairs["min"]) <= f(&pairs["median"]) && f(&pairs["median"]) <= f(&pairs["max"]),
        "{j}"
    );
    assert!(j["a"]["call_crash"].is_null(), "{j}");
    assert!(j["b"]["call_crash"].is_string(), "the list-only module does not answer call-1: {j}");
}

#[test]
fn compile_times_time_each_module_and_refuse_one_that_does_not_validate() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.wasm");
    std::fs::write(&a, wat::parse_str(writer_wat(OK_ANSWER)).unwrap()).unwrap();
    // Bodies that only trap still compile: what `size-report --explain` times.
    let b = dir.path().join("b.wasm");
    std::fs::write(
        &b,
        wat::parse_str(r#"(module (memory (export "memory") 1) (func (export "_start") unreachable))"#).unwrap(),
    )
    .unwrap();
    let times = compile_times(&[a.clone(), b.clone()], 3).unwrap();
    assert_eq!(times.len(), 2);
    for [median, p10, p90] in times {
        assert!(0.0 < p10 && p10 <= median && median <= p90, "{p10} {median} {p90}");
    }
    let bad = dir.path().join("bad.wasm");
    std::fs::write(&bad, b"\0asm\x01\0\0\0\x0a\x01").unwrap();
    let e = compile_times(&[a, bad], 1).unwrap_err().to_string();
    assert!(e.contains("bad.wasm"), "{e}");
}

// ---- the CLI: messages that name the fix ----

/// The repository root (the subako-tiny crate), read when the test runs.
fn repo_root() -> std::path::PathBuf {
    Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("..").canonicalize().unwrap()
}

/// `examples/NAME.rs` built for wasm32-wasip1 with the size profile, in the
/// target directory the `tests/e2e` member uses (so the two share builds).
/// `subako-tiny serve ARGS…` given `input` on stdin: its exit, stdout and stderr.
fn cli_serve(args: &[&str], input: &str) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_subako-tiny"))
        .arg("serve")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn example_wasm(name: &str) -> std::path::PathBuf {
    let dir = repo_root().join("target/e2e/default");
    let out = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(repo_root())
        .args([
            "build",
            "--quiet",
            "--release",
            "--target",
            "wasm32-wasip1",
            "-p",
            "subako-tiny",
            "--example",
            name,
            "--target-dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "building example {name}: {}", String::from_utf8_lossy(&out.stderr));
    dir.join("wasm32-wasip1/release/examples").join(format!("{name}.wasm"))
}

/// Runs the built `subako-tiny` with `args`: (exit code, stdout, stderr).
fn cli(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_subako-tiny")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `isError` text of a `subako-tiny call` that printed a CallToolResult.
fn cli_error_text(stdout: &str) -> String {
    let v: Value = serde_json::from_str(stdout.trim_end()).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(v["isError"], true, "{v}");
    v["content"][0]["text"].as_str().unwrap().to_string()
}

/// An empty assets directory is no assets: the worker mounts `/package`
/// only for a package that has some, so a tool reading it is told so.
#[test]
fn an_empty_assets_directory_is_not_mounted() {
    let files = example_wasm("files");
    let empty = tempfile::tempdir().unwrap();
    let (code, out, err) = cli(&[
        "call",
        files.to_str().unwrap(),
        "template",
        r#"{"name":"x"}"#,
        "--assets",
        empty.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        cli_error_text(&out),
        "read /package/templates/x.txt: /package is not mounted: the package has no assets"
    );
}

/// Options out of range are refused with what to give, before anything
/// runs: a memory cap past wasm32's 4 GiB wrapped round to nothing, and a
/// URL or junk given as a host was taken and matched no request.
#[test]
fn cli_refuses_options_out_of_range() {
    let fetch = example_wasm("fetch");
    let fetch = fetch.to_str().unwrap();
    let call = |extra: &[&str]| {
        let mut args = vec!["call", fetch, "fetch", r#"{"url":"https://example.com/"}"#];
        args.extend_from_slice(extra);
        let (code, _, err) = cli(&args);
        assert_eq!(code, 2, "{extra:?}: {err}");
        err
    };
    assert!(call(&["--memory-limit-mb", "17592186044416"]).contains("not in 1..=4096"));
    assert!(call(&["--memory-limit-mb", "0"]).contains("not in 1..=4096"));
    assert!(call(&["--time-limit-ms", "0"]).contains("'--time-limit-ms <N>'"));
    let e = call(&["--allow-host", "http://example.com/path"]);
    assert!(e.contains("a URL: give the host alone, --allow-host example.com"), "{e}");
    let e = call(&["--allow-host", "bücher.de"]);
    assert!(e.contains("punycode form (xn--…)"), "{e}");
    for junk in ["junk host!!", "", "*", "example.com:99999", "example.com:0", "a..b", "-", "[::1", "[::1]x"] {
        let e = call(&["--allow-host", junk]);
        assert!(e.contains("an entry is a host (api.example.com, *.example.com, 127.0.0.1, [::1])"), "{junk:?}: {e}");
    }
    for fine in [
        "*.example.com",
        "example.com:8443",
        "127.0.0.1",
        "[::1]:8080",
        "[::1]",
        "::1",
        "example.com.",
        "a_b.example.com",
    ] {
        let (code, _, err) = cli(&["call", fetch, "fetch", r#"{"url":"https://example.com/"}"#, "--allow-host", fine]);
        assert_ne!(code, 2, "{fine:?}: {err}");
    }
    // Stdin gives one call its arguments; the second `-` is told so (it
    // read an emptied stdin and said "not JSON: EOF"), and --then's
    // arguments are named as its.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_subako-tiny"))
        .args(["call", fetch, "fetch", "-", "--then", "fetch", "-"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), br#"{"url":"https://example.com/"}"#).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--then fetch: stdin gives one call its arguments (the first `-`)"), "{err}");
    let e = call(&["--then", "fetch", "@/no/such/file"]);
    assert!(e.contains("--then fetch: the arguments file /no/such/file: No such file"), "{e}");
    for (command, flag) in [("bench", "--calls"), ("bench", "--compiles"), ("compile-time", "--compiles")] {
        let (code, _, err) = cli(&[command, fetch, flag, "0"]);
        assert_eq!(code, 2, "{command} {flag} 0: {err}");
        assert!(err.contains("give at least 1"), "{err}");
    }
}

#[test]
fn cli_call_without_a_grant_says_to_pass_allow_host() {
    let fetch = example_wasm("fetch");
    let fetch = fetch.to_str().unwrap();
    let port = server();
    // No grant at all: the fetch example reports the runner's words verbatim,
    // and the call exits 1 (an isError result).
    let (code, out, err) = cli(&["call", fetch, "fetch", r#"{"url":"https://example.com/"}"#]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        cli_error_text(&out),
        "HTTP request failed (host_not_allowed): this call has no network: \
         pass --allow-host HOST (and --allow-loopback for 127.0.0.1)"
    );
    // A grant that leaves the host out names it.
    let url = format!(r#"{{"url":"http://localhost:{port}/text"}}"#);
    let (_, out, _) = cli(&["call", fetch, "fetch", &url, "--allow-loopback"]);
    assert_eq!(
        cli_error_text(&out),
        "HTTP request failed (host_not_allowed): localhost is not in this function's network allowlist: pass --allow-host localhost"
    );
    // The host allowed, loopback not.
    let url = format!(r#"{{"url":"http://127.0.0.1:{port}/text"}}"#);
    let (_, out, _) = cli(&["call", fetch, "fetch", &url, "--allow-host", "127.0.0.1"]);
    assert_eq!(
        cli_error_text(&out),
        "HTTP request failed (forbidden_destination): 127.0.0.1 is a loopback address: pass --allow-loopback"
    );
    // Both: the request goes through.
    let (code, out, err) = cli(&["call", fetch, "fetch", &url, "--allow-host", "127.0.0.1", "--allow-loopback"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(v["structuredContent"]["status"], 200, "{v}");
    // serve answers the same way.
    let req = request_line("s-1", "tools/call", json!({"name": "fetch", "arguments": {"url": "https://example.com/"}}));
    let out = cli_serve(&[fetch], &req);
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        line["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("this call has no network: pass --allow-host HOST (and --allow-loopback for 127.0.0.1)"),
        "{line}"
    );
}

#[test]
fn http_refusals_name_the_flag_that_allows_them() {
    let port = server();
    let message = |req: Value, http: HttpConfig| -> String {
        let v = fetch(req, Some(http), None);
        v["error"]["message"].as_str().unwrap_or_else(|| panic!("not an error: {v}")).to_string()
    };
    let url = format!("http://127.0.0.1:{port}/text");
    assert_eq!(message(json!({"url": url}), HttpConfig::default()), subako_tiny_runner_no_network());
    let m = message(json!({"url": url}), HttpConfig { allow_hosts: vec![], allow_loopback: true });
    assert_eq!(m, "127.0.0.1 is not in this function's network allowlist: pass --allow-host 127.0.0.1");
    let m = message(json!({"url": url}), HttpConfig { allow_hosts: vec!["127.0.0.1".into()], allow_loopback: false });
    assert_eq!(m, "127.0.0.1 is a loopback address: pass --allow-loopback");
    // Allowed on another port: the entry is named, and the port to add.
    let m = message(json!({"url": url}), HttpConfig { allow_hosts: vec!["127.0.0.1:9".into()], allow_loopback: true });
    assert_eq!(
        m,
        format!(
            "127.0.0.1:{port} is not in this function's network allowlist, which allows 127.0.0.1 only as \
             127.0.0.1:9: pass --allow-host 127.0.0.1:{port} (or 127.0.0.1 for any port)"
        )
    );
    // Plain http to a public address: refused before any connection.
    let m = message(
        json!({"url": "http://8.8.8.8/"}),
        HttpConfig { allow_hosts: vec!["8.8.8.8".into()], allow_loopback: false },
    );
    assert_eq!(
        m,
        "plain http:// to 8.8.8.8: use https (plain http is allowed to loopback addresses only, with --allow-loopback)"
    );
    // A private address: no flag allows it, and the message says so.
    let m = message(
        json!({"url": "https://10.1.2.3/"}),
        HttpConfig { allow_hosts: vec!["10.1.2.3".into()], allow_loopback: true },
    );
    assert!(m.contains("private address") && m.contains("no flag allows"), "{m}");
}

fn subako_tiny_runner_no_network() -> &'static str {
    "this call has no network: pass --allow-host HOST (and --allow-loopback for 127.0.0.1)"
}

#[test]
fn cli_check_counts_tools_list_pages() {
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("m.wasm");
    let mut wave = greet_tool("wave");
    wave["outputSchema"] = json!({"type":"object","properties":{"waved":{"type":"boolean"}}});
    let out = format!("{DISCOVER}\n{}", list_answer(json!([greet_tool("greet"), wave])));
    std::fs::write(&wasm, wat::parse_str(writer_wat(&out)).unwrap()).unwrap();
    let (code, out, err) = cli(&["check", wasm.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("accepted: 2 tool(s) on 1 tools/list page(s)\n"), "{out}");
    // Each tool's output schema, under its input schema, where it has one.
    let greet = out.split("wave:").next().unwrap_or_default();
    assert!(!greet.contains("output:"), "{out}");
    assert!(
        out.contains("\n    output: {\"properties\":{\"waved\":{\"type\":\"boolean\"}},\"type\":\"object\"}\n"),
        "{out}"
    );
}

#[test]
fn cli_call_prints_the_result_in_the_module_s_key_order() {
    let answer = r#"{"jsonrpc":"2.0","id":"call-1","result":{"structuredContent":{"zeta":1,"alpha":{"y":2,"b":3}},"content":[{"type":"text","text":"{\"zeta\":1,\"alpha\":{\"y\":2,\"b\":3}}"}]}}
"#;
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("m.wasm");
    let wat = wat::parse_str(writer_wat(answer)).unwrap();
    std::fs::write(&wasm, wat).unwrap();
    let (code, out, err) = cli(&["call", wasm.to_str().unwrap(), "greet", "--package", "t"]);
    assert_eq!(code, 0, "{err}");
    let want = r#"{"structuredContent":{"zeta":1,"alpha":{"y":2,"b":3}},"content":[{"type":"text","text":"{\"zeta\":1,\"alpha\":{\"y\":2,\"b\":3}}"}]}"#;
    assert_eq!(out, format!("{want}\n"));
    // The library keeps both: the parsed value and the module's text.
    let m = Module::from_file(&wasm).unwrap();
    let outcome = call(&m, "greet", "{}", &opts()).unwrap();
    assert_eq!(outcome.result_text.as_deref(), Some(want));
    assert_eq!(outcome.expect_ok()["structuredContent"]["alpha"]["b"], 3);
}

#[test]
fn bench_vs_labels_modules_by_path_when_their_names_collide() {
    let out = format!("{DISCOVER}\n{}", list_answer(json!([greet_tool("greet")])));
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a/hello.wasm"), dir.path().join("b/hello.wasm"));
    for p in [&a, &b] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, wat::parse_str(writer_wat(&out)).unwrap()).unwrap();
    }
    let o = BenchOptions { calls: 3, compiles: 1, tool: Some("greet".into()), ..BenchOptions::default() };
    let (code, text, err) = cli(&[
        "bench",
        a.to_str().unwrap(),
        "--vs",
        b.to_str().unwrap(),
        "--calls",
        "3",
        "--compiles",
        "1",
        "--tool",
        "greet",
    ]);
    // The module answers discover and tools/list, not the call: the
    // figures are printed, and the exit says they are a failure's.
    assert_eq!(code, 1, "{err}");
    let header = text.lines().next().unwrap();
    assert!(header.contains(a.to_str().unwrap()) && header.contains(b.to_str().unwrap()), "{text}");
    assert!(text.contains(&format!("tool called in {}: greet", b.display())), "{text}");
    // The columns stay aligned: every figure row is as long as the header.
    let rows: Vec<&str> = text.lines().take_while(|l| !l.starts_with("compile b/a")).collect();
    assert!(rows.iter().all(|r| r.chars().count() == header.chars().count()), "{text}");
    // Distinct names: just the file names.
    let c = dir.path().join("a/other.wasm");
    std::fs::copy(&a, &c).unwrap();
    let header = bench(&a, Some(&c), &o).unwrap().to_text().lines().next().unwrap().to_string();
    assert!(
        header.contains("hello.wasm")
            && header.contains("other.wasm")
            && !header.contains(dir.path().to_str().unwrap()),
        "{header}"
    );
}

/// What upload accepts but the recipe would have avoided is said, with the
/// fix: a module at rustc's 17-page default stack, a build with debug info.
#[test]
fn check_warns_of_a_start_above_two_pages_and_of_debug_info() {
    let plain = wat::parse_str(r#"(module (memory (export "memory") 2) (func (export "_start")))"#).unwrap();
    assert!(check(&plain, None).warnings.is_empty(), "{:?}", check(&plain, None).warnings);

    let big = wat::parse_str(r#"(module (memory (export "memory") 17) (func (export "_start")))"#).unwrap();
    let warnings = check(&big, None).warnings;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].starts_with("the module starts at 17 memory pages"), "{}", warnings[0]);
    assert!(
        warnings[0].contains("-zstack-size=65536") && warnings[0].contains("Use it in your package"),
        "{}",
        warnings[0]
    );

    // A custom section named as DWARF's are.
    let mut debug = plain.clone();
    let name = b".debug_info";
    debug.extend([0, (name.len() + 2) as u8, name.len() as u8]);
    debug.extend(name);
    debug.push(0);
    let warnings = check(&debug, None).warnings;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("debug info") && warnings[0].contains("strip = true"), "{}", warnings[0]);
}

/// A reader that stops early (`subako-tiny call … | head -c 300`) ends the
/// CLI quietly: no panic about a broken pipe, a successful exit.
#[test]
fn cli_call_into_a_pipe_closed_early_ends_quietly() {
    let module = example_wasm("hello");
    let dir = tempfile::tempdir().unwrap();
    let args = dir.path().join("args.json");
    // An answer larger than a pipe holds, so the write meets the closed
    // end whenever it comes.
    std::fs::write(&args, format!(r#"{{"name": "{}"}}"#, "x".repeat(200_000))).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_subako-tiny"))
        .arg("call")
        .arg(&module)
        .arg("greet")
        .arg("--args-file")
        .arg(&args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `bench --growth` makes its own lines on volumes of its own: an option of
/// a plain call is refused with what to run instead, not dropped unsaid
/// (an outside author's --data and --args were, and every cell read `-`).
#[test]
fn cli_growth_refuses_the_options_it_would_drop() {
    let module = example_wasm("hello");
    let dir = tempfile::tempdir().unwrap();
    for extra in [&["--data", dir.path().to_str().unwrap()][..], &["--args", "{}"]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_subako-tiny"))
            .arg("bench")
            .arg("--growth")
            .arg(&module)
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?}: {stderr}");
        assert!(stderr.contains(&format!("--growth takes no {}", extra[0])), "{stderr}");
        assert!(stderr.contains("--args-file F"), "{stderr}");
    }
}

/// A module that never answers its manifest: `call` asks it within the
/// call's own time limit, not the upload check's 10 s, and says that it
/// fell back to `module` (review 71: 11 s for a 1 s limit, and silent).
#[test]
fn cli_call_asks_the_manifest_within_the_time_limit_and_says_when_it_fails() {
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("loop.wasm");
    let wat = r#"(module (memory (export "memory") 1) (func (export "_start") (loop $l (br $l))))"#;
    std::fs::write(&wasm, wat::parse_str(wat).unwrap()).unwrap();
    let started = std::time::Instant::now();
    let (code, out, err) = cli(&["call", wasm.to_str().unwrap(), "greet", "{}", "--time-limit-ms", "300"]);
    let took = started.elapsed();
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(
            "the package's name could not be read (`module --subako-manifest` ended with its time limit reached); \
             argv[0] is \"module\" (--package NAME sets it)"
        ),
        "{err}"
    );
    assert!(out.contains("crashed"), "{out}");
    // Two runs of 300 ms, where the manifest's alone took 10 s.
    assert!(took < Duration::from_secs(8), "{took:?}");
}

/// A lone surrogate in a `--then` call's arguments is refused naming that
/// call (review 72), before any call is made.
#[test]
fn cli_call_names_the_then_call_whose_arguments_hold_a_lone_surrogate() {
    let hello = example_wasm("hello");
    let (code, out, err) =
        cli(&["call", hello.to_str().unwrap(), "greet", r#"{"name":"a"}"#, "--then", "greet", r#"{"name":"\udc00"}"#]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(r"--then greet: arguments are not JSON a tool reads: \udc00 at byte 9 is a lone surrogate"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
    // With the tool called more than once after the first, which of them
    // (review 74).
    let (a, bad) = (r#"{"name":"a"}"#, r#"{"name":"\udc00"}"#);
    let (code, out, err) =
        cli(&["call", hello.to_str().unwrap(), "greet", a, "--then", "greet", a, "--then", "greet", bad]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains(r"--then greet (the 2nd --then): arguments are not JSON a tool reads: \udc00"), "{err}");
    assert!(out.is_empty(), "{out}");
}
