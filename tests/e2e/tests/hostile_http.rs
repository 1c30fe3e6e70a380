//! The fetch example in wasmtime against a `subako_http` that answers what
//! no honest worker would: a saved body at a path the request did not
//! name, and one header name several times. The module must not trust the
//! first (an `abi` error naming both paths) and must write the second as
//! one member per name, as strict JSON readers require.

mod scripted;

use std::fmt;

use scripted::{Script, call_line, call_line_raw, compile, run};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Value, json};
use subako_tiny_e2e::{Variant, example_variant};

/// Runs one `fetch` call whose request the scripted host answers with `answer`.
fn fetch(arguments: Value, answer: &'static str) -> (Value, Vec<Vec<u8>>) {
    fetch_line(call_line("fetch", arguments), answer)
}

fn fetch_line(line: Vec<u8>, answer: &'static str) -> (Value, Vec<Vec<u8>>) {
    let module = compile(&example_variant("fetch", &Variant::default()));
    let volume = tempfile::tempdir().unwrap();
    let script = Script { http: Some(Box::new(move |_| answer.as_bytes().to_vec())), ..Script::default() };
    let ran = run(&module, &["fetch"], &line, &[("/volume/tmp", volume.path())], script);
    assert_eq!(ran.exit, Ok(0), "{}", ran.stderr_text());
    assert_no_duplicate_members(ran.stdout_text());
    (ran.answer()["result"].clone(), ran.counts.http_requests)
}

#[test]
fn a_saved_body_at_another_path_is_an_abi_error() {
    for (path, answer) in [
        (
            "/etc/passwd",
            r#"{"ok":{"status":200,"headers":{},"body":{"type":"file","path":"/etc/passwd","bytes":1234}}}"#,
        ),
        (
            "/volume/tmp/other.bin",
            r#"{"ok":{"status":200,"headers":{},"body":{"type":"file","path":"/volume/tmp/other.bin","bytes":9}}}"#,
        ),
        (
            "/volume/tmp/../../secret",
            r#"{"ok":{"status":200,"headers":{},"body":{"type":"file","path":"/volume/tmp/../../secret","bytes":9}}}"#,
        ),
    ] {
        let (result, requests) =
            fetch(json!({"url": "https://api.example.com/report", "save_to": "/volume/tmp/page.bin"}), answer);
        assert_eq!(requests.len(), 1);
        assert_eq!(result["isError"], json!(true), "{path}: {result}");
        assert_eq!(
            result["content"][0]["text"],
            json!(format!(
                "HTTP request failed (abi): subako_http answered with a file body at {path}, but the request \
                 saved its body to /volume/tmp/page.bin"
            )),
            "{path}"
        );
    }
    // The path the request named is the answer.
    let (result, _) = fetch(
        json!({"url": "https://api.example.com/report", "save_to": "/volume/tmp/page.bin"}),
        r#"{"ok":{"status":200,"headers":{},"body":{"type":"file","path":"/volume/tmp/page.bin","bytes":9}}}"#,
    );
    assert_eq!(
        result["structuredContent"],
        json!({"status": 200, "headers": {}, "path": "/volume/tmp/page.bin", "bytes": 9})
    );
}

#[test]
fn a_header_named_twice_comes_out_once_with_its_values_joined() {
    let (result, _) = fetch(
        json!({"url": "https://api.example.com/"}),
        r#"{"ok":{"status":200,"headers":{"x-a":"1","content-type":"text/plain","x-a":"2","X-A":"3","set-cookie":"a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT","set-cookie":"b=2"},"body":{"type":"inline","text":"hi"}}}"#,
    );
    assert_eq!(result.get("isError"), None, "{result}");
    let headers = &result["structuredContent"]["headers"];
    assert_eq!(
        headers,
        &json!({
            "x-a": "1, 2, 3",
            "content-type": "text/plain",
            "set-cookie": "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=2",
        })
    );
    // In the order each name first came.
    let order: Vec<&String> = headers.as_object().unwrap().keys().collect();
    assert_eq!(order, ["content-type", "set-cookie", "x-a"], "serde_json sorts; the text keeps the order");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains(r#""headers":{"x-a":"1, 2, 3","content-type":"text/plain","set-cookie":"#), "{text}");
}

#[test]
fn headers_named_twice_in_the_arguments_go_out_once() {
    let (result, requests) = fetch_line(
        call_line_raw(
            "fetch",
            r#"{"url": "https://api.example.com/", "headers": {"x-a": "1", "accept": "*/*", "X-A": "2", "x-a": "3"}}"#,
        ),
        r#"{"ok":{"status":204,"headers":{},"body":{"type":"inline","text":""}}}"#,
    );
    assert_eq!(result.get("isError"), None, "{result}");
    let request = String::from_utf8(requests[0].clone()).unwrap();
    assert_no_duplicate_members(&request);
    let request: Value = serde_json::from_str(&request).unwrap();
    assert_eq!(request["headers"], json!({"x-a": "1, 2, 3", "accept": "*/*"}));
}

/// Panics when any object in the JSON `text` (one value per line) names a
/// member twice: serde_json's `Value` keeps the last silently, a strict
/// reader refuses the line.
fn assert_no_duplicate_members(text: &str) {
    struct Strict;
    impl<'de> Deserialize<'de> for Strict {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
            d.deserialize_any(StrictVisitor)
        }
    }
    struct StrictVisitor;
    impl<'de> Visitor<'de> for StrictVisitor {
        type Value = Strict;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("JSON")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key.clone()) {
                    return Err(serde::de::Error::custom(format!("duplicate member {key:?}")));
                }
                map.next_value::<Strict>()?;
            }
            Ok(Strict)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
            while seq.next_element::<Strict>()?.is_some() {}
            Ok(Strict)
        }
        fn visit_str<E>(self, _: &str) -> Result<Strict, E> {
            Ok(Strict)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Strict, E> {
            Ok(Strict)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Strict, E> {
            Ok(Strict)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Strict, E> {
            Ok(Strict)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Strict, E> {
            Ok(Strict)
        }
        fn visit_unit<E>(self) -> Result<Strict, E> {
            Ok(Strict)
        }
    }
    for line in text.lines() {
        if let Err(e) = serde_json::from_str::<Strict>(line) {
            panic!("a line a strict reader refuses ({e}): {line}");
        }
    }
}
