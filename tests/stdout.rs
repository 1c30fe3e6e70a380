//! The stdout guarantee, tested rather than argued: whatever a tool does
//! through any public way of answering (the token writer, well-formed or
//! not; JSON text copied in as it is, numbers beyond f64 and duplicate
//! members included; `Reply::object`; text, image and file blocks; errors;
//! panics), every stdout line parses with serde_json, strictly (no member
//! twice), as exactly one JSON-RPC response to an id that was asked, in
//! order. Running out of memory is the same guarantee in wasmtime
//! (`tests/e2e/tests/out_of_memory.rs`).

use std::collections::HashSet;
use std::fmt;

use proptest::prelude::*;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Value as Serde, json};
use subako_tiny::__test::{Guarded, MemoryIo, serve_package};
use subako_tiny::json::{self, JsonWriter};
use subako_tiny::{Args, Package, Reply, Tool, ToolError, fail};

/// Runs the `ops` of its arguments, each a way of writing output.
fn produce(args: &Args<'_>) -> Result<Reply, ToolError> {
    let mode = args.str("mode")?;
    let ops = args.array("ops")?;
    match &*mode {
        "tokens" => {
            let mut out = JsonWriter::new();
            for op in ops.iter() {
                let op = op.as_object().unwrap();
                let [token, value] = op.fields(["token", "value"]);
                let token = token.and_then(|t| t.as_str()).unwrap().into_string();
                let value = value.unwrap_or(json::parse(b"null").unwrap());
                match token.as_str() {
                    "begin_object" => drop(out.begin_object()),
                    "end_object" => drop(out.end_object()),
                    "begin_array" => drop(out.begin_array()),
                    "end_array" => drop(out.end_array()),
                    "key" => drop(out.key(&value.as_str().unwrap().into_string())),
                    "string" => drop(out.string(&value.as_str().unwrap().into_string())),
                    "int" => drop(out.int(value.as_i64().unwrap_or(0))),
                    "float" => drop(out.float(value.as_f64().unwrap_or(0.0))),
                    "raw" => drop(out.raw(value.as_str().unwrap().into_string().as_bytes())),
                    _ => drop(out.null()),
                }
            }
            Ok(Reply::json(out))
        }
        "object" => {
            let texts: Vec<String> = ops.iter().filter_map(|v| v.as_str()).map(|s| s.into_string()).collect();
            let copied: Vec<Vec<u8>> = texts.iter().map(|t| t.as_bytes().to_vec()).collect();
            Ok(Reply::object(|o| {
                for (k, text) in copied.iter().enumerate() {
                    match json::parse(text) {
                        Ok(value) => o.field(&k.to_string(), value),
                        Err(_) => o.text(&k.to_string(), ("not JSON: ", k)),
                    };
                }
                o.array("floats", |a| a.push(f64::NAN).push(1e300 * 1e300).push(-0.0))
            }))
        }
        "blocks" => {
            let mut reply = Reply::text("first");
            for op in ops.iter() {
                let text = op.as_str().map(|s| s.into_string()).unwrap_or_default();
                reply = match text.len() % 3 {
                    0 => reply.with_text(text.as_str()),
                    1 => reply.with_file(&["/volume/tmp/", &text].concat()),
                    _ => reply.with_image("image/png", text.as_bytes()),
                };
            }
            Ok(reply)
        }
        "fail" => {
            let text = ops.iter().filter_map(|v| v.as_str()).map(|s| s.into_string()).collect::<String>();
            fail!("failed: ", text, " ", ops.len())
        }
        _ => {
            let text = ops.iter().filter_map(|v| v.as_str()).map(|s| s.into_string()).collect::<String>();
            panic!("{}", text)
        }
    }
}

const PACKAGE: Package = Package::new(
    "stdout",
    "0.1.0",
    "Writes output every way.",
    &[Tool::new("produce", "Writes output the way its arguments say.", r#"{"type":"object"}"#, produce)],
);

/// A JSON value read as strict readers read it: serde_json's own limits
/// (numbers within f64, nesting within 128) and no object naming a member
/// twice.
struct Strict;

impl<'de> de::Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Strict;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
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
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Strict, E> {
        if x.is_finite() { Ok(Strict) } else { Err(E::custom("a number beyond f64")) }
    }
    fn visit_str<E>(self, _: &str) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        while seq.next_element::<Strict>()?.is_some() {}
        Ok(Strict)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("the member {key:?} twice")));
            }
            map.next_value::<Strict>()?;
        }
        Ok(Strict)
    }
}

