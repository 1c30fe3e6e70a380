//! `subako_tiny::http` on the host: the request JSON for every field (read
//! back with serde_json), the answer parser for every field, every error
//! kind and malformed answers, the 8 MiB refusal, the ABI codes, the host's
//! HTTP hook (`subako_tiny::testing::with_http`), and the fetch example's
//! own checks. The real exchange runs in `tests/e2e/tests/http.rs`, in
//! wasmtime against a server.

#[path = "../examples/fetch.rs"]
mod fetch;

use serde_json::{Value, json};
use subako_tiny::JsonWriter;
use subako_tiny::http::raw::{ABI_LENGTH_MISMATCH, ABI_NOTHING_HELD, ABI_OUT_OF_BOUNDS};
use subako_tiny::http::{HttpError, HttpErrorKind, Method, REQUEST_MAX_BYTES, Request, Response, ResponseBody, raw};
use subako_tiny::testing::{self, HttpBody, HttpRequest};
use subako_tiny::{ToolError, execute};

/// What a request on the host says when no test answers it.
const NO_HTTP: &str = "no HTTP on the host: answer this tool's requests with subako_tiny::testing::call_with_http \
     (or testing::with_http) in a test, or build the module for wasm32-wasip1 and run it with \
     `subako-tiny call MODULE.wasm TOOL ARGS --allow-host HOST`";

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

/// Once, as strict readers require (serde_json's `Value` would keep the
/// last of two members silently), its values joined as HTTP joins them.
#[test]
fn a_header_named_twice_is_sent_once_with_its_values_joined() {
    let request = Request::get("https://h/").header("a", "1").header("b", "x").header("A", "2").header("a", "3");
    assert_eq!(
        request.to_json(),
        br#"{"method":"GET","url":"https://h/","headers":{"a":"1, 2, 3","b":"x"},"output":{"type":"inline"},"follow_redirects":true}"#
    );
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
    // What json::object and json::array return is sent as the value it is.
    let order = subako_tiny::json::object(|o| o.field("order", 1042).field("items", ["a\"b"]));
    let v = written(&Request::post("https://h/").body_json(&order));
    assert_eq!(v["body"], json!({"type": "json", "json": {"order": 1042, "items": ["a\"b"]}}));
    let list = subako_tiny::json::array(|a| a.push(1.5).push(true));
    assert_eq!(written(&Request::post("https://h/").body_json(&list))["body"]["json"], json!([1.5, true]));
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
    // At the limit the request goes out: on the host, to the thread's hook.
    let text = body_for_total(REQUEST_MAX_BYTES);
    let mut sizes = Vec::new();
    let response = testing::with_http(
        |request| {
            sizes.push(request.json.len());
            Ok(Response::inline(200, "taken"))
        },
        || Request::post("https://h/").body_text(&text).send(),
    );
    assert_eq!(response.unwrap().text(), Some("taken"));
    assert_eq!(sizes, [REQUEST_MAX_BYTES]);
}

#[test]
fn off_the_worker_a_request_no_test_answers_says_how_to_answer_it() {
    assert_eq!(raw::exchange(b"{}").unwrap(), raw::NO_HTTP_ON_THE_HOST);
    let error = Request::get("https://example.com/").send().unwrap_err();
    assert_eq!(error, HttpError::new(HttpErrorKind::Abi, NO_HTTP));
    assert_eq!(ToolError::from(error).message(), format!("HTTP request failed (abi): {NO_HTTP}"));
}

// --- The host's HTTP hook ---

