//! `subako_tiny::http` on the host: the request JSON for every field (read
//! back with serde_json), the answer parser for every field, every error
//! kind and malformed answers, the 8 MiB refusal, the ABI codes, and the
//! fetch example's own checks. The real exchange runs in
//! `tests/e2e/tests/http.rs`, in wasmtime against a server.

#[path = "../examples/fetch.rs"]
mod fetch;

use serde_json::{Value, json};
use subako_tiny::JsonWriter;
use subako_tiny::http::raw::{ABI_LENGTH_MISMATCH, ABI_NOTHING_HELD, ABI_OUT_OF_BOUNDS};
use subako_tiny::http::{
    HttpError, HttpErrorKind, Method, REQUEST_MAX_BYTES, Request, Response, ResponseBody, parse_answer, raw,
};
use subako_tiny::{ToolError, execute};

fn written(request: &Request<'_>) -> Value {
    let bytes = request.to_json();
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&bytes)))
}

// --- The request writer ---

#[test]
fn a_get_has_every_default() {
    let request = Request::get("https://api.example.com/x?a=1&b=2");
    assert_eq!(
        written(&request),
        json!({"method": "GET", "url": "https://api.example.com/x?a=1&b=2", "headers": {},
               "output": {"type": "inline"}, "follow_redirects": true})
    );
    // Fields in the platform's order, no white space.
    assert_eq!(
        request.to_json(),
        br#"{"method":"GET","url":"https://api.example.com/x?a=1&b=2","headers":{},"output":{"type":"inline"},"follow_redirects":true}"#
    );
}

