//! Every limit ends in a clear error, and the module keeps serving or exits
//! with a code that says why: line length, nesting depth, object size,
//! stdin read errors and stdout write errors, on the host. (Memory
//! exhaustion is only real in wasm: `tests/e2e/tests/no_trap.rs`.)

#[path = "../examples/hello.rs"]
mod hello;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use subako_tiny::__test::{self as protocol, Io, IoError, MemoryIo};
use subako_tiny::Package;

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn discover(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"server/discover","params":{{{META}}}}}"#)
}

fn greet(id: u32, name: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"greet","arguments":{{"name":"{name}"}},{META}}}}}"#
    )
}

/// The answers, parsed; the exit code must be 0.
fn answers(package: &Package, stdin: &[u8]) -> Vec<Value> {
    let (stdout, code) = subako_tiny::execute(package, &["hello"], stdin);
    assert_eq!(code, 0);
    parse_lines(&stdout)
}

fn parse_lines(stdout: &[u8]) -> Vec<Value> {
    assert!(stdout.is_empty() || stdout.ends_with(b"\n"));
    stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect()
}

fn error(answer: &Value) -> (i64, &str) {
    (answer["error"]["code"].as_i64().unwrap(), answer["error"]["message"].as_str().unwrap())
}

/// Stdin handed over `chunk` bytes per read, as a pipe may hand it.
struct Trickle<'a> {
    memory: MemoryIo<'a>,
    chunk: usize,
}

impl Io for Trickle<'_> {
    fn read(&mut self, buf: &mut Vec<u8>) -> Result<usize, IoError> {
        let stdin = &mut self.memory.stdin;
        let (now, rest) = stdin.split_at((buf.capacity() - buf.len()).min(self.chunk).min(stdin.len()));
        buf.extend_from_slice(now);
        *stdin = rest;
        Ok(now.len())
    }
    fn write(&mut self, bytes: &[u8]) -> Result<(), IoError> {
        self.memory.write(bytes)
    }
}

fn serve_trickled(package: &Package, stdin: &[u8], chunk: usize) -> Vec<Value> {
    let mut io = Trickle { memory: MemoryIo { stdin, stdout: Vec::new() }, chunk };
    assert_eq!(protocol::serve_package(package, false, &mut io, &protocol::RunPlain), 0);
    parse_lines(&io.memory.stdout)
}

#[test]
fn a_line_over_the_package_limit_is_refused_and_the_next_is_served() {
    const SMALL: Package = hello::PACKAGE.max_line(300);
    let fits = greet(1, &"a".repeat(300 - greet(1, "").len()));
    assert_eq!(fits.len(), 300);
    let over = greet(2, &"a".repeat(301 - greet(2, "").len()));
    let stdin = format!("{fits}\n{over}\n{}\n{over}", discover(3));
    // However the bytes arrive: all at once, or a few at a time.
    for answers in [
        answers(&SMALL, stdin.as_bytes()),
        serve_trickled(&SMALL, stdin.as_bytes(), 7),
        serve_trickled(&SMALL, stdin.as_bytes(), 4096),
    ] {
        assert_eq!(answers.len(), 4, "{answers:?}");
        assert_eq!(answers[0]["id"], 1);
        assert!(answers[0]["result"]["structuredContent"]["message"].is_string());
        assert_eq!(error(&answers[1]), (-32600, "line too long: over 300 bytes"));
        assert!(answers[1]["id"].is_null());
        assert_eq!(answers[2]["id"], 3);
        assert!(answers[2]["result"].is_object());
        // The last line, without its newline, is refused the same way.
        assert_eq!(error(&answers[3]), (-32600, "line too long: over 300 bytes"));
    }
}

#[test]
fn lines_are_split_alike_however_the_bytes_arrive() {
    // Names of every length around the eight-byte steps of the newline
    // search, non-ASCII and escaped ones among them, a CRLF line and a last
    // line without its newline; partial lines moved to the front of the
    // buffer at every offset.
    let mut stdin = String::new();
    let mut names = Vec::new();
    for n in 0..40 {
        let name = match n % 3 {
            0 => "x".repeat(n),
            1 => "é".repeat(n),
            _ => r"é".repeat(n),
        };
        names.push(if n % 3 == 2 { "é".repeat(n) } else { name.clone() });
        stdin.push_str(&greet(n as u32, &name));
        stdin.push_str(if n == 7 { "\r\n" } else { "\n" });
    }
    stdin.push_str(&discover(99));
    let whole = answers(&hello::PACKAGE, stdin.as_bytes());
    assert_eq!(whole.len(), 41);
    for (n, name) in names.iter().enumerate() {
        assert_eq!(whole[n]["id"], n);
        assert_eq!(whole[n]["result"]["structuredContent"]["message"], format!("Hello, {name}!"));
    }
    assert_eq!(whole[40]["id"], 99);
    for chunk in [1, 2, 3, 5, 7, 8, 9, 13, 64, 4095] {
        assert_eq!(serve_trickled(&hello::PACKAGE, stdin.as_bytes(), chunk), whole, "{chunk}-byte reads");
    }
}

