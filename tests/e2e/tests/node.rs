//! A second engine: the same `.wasm` modules run in Node's built-in WASI
//! (V8, through `tests/e2e/node/run.mjs`) and in wasmtime (through the
//! runner), and the two must agree byte for byte: stdout, stderr, exit code,
//! and every file the module leaves in its volume. The platform says any
//! WASI preview 1 runtime can run a module; these tests hold the examples to
//! it for hello's golden transcript and for each example's manifest, upload
//! sequence and tool calls.
//!
//! Without `node` (20+) on the PATH each test says it is skipped and
//! passes, or fails when `SUBAKO_REQUIRE` names `node` (as in CI).

mod required;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use subako_tiny_e2e::{Variant, crate_root, example_variant, examples};
use subako_tiny_runner::{Exit, Module, PROTOCOL_VERSION, RunOptions, request_line, run};

const SKIPPED: &str = "node is not on the PATH; install Node.js 20+ to run the module under a second engine";
/// Per run, in either engine; the platform's own limit is 10 s.
const TIME_LIMIT: Duration = Duration::from_secs(30);

/// `node` on the PATH, if it is there and new enough for WASI preview 1;
/// otherwise `None`, having said why the test is skipped (or failed, when
/// node is required).
fn node() -> Option<PathBuf> {
    static NODE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = NODE.get_or_init(|| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let Some(node) = std::env::split_paths(&path).map(|dir| dir.join("node")).find(|p| p.is_file()) else {
            return Err(SKIPPED.to_string());
        };
        let version = Command::new(&node).arg("--version").output().expect("node --version runs");
        let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
        let major: u32 = version.trim_start_matches('v').split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0);
        if major < 20 {
            return Err(format!(
                "{} is Node.js {version}; install Node.js 20+ to run the module under a second engine",
                node.display()
            ));
        }
        Ok(node)
    });
    match found {
        Ok(node) => Some(node.clone()),
        Err(why) => {
            required::skip("node", why);
            None
        }
    }
}

fn script() -> PathBuf {
    crate_root().join("tests/e2e/node/run.mjs")
}