#[test]
fn every_method_is_written_by_its_name() {
    let names = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
    for (method, name) in Method::ALL.into_iter().zip(names) {
        assert_eq!(written(&Request::new(method, "https://h/"))["method"], json!(name));
        assert_eq!(Method::from_name(name), Some(method));
        assert_eq!(Method::from_name(&name.to_lowercase()), Some(method));
    }
    assert!(Request::post("https://h/").to_json().starts_with(br#"{"method":"POST""#));
    for refused in ["CONNECT", "TRACE", "TRACK", "", "GETS"] {
        assert_eq!(Method::from_name(refused), None, "{refused}");
    }
}

#[test]
fn url_and_headers_are_escaped() {
    let request = Request::get("https://h/\"quoted\"\\path")
        .header("accept", "application/json")
        .header("x-note", "line\nbreak \"and\" tab\t\u{1} ünïcødé ☃")
        .header("X-Upper", "");
    let v = written(&request);
    assert_eq!(v["url"], json!("https://h/\"quoted\"\\path"));
    assert_eq!(
        v["headers"],
        json!({"accept": "application/json", "x-note": "line\nbreak \"and\" tab\t\u{1} ünïcødé ☃", "X-Upper": ""})
    );
}

#[test]
fn a_header_named_twice_sends_the_last_value() {
    let v = written(&Request::get("https://h/").header("a", "1").header("a", "2"));
    assert_eq!(v["headers"], json!({"a": "2"}));
}

#[test]
fn a_text_body() {
    let v = written(&Request::post("https://h/").body_text("hello \"world\"\n"));
    assert_eq!(v["body"], json!({"type": "text", "text": "hello \"world\"\n"}));
}

#[test]
fn a_json_body_from_our_writer() {
    let mut order = JsonWriter::new();
    order
        .begin_object()
        .key("order")
        .int(1042)
        .key("items")
        .begin_array()
        .string("a\"b")
        .float(1.5)
        .bool(true)
        .null()
        .end_array()
        .end_object();
    let v = written(&Request::new(Method::Put, "https://h/").body_json(&order));
    assert_eq!(v["body"], json!({"type": "json", "json": {"order": 1042, "items": ["a\"b", 1.5, true, null]}}));
    // An empty writer sends null rather than broken JSON.
    let empty = JsonWriter::new();
    assert_eq!(written(&Request::post("https://h/").body_json(&empty))["body"], json!({"type": "json", "json": null}));
}

#[test]
fn a_file_body_and_a_file_output() {
    let v = written(&Request::post("https://h/").body_file("/volume/tmp/in.bin").save_to("/volume/tmp/out \"1\".bin"));
    assert_eq!(v["body"], json!({"type": "file", "path": "/volume/tmp/in.bin"}));
    assert_eq!(v["output"], json!({"type": "file", "path": "/volume/tmp/out \"1\".bin"}));
}

#[test]
fn the_last_body_wins() {
    let v = written(&Request::post("https://h/").body_text("x").body_file("/volume/tmp/f"));
    assert_eq!(v["body"], json!({"type": "file", "path": "/volume/tmp/f"}));
}

#[test]
fn redirects_and_timeout() {
    let v = written(&Request::get("https://h/").follow_redirects(false).timeout_ms(5000));
    assert_eq!(v["follow_redirects"], json!(false));
    assert_eq!(v["timeout_ms"], json!(5000));
    let v = written(&Request::get("https://h/").timeout_ms(u64::MAX));
    assert_eq!(v["timeout_ms"], json!(u64::MAX));
}

#[test]
fn every_field_at_once_in_order() {
    let mut json = JsonWriter::new();
    json.begin_object().key("k").string("v").end_object();
    let request = Request::new(Method::Patch, "https://h/p")
        .header("a", "b")
        .body_json(&json)
        .save_to("/volume/tmp/o")
        .follow_redirects(false)
        .timeout_ms(1);
    assert_eq!(
        String::from_utf8(request.to_json()).unwrap(),
        r#"{"method":"PATCH","url":"https://h/p","headers":{"a":"b"},"body":{"type":"json","json":{"k":"v"}},"output":{"type":"file","path":"/volume/tmp/o"},"follow_redirects":false,"timeout_ms":1}"#
    );
}

// --- The 8 MiB limit and the ABI ---

/// A POST whose JSON is exactly `total` bytes long.
fn body_for_total(total: usize) -> String {
    let overhead = Request::post("https://h/").body_text("").to_json().len();
    "x".repeat(total - overhead)
}

#[test]
fn requests_over_8_mib_are_refused_before_the_call() {
    let text = body_for_total(REQUEST_MAX_BYTES + 1);
    let request = Request::post("https://h/").body_text(&text);
    assert_eq!(request.to_json().len(), REQUEST_MAX_BYTES + 1);
    let error = request.send().unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::InvalidRequest);
    assert_eq!(
        error.message,
        "the request is 8388609 bytes of JSON, over the 8 MiB (8388608 bytes) a request may hold: \
         send a large body as a volume file (body_file)"
    );
    // At the limit the request goes to the import, which off the worker
    // answers as the platform's stub does.
    let text = body_for_total(REQUEST_MAX_BYTES);
    let error = Request::post("https://h/").body_text(&text).send().unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::Abi);
    assert!(error.message.starts_with("subako_http returned -1: "), "{}", error.message);
}

#[test]
fn off_the_worker_every_request_fails_with_kind_abi() {
    assert_eq!(raw::exchange(b"{}"), Err(ABI_OUT_OF_BOUNDS));
    let error = Request::get("https://example.com/").send().unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::Abi);
    assert_eq!(
        error.message,
        "subako_http returned -1: a range outside the module's memory, or no HTTP host here \
         (outside the Subako worker every request fails so)"
    );
}

#[test]
fn abi_codes_are_named() {
    assert_eq!((ABI_OUT_OF_BOUNDS, ABI_NOTHING_HELD, ABI_LENGTH_MISMATCH), (-1, -2, -3));
    let cases = [
        (-1, "subako_http returned -1: a range outside the module's memory"),
        (-2, "subako_http returned -2: nothing held: read_response ran with no answer waiting"),
        (-3, "subako_http returned -3: length mismatch: read_response's length is not the answer's"),
        (-7, "subako_http returned -7: a code the subako_http ABI does not define"),
        (5, "subako_http returned 5: a code the subako_http ABI does not define"),
        (i32::MIN, "subako_http returned -2147483648: a code"),
    ];
    for (code, start) in cases {
        let error = HttpError::abi_code(code);
        assert_eq!(error.kind, HttpErrorKind::Abi);
        assert!(error.message.starts_with(start), "{code}: {}", error.message);
        let tool = ToolError::from(error);
        assert!(tool.message().starts_with("HTTP request failed (abi): subako_http returned "), "{}", tool.message());
    }
}