#[test]
fn the_default_limit_is_16_mib() {
    assert_eq!(hello::PACKAGE.max_line, 16 << 20);
    assert_eq!(subako_tiny::__test::DEFAULT_MAX_LINE, 16 << 20);
    // Padding after the value is white space, so this line is a request of
    // exactly the limit; one byte more is refused.
    let request = discover(1);
    let mut stdin = request.clone().into_bytes();
    stdin.resize(16 << 20, b' ');
    stdin.push(b'\n');
    stdin.extend_from_slice(request.as_bytes());
    stdin.resize(stdin.len() + (16 << 20) + 1 - request.len(), b' ');
    stdin.push(b'\n');
    stdin.extend_from_slice(discover(3).as_bytes());
    let answers = answers(&hello::PACKAGE, &stdin);
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[0]["id"], 1);
    assert_eq!(error(&answers[1]), (-32600, "line too long: over 16777216 bytes"));
    assert_eq!(answers[2]["id"], 3);
}

/// `{"x": [[…]], …request}`: the request with `levels` levels of nesting in all.
fn nested_request(levels: usize) -> String {
    let arrays = levels - 1; // the message object is the first level
    format!(
        r#"{{"x":{}{},"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{META}}}}}"#,
        "[".repeat(arrays),
        "]".repeat(arrays)
    )
}

#[test]
fn nesting_127_deep_is_read_and_128_is_a_parse_error() {
    let both = answers(&hello::PACKAGE, format!("{}\n{}\n", nested_request(127), nested_request(128)).as_bytes());
    assert_eq!(both.len(), 2);
    assert_eq!(both[0]["id"], 1);
    assert!(both[0]["result"].is_object());
    let (code, message) = error(&both[1]);
    assert_eq!(code, -32700);
    // The column of the 128th opening: `{` is the first, then `"x":` and 127 `[`.
    assert_eq!(message, "not JSON: recursion limit exceeded at column 132");
    assert!(both[1]["id"].is_null());
    // However deep: a megabyte of brackets is refused as quickly.
    let deep = answers(&hello::PACKAGE, "[".repeat(1 << 20).as_bytes());
    assert_eq!(error(&deep[0]).0, -32700);
}

/// A call of `greet` whose `name` is `levels` arrays deep.
fn nested_arguments(levels: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"greet","arguments":{{"name":{}{}}},{META}}}}}"#,
        "[".repeat(levels),
        "]".repeat(levels)
    )
}

#[test]
fn arguments_nest_124_levels_inside_the_request() {
    // The request, `params` and `arguments` are three of the 127 (the
    // guide's limits page says so).
    let both = answers(&hello::PACKAGE, format!("{}\n{}\n", nested_arguments(124), nested_arguments(125)).as_bytes());
    assert_eq!(both.len(), 2);
    assert_eq!(both[0]["result"]["isError"], true, "the tool refuses it, not the reader: {}", both[0]);
    assert_eq!(error(&both[1]).0, -32700);
    assert!(error(&both[1]).1.starts_with("not JSON: recursion limit exceeded"));
}

// Linearity (an object of many members, a long line) is counted in fuel in
// wasmtime: tests/e2e/tests/linearity.rs.

/// Stdin that serves `stdin` and then fails with `errno`.
struct FailingStdin<'a> {
    memory: MemoryIo<'a>,
    errno: u16,
}

impl Io for FailingStdin<'_> {
    fn read(&mut self, buf: &mut Vec<u8>) -> Result<usize, IoError> {
        match self.memory.read(buf)? {
            0 => Err(IoError { errno: self.errno }),
            n => Ok(n),
        }
    }
    fn write(&mut self, bytes: &[u8]) -> Result<(), IoError> {
        self.memory.write(bytes)
    }
}

#[test]
fn a_stdin_read_error_is_answered_with_32603_and_the_module_exits_0() {
    let stdin = format!("{}\n{}", discover(1), discover(2));
    let mut io = FailingStdin { memory: MemoryIo { stdin: stdin.as_bytes(), stdout: Vec::new() }, errno: 8 };
    assert_eq!(protocol::serve_package(&hello::PACKAGE, false, &mut io, &protocol::RunPlain), 0);
    let answers = parse_lines(&io.memory.stdout);
    // The whole line before the error is served; the partial one is not.
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[0]["id"], 1);
    assert_eq!(error(&answers[1]), (-32603, "stdin unreadable: errno 8"));
    assert!(answers[1]["id"].is_null());
}

/// Stdout that fails every write.
struct BrokenStdout<'a> {
    memory: MemoryIo<'a>,
    writes: usize,
}

impl Io for BrokenStdout<'_> {
    fn read(&mut self, buf: &mut Vec<u8>) -> Result<usize, IoError> {
        self.memory.read(buf)
    }
    fn write(&mut self, _: &[u8]) -> Result<(), IoError> {
        self.writes += 1;
        Err(IoError { errno: 32 })
    }
}

