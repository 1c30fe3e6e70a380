//! The fetch example in real wasmtime, through the runner's `subako_http`
//! host, against an HTTP server this test starts on 127.0.0.1; and the
//! import sections that show only a module that fetches imports
//! `subako_http`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use subako_tiny_runner::{CallOptions, CallOutcome, HttpConfig, Module, call};

/// The bytes `/binary` serves: every byte value, four times (not UTF-8).
fn binary_body() -> Vec<u8> {
    (0..1024).map(|i| (i % 256) as u8).collect()
}

/// Over the 256 KiB an inline body may hold.
const LARGE: usize = 300 * 1024;
/// How long `/slow` waits before answering.
const SLOW: Duration = Duration::from_secs(3);

/// A canned-route HTTP/1.1 server on 127.0.0.1; counts the requests it got.
struct Server {
    port: u16,
    hits: Arc<AtomicUsize>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = hits.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let counter = counter.clone();
                std::thread::spawn(move || serve(stream, port, &counter));
            }
        });
        Server { port, hits }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

fn serve(stream: TcpStream, port: u16, hits: &AtomicUsize) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    hits.fetch_add(1, Ordering::SeqCst);
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut headers = BTreeMap::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim_end().is_empty() {
            break;
        }
        if let Some((name, value)) = header.trim_end().split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_string());
        }
    }
    let length = headers.get("content-length").and_then(|n| n.parse().ok()).unwrap_or(0);
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).unwrap();

    let (status, content_type, extra, reply): (&str, &str, String, Vec<u8>) = match path.as_str() {
        "/echo" => {
            let echo = json!({"method": method, "path": path, "headers": headers,
                              "body": String::from_utf8_lossy(&body)});
            ("200 OK", "application/json", String::new(), echo.to_string().into_bytes())
        }
        "/text" => ("200 OK", "text/plain; charset=utf-8", "x-served-by: canned\r\n".into(), b"plain text\n".to_vec()),
        "/binary" => ("200 OK", "application/octet-stream", String::new(), binary_body()),
        "/large" => ("200 OK", "text/plain", String::new(), vec![b'a'; LARGE]),
        "/redirect" => ("302 Found", "text/plain", "location: /text\r\n".into(), b"moved".to_vec()),
        "/repeated" => (
            "200 OK",
            "text/plain",
            "x-a: 1\r\nset-cookie: a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\r\nX-A: 2\r\nset-cookie: b=2\r\n".into(),
            b"twice".to_vec(),
        ),
        "/redirect-out" => {
            let out = format!("location: http://localhost:{port}/text\r\n");
            ("302 Found", "text/plain", out, b"moved".to_vec())
        }
        "/slow" => {
            std::thread::sleep(SLOW);
            ("200 OK", "text/plain", String::new(), b"late".to_vec())
        }
        _ => ("404 Not Found", "text/plain", String::new(), b"no such route".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n{extra}\r\n",
        reply.len()
    );
    let mut stream = stream;
    // The client may have given up (the timeout test): nothing to do then.
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&reply));
}

fn fetch_module() -> &'static Module {
    static MODULE: OnceLock<Module> = OnceLock::new();
    MODULE.get_or_init(|| Module::from_file(subako_tiny_e2e::example("fetch")).unwrap())
}

fn grant() -> Option<HttpConfig> {
    Some(HttpConfig { allow_hosts: vec!["127.0.0.1".into()], allow_loopback: true })
}

fn fetch_with(arguments: Value, http: Option<HttpConfig>) -> CallOutcome {
    let options = CallOptions { package: Some("fetch".into()), http, ..CallOptions::default() };
    call(fetch_module(), "fetch", arguments, &options).unwrap()
}

fn fetch(arguments: Value) -> CallOutcome {
    fetch_with(arguments, grant())
}

/// The structured result of a successful call, checked against its text twin.
fn fetched(outcome: &CallOutcome) -> Value {
    let result = outcome.expect_ok();
    assert_ne!(result["isError"], json!(true), "{result}");
    let structured = result["structuredContent"].clone();
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, structured);
    structured
}

fn failure(outcome: &CallOutcome) -> String {
    let result = outcome.expect_ok();
    assert_eq!(result["isError"], json!(true), "{result}");
    result["content"][0]["text"].as_str().unwrap().to_string()
}

#[test]
fn get_sends_the_headers_given() {
    let server = Server::start();
    let out = fetched(&fetch(json!({
        "url": server.url("/echo"),
        "headers": {"accept": "application/json", "x-request-id": "abc \"123\""},
    })));
    assert_eq!(out["status"], json!(200));
    assert_eq!(out["headers"]["content-type"], json!("application/json"));
    assert!(out.get("path").is_none() && out.get("bytes").is_none(), "{out}");
    let echo: Value = serde_json::from_str(out["body"].as_str().unwrap()).unwrap();
    assert_eq!(echo["method"], json!("GET"));
    assert_eq!(echo["path"], json!("/echo"));
    assert_eq!(echo["headers"]["accept"], json!("application/json"));
    assert_eq!(echo["headers"]["x-request-id"], json!("abc \"123\""));
    assert_eq!(echo["body"], json!(""));
}

