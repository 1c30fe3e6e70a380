//! What a hand-written schema may say, checked at build time.
//!
//! Everything here is a `const fn` over the schema's bytes (already known to
//! be JSON): no allocation, no recursion, `while` loops and a fixed stack of
//! open containers. [`check_tool_schema`] holds every tool's schemas to what
//! MCP clients accept; [`check_supported`] also holds a schema to the subset
//! that [`validated!`](crate::validated) checks at run time.

use crate::package::Message;

/// Schemas nested deeper than this (objects in `properties`, `items`…) are
/// refused: hand-written schemas are shallow, and the stack is fixed.
pub const MAX_NESTING: usize = 32;

/// Why a schema is refused: a rule, and the bytes of the schema it is about
/// (a keyword or a property name; empty when it is the schema as a whole).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Reads after the subject: "`$ref` is not allowed …".
    pub rule: &'static str,
    pub at: usize,
    pub end: usize,
}

const fn fault(rule: &'static str, at: usize, end: usize) -> Fault {
    Fault { rule, at, end }
}

impl Fault {
    /// The text the fault is about, such as `$ref` or a property name.
    pub const fn subject<'s>(&self, schema: &'s str) -> &'s str {
        let b = schema.as_bytes();
        if self.at >= self.end || self.end > b.len() {
            return "";
        }
        let (_, tail) = b.split_at(self.at);
        let (subject, _) = tail.split_at(self.end - self.at);
        match core::str::from_utf8(subject) {
            Ok(s) => s,
            Err(_) => "",
        }
    }

    /// `message` followed by the fault in words: ": `$ref` is not allowed
    /// …", or " must be …" when it is about the schema as a whole.
    pub const fn explain(&self, schema: &str, message: Message) -> Message {
        let subject = self.subject(schema);
        if subject.is_empty() {
            message.push(" ").push(self.rule)
        } else {
            message.push(": `").push(subject).push("` ").push(self.rule)
        }
    }
}

/// The rules every tool's schemas keep, whether or not it is validated:
/// an object root saying `"type": "object"`, no `$ref`, `$defs` or
/// `definitions` (clients reject them), and every name in a `required`
/// list present in the `properties` beside it.
pub const fn check_tool_schema(b: &[u8]) -> Result<(), Fault> {
    walk(b, false)
}

/// [`check_tool_schema`], and every keyword in the subset the run-time
/// validator checks (or in the annotations that carry no rule), with a
/// value of the shape it needs.
pub const fn check_supported(b: &[u8]) -> Result<(), Fault> {
    walk(b, true)
}

/// What the members or elements of an open container are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// A schema: keyword → value.
    Keywords,
    /// `properties` and the like: name → schema.
    Schemas,
    /// An array under a keyword the walker does not know: each element
    /// that is an object is walked as a schema.
    List,
}

const fn walk(b: &[u8], strict: bool) -> Result<(), Fault> {
    let root = skip_ws(b, 0);
    if at(b, root) != b'{' {
        return Err(fault("must be a JSON object", 0, 0));
    }
    match member(b, root, b"type") {
        Some(v) if is_string(b, v, b"object") => {}
        _ => return Err(fault("must say \"type\": \"object\" at its root", 0, 0)),
    }
    if let Err(f) = check_required(b, root) {
        return Err(f);
    }
    let mut holds = [Holds::Keywords; MAX_NESTING];
    // Where the next member or element of each open container starts.
    let mut next = [0usize; MAX_NESTING];
    next[0] = root + 1;
    let mut depth = 1;
    while depth > 0 {
        let top = depth - 1;
        let mut i = skip_ws(b, next[top]);
        if at(b, i) == b',' {
            i = skip_ws(b, i + 1);
        }
        if matches!(at(b, i), b'}' | b']' | 0) {
            depth -= 1;
            continue;
        }
        // A member's name (between its quotes) and value, or an element.
        let (name_at, name_end, v) = if matches!(holds[top], Holds::List) {
            (i, i, i)
        } else {
            let name_end = string_end(b, i) - 1;
            (i + 1, name_end, skip_ws(b, skip_ws(b, name_end + 1) + 1))
        };
        next[top] = value_end(b, v);
        let child = match holds[top] {
            Holds::Keywords => match keyword(b, name_at, name_end, v, strict) {
                Ok(child) => child,
                Err(f) => return Err(f),
            },
            Holds::Schemas => {
                if at(b, v) == b'{' {
                    Some(Holds::Keywords)
                } else if strict && !is_bool(b, v) {
                    return Err(fault("needs a schema: an object, true or false", name_at, name_end));
                } else {
                    None
                }
            }
            Holds::List => match at(b, v) {
                b'{' => Some(Holds::Keywords),
                b'[' => Some(Holds::List),
                _ => None,
            },
        };
        if let Some(child) = child {
            if depth == MAX_NESTING {
                return Err(fault("nests schemas too deeply", name_at, name_end));
            }
            if matches!(child, Holds::Keywords)
                && let Err(f) = check_required(b, v)
            {
                return Err(f);
            }
            holds[depth] = child;
            next[depth] = v + 1;
            depth += 1;
        }
    }
    Ok(())
}

