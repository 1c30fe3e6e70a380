//! What the fuzz targets share: the comparison of subako-tiny's reader with
//! serde_json, and a small package whose tools touch every `Args` accessor.
//!
//! Deliberate differences from serde_json, which the checks allow:
//! - numbers out of `f64` range (`1e400`, `-1e400`): serde_json refuses the
//!   document ("number out of range"); subako-tiny validates only JSON's
//!   grammar and keeps the text; `as_f64` refuses it (`None`), as
//!   serde_json does, where `num::parse_f64` reads it as ±infinity;
//! - `-0`: serde_json reads it as the float `-0.0`; `as_i64` reads it as the
//!   integer 0 (its text is an integer), `as_f64` as `-0.0`.

use serde_json::Value as Theirs;
use subako_tiny::json::{Kind, Value};
use subako_tiny::{Args, JsonWriter, Package, Reply, Tool, ToolError};

/// True when serde_json refused `error` for a number too large for `f64`,
/// which subako-tiny accepts on purpose.
pub fn out_of_range(error: &serde_json::Error) -> bool {
    error.to_string().starts_with("number out of range")
}

/// Checks the reader against serde_json on one document: both accept it or
/// both refuse it (but for [`out_of_range`]), and what both accept reads as
/// the same value.
pub fn check_document(data: &[u8]) {
    let ours = subako_tiny::json::parse(data);
    let theirs = serde_json::from_slice::<Theirs>(data);
    match (&ours, &theirs) {
        (Ok(ours), Ok(theirs)) => same(*ours, theirs, &mut String::from("$")),
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) if out_of_range(e) => {}
        (Ok(ours), Err(e)) => {
            panic!("we accept what serde_json refuses ({e}): {:?}", String::from_utf8_lossy(ours.raw()))
        }
        (Err(ours), Ok(_)) => panic!("we refuse what serde_json accepts: {ours:?}"),
    }
    // `validate` is the const fn the package table uses: it must agree with `parse`.
    assert_eq!(subako_tiny::json::validate(data).is_ok(), ours.is_ok());
}

/// Asserts that `ours` reads as `theirs`, naming the path of a difference.
pub fn same(ours: Value<'_>, theirs: &Theirs, path: &mut String) {
    let raw = || String::from_utf8_lossy(ours.raw()).into_owned();
    match theirs {
        Theirs::Null => {
            assert_eq!(ours.kind(), Kind::Null, "{path}");
            assert!(ours.is_null(), "{path}");
        }
        Theirs::Bool(b) => {
            assert_eq!(ours.kind(), Kind::Bool, "{path}");
            assert_eq!(ours.as_bool(), Some(*b), "{path}");
        }
        Theirs::Number(n) => {
            assert_eq!(ours.kind(), Kind::Number, "{path}");
            same_number(ours, n, path);
        }
        Theirs::String(s) => {
            assert_eq!(ours.kind(), Kind::String, "{path}");
            let str = ours.as_str().expect("a string reads as a string");
            assert_eq!(str.to_str(), s.as_str(), "{path}: {}", raw());
            assert!(str.eq_str(s), "{path}: eq_str({s:?}) on {}", raw());
            assert_eq!(str.is_plain(), !str.raw().contains(&b'\\'), "{path}");
        }
        Theirs::Array(items) => {
            assert_eq!(ours.kind(), Kind::Array, "{path}");
            let array = ours.as_array().expect("an array reads as an array");
            assert_eq!(array.len(), items.len(), "{path}");
            assert_eq!(array.is_empty(), items.is_empty(), "{path}");
            // Each element read once gives what passing it, then walking
            // its members, gives: looked for by the first object's names.
            let names: Vec<&str> = items
                .iter()
                .find_map(Theirs::as_object)
                .into_iter()
                .flat_map(|m| m.keys())
                .map(String::as_str)
                .collect();
            let keys = [names.first().copied().unwrap_or("a"), names.last().copied().unwrap_or("b"), ""];
            let once: Vec<_> = array.fields(keys).collect();
            let twice: Vec<_> = array.iter().map(|e| Some(e.as_object()?.fields(keys))).collect();
            assert_eq!(once, twice, "{path}: Array::fields");
            for (i, (o, t)) in array.iter().zip(items).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                same(o, t, path);
                path.truncate(len);
            }
        }
        Theirs::Object(members) => {
            assert_eq!(ours.kind(), Kind::Object, "{path}");
            let object = ours.as_object().expect("an object reads as an object");
            // Duplicates: serde_json keeps the last, and so does `get`.
            let mut keys: Vec<String> = object.iter().map(|(k, _)| k.to_str().into_owned()).collect();
            assert_eq!(object.len(), keys.len(), "{path}");
            keys.sort();
            keys.dedup();
            let mut theirs_keys: Vec<&String> = members.keys().collect();
            theirs_keys.sort();
            assert_eq!(keys.iter().collect::<Vec<_>>(), theirs_keys, "{path}: keys");
            assert_eq!(object.is_empty(), members.is_empty(), "{path}");
            for (key, t) in members {
                let o = object.get(key).expect("every key serde_json read is found");
                let len = path.len();
                path.push('.');
                path.push_str(key);
                same(o, t, path);
                path.truncate(len);
            }
        }
    }
}

