//! The walk's own tests: refusals, the validated subset, numbers, nesting.

extern crate std;

use super::numbers::compare_numbers;
use super::walker::walk;
use super::*;
use std::borrow::ToOwned;
use std::string::String;

fn refusal(schema: &str, strict: bool) -> Option<(&'static str, &str)> {
    let b = schema.as_bytes();
    assert!(crate::json::validate(b).is_ok(), "test schema is not JSON: {schema}");
    walk(b, strict).err().map(|f| (f.rule, f.subject(schema)))
}

#[test]
fn every_tool_needs_an_object_root_saying_object() {
    assert_eq!(refusal(r#"{"type":"object"}"#, false), None);
    assert_eq!(refusal(r#"  {"properties":{}, "type" : "object"}"#, false), None);
    assert_eq!(refusal(r#"[]"#, false), Some(("must be a JSON object", "")));
    assert_eq!(refusal(r#""object""#, false), Some(("must be a JSON object", "")));
    assert_eq!(refusal(r#"{}"#, false).map(|r| r.0), Some("must say \"type\": \"object\" at its root"));
    assert_eq!(refusal(r#"{"type":"array"}"#, false).map(|r| r.0), Some("must say \"type\": \"object\" at its root"));
    assert_eq!(
        refusal(r#"{"type":["object"]}"#, false).map(|r| r.0),
        Some("must say \"type\": \"object\" at its root")
    );
}

#[test]
fn refs_are_refused_wherever_a_keyword_can_be() {
    let r = |s| refusal(s, false).map(|r| r.1.to_owned());
    assert_eq!(r(r#"{"type":"object","$ref":"/x"}"#).as_deref(), Some("$ref"));
    assert_eq!(r(r#"{"type":"object","$defs":{}}"#).as_deref(), Some("$defs"));
    assert_eq!(r(r#"{"type":"object","definitions":{}}"#).as_deref(), Some("definitions"));
    assert_eq!(r(r#"{"type":"object","properties":{"a":{"items":{"$ref":"/"}}}}"#).as_deref(), Some("$ref"));
    assert_eq!(
        r(r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"$ref":"/"}]}}}"#).as_deref(),
        Some("$ref")
    );
    // A property may be called `$ref`, and data may hold one.
    assert_eq!(r(r#"{"type":"object","properties":{"$ref":{"type":"string"},"definitions":{}}}"#), None);
    assert_eq!(r(r#"{"type":"object","default":{"$ref":1},"examples":[{"$defs":2}],"enum":[{"$ref":3}]}"#), None);
}

#[test]
fn required_names_must_be_properties() {
    let r = |s| refusal(s, false).map(|r| (r.0, r.1.to_owned()));
    assert_eq!(r(r#"{"type":"object","properties":{"a":{}},"required":["a"]}"#), None);
    assert_eq!(
        r(r#"{"type":"object","properties":{"a":{}},"required":["a","b"]}"#),
        Some(("is required but not listed in \"properties\"", "b".to_owned()))
    );
    assert_eq!(r(r#"{"type":"object","required":["a"]}"#).map(|r| r.1), Some("a".to_owned()));
    assert_eq!(
        r(r#"{"type":"object","properties":{"o":{"type":"object","properties":{"x":{}},"required":["y"]}}}"#)
            .map(|r| r.1),
        Some("y".to_owned())
    );
    assert_eq!(
        r(r#"{"type":"object","properties":{"a":{},"b":{}},"anyOf":[{"required":["a"]},{"required":["b"]}]}"#),
        None
    );
    assert_eq!(r(r#"{"type":"object","properties":{"a\"b":{}},"required":["a\"b"]}"#), None);
    assert_eq!(r(r#"{"type":"object","properties":{"a\\b":{}},"required":["a\\b"]}"#), None);
    // Another escape gives a name a second spelling: refused, where names
    // compared as written would pass a duplicate or miss a required one.
    for schema in [
        r#"{"type":"object","properties":{"\u0061":{}},"required":["a"]}"#,
        r#"{"type":"object","properties":{"a\/b":{}}}"#,
        r#"{"type":"object","properties":{"\u0022":{}}}"#,
        r#"{"typ\u0065":"object"}"#,
    ] {
        assert_eq!(r(schema).map(|r| r.0), Some(super::fault::ESCAPED), "{schema}");
    }
    // dependentRequired's names are property names too.
    assert_eq!(
        r(r#"{"type":"object","dependentRequired":{"\u0061":["b"]}}"#).map(|r| r.0),
        Some(super::fault::ESCAPED)
    );
    assert_eq!(
        r(r#"{"type":"object","dependentRequired":{"a":["b"],"a":["c"]}}"#).map(|r| r.0),
        Some("is written twice in one object: JSON readers keep only one")
    );
    assert_eq!(
        r(r#"{"type":"object","properties":{"a":{}},"required":["a","\u0061"]}"#),
        Some((super::fault::ESCAPED_IN_LIST, "required".to_owned()))
    );
}

#[test]
fn the_validated_subset() {
    let ok = r#"{
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "T", "description": "D", "$comment": "C",
        "type": "object",
        "properties": {
            "s": {"type": "string", "minLength": 1, "maxLength": 32, "format": "email", "default": "x", "examples": ["y"],
                  "deprecated": false, "readOnly": false, "writeOnly": false, "title": "S", "$comment": "c"},
            "n": {"type": ["number", "null"], "minimum": -1.5, "maximum": 10, "exclusiveMinimum": -2, "exclusiveMaximum": 1e3},
            "e": {"enum": ["a", 1, null, {"k": [1]}]},
            "c": {"const": {"anything": ["goes"]}},
            "a": {"type": "array", "items": {"type": "object", "properties": {"x": true, "y": false}, "additionalProperties": false}, "minItems": 0, "maxItems": 9},
            "m": {"type": "object", "additionalProperties": {"type": "integer"}}
        },
        "required": ["s"],
        "additionalProperties": true
    }"#;
    assert_eq!(refusal(ok, true), None);
    let r = |s: &str| refusal(s, true).map(|r| (r.0, r.1.to_owned()));
    let outside = "is outside the subset validated! checks (see subako_tiny::schema)";
    assert_eq!(
        r(r#"{"type":"object","properties":{"s":{"type":"string","pattern":"^a"}}}"#),
        Some((outside, "pattern".into()))
    );
    assert_eq!(r(r#"{"type":"object","anyOf":[{}]}"#), Some((outside, "anyOf".into())));
    // `items: [{}]`, as drafts before 2020-12 wrote it, under validated!
    // or not: it was passed over unchecked (review 76).
    let list = "must be one schema (an object, true or false; a list of schemas, as drafts before 2020-12 wrote it, is \"prefixItems\" in 2020-12)";
    for strict in [true, false] {
        let refused = refusal(r#"{"type":"object","properties":{"a":{"items":[{}]}}}"#, strict);
        assert_eq!(refused.map(|r| (r.0, r.1.to_owned())), Some((list, "items".into())));
    }
    // At most 64 properties in one object.
    let listed = |n: usize| (0..n).map(|i| std::format!(r#""p{i}":{{}}"#)).collect::<std::vec::Vec<_>>().join(",");
    let many =
        |n: usize| std::format!(r#"{{"type":"object","properties":{{"o":{{"properties":{{{}}}}}}}}}"#, listed(n));
    assert_eq!(r(&many(64)), None);
    let f = walk(many(65).as_bytes(), true).unwrap_err();
    assert_eq!(
        (f.rule, f.subject(&many(65)), f.path()),
        ("lists more than 64 properties: validated! checks up to 64 in one object", "properties", "/properties/o")
    );
    assert_eq!(refusal(&many(65), false), None);
    // The rules for every tool hold too.
    assert_eq!(r(r#"{"type":"object","properties":{"a":{"$ref":"/"}}}"#).map(|r| r.1), Some("$ref".into()));
}

/// Numbers compared as decimals agree with `f64` wherever `f64` tells
/// them apart, and tell apart what `f64` rounds together.
#[test]
fn numbers_compare_exactly() {
    let numbers = [
        "0",
        "-0",
        "0.0",
        "-0.0e5",
        "1",
        "-1",
        "1.0",
        "10",
        "1e1",
        "1E+1",
        "100e-1",
        "0.1",
        "1e-1",
        "0.01",
        "-0.5",
        "-5e-1",
        "2.5",
        "25e-1",
        "3",
        "-3",
        "1.5e300",
        "-1e-300",
        "123456789",
        "1.23456789e8",
        "99.5",
        "1e2",
    ];
    for x in numbers {
        for y in numbers {
            let text = std::format!("[{x},{y}]");
            let b = text.as_bytes();
            let (fx, fy): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            let expected = fx.partial_cmp(&fy).unwrap() as i32;
            assert_eq!(compare_numbers(b, 1, 2 + x.len()), expected, "{x} vs {y}");
        }
    }
    let b = b"[9007199254740993,9007199254740992.0,9007199254740993e0]";
    assert_eq!(compare_numbers(b, 1, 18), 1);
    assert_eq!(compare_numbers(b, 18, 1), -1);
    assert_eq!(compare_numbers(b, 1, 37), 0);
}

#[test]
fn nesting_is_bounded() {
    let deep = |n: usize| {
        let mut s = String::from(r#"{"type":"object","items":"#);
        s.push_str(&r#"{"items":"#.repeat(n));
        s.push_str("{}");
        s.push_str(&"}".repeat(n + 1));
        s
    };
    // The root and `MAX_NESTING - 1` schemas inside it fit.
    assert_eq!(refusal(&deep(MAX_NESTING - 2), true), None);
    let deep = deep(MAX_NESTING - 1);
    assert_eq!(refusal(&deep, false).map(|r| r.0), Some("nests schemas too deeply"));
    assert_eq!(refusal(&deep, true).map(|r| r.0), Some("nests schemas too deeply"));
}
