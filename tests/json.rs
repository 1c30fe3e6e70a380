//! The hand-rolled reader and writer against serde_json, the reference.

use serde_json::Value as Reference;
use subako_tiny::json::{self, JsonWriter, Kind, Value};

/// Our value as serde_json's, to compare trees.
fn to_reference(v: Value<'_>) -> Reference {
    match v.kind() {
        Kind::Null => Reference::Null,
        Kind::Bool => Reference::Bool(v.as_bool().unwrap()),
        Kind::Number => serde_json::from_slice(v.raw()).unwrap(),
        Kind::String => Reference::String(v.as_str().unwrap().to_str().into_owned()),
        Kind::Array => Reference::Array(v.as_array().unwrap().iter().map(to_reference).collect()),
        Kind::Object => {
            let mut map = serde_json::Map::new();
            for (k, v) in v.as_object().unwrap().iter() {
                map.insert(k.to_str().into_owned(), to_reference(v));
            }
            Reference::Object(map)
        }
    }
}

const VALID: &[&str] = &[
    "0",
    "-0",
    "1.5e-3",
    "-12.25E+10",
    "123456789012345678901234567890",
    " true ",
    "false",
    "null",
    r#""""#,
    r#""\"\\\/\b\f\n\r\t""#,
    r#""\u0000\u001f\u00e9\uFFFF""#,
    r#""\ud83d\ude00""#,
    "\"ünïcödé 😀\"",
    "[]",
    "[ ]",
    "{}",
    "{ }",
    r#"[1,[2,[3,{"a":[{}]}]]]"#,
    r#"{"a":1,"a":2}"#,
    "\t\r\n[\n1 ,\t2 ]\r\n",
    r#"{"":{"":""}}"#,
    r#"{"k\u0065y":"v"}"#,
];

const INVALID: &[&str] = &[
    "",
    " ",
    "01",
    "1.",
    ".5",
    "-",
    "+1",
    "1e",
    "1e+",
    "0x10",
    "NaN",
    "Infinity",
    "tru",
    "nul",
    "[1,]",
    "[,1]",
    "{\"a\"}",
    "{\"a\":}",
    "{\"a\":1,}",
    "{1:2}",
    "[1 2]",
    "\"unterminated",
    "\"\\x\"",
    "\"\\u12\"",
    "\"\\ud800\"",
    "\"\\udc00\"",
    "\"\\ud800\\u0041\"",
    "\"\t\"",
    "\"\n\"",
    "[1]]",
    "{}}",
    "1 2",
    "[",
    "{",
    "\"a\" x",
    "'a'",
];

#[test]
fn the_reader_agrees_with_serde_json_on_validity_and_values() {
    for doc in VALID {
        let ours = json::parse(doc.as_bytes()).unwrap_or_else(|e| panic!("{doc:?}: {e:?}"));
        let theirs: Reference = serde_json::from_str(doc).unwrap();
        assert_eq!(to_reference(ours), theirs, "{doc:?}");
    }
    for doc in INVALID {
        assert!(json::parse(doc.as_bytes()).is_err(), "accepted {doc:?}");
        assert!(serde_json::from_str::<Reference>(doc).is_err(), "serde accepts {doc:?}");
    }
}

#[test]
fn invalid_utf8_in_strings_is_refused_like_serde_json() {
    for bytes in [
        &b"\"\xff\""[..],
        b"\"\xc0\xaf\"",         // overlong '/'
        b"\"\xed\xa0\x80\"",     // an encoded surrogate
        b"\"\xf4\x90\x80\x80\"", // past U+10FFFF
        b"\"\xe2\x82\"",         // truncated
    ] {
        assert!(json::parse(bytes).is_err(), "{bytes:?}");
        assert!(serde_json::from_slice::<Reference>(bytes).is_err(), "{bytes:?}");
    }
    assert!(json::parse("\"\u{10FFFF}\u{800}\u{80}\"".as_bytes()).is_ok());
}

#[test]
fn depth_is_limited_exactly_where_serde_json_limits_it() {
    for depth in [126, 127, 128, 129] {
        let doc = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(
            json::parse(doc.as_bytes()).is_ok(),
            serde_json::from_str::<Reference>(&doc).is_ok(),
            "depth {depth}"
        );
    }
    assert!(json::parse(format!("{}{}", "[".repeat(127), "]".repeat(127)).as_bytes()).is_ok());
}