fn same_number(ours: Value<'_>, n: &serde_json::Number, path: &str) {
    let text = String::from_utf8_lossy(ours.raw()).into_owned();
    let f = ours.as_f64().expect("a number reads as f64");
    if let Some(u) = n.as_u64() {
        assert_eq!(ours.as_u64(), Some(u), "{path}: {text}");
        assert_eq!(ours.as_i64(), i64::try_from(u).ok(), "{path}: {text}");
        assert_eq!(f.to_bits(), (u as f64).to_bits(), "{path}: {text}");
    } else if let Some(i) = n.as_i64() {
        assert_eq!(ours.as_i64(), Some(i), "{path}: {text}");
        assert_eq!(ours.as_u64(), None, "{path}: {text}");
        assert_eq!(f.to_bits(), (i as f64).to_bits(), "{path}: {text}");
    } else {
        let t = n.as_f64().expect("serde_json's third kind of number");
        assert_eq!(f.to_bits(), t.to_bits(), "{path}: {text}");
        assert_eq!(ours.as_u64(), None, "{path}: {text}");
        // Only `-0` is an integer to us and a float to serde_json.
        match ours.as_i64() {
            None => {}
            Some(0) if text == "-0" => {}
            Some(i) => panic!("{path}: {text} read as the integer {i}, serde_json reads {t}"),
        }
    }
}

/// Returns its arguments as they came, or says there were none.
fn echo(args: &Args<'_>) -> Result<Reply, ToolError> {
    match args.object() {
        Some(object) => {
            let mut out = JsonWriter::new();
            out.raw(object.as_value().raw());
            Ok(Reply::json(out))
        }
        None => Ok(Reply::text("no arguments")),
    }
}

/// Reads every kind of argument and writes what it read.
fn typed(args: &Args<'_>) -> Result<Reply, ToolError> {
    let mut out = JsonWriter::new();
    out.begin_object();
    if let Some(s) = args.opt_str("s")? {
        out.key("s").string(&s);
    }
    if let Some(i) = args.opt_int("i", -1000, 1000)? {
        out.key("i").int(i);
    }
    if let Some(f) = args.opt_float("f")? {
        out.key("f").float(f);
    }
    if let Some(b) = args.opt_bool("b")? {
        out.key("b").bool(b);
    }
    if let Some(nested) = args.opt_nested("n")? {
        out.key("n").string(&nested.str("name")?);
    }
    if let Some(array) = args.opt_array("a")? {
        out.key("a").uint(array.len() as u64);
    }
    out.end_object();
    Ok(Reply::json(out).with_text("read").with_image_file("/volume/a b.png"))
}

fn fail(_: &Args<'_>) -> Result<Reply, ToolError> {
    Err(ToolError::new("this tool always fails"))
}

/// The schema of `bounded`: two strings with bounds on their lengths.
const BOUNDED: &str = r#"{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":40},"t":{"type":"string","maxLength":3}}}"#;

/// Answers only what `validated!` lets through.
fn bounded(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("within bounds"))
}

/// Lines past this are refused: small, so fuzz inputs reach the limit.
pub const FUZZ_MAX_LINE: usize = 512;