/// Checks one keyword's value; returns what to walk inside it, if anything.
const fn keyword(b: &[u8], k: usize, k_end: usize, v: usize, strict: bool) -> Result<Option<Holds>, Fault> {
    if eq(b, k, k_end, b"$ref") || eq(b, k, k_end, b"$defs") || eq(b, k, k_end, b"definitions") {
        return Err(fault("is not allowed: MCP clients reject $ref, $defs and definitions", k, k_end));
    }
    let c = at(b, v);
    if !strict {
        // Values that are data, not schemas: nothing in them is a keyword.
        if eq(b, k, k_end, b"enum") || eq(b, k, k_end, b"const") || eq(b, k, k_end, b"default") || eq(b, k, k_end, b"examples") {
            return Ok(None);
        }
        return Ok(match c {
            b'{' if eq(b, k, k_end, b"properties") || eq(b, k, k_end, b"patternProperties") || eq(b, k, k_end, b"dependentSchemas") => Some(Holds::Schemas),
            b'{' => Some(Holds::Keywords),
            b'[' => Some(Holds::List),
            _ => None,
        });
    }
    let fits = if eq(b, k, k_end, b"type") {
        if c == b'[' { all_type_names(b, v) } else { is_type_name(b, v) }
    } else if eq(b, k, k_end, b"properties") {
        return if c == b'{' { Ok(Some(Holds::Schemas)) } else { Err(fault("must be an object of schemas", k, k_end)) };
    } else if eq(b, k, k_end, b"additionalProperties") || eq(b, k, k_end, b"items") {
        if c == b'{' {
            return Ok(Some(Holds::Keywords));
        }
        is_bool(b, v)
    } else if eq(b, k, k_end, b"required") {
        all_strings(b, v)
    } else if eq(b, k, k_end, b"enum") {
        c == b'['
    } else if eq(b, k, k_end, b"minimum") || eq(b, k, k_end, b"maximum") || eq(b, k, k_end, b"exclusiveMinimum") || eq(b, k, k_end, b"exclusiveMaximum") {
        c == b'-' || c.is_ascii_digit()
    } else if eq(b, k, k_end, b"minLength") || eq(b, k, k_end, b"maxLength") || eq(b, k, k_end, b"minItems") || eq(b, k, k_end, b"maxItems") {
        is_count(b, v)
    } else if eq(b, k, k_end, b"description") || eq(b, k, k_end, b"title") || eq(b, k, k_end, b"format") || eq(b, k, k_end, b"$schema") || eq(b, k, k_end, b"$comment") {
        c == b'"'
    } else if eq(b, k, k_end, b"const") || eq(b, k, k_end, b"default") || eq(b, k, k_end, b"examples") {
        true
    } else {
        return Err(fault("is outside the subset validated! checks (see subako_tiny::schema)", k, k_end));
    };
    if fits { Ok(None) } else { Err(fault("has a value of the wrong shape for validated!", k, k_end)) }
}

/// Every name in the schema at `o`'s `required` list must be one of its
/// `properties`, when it has them or says it is an object. (A schema with
/// neither, such as an `anyOf` branch, names properties declared elsewhere.)
const fn check_required(b: &[u8], o: usize) -> Result<(), Fault> {
    let Some(required) = member(b, o, b"required") else { return Ok(()) };
    let properties = member(b, o, b"properties");
    let is_object = match member(b, o, b"type") {
        Some(t) => is_string(b, t, b"object") || (at(b, t) == b'[' && has_string(b, t, b"object")),
        None => false,
    };
    if (properties.is_none() && !is_object) || at(b, required) != b'[' {
        return Ok(());
    }
    let mut i = required + 1;
    while let Some((e, e_end)) = next_element(b, i) {
        i = e_end;
        if at(b, e) != b'"' {
            continue;
        }
        let known = match properties {
            Some(p) => at(b, p) == b'{' && has_member(b, p, e + 1, e_end - 1),
            None => false,
        };
        if !known {
            return Err(fault("is required but not listed in `properties`", e + 1, e_end - 1));
        }
    }
    Ok(())
}

