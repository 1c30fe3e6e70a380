//! The wire: building requests the way Subako sends them and sorting the lines
//! a module prints into JSON-RPC message kinds.

use serde_json::value::RawValue;
use serde_json::{Value, json};

/// The stateless MCP revision Subako speaks.
pub const PROTOCOL_VERSION: &str = "2026-07-28";

/// The `_meta` every Subako request carries.
pub fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "subako-tiny-runner", "version": env!("CARGO_PKG_VERSION")},
    })
}

/// One request line (with trailing newline), `params._meta` filled in.
pub fn request_line(id: impl Into<Value>, method: &str, params: Value) -> String {
    let mut params = match params {
        Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    params.insert("_meta".into(), meta());
    let msg = json!({"jsonrpc": "2.0", "id": id.into(), "method": method, "params": params});
    let mut s = msg.to_string();
    s.push('\n');
    s
}

/// [`request_line`] with one more member of `params`, `key`, whose value
/// is `raw` as it is written (numbers, escapes, the order of keys), less
/// the white space between its tokens: a request is one line, and pretty
/// arguments (a file's, a shell's multi-line string) would split it.
pub fn request_line_with(id: impl Into<Value>, method: &str, params: Value, key: &str, raw: &RawValue) -> String {
    let line = request_line(id, method, params);
    // `params` is written last, as an object: the member goes first in it.
    let at = line.find(r#""params":{"#).map(|i| i + r#""params":{"#.len()).unwrap_or(line.len());
    let member = format!("{}:{},", Value::from(key), compact(raw.get()));
    [&line[..at], &member, &line[at..]].concat()
}

/// Valid JSON text without the white space outside its strings.
fn compact(json: &str) -> String {
    let (mut out, mut in_string, mut escaped) = (String::with_capacity(json.len()), false, false);
    for c in json.chars() {
        if in_string {
            (in_string, escaped) = (escaped || c != '"', !escaped && c == '\\');
        } else if c == '"' {
            in_string = true;
        } else if matches!(c, ' ' | '\n' | '\r' | '\t') {
            continue;
        }
        out.push(c);
    }
    out
}

/// What one stdout line is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Line {
    Response {
        id: Value,
        result: Option<Value>,
        error: Option<Value>,
    },
    Request {
        id: Value,
        method: String,
    },
    Notification,
    /// Not a JSON-RPC 2.0 message; the line itself (truncated) for the report.
    Invalid(String),
}

/// Whether serde_json refused a number past f64 (which is JSON, and which
/// a subako-tiny module echoes as an id it was sent).
fn out_of_range(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("number out of range")
}

/// `line` with every number outside strings that is past f64 written `0`.
fn numbers_as_zero(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let (mut i, mut in_string, mut escaped) = (0, false, false);
    while i < line.len() {
        let b = line[i];
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'-' || b.is_ascii_digit() {
            let end = line[i..]
                .iter()
                .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .map_or(line.len(), |n| i + n);
            let token = &line[i..end];
            // Past f64 as serde_json reads it, which rounds otherwise than
            // std near f64::MAX (review 82).
            let past = serde_json::from_slice::<Value>(token).is_err_and(|e| out_of_range(&e));
            out.extend_from_slice(if past { b"0" } else { token });
            i = end;
            continue;
        }
        out.push(b);
        i += 1;
    }
    out
}

pub(crate) fn parse_line(line: &[u8]) -> Line {
    let invalid = || {
        let s = String::from_utf8_lossy(line);
        let mut s: String = s.chars().take(200).collect();
        if line.len() > 200 {
            s.push('…');
        }
        Line::Invalid(s)
    };
    let m = match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(m)) => m,
        Ok(_) => return invalid(),
        // serde_json refuses numbers beyond f64 (`"id":1e400`), which are
        // JSON, and which a subako-tiny module answers (echoing the id):
        // such a member is kept as its text, so the line is still sorted.
        // Only a number past f64 is read on: anything else serde_json
        // refuses, the worker's reader refuses too (review 77: nesting past
        // its limit; review 80: a lone surrogate escape).
        Err(e) if !out_of_range(&e) => return invalid(),
        // The line with each number past f64 read as 0 is held to all of
        // serde_json's rules (reviews 79 to 81: its depth, escapes and
        // keys written twice, which members read as text passed); then only
        // the id may hold such a number, as the text it is: one the module
        // was sent and echoes. Anywhere else the worker refuses the line
        // (review 81: a result holding one hid its isError).
        Err(_) => {
            if !matches!(serde_json::from_slice::<Value>(&numbers_as_zero(line)), Ok(Value::Object(_))) {
                return invalid();
            }
            let Ok(members) = serde_json::from_slice::<std::collections::BTreeMap<String, Box<RawValue>>>(line) else {
                return invalid();
            };
            let mut m = serde_json::Map::new();
            for (k, raw) in members {
                let v = match serde_json::from_str(raw.get()) {
                    Ok(v) => v,
                    // A bare number, not one inside an array or object
                    // (review 82: `[1e400]` stood as an id).
                    Err(e) if k == "id" && out_of_range(&e) && !raw.get().starts_with(['[', '{']) => {
                        Value::String(raw.get().to_owned())
                    }
                    Err(_) => return invalid(),
                };
                m.insert(k, v);
            }
            m
        }
    };
    if m.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return invalid();
    }
    let id = m.get("id").filter(|v| v.is_string() || v.is_number() || v.is_null()).cloned();
    match (m.get("method"), id) {
        (Some(Value::String(method)), Some(id)) => Line::Request { id, method: method.clone() },
        (Some(Value::String(_)), None) if !m.contains_key("id") => Line::Notification,
        (None, Some(id)) => {
            let result = m.get("result").cloned();
            let error = m.get("error").cloned();
            if result.is_some() == error.is_some() {
                return invalid();
            }
            Line::Response { id, result, error }
        }
        _ => invalid(),
    }
}

