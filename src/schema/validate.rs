//! Arguments checked against a tool's own input schema, at call time.
//!
//! The schema is read where it stands (a `const` string) with the crate's
//! reader; the walk follows the schema, so it goes no deeper than the
//! schema nests, however deep the arguments are. Nothing is allocated
//! unless a check fails (for the message), or a key in the arguments
//! holds escapes and must be unescaped to be compared.

use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::args::Args;
use crate::json::write::compact_into;
use crate::json::{Kind, Str, Value, parse};
use crate::reply::ToolError;

/// Checks `args` against `schema` (a JSON Schema in the subset
/// [`check_supported`](super::rules::check_supported) accepts; keywords
/// outside it are ignored here). No arguments at all read as `{}`.
pub fn check_args(schema: &str, args: &Args<'_>) -> Result<(), ToolError> {
    let Ok(schema) = parse(schema.as_bytes()) else {
        return Err(ToolError::new("the tool's input schema is not JSON"));
    };
    let value = match args.object() {
        Some(object) => object.as_value(),
        None => match parse(b"{}") {
            Ok(empty) => empty,
            Err(_) => return Ok(()),
        },
    };
    check(schema, value, &Path { up: None, step: Step::Root })
}

/// Where a value sits in the arguments: a chain of steps up to the root,
/// kept on the call stack and written out only for a message.
struct Path<'p, 'a> {
    up: Option<&'p Path<'p, 'a>>,
    step: Step<'a>,
}

#[derive(Clone, Copy)]
enum Step<'a> {
    Root,
    Member(Str<'a>),
    Element(usize),
}

impl<'p, 'a> Path<'p, 'a> {
    fn member(&'p self, name: Str<'a>) -> Path<'p, 'a> {
        Path { up: Some(self), step: Step::Member(name) }
    }

    fn element(&'p self, index: usize) -> Path<'p, 'a> {
        Path { up: Some(self), step: Step::Element(index) }
    }

    /// Appends the JSON Pointer (RFC 6901) of the value, without the root.
    fn write(&self, out: &mut Vec<u8>) {
        if let Some(up) = self.up {
            up.write(out);
        }
        match self.step {
            Step::Root => {}
            Step::Member(name) => {
                out.push(b'/');
                for &b in name.to_str().as_bytes() {
                    match b {
                        b'~' => out.extend_from_slice(b"~0"),
                        b'/' => out.extend_from_slice(b"~1"),
                        _ => out.push(b),
                    }
                }
            }
            Step::Element(index) => {
                out.push(b'/');
                crate::json::num::write_u64(out, index as u64);
            }
        }
    }
}

/// `invalid input: POINTER` and the rest of the sentence. The root is
/// written `/` (RFC 6901 writes it as nothing, which reads badly).
fn fail(path: &Path<'_, '_>, parts: &[&[u8]]) -> ToolError {
    const PREFIX: &[u8] = b"invalid input: ";
    let mut text = Vec::from(PREFIX);
    path.write(&mut text);
    if text.len() == PREFIX.len() {
        text.push(b'/');
    }
    for part in parts {
        text.extend_from_slice(part);
    }
    ToolError::new(crate::platform::validated_string(text))
}