const fn is_type_name(b: &[u8], v: usize) -> bool {
    const NAMES: [&[u8]; 7] = [b"null", b"boolean", b"object", b"array", b"number", b"integer", b"string"];
    let mut n = 0;
    while n < NAMES.len() {
        if is_string(b, v, NAMES[n]) {
            return true;
        }
        n += 1;
    }
    false
}

/// A non-empty array of type names.
const fn all_type_names(b: &[u8], v: usize) -> bool {
    let mut i = v + 1;
    let mut any = false;
    while let Some((e, e_end)) = next_element(b, i) {
        if !is_type_name(b, e) {
            return false;
        }
        any = true;
        i = e_end;
    }
    any
}

const fn all_strings(b: &[u8], v: usize) -> bool {
    if at(b, v) != b'[' {
        return false;
    }
    let mut i = v + 1;
    while let Some((e, e_end)) = next_element(b, i) {
        if at(b, e) != b'"' {
            return false;
        }
        i = e_end;
    }
    true
}

const fn has_string(b: &[u8], array: usize, word: &[u8]) -> bool {
    let mut i = array + 1;
    while let Some((e, e_end)) = next_element(b, i) {
        if is_string(b, e, word) {
            return true;
        }
        i = e_end;
    }
    false
}

/// A non-negative integer written with digits only.
const fn is_count(b: &[u8], v: usize) -> bool {
    let end = value_end(b, v);
    let mut i = v;
    while i < end {
        if !at(b, i).is_ascii_digit() {
            return false;
        }
        i += 1;
    }
    end > v
}

const fn is_bool(b: &[u8], v: usize) -> bool {
    let end = value_end(b, v);
    eq(b, v, end, b"true") || eq(b, v, end, b"false")
}

/// The string at `v` is exactly `word` (compared as written).
const fn is_string(b: &[u8], v: usize, word: &[u8]) -> bool {
    at(b, v) == b'"' && eq(b, v + 1, string_end(b, v) - 1, word)
}

/// The value of the last member called `name` in the object at `o`.
const fn member(b: &[u8], o: usize, name: &[u8]) -> Option<usize> {
    let mut found = None;
    let mut i = o + 1;
    while let Some((k, k_end, v, v_end)) = next_member(b, i) {
        if eq(b, k, k_end, name) {
            found = Some(v);
        }
        i = v_end;
    }
    found
}

/// The object at `o` has a member named as the bytes `at..end` of `b`.
const fn has_member(b: &[u8], o: usize, name_at: usize, name_end: usize) -> bool {
    let mut i = o + 1;
    while let Some((k, k_end, _, v_end)) = next_member(b, i) {
        if k_end - k == name_end - name_at {
            let mut n = 0;
            while n < k_end - k && at(b, k + n) == at(b, name_at + n) {
                n += 1;
            }
            if n == k_end - k {
                return true;
            }
        }
        i = v_end;
    }
    false
}

/// The member starting at or after `i` (past a comma) in an object:
/// its name's bounds inside the quotes, and its value's; `None` at `}`.
const fn next_member(b: &[u8], i: usize) -> Option<(usize, usize, usize, usize)> {
    let mut i = skip_ws(b, i);
    if at(b, i) == b',' {
        i = skip_ws(b, i + 1);
    }
    if at(b, i) != b'"' {
        return None;
    }
    let k_end = string_end(b, i);
    let v = skip_ws(b, skip_ws(b, k_end) + 1);
    Some((i + 1, k_end - 1, v, value_end(b, v)))
}

/// The element starting at or after `i` (past a comma) in an array: its
/// bounds; `None` at `]`.
const fn next_element(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let mut i = skip_ws(b, i);
    if at(b, i) == b',' {
        i = skip_ws(b, i + 1);
    }
    if matches!(at(b, i), b']' | 0) {
        return None;
    }
    Some((i, value_end(b, i)))
}

/// The byte at `i`, or 0 past the end (no JSON token holds a raw 0).
const fn at(b: &[u8], i: usize) -> u8 {
    if i < b.len() { b[i] } else { 0 }
}