/// Stdout split into lines: a trailing newline ends the last line, it does not start another.
pub(crate) fn lines(out: &[u8]) -> Box<dyn Iterator<Item = &[u8]> + '_> {
    if out.is_empty() {
        return Box::new(std::iter::empty());
    }
    let out = out.strip_suffix(b"\n").unwrap_or(out);
    Box::new(out.split(|&b| b == b'\n'))
}

pub(crate) fn is_response_line(line: &[u8]) -> bool {
    matches!(parse_line(line), Line::Response { .. })
}

/// Requests (method + id) among the stdin lines: how many answers to wait for.
pub(crate) fn count_requests(stdin: &[u8]) -> usize {
    lines(stdin).filter(|l| matches!(parse_line(l), Line::Request { .. })).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#), Line::Response { .. }));
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","id":"a","method":"x"}"#), Line::Request { .. }));
        assert_eq!(parse_line(br#"{"jsonrpc":"2.0","method":"x"}"#), Line::Notification);
        assert!(matches!(parse_line(b"hello"), Line::Invalid(_)));
        assert!(matches!(parse_line(b""), Line::Invalid(_)));
        assert!(matches!(parse_line(br#"{"jsonrpc":"1.0","id":1,"result":{}}"#), Line::Invalid(_)));
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","id":1}"#), Line::Invalid(_)));
        // Numbers beyond f64 are JSON: a request with such an id, and its
        // answer, are told as they are (serve counted the answer missing).
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","id":1e400,"method":"x"}"#), Line::Request { .. }));
        // Past f64 anywhere but the id, the worker refuses the line (review
        // 81: a result holding one hid its isError).
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","id":1e400,"result":{"n":[1e999]}}"#), Line::Invalid(_)));
        let error =
            br#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true,"structuredContent":{"x":1e400}}}"#;
        assert!(matches!(parse_line(error), Line::Invalid(_)));
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","id":-1e400,"result":{"n":1e-400}}"#), Line::Response { .. }));
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","id":1e400"#), Line::Invalid(_)));
        // A result nested past what serde_json reads (127 levels in the
        // line) is no message the worker reads (review 77).
        let nested = |levels: usize| {
            let value = ["[".repeat(levels - 2), "]".repeat(levels - 2)].concat();
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"structuredContent":{value}}}}}"#)
        };
        assert!(matches!(parse_line(nested(127).as_bytes()), Line::Response { .. }));
        assert!(matches!(parse_line(nested(128).as_bytes()), Line::Invalid(_)));
        // The same beside an id serde_json refuses first (review 79); and
        // brackets in strings are text.
        let beside = |levels: usize| nested(levels).replace(r#""id":1"#, r#""id":1e400"#);
        assert!(matches!(parse_line(beside(127).as_bytes()), Line::Response { .. }));
        assert!(matches!(parse_line(beside(128).as_bytes()), Line::Invalid(_)));
        // A key twice, the deep one first; a lone surrogate beside 1e400.
        let twice = format!(
            r#"{{"x":1e400,"jsonrpc":"2.0","id":1,"result":{{"d":{}{}}},"result":{{}}}}"#,
            "[".repeat(300),
            "]".repeat(300)
        );
        assert!(matches!(parse_line(twice.as_bytes()), Line::Invalid(_)));
        let surrogate = r#"{"x":1e400,"jsonrpc":"2.0","id":1,"result":{"text":"\ud800"}}"#;
        assert!(matches!(parse_line(surrogate.as_bytes()), Line::Invalid(_)));
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","id":1,"result":{"text":"\ud800"}}"#), Line::Invalid(_)));
        // In a copy of a key that keeps another, or after such a number in
        // one member (review 81).
        let dropped = r#"{"x":"\ud800","x":1,"jsonrpc":"2.0","id":1e400,"result":{}}"#;
        assert!(matches!(parse_line(dropped.as_bytes()), Line::Invalid(_)));
        let after = r#"{"jsonrpc":"2.0","id":1e400,"result":{"n":1,"t":"\ud800"}}"#;
        assert!(matches!(parse_line(after.as_bytes()), Line::Invalid(_)));
        // Past f64 as serde_json reads it, near f64::MAX; and only as a
        // bare id (review 82).
        let near = br#"{"jsonrpc":"2.0","id":1.7976931348623158e308,"result":{}}"#;
        assert!(matches!(parse_line(near), Line::Response { .. }));
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","result":{},"id":[1e400]}"#), Line::Invalid(_)));
        assert!(matches!(parse_line(br#"{"jsonrpc":"2.0","result":{},"id":{"a":1e400}}"#), Line::Invalid(_)));
        let strings =
            format!(r#"{{"jsonrpc":"2.0","id":1e400,"result":{{"s":"{}\"{}"}}}}"#, "[".repeat(200), "{".repeat(200));
        assert!(matches!(parse_line(strings.as_bytes()), Line::Response { .. }));
        assert_eq!(lines(b"a\nb\n").count(), 2);
        assert_eq!(lines(b"").count(), 0);
        assert_eq!(lines(b"\n").collect::<Vec<_>>(), vec![b"" as &[u8]]);
        let l = request_line("d", "server/discover", Value::Null);
        assert_eq!(count_requests(l.as_bytes()), 1);
    }
}
