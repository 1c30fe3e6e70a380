//! Properties over generated input (proptest): what `JsonWriter` writes,
//! `json::parse` reads back as the same value (and serde_json reads it too);
//! every id, in every form JSON allows, is echoed byte for byte.

#[path = "../examples/hello.rs"]
mod hello;

use proptest::prelude::*;
use subako_tiny::JsonWriter;
use subako_tiny::json::{Kind, Value, parse};

/// A JSON value as the test builds it.
#[derive(Clone, Debug)]
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    /// Written with `string_of`: the pieces make one string.
    Parts(Vec<String>),
    Array(Vec<Json>),
    /// Members in order, duplicates allowed.
    Object(Vec<(String, Json)>),
}

/// Any text: every char, control characters, quotes and backslashes often.
fn text() -> impl Strategy<Value = String> {
    let char = prop_oneof![
        any::<char>(),
        prop::sample::select(vec![
            '"', '\\', '/', '\n', '\r', '\t', '\u{0}', '\u{1f}', '\u{7f}', '\u{2028}', '😀', 'é'
        ]),
        proptest::char::range('a', 'z'),
    ];
    prop::collection::vec(char, 0..12).prop_map(String::from_iter)
}

fn json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(Json::Int),
        any::<u64>().prop_map(Json::UInt),
        any::<f64>().prop_map(Json::Float),
        prop::sample::select(vec![
            0.0,
            -0.0,
            1e21,
            1e-7,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.1,
            f64::NAN,
            f64::INFINITY
        ])
        .prop_map(Json::Float),
        text().prop_map(Json::Str),
        prop::collection::vec(text(), 0..4).prop_map(Json::Parts),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Json::Array),
            prop::collection::vec((text(), inner), 0..8).prop_map(Json::Object),
        ]
    })
}

fn write(value: &Json, out: &mut JsonWriter) {
    match value {
        Json::Null => {
            out.null();
        }
        Json::Bool(b) => {
            out.bool(*b);
        }
        Json::Int(n) => {
            out.int(*n);
        }
        Json::UInt(n) => {
            out.uint(*n);
        }
        Json::Float(x) => {
            out.float(*x);
        }
        Json::Str(s) => {
            out.string(s);
        }
        Json::Parts(parts) => {
            let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
            out.string_of(parts.as_slice());
        }
        Json::Array(items) => {
            out.begin_array();
            for item in items {
                write(item, out);
            }
            out.end_array();
        }
        Json::Object(members) => {
            out.begin_object();
            for (key, value) in members {
                out.key(key);
                write(value, out);
            }
            out.end_object();
        }
    }
}