/// The bytes `from..to` of `b` are `word`.
const fn eq(b: &[u8], from: usize, to: usize, word: &[u8]) -> bool {
    if to < from || to - from != word.len() {
        return false;
    }
    let mut n = 0;
    while n < word.len() {
        if at(b, from + n) != word[n] {
            return false;
        }
        n += 1;
    }
    true
}

const fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(at(b, i), b' ' | b'\n' | b'\r' | b'\t') {
        i += 1;
    }
    i
}

/// Past the closing quote of the (valid) string whose opening quote is at `i`.
const fn string_end(b: &[u8], i: usize) -> usize {
    let mut i = i + 1;
    while i < b.len() {
        match b[i] {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    b.len()
}

/// Past the (valid) value starting at `i`.
const fn value_end(b: &[u8], i: usize) -> usize {
    let mut i = i;
    let mut depth = 0usize;
    loop {
        match at(b, i) {
            b'"' => {
                i = string_end(b, i);
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                // A scalar ends before its container's close; a container at it.
                if depth <= 1 {
                    return if depth == 0 { i } else { i + 1 };
                }
                depth -= 1;
            }
            0 => return i,
            b',' | b' ' | b'\n' | b'\r' | b'\t' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

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
        assert_eq!(refusal(r#"{"type":["object"]}"#, false).map(|r| r.0), Some("must say \"type\": \"object\" at its root"));
    }

    #[test]
    fn refs_are_refused_wherever_a_keyword_can_be() {
        let r = |s| refusal(s, false).map(|r| r.1.to_owned());
        assert_eq!(r(r#"{"type":"object","$ref":"/x"}"#).as_deref(), Some("$ref"));
        assert_eq!(r(r#"{"type":"object","$defs":{}}"#).as_deref(), Some("$defs"));
        assert_eq!(r(r#"{"type":"object","definitions":{}}"#).as_deref(), Some("definitions"));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"items":{"$ref":"/"}}}}"#).as_deref(), Some("$ref"));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"$ref":"/"}]}}}"#).as_deref(), Some("$ref"));
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
            Some(("is required but not listed in `properties`", "b".to_owned()))
        );
        assert_eq!(r(r#"{"type":"object","required":["a"]}"#).map(|r| r.1), Some("a".to_owned()));
        assert_eq!(
            r(r#"{"type":"object","properties":{"o":{"type":"object","properties":{"x":{}},"required":["y"]}}}"#).map(|r| r.1),
            Some("y".to_owned())
        );
        assert_eq!(r(r#"{"type":"object","properties":{"a":{},"b":{}},"anyOf":[{"required":["a"]},{"required":["b"]}]}"#), None);
        assert_eq!(r(r#"{"type":"object","properties":{"a\"b":{}},"required":["a\"b"]}"#), None);
    }

    #[test]
    fn the_validated_subset() {
        let ok = r#"{
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "T", "description": "D", "$comment": "C",
            "type": "object",
            "properties": {
                "s": {"type": "string", "minLength": 1, "maxLength": 32, "format": "email", "default": "x", "examples": ["y"]},
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
        let r = |s| refusal(s, true).map(|r| (r.0, r.1.to_owned()));
        let outside = "is outside the subset validated! checks (see subako_tiny::schema)";
        let shape = "has a value of the wrong shape for validated!";
        assert_eq!(r(r#"{"type":"object","properties":{"s":{"type":"string","pattern":"^a"}}}"#), Some((outside, "pattern".into())));
        assert_eq!(r(r#"{"type":"object","anyOf":[]}"#), Some((outside, "anyOf".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"type":"text"}}}"#), Some((shape, "type".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"type":[]}}}"#), Some((shape, "type".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"items":[{}]}}}"#), Some((shape, "items".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"minLength":-1}}}"#), Some((shape, "minLength".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"maxItems":1.5}}}"#), Some((shape, "maxItems".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"minimum":"1"}}}"#), Some((shape, "minimum".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"exclusiveMinimum":true}}}"#), Some((shape, "exclusiveMinimum".into())));
        assert_eq!(r(r#"{"type":"object","required":"a"}"#), Some((shape, "required".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":1}}"#), Some(("needs a schema: an object, true or false", "a".into())));
        assert_eq!(r(r#"{"type":"object","description":7}"#), Some((shape, "description".into())));
        // The rules for every tool hold too.
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"$ref":"/"}}}"#).map(|r| r.1), Some("$ref".into()));
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
}