fn check<'a>(schema: Value<'a>, value: Value<'a>, path: &Path<'_, 'a>) -> Result<(), ToolError> {
    if let Some(allowed) = schema.as_bool() {
        return if allowed { Ok(()) } else { Err(fail(path, &[b" is not allowed"])) };
    }
    let Some(rules) = schema.as_object() else { return Ok(()) };
    // The type first: the other keywords' messages assume it holds.
    if let Some(types) = rules.get("type") {
        check_type(types, value, path)?;
    }
    for (keyword, rule) in rules.iter() {
        match (keyword.raw(), value.kind()) {
            (b"enum", _) => {
                let choices = || rule.as_array().into_iter().flat_map(|a| a.iter());
                if !choices().any(|choice| same(choice, value)) {
                    let mut list = Vec::new();
                    for (n, choice) in choices().enumerate() {
                        if n > 0 {
                            list.extend_from_slice(b", ");
                        }
                        compact_into(&mut list, choice.raw());
                    }
                    return Err(fail(path, &[b" must be one of ", &list]));
                }
            }
            (b"const", _) => {
                if !same(rule, value) {
                    let mut literal = Vec::new();
                    compact_into(&mut literal, rule.raw());
                    return Err(fail(path, &[b" must be ", &literal]));
                }
            }
            (b"minimum", Kind::Number) => bound(value, rule, path, Ordering::Less, false, b" must be at least ")?,
            (b"maximum", Kind::Number) => bound(value, rule, path, Ordering::Greater, false, b" must be at most ")?,
            (b"exclusiveMinimum", Kind::Number) => bound(value, rule, path, Ordering::Less, true, b" must be greater than ")?,
            (b"exclusiveMaximum", Kind::Number) => bound(value, rule, path, Ordering::Greater, true, b" must be less than ")?,
            (b"minLength", Kind::String) => {
                let length = value.as_str().map_or(0, |s| scalar_count(s.raw()));
                count(length, rule, path, Ordering::Less, b" must be at least ", b" character", b" long")?;
            }
            (b"maxLength", Kind::String) => {
                let length = value.as_str().map_or(0, |s| scalar_count(s.raw()));
                count(length, rule, path, Ordering::Greater, b" must be at most ", b" character", b" long")?;
            }
            (b"minItems", Kind::Array) => {
                let length = value.as_array().map_or(0, |a| a.len() as u64);
                count(length, rule, path, Ordering::Less, b" must have at least ", b" item", b"")?;
            }
            (b"maxItems", Kind::Array) => {
                let length = value.as_array().map_or(0, |a| a.len() as u64);
                count(length, rule, path, Ordering::Greater, b" must have at most ", b" item", b"")?;
            }
            (b"items", Kind::Array) => {
                for (index, element) in value.as_array().into_iter().flat_map(|a| a.iter()).enumerate() {
                    check(rule, element, &path.element(index))?;
                }
            }
            (b"required", Kind::Object) => {
                let object = value.as_object();
                for name in rule.as_array().into_iter().flat_map(|a| a.iter()).filter_map(|n| n.as_str()) {
                    if object.and_then(|o| o.get(&name.to_str())).is_none() {
                        return Err(fail(&path.member(name), &[b" is required"]));
                    }
                }
            }
            (b"properties", Kind::Object) => {
                let object = value.as_object();
                for (name, property) in rule.as_object().into_iter().flat_map(|p| p.iter()) {
                    if let Some(member) = object.and_then(|o| o.get(&name.to_str())) {
                        check(property, member, &path.member(name))?;
                    }
                }
            }
            (b"additionalProperties", Kind::Object) => {
                let declared = rules.get("properties").and_then(|p| p.as_object());
                for (name, member) in value.as_object().into_iter().flat_map(|o| o.iter()) {
                    if declared.and_then(|d| d.get(&name.to_str())).is_none() {
                        check(rule, member, &path.member(name))?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// `type`: one name or a list of them.
fn check_type(types: Value<'_>, value: Value<'_>, path: &Path<'_, '_>) -> Result<(), ToolError> {
    let names = || types.as_array().map(|a| a.iter()).into_iter().flatten().chain(types.as_str().map(|_| types));
    if names().any(|name| is_type(name, value)) {
        return Ok(());
    }
    // "must be a string", "must be a string or null", "must be a, b or c".
    let total = names().count();
    let mut text = Vec::from(&b" must be "[..]);
    for (n, name) in names().enumerate() {
        if n > 0 {
            text.extend_from_slice(if n + 1 == total { b" or " } else { b", " });
        }
        text.extend_from_slice(type_article(name).as_bytes());
    }
    Err(fail(path, &[&text]))
}

/// The JSON kinds each type name covers. An `integer` is a number written
/// without a fraction or exponent, as `Args::int` and serde read one.
const TYPES: [(&str, Kind, &str); 7] = [
    ("null", Kind::Null, "null"),
    ("boolean", Kind::Bool, "a boolean"),
    ("object", Kind::Object, "an object"),
    ("array", Kind::Array, "an array"),
    ("number", Kind::Number, "a number"),
    ("integer", Kind::Number, "an integer"),
    ("string", Kind::String, "a string"),
];

fn is_type(name: Value<'_>, value: Value<'_>) -> bool {
    let Some(name) = name.as_str() else { return false };
    TYPES.iter().any(|&(word, kind, _)| {
        name.raw() == word.as_bytes()
            && value.kind() == kind
            && (word != "integer" || !value.raw().iter().any(|b| matches!(b, b'.' | b'e' | b'E')))
    })
}

fn type_article(name: Value<'_>) -> &'static str {
    let raw = name.as_str().map_or(&b""[..], |s| s.raw());
    TYPES.iter().find(|t| t.0.as_bytes() == raw).map_or("of the schema's type", |t| t.2)
}

/// `minimum` and the like: fails when `value` compares to `limit` as
/// `beyond`, or equals it when the bound is exclusive.
fn bound(value: Value<'_>, limit: Value<'_>, path: &Path<'_, '_>, beyond: Ordering, exclusive: bool, words: &[u8]) -> Result<(), ToolError> {
    match compare(value, limit) {
        Some(o) if o == beyond || (exclusive && o == Ordering::Equal) => {
            let mut text = Vec::new();
            compact_into(&mut text, limit.raw());
            Err(fail(path, &[words, &text]))
        }
        _ => Ok(()),
    }
}

/// `minLength` and the like: `length` against the rule's count, with the
/// unit named in the singular or plural.
fn count(length: u64, rule: Value<'_>, path: &Path<'_, '_>, beyond: Ordering, words: &[u8], unit: &[u8], tail: &[u8]) -> Result<(), ToolError> {
    let Some(limit) = rule.as_u64() else { return Ok(()) };
    if length.cmp(&limit) != beyond {
        return Ok(());
    }
    let mut text = Vec::from(words);
    crate::json::num::write_u64(&mut text, limit);
    text.extend_from_slice(unit);
    if limit != 1 {
        text.push(b's');
    }
    text.extend_from_slice(tail);
    Err(fail(path, &[&text]))
}

/// Two numbers compared exactly when both are integers, else as `f64`.
fn compare(a: Value<'_>, b: Value<'_>) -> Option<Ordering> {
    let integer = |v: Value<'_>| v.as_i64().map(i128::from).or_else(|| v.as_u64().map(i128::from));
    match (integer(a), integer(b)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// JSON equality, as `enum` and `const` mean it: numbers by value, strings
/// after unescaping, objects whatever their members' order. `literal`
/// comes from the schema, so the walk goes no deeper than the schema does.
fn same(literal: Value<'_>, value: Value<'_>) -> bool {
    match (literal.kind(), value.kind()) {
        (Kind::Number, Kind::Number) => compare(literal, value) == Some(Ordering::Equal),
        (Kind::String, Kind::String) => match (literal.as_str(), value.as_str()) {
            (Some(l), Some(v)) => v.eq_str(&l.to_str()),
            _ => false,
        },
        (Kind::Array, Kind::Array) => match (literal.as_array(), value.as_array()) {
            (Some(l), Some(v)) => l.len() == v.len() && l.iter().zip(v.iter()).all(|(l, v)| same(l, v)),
            _ => false,
        },
        (Kind::Object, Kind::Object) => match (literal.as_object(), value.as_object()) {
            (Some(l), Some(v)) => {
                l.len() == v.len() && l.iter().all(|(name, l)| v.get(&name.to_str()).is_some_and(|v| same(l, v)))
            }
            _ => false,
        },
        (a, b) => a == b && literal.raw() == value.raw(),
    }
}

/// The length of a (still escaped) JSON string in Unicode scalar values,
/// as `minLength` counts: an escape is one, a surrogate pair is one.
fn scalar_count(raw: &[u8]) -> u64 {
    let mut n = 0;
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        i += match (b, raw.get(i + 1), raw.get(i + 2), raw.get(i + 3)) {
            // `\uD800`–`\uDBFF` leads a pair: twelve bytes, one scalar.
            (b'\\', Some(b'u'), Some(b'd' | b'D'), Some(b'8' | b'9' | b'a' | b'b' | b'A' | b'B')) => 12,
            (b'\\', Some(b'u'), _, _) => 6,
            (b'\\', _, _, _) => 2,
            _ => 1,
        };
        // Count every byte that starts a character; continuation bytes don't.
        if b & 0xC0 != 0x80 {
            n += 1;
        }
    }
    n
}