#[test]
fn the_hook_sees_the_request_as_the_worker_reads_it() {
    let mut json = JsonWriter::new();
    json.begin_object().key("k").string("v\"").end_object();
    let mut seen: Vec<HttpRequest> = Vec::new();
    let requests = [
        Request::new(Method::Patch, "https://h/p?q=1")
            .header("A", "b")
            .header("x-two", "é\n")
            .body_json(&json)
            .save_to("/volume/tmp/o")
            .follow_redirects(false)
            .timeout_ms(7),
        Request::get("https://h/"),
        Request::post("https://h/").body_text("t\u{0}"),
        Request::new(Method::Put, "https://h/").body_file("/volume/tmp/in"),
    ];
    testing::with_http(
        |request| {
            seen.push(request.clone());
            Err(HttpErrorKind::Connection.into())
        },
        || {
            for request in &requests {
                assert_eq!(request.send().unwrap_err().kind, HttpErrorKind::Connection);
            }
        },
    );
    assert_eq!(seen.len(), 4);
    let first = &seen[0];
    assert_eq!((first.method, first.url.as_str()), (Method::Patch, "https://h/p?q=1"));
    assert_eq!(first.headers, [("A".to_string(), "b".to_string()), ("x-two".to_string(), "é\n".to_string())]);
    assert_eq!(first.header("a"), Some("b"));
    assert_eq!(first.body, HttpBody::Json(r#"{"k":"v\""}"#.into()));
    assert_eq!(first.save_to.as_deref(), Some("/volume/tmp/o"));
    assert_eq!((first.follow_redirects, first.timeout_ms), (false, Some(7)));
    assert_eq!(first.json.as_bytes(), requests[0].to_json());
    let second = &seen[1];
    assert_eq!((second.body.clone(), second.save_to.clone()), (HttpBody::None, None));
    assert_eq!((second.follow_redirects, second.timeout_ms), (true, None));
    assert_eq!(seen[2].body, HttpBody::Text("t\u{0}".into()));
    assert_eq!(seen[3].body, HttpBody::File("/volume/tmp/in".into()));
}

#[test]
fn the_hook_answers_as_the_worker_does() {
    let response = testing::with_http(
        |_| {
            Ok(Response::inline(404, "caf\u{e9} \"x\"")
                .with_header("X-Multi", "a")
                .with_header("Content-Type", "text/plain")
                .with_header("x-multi", "b"))
        },
        || Request::get("https://h/").send(),
    )
    .unwrap();
    assert_eq!(response.status, 404);
    // Names lowercased, repeats joined, in first-seen order: as the worker sends them.
    assert_eq!(response.headers().collect::<Vec<_>>(), [("x-multi", "a, b"), ("content-type", "text/plain")]);
    assert_eq!(response.text(), Some("café \"x\""));
    // A file body passes through as the hook gives it.
    let file = ResponseBody::File { path: "/volume/tmp/f".into(), bytes: 9 };
    let response = testing::with_http(
        |_| Ok(Response::new(200, file.clone())),
        || Request::get("https://h/").save_to("/volume/tmp/f").send(),
    );
    assert_eq!(response.unwrap().body, file);
    // A file body for a request that asked for its body inline is no answer
    // to it: an `abi` error saying so.
    let error = testing::with_http(|_| Ok(Response::new(200, file.clone())), || Request::get("https://h/").send());
    let error = error.unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::Abi);
    assert_eq!(
        error.message,
        "subako_http answered with something that is not an answer: `ok.body` is not the inline or file body the request asked for"
    );
    // Every error kind, with the hook's message or the kind's own.
    for kind in HttpErrorKind::ALL {
        let error =
            testing::with_http(|_| Err(HttpError::new(kind, "said \"so\"")), || Request::get("https://h/").send());
        assert_eq!(error.unwrap_err(), HttpError::new(kind, "said \"so\""));
        let error = testing::with_http(|_| Err(kind.into()), || Request::get("https://h/").send());
        assert_eq!(error.unwrap_err().message, format!("the HTTP hook answered {}", kind.as_str()));
    }
}

#[test]
fn an_inline_body_over_256_kib_is_too_large_as_on_the_worker() {
    let send = |len: usize| {
        testing::with_http(|_| Ok(Response::inline(200, "x".repeat(len))), || Request::get("https://h/").send())
    };
    assert_eq!(send(256 * 1024).unwrap().text().map(str::len), Some(256 * 1024));
    let error = send(256 * 1024 + 1).unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::TooLarge);
    assert_eq!(error.message, "the body is over 262144 bytes, more than comes inline: save it to a file");
}