/// The package the protocol target serves.
pub const PACKAGE: Package = Package::new(
    "fuzz",
    "0.0.0",
    "Tools for fuzzing the exchange.",
    &[
        Tool::new("echo", "Returns its arguments.", r#"{"type":"object"}"#, echo),
        Tool::new(
            "typed",
            "Reads typed arguments.",
            r#"{"properties":{"s":{"type":"string"},"i":{"type":"integer"}},"type":"object"}"#,
            typed,
        ),
        Tool::new("fail", "Always fails.", r#"{"type":"object"}"#, fail),
        subako_tiny::validated!(Tool::new("bounded", "Checks two strings' lengths.", BOUNDED, bounded)),
    ],
)
.max_line(FUZZ_MAX_LINE);

/// Splits stdin as the module does: at each `\n` (kept), and a last line
/// without one.
pub fn lines(stdin: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = stdin.split_inclusive(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Checks one output line: JSON-RPC 2.0, exactly one of `result` and
/// `error`, an `id`. Returns the message.
pub fn check_message(line: &[u8]) -> serde_json::Map<String, Theirs> {
    let text = String::from_utf8_lossy(line);
    let message = match serde_json::from_slice::<Theirs>(line) {
        Ok(Theirs::Object(message)) => message,
        // An id (or an echoed value) out of f64 range, as it was sent.
        Err(e) if out_of_range(&e) => return check_message_beyond_f64(line, &text),
        _ => panic!("output line is not a JSON object: {text}"),
    };
    assert_eq!(message.get("jsonrpc"), Some(&Theirs::from("2.0")), "{text}");
    let id = message.get("id").unwrap_or_else(|| panic!("no id: {text}"));
    assert!(id.is_null() || id.is_string() || id.is_number(), "{text}");
    match (message.get("result"), message.get("error")) {
        (Some(result), None) => {
            let result = result.as_object().unwrap_or_else(|| panic!("result is not an object: {text}"));
            if let Some(content) = result.get("content") {
                let blocks = content.as_array().unwrap_or_else(|| panic!("content is not an array: {text}"));
                for block in blocks {
                    assert!(block.get("type").is_some_and(Theirs::is_string), "{text}");
                }
            }
        }
        (None, Some(error)) => {
            assert!(error.get("code").is_some_and(Theirs::is_i64), "{text}");
            assert!(error.get("message").is_some_and(Theirs::is_string), "{text}");
        }
        _ => panic!("not exactly one of result and error: {text}"),
    }
    message
}

/// [`check_message`] for a line serde_json refuses only for a number out of
/// `f64` range: the same checks with subako-tiny's reader. Returns its `id`
/// (as serde_json reads it, or as its text when out of range too) and its
/// error's `code`: what [`check_answer`] looks at.
fn check_message_beyond_f64(line: &[u8], text: &str) -> serde_json::Map<String, Theirs> {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    let parsed = subako_tiny::json::parse(body).unwrap_or_else(|e| panic!("output line is not JSON ({e:?}): {text}"));
    let message = parsed.as_object().unwrap_or_else(|| panic!("output line is not a JSON object: {text}"));
    let jsonrpc = message.get("jsonrpc").and_then(|v| v.as_str()).map(|s| s.to_str().into_owned());
    assert_eq!(jsonrpc.as_deref(), Some("2.0"), "{text}");
    let id = message.get("id").unwrap_or_else(|| panic!("no id: {text}"));
    assert!(matches!(id.kind(), Kind::Null | Kind::String | Kind::Number), "{text}");
    let mut out = serde_json::Map::new();
    let id_text = String::from_utf8_lossy(id.raw()).into_owned();
    out.insert("id".into(), serde_json::from_str(&id_text).unwrap_or(Theirs::String(id_text)));
    match (message.get("result"), message.get("error")) {
        (Some(result), None) => {
            let result = result.as_object().unwrap_or_else(|| panic!("result is not an object: {text}"));
            if let Some(content) = result.get("content") {
                let blocks = content.as_array().unwrap_or_else(|| panic!("content is not an array: {text}"));
                for block in blocks.iter() {
                    let kind = block.as_object().and_then(|b| b.get("type"));
                    assert!(kind.is_some_and(|k| k.kind() == Kind::String), "{text}");
                }
            }
        }
        (None, Some(error)) => {
            let error = error.as_object().unwrap_or_else(|| panic!("error is not an object: {text}"));
            let code = error.get("code").and_then(|c| c.as_i64()).unwrap_or_else(|| panic!("no integer code: {text}"));
            assert!(error.get("message").is_some_and(|m| m.kind() == Kind::String), "{text}");
            out.insert("error".into(), serde_json::json!({ "code": code }));
        }
        _ => panic!("not exactly one of result and error: {text}"),
    }
    out
}

/// The id a line's request must be answered with, when the line is a
/// request serde_json reads: an object with a string `jsonrpc`, a string or
/// number `id` and a string `method`.
fn request_id(line: &[u8]) -> Option<Theirs> {
    let Ok(Theirs::Object(message)) = serde_json::from_slice::<Theirs>(line) else {
        return None;
    };
    let id = message.get("id")?;
    let usable = message.get("jsonrpc").is_some_and(Theirs::is_string)
        && (id.is_string() || id.is_number())
        && message.get("method").is_some_and(Theirs::is_string);
    usable.then(|| id.clone())
}

/// Checks the answer to one input line, `out` being all the module wrote
/// for it.
pub fn check_answer(package: &Package, line: &[u8], out: &[u8]) {
    assert!(out.is_empty() || out.ends_with(b"\n"), "unterminated output");
    let answers: Vec<&[u8]> = out.split_inclusive(|&b| b == b'\n').collect();
    assert!(answers.len() <= 1, "one line, {} answers", answers.len());
    let answer = answers.first().map(|a| check_message(a));
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    let error_code =
        |a: &serde_json::Map<String, Theirs>| a.get("error").and_then(|e| e.get("code")).and_then(Theirs::as_i64);
    if body.len() > package.max_line {
        let answer = answer.expect("a too-long line is answered");
        assert_eq!(error_code(&answer), Some(-32600));
        assert!(answer["id"].is_null());
        return;
    }
    match serde_json::from_slice::<Theirs>(line) {
        Err(e) if !out_of_range(&e) => {
            let answer = answer
                .as_ref()
                .unwrap_or_else(|| panic!("unanswered unreadable line: {}", String::from_utf8_lossy(line)));
            assert_eq!(error_code(answer), Some(-32700));
            assert!(answer["id"].is_null());
        }
        _ => {}
    }
    if let Some(id) = request_id(line) {
        let answer = answer.unwrap_or_else(|| panic!("unanswered request: {}", String::from_utf8_lossy(line)));
        assert_eq!(answer["id"], id, "answered with another id");
        check_tool_answer(line, &answer);
    } else if let Some(answer) = answer {
        // Whatever else is answered carries the line's id or null.
        let id = &answer["id"];
        if !id.is_null() {
            let Ok(Theirs::Object(message)) = serde_json::from_slice::<Theirs>(line) else {
                // A line only we read (a number out of f64 range): its id is
                // somewhere in the line's text.
                return;
            };
            assert_eq!(message.get("id"), Some(id));
        }
    }
}

/// Checks what a tool answered a `tools/call` that serde_json reads, against
/// what serde_json reads of its arguments: `typed` echoes `s` as it was
/// sent (escaped or not, the request's longest string or not), and `bounded`
/// refuses exactly the strings of other lengths.
fn check_tool_answer(line: &[u8], answer: &serde_json::Map<String, Theirs>) {
    let Some(result) = answer.get("result") else { return };
    let Ok(Theirs::Object(message)) = serde_json::from_slice::<Theirs>(line) else { return };
    // Only a call runs a tool: any other method may carry the same params.
    if message.get("method").and_then(Theirs::as_str) != Some("tools/call") {
        return;
    }
    let params = message.get("params");
    let (Some(name), arguments) = (params.and_then(|p| p.get("name")), params.and_then(|p| p.get("arguments"))) else {
        return;
    };
    let refused = result.get("isError") == Some(&Theirs::Bool(true));
    let text = String::from_utf8_lossy(line);
    if name == "typed" && !refused {
        let sent = arguments.and_then(|a| a.get("s")).filter(|s| s.is_string());
        let echoed = result.get("structuredContent").and_then(|c| c.get("s"));
        assert_eq!(echoed, sent, "{text}");
    }
    if name == "bounded" {
        let within = |key: &str, min: usize, max: usize| match arguments.and_then(|a| a.get(key)) {
            None => true,
            Some(Theirs::String(s)) => (min..=max).contains(&s.chars().count()),
            Some(_) => false,
        };
        let allowed = match arguments {
            None => true,
            Some(Theirs::Object(_)) => within("s", 2, 40) && within("t", 0, 3),
            Some(_) => false,
        };
        assert_eq!(refused, !allowed, "{text}");
    }
}

/// Runs `stdin` through the whole exchange and checks every answer. Lines
/// are independent, so the whole run equals each line run on its own.
pub fn check_exchange(package: &Package, stdin: &[u8]) {
    let (out, code) = subako_tiny::execute(package, &["fuzz"], stdin);
    assert_eq!(code, 0);
    let mut joined = Vec::new();
    for line in lines(stdin) {
        let (one, code) = subako_tiny::execute(package, &["fuzz"], line);
        assert_eq!(code, 0);
        check_answer(package, line, &one);
        joined.extend_from_slice(&one);
    }
    assert!(out == joined, "a line's answer depends on the lines around it");
}
