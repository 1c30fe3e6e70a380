//! What a hand-written schema may say, checked at build time.
//!
//! Everything here is a `const fn` over the schema's bytes (already known to
//! be JSON): no allocation, no recursion, `while` loops and a fixed stack of
//! open containers. [`check_tool_schema`] holds every tool's schemas to what
//! MCP clients accept; [`check_supported`] also holds a schema to the subset
//! that [`validated!`](crate::validated) checks at run time.
// A `Fault` carries its message's text, built in const evaluation, where
// nothing can be boxed; it never reaches a module.
#![allow(clippy::result_large_err)]

use super::keywords::{Vocab, hash, suggest, vocab_at};
use crate::json::scan::skip_ws;
use crate::package::Message;

/// Schemas nested deeper than this (objects in `properties`, `items`…) are
/// refused: hand-written schemas are shallow, and the stack is fixed.
pub const MAX_NESTING: usize = 32;

/// Longest JSON Pointer a fault keeps (longer ones end with `…`).
const PATH: usize = 120;

/// Why a schema is refused: a rule, the bytes of the schema it is about
/// (a keyword or a property name; empty when it is the schema as a whole),
/// and where: the JSON Pointer of the schema that says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Reads after the subject: "`$ref` is not allowed …"; or, for an
    /// unknown keyword, before it.
    pub rule: &'static str,
    /// Where the offending text starts in the schema, in bytes.
    pub at: usize,
    /// Where it ends.
    pub end: usize,
    /// The nearest known keyword, for an unknown one.
    pub suggestion: Option<&'static str>,
    path: [u8; PATH],
    path_len: usize,
}

const fn fault(rule: &'static str, at: usize, end: usize) -> Fault {
    Fault { rule, at, end, suggestion: None, path: [0; PATH], path_len: 0 }
}

/// The rule of an unknown keyword's fault.
pub const UNKNOWN: &str = "unknown keyword";

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

    /// The JSON Pointer of the schema the fault is in (`""` for the root).
    pub const fn path(&self) -> &str {
        match core::str::from_utf8(self.path.split_at(self.path_len).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }

    /// `message` followed by the fault in words: `: unknown keyword
    /// "requried" at the root (did you mean "required"?)`, `: "$ref" at
    /// /properties/p is not allowed …`, or ` must be …` when it is about the
    /// schema as a whole.
    pub const fn explain(&self, schema: &str, message: Message) -> Message {
        let subject = self.subject(schema);
        if subject.is_empty() {
            return message.push(" ").push(self.rule);
        }
        let m = message.push(": ");
        let m = if str_is(self.rule, UNKNOWN) { m.push(UNKNOWN).push(" ") } else { m };
        let m = m.push_byte(b'"').push(subject).push_byte(b'"').push(" at ");
        let m = if self.path_len == 0 { m.push("the root") } else { m.push(self.path()) };
        if str_is(self.rule, UNKNOWN) {
            match self.suggestion {
                Some(s) => m.push(" (did you mean \"").push(s).push("\"?)"),
                None => m.push(" (an extension needs an \"x-\" prefix)"),
            }
        } else {
            m.push(" ").push(self.rule)
        }
    }

    /// The fault with the pointer of the schema open at the top of `stack`.
    const fn located(mut self, b: &[u8], stack: &[Frame], depth: usize) -> Fault {
        let mut d = 1;
        while d < depth {
            let f = &stack[d];
            self = self.path_byte(b'/');
            if f.seg_at == INDEX {
                let mut buf = [0u8; 20];
                let digits = crate::bytes::u64_digits(f.seg_end as u64, &mut buf);
                let mut k = 0;
                while k < digits.len() {
                    self = self.path_byte(digits[k]);
                    k += 1;
                }
            } else {
                let mut k = f.seg_at;
                while k < f.seg_end {
                    self = match b[k] {
                        b'~' => self.path_byte(b'~').path_byte(b'0'),
                        b'/' => self.path_byte(b'~').path_byte(b'1'),
                        c => self.path_byte(c),
                    };
                    k += 1;
                }
            }
            d += 1;
        }
        self
    }

    const fn path_byte(mut self, c: u8) -> Fault {
        if self.path_len < PATH - 3 {
            self.path[self.path_len] = c;
            self.path_len += 1;
        } else if self.path_len == PATH - 3 && c & 0xC0 != 0x80 {
            // "…", once, at a character boundary.
            self.path[PATH - 3] = 0xE2;
            self.path[PATH - 2] = 0x80;
            self.path[PATH - 1] = 0xA6;
            self.path_len = PATH;
        }
        self
    }
}

const fn str_is(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    eq(a, 0, a.len(), b)
}