#[test]
fn a_body_for_a_request_that_saves_it_goes_to_the_file() {
    let dir = std::env::temp_dir().join(format!("subako-tiny-http-hook-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    subako_tiny::fs::mount("/volume/tmp", &dir);
    let response = testing::with_http(
        |_| Ok(Response::inline(200, "saved body")),
        || Request::get("https://h/").save_to("/volume/tmp/page.txt").send(),
    )
    .unwrap();
    assert_eq!(response.body, ResponseBody::File { path: "/volume/tmp/page.txt".into(), bytes: 10 });
    assert_eq!(std::fs::read_to_string(dir.join("page.txt")).unwrap(), "saved body");
    // Where no mount reaches, the worker's kind: bad_path.
    let error = testing::with_http(
        |_| Ok(Response::inline(200, "x")),
        || Request::get("https://h/").save_to("/nowhere/page.txt").send(),
    )
    .unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::BadPath);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_status_quotes_the_start_of_a_body_saved_to_a_file() {
    let dir = std::env::temp_dir().join(format!("subako-tiny-http-send-ok-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    subako_tiny::fs::mount("/volume/tmp", &dir);
    let send_ok = |body: Vec<u8>| {
        let bytes = body.len() as u64;
        let file = dir.join("page");
        testing::with_http(
            move |_| {
                // The platform saves the body whatever the status.
                std::fs::write(&file, &body).unwrap();
                Ok(Response::new(404, ResponseBody::File { path: "/volume/tmp/page".into(), bytes }))
            },
            || Request::get("https://h/x").save_to("/volume/tmp/page").send_ok(),
        )
        .unwrap_err()
        .message()
        .to_owned()
    };
    assert_eq!(send_ok(b"no such page".to_vec()), "GET https://h/x answered 404: no such page");
    // Cut at 200 bytes, before the character the cut would split.
    let long = ["a".repeat(199), "é and more".into()].concat();
    assert_eq!(send_ok(long.into_bytes()), ["GET https://h/x answered 404: ", &"a".repeat(199), "…"].concat());
    // Not text, or nothing: only the status.
    assert_eq!(send_ok(vec![0xFF, 0xFE, b'x']), "GET https://h/x answered 404");
    assert_eq!(send_ok(Vec::new()), "GET https://h/x answered 404");
    subako_tiny::fs::unmount("/volume/tmp");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_hook_is_this_threads_for_the_call_only() {
    testing::with_http(
        |_| Ok(Response::inline(200, "outer")),
        || {
            // Another thread has no hook.
            let other = std::thread::spawn(|| Request::get("https://h/").send().unwrap_err().message);
            assert_eq!(other.join().unwrap(), NO_HTTP);
            // A nested hook answers inside, the outer one again after.
            let inner =
                testing::with_http(|_| Ok(Response::inline(200, "inner")), || Request::get("https://h/").send());
            assert_eq!(inner.unwrap().text(), Some("inner"));
            assert_eq!(Request::get("https://h/").send().unwrap().text(), Some("outer"));
        },
    );
    // After the call, and after a hook that panicked, no hook is left.
    assert_eq!(Request::get("https://h/").send().unwrap_err().message, NO_HTTP);
    let panicked = std::panic::catch_unwind(|| {
        testing::with_http(|_| panic!("the hook broke"), || Request::get("https://h/").send())
    });
    assert!(panicked.is_err());
    assert_eq!(Request::get("https://h/").send().unwrap_err().message, NO_HTTP);
    // A request the hook makes itself finds no hook (no re-entry).
    let nested = testing::with_http(
        |_| Ok(Response::inline(200, Request::get("https://h/").send().unwrap_err().message)),
        || Request::get("https://h/").send(),
    );
    assert_eq!(nested.unwrap().text(), Some(NO_HTTP));
}

#[test]
fn abi_codes_are_named() {
    assert_eq!((ABI_OUT_OF_BOUNDS, ABI_NOTHING_HELD, ABI_LENGTH_MISMATCH), (-1, -2, -3));
    let cases = [
        (-1, "subako_http returned -1: no network for this call (none granted; locally: subako-tiny --allow-host)"),
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
    let response = raw::parse_answer(answer, None).unwrap();
    assert_eq!(response.status, 200);
    assert_eq!(
        response.headers().collect::<Vec<_>>(),
        [("content-type", "text/plain; charset=utf-8"), ("x-multi", "a, b"), ("x-esc", "é\"\n")]
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
    let response = raw::parse_answer(answer, Some("/volume/tmp/out.bin")).unwrap();
    assert_eq!(response, Response::new(404, ResponseBody::File { path: "/volume/tmp/out.bin".into(), bytes: 48211 }));
    assert_eq!(response.text(), None);
}

#[test]
fn a_file_answer_at_a_path_the_request_did_not_name_is_abi() {
    let answer = br#"{"ok":{"status":200,"headers":{},"body":{"type":"file","path":"/etc/passwd","bytes":9}}}"#;
    let error = raw::parse_answer(answer, Some("/volume/tmp/out.bin")).unwrap_err();
    assert_eq!(
        error,
        HttpError::new(
            HttpErrorKind::Abi,
            "subako_http answered with a file body at /etc/passwd, but the request saved its body to /volume/tmp/out.bin"
        )
    );
    // A request for an inline body takes no file body at all.
    let error = raw::parse_answer(answer, None).unwrap_err();
    assert_eq!(
        error.message,
        "subako_http answered with something that is not an answer: `ok.body` is not the inline or file body the \
         request asked for"
    );
    // Nor does a hook's answer get through `send` (the testing hook passes a file body as given).
    let error = testing::with_http(
        |_| Ok(Response::new(200, ResponseBody::File { path: "/volume/tmp/b".into(), bytes: 1 })),
        || Request::get("https://h/").save_to("/volume/tmp/a").send(),
    )
    .unwrap_err();
    assert_eq!(
        error.message,
        "subako_http answered with a file body at /volume/tmp/b, but the request saved its body to /volume/tmp/a"
    );
}

#[test]
fn a_header_named_twice_is_read_once_with_its_values_joined() {
    let answer = br#"{"ok":{"status":200,"headers":{"x-a":"1","vary":"accept","X-A":"2","b":"","x-a":"3","B":"4"},"body":{"type":"inline","text":""}}}"#;
    let response = raw::parse_answer(answer, None).unwrap();
    assert_eq!(response.headers().collect::<Vec<_>>(), [("x-a", "1, 2, 3"), ("vary", "accept"), ("b", ", 4")]);
    assert_eq!(response.header("X-a"), Some("1, 2, 3"));
    // Many names, many repeats: each name once, in first-seen order.
    let mut headers = String::new();
    for i in 0..3000 {
        headers.push_str(&format!(r#""h{}":"{i}","#, i % 1000));
    }
    headers.pop();
    let answer = format!(r#"{{"ok":{{"status":200,"headers":{{{headers}}},"body":{{"type":"inline","text":""}}}}}}"#);
    let response = raw::parse_answer(answer.as_bytes(), None).unwrap();
    let read: Vec<(&str, &str)> = response.headers().collect();
    assert_eq!(read.len(), 1000);
    for (i, (name, value)) in read.into_iter().enumerate() {
        assert_eq!(name, format!("h{i}"));
        assert_eq!(value, format!("{i}, {}, {}", i + 1000, i + 2000));
    }
}

#[test]
fn an_answer_with_no_headers_member_has_none() {
    let response = raw::parse_answer(br#"{"ok":{"status":204,"body":{"type":"inline","text":""}}}"#, None).unwrap();
    assert_eq!(response.headers().count(), 0);
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
        let error = raw::parse_answer(answer.as_bytes(), None).unwrap_err();
        assert_eq!(error, HttpError::new(kind, format!("it failed: \"{name}\"")));
        assert_eq!(kind.needs_file(), matches!(name, "too_large" | "not_text"));
        assert_eq!(ToolError::from(error).message(), format!("HTTP request failed ({name}): it failed: \"{name}\""));
    }
}

#[test]
fn an_unknown_error_kind_keeps_its_name() {
    let error = raw::parse_answer(br#"{"error":{"kind":"rate_limited","message":"slow down"}}"#, None).unwrap_err();
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
        // The official SDK's `BTreeMap<String, String>` refuses a value that
        // is not a string even where a later one of the same name replaces it.
        (
            br#"{"ok":{"status":200,"headers":{"a":{"b":"1"},"a":"2"},"body":{"type":"inline","text":""}}}"#,
            "a header in `ok.headers` is not a string",
        ),
        (br#"{"ok":{"status":200,"headers":{}}}"#, "`ok.body` is not the inline or file body the request asked for"),
        (br#"{"ok":{"status":200,"body":"text"}}"#, "`ok.body` is not the inline or file body the request asked for"),
        (
            br#"{"ok":{"status":200,"body":{"text":""}}}"#,
            "`ok.body` is not the inline or file body the request asked for",
        ),
        (
            br#"{"ok":{"status":200,"body":{"type":"stream"}}}"#,
            "`ok.body` is not the inline or file body the request asked for",
        ),
        (
            br#"{"ok":{"status":200,"body":{"type":"inline"}}}"#,
            "`ok.body` is not the inline or file body the request asked for",
        ),
        (
            br#"{"ok":{"status":200,"body":{"type":"inline","text":7}}}"#,
            "`ok.body` is not the inline or file body the request asked for",
        ),
        (
            br#"{"ok":{"status":200,"body":{"type":"file","path":"/volume/tmp/x"}}}"#,
            "`ok.body` is not the inline or file body the request asked for",
        ),
        (
            br#"{"ok":{"status":200,"body":{"type":"file","bytes":3}}}"#,
            "`ok.body` is not the inline or file body the request asked for",
        ),
        (
            br#"{"ok":{"status":200,"body":{"type":"file","path":"/p","bytes":-3}}}"#,
            "`ok.body` is not the inline or file body the request asked for",
        ),
        (br#"{"error":"timeout"}"#, "`error` is not an object with a string `kind` and `message`"),
        (br#"{"error":{"message":"m"}}"#, "`error` is not an object with a string `kind` and `message`"),
        (br#"{"error":{"kind":"timeout"}}"#, "`error` is not an object with a string `kind` and `message`"),
        (br#"{"error":{"kind":1,"message":"m"}}"#, "`error` is not an object with a string `kind` and `message`"),
    ];
    for (answer, why) in cases {
        let error = raw::parse_answer(answer, Some("/p")).unwrap_err();
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
        assert!(raw::parse_answer(&answer[..end], Some("/p")).is_err());
    }
    assert!(raw::parse_answer(answer, Some("/p")).is_ok());
    {}
    for soup in [
        &b"\xff\xfe"[..],
        b"{\"ok\":\"\xff\"}",
        b"\0",
        b"{\"ok\":{\"status\":200,\"body\":{\"type\":\"inline\",\"text\":\"\\ud800\"}}}",
    ] {
        assert_eq!(raw::parse_answer(soup, Some("/p")).unwrap_err().kind, HttpErrorKind::Abi);
    }
}

// --- The fetch example, on the host ---

fn call_fetch(arguments: Value) -> testing::CallResult {
    testing::call(&fetch::PACKAGE, "fetch", &arguments.to_string())
}

fn error_text(called: &testing::CallResult) -> &str {
    assert!(called.is_error(), "{}", called.line());
    called.text()
}

#[test]
fn fetch_with_no_test_answering_says_how_to_answer() {
    let called = call_fetch(json!({"url": "https://example.com/"}));
    assert_eq!(error_text(&called), format!("HTTP request failed (abi): {NO_HTTP}"));
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
    assert_eq!(error_text(&result), format!("HTTP request failed (abi): {NO_HTTP}"));
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

// --- testing::real_http, against a server on 127.0.0.1 ---

/// A canned-route HTTP/1.1 server on 127.0.0.1, a thread a connection;
/// returns its `http://127.0.0.1:PORT`.
fn server() -> &'static str {
    static BASE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BASE.get_or_init(|| {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                std::thread::spawn(move || serve(stream));
            }
        });
        base
    })
}

/// Reads one request and answers it by its path.
fn serve(mut stream: std::net::TcpStream) {
    use std::io::{Read, Write};
    let mut request = Vec::new();
    let mut buf = [0; 4096];
    let head_end = loop {
        if let Some(at) = request.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    };
    let head = String::from_utf8_lossy(&request[..head_end]).into_owned();
    let length = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap()))
        .unwrap_or(0);
    while request.len() < head_end + 4 + length {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    }
    let target = head.split(' ').nth(1).unwrap_or("").to_owned();
    let answer = |status: &str, headers: &str, body: &[u8]| {
        let mut out = format!("HTTP/1.1 {status}\r\n{headers}content-length: {}\r\n\r\n", body.len()).into_bytes();
        out.extend_from_slice(body);
        out
    };
    let reply: Vec<u8> = match target.split('?').next().unwrap() {
        // What arrived: the head's lines, then the body.
        "/echo" => answer("200 OK", "content-type: text/plain\r\nx-twice: a\r\nX-Twice: b\r\n", &request),
        // The request line alone.
        path if path.starts_with("/line/") => answer("200 OK", "", head.lines().next().unwrap_or("").as_bytes()),
        "/chunked" => {
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n7\r\nhello, \r\n5;x=y\r\nworld\r\n0\r\n\r\n".to_vec()
        }
        "/until-closed" => b"HTTP/1.0 200 OK\r\n\r\nno length, the end is the close".to_vec(),
        "/found" => answer("302 Found", "location: /echo?from=found\r\n", b""),
        "/see-other" => answer(
            "303 See Other",
            "location: http://localhost:PORT/echo\r\n".replace("PORT", server().rsplit(':').next().unwrap()).as_str(),
            b"",
        ),
        "/dir/a" => answer("301 Moved Permanently", "location: b\r\n", b""),
        "/dir/b" => answer("200 OK", "", b"relative b"),
        "/loop" => answer("307 Temporary Redirect", "location: /loop\r\n", b""),
        "/binary" => answer("200 OK", "content-type: application/octet-stream\r\n", &(0..=255).collect::<Vec<u8>>()),
        "/large" => answer("200 OK", "", &vec![b'a'; 300 * 1024]),
        "/silent" => {
            std::thread::sleep(std::time::Duration::from_secs(3));
            return;
        }
        _ => answer("404 Not Found", "", "no such page: ページがありません".as_bytes()),
    };
    let _ = stream.write_all(&reply);
}

fn real(request: Request<'_>) -> Result<subako_tiny::http::Response, HttpError> {
    testing::with_http(testing::real_http, || request.send())
}

#[test]
fn real_http_sends_what_the_tool_wrote_and_reads_what_the_server_answered() {
    let base = server();
    let url = format!("{base}/echo?q=1");
    let response = real(Request::post(&url).header("X-Token", "abc").body_text("héllo")).unwrap();
    assert_eq!(response.status, 200);
    let text = response.text().unwrap();
    assert!(text.starts_with("POST /echo?q=1 HTTP/1.1\r\n"), "{text}");
    for line in [
        &format!("host: {}", base.strip_prefix("http://").unwrap()),
        "X-Token: abc",
        "content-type: text/plain; charset=utf-8",
        "content-length: 6",
    ] {
        assert!(text.contains(&format!("{line}\r\n")), "{line} in {text}");
    }
    assert!(text.ends_with("\r\n\r\nhéllo"), "{text}");
    // The worker's rules on the way back: names lowercased, one joined.
    assert_eq!(response.header("x-twice"), Some("a, b"));
    assert_eq!(response.header("content-type"), Some("text/plain"));
    // A JSON body says so.
    let mut body = subako_tiny::JsonWriter::new();
    body.begin_object().key("n").uint(1).end_object();
    let text = real(Request::new(Method::Put, &url).body_json(&body)).unwrap().text().unwrap().to_owned();
    assert!(text.contains("content-type: application/json\r\n") && text.ends_with("{\"n\":1}"), "{text}");
}

/// What the worker sends for `url`: its URL parser's path and query.
fn worker_target(url: &str) -> String {
    let parsed = url::Url::parse(url).unwrap();
    match parsed.query() {
        Some(query) => format!("{}?{query}", parsed.path()),
        None => parsed.path().to_owned(),
    }
}

#[test]
fn real_http_encodes_the_url_as_the_worker_does() {
    let base = server();
    // Author trial 22: `?city=東京` reached a test's server as raw UTF-8,
    // and `New York`'s space broke the request line.
    let cases = [
        "/line/plain?q=1",
        "/line/東京?city=東京&days=1",
        "/line/New York?city=New York",
        "/line/a?q=\"<'>`{}|^&x=%41%zz",
        "/line/{a}`b`|c^\\d?e",
        "/line/?#fragment",
        "/line/x?y#z?w",
        "/line/tab\there?line\nbreak",
        "/line/é?é=ü&ß",
    ];
    for path in cases {
        let url = format!("{base}{path}");
        let line = real(Request::get(&url)).unwrap().text().unwrap().to_owned();
        assert_eq!(line, format!("GET {} HTTP/1.1", worker_target(&url)), "{path}");
    }
    assert_eq!(worker_target(&format!("{base}/line/東京?city=New York")), "/line/%E6%9D%B1%E4%BA%AC?city=New%20York");
}

#[test]
fn a_url_component_reaches_the_server_as_the_one_value_it_was() {
    let base = server();
    let values = ["A&B=C+D", "São Paulo", "東京 🗼", "100% #1?/x", "'\"<>`{}|\\^", "a\u{0}b\nc", "-._~", ""];
    for (i, value) in values.iter().enumerate() {
        let url = subako_tiny::text!(base, "/line/", i, "?v=", subako_tiny::http::url_component(value), "&w=", i);
        let line = real(Request::get(url.as_str())).unwrap().text().unwrap().to_owned();
        let target = line.strip_prefix("GET ").and_then(|l| l.strip_suffix(" HTTP/1.1")).unwrap();
        let parsed = url::Url::parse(&format!("{base}{target}")).unwrap();
        let pairs: Vec<(String, String)> =
            parsed.query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        assert_eq!(pairs, [("v".to_owned(), value.to_string()), ("w".to_owned(), i.to_string())], "{value:?}");
        // The same value as a path segment.
        let url = subako_tiny::text!("http://example.com/", subako_tiny::http::url_component(value), "/end");
        let parsed = url::Url::parse(url.as_str()).unwrap();
        assert_eq!(parsed.path_segments().unwrap().count(), 2, "{value:?}");
    }
}

#[test]
fn a_request_that_fails_before_an_answer_is_named_by_send_ok() {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/v1/forecast?city=Oslo");
    let error = testing::with_http(testing::real_http, || Request::get(&url).send()).unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::Connection);
    assert!(error.message.starts_with("io: "), "as the worker words it: {}", error.message);
    // Author trial 22: of five cities, the model could not tell which failed.
    let error = testing::with_http(testing::real_http, || Request::get(&url).send_ok()).unwrap_err();
    let start = format!("HTTP request failed (connection): GET {url}: io: ");
    assert!(error.message().starts_with(&start), "{}", error.message());
}

#[test]
fn real_http_reads_chunked_and_close_delimited_bodies_and_none_to_head() {
    let base = server();
    assert_eq!(real(Request::get(&format!("{base}/chunked"))).unwrap().text(), Some("hello, world"));
    assert_eq!(
        real(Request::get(&format!("{base}/until-closed"))).unwrap().text(),
        Some("no length, the end is the close")
    );
    let head = real(Request::new(Method::Head, &format!("{base}/echo"))).unwrap();
    assert_eq!((head.status, head.text()), (200, Some("")));
}

#[test]
fn real_http_follows_redirects_as_the_worker_does() {
    let base = server();
    let followed = real(Request::get(&format!("{base}/found"))).unwrap();
    assert!(followed.text().unwrap().starts_with("GET /echo?from=found HTTP/1.1"), "{:?}", followed.text());
    let kept = real(Request::get(&format!("{base}/found")).follow_redirects(false)).unwrap();
    assert_eq!((kept.status, kept.header("location")), (302, Some("/echo?from=found")));
    // 303: on as a GET, without the body, to another origin (the token dropped).
    let other =
        real(Request::post(&format!("{base}/see-other")).header("authorization", "secret").body_text("x")).unwrap();
    let text = other.text().unwrap();
    assert!(text.starts_with("GET /echo HTTP/1.1") && text.contains("host: localhost:"), "{text}");
    assert!(!text.contains("secret") && !text.contains("content-length") && text.ends_with("\r\n\r\n"), "{text}");
    assert_eq!(real(Request::get(&format!("{base}/dir/a"))).unwrap().text(), Some("relative b"));
    let error = real(Request::get(&format!("{base}/loop"))).unwrap_err();
    assert_eq!((error.kind, error.message.as_str()), (HttpErrorKind::TooManyRedirects, "more than 10 redirects"));
}

#[test]
fn real_http_hands_over_bodies_by_the_worker_s_rules() {
    let dir = std::env::temp_dir().join(format!("subako-tiny-real-http-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    subako_tiny::fs::mount("/volume/tmp", &dir);
    let base = server();
    let binary: Vec<u8> = (0..=255).collect();
    let error = real(Request::get(&format!("{base}/binary"))).unwrap_err();
    assert_eq!(
        (error.kind, error.message.as_str()),
        (HttpErrorKind::NotText, "the body is not UTF-8 text, which cannot come inline: save it to a file")
    );
    let saved = real(Request::get(&format!("{base}/binary")).save_to("/volume/tmp/b.bin")).unwrap();
    assert_eq!(saved.body, ResponseBody::File { path: "/volume/tmp/b.bin".into(), bytes: 256 });
    assert_eq!(std::fs::read(dir.join("b.bin")).unwrap(), binary);
    assert_eq!(real(Request::get(&format!("{base}/large"))).unwrap_err().kind, HttpErrorKind::TooLarge);
    let large = real(Request::get(&format!("{base}/large")).save_to("/volume/tmp/l.txt")).unwrap();
    assert_eq!(large.body, ResponseBody::File { path: "/volume/tmp/l.txt".into(), bytes: 300 * 1024 });
    // A volume file as the body, read through the mounts.
    std::fs::write(dir.join("up.bin"), [0, 1, 2, 0xFF]).unwrap();
    let echoed =
        real(Request::post(&format!("{base}/echo")).body_file("/volume/tmp/up.bin").save_to("/volume/tmp/e")).unwrap();
    assert!(matches!(echoed.body, ResponseBody::File { .. }));
    let echoed = std::fs::read(dir.join("e")).unwrap();
    assert!(echoed.ends_with(b"content-type: application/octet-stream\r\ncontent-length: 4\r\n\r\n\0\x01\x02\xFF"));
    // send_ok on a 404 saved to a file quotes the file's start.
    let url = format!("{base}/nope");
    let error = testing::with_http(testing::real_http, || Request::get(&url).save_to("/volume/tmp/404.html").send_ok());
    assert_eq!(error.unwrap_err().message(), format!("GET {url} answered 404: no such page: ページがありません"));
    subako_tiny::fs::unmount("/volume/tmp");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn real_http_fails_readably() {
    // A port nothing listens on: bound, then let go.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let url = format!("http://{free}/");
    let error = real(Request::get(&url)).unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::Connection);
    assert!(error.message.starts_with("io: ") && error.message.contains("refused"), "{}", error.message);
    let error = real(Request::get("https://example.com/")).unwrap_err();
    assert_eq!(error.kind, HttpErrorKind::InvalidRequest);
    assert_eq!(
        error.message,
        "testing::real_http makes plain http:// requests only (to a server the test starts, such as on 127.0.0.1), \
         not https://example.com/: answer it with a closure of the test's instead"
    );
    let error = real(Request::get(&format!("{}/silent", server())).timeout_ms(200)).unwrap_err();
    assert_eq!((error.kind, error.message.as_str()), (HttpErrorKind::Timeout, "the request timed out"));
}

#[test]
fn a_package_s_tool_reaches_a_real_server_in_a_host_test() {
    let base = server();
    let called = testing::call_with_http(
        &fetch::PACKAGE,
        "fetch",
        &json!({"url": format!("{base}/chunked")}).to_string(),
        testing::real_http,
    );
    assert!(!called.is_error(), "{}", called.line());
    let structured: Value = serde_json::from_str(called.structured().unwrap()).unwrap();
    assert_eq!(structured, json!({"status": 200, "headers": {"transfer-encoding": "chunked"}, "body": "hello, world"}));
}