// --- The answer parser ---

#[test]
fn an_inline_answer() {
    let answer = br#"{"ok":{"status":200,"headers":{"content-type":"text/plain; charset=utf-8","x-multi":"a, b","x-esc":"\u00e9\"\n"},"body":{"type":"inline","text":"caf\u00e9 \ud83d\ude00\n"}}}"#;
    let response = parse_answer(answer).unwrap();
    assert_eq!(response.status, 200);
    assert_eq!(
        response.headers,
        vec![
            ("content-type".to_string(), "text/plain; charset=utf-8".to_string()),
            ("x-multi".to_string(), "a, b".to_string()),
            ("x-esc".to_string(), "é\"\n".to_string()),
        ]
    );
    assert_eq!(response.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(response.header("Content-Type"), Some("text/plain; charset=utf-8"));
    assert_eq!(response.header("x-multi"), Some("a, b"));
    assert_eq!(response.header("missing"), None);
    assert_eq!(response.text(), Some("café 😀\n"));
    assert_eq!(response.body, ResponseBody::Inline { text: "café 😀\n".into() });
}

#[test]
fn a_file_answer() {
    let answer = br#" {"ok": {"status": 404, "headers": {}, "body": {"type": "file", "path": "/volume/tmp/out.bin", "bytes": 48211}}} "#;
    let response = parse_answer(answer).unwrap();
    assert_eq!(
        response,
        Response {
            status: 404,
            headers: vec![],
            body: ResponseBody::File { path: "/volume/tmp/out.bin".into(), bytes: 48211 }
        }
    );
    assert_eq!(response.text(), None);
}

#[test]
fn an_answer_with_no_headers_member_has_none() {
    let response = parse_answer(br#"{"ok":{"status":204,"body":{"type":"inline","text":""}}}"#).unwrap();
    assert!(response.headers.is_empty());
    assert_eq!(response.text(), Some(""));
}

#[test]
fn every_error_kind() {
    let names = [
        "invalid_request",
        "host_not_allowed",
        "forbidden_destination",
        "credential_header",
        "credential_unavailable",
        "too_many_redirects",
        "timeout",
        "too_large",
        "not_text",
        "write_budget",
        "bad_path",
        "connection",
        "abi",
    ];
    assert_eq!(HttpErrorKind::ALL.len(), names.len());
    for (kind, name) in HttpErrorKind::ALL.into_iter().zip(names) {
        assert_eq!(kind.as_str(), name);
        assert_eq!(HttpErrorKind::from_name(name), Some(kind));
        let answer = format!(r#"{{"error":{{"kind":"{name}","message":"it failed: \"{name}\""}}}}"#);
        let error = parse_answer(answer.as_bytes()).unwrap_err();
        assert_eq!(error, HttpError::new(kind, format!("it failed: \"{name}\"")));
        assert_eq!(kind.needs_file(), matches!(name, "too_large" | "not_text"));
        assert_eq!(ToolError::from(error).message(), format!("HTTP request failed ({name}): it failed: \"{name}\""));
    }
}

#[test]
fn an_unknown_error_kind_keeps_its_name() {
    let error = parse_answer(br#"{"error":{"kind":"rate_limited","message":"slow down"}}"#).unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::Abi);
    assert_eq!(error.message, "error kind `rate_limited` from subako_http: slow down");
}

#[test]
fn malformed_answers_are_abi_errors_saying_why() {
    let cases: &[(&[u8], &str)] = &[
        (b"", "EOF while parsing a value"),
        (b"{\"ok\":", "EOF while parsing a value"),
        (b"not json", "expected value"),
        (b"{} x", "trailing characters"),
        (b"[1]", "not a JSON object"),
        (b"\"ok\"", "not a JSON object"),
        (b"{}", "it holds neither `ok` nor `error`, or both"),
        (
            br#"{"ok":{"status":200,"body":{"type":"inline","text":""}},"error":{"kind":"timeout","message":"m"}}"#,
            "it holds neither `ok` nor `error`, or both",
        ),
        (br#"{"ok":null}"#, "`ok` is not an object"),
        (br#"{"ok":{"headers":{},"body":{"type":"inline","text":""}}}"#, "`ok.status` is not an HTTP status code"),
        (br#"{"ok":{"status":"200","body":{"type":"inline","text":""}}}"#, "`ok.status` is not an HTTP status code"),
        (br#"{"ok":{"status":200.0,"body":{"type":"inline","text":""}}}"#, "`ok.status` is not an HTTP status code"),
        (br#"{"ok":{"status":-200,"body":{"type":"inline","text":""}}}"#, "`ok.status` is not an HTTP status code"),
        (br#"{"ok":{"status":99,"body":{"type":"inline","text":""}}}"#, "`ok.status` is not an HTTP status code"),
        (br#"{"ok":{"status":1000,"body":{"type":"inline","text":""}}}"#, "`ok.status` is not an HTTP status code"),
        (br#"{"ok":{"status":65736,"body":{"type":"inline","text":""}}}"#, "`ok.status` is not an HTTP status code"),
        (br#"{"ok":{"status":200,"headers":[],"body":{"type":"inline","text":""}}}"#, "`ok.headers` is not an object"),
        (
            br#"{"ok":{"status":200,"headers":{"a":1},"body":{"type":"inline","text":""}}}"#,
            "a header in `ok.headers` is not a string",
        ),
        (br#"{"ok":{"status":200,"headers":{}}}"#, "`ok.body` is not an inline or a file body"),
        (br#"{"ok":{"status":200,"body":"text"}}"#, "`ok.body` is not an inline or a file body"),
        (br#"{"ok":{"status":200,"body":{"text":""}}}"#, "`ok.body` is not an inline or a file body"),
        (br#"{"ok":{"status":200,"body":{"type":"stream"}}}"#, "`ok.body` is not an inline or a file body"),
        (br#"{"ok":{"status":200,"body":{"type":"inline"}}}"#, "`ok.body` is not an inline or a file body"),
        (br#"{"ok":{"status":200,"body":{"type":"inline","text":7}}}"#, "`ok.body` is not an inline or a file body"),
        (
            br#"{"ok":{"status":200,"body":{"type":"file","path":"/volume/tmp/x"}}}"#,
            "`ok.body` is not an inline or a file body",
        ),
        (br#"{"ok":{"status":200,"body":{"type":"file","bytes":3}}}"#, "`ok.body` is not an inline or a file body"),
        (
            br#"{"ok":{"status":200,"body":{"type":"file","path":"/p","bytes":-3}}}"#,
            "`ok.body` is not an inline or a file body",
        ),
        (br#"{"error":"timeout"}"#, "`error` is not an object with a string `kind` and `message`"),
        (br#"{"error":{"message":"m"}}"#, "`error` is not an object with a string `kind` and `message`"),
        (br#"{"error":{"kind":"timeout"}}"#, "`error` is not an object with a string `kind` and `message`"),
        (br#"{"error":{"kind":1,"message":"m"}}"#, "`error` is not an object with a string `kind` and `message`"),
    ];
    for (answer, why) in cases {
        let error = parse_answer(answer).unwrap_err();
        assert_eq!(error.kind, HttpErrorKind::Abi, "{}", String::from_utf8_lossy(answer));
        assert_eq!(
            error.message,
            format!("subako_http answered with something that is not an answer: {why}"),
            "{}",
            String::from_utf8_lossy(answer)
        );
    }
}

#[test]
fn any_bytes_as_an_answer_never_panic() {
    // Every prefix of a valid answer, and some byte soup.
    let answer = br#"{"ok":{"status":200,"headers":{"a":"b"},"body":{"type":"file","path":"/p","bytes":1}}}"#;
    for end in 0..answer.len() {
        assert!(parse_answer(&answer[..end]).is_err());
    }
    for soup in [
        &b"\xff\xfe"[..],
        b"{\"ok\":\"\xff\"}",
        b"\0",
        b"{\"ok\":{\"status\":200,\"body\":{\"type\":\"inline\",\"text\":\"\\ud800\"}}}",
    ] {
        assert_eq!(parse_answer(soup).unwrap_err().kind, HttpErrorKind::Abi);
    }
}

// --- The fetch example, on the host (no worker: the exchange fails) ---

fn call_fetch(arguments: Value) -> Value {
    let line = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "fetch", "arguments": arguments, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}}});
    let (stdout, code) = execute(&fetch::PACKAGE, &["fetch"], format!("{line}\n").as_bytes());
    assert_eq!(code, 0);
    let answer: Value = serde_json::from_slice(&stdout).unwrap();
    answer["result"].clone()
}

fn error_text(result: &Value) -> &str {
    assert_eq!(result["isError"], json!(true), "{result}");
    result["content"][0]["text"].as_str().unwrap()
}

#[test]
fn fetch_off_the_worker_says_so() {
    let result = call_fetch(json!({"url": "https://example.com/"}));
    assert_eq!(
        error_text(&result),
        "HTTP request failed (abi): subako_http returned -1: a range outside the module's memory, \
         or no HTTP host here (outside the Subako worker every request fails so)"
    );
}

#[test]
fn fetch_checks_its_input_before_any_request() {
    let cases = [
        (json!({}), "invalid input: missing field `url`"),
        (json!({"url": 1}), "invalid input: `url` must be a string"),
        (
            json!({"url": "https://h/", "method": "TRACE"}),
            "invalid input: `method` must be GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS, not TRACE",
        ),
        (json!({"url": "https://h/", "headers": []}), "invalid input: `headers` must be an object"),
        (json!({"url": "https://h/", "headers": {"x-n": 1}}), "invalid input: `headers.x-n` must be a string"),
        (json!({"url": "https://h/", "body": {}}), "invalid input: `body` must be a string"),
        (
            json!({"url": "https://h/", "timeout_ms": 0}),
            "invalid input: `timeout_ms` must be an integer from 1 to 600000",
        ),
    ];
    for (arguments, message) in cases {
        assert_eq!(error_text(&call_fetch(arguments.clone())), message, "{arguments}");
    }
    for path in [
        "/volume/data/x",
        "/volume/tmp",
        "/volume/tmp/",
        "/volume/tmp/../data/x",
        "/volume/tmp/a//b",
        "/volume/tmp/./x",
        "/volume/tmpx/y",
        "volume/tmp/x",
        "/etc/passwd",
    ] {
        let result = call_fetch(json!({"url": "https://h/", "save_to": path}));
        assert_eq!(
            error_text(&result),
            format!(
                "invalid input: `save_to` must be a file path under /volume/tmp, such as /volume/tmp/page.bin, not {path}"
            )
        );
    }
    // A good path passes the check and reaches the (absent) worker.
    let result = call_fetch(json!({"url": "https://h/", "save_to": "/volume/tmp/sub/page.bin", "method": "post"}));
    assert!(error_text(&result).starts_with("HTTP request failed (abi): "));
}

#[test]
fn fetch_lists_its_schemas() {
    let line = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}}});
    let (stdout, _) = execute(&fetch::PACKAGE, &["fetch"], format!("{line}\n").as_bytes());
    let answer: Value = serde_json::from_slice(&stdout).unwrap();
    let tool = &answer["result"]["tools"][0];
    assert_eq!(tool["name"], json!("fetch"));
    assert_eq!(tool["description"], json!("Fetch a URL over HTTP and return its status, headers and body."));
    assert_eq!(tool["inputSchema"]["required"], json!(["url"]));
    let output = &tool["outputSchema"];
    assert_eq!(output["required"], json!(["status", "headers"]));
    for field in ["status", "headers", "body", "path", "bytes"] {
        assert!(output["properties"][field].is_object(), "{field}");
    }
}