/// The rules every tool's schemas keep, whether or not it is validated:
/// an object root saying `"type": "object"`, every keyword one of JSON
/// Schema 2020-12's or an `x-` extension, no `$ref`, `$defs` or
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
    /// `anyOf` and the like: schemas.
    List,
}

/// `seg_at` of a frame entered as an array's element (`seg_end` is then
/// its index).
const INDEX: usize = usize::MAX;
const NONE: usize = usize::MAX;

/// An open container, and for a schema what its `required` check needs.
#[derive(Clone, Copy)]
struct Frame {
    holds: Holds,
    /// The member name (between its quotes) it is the value of, or
    /// [`INDEX`] and its index in its array.
    seg_at: usize,
    seg_end: usize,
    /// Elements seen so far, for a [`Holds::List`].
    count: usize,
    /// A schema's last `required`, `properties` and `type` values, or NONE.
    required: usize,
    properties: usize,
    type_at: usize,
}

const fn frame(holds: Holds, seg_at: usize, seg_end: usize) -> Frame {
    Frame { holds, seg_at, seg_end, count: 0, required: NONE, properties: NONE, type_at: NONE }
}

/// One pass over the schema (already known to be JSON), with a fixed
/// stack of the open schemas and lists of schemas: each byte is looked at
/// about once, and keywords are told apart by a `match`, so a package of
/// many tools stays well inside what rustc lets one constant evaluate.
const fn walk(b: &[u8], strict: bool) -> Result<(), Fault> {
    let root = skip_ws(b, 0);
    if at(b, root) != b'{' {
        return Err(fault("must be a JSON object", 0, 0));
    }
    let mut stack = [frame(Holds::Keywords, 0, 0); MAX_NESTING];
    let mut depth = 1;
    let mut i = root + 1;
    while depth > 0 {
        let top = depth - 1;
        i = skip_ws(b, i);
        if at(b, i) == b',' {
            i = skip_ws(b, i + 1);
        }
        if matches!(at(b, i), b'}' | b']' | 0) {
            if matches!(stack[top].holds, Holds::Keywords) {
                if top == 0 && !(stack[0].type_at != NONE && is_string(b, stack[0].type_at, b"object")) {
                    return Err(fault("must say \"type\": \"object\" at its root", 0, 0));
                }
                if let Err(f) = check_required(b, &stack[top]) {
                    return Err(f.located(b, &stack, depth));
                }
            }
            depth -= 1;
            i += 1;
            continue;
        }
        // A member's name (between its quotes) and value, or an element.
        let (name_at, name_end, v) = if matches!(stack[top].holds, Holds::List) {
            (INDEX, stack[top].count, i)
        } else {
            let name_end = string_end(b, i) - 1;
            (i + 1, name_end, skip_ws(b, skip_ws(b, name_end + 1) + 1))
        };
        let c = at(b, v);
        let keywords = matches!(stack[top].holds, Holds::Keywords);
        let (vocab, h) = if keywords { vocab_at(b, name_at, name_end) } else { (Vocab::Other, 0) };
        let child = match stack[top].holds {
            Holds::Keywords => {
                match vocab {
                    Vocab::Unknown => {
                        let mut f = fault(UNKNOWN, name_at, name_end);
                        f.suggestion = suggest(b.split_at(name_end).0.split_at(name_at).1);
                        return Err(f.located(b, &stack, depth));
                    }
                    Vocab::Refused => {
                        let f =
                            fault("is not allowed: MCP clients reject $ref, $defs and definitions", name_at, name_end);
                        return Err(f.located(b, &stack, depth));
                    }
                    // An extension's value is its own: not looked into.
                    Vocab::Extension => None,
                    _ if strict => match keyword(b, name_at, name_end, v) {
                        Ok(child) => child,
                        Err(f) => return Err(f.located(b, &stack, depth)),
                    },
                    Vocab::Schema if c == b'{' => Some(Holds::Keywords),
                    Vocab::Items if c == b'{' => Some(Holds::Keywords),
                    Vocab::Items | Vocab::SchemaList if c == b'[' => Some(Holds::List),
                    Vocab::SchemaMap if c == b'{' => Some(Holds::Schemas),
                    _ => None,
                }
            }
            Holds::Schemas => {
                if c == b'{' {
                    Some(Holds::Keywords)
                } else if strict && !is_bool(b, v) {
                    let f = fault("needs a schema: an object, true or false", name_at, name_end);
                    return Err(f.located(b, &stack, depth));
                } else {
                    None
                }
            }
            Holds::List => {
                stack[top].count += 1;
                if c == b'{' { Some(Holds::Keywords) } else { None }
            }
        };
        if keywords && !matches!(vocab, Vocab::Extension | Vocab::Unknown) {
            // Comparisons with constants: no steps.
            if h == const { hash("required") } {
                stack[top].required = v;
            } else if h == const { hash("properties") } {
                stack[top].properties = v;
            } else if h == const { hash("type") } {
                stack[top].type_at = v;
            }
        }
        match child {
            Some(child) => {
                if depth == MAX_NESTING {
                    let (a, e) = if name_at == INDEX { (0, 0) } else { (name_at, name_end) };
                    return Err(fault("nests schemas too deeply", a, e).located(b, &stack, depth));
                }
                stack[depth] = frame(child, name_at, name_end);
                depth += 1;
                i = v + 1;
            }
            None => i = value_end(b, v),
        }
    }
    Ok(())
}