/// Serves `requests` with the guest's own failure policy (a panic becomes an
/// isError result) and checks every stdout line.
fn check_stdout(requests: &[(Serde, Serde)]) {
    let stdin: String = requests
        .iter()
        .map(|(id, arguments)| {
            let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "produce", "arguments": arguments,
                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                          "io.modelcontextprotocol/clientCapabilities": {}}}});
            format!("{message}\n")
        })
        .collect();
    let mut io = MemoryIo { stdin: stdin.as_bytes(), stdout: Vec::new() };
    let code = serve_package(&PACKAGE, false, &mut io, &Guarded::default());
    assert_eq!(code, 0);
    let stdout = String::from_utf8(io.stdout).expect("stdout is UTF-8");
    assert!(stdout.is_empty() || stdout.ends_with('\n'));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), requests.len(), "one answer a request: {stdout}");
    for (line, (id, arguments)) in lines.iter().zip(requests) {
        if let Err(e) = serde_json::from_str::<Strict>(line) {
            panic!("not JSON every reader accepts ({e}): {line}\nfor {arguments}");
        }
        let answer: Serde = serde_json::from_str(line).unwrap();
        assert_eq!(answer["jsonrpc"], "2.0", "{line}");
        assert_eq!(&answer["id"], id, "{line}");
        let result = &answer["result"];
        assert!(answer.get("error").is_none() && result.is_object(), "a result: {line}");
        assert_eq!(result["resultType"], "complete", "{line}");
        assert!(result["content"].as_array().is_some_and(|c| !c.is_empty()), "{line}");
        if let Some(value) = result.get("structuredContent") {
            // The text block holds the same value.
            let text: Serde = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
            assert_eq!(&text, value, "{line}");
        }
    }
}

fn text() -> impl Strategy<Value = String> {
    let char = prop_oneof![
        any::<char>(),
        prop::sample::select(vec!['"', '\\', '\n', '\u{0}', '\u{1f}', '😀', 'é', '日', '{', '[', ':', ',']),
        proptest::char::range('a', 'c'),
    ];
    prop::collection::vec(char, 0..8).prop_map(String::from_iter)
}

/// JSON text, valid or not, with what strict readers refuse in it often.
fn json_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1e400".to_string()),
        Just("-1e999".to_string()),
        Just(r#"{"a":1,"a":2}"#.to_string()),
        Just(r#"{"a":1,"\u0061":2}"#.to_string()),
        Just(format!("{}{}", "[".repeat(126), "]".repeat(126))),
        Just(format!("{}{}", "[".repeat(60), "]".repeat(60))),
        Just(r#"{"ok":[1,2.5,"x",null,true]}"#.to_string()),
        any::<f64>().prop_map(|x| if x.is_finite() { format!("{x:e}") } else { "0".into() }),
        text().prop_map(|t| serde_json::to_string(&t).unwrap()),
        text(),
    ]
}

fn token() -> impl Strategy<Value = Serde> {
    prop_oneof![
        prop::sample::select(vec!["begin_object", "end_object", "begin_array", "end_array", "null"])
            .prop_map(|t| json!({"token": t})),
        text().prop_map(|t| json!({"token": "key", "value": t})),
        text().prop_map(|t| json!({"token": "string", "value": t})),
        any::<i64>().prop_map(|n| json!({"token": "int", "value": n})),
        any::<f64>().prop_map(|x| json!({"token": "float", "value": if x.is_finite() { json!(x) } else { json!(0) }})),
        json_text().prop_map(|t| json!({"token": "raw", "value": t})),
    ]
}

fn arguments() -> impl Strategy<Value = Serde> {
    prop_oneof![
        prop::collection::vec(token(), 0..14).prop_map(|ops| json!({"mode": "tokens", "ops": ops})),
        prop::collection::vec(json_text(), 0..5).prop_map(|ops| json!({"mode": "object", "ops": ops})),
        prop::collection::vec(text(), 0..5).prop_map(|ops| json!({"mode": "blocks", "ops": ops})),
        prop::collection::vec(text(), 0..3).prop_map(|ops| json!({"mode": "fail", "ops": ops})),
        prop::collection::vec(text(), 0..3).prop_map(|ops| json!({"mode": "panic", "ops": ops})),
    ]
}

fn id() -> impl Strategy<Value = Serde> {
    prop_oneof![any::<i64>().prop_map(|n| json!(n)), text().prop_map(Serde::String)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn every_stdout_line_is_one_strict_json_rpc_response_to_an_id_asked(
        requests in prop::collection::vec((id(), arguments()), 1..5)
    ) {
        check_stdout(&requests);
    }
}

/// The cases the generator is meant to reach, each on its own.
#[test]
fn the_hard_cases_are_answered_as_errors() {
    let raw = |t: &str| json!({"mode": "tokens", "ops": [{"token": "raw", "value": t}]});
    for arguments in [
        json!({"mode": "tokens", "ops": [{"token": "begin_object"}, {"token": "key", "value": "rate"}]}),
        raw("1e400"),
        raw(r#"{"a":1,"a":2}"#),
        raw(&format!("{}{}", "[".repeat(126), "]".repeat(126))),
        json!({"mode": "object", "ops": ["[1e400]"]}),
        json!({"mode": "panic", "ops": ["boom \"quoted\" \u{1}"]}),
    ] {
        check_stdout(&[(json!(7), arguments)]);
    }
}
