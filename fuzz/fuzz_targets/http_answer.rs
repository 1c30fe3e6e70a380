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
    match expected(&theirs, data) {
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
fn expected<'a>(answer: &'a Theirs, raw: &[u8]) -> Expected<'a> {
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
                Some(Theirs::Object(h)) if h.values().all(Theirs::is_string) && every_header_a_string(raw) => Some(h),
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

/// True unless a header name given twice in `ok.headers` has a value that is
/// not a string in an occurrence serde_json's `Value` drops (it keeps the
/// last). The official SDK reads headers as `BTreeMap<String, String>`, which
/// refuses such a value wherever it stands, and so do we.
fn every_header_a_string(raw: &[u8]) -> bool {
    let Ok(Kept::Object(top)) = serde_json::from_slice::<Kept>(raw) else { return true };
    match last(&top, "ok") {
        Some(Kept::Object(ok)) => match last(ok, "headers") {
            Some(Kept::Object(headers)) => headers.iter().all(|(_, v)| matches!(v, Kept::String)),
            _ => true,
        },
        _ => true,
    }
}

/// The member serde_json's `Value` keeps of those named `name`: the last.
fn last<'a>(members: &'a [(String, Kept)], name: &str) -> Option<&'a Kept> {
    members.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// A JSON value with every member of an object kept, duplicates included.
enum Kept {
    String,
    Object(Vec<(String, Kept)>),
    Other,
}

impl<'de> serde::Deserialize<'de> for Kept {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Kept;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Kept, E> {
                Ok(Kept::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Kept, E> {
                Ok(Kept::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Kept, E> {
                Ok(Kept::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Kept, E> {
                Ok(Kept::Other)
            }
            fn visit_str<E>(self, _: &str) -> Result<Kept, E> {
                Ok(Kept::String)
            }
            fn visit_unit<E>(self) -> Result<Kept, E> {
                Ok(Kept::Other)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Kept, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Kept::Other)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Kept, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, Kept>()? {
                    members.push(member);
                }
                Ok(Kept::Object(members))
            }
        }
        d.deserialize_any(Visitor)
    }
}
