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
use crate::json::Elements;
use crate::json::write::compact_into;
use crate::json::{Kind, Object, Str, Value, parse};
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
                crate::json::num::write_usize(out, index);
            }
        }
    }
}

/// The rule a value breaks, put in words only when one does.
enum Broken<'a> {
    /// A `false` schema, or a member `additionalProperties: false` forbids.
    NotAllowed,
    Required,
    /// The `type` keyword's value: one name or a list of them.
    Type(Value<'a>),
    /// The `enum` keyword's list.
    OneOf(Value<'a>),
    /// The `const` keyword's value.
    Const(Value<'a>),
    /// A bound, with the keyword's value.
    Limit(&'static Limit, Value<'a>),
}

/// `invalid input: POINTER` and the broken rule in words. The root is
/// written `/` (RFC 6901 writes it as nothing, which reads badly).
fn fail(path: &Path<'_, '_>, broken: Broken<'_>) -> ToolError {
    const PREFIX: &[u8] = b"invalid input: ";
    let mut text = Vec::from(PREFIX);
    path.write(&mut text);
    if text.len() == PREFIX.len() {
        text.push(b'/');
    }
    let put = |text: &mut Vec<u8>, s: &str| text.extend_from_slice(s.as_bytes());
    match broken {
        Broken::NotAllowed => put(&mut text, " is not allowed"),
        Broken::Required => put(&mut text, " is required"),
        Broken::Type(types) => {
            // "a string", "a string or null", "an integer, a boolean or an array".
            put(&mut text, " must be ");
            let total = types.as_array().map_or(1, |list| list.len());
            for (n, name) in elements_or_self(types).enumerate() {
                if n > 0 {
                    put(&mut text, if n + 1 == total { " or " } else { ", " });
                }
                let name = name.as_str().map_or(&b""[..], |s| s.raw());
                put(&mut text, TYPES.iter().find(|t| t.0.as_bytes() == name).map_or("", |t| t.2));
            }
        }
        Broken::OneOf(choices) => {
            put(&mut text, " must be one of ");
            for (n, choice) in elements_or_self(choices).enumerate() {
                if n > 0 {
                    put(&mut text, ", ");
                }
                compact_into(&mut text, choice.raw());
            }
        }
        Broken::Const(literal) => {
            put(&mut text, " must be ");
            compact_into(&mut text, literal.raw());
        }
        Broken::Limit(limit, bound) => {
            put(&mut text, limit.words);
            compact_into(&mut text, bound.raw());
            if !limit.unit.is_empty() {
                put(&mut text, limit.unit);
                if bound.raw() != b"1" {
                    text.push(b's');
                }
            }
            put(&mut text, limit.tail);
        }
    }
    // SAFETY: `text` is joined from `str`s, the JSON pointer's validated
    // keys and ASCII digits.
    ToolError::new(unsafe { crate::sys::validated_string(text) })
}

/// An array's elements, or the value alone when it is not an array.
fn elements_or_self(value: Value<'_>) -> ElementsOrSelf<'_> {
    match value.as_array() {
        Some(list) => ElementsOrSelf::Elements(list.iter()),
        None => ElementsOrSelf::Value(Some(value)),
    }
}

enum ElementsOrSelf<'a> {
    Elements(Elements<'a>),
    Value(Option<Value<'a>>),
}

impl<'a> Iterator for ElementsOrSelf<'a> {
    type Item = Value<'a>;

    fn next(&mut self) -> Option<Value<'a>> {
        match self {
            ElementsOrSelf::Elements(elements) => elements.next(),
            ElementsOrSelf::Value(value) => value.take(),
        }
    }
}

fn check<'a>(schema: Value<'a>, value: Value<'a>, path: &Path<'_, 'a>) -> Result<(), ToolError> {
    let broken = match schema.as_bool() {
        Some(allowed) => (!allowed).then_some(Broken::NotAllowed),
        None => match schema.as_object() {
            Some(rules) => check_rules(rules, value, path)?,
            None => None,
        },
    };
    match broken {
        Some(broken) => Err(fail(path, broken)),
        None => Ok(()),
    }
}

/// The rule in `rules` that `value` itself breaks, if any, the type first
/// (the other keywords' messages assume it holds); what its members or
/// elements break is the error.
fn check_rules<'a>(rules: Object<'a>, value: Value<'a>, path: &Path<'_, 'a>) -> Result<Option<Broken<'a>>, ToolError> {
    if let Some(types) = rules.get("type")
        && !elements_or_self(types).any(|name| is_type(name, value))
    {
        return Ok(Some(Broken::Type(types)));
    }
    let kind = value.kind();
    for (keyword, rule) in rules.iter() {
        let keyword = keyword.raw();
        if let Some(limit) = LIMITS.iter().find(|l| l.keyword.as_bytes() == keyword && l.kind == kind) {
            if breaks(limit, value, rule) {
                return Ok(Some(Broken::Limit(limit, rule)));
            }
        } else if keyword == b"enum" {
            if !elements_or_self(rule).any(|choice| same(choice, value)) {
                return Ok(Some(Broken::OneOf(rule)));
            }
        } else if keyword == b"const" {
            if !same(rule, value) {
                return Ok(Some(Broken::Const(rule)));
            }
        } else if let Some(elements) = value.as_array().filter(|_| keyword == b"items") {
            for (index, element) in elements.iter().enumerate() {
                check(rule, element, &path.element(index))?;
            }
        } else if let Some(object) = value.as_object() {
            check_members(keyword, rule, rules, object, path)?;
        }
    }
    Ok(None)
}

/// `required`, `properties` and `additionalProperties` on an object.
fn check_members<'a>(
    keyword: &[u8],
    rule: Value<'a>,
    rules: Object<'a>,
    object: Object<'a>,
    path: &Path<'_, 'a>,
) -> Result<(), ToolError> {
    match keyword {
        b"required" => {
            for name in elements_or_self(rule).filter_map(|n| n.as_str()) {
                if member(object, name).is_none() {
                    return Err(fail(&path.member(name), Broken::Required));
                }
            }
        }
        b"properties" => {
            let Some(properties) = rule.as_object() else { return Ok(()) };
            for (name, property) in properties.iter() {
                if let Some(value) = member(object, name) {
                    check(property, value, &path.member(name))?;
                }
            }
        }
        b"additionalProperties" => {
            let declared = rules.get("properties").and_then(|p| p.as_object());
            for (name, value) in object.iter() {
                if declared.and_then(|d| member(d, name)).is_none() {
                    check(rule, value, &path.member(name))?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// The member of `object` called `name` (compared unescaped).
#[inline(never)]
fn member<'a>(object: Object<'a>, name: Str<'_>) -> Option<Value<'a>> {
    object.get(&name.to_str())
}

/// A keyword that bounds a number, or a string's or an array's length.
struct Limit {
    keyword: &'static str,
    /// The kind of value it applies to; it says nothing about others.
    kind: Kind,
    /// The comparison of the value with the bound that breaks it.
    beyond: Ordering,
    /// Equal to the bound breaks it too.
    exclusive: bool,
    words: &'static str,
    /// Named after the bound, with an `s` unless the bound is 1.
    unit: &'static str,
    tail: &'static str,
}

const fn limit(
    keyword: &'static str,
    kind: Kind,
    beyond: Ordering,
    exclusive: bool,
    words: &'static str,
    unit: &'static str,
    tail: &'static str,
) -> Limit {
    Limit { keyword, kind, beyond, exclusive, words, unit, tail }
}

static LIMITS: [Limit; 8] = [
    limit("minimum", Kind::Number, Ordering::Less, false, " must be at least ", "", ""),
    limit("maximum", Kind::Number, Ordering::Greater, false, " must be at most ", "", ""),
    limit("exclusiveMinimum", Kind::Number, Ordering::Less, true, " must be greater than ", "", ""),
    limit("exclusiveMaximum", Kind::Number, Ordering::Greater, true, " must be less than ", "", ""),
    limit("minLength", Kind::String, Ordering::Less, false, " must be at least ", " character", " long"),
    limit("maxLength", Kind::String, Ordering::Greater, false, " must be at most ", " character", " long"),
    limit("minItems", Kind::Array, Ordering::Less, false, " must have at least ", " item", ""),
    limit("maxItems", Kind::Array, Ordering::Greater, false, " must have at most ", " item", ""),
];

/// `value` is beyond `bound`: numbers compared with numbers, lengths in
/// Unicode scalar values or elements with counts.
fn breaks(limit: &Limit, value: Value<'_>, bound: Value<'_>) -> bool {
    let length = match (value.as_str(), value.as_array()) {
        (Some(s), _) => Some(scalar_count(s.raw())),
        (_, Some(a)) => Some(a.len() as u64),
        _ => None,
    };
    let order = match length {
        Some(length) => bound.as_u64().map(|bound| length.cmp(&bound)),
        None => compare(value, bound),
    };
    order == Some(limit.beyond) || (limit.exclusive && order == Some(Ordering::Equal))
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
                l.len() == v.len() && l.iter().all(|(name, l)| member(v, name).is_some_and(|v| same(l, v)))
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