/// What one run of a module did.
#[derive(Debug)]
struct Ran {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// `(guest path, host dir, read_only)`, as the runner takes preopens.
type Preopens = [(String, PathBuf, bool)];

/// One run in Node: stdin from a file, stdout and stderr captured.
fn in_node(node: &Path, wasm: &Path, argv: &[String], stdin: &[u8], preopens: &Preopens) -> Ran {
    let mut input = tempfile::NamedTempFile::new().unwrap();
    input.write_all(stdin).unwrap();
    input.flush().unwrap();
    let mut command = Command::new(node);
    command.arg(script()).arg("--stdin").arg(input.path());
    for (guest, host, _) in preopens {
        command.arg("--dir").arg(format!("{guest}={}", host.display()));
    }
    command.arg(wasm).args(argv).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().expect("node starts");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIME_LIMIT {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{} {argv:?} ran for more than {TIME_LIMIT:?} in node", wasm.display());
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Ran { code: status.code(), stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() }
}

/// The same run in wasmtime, as the runner runs a call (exit within 1 s of
/// answering everything).
fn in_wasmtime(module: &Module, argv: &[String], stdin: &[u8], preopens: &Preopens) -> Ran {
    let options = RunOptions {
        argv: argv.to_vec(),
        stdin: stdin.to_vec(),
        preopens: preopens.to_vec(),
        time_limit: TIME_LIMIT,
        exit_grace: Some(Duration::from_secs(1)),
        ..RunOptions::default()
    };
    let output = run(module, &options).unwrap();
    let code = match output.exit {
        Exit::Code(code) => Some(code),
        other => panic!("{argv:?} in wasmtime: {other:?}\nstderr: {}", String::from_utf8_lossy(&output.stderr)),
    };
    Ran { code, stdout: output.stdout, stderr: output.stderr }
}

/// Every file and directory under a directory, sorted: relative path, and
/// the contents of files (`None` for a directory).
type Tree = Vec<(String, Option<Vec<u8>>)>;

/// The [`Tree`] of `dir`.
fn tree(dir: &Path) -> Tree {
    fn walk(root: &Path, dir: &Path, out: &mut Tree) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                out.push((name, None));
                walk(root, &path, out);
            } else {
                out.push((name, Some(std::fs::read(&path).unwrap())));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// One module, ready to run in both engines; each engine has its own
/// session volume (`/volume/tmp`), kept across the runs, as one session's
/// calls share it.
struct Engines {
    node: PathBuf,
    wasm: PathBuf,
    module: Module,
    node_volume: tempfile::TempDir,
    wasmtime_volume: tempfile::TempDir,
    /// Mounted read-only at `/package`, when the example has assets.
    assets: Option<PathBuf>,
    /// What the assets hold: Node's WASI has no read-only preopens, so no
    /// run may change them.
    assets_tree: Tree,
}

/// How a run sees the filesystem.
#[derive(Clone, Copy, PartialEq)]
enum Mounts {
    /// No preopens at all (the manifest).
    None,
    /// Only `/package` (the upload check: no volume).
    Package,
    /// `/volume/tmp`, then `/package` (a call).
    Call,
}

impl Engines {
    fn new(node: PathBuf, wasm: PathBuf, assets: Option<PathBuf>) -> Engines {
        let module = Module::from_file(&wasm).unwrap();
        let assets_tree = assets.as_deref().map(tree).unwrap_or_default();
        Engines {
            node,
            wasm,
            module,
            node_volume: tempfile::tempdir().unwrap(),
            wasmtime_volume: tempfile::tempdir().unwrap(),
            assets,
            assets_tree,
        }
    }

    fn preopens(&self, mounts: Mounts, volume: &Path) -> Vec<(String, PathBuf, bool)> {
        let mut preopens = Vec::new();
        if mounts == Mounts::Call {
            preopens.push(("/volume/tmp".to_string(), volume.to_path_buf(), false));
        }
        if mounts != Mounts::None
            && let Some(assets) = &self.assets
        {
            preopens.push(("/package".to_string(), assets.clone(), true));
        }
        preopens
    }

    /// Runs `stdin` in both engines; asserts they agree on everything and
    /// that the module exited 0. Returns the stdout.
    fn agree(&self, argv: &[String], stdin: &[u8], mounts: Mounts) -> Vec<u8> {
        let v8 = in_node(&self.node, &self.wasm, argv, stdin, &self.preopens(mounts, self.node_volume.path()));
        let wt = in_wasmtime(&self.module, argv, stdin, &self.preopens(mounts, self.wasmtime_volume.path()));
        let what = format!("{} {argv:?} with stdin {}", self.wasm.display(), String::from_utf8_lossy(stdin));
        assert_eq!(
            String::from_utf8_lossy(&v8.stdout),
            String::from_utf8_lossy(&wt.stdout),
            "stdout, node (left) and wasmtime (right), for {what}\nnode's stderr: {}",
            String::from_utf8_lossy(&v8.stderr)
        );
        assert_eq!(v8.stdout, wt.stdout, "stdout bytes for {what}");
        assert_eq!(
            String::from_utf8_lossy(&v8.stderr),
            String::from_utf8_lossy(&wt.stderr),
            "stderr, node (left) and wasmtime (right), for {what}"
        );
        assert_eq!(v8.code, Some(0), "node's exit for {what}\nstderr: {}", String::from_utf8_lossy(&v8.stderr));
        assert_eq!(wt.code, Some(0), "wasmtime's exit for {what}");
        assert_eq!(
            tree(self.node_volume.path()),
            tree(self.wasmtime_volume.path()),
            "the volume, node (left) and wasmtime (right), after {what}"
        );
        if let Some(assets) = &self.assets {
            assert_eq!(tree(assets), self.assets_tree, "{} changed after {what}", assets.display());
        }
        v8.stdout
    }
}

/// Each stdout line as a JSON-RPC 2.0 message; exactly `count` of them.
fn messages(stdout: &[u8], count: usize) -> Vec<Value> {
    let text = std::str::from_utf8(stdout).expect("stdout is UTF-8");
    assert!(count == 0 || text.ends_with('\n'), "the last line is unterminated: {text:?}");
    let lines: Vec<Value> = text
        .lines()
        .map(|line| {
            let message: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            assert_eq!(message["jsonrpc"], json!("2.0"), "{line}");
            message
        })
        .collect();
    assert_eq!(lines.len(), count, "{text}");
    lines
}

/// Each block of `tests/golden/hello.transcript`: its stdin, and how many
/// lines the official SDK answered it with.
fn transcript() -> Vec<(String, usize)> {
    let text = std::fs::read_to_string(crate_root().join("tests/golden/hello.transcript")).unwrap();
    text.split("\n\n")
        .map(|block| {
            let stdin: String = block.lines().filter_map(|l| l.strip_prefix("> ")).map(|r| format!("{r}\n")).collect();
            (stdin, block.lines().filter(|l| l.starts_with("< ")).count())
        })
        .filter(|(stdin, _)| !stdin.is_empty())
        .collect()
}

#[test]
fn node_answers_hello_s_golden_transcript_as_wasmtime_does() {
    let Some(node) = node() else { return };
    let blocks = transcript();
    assert!(blocks.len() > 100, "the transcript has {} blocks", blocks.len());
    let argv = vec!["hello".to_string()];
    // One run per block, as the transcript was made, a few at a time; with
    // dlmalloc only (each node start costs about 0.1 s): the lean build
    // answers them all in the one run below.
    let engines = Engines::new(node.clone(), example_variant("hello", &Variant::default()), None);
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get().min(8));
    std::thread::scope(|s| {
        for part in blocks.chunks(blocks.len().div_ceil(threads)) {
            let (engines, argv) = (&engines, &argv);
            s.spawn(move || {
                for (stdin, answers) in part {
                    let stdout = engines.agree(argv, stdin.as_bytes(), Mounts::None);
                    messages(&stdout, *answers);
                }
            });
        }
    });
    for variant in [Variant::default(), Variant::lean()] {
        let engines = Engines::new(node.clone(), example_variant("hello", &variant), None);
        // All of them on one stdin, in one instance.
        let all: String = blocks.iter().map(|(stdin, _)| stdin.as_str()).collect();
        let stdout = engines.agree(&argv, all.as_bytes(), Mounts::None);
        messages(&stdout, blocks.iter().map(|(_, answers)| answers).sum());
        // The manifest, without reading stdin.
        let manifest = engines.agree(&["hello".into(), "--subako-manifest".into()], b"ignored\n", Mounts::None);
        assert_eq!(
            String::from_utf8(manifest).unwrap(),
            "{\n  \"abi\": 1,\n  \"name\": \"hello\",\n  \"description\": \"Says hello.\"\n}\n"
        );
    }
}

/// Checks a call's result; the path is node's `/volume/tmp`.
type Check = Box<dyn Fn(&Value, &Path)>;

/// The arguments of the one call of `tool`, and what its result must say.
/// A tool this table does not know yet gets plain arguments from its schema
/// and only the shape of a result is checked.
fn call_of(tool: &str, schema: &Value) -> (Value, Check) {
    let structured = |expected: Value| -> Check {
        Box::new(move |result, _| {
            assert_eq!(result.get("isError"), None, "{result}");
            assert_eq!(result["structuredContent"], expected, "{result}");
            assert_eq!(result["content"][0]["text"], json!(expected.to_string()), "{result}");
        })
    };
    let no_http: Check = Box::new(|result, _| {
        assert_eq!(result["isError"], json!(true), "{result}");
        let text = result["content"][0]["text"].as_str().unwrap();
        // `send_ok` names the request first (rates); `send` does not (fetch).
        assert!(
            text.starts_with("HTTP request failed (abi): ") && text.contains("subako_http returned -1: "),
            "{text}"
        );
    });
    let order = json!({
        "items": [{"sku": "A-1", "qty": 3, "unit_price": 2.5}, {"sku": "B-2", "qty": 1, "unit_price": 0.1}],
        "currency": "EUR",
        "coupon": "SAVE10",
    });
    match tool {
        "greet" => (json!({"name": "Ada"}), structured(json!({"message": "Hello, Ada!"}))),
        "echo" => (
            json!({"text": "hé \"q\" 😀\n", "times": 2}),
            Box::new(|result, _| {
                assert_eq!(result.get("isError"), None, "{result}");
                assert_eq!(result["content"], json!([{"type": "text", "text": "hé \"q\" 😀\nhé \"q\" 😀\n"}]));
            }),
        ),
        "fetch" => (json!({"url": "https://example.com/"}), no_http),
        "convert" => (json!({"amount": 10, "from": "EUR", "to": "USD"}), no_http),
        "history" => (json!({}), structured(json!({"entries": []}))),
        "save" => (
            json!({"name": "n.txt", "text": "ノード\n"}),
            Box::new(|result, volume| {
                assert_eq!(result["structuredContent"], json!({"path": "/volume/tmp/files/n.txt", "bytes": 10}));
                assert_eq!(std::fs::read_to_string(volume.join("files/n.txt")).unwrap(), "ノード\n");
            }),
        ),
        // After `save`: the calls of one example share a session volume.
        "load" => (json!({"name": "n.txt"}), structured(json!({"text": "ノード\n"}))),
        "list" => (json!({}), structured(json!({"names": ["n.txt"]}))),
        "template" => {
            let greeting = std::fs::read_to_string(crate_root().join("examples/assets/files/templates/greeting.txt"));
            (json!({"name": "greeting"}), structured(json!({"text": greeting.unwrap()})))
        }
        "plot" => (
            json!({"values": [3, -1, 2.5], "title": "node", "width": 96, "height": 64}),
            Box::new(|result, volume| {
                assert_eq!(result.get("isError"), None, "{result}");
                let value = &result["structuredContent"];
                assert_eq!((&value["width"], &value["height"]), (&json!(96), &json!(64)), "{result}");
                let guest = value["path"].as_str().unwrap();
                let png = std::fs::read(volume.join(guest.strip_prefix("/volume/tmp/").unwrap())).unwrap();
                assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{guest} is no PNG");
                assert_eq!(value["bytes"], json!(png.len()), "{result}");
            }),
        ),
        "order_total" => (order, structured(json!({"currency": "EUR", "lines": 2, "total": 6.84}))),
        _ => {
            let mut args = serde_json::Map::new();
            for (name, property) in schema["properties"].as_object().into_iter().flatten() {
                let value = match property["type"].as_str() {
                    Some("string") => json!("text"),
                    Some("integer") => json!(property["minimum"].as_i64().unwrap_or(1).max(1)),
                    Some("number") => json!(1.5),
                    Some("boolean") => json!(false),
                    Some("array") => json!([]),
                    Some("object") => json!({}),
                    _ => json!(null),
                };
                args.insert(name.clone(), value);
            }
            (
                Value::Object(args),
                Box::new(|result, _| {
                    let blocks = result["content"].as_array().unwrap_or_else(|| panic!("no content: {result}"));
                    assert!(!blocks.is_empty(), "{result}");
                }),
            )
        }
    }
}

#[test]
fn every_example_answers_the_same_in_node_and_wasmtime() {
    let Some(node) = node() else { return };
    let all = examples();
    assert!(all.len() >= 8, "{all:?}");
    let mut calls = 0;
    for (name, features) in all {
        let mut variant = Variant::default();
        variant.features.extend_from_slice(&features);
        let assets = crate_root().join("examples/assets").join(&name);
        let engines = Engines::new(node.clone(), example_variant(&name, &variant), assets.is_dir().then_some(assets));

        // The manifest, without reading stdin; its name is the package's argv.
        let manifest = engines.agree(&[name.clone(), "--subako-manifest".into()], b"ignored\n", Mounts::None);
        let manifest: Value = serde_json::from_slice(&manifest).unwrap();
        assert_eq!(manifest["abi"], json!(1), "{name}: {manifest}");
        assert!(manifest["description"].as_str().is_some_and(|d| !d.is_empty()), "{name}: {manifest}");
        let argv = vec![manifest["name"].as_str().unwrap().to_string()];

        // The upload check's run: discover, then the list, on one stdin.
        let mut upload = request_line("discover-1", "server/discover", json!({}));
        upload.push_str(&request_line("tools-list-1", "tools/list", json!({})));
        let stdout = engines.agree(&argv, upload.as_bytes(), Mounts::Package);
        let answers = messages(&stdout, 2);
        assert_eq!(answers[0]["id"], json!("discover-1"));
        assert_eq!(answers[0]["result"]["supportedVersions"], json!([PROTOCOL_VERSION]), "{name}");
        assert!(answers[0]["result"]["capabilities"]["tools"].is_object(), "{name}");
        assert_eq!(answers[1]["id"], json!("tools-list-1"));
        let tools = answers[1]["result"]["tools"].as_array().unwrap_or_else(|| panic!("{name}: {}", answers[1]));
        assert!(!tools.is_empty(), "{name} lists no tools");

        // One call of each tool, each in a fresh instance of the session.
        for tool in tools {
            let tool_name = tool["name"].as_str().unwrap();
            let (args, check) = call_of(tool_name, &tool["inputSchema"]);
            let stdin = request_line("call-1", "tools/call", json!({"name": tool_name, "arguments": args}));
            let stdout = engines.agree(&argv, stdin.as_bytes(), Mounts::Call);
            let answer = messages(&stdout, 1).remove(0);
            assert_eq!(answer["id"], json!("call-1"), "{name} {tool_name}: {answer}");
            assert_eq!(answer["result"]["resultType"], json!("complete"), "{name} {tool_name}: {answer}");
            check(&answer["result"], engines.node_volume.path());
            calls += 1;
        }
    }
    assert!(calls >= 12, "{calls} calls");
}