#[test]
fn errors_say_where() {
    let e = json::parse(b"[1, 2,]").unwrap_err();
    assert_eq!(e.offset, 6);
    assert_eq!(e.kind, json::ReadErrorKind::Unexpected);
    assert_eq!(json::parse(b"[1").unwrap_err().kind, json::ReadErrorKind::Eof);
    assert_eq!(json::parse(b"1 2").unwrap_err().kind, json::ReadErrorKind::Trailing);
}

#[test]
fn integers_read_within_their_range_only() {
    let int = |s: &str| json::parse(s.as_bytes()).unwrap().as_i64();
    assert_eq!(int("-9223372036854775808"), Some(i64::MIN));
    assert_eq!(int("9223372036854775807"), Some(i64::MAX));
    assert_eq!(int("9223372036854775808"), None);
    assert_eq!(int("-9223372036854775809"), None);
    assert_eq!(int("1.0"), None);
    assert_eq!(int("1e2"), None);
    assert_eq!(json::parse(b"18446744073709551615").unwrap().as_u64(), Some(u64::MAX));
    assert_eq!(json::parse(b"18446744073709551616").unwrap().as_u64(), None);
    assert_eq!(json::parse(b"-1").unwrap().as_u64(), None);
    assert_eq!(json::parse(b"2.5e-1").unwrap().as_f64(), Some(0.25));
}

#[test]
fn the_writer_escapes_and_formats_as_serde_json_does() {
    let text: String = (0u8..0x80).map(char::from).chain("é😀\u{2028}".chars()).collect();
    let mut w = JsonWriter::new();
    w.begin_object()
        .key("text")
        .string(&text)
        .key("ints")
        .begin_array()
        .int(i64::MIN)
        .int(-1)
        .int(0)
        .uint(u64::MAX)
        .end_array()
        .key("floats")
        .begin_array()
        .float(0.1)
        .float(1.0)
        .float(-2.5e-8)
        .float(1e21)
        .float(f64::NAN)
        .end_array()
        .key("empty")
        .begin_object()
        .end_object()
        .key("b")
        .bool(true)
        .key("n")
        .null()
        .end_object();
    let ours = String::from_utf8(w.into_bytes()).unwrap();
    let theirs = serde_json::to_string(&serde_json::json!({
        "text": text,
        "ints": [i64::MIN, -1, 0, u64::MAX],
        "floats": [0.1, 1.0, -2.5e-8, 1e21, null],
        "empty": {},
        "b": true,
        "n": null,
    }))
    .unwrap();
    // serde_json sorts keys; compare as values, and the strings byte for byte.
    assert_eq!(serde_json::from_str::<Reference>(&ours).unwrap(), serde_json::from_str::<Reference>(&theirs).unwrap());
    let escaped = serde_json::to_string(&text).unwrap();
    assert!(ours.contains(&escaped), "{ours}");
    assert!(ours.contains("[0.1,1.0,-2.5e-8,1e+21,null]"), "{ours}");
}

#[test]
fn compacting_keeps_strings_whole() {
    let mut w = JsonWriter::new();
    w.compact(b"{ \"a b\" : [ 1 , \"x \\\" y\" ] ,\n \"c\":\t{} }");
    assert_eq!(w.as_bytes(), br#"{"a b":[1,"x \" y"],"c":{}}"#);
}

#[test]
fn long_strings_are_read_in_linear_time() {
    // 4 MiB in one string: the size-notes' naive scanner took seconds here
    // (4 KiB under Miri, which checks the same code, slowly).
    let half = if cfg!(miri) { 2 << 10 } else { 2 << 20 };
    let doc = format!("\"{}\\n{}\"", "x".repeat(half), "y".repeat(half));
    let value = json::parse(doc.as_bytes()).unwrap();
    assert_eq!(value.as_str().unwrap().to_str().len(), 2 * half + 1);
}

#[test]
fn both_digit_writers_agree_with_std_at_their_edges() {
    use subako_tiny::json::num::{u64_digits, usize_digits, write_usize};
    for n in [0u64, 9, 10, 99, 100, u32::MAX as u64, u64::MAX] {
        assert_eq!(u64_digits(n, &mut [0; 20]), n.to_string().as_bytes());
    }
    for n in [0usize, 9, 10, u32::MAX as usize, usize::MAX] {
        assert_eq!(usize_digits(n, &mut [0; 20]), n.to_string().as_bytes());
        let mut out = b"x".to_vec();
        write_usize(&mut out, n);
        assert_eq!(out, format!("x{n}").as_bytes());
    }
}
