//! The HTTP answer parser (`http::raw::parse_answer`, what reads `subako_http`'s
//! JSON) never panics, and what it reads is what serde_json reads.
#![no_main]

use serde_json::Value as Theirs;
use subako_tiny::http::raw::parse_answer;
use subako_tiny::http::{HttpErrorKind, ResponseBody};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let parsed = serde_json::from_slice::<Theirs>(data);
    // A file body is read only for a request that saved its body, and only
    // at the path it saved to: ask as that request would.
    let save_to = parsed.as_ref().ok().and_then(|t| t.pointer("/ok/body/path")).and_then(Theirs::as_str);
    let ours = parse_answer(data, save_to);
    let theirs = match parsed {
        Ok(theirs) => theirs,
        // A number out of f64 range: only we read the document.
        Err(e) if subako_tiny_fuzz::out_of_range(&e) => return,
        Err(_) => {
            let e = ours.expect_err("not JSON, so not an answer");
            assert_eq!(e.kind, HttpErrorKind::Abi);
            return;
        }
    };
    match expected(&theirs) {
        Expected::Malformed => {
            let e = ours.expect_err("serde_json reads no answer");
            assert_eq!(e.kind, HttpErrorKind::Abi, "{}", e.message);
        }
        Expected::Error(kind, message) => {
            let e = ours.expect_err("an error answer");
            match HttpErrorKind::from_name(kind) {
                Some(kind) => {
                    assert_eq!(e.kind, kind);
                    assert_eq!(e.message, message);
                }
                None => {
                    assert_eq!(e.kind, HttpErrorKind::Abi);
                    assert!(e.message.ends_with(message));
                }
            }
        }
        Expected::Response(status, headers, body) => {
            let response = ours.expect("a response");
            assert_eq!(response.status as u64, status);
            // A repeated name (ignoring ASCII case) comes once, its values
            // joined with ", " in order; serde_json keeps each spelling's
            // last value, which is one of the joined parts.
            let theirs_headers = headers.cloned().unwrap_or_default();
            let ours_headers: Vec<(&str, &str)> = response.headers().collect();
            for (name, _) in &ours_headers {
                assert!(
                    theirs_headers.keys().any(|k| k.eq_ignore_ascii_case(name)),
                    "header {name} is not in the answer"
                );
            }
            for (name, value) in &theirs_headers {
                let t = value.as_str().unwrap_or_default();
                let (_, v) = ours_headers
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                    .unwrap_or_else(|| panic!("header {name} lost"));
                assert!(
                    *v == t
                        || v.starts_with(&format!("{t}, "))
                        || v.ends_with(&format!(", {t}"))
                        || v.contains(&format!(", {t}, ")),
                    "header {name}: {v:?} does not hold {t:?}"
                );
            }
            match (&response.body, &body) {
                (ResponseBody::Inline { text }, &Body::Inline(t)) => assert_eq!(text, t),
                (ResponseBody::File { path, bytes }, &Body::File(p, b)) => {
                    assert_eq!(path, p);
                    assert_eq!(*bytes, b);
                }
                (ours, theirs) => panic!("body {ours:?} read as {theirs:?}"),
            }
        }
    }
});

#[derive(Debug)]
enum Body<'a> {
    Inline(&'a str),
    File(&'a str, u64),
}

enum Expected<'a> {
    Malformed,
    Error(&'a str, &'a str),
    Response(u64, Option<&'a serde_json::Map<String, Theirs>>, Body<'a>),
}

/// The answer as the ABI defines it, read with serde_json.
fn expected(answer: &Theirs) -> Expected<'_> {
    let Some(answer) = answer.as_object() else { return Expected::Malformed };
    match (answer.get("ok"), answer.get("error")) {
        (None, Some(error)) => {
            let kind = error.get("kind").and_then(Theirs::as_str);
            let message = error.get("message").and_then(Theirs::as_str);
            match (kind, message) {
                (Some(kind), Some(message)) => Expected::Error(kind, message),
                _ => Expected::Malformed,
            }
        }
        (Some(Theirs::Object(ok)), None) => {
            let Some(status) = ok.get("status").and_then(Theirs::as_u64).filter(|s| (100..=999).contains(s)) else {
                return Expected::Malformed;
            };
            let headers = match ok.get("headers") {
                None => None,
                Some(Theirs::Object(h)) if h.values().all(Theirs::is_string) => Some(h),
                Some(_) => return Expected::Malformed,
            };
            let Some(body) = ok.get("body").and_then(Theirs::as_object) else { return Expected::Malformed };
            let text = |key: &str| body.get(key).and_then(Theirs::as_str);
            let body = match text("type") {
                Some("inline") => match text("text") {
                    Some(t) => Body::Inline(t),
                    None => return Expected::Malformed,
                },
                Some("file") => match (text("path"), body.get("bytes")) {
                    (Some(p), Some(Theirs::Number(n))) if n.is_u64() => Body::File(p, n.as_u64().unwrap_or(0)),
                    _ => return Expected::Malformed,
                },
                _ => return Expected::Malformed,
            };
            Expected::Response(status, headers, body)
        }
        _ => Expected::Malformed,
    }
}