/// Asserts that `read` is `value`, through the reader's accessors.
fn assert_reads_as(read: Value<'_>, value: &Json) {
    match value {
        Json::Null => assert!(read.is_null()),
        Json::Bool(b) => assert_eq!(read.as_bool(), Some(*b)),
        Json::Int(n) => {
            assert_eq!(read.as_i64(), Some(*n));
            assert_eq!(read.as_u64(), u64::try_from(*n).ok());
        }
        Json::UInt(n) => {
            assert_eq!(read.as_u64(), Some(*n));
            assert_eq!(read.as_i64(), i64::try_from(*n).ok());
        }
        Json::Float(x) if x.is_finite() => {
            assert_eq!(read.kind(), Kind::Number);
            assert_eq!(
                read.as_f64().unwrap().to_bits(),
                x.to_bits(),
                "{x} written as {:?}",
                String::from_utf8_lossy(read.raw())
            );
        }
        // JSON has no NaN or infinity: they are written as null, as serde_json writes them.
        Json::Float(_) => assert!(read.is_null()),
        Json::Str(s) => {
            let str = read.as_str().unwrap();
            assert_eq!(str.to_str(), s.as_str());
            assert!(str.eq_str(s));
        }
        Json::Parts(parts) => {
            let whole = parts.concat();
            assert_eq!(read.as_str().unwrap().to_str(), whole);
        }
        Json::Array(items) => {
            let array = read.as_array().unwrap();
            assert_eq!(array.len(), items.len());
            for (read, item) in array.iter().zip(items) {
                assert_reads_as(read, item);
            }
        }
        Json::Object(members) => {
            let object = read.as_object().unwrap();
            assert_eq!(object.len(), members.len());
            for ((key, read), (k, v)) in object.iter().zip(members) {
                assert_eq!(key.to_str(), k.as_str());
                assert_reads_as(read, v);
            }
            // `get` finds the last of duplicate keys.
            for (k, _) in members {
                let last = &members.iter().rev().find(|(key, _)| key == k).unwrap().1;
                assert_reads_as(object.get(k).unwrap(), last);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn what_the_writer_writes_the_reader_reads(value in json()) {
        let mut out = JsonWriter::new();
        write(&value, &mut out);
        let bytes = out.as_bytes();
        let read = parse(bytes).unwrap_or_else(|e| panic!("{e:?} in {}", String::from_utf8_lossy(bytes)));
        assert_reads_as(read, &value);
        // serde_json reads it too, and, but for member order (it sorts
        // keys), writes the same value as the same text.
        serde_json::from_slice::<serde_json::Value>(bytes).unwrap();
        if !has_object(&value) {
            prop_assert_eq!(String::from_utf8(serde_json::to_vec(&to_serde(&value)).unwrap()).unwrap(), String::from_utf8(bytes.to_vec()).unwrap());
        }
    }

    #[test]
    fn every_id_is_echoed_byte_for_byte(id in id_text(), method in method()) {
        let line = match method {
            "tools/call" => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"greet","arguments":{{"name":"x"}},{META}}}}}"#),
            "no meta" => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{}}}}"#),
            "1.0" => format!(r#"{{"jsonrpc":"1.0","id":{id},"method":"tools/list"}}"#),
            "no method" => format!(r#"{{"jsonrpc":"2.0","id":{id}}}"#),
            method => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{META}}}}}"#),
        };
        let (stdout, code) = subako_tiny::execute(&hello::PACKAGE, &["hello"], line.as_bytes());
        prop_assert_eq!(code, 0);
        let stdout = String::from_utf8(stdout).unwrap();
        prop_assert!(stdout.ends_with('\n') && stdout.matches('\n').count() == 1, "{}", stdout);
        // JSON (ours: serde_json refuses ids beyond f64, such as 1e400).
        let answer = parse(stdout.trim_end().as_bytes()).unwrap().as_object().unwrap();
        prop_assert!(answer.get("jsonrpc").unwrap().as_str().unwrap().eq_str("2.0"));
        prop_assert_eq!(answer.get("id").unwrap().raw(), id.as_bytes());
        // Results start with the id, errors end with it: byte for byte either way.
        let echoed = stdout.starts_with(&format!("{{\"id\":{id},\"jsonrpc\":\"2.0\",\"result\":"))
            || stdout.ends_with(&format!(",\"id\":{id},\"jsonrpc\":\"2.0\"}}\n"));
        prop_assert!(echoed, "id {} not echoed in {}", id, stdout);
    }
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// The value as serde_json holds it (arrays and scalars only).
fn to_serde(value: &Json) -> serde_json::Value {
    match value {
        Json::Null => serde_json::Value::Null,
        Json::Bool(b) => (*b).into(),
        Json::Int(n) => (*n).into(),
        Json::UInt(n) => (*n).into(),
        Json::Float(x) => (*x).into(), // NaN and infinities become null
        Json::Str(s) => s.as_str().into(),
        Json::Parts(parts) => parts.concat().into(),
        Json::Array(items) => items.iter().map(to_serde).collect(),
        Json::Object(_) => unreachable!("serde_json sorts keys"),
    }
}

/// True when the value holds an object, whose keys serde_json writes sorted.
fn has_object(value: &Json) -> bool {
    match value {
        Json::Object(_) => true,
        Json::Array(items) => items.iter().any(has_object),
        _ => false,
    }
}

fn method() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "server/discover",
        "tools/list",
        "tools/call",
        "nope/unknown",
        "no meta",
        "1.0",
        "no method",
    ])
}

/// Id text in every form JSON allows: numbers of any size and shape
/// (`-0`, fractions, exponents, beyond u64 and f64), and strings with any
/// character written plainly or escaped in any of JSON's ways.
fn id_text() -> impl Strategy<Value = String> {
    let number = "-?(0|[1-9][0-9]{0,40})(\\.[0-9]{1,20})?([eE][+-]?[0-9]{1,4})?";
    prop_oneof![
        number,
        prop::sample::select(vec![
            "-0",
            "0",
            "-0.0e-0",
            "1E+400",
            "-1e-400",
            "18446744073709551616",
            "-9223372036854775809"
        ])
        .prop_map(String::from),
        string_text(),
    ]
}

/// A JSON string literal for random text, each char written in a random
/// one of the ways JSON allows.
fn string_text() -> impl Strategy<Value = String> {
    prop::collection::vec((any::<char>(), 0u8..4), 0..10).prop_map(|chars| {
        let mut out = String::from("\"");
        for (c, style) in chars {
            let short = match c {
                '"' => Some("\\\""),
                '\\' => Some("\\\\"),
                '/' => Some("\\/"),
                '\u{8}' => Some("\\b"),
                '\u{c}' => Some("\\f"),
                '\n' => Some("\\n"),
                '\r' => Some("\\r"),
                '\t' => Some("\\t"),
                _ => None,
            };
            let must_escape = c == '"' || c == '\\' || (c as u32) < 0x20;
            match (style, short) {
                (0, _) if !must_escape => out.push(c),
                (1, Some(short)) => out.push_str(short),
                (2, _) => {
                    // Lower-case hex, surrogate pairs beyond the BMP.
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
                _ => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{unit:04X}"));
                    }
                }
            }
        }
        out.push('"');
        out
    })
}