/// The connection's headers are the worker's: a tool's `host` or
/// `content-length` does not reach the server (review 52: `host: evil`
/// did, though `Request::header` says they are the worker's own).
#[test]
fn the_connection_s_headers_are_not_the_tool_s() {
    let server = Server::start();
    let out = fetched(&fetch(json!({
        "url": server.url("/echo"),
        "headers": {"host": "evil.example", "content-length": "99", "connection": "upgrade", "x-kept": "yes"},
    })));
    let echo: Value = serde_json::from_str(out["body"].as_str().unwrap()).unwrap();
    assert_eq!(echo["headers"]["host"], json!(format!("127.0.0.1:{}", server.port)), "{echo}");
    assert!(echo["headers"].get("content-length").is_none_or(|n| n == "0"), "{echo}");
    assert_ne!(echo["headers"]["connection"], json!("upgrade"), "{echo}");
    assert_eq!(echo["headers"]["x-kept"], json!("yes"));
}

#[test]
fn post_sends_a_json_body() {
    let server = Server::start();
    let body = r#"{"order":1042,"note":"café ☃"}"#;
    let out = fetched(&fetch(json!({
        "url": server.url("/echo"),
        "method": "post",
        "headers": {"content-type": "application/json", "authorization": "Bearer t0k3n"},
        "body": body,
    })));
    assert_eq!(out["status"], json!(200));
    let echo: Value = serde_json::from_str(out["body"].as_str().unwrap()).unwrap();
    assert_eq!(echo["method"], json!("POST"));
    assert_eq!(echo["headers"]["content-type"], json!("application/json"));
    assert_eq!(echo["headers"]["authorization"], json!("Bearer t0k3n"));
    assert_eq!(echo["headers"]["content-length"], json!(body.len().to_string()));
    assert_eq!(echo["body"], json!(body));
    assert_eq!(serde_json::from_str::<Value>(echo["body"].as_str().unwrap()).unwrap()["order"], json!(1042));
}

#[test]
fn an_inline_text_response() {
    let server = Server::start();
    let out = fetched(&fetch(json!({"url": server.url("/text")})));
    assert_eq!(out["status"], json!(200));
    assert_eq!(out["body"], json!("plain text\n"));
    assert_eq!(out["headers"]["content-type"], json!("text/plain; charset=utf-8"));
    assert_eq!(out["headers"]["x-served-by"], json!("canned"));
    assert_eq!(out["headers"]["content-length"], json!("11"));
    // Another status comes back as it is, not as an error.
    let out = fetched(&fetch(json!({"url": server.url("/nowhere")})));
    assert_eq!(out["status"], json!(404));
    assert_eq!(out["body"], json!("no such route"));
}

/// A real server's repeated header lines reach the module joined, one
/// member per name (the worker joins them; the crate would too), cookies
/// included.
#[test]
fn repeated_headers_from_a_real_server_come_joined() {
    let server = Server::start();
    let out = fetched(&fetch(json!({"url": server.url("/repeated")})));
    assert_eq!(out["headers"]["x-a"], json!("1, 2"), "{out}");
    assert_eq!(out["headers"]["set-cookie"], json!("a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=2"), "{out}");
    assert_eq!(out["body"], json!("twice"));
}

#[test]
fn a_binary_response_saved_to_the_volume() {
    let server = Server::start();
    let outcome = fetch(json!({"url": server.url("/binary"), "save_to": "/volume/tmp/out.bin"}));
    let out = fetched(&outcome);
    assert_eq!(out["status"], json!(200));
    assert_eq!(out["path"], json!("/volume/tmp/out.bin"));
    assert_eq!(out["bytes"], json!(1024));
    assert!(out.get("body").is_none(), "{out}");
    assert_eq!(std::fs::read(outcome.tmp_dir.join("out.bin")).unwrap(), binary_body());

    // Into directories that do not exist yet: the platform creates them, as
    // the official SDK documents (author trial 42: the runner did not).
    let outcome = fetch(json!({"url": server.url("/binary"), "save_to": "/volume/tmp/pages/2026/out.bin"}));
    assert_eq!(fetched(&outcome)["bytes"], json!(1024));
    assert_eq!(std::fs::read(outcome.tmp_dir.join("pages/2026/out.bin")).unwrap(), binary_body());

    // Inline, the same body is refused, and the model is told what to do.
    let text = failure(&fetch(json!({"url": server.url("/binary")})));
    assert!(text.starts_with("HTTP request failed (not_text): "), "{text}");
    assert!(text.ends_with("save it to a file; call again with save_to set to a path under /volume/tmp"), "{text}");
}

#[test]
fn a_redirect_is_followed() {
    let server = Server::start();
    let out = fetched(&fetch(json!({"url": server.url("/redirect")})));
    assert_eq!(out["status"], json!(200));
    assert_eq!(out["body"], json!("plain text\n"));
    assert_eq!(server.hits(), 2);
}

#[test]
fn a_redirect_is_checked_against_the_grant() {
    let server = Server::start();
    let text = failure(&fetch(json!({"url": server.url("/redirect-out")})));
    assert!(text.starts_with("HTTP request failed (host_not_allowed): localhost"), "{text}");
    assert_eq!(server.hits(), 1);
}

