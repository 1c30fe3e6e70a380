//! The run-time validator, keyword by keyword, and `validated!` end to end
//! through `execute`.

extern crate std;

use std::borrow::ToOwned;
use std::string::String;

use super::check_args;
use crate::{Args, JsonWriter, Package, Reply, Tool, ToolError};

/// `Ok` or the error's message, for `schema` and the arguments `args`.
fn check(schema: &str, args: &str) -> Result<(), String> {
    let value = crate::json::parse(args.as_bytes()).expect("test arguments are JSON");
    let object = value.as_object().expect("test arguments are an object");
    check_args(schema, &Args::new(object)).map_err(|e| e.message().to_owned())
}

/// The message for a failing check.
fn refused(schema: &str, args: &str) -> String {
    match check(schema, args) {
        Err(message) => message,
        Ok(()) => panic!("{args} passed {schema}"),
    }
}

/// A schema with one property `v` holding `rules`.
fn one(rules: &str) -> String {
    ["{\"type\":\"object\",\"properties\":{\"v\":", rules, "}}"].concat()
}

#[test]
fn type_names_and_lists() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("null", &["null"], &["0", "false", "\"\""]),
        ("boolean", &["true", "false"], &["0", "null", "\"true\""]),
        ("object", &["{}", "{\"a\":1}"], &["[]", "null"]),
        ("array", &["[]", "[1,[2]]"], &["{}", "\"[]\""]),
        ("number", &["0", "-1.5", "1e400", "18446744073709551616"], &["\"1\"", "null"]),
        ("integer", &["0", "-7", "123456789012345678901234567890"], &["1.0", "1e3", "0.5", "\"1\""]),
        ("string", &["\"\"", "\"x\""], &["1", "null", "[\"x\"]"]),
    ];
    for (name, good, bad) in cases {
        let schema = one(&["{\"type\":\"", name, "\"}"].concat());
        for v in *good {
            assert_eq!(check(&schema, &["{\"v\":", v, "}"].concat()), Ok(()), "{v} is {name}");
        }
        let article = if matches!(*name, "object" | "array" | "integer") {
            "an "
        } else if *name == "null" {
            ""
        } else {
            "a "
        };
        for v in *bad {
            // A number refused as an integer is told the rest of the rule.
            let rest =
                if *name == "integer" && !v.starts_with('"') { ", written without a fraction or exponent" } else { "" };
            assert_eq!(
                refused(&schema, &["{\"v\":", v, "}"].concat()),
                ["invalid input: /v must be ", article, name, rest].concat(),
                "{v} is not {name}"
            );
        }
    }
    let either = one(r#"{"type":["string","null"]}"#);
    assert_eq!(check(&either, r#"{"v":null}"#), Ok(()));
    assert_eq!(check(&either, r#"{"v":"x"}"#), Ok(()));
    assert_eq!(refused(&either, r#"{"v":1}"#), "invalid input: /v must be a string or null");
    let three = one(r#"{"type":["integer","boolean","array"]}"#);
    assert_eq!(refused(&three, r#"{"v":{}}"#), "invalid input: /v must be an integer, a boolean or an array");
    assert_eq!(
        refused(&three, r#"{"v":2.5}"#),
        "invalid input: /v must be an integer, a boolean or an array, written without a fraction or exponent"
    );
    // The root is written `/`.
    assert_eq!(
        refused(r#"{"type":"object","properties":{},"additionalProperties":false}"#, r#"{"x":1}"#),
        "invalid input: /x is not allowed"
    );
}

#[test]
fn no_arguments_read_as_an_empty_object() {
    let schema = r#"{"type":"object","properties":{"a":{}},"required":["a"]}"#;
    assert_eq!(
        check_args(schema, &Args::empty()).map_err(|e| e.message().to_owned()),
        Err("invalid input: /a is required".into())
    );
    assert_eq!(check_args(r#"{"type":"object"}"#, &Args::empty()), Ok(()));
}

#[test]
fn required_properties_and_additional_properties() {
    let schema = r#"{"type":"object",
        "properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}},
        "required":["name"]}"#;
    assert_eq!(check(schema, r#"{"name":"Ada"}"#), Ok(()));
    assert_eq!(check(schema, r#"{"name":"Ada","age":36,"extra":[1]}"#), Ok(()));
    assert_eq!(refused(schema, r#"{"age":36}"#), "invalid input: /name is required");
    assert_eq!(refused(schema, r#"{"name":7}"#), "invalid input: /name must be a string");
    assert_eq!(refused(schema, r#"{"name":"Ada","age":-1}"#), "invalid input: /age must be at least 0");
    // A present null is present: its type is what fails.
    assert_eq!(refused(schema, r#"{"name":null}"#), "invalid input: /name must be a string");
    // Names compare after unescaping, and pointers escape `~` and `/`.
    assert_eq!(check(schema, r#"{"n\u0061me":"Ada"}"#), Ok(()));
    let odd = r#"{"type":"object","properties":{"a/b~c":{"type":"string"}}}"#;
    assert_eq!(refused(odd, r#"{"a/b~c":1}"#), "invalid input: /a~1b~0c must be a string");

    let closed = r#"{"type":"object","properties":{"a":{}},"additionalProperties":false}"#;
    assert_eq!(check(closed, r#"{"a":1}"#), Ok(()));
    assert_eq!(refused(closed, r#"{"a":1,"b":2}"#), "invalid input: /b is not allowed");
    let open = r#"{"type":"object","properties":{"a":{}},"additionalProperties":true}"#;
    assert_eq!(check(open, r#"{"a":1,"b":2}"#), Ok(()));
    let map =
        r#"{"type":"object","properties":{"headers":{"type":"object","additionalProperties":{"type":"string"}}}}"#;
    assert_eq!(check(map, r#"{"headers":{"accept":"*/*","x":""}}"#), Ok(()));
    assert_eq!(refused(map, r#"{"headers":{"accept":"*/*","x":1}}"#), "invalid input: /headers/x must be a string");
    // Boolean schemas for a property.
    let never = r#"{"type":"object","properties":{"old":false,"any":true}}"#;
    assert_eq!(check(never, r#"{"any":[{}]}"#), Ok(()));
    assert_eq!(refused(never, r#"{"old":1}"#), "invalid input: /old is not allowed");
}

#[test]
fn enum_and_const() {
    let currency = one(r#"{"enum":["EUR","USD","JPY"]}"#);
    assert_eq!(check(&currency, r#"{"v":"USD"}"#), Ok(()));
    assert_eq!(check(&currency, r#"{"v":"\u0055SD"}"#), Ok(()));
    assert_eq!(
        refused(&currency, r#"{"v":"GBP"}"#),
        r#"invalid input: /v must be one of "EUR", "USD", "JPY", not "GBP""#
    );
    assert_eq!(
        refused(&currency, r#"{"v":"usd"}"#),
        r#"invalid input: /v must be one of "EUR", "USD", "JPY", not "usd""#
    );
    // What came is named when short, as JSON wrote it (escapes and all).
    assert_eq!(
        refused(&currency, r#"{"v": "\u0045UR "}"#),
        r#"invalid input: /v must be one of "EUR", "USD", "JPY", not "\u0045UR ""#
    );
    let long = ["{\"v\":\"", &"x".repeat(39), "\"}"].concat();
    assert_eq!(refused(&currency, &long), r#"invalid input: /v must be one of "EUR", "USD", "JPY""#);
    let mixed = one(r#"{"enum":[1, null, {"a": [1, "x"]}, [true]]}"#);
    for good in ["1", "1.0", "10e-1", "null", r#"{"a":[1.0,"x"]}"#, "[true]"] {
        assert_eq!(check(&mixed, &["{\"v\":", good, "}"].concat()), Ok(()), "{good}");
    }
    for bad in ["2", "\"1\"", "false", r#"{"a":[1,"x"],"b":1}"#, r#"{"a":[1]}"#, "[true,true]", "[]"] {
        assert_eq!(
            refused(&mixed, &["{\"v\":", bad, "}"].concat()),
            [r#"invalid input: /v must be one of 1, null, {"a":[1,"x"]}, [true], not "#, bad].concat(),
            "{bad}"
        );
    }
    let fixed = one(r#"{"const": {"kind": "order", "n": 2}}"#);
    assert_eq!(check(&fixed, r#"{"v":{"n":2,"kind":"order"}}"#), Ok(()));
    assert_eq!(
        refused(&fixed, r#"{"v":{"n":3,"kind":"order"}}"#),
        r#"invalid input: /v must be {"kind":"order","n":2}"#
    );
    let word = one(r#"{"const":"yes"}"#);
    assert_eq!(refused(&word, r#"{"v":"no"}"#), r#"invalid input: /v must be "yes""#);
}

#[test]
fn numeric_bounds() {
    let range = one(r#"{"type":"number","minimum":-1.5,"maximum":10}"#);
    for good in ["-1.5", "0", "10", "10.0", "9.999", "1e1"] {
        assert_eq!(check(&range, &["{\"v\":", good, "}"].concat()), Ok(()), "{good}");
    }
    assert_eq!(refused(&range, r#"{"v":-1.6}"#), "invalid input: /v must be at least -1.5");
    assert_eq!(refused(&range, r#"{"v":10.000001}"#), "invalid input: /v must be at most 10");
    assert_eq!(refused(&range, r#"{"v":1e400}"#), "invalid input: /v must be at most 10");
    let open = one(r#"{"exclusiveMinimum":0,"exclusiveMaximum":1}"#);
    assert_eq!(check(&open, r#"{"v":0.5}"#), Ok(()));
    assert_eq!(refused(&open, r#"{"v":0}"#), "invalid input: /v must be greater than 0");
    assert_eq!(refused(&open, r#"{"v":0.0}"#), "invalid input: /v must be greater than 0");
    assert_eq!(refused(&open, r#"{"v":1}"#), "invalid input: /v must be less than 1");
    // Integers are compared exactly, past where f64 rounds them.
    let big = one(r#"{"maximum":9007199254740993}"#);
    assert_eq!(check(&big, r#"{"v":9007199254740993}"#), Ok(()));
    assert_eq!(refused(&big, r#"{"v":9007199254740994}"#), "invalid input: /v must be at most 9007199254740993");
    let unsigned = one(r#"{"minimum":18446744073709551615}"#);
    assert_eq!(check(&unsigned, r#"{"v":18446744073709551615}"#), Ok(()));
    assert_eq!(
        refused(&unsigned, r#"{"v":-9223372036854775808}"#),
        "invalid input: /v must be at least 18446744073709551615"
    );
    // Bounds say nothing about values that are not numbers.
    assert_eq!(check(&one(r#"{"minimum":5}"#), r#"{"v":"3"}"#), Ok(()));
}

#[test]
fn string_lengths_count_scalar_values() {
    let sku = one(r#"{"type":"string","minLength":1,"maxLength":3}"#);
    for good in [r#""a""#, r#""abc""#, r#""äöü""#, r#""😀😀😀""#, r#""\ud83d\ude00\n\u00e9""#] {
        assert_eq!(check(&sku, &["{\"v\":", good, "}"].concat()), Ok(()), "{good}");
    }
    assert_eq!(refused(&sku, r#"{"v":""}"#), "invalid input: /v must be at least 1 character long");
    assert_eq!(refused(&sku, r#"{"v":"abcd"}"#), "invalid input: /v must be at most 3 characters long");
    assert_eq!(refused(&sku, r#"{"v":"😀😀😀😀"}"#), "invalid input: /v must be at most 3 characters long");
    assert_eq!(refused(&sku, r#"{"v":"\ud83d\ude00\n\t\""}"#), "invalid input: /v must be at most 3 characters long");
    let two = one(r#"{"minLength":2}"#);
    assert_eq!(refused(&two, r#"{"v":"x"}"#), "invalid input: /v must be at least 2 characters long");
    assert_eq!(check(&two, r#"{"v":5}"#), Ok(()));
}

#[test]
fn arrays_items_and_counts() {
    let values = one(r#"{"type":"array","items":{"type":"number"},"minItems":1,"maxItems":4}"#);
    assert_eq!(check(&values, r#"{"v":[1,2.5,-3]}"#), Ok(()));
    assert_eq!(refused(&values, r#"{"v":[1,2,3,"4"]}"#), "invalid input: /v/3 must be a number");
    assert_eq!(refused(&values, r#"{"v":[]}"#), "invalid input: /v must have at least 1 item");
    assert_eq!(refused(&values, r#"{"v":[1,2,3,4,5]}"#), "invalid input: /v must have at most 4 items");
    let two = one(r#"{"minItems":2}"#);
    assert_eq!(refused(&two, r#"{"v":[0]}"#), "invalid input: /v must have at least 2 items");
}

#[test]
fn nested_objects_and_arrays_report_the_full_path() {
    let order = r#"{"type":"object","properties":{
        "items":{"type":"array","items":{"type":"object",
            "properties":{"sku":{"type":"string"},"qty":{"type":"integer","minimum":1,"maximum":1000},
                          "tags":{"type":"array","items":{"type":"string","maxLength":2}}},
            "required":["sku","qty"],"additionalProperties":false}}},
        "required":["items"]}"#;
    assert_eq!(check(order, r#"{"items":[{"sku":"a","qty":1},{"sku":"b","qty":1000,"tags":["x","yz"]}]}"#), Ok(()));
    assert_eq!(
        refused(order, r#"{"items":[{"sku":"a","qty":1},{"sku":"b"}]}"#),
        "invalid input: /items/1/qty is required"
    );
    assert_eq!(
        refused(order, r#"{"items":[{"sku":"a","qty":1001}]}"#),
        "invalid input: /items/0/qty must be at most 1000"
    );
    assert_eq!(
        refused(order, r#"{"items":[{"sku":"a","qty":1,"tags":["ok","xyz"]}]}"#),
        "invalid input: /items/0/tags/1 must be at most 2 characters long"
    );
    assert_eq!(
        refused(order, r#"{"items":[{"sku":"a","qty":1,"note":""}]}"#),
        "invalid input: /items/0/note is not allowed"
    );
    assert_eq!(refused(order, r#"{"items":{}}"#), "invalid input: /items must be an array");
    assert_eq!(refused(order, r#"{}"#), "invalid input: /items is required");
}

#[test]
fn arguments_deeper_than_the_schema_are_not_walked() {
    // 121 levels, near the reader's limit: the validator goes no deeper
    // than the schema, whatever it is given.
    let deep = ["{\"v\":", &"[".repeat(120), &"]".repeat(120), "}"].concat();
    assert_eq!(check(&one(r#"{"type":"array"}"#), &deep), Ok(()));
    assert_eq!(
        refused(&one(r#"{"type":"array","items":{"type":"number"}}"#), &deep),
        "invalid input: /v/0 must be a number"
    );
    let schema = one(r#"{"enum":[[[1]]]}"#);
    assert!(refused(&schema, &deep).starts_with("invalid input: /v must be one of"));
}

#[test]
fn annotations_carry_no_rule() {
    let schema = one(
        r#"{"type":"string","format":"email","description":"d","title":"t","default":"x","examples":["y"],"$comment":"c","deprecated":true,"readOnly":false,"writeOnly":false,"x-ui":{"pattern":"^x"}}"#,
    );
    assert_eq!(check(&schema, r#"{"v":"not an email"}"#), Ok(()));
}

fn echo(args: &Args<'_>) -> Result<Reply, ToolError> {
    let mut out = JsonWriter::new();
    out.begin_object().key("n").int(args.int("n", i64::MIN, i64::MAX)?).end_object();
    Ok(Reply::json(out))
}

const ECHO_INPUT: &str = r#"{"type":"object","properties":{"n":{"type":"integer","maximum":9}},"required":["n"]}"#;

const ECHO: Package =
    Package::new("echo", "0.0.0", "Echoes.", &[crate::validated!(Tool::new("echo", "Echo n.", ECHO_INPUT, echo))]);

/// The two-argument form, deprecated, checks the same.
#[allow(deprecated)]
const ECHO_TWO_ARGUMENTS: Package = Package::new(
    "echo",
    "0.0.0",
    "Echoes.",
    &[Tool::new("echo", "Echo n.", ECHO_INPUT, crate::validated!(ECHO_INPUT, echo))],
);

fn call(arguments: &str) -> String {
    call_package(&ECHO, arguments)
}

fn call_package(package: &Package, arguments: &str) -> String {
    let line = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":"#,
        arguments,
        r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
    ]
    .concat();
    let (out, code) = crate::execute(package, &["echo"], line.as_bytes());
    assert_eq!(code, 0);
    String::from_utf8(out).expect("UTF-8 out")
}

#[test]
fn validated_runs_the_tool_only_on_valid_arguments() {
    assert!(call(r#"{"n":7}"#).contains(r#""structuredContent":{"n":7}"#));
    let bad = call(r#"{"n":10}"#);
    assert!(
        bad.contains(r#""content":[{"text":"invalid input: /n must be at most 9","type":"text"}],"isError":true"#),
        "{bad}"
    );
    assert!(call(r#"{}"#).contains(r#""text":"invalid input: /n is required""#));
    for arguments in [r#"{"n":7}"#, r#"{"n":10}"#, "{}"] {
        assert_eq!(call_package(&ECHO_TWO_ARGUMENTS, arguments), call(arguments));
    }
    // No arguments at all read as `{}`.
    let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let out = String::from_utf8(crate::execute(&ECHO, &["echo"], line.as_bytes()).0).unwrap();
    assert!(out.contains(r#""text":"invalid input: /n is required""#), "{out}");
}

#[test]
fn a_schema_that_is_not_json_is_an_error_not_a_panic() {
    let a = crate::json::parse(b"{}").unwrap();
    let args = Args::new(a.as_object().unwrap());
    assert_eq!(
        check_args("{", &args).map_err(|e| e.message().to_owned()),
        Err("the tool's input schema is not JSON".into())
    );
}

// Build-time messages: the syntax error's place and text, the unknown
// keyword's nearest neighbour, and the edit distance under them.

use super::keywords::{KNOWN, Vocab, distance, suggest, vocab};
use crate::build_message::BuildMessage;

/// The message `Package::new` fails with for a tool whose input schema is `schema`.
fn build_error(schema: &'static str) -> Option<String> {
    super::tool_schema_fault("greet", "input", schema).map(|m| m.as_str().to_owned())
}

#[test]
fn syntax_errors_say_line_column_and_text() {
    let e = |s| build_error(s).expect("refused");
    assert_eq!(
        e("{\n  \"type\": \"object\",\n  \"properties\": {\"name\": {\"type\" \"string\"}}\n}"),
        r#"tool "greet": input schema is not JSON: expected ':' at line 3, column 34, near "\"type\" \"string\"""#
    );
    assert_eq!(
        e(r#"{"type": "object" "properties": {}}"#),
        r#"tool "greet": input schema is not JSON: expected ',' or '}' at line 1, column 19, near "\"object\" \"properties\"""#
    );
    assert_eq!(
        e(r#"{"type": "object",}"#),
        r#"tool "greet": input schema is not JSON: trailing comma: expected a member name in double quotes at line 1, column 19, near ",}""#
    );
    assert_eq!(
        e(r#"{"a": [1, 2,]}"#),
        r#"tool "greet": input schema is not JSON: trailing comma: expected a value at line 1, column 13, near ",]""#
    );
    assert_eq!(
        e(r#"{"a": [1 2]}"#),
        r#"tool "greet": input schema is not JSON: expected ',' or ']' at line 1, column 10, near "1 2""#
    );
    assert_eq!(
        e(r#"{"a": tru}"#),
        r#"tool "greet": input schema is not JSON: expected true, false or null at line 1, column 10, near "tru}""#
    );
    assert_eq!(
        e(r#"{"a": 01}"#),
        r#"tool "greet": input schema is not JSON: invalid number (no leading zeros) at line 1, column 8, near "01""#
    );
    assert_eq!(
        e(r#"{"a": 1.}"#),
        r#"tool "greet": input schema is not JSON: invalid number at line 1, column 9, near "1.}""#
    );
    assert_eq!(
        e(r#"{"type": "object"}}"#),
        r#"tool "greet": input schema is not JSON: expected the end of the schema at line 1, column 19, near "}}""#
    );
    assert_eq!(
        e(r#"{"type": "object""#),
        r#"tool "greet": input schema is not JSON: expected ',' or '}', but the schema ends at line 1, column 18, near "\"object\"""#
    );
    assert_eq!(
        e(r#"{"a": "b\q"}"#),
        r#"tool "greet": input schema is not JSON: invalid escape in a string at line 1, column 9, near "\"b\\q""#
    );
    assert_eq!(
        e("{\"a\": \"two\nlines\"}"),
        r#"tool "greet": input schema is not JSON: a control character (a line break, a tab) inside a string: write it as an escape at line 1, column 11, near "\"two""#
    );
    assert_eq!(
        e(""),
        r#"tool "greet": input schema is not JSON: expected a value, but the schema ends at line 1, column 1"#
    );
    // Columns count characters, not bytes.
    assert_eq!(
        e(r#"{"d": "é", "x" 1}"#),
        r#"tool "greet": input schema is not JSON: expected ':' at line 1, column 16, near "\"x\" 1""#
    );
}

#[test]
fn unknown_keywords_name_the_nearest_and_where() {
    let e = |s| build_error(s);
    assert_eq!(
        e(r#"{"type": "object", "properties": {"a": {}}, "requried": ["a"]}"#).as_deref(),
        Some(
            r#"tool "greet": input schema, line 1, column 45: unknown keyword "requried" at the root (did you mean "required"?)"#
        )
    );
    assert_eq!(
        e(r#"{"type": "object", "properties": {"a/b": {"prefixItems": [{"minimun": 1}]}}}"#).as_deref(),
        Some(
            r#"tool "greet": input schema, line 1, column 60: unknown keyword "minimun" at /properties/a~1b/prefixItems/0 (did you mean "minimum"?)"#
        )
    );
    assert_eq!(
        e(r#"{"type": "object", "anyOf": [{}, {"widget": 1}]}"#).as_deref(),
        Some(
            r#"tool "greet": input schema, line 1, column 35: unknown keyword "widget" at /anyOf/1 (an extension needs an "x-" prefix)"#
        )
    );
    // Names of properties and data are not keywords; extensions are not read.
    assert_eq!(
        e(r#"{"type": "object", "properties": {"requried": {}}, "default": {"minimun": 1}, "x-a": {"b": 1}}"#),
        None
    );
    assert_eq!(
        e(r#"{"type": "object", "enum": [{"nope": 1}], "const": {"nope": 2}, "examples": [{"nope": 3}]}"#),
        None
    );
    // Every 2020-12 keyword the brief lists is known.
    let all = r#"{"$schema": "s", "$id": "i", "$comment": "c", "$anchor": "a", "$dynamicAnchor": "d", "$dynamicRef": "d",
        "$vocabulary": {}, "type": "object", "title": "t", "description": "d", "default": {}, "examples": [],
        "deprecated": false, "readOnly": false, "writeOnly": false, "properties": {}, "patternProperties": {},
        "additionalProperties": true, "propertyNames": {}, "required": [], "dependentRequired": {}, "dependentSchemas": {},
        "minProperties": 0, "maxProperties": 1, "unevaluatedProperties": false, "allOf": [{}], "anyOf": [{}], "oneOf": [{}],
        "not": {}, "if": {}, "then": {}, "else": {}, "enum": [1], "const": 1, "multipleOf": 1, "minimum": 0, "maximum": 1,
        "exclusiveMinimum": 0, "exclusiveMaximum": 1, "minLength": 0, "maxLength": 1, "pattern": "a", "format": "f",
        "items": {}, "prefixItems": [{}], "contains": {}, "minContains": 0, "maxContains": 1, "minItems": 0, "maxItems": 1,
        "uniqueItems": true, "unevaluatedItems": false, "contentEncoding": "base64", "contentMediaType": "a/b", "contentSchema": {}}"#;
    assert_eq!(e(all), None);
    assert_eq!(KNOWN.iter().filter(|k| vocab(k.as_bytes()) == Vocab::Unknown).count(), 0);
    assert_eq!(vocab(b"x-anything"), Vocab::Extension);
    assert_eq!(vocab(b"x-"), Vocab::Unknown);
    // `$ref` is still refused by name.
    assert_eq!(
        e(r#"{"type": "object", "properties": {"p": {"$ref": "/x"}}}"#).as_deref(),
        Some(
            r#"tool "greet": input schema, line 1, column 41: "$ref" at /properties/p is not allowed: MCP clients reject $ref, $defs and definitions"#
        )
    );
}

#[test]
fn suggestions_are_near_or_none() {
    assert_eq!(suggest(b"requried"), Some("required"));
    assert_eq!(suggest(b"minimun"), Some("minimum"));
    assert_eq!(suggest(b"maxlength"), Some("maxLength"));
    assert_eq!(suggest(b"propeties"), Some("properties"));
    assert_eq!(suggest(b"additionalProperty"), Some("additionalProperties"));
    assert_eq!(suggest(b"typ"), Some("type"));
    assert_eq!(suggest(b"$comnent"), Some("$comment"));
    assert_eq!(suggest(b"widget"), None);
    assert_eq!(suggest(b"nullable"), None);
    assert_eq!(suggest(b"ab"), None);
    assert_eq!(suggest(b""), None);
    assert_eq!(suggest("x".repeat(40).as_bytes()), None);
}

#[test]
fn distance_counts_edits_and_swaps() {
    assert_eq!(distance(b"", b""), 0);
    assert_eq!(distance(b"abc", b""), 3);
    assert_eq!(distance(b"", b"abc"), 3);
    assert_eq!(distance(b"type", b"type"), 0);
    assert_eq!(distance(b"kitten", b"sitting"), 3);
    assert_eq!(distance(b"requried", b"required"), 1); // a swap is one edit
    assert_eq!(distance(b"ca", b"abc"), 3); // optimal string alignment, not full Damerau
    assert_eq!(distance(b"minimun", b"minimum"), 1);
    assert_eq!(distance(b"maxlength", b"maxLength"), 1);
    assert_eq!(distance(&[b'a'; 33], b"a"), usize::MAX);
    // Const: the build computes it.
    const D: usize = distance(b"flaw", b"lawn");
    assert_eq!(D, 2);
}

#[test]
fn messages_are_built_in_a_fixed_buffer() {
    let m = BuildMessage::new()
        .push("a ")
        .push_usize(0)
        .push(" ")
        .push_usize(18446744073709551615)
        .push(" ")
        .push_quoted(b"q\"\\\n\t\x01");
    assert_eq!(m.as_str(), r#"a 0 18446744073709551615 "q\"\\\n\t\u0001""#);
    // Too long: cut at a whole character.
    let long = BuildMessage::new().push(&"é".repeat(BuildMessage::CAPACITY));
    assert_eq!(long.as_str().len(), BuildMessage::CAPACITY);
    assert!(long.as_str().chars().all(|c| c == 'é'));
    let odd = BuildMessage::new().push("x").push(&"é".repeat(BuildMessage::CAPACITY));
    assert_eq!(odd.as_str().len(), BuildMessage::CAPACITY - 1);
}

#[test]
fn large_packages_leave_the_rest_to_main() {
    let tool = Tool::new("t", "d", r#"{"type": "object"}"#, echo);
    let tools: &'static [Tool] = std::vec![tool; 10_000].leak();
    let checked = crate::package::checked_by_new(tools);
    assert_eq!(checked, crate::package::CHECK_BUDGET / 18);
    assert_eq!(crate::package::checked_by_new(&tools[..5]), 5);
}

fn traced(_: &Args<'_>) -> Result<Reply, ToolError> {
    let trace = std::format!("{}", std::backtrace::Backtrace::force_capture());
    Ok(Reply::text(&trace))
}

const TRACED_INPUT: &str = r#"{"type": "object"}"#;

const TRACED: Package = Package::new(
    "traced",
    "0.0.0",
    "Traces.",
    &[
        crate::validated!(Tool::new("first", "Trace.", TRACED_INPUT, traced)),
        crate::validated!(Tool::new(
            "second",
            "Trace.",
            TRACED_INPUT,
            crate::validated!(Tool::new("inner", "Trace.", TRACED_INPUT, traced)).run
        )),
    ],
);

/// Each validator is a function of its own, named after the tool's
/// function, so that a size report tells them apart.
#[test]
fn validators_are_named_after_their_tools() {
    let called = crate::testing::call(&TRACED, "first", "{}");
    assert!(called.text().contains("TRACED::traced::validated"), "{}", called.text());
    assert!(!called.text().contains("TRACED::validated::validated"), "{}", called.text());
    // A function that is not a name: the validator has a name of its own.
    let called = crate::testing::call(&TRACED, "second", "{}");
    assert!(called.text().contains("TRACED::validated::validated"), "{}", called.text());
    assert!(called.text().contains("TRACED::__SUBAKO_TOOL::traced::validated"), "{}", called.text());
}

/// `validated!` holds an input schema to the slots the validator keeps on
/// the stack; on the host, where `testing::call` checks output schemas
/// (which the build does not hold to them), as many as a schema lists
/// (review 76: every answer of such a tool failed the test).
#[test]
fn a_schema_with_more_properties_than_slots_is_checked_on_the_host() {
    let listed =
        |n: usize| (0..n).map(|i| std::format!(r#""p{i}":{{"type":"integer"}}"#)).collect::<std::vec::Vec<_>>();
    let schema = |n: usize| ["{\"type\":\"object\",\"properties\":{", &listed(n).join(","), "}}"].concat();
    assert_eq!(check(&schema(super::validate::SLOTS), r#"{"p63":1}"#), Ok(()));
    assert_eq!(refused(&schema(super::validate::SLOTS), r#"{"p63":"x"}"#), "invalid input: /p63 must be an integer");
    for n in [super::validate::SLOTS + 1, 1000] {
        assert_eq!(check(&schema(n), r#"{"p0":1}"#), Ok(()));
        let last = std::format!("p{}", n - 1);
        assert_eq!(
            refused(&schema(n), &std::format!(r#"{{"p0":1,"{last}":"x"}}"#)),
            std::format!("invalid input: /{last} must be an integer")
        );
    }
}

/// Keyword values the build refuses, for every tool: each message says
/// where (line and column of the value), which keyword at which schema,
/// what it must be and what it is.
#[test]
fn keyword_values_are_checked_with_line_and_column() {
    let cases: &[(&'static str, &str)] = &[
        (
            "{\"type\": \"object\",\n \"properties\": {\"n\": {\"type\": \"integr\"}}}",
            r#"tool "greet": input schema, line 2, column 31: "type" at /properties/n must name a type (null, boolean, object, array, number, integer or string), not "integr" (did you mean "integer"?)"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": ["string", "nul"]}}}"#,
            r#"tool "greet": input schema, line 1, column 60: "type" at /properties/n must name a type (null, boolean, object, array, number, integer or string), not "nul" (did you mean "null"?)"#,
        ),
        // In capitals, or another language's name (review 76: no hint).
        (
            r#"{"type": "object", "properties": {"n": {"type": "INTEGER"}}}"#,
            r#"tool "greet": input schema, line 1, column 49: "type" at /properties/n must name a type (null, boolean, object, array, number, integer or string), not "INTEGER" (did you mean "integer"?)"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": ["float", "Dict", "str"]}}}"#,
            r#"tool "greet": input schema, line 1, column 50: "type" at /properties/n must name a type (null, boolean, object, array, number, integer or string), not "float" (did you mean "number"?)"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": "int64"}}}"#,
            r#"tool "greet": input schema, line 1, column 49: "type" at /properties/n must name a type (null, boolean, object, array, number, integer or string), not "int64" (did you mean "integer"?)"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": "bool"}}}"#,
            r#"tool "greet": input schema, line 1, column 49: "type" at /properties/n must name a type (null, boolean, object, array, number, integer or string), not "bool" (did you mean "boolean"?)"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": ["string", "string"]}}}"#,
            r#"tool "greet": input schema, line 1, column 60: "type" at /properties/n names a type twice: "string""#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": []}}}"#,
            r#"tool "greet": input schema, line 1, column 49: "type" at /properties/n must name at least one type: []"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": 7}}}"#,
            r#"tool "greet": input schema, line 1, column 49: "type" at /properties/n must name a type (null, boolean, object, array, number, integer or string), not 7"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": "number", "minimum": "0"}}}"#,
            r#"tool "greet": input schema, line 1, column 70: "minimum" at /properties/n must be a number, not "0""#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": "number", "minimum": 5, "maximum": 3}}}"#,
            r#"tool "greet": input schema, line 1, column 70: "minimum" at /properties/n is above its "maximum": 5 > 3"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": "number", "minimum": 1e2, "maximum": 99.5}}}"#,
            r#"tool "greet": input schema, line 1, column 70: "minimum" at /properties/n is above its "maximum": 1e2 > 99.5"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 1.0}}}"#,
            r#"tool "greet": input schema, line 1, column 79: "exclusiveMinimum" at /properties/n is not below its "exclusiveMaximum": 1 >= 1.0"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": "number", "minimum": 3, "exclusiveMaximum": 3}}}"#,
            r#"tool "greet": input schema, line 1, column 70: "minimum" at /properties/n is not below its "exclusiveMaximum": 3 >= 3"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 2.5, "maximum": 2}}}"#,
            r#"tool "greet": input schema, line 1, column 79: "exclusiveMinimum" at /properties/n is not below its "maximum": 2.5 >= 2"#,
        ),
        (
            r#"{"type": "object", "properties": {"s": {"type": "string", "minLength": 10, "maxLength": 9}}}"#,
            r#"tool "greet": input schema, line 1, column 72: "minLength" at /properties/s is above its "maxLength": 10 > 9"#,
        ),
        (
            r#"{"type": "object", "properties": {"s": {"type": "array", "minItems": 2, "maxItems": 1}}}"#,
            r#"tool "greet": input schema, line 1, column 70: "minItems" at /properties/s is above its "maxItems": 2 > 1"#,
        ),
        (
            r#"{"type": "object", "properties": {"s": {"type": "string", "maxLength": -1}}}"#,
            r#"tool "greet": input schema, line 1, column 72: "maxLength" at /properties/s must be a whole number from 0 to 18446744073709551615, in digits, not -1"#,
        ),
        // Past u64, where the check compares counts (review 76: passed over).
        (
            r#"{"type": "object", "properties": {"s": {"type": "string", "minLength": 18446744073709551616}}}"#,
            r#"tool "greet": input schema, line 1, column 72: "minLength" at /properties/s must be a whole number from 0 to 18446744073709551615, in digits, not 18446744073709551616"#,
        ),
        (
            r#"{"type": "object", "properties": {"s": {"type": "array", "minItems": 99999999999999999999999}}}"#,
            r#"tool "greet": input schema, line 1, column 70: "minItems" at /properties/s must be a whole number from 0 to 18446744073709551615, in digits, not 99999999999999999999999"#,
        ),
        (
            r#"{"type": "object", "properties": {"s": {"type": "string"}}, "required": "s"}"#,
            r#"tool "greet": input schema, line 1, column 73: "required" at the root must be an array of strings, not "s""#,
        ),
        (
            r#"{"type": "object", "properties": {"s": {"type": "string"}}, "required": ["s", 1]}"#,
            r#"tool "greet": input schema, line 1, column 79: "required" at the root must be an array of strings, not 1"#,
        ),
        (
            r#"{"type": "object", "properties": {"s": {"type": "string"}}, "required": ["s", "s"]}"#,
            r#"tool "greet": input schema, line 1, column 79: "required" at the root lists a name twice: "s""#,
        ),
        (
            r#"{"type": "object", "properties": {"c": {"enum": "EUR"}}}"#,
            r#"tool "greet": input schema, line 1, column 49: "enum" at /properties/c must be an array, not "EUR""#,
        ),
        (
            r#"{"type": "object", "properties": {"c": {"enum": []}}}"#,
            r#"tool "greet": input schema, line 1, column 49: "enum" at /properties/c must list at least one value: []"#,
        ),
        (
            r#"{"type": "object", "properties": {"a": {"type": "string"}, "a": {"type": "integer"}}}"#,
            r#"tool "greet": input schema, line 1, column 60: "a" at /properties is written twice in one object: JSON readers keep only one"#,
        ),
        (
            r#"{"type": "object", "properties": {"a": {}, "\u0061": {}}}"#,
            r#"tool "greet": input schema, line 1, column 44: "\u0061" at /properties is written with an escape other than \" or \\: write names as plain UTF-8 text, as they are compared as written"#,
        ),
        (
            r#"{"typ\u0065": "object"}"#,
            r#"tool "greet": input schema, line 1, column 2: "typ\u0065" at the root is written with an escape other than \" or \\: write names as plain UTF-8 text, as they are compared as written"#,
        ),
        (
            r#"{"type": "object", "properties": {"a": {}}, "required": ["a", "\u0061"]}"#,
            r#"tool "greet": input schema, line 1, column 63: "required" at the root lists a name written with an escape other than \" or \\: write names as plain UTF-8 text, as they are compared as written: "\u0061""#,
        ),
        (
            r#"{"type": "object", "type": "object"}"#,
            r#"tool "greet": input schema, line 1, column 20: "type" at the root is written twice in one object: JSON readers keep only one"#,
        ),
        (
            r#"{"type": "object", "additionalProperties": "no"}"#,
            r#"tool "greet": input schema, line 1, column 44: "additionalProperties" at the root must be a schema: an object, true or false, not "no""#,
        ),
        (
            r#"{"type": "object", "properties": {"a": 1}}"#,
            r#"tool "greet": input schema, line 1, column 40: "a" at /properties needs a schema: an object, true or false, not 1"#,
        ),
        (
            r#"{"type": "object", "anyOf": [{}, 2]}"#,
            r#"tool "greet": input schema, line 1, column 34: "anyOf" at the root must hold schemas: objects, true or false, not 2"#,
        ),
        (
            r#"{"type": "object", "anyOf": []}"#,
            r#"tool "greet": input schema, line 1, column 29: "anyOf" at the root must be a non-empty array of schemas, not []"#,
        ),
        (
            r#"{"type": "object", "description": 7}"#,
            r#"tool "greet": input schema, line 1, column 35: "description" at the root must be a string, not 7"#,
        ),
        (
            r#"{"type": "object", "multipleOf": 0}"#,
            r#"tool "greet": input schema, line 1, column 34: "multipleOf" at the root must be a number above 0, not 0"#,
        ),
        (
            r#"{"type": "object", "uniqueItems": "yes"}"#,
            r#"tool "greet": input schema, line 1, column 35: "uniqueItems" at the root must be true or false, not "yes""#,
        ),
        (
            r#"{"type": "object", "properties": {"x": {"description": "a very long description that goes on and on beyond forty bytes", "minLength": "a very long description that goes on and on beyond forty bytes"}}}"#,
            r#"tool "greet": input schema, line 1, column 135: "minLength" at /properties/x must be a whole number from 0 to 18446744073709551615, in digits, not "a very long description that goes on an…"#,
        ),
    ];
    for (schema, message) in cases {
        assert_eq!(build_error(schema).as_deref(), Some(*message), "{schema}");
    }
    // What each keyword takes, it may have.
    let fine = r#"{"type": "object", "properties": {
        "n": {"type": ["number", "null"], "minimum": 0, "maximum": 0, "exclusiveMinimum": -1, "exclusiveMaximum": 1e-300, "multipleOf": 0.5},
        "s": {"type": "string", "minLength": 3, "maxLength": 3, "pattern": "^a", "format": "date", "readOnly": true},
        "a": {"type": "array", "items": {"type": "string"}, "minItems": 0, "maxItems": 0, "uniqueItems": true, "prefixItems": [{}, true]},
        "e": {"enum": [1, "1", null], "examples": [], "const": 1, "default": {"a": {"a": 1}}},
        "d": {"type": "object", "dependentRequired": {"x": ["y"]}, "minProperties": 1, "maxProperties": 10}
    }, "required": ["n", "s"], "additionalProperties": false, "$vocabulary": {}}"#;
    assert_eq!(build_error(fine), None);
}

#[test]
fn a_closed_bound_beside_an_open_one_may_leave_room() {
    for schema in [
        r#"{"type": "object", "properties": {"n": {"minimum": 3, "exclusiveMaximum": 3.5}}}"#,
        r#"{"type": "object", "properties": {"n": {"exclusiveMinimum": 2, "maximum": 2.5}}}"#,
        r#"{"type": "object", "properties": {"n": {"minimum": 3, "maximum": 3, "exclusiveMinimum": 2}}}"#,
    ] {
        assert_eq!(build_error(schema), None, "{schema}");
    }
}

/// What `schema`'s table promises of numbers and of `enum` with a key
/// written twice: integers within 64 bits exactly, other numbers as the
/// nearest `f64`, and an object compared member by member.
#[test]
fn numbers_past_64_bits_and_keys_twice_are_compared_as_documented() {
    let between = one(r#"{"exclusiveMinimum": 0, "exclusiveMaximum": 1}"#);
    assert_eq!(refused(&between, r#"{"v": 1e-400}"#), "invalid input: /v must be greater than 0");
    assert_eq!(refused(&between, r#"{"v": 0.99999999999999999999}"#), "invalid input: /v must be less than 1");
    assert_eq!(check(&between, r#"{"v": 0.5}"#), Ok(()));
    let at_most = one(r#"{"maximum": 9223372036854775807}"#);
    assert_eq!(check(&at_most, r#"{"v": 9223372036854775807}"#), Ok(()));
    assert!(check(&at_most, r#"{"v": 9223372036854775808}"#).is_err());
    let objects = one(r#"{"enum": [{"k": 1}]}"#);
    assert_eq!(check(&objects, r#"{"v": {"k": 1}}"#), Ok(()));
    assert!(check(&objects, r#"{"v": {"k": 1, "k": 1}}"#).is_err());
}