/// Under `validated!`: checks one keyword's value against the subset;
/// returns what to walk inside it, if anything.
const fn keyword(b: &[u8], k: usize, k_end: usize, v: usize) -> Result<Option<Holds>, Fault> {
    let c = at(b, v);
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
    } else if eq(b, k, k_end, b"minimum")
        || eq(b, k, k_end, b"maximum")
        || eq(b, k, k_end, b"exclusiveMinimum")
        || eq(b, k, k_end, b"exclusiveMaximum")
    {
        c == b'-' || c.is_ascii_digit()
    } else if eq(b, k, k_end, b"minLength")
        || eq(b, k, k_end, b"maxLength")
        || eq(b, k, k_end, b"minItems")
        || eq(b, k, k_end, b"maxItems")
    {
        is_count(b, v)
    } else if eq(b, k, k_end, b"description")
        || eq(b, k, k_end, b"title")
        || eq(b, k, k_end, b"format")
        || eq(b, k, k_end, b"$schema")
        || eq(b, k, k_end, b"$comment")
    {
        c == b'"'
    } else if eq(b, k, k_end, b"const") || eq(b, k, k_end, b"default") || eq(b, k, k_end, b"examples") {
        true
    } else {
        return Err(fault("is outside the subset validated! checks (see subako_tiny::schema)", k, k_end));
    };
    if fits { Ok(None) } else { Err(fault("has a value of the wrong shape for validated!", k, k_end)) }
}

/// Every name in the schema's `required` list must be one of its
/// `properties`, when it has them or says it is an object. (A schema with
/// neither, such as an `anyOf` branch, names properties declared elsewhere.)
const fn check_required(b: &[u8], schema: &Frame) -> Result<(), Fault> {
    let required = schema.required;
    if required == NONE || at(b, required) != b'[' {
        return Ok(());
    }
    let properties = if schema.properties == NONE { None } else { Some(schema.properties) };
    let is_object = match schema.type_at {
        NONE => false,
        t => is_string(b, t, b"object") || (at(b, t) == b'[' && has_string(b, t, b"object")),
    };
    if properties.is_none() && !is_object {
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
            return Err(fault("is required but not listed in \"properties\"", e + 1, e_end - 1));
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

use crate::bytes::{at, same_at as eq};

/// Past the value starting at `i` in the (valid) schema: the reader's own
/// scanner, trusting the text it has validated.
const fn value_end(b: &[u8], i: usize) -> usize {
    match crate::json::validator::value_end(b, i, true, None) {
        Ok(end) => end,
        Err(_) => b.len(),
    }
}

/// Past the closing quote of the (valid) string whose opening quote is at `i`.
const fn string_end(b: &[u8], i: usize) -> usize {
    match crate::json::validator::string_end(b, i, true) {
        Ok(end) => end,
        Err(_) => b.len(),
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
        assert_eq!(
            refusal(r#"{"type":"array"}"#, false).map(|r| r.0),
            Some("must say \"type\": \"object\" at its root")
        );
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
        assert_eq!(
            r(r#"{"type":"object","properties":{"s":{"type":"string","pattern":"^a"}}}"#),
            Some((outside, "pattern".into()))
        );
        assert_eq!(r(r#"{"type":"object","anyOf":[]}"#), Some((outside, "anyOf".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"type":"text"}}}"#), Some((shape, "type".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"type":[]}}}"#), Some((shape, "type".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"items":[{}]}}}"#), Some((shape, "items".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"minLength":-1}}}"#), Some((shape, "minLength".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"maxItems":1.5}}}"#), Some((shape, "maxItems".into())));
        assert_eq!(r(r#"{"type":"object","properties":{"a":{"minimum":"1"}}}"#), Some((shape, "minimum".into())));
        assert_eq!(
            r(r#"{"type":"object","properties":{"a":{"exclusiveMinimum":true}}}"#),
            Some((shape, "exclusiveMinimum".into()))
        );
        assert_eq!(r(r#"{"type":"object","required":"a"}"#), Some((shape, "required".into())));
        assert_eq!(
            r(r#"{"type":"object","properties":{"a":1}}"#),
            Some(("needs a schema: an object, true or false", "a".into()))
        );
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
