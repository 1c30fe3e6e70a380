//! The rates example in real wasmtime, through the runner's `subako_http`
//! host (loopback allowed), against an HTTP server this test starts on
//! 127.0.0.1 serving canned rates API answers, with a real temporary
//! directory behind `/volume/tmp` shared by the calls of one session.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::OnceLock;

use serde_json::{Value, json};
use subako_tiny_runner::{CallOptions, HttpConfig, Module, call};

const LATEST: &str = r#"{"amount":1.0,"base":"EUR","date":"2026-12-01","rates":{"USD":1.0512,"JPY":158.3}}"#;

/// A canned-route HTTP/1.1 server on 127.0.0.1: the route is the path's
/// first segment, so `{base}/ok` is an API whose `/latest` is `/ok/latest`.
/// Returns the base URL of the server.
fn server() -> &'static str {
    static BASE: OnceLock<String> = OnceLock::new();
    BASE.get_or_init(|| {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                std::thread::spawn(move || serve(stream));
            }
        });
        format!("http://127.0.0.1:{port}")
    })
}

fn serve(stream: TcpStream) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim_end().is_empty() {
            break;
        }
    }
    let path = line.split_whitespace().nth(1).unwrap_or("");
    let (status, body) = match path {
        "/ok/latest?base=EUR" => ("200 OK", LATEST),
        "/busy/latest?base=EUR" => ("503 Service Unavailable", "try later"),
        "/html/latest?base=EUR" => ("200 OK", "<html>not json</html>"),
        "/norates/latest?base=EUR" => ("200 OK", r#"{"base":"EUR","date":"2026-12-01"}"#),
        _ => ("404 Not Found", "no such route"),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let mut stream = stream;
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body.as_bytes()));
}

fn module() -> &'static Module {
    static MODULE: OnceLock<Module> = OnceLock::new();
    MODULE.get_or_init(|| Module::from_file(subako_tiny_e2e::example("rates")).unwrap())
}

/// Options for a call of the session whose volume is `volume`.
fn session(volume: &tempfile::TempDir) -> CallOptions {
    CallOptions {
        package: Some("rates".into()),
        tmp_dir: Some(volume.path().to_path_buf()),
        http: Some(HttpConfig { allow_hosts: vec!["127.0.0.1".into()], allow_loopback: true }),
        ..CallOptions::default()
    }
}

fn run(tool: &str, arguments: Value, options: &CallOptions) -> Value {
    call(module(), tool, arguments, options).unwrap().expect_ok().clone()
}

/// The structured result of a successful call, checked against its text twin.
fn structured(result: &Value) -> Value {
    assert_ne!(result["isError"], json!(true), "{result}");
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, result["structuredContent"]);
    text
}

fn failure(result: &Value) -> &str {
    assert_eq!(result["isError"], json!(true), "{result}");
    result["content"][0]["text"].as_str().unwrap()
}

fn convert(route: &str, to: &str) -> Value {
    json!({"amount": 2, "from": "EUR", "to": to, "api": format!("{}/{route}", server())})
}

#[test]
fn convert_reads_the_rate_and_history_keeps_it_across_calls() {
    let volume = tempfile::tempdir().unwrap();
    let options = session(&volume);
    assert_eq!(structured(&run("history", json!({}), &options)), json!({"entries": []}));

    let usd = structured(&run("convert", convert("ok", "USD"), &options));
    assert_eq!(
        usd,
        json!({"amount": 2.0, "from": "EUR", "to": "USD", "rate": 1.0512, "result": 2.1024, "date": "2026-12-01"})
    );
    let jpy = structured(&run("convert", convert("ok", "JPY"), &options));
    assert_eq!((&jpy["rate"], &jpy["result"]), (&json!(158.3), &json!(316.6)));

    // Each call is a fresh instance: the history lives in the shared volume.
    let lines = std::fs::read_to_string(volume.path().join("rates/history.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 2, "{lines}");
    assert_eq!(structured(&run("history", json!({}), &options)), json!({"entries": [usd, jpy]}));
    assert_eq!(structured(&run("history", json!({"limit": 1}), &options)), json!({"entries": [jpy]}));
    // A failed conversion is not recorded.
    failure(&run("convert", convert("ok", "XYZ"), &options));
    assert_eq!(structured(&run("history", json!({}), &options))["entries"].as_array().unwrap().len(), 2);
}

#[test]
fn every_failure_is_a_readable_error() {
    let volume = tempfile::tempdir().unwrap();
    let options = session(&volume);
    let base = server();
    assert_eq!(
        failure(&run("convert", convert("busy", "USD"), &options)),
        format!("GET {base}/busy/latest?base=EUR answered 503: try later")
    );
    assert_eq!(
        failure(&run("convert", convert("html", "USD"), &options)),
        "the response body (status 200) is not JSON (expected value at byte 0): <html>not json</html>"
    );
    assert_eq!(
        failure(&run("convert", convert("norates", "USD"), &options)),
        format!(r#"no rate for "USD" in the answer from {base}/norates/latest?base=EUR"#)
    );
    assert_eq!(
        failure(&run("convert", convert("ok", "XYZ"), &options)),
        format!(r#"no rate for "XYZ" in the answer from {base}/ok/latest?base=EUR"#)
    );
    let mut unknown = convert("ok", "USD");
    unknown["precision"] = json!(2);
    assert_eq!(
        failure(&run("convert", unknown, &options)),
        "invalid input: unknown field `precision`, expected one of `amount`, `from`, `to`, `api`"
    );
    assert_eq!(
        failure(&run("convert", json!({"amount": -1, "from": "EUR", "to": "USD"}), &options)),
        "invalid input: `amount` must be a number above 0 and at most 1000000000000"
    );
    assert_eq!(
        failure(&run("history", json!({"limit": 101}), &options)),
        "invalid input: `limit` must be an integer from 1 to 100"
    );
    // Without a grant for the host, the worker refuses the request.
    let ungranted = CallOptions { http: Some(HttpConfig::default()), ..session(&volume) };
    assert!(
        failure(&run("convert", convert("ok", "USD"), &ungranted)).starts_with("HTTP request failed ("),
        "an ungranted host was reached"
    );
    // Nothing was recorded.
    assert!(!volume.path().join("rates/history.jsonl").exists());
}

#[test]
fn a_full_volume_is_a_readable_error() {
    // `fs::append` names the failing step: the open is `append`, the write
    // `write`. The conversion is in the message (review 66: the model got
    // no amount when only the history failed).
    let volume = tempfile::tempdir().unwrap();
    let full = CallOptions { write_budget: Some(10), ..session(&volume) };
    assert_eq!(
        failure(&run("convert", convert("ok", "USD"), &full)),
        "2.0 EUR = 2.1024 USD, but the history could not be written: \
         write /volume/tmp/rates/history.jsonl: disk quota exceeded (EDQUOT): the call's file write budget is spent"
    );
}