#[test]
fn a_host_outside_the_allowlist_is_refused() {
    let server = Server::start();
    let url = format!("http://localhost:{}/text", server.port);
    let text = failure(&fetch(json!({"url": url})));
    assert!(text.starts_with("HTTP request failed (host_not_allowed): localhost"), "{text}");
    assert_eq!(server.hits(), 0, "the request must never leave");
}

#[test]
fn a_timeout() {
    let server = Server::start();
    let started = Instant::now();
    let text = failure(&fetch(json!({"url": server.url("/slow"), "timeout_ms": 300})));
    assert!(text.starts_with("HTTP request failed (timeout): "), "{text}");
    assert!(started.elapsed() < SLOW, "gave up after {:?}", started.elapsed());
}

#[test]
fn a_body_too_large_to_come_inline() {
    let server = Server::start();
    let text = failure(&fetch(json!({"url": server.url("/large")})));
    assert!(text.starts_with("HTTP request failed (too_large): "), "{text}");
    assert!(text.ends_with("save it to a file; call again with save_to set to a path under /volume/tmp"), "{text}");
    // Saved to a file, it comes whole.
    let outcome = fetch(json!({"url": server.url("/large"), "save_to": "/volume/tmp/large.txt"}));
    assert_eq!(fetched(&outcome)["bytes"], json!(LARGE));
    assert_eq!(std::fs::read(outcome.tmp_dir.join("large.txt")).unwrap(), vec![b'a'; LARGE]);
}

#[test]
fn save_to_outside_volume_tmp_is_refused() {
    let server = Server::start();
    let text = failure(&fetch(json!({"url": server.url("/text"), "save_to": "/volume/data/x.bin"})));
    assert!(text.starts_with("invalid input: `save_to` must be a file path under /volume/tmp"), "{text}");
    assert_eq!(server.hits(), 0);
}

#[test]
fn without_a_grant_the_platform_stub_fails_with_kind_abi() {
    let server = Server::start();
    let text = failure(&fetch_with(json!({"url": server.url("/text")}), None));
    assert!(text.starts_with("HTTP request failed (abi): subako_http returned -1: "), "{text}");
    assert_eq!(server.hits(), 0);
}

// --- Imports ---

/// `(module, name)` of every import in a wasm binary.
fn imports(wasm: &[u8]) -> Vec<(String, String)> {
    fn leb(b: &[u8], at: &mut usize) -> u64 {
        let (mut n, mut shift) = (0u64, 0);
        loop {
            let byte = b[*at];
            *at += 1;
            n |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return n;
            }
            shift += 7;
        }
    }
    fn name(b: &[u8], at: &mut usize) -> String {
        let len = leb(b, at) as usize;
        let s = String::from_utf8(b[*at..*at + len].to_vec()).unwrap();
        *at += len;
        s
    }
    assert_eq!(&wasm[..8], b"\0asm\x01\0\0\0", "a core module");
    let mut at = 8;
    while at < wasm.len() {
        let id = wasm[at];
        at += 1;
        let size = leb(wasm, &mut at) as usize;
        let end = at + size;
        if id == 2 {
            let mut found = Vec::new();
            for _ in 0..leb(wasm, &mut at) {
                let module = name(wasm, &mut at);
                let field = name(wasm, &mut at);
                let kind = wasm[at];
                at += 1;
                match kind {
                    0 => {
                        leb(wasm, &mut at); // type index
                    }
                    1 | 2 => {
                        if kind == 1 {
                            at += 1; // reference type
                        }
                        let flags = wasm[at];
                        at += 1;
                        leb(wasm, &mut at);
                        if flags & 1 != 0 {
                            leb(wasm, &mut at);
                        }
                    }
                    3 => at += 2, // value type, mutability
                    other => panic!("import kind {other}"),
                }
                found.push((module, field));
            }
            return found;
        }
        at = end;
    }
    Vec::new()
}

#[test]
fn only_a_module_that_fetches_imports_subako_http() {
    let hello = std::fs::read(subako_tiny_e2e::example("hello")).unwrap();
    let hello_imports = imports(&hello);
    assert!(!hello_imports.is_empty());
    assert!(hello_imports.iter().all(|(module, _)| module == "wasi_snapshot_preview1"), "{hello_imports:?}");

    let fetch = std::fs::read(subako_tiny_e2e::example("fetch")).unwrap();
    let mut http: Vec<String> =
        imports(&fetch).into_iter().filter(|(module, _)| module == "subako_http").map(|(_, name)| name).collect();
    http.sort();
    assert_eq!(http, ["read_response", "request"]);
    assert!(imports(&fetch).iter().all(|(m, _)| m == "subako_http" || m == "wasi_snapshot_preview1"));
    // And upload accepts it: `subako_http` is the one other import allowed.
    let report = subako_tiny_runner::check(&fetch, None);
    assert!(report.accepted(), "{:?}", report.failures);
    assert_eq!(report.tools.len(), 1);
    assert_eq!(report.tools[0].name, "fetch");
}