#[test]
fn a_stdout_write_error_ends_serving_with_exit_code_2() {
    let stdin = format!("{}\n{}\n", discover(1), discover(2));
    let mut io = BrokenStdout { memory: MemoryIo { stdin: stdin.as_bytes(), stdout: Vec::new() }, writes: 0 };
    assert_eq!(protocol::serve_package(&hello::PACKAGE, false, &mut io, &protocol::RunPlain), 2);
    assert_eq!(io.writes, 1, "nothing is written after stdout broke");
    let mut io = BrokenStdout { memory: MemoryIo { stdin: b"", stdout: Vec::new() }, writes: 0 };
    assert_eq!(protocol::serve_package(&hello::PACKAGE, true, &mut io, &protocol::RunPlain), 2, "the manifest too");
}

/// The hello example built for the host, as `cargo run --example hello`
/// builds it (in its own target directory: the outer cargo holds ours).
fn hello_binary() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let target = root.join("target/e2e/host");
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&root)
        .args(["build", "--quiet", "--example", "hello", "--target-dir"])
        .arg(&target)
        .status()
        .unwrap();
    assert!(status.success());
    target.join("debug/examples/hello")
}

/// Runs the hello binary on `stdin` with `stdout` as its stdout; the exit
/// code, which must come within 10 s.
fn exit_code(binary: &PathBuf, stdout: Stdio, stdin: &[u8], close_pipe: bool) -> i32 {
    exit_code_of(Command::new(binary), stdout, stdin, close_pipe)
}

/// [`exit_code`] of any command.
fn exit_code_of(mut command: Command, stdout: Stdio, stdin: &[u8], close_pipe: bool) -> i32 {
    let mut child = command.stdin(Stdio::piped()).stdout(stdout).stderr(Stdio::null()).spawn().unwrap();
    if close_pipe {
        drop(child.stdout.take()); // the reader goes away before anything is written
    }
    let mut input = child.stdin.take().unwrap();
    // The module may exit before reading everything: a broken stdin pipe is fine.
    let _ = input.write_all(stdin);
    drop(input);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().expect("an exit code, not a signal");
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the module did not exit within 10 s of its stdout breaking");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_real_process_exits_2_when_its_stdout_is_gone() {
    let hello = hello_binary();
    let stdin: String = (1..=1000).map(|id| discover(id) + "\n").collect();
    // A pipe whose reader is gone (EPIPE: std ignores SIGPIPE).
    assert_eq!(exit_code(&hello, Stdio::piped(), stdin.as_bytes(), true), 2);
    // A full device (ENOSPC).
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        assert_eq!(exit_code(&hello, Stdio::from(full), stdin.as_bytes(), false), 2);
    }
    // And a working stdout for contrast.
    assert_eq!(exit_code(&hello, Stdio::null(), stdin.as_bytes(), false), 0);
    // Started with no stdout at all, a native build writes to /dev/null, as
    // the guide's limits page says: std opens the missing descriptor there
    // before `main` (a module's fd_write fails, and it exits 2).
    if cfg!(unix) {
        let mut closed = Command::new("sh");
        closed.args(["-c", "exec \"$0\" >&-"]).arg(&hello);
        assert_eq!(exit_code_of(closed, Stdio::null(), stdin.as_bytes(), false), 0);
    }
}

/// A line that is not JSON is answered at serde_json's column for the line
/// without its newline: the byte at fault, or the line's length where the
/// line ends too soon (an empty line at column 0, not past its newline).
#[test]
fn a_line_that_is_not_json_is_answered_at_serde_jsons_column() {
    for line in ["", "   ", "\r", "nul", "tru", "not json", "{\"a\":1", "[1,2", "{\"a\" 1}", "{} x", "{\"a\":1}}"] {
        let theirs = serde_json::from_str::<serde_json::Value>(line).unwrap_err().column();
        // Without a newline: the last line of the stream (an empty one is none).
        for ending in if line.is_empty() { &["\n"][..] } else { &["\n", ""][..] } {
            let answers = answers(&hello::PACKAGE, format!("{line}{ending}").as_bytes());
            assert_eq!(answers.len(), 1, "{line:?}");
            let (code, message) = error(&answers[0]);
            assert_eq!(code, -32700, "{line:?}");
            assert!(
                message.ends_with(&format!(" at column {theirs}")),
                "{line:?}{ending:?}: {message} (serde_json: column {theirs})"
            );
        }
    }
}

#[test]
fn a_member_given_twice_is_read_as_its_last() {
    // As the official SDK reads it (the guide's limits page).
    let line = greet(1, "A").replace(r#"{"name":"A"}"#, r#"{"name":"A","name":"B"}"#);
    let answer = &answers(&hello::PACKAGE, format!("{line}\n").as_bytes())[0];
    assert_eq!(answer["result"]["structuredContent"]["message"], "Hello, B!", "{answer}");
}
