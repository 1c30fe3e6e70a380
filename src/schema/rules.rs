//! What a hand-written schema may say, checked at build time.
//!
//! Everything here is a `const fn` over the schema's bytes (already known to
//! be JSON): no allocation, no recursion, `while` loops and a fixed stack of
//! open containers. [`check_tool_schema`] holds every tool's schemas to what
//! MCP clients accept and to what each keyword's value must be;
//! [`check_supported`] also holds a schema to the subset that
//! [`validated!`](crate::validated) checks at run time.
//!
//! Const evaluation counts a step for each turn of a loop and each call
//! (rustc stops one constant at 2,000,000): the walk looks at each byte
//! about once, tells keywords apart by hash (comparisons are free), and
//! does its rarer work (a duplicate key's search, a pair of bounds
//! compared) only when there is some to do.
// A `Fault` carries its message's text, built in const evaluation, where
// nothing can be boxed; it never reaches a module.
#![allow(clippy::result_large_err)]

use super::keywords::{Vocab, distance, fnv, hash, suggest, vocab_at};
use super::syntax::line_column;
use crate::build_message::BuildMessage;
use crate::json::scan::skip_ws;

/// Schemas nested deeper than this (objects in `properties`, `items`…) are
/// refused: hand-written schemas are shallow, and the stack is fixed.
pub const MAX_NESTING: usize = 32;

/// The most `properties` one schema lists under `validated!`: the
/// validator keeps a slot for each on the stack.
pub const MAX_PROPERTIES: usize = super::validate::SLOTS;

/// Longest JSON Pointer a fault keeps (longer ones end with `…`).
const PATH: usize = 120;

/// At most this many bytes of a value are quoted in a fault.
const QUOTE: usize = 40;

/// What a fault quotes after its rule, as the schema has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quote {
    /// Nothing.
    Nothing,
    /// `, not VALUE`: the value found where another was due.
    Not(usize, usize),
    /// `: VALUE`: the value the rule is about.
    Is(usize, usize),
    /// `: A > B`: two bounds that leave nothing between them, and how they
    /// compare.
    Pair(usize, usize, &'static str, usize, usize),
}

/// Why a schema is refused: a rule, the bytes of the schema it is about
/// (a keyword or a property name; empty when it is the schema as a whole),
/// and where: the JSON Pointer of the schema that says it, and the line
/// and column of the text to fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Reads after the subject: "`$ref` is not allowed …"; or, for an
    /// unknown keyword, before it.
    pub rule: &'static str,
    /// Where the offending text starts in the schema, in bytes.
    pub at: usize,
    /// Where it ends.
    pub end: usize,
    /// The nearest known keyword or type name, for a misspelt one.
    pub suggestion: Option<&'static str>,
    /// What the message quotes after the rule.
    pub quote: Quote,
    /// The offset the line and column are given for.
    pub place: usize,
    path: [u8; PATH],
    path_len: usize,
}

const fn fault(rule: &'static str, at: usize, end: usize) -> Fault {
    // A name is pointed at by its opening quote.
    let place = if at > 0 && at < end { at - 1 } else { NONE };
    Fault { rule, at, end, suggestion: None, quote: Quote::Nothing, place, path: [0; PATH], path_len: 0 }
}

/// A fault about the keyword named by `k..k_end`, whose value at `v`
/// (ending at `v_end`) is quoted and placed.
const fn fault_value(rule: &'static str, k: usize, k_end: usize, v: usize, v_end: usize) -> Fault {
    let mut f = fault(rule, k, k_end);
    f.quote = Quote::Not(v, v_end);
    f.place = v;
    f
}

/// A fault about the keyword named by `k..k_end` that quotes the value at
/// `v` (ending at `v_end`) as what it is about, and is placed there.
const fn fault_is(rule: &'static str, k: usize, k_end: usize, v: usize, v_end: usize) -> Fault {
    let mut f = fault_value(rule, k, k_end, v, v_end);
    f.quote = Quote::Is(v, v_end);
    f
}

/// The rule of an unknown keyword's fault.
pub const UNKNOWN: &str = "unknown keyword";

impl Fault {
    /// The text the fault is about, such as `$ref` or a property name.
    pub const fn subject<'s>(&self, schema: &'s str) -> &'s str {
        text(schema, self.at, self.end)
    }

    /// The JSON Pointer of the schema the fault is in (`""` for the root).
    pub const fn path(&self) -> &str {
        match core::str::from_utf8(self.path.split_at(self.path_len).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }

    /// `message` followed by the fault in words: `, line 1, column 47:
    /// unknown keyword "requried" at the root (did you mean "required"?)`,
    /// `, line 3, column 20: "minimum" at /properties/n must be a number,
    /// not "0"`, or ` must be …` when it is about the schema as a whole.
    pub const fn explain(&self, schema: &str, message: BuildMessage) -> BuildMessage {
        let subject = self.subject(schema);
        if subject.is_empty() {
            return message.push(" ").push(self.rule);
        }
        let m = if self.place == NONE {
            message
        } else {
            let (line, column, _) = line_column(schema.as_bytes(), self.place);
            message.push(", line ").push_usize(line).push(", column ").push_usize(column)
        };
        let m = m.push(": ");
        let unknown = str_is(self.rule, UNKNOWN);
        let m = if unknown { m.push(UNKNOWN).push(" ") } else { m };
        let m = m.push_byte(b'"').push(subject).push_byte(b'"').push(" at ");
        let m = if self.path_len == 0 { m.push("the root") } else { m.push(self.path()) };
        if unknown {
            return match self.suggestion {
                Some(s) => m.push(" (did you mean \"").push(s).push("\"?)"),
                None => m.push(" (an extension needs an \"x-\" prefix)"),
            };
        }
        let m = m.push(" ").push(self.rule);
        let m = match self.quote {
            Quote::Nothing => m,
            Quote::Not(v, v_end) => quoted(m.push(", not "), schema, v, v_end),
            Quote::Is(v, v_end) => quoted(m.push(": "), schema, v, v_end),
            Quote::Pair(a, a_end, op, b, b_end) => {
                let m = quoted(m.push(": "), schema, a, a_end).push(" ").push(op).push(" ");
                quoted(m, schema, b, b_end)
            }
        };
        match self.suggestion {
            Some(s) => m.push(" (did you mean \"").push(s).push("\"?)"),
            None => m,
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

/// The bytes `at..end` of `schema` as text (empty when out of range).
const fn text(schema: &str, at: usize, end: usize) -> &str {
    let b = schema.as_bytes();
    if at >= end || end > b.len() {
        return "";
    }
    let (_, tail) = b.split_at(at);
    let (subject, _) = tail.split_at(end - at);
    match core::str::from_utf8(subject) {
        Ok(s) => s,
        Err(_) => "",
    }
}

/// `m` and the value at `v..v_end` of `schema` as written, on one line,
/// cut after about [`QUOTE`] bytes (at a character) with `…`.
const fn quoted(mut m: BuildMessage, schema: &str, v: usize, v_end: usize) -> BuildMessage {
    let b = schema.as_bytes();
    let mut i = v;
    let mut space = false;
    while i < v_end && i < b.len() {
        let c = b[i];
        if i - v >= QUOTE && c & 0xC0 != 0x80 {
            return m.push("…");
        }
        if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            space = true;
        } else {
            if space {
                m = m.push_byte(b' ');
                space = false;
            }
            m = m.push_byte(c);
        }
        i += 1;
    }
    m
}

const fn str_is(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    eq(a, 0, a.len(), b)
}

/// The rules every tool's schemas keep, whether or not it is validated:
/// an object root saying `"type": "object"`; every keyword one of JSON
/// Schema 2020-12's or an `x-` extension, with a value of the kind the
/// keyword takes (a type's name, a number, a schema…) and no lower bound
/// above its upper one; no key twice in one object; no `$ref`, `$defs` or
/// `definitions` (clients reject them); and every name in a `required`
/// list present in the `properties` beside it.
pub const fn check_tool_schema(b: &[u8]) -> Result<(), Fault> {
    walk(b, false)
}

/// [`check_tool_schema`], and every keyword in the subset the run-time
/// validator checks (or in the annotations that carry no rule), in the
/// form it checks.
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

/// The bounds a schema's [`Frame`] keeps, lower then upper: a pair leaves
/// nothing between them when the lower is above the upper (or, for the
/// exclusive pair, not below it).
const BOUNDS: [&str; 12] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
];

/// An open container, and for a schema what its `required` check and its
/// bounds need.
#[derive(Clone, Copy)]
struct Frame {
    holds: Holds,
    /// The member name (between its quotes) it is the value of, or
    /// [`INDEX`] and its index in its array.
    seg_at: usize,
    seg_end: usize,
    /// Where it opens, to look for a key seen twice.
    open: usize,
    /// A bit for each key's hash, to find a key seen twice.
    keys: u64,
    /// Elements or members seen so far.
    count: usize,
    /// A schema's last `required`, `properties` and `type` values, or NONE.
    required: usize,
    properties: usize,
    type_at: usize,
    /// The values of the [`BOUNDS`] keywords, or NONE; and the keywords.
    bounded: bool,
    bounds: [usize; BOUNDS.len()],
    bound_keys: [usize; BOUNDS.len()],
}

const fn frame(holds: Holds, seg_at: usize, seg_end: usize, open: usize) -> Frame {
    Frame {
        holds,
        seg_at,
        seg_end,
        open,
        keys: 0,
        count: 0,
        required: NONE,
        properties: NONE,
        type_at: NONE,
        bounded: false,
        bounds: [NONE; BOUNDS.len()],
        bound_keys: [NONE; BOUNDS.len()],
    }
}

/// One pass over the schema (already known to be JSON), with a fixed
/// stack of the open schemas and lists of schemas: each byte is looked at
/// about once, and keywords are told apart by their hash, so a package of
/// many tools stays well inside what rustc lets one constant evaluate.
const fn walk(b: &[u8], strict: bool) -> Result<(), Fault> {
    let root = skip_ws(b, 0);
    if at(b, root) != b'{' {
        return Err(fault("must be a JSON object", 0, 0));
    }
    let mut stack = [frame(Holds::Keywords, 0, 0, 0); MAX_NESTING];
    stack[0].open = root;
    let mut depth = 1;
    let mut i = root + 1;
    while depth > 0 {
        let top = depth - 1;
        i = skip_ws(b, i);
        if at(b, i) == b',' {
            i = skip_ws(b, i + 1);
        }
        if matches!(at(b, i), b'}' | b']' | 0) {
            let closing = &stack[top];
            match closing.holds {
                Holds::Keywords => {
                    if top == 0 && !(closing.type_at != NONE && is_string(b, closing.type_at, b"object")) {
                        return Err(fault("must say \"type\": \"object\" at its root", 0, 0));
                    }
                    if let Err(f) = check_required(b, closing) {
                        return Err(f.located(b, &stack, depth));
                    }
                    if closing.bounded
                        && let Err(f) = check_bounds(b, closing)
                    {
                        return Err(f.located(b, &stack, depth));
                    }
                }
                Holds::Schemas if strict && closing.count > MAX_PROPERTIES => {
                    let f = fault("lists more than 64 properties: validated! checks up to 64 in one object", 0, 0);
                    let f = Fault { at: closing.seg_at, end: closing.seg_end, place: closing.seg_at - 1, ..f };
                    return Err(f.located(b, &stack, top));
                }
                _ => {}
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
        let (vocab, h) = match stack[top].holds {
            Holds::Keywords => vocab_at(b, name_at, name_end),
            Holds::Schemas => (Vocab::Other, fnv(b, name_at, name_end)),
            Holds::List => (Vocab::Other, 0),
        };
        if !matches!(stack[top].holds, Holds::List) {
            // A key seen twice: its hash's bit set before, and its bytes
            // found among the keys before it (compared as written).
            let bit = 1u64 << (h % 64);
            if stack[top].keys & bit != 0 && has_member_before(b, stack[top].open, name_at, name_end) {
                let f = fault("is written twice in one object: JSON readers keep only one", name_at, name_end);
                return Err(f.located(b, &stack, depth));
            }
            stack[top].keys |= bit;
        }
        stack[top].count += 1;
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
                    _ => {
                        if strict && let Err(f) = in_subset(b, vocab, h, name_at, name_end, v) {
                            return Err(f.located(b, &stack, depth));
                        }
                        match keyword_value(b, vocab, name_at, name_end, v) {
                            Ok(child) => child,
                            Err(f) => return Err(f.located(b, &stack, depth)),
                        }
                    }
                }
            }
            Holds::Schemas | Holds::List => {
                if c == b'{' {
                    Some(Holds::Keywords)
                } else if is_bool(b, v) {
                    None
                } else if name_at == INDEX {
                    // An element has no name: the list's keyword is the subject.
                    let (list, list_end) = (stack[top].seg_at, stack[top].seg_end);
                    let f =
                        fault_value("must hold schemas: objects, true or false", list, list_end, v, value_end(b, v));
                    return Err(f.located(b, &stack, top));
                } else {
                    let f =
                        fault_value("needs a schema: an object, true or false", name_at, name_end, v, value_end(b, v));
                    return Err(f.located(b, &stack, depth));
                }
            }
        };
        if matches!(stack[top].holds, Holds::Keywords) && !matches!(vocab, Vocab::Extension | Vocab::Unknown) {
            // Comparisons with constants: no steps.
            if h == const { hash("required") } {
                stack[top].required = v;
            } else if h == const { hash("properties") } {
                stack[top].properties = v;
            } else if h == const { hash("type") } {
                stack[top].type_at = v;
            } else if matches!(vocab, Vocab::Number | Vocab::Count) {
                let n = bound_index(h);
                if n != NONE {
                    stack[top].bounded = true;
                    stack[top].bounds[n] = v;
                    stack[top].bound_keys[n] = name_at;
                }
            }
        }
        match child {
            Some(child) => {
                if depth == MAX_NESTING {
                    let (a, e) = if name_at == INDEX { (0, 0) } else { (name_at, name_end) };
                    return Err(fault("nests schemas too deeply", a, e).located(b, &stack, depth));
                }
                stack[depth] = frame(child, name_at, name_end, v);
                depth += 1;
                i = v + 1;
            }
            None => i = value_end(b, v),
        }
    }
    Ok(())
}

/// Checks a known keyword's value: what it must be, by its [`Vocab`].
/// Returns what to walk inside it, if anything.
const fn keyword_value(b: &[u8], vocab: Vocab, k: usize, k_end: usize, v: usize) -> Result<Option<Holds>, Fault> {
    let c = at(b, v);
    let (fits, rule) = match vocab {
        Vocab::Schema | Vocab::Items => {
            if c == b'{' {
                return Ok(Some(Holds::Keywords));
            }
            // `items` as an array of schemas, as drafts before 2020-12 wrote it.
            if c == b'[' && matches!(vocab, Vocab::Items) {
                return Ok(Some(Holds::List));
            }
            (is_bool(b, v), "must be a schema: an object, true or false")
        }
        Vocab::SchemaMap => {
            if c == b'{' {
                return Ok(Some(Holds::Schemas));
            }
            (false, "must be an object of schemas")
        }
        Vocab::SchemaList => {
            if c == b'[' && next_element(b, v + 1).is_some() {
                return Ok(Some(Holds::List));
            }
            (false, "must be a non-empty array of schemas")
        }
        Vocab::DataList => {
            let enum_ = eq(b, k, k_end, b"enum");
            if enum_ && c == b'[' && next_element(b, v + 1).is_none() {
                return Err(fault_is("must list at least one value", k, k_end, v, value_end(b, v)));
            } else {
                (c == b'[', "must be an array")
            }
        }
        Vocab::Types => return check_types(b, k, k_end, v),
        Vocab::Number => (c == b'-' || c.is_ascii_digit(), "must be a number"),
        Vocab::Positive => (c.is_ascii_digit() && !is_zero(b, v), "must be a number above 0"),
        Vocab::Count => (is_count(b, v), "must be a whole number, 0 or more, in digits"),
        Vocab::Text => (c == b'"', "must be a string"),
        Vocab::Flag => (is_bool(b, v), "must be true or false"),
        Vocab::Names => return check_names(b, k, k_end, v),
        Vocab::NameLists => {
            if c != b'{' {
                (false, "must be an object of arrays of strings")
            } else {
                let mut i = v + 1;
                while let Some((_, _, e, e_end)) = next_member(b, i) {
                    if let Err(f) = check_names(b, k, k_end, e) {
                        return Err(f);
                    }
                    i = e_end;
                }
                (true, "")
            }
        }
        Vocab::Map => (c == b'{', "must be an object"),
        Vocab::Data | Vocab::Unknown | Vocab::Extension | Vocab::Refused | Vocab::Other => (true, ""),
    };
    if fits { Ok(None) } else { Err(fault_value(rule, k, k_end, v, value_end(b, v))) }
}

/// The type names, as `validated!` words them.
const TYPE_NAMES: [&str; 7] = ["null", "boolean", "object", "array", "number", "integer", "string"];

const NOT_A_TYPE: &str = "must name a type (null, boolean, object, array, number, integer or string)";

/// `type`: a name, or a non-empty array of distinct names.
const fn check_types(b: &[u8], k: usize, k_end: usize, v: usize) -> Result<Option<Holds>, Fault> {
    if at(b, v) != b'[' {
        return match type_name_fault(b, k, k_end, v) {
            Some(f) => Err(f),
            None => Ok(None),
        };
    }
    let mut i = v + 1;
    let mut any = false;
    while let Some((e, e_end)) = next_element(b, i) {
        if let Some(f) = type_name_fault(b, k, k_end, e) {
            return Err(f);
        }
        if has_element_before(b, v, e, e_end) {
            return Err(fault_is("names a type twice", k, k_end, e, e_end));
        }
        any = true;
        i = e_end;
    }
    if any { Ok(None) } else { Err(fault_is("must name at least one type", k, k_end, v, value_end(b, v))) }
}

/// Why the value at `v` is not a type's name, with the nearest one.
const fn type_name_fault(b: &[u8], k: usize, k_end: usize, v: usize) -> Option<Fault> {
    let end = value_end(b, v);
    if at(b, v) == b'"' && is_type_name(b, v + 1, end - 1) {
        return None;
    }
    let mut f = fault_value(NOT_A_TYPE, k, k_end, v, end);
    if at(b, v) == b'"' {
        // The nearest name, as near as a misspelling is.
        let word = b.split_at(end - 1).0.split_at(v + 1).1;
        let mut best = usize::MAX;
        let mut n = 0;
        while n < TYPE_NAMES.len() {
            let d = distance(word, TYPE_NAMES[n].as_bytes());
            if d < best && d <= 2 && d < word.len() {
                best = d;
                f.suggestion = Some(TYPE_NAMES[n]);
            }
            n += 1;
        }
    }
    Some(f)
}

/// The bytes `at..end` of `b` are a type's name: their hash picked out of
/// the names' (comparisons, which cost no steps), then the bytes compared.
const fn is_type_name(b: &[u8], at: usize, end: usize) -> bool {
    let h = fnv(b, at, end);
    macro_rules! names {
        ($($n:literal)*) => {
            $(if h == const { hash(TYPE_NAMES[$n]) } {
                return eq(b, at, end, TYPE_NAMES[$n].as_bytes());
            })*
        };
    }
    names!(0 1 2 3 4 5 6);
    false
}

/// `required` (and `dependentRequired`'s lists): an array of distinct strings.
const fn check_names(b: &[u8], k: usize, k_end: usize, v: usize) -> Result<Option<Holds>, Fault> {
    if at(b, v) != b'[' {
        return Err(fault_value("must be an array of strings", k, k_end, v, value_end(b, v)));
    }
    let mut i = v + 1;
    while let Some((e, e_end)) = next_element(b, i) {
        if at(b, e) != b'"' {
            return Err(fault_value("must be an array of strings", k, k_end, e, e_end));
        }
        if has_element_before(b, v, e, e_end) {
            return Err(fault_is("lists a name twice", k, k_end, e, e_end));
        }
        i = e_end;
    }
    Ok(None)
}

/// Under `validated!`: the keyword is in the subset the validator checks
/// (or an annotation), in the form it checks.
const fn in_subset(b: &[u8], vocab: Vocab, h: u64, k: usize, k_end: usize, v: usize) -> Result<(), Fault> {
    if !in_validated_subset(h) {
        return Err(fault("is outside the subset validated! checks (see subako_tiny::schema)", k, k_end));
    }
    if matches!(vocab, Vocab::Items) && at(b, v) == b'[' {
        return Err(fault_value("must be one schema under validated!", k, k_end, v, value_end(b, v)));
    }
    Ok(())
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

/// Each pair of [`BOUNDS`] the schema gives leaves room between them.
const fn check_bounds(b: &[u8], schema: &Frame) -> Result<(), Fault> {
    let mut n = 0;
    while n < BOUNDS.len() {
        let (low, high) = (schema.bounds[n], schema.bounds[n + 1]);
        if low != NONE && high != NONE {
            let order = compare_numbers(b, low, high);
            // The exclusive pair needs the lower below the upper.
            let empty = if n == 2 { order >= 0 } else { order > 0 };
            if empty {
                let k = schema.bound_keys[n];
                let rule = match n {
                    0 => "is above its \"maximum\"",
                    2 => "is not below its \"exclusiveMaximum\"",
                    4 => "is above its \"maxLength\"",
                    6 => "is above its \"maxItems\"",
                    8 => "is above its \"maxProperties\"",
                    _ => "is above its \"maxContains\"",
                };
                let mut f = fault(rule, k, k + BOUNDS[n].len());
                f.quote =
                    Quote::Pair(low, value_end(b, low), if n == 2 { ">=" } else { ">" }, high, value_end(b, high));
                f.place = low;
                return Err(f);
            }
        }
        n += 2;
    }
    Ok(())
}

/// The JSON numbers at `x` and `y` compared exactly, as decimals: -1, 0
/// or 1. (Written in const code: core's float parsing is not const.)
pub const fn compare_numbers(b: &[u8], x: usize, y: usize) -> i32 {
    let (x_negative, x_zero, x_magnitude) = decimal(b, x);
    let (y_negative, y_zero, y_magnitude) = decimal(b, y);
    if x_zero && y_zero {
        return 0;
    }
    // The sign of each, zero counting as neither.
    let sx = if x_zero {
        0
    } else if x_negative {
        -1
    } else {
        1
    };
    let sy = if y_zero {
        0
    } else if y_negative {
        -1
    } else {
        1
    };
    if sx != sy {
        return if sx < sy { -1 } else { 1 };
    }
    // Same sign, both nonzero: compare magnitudes, then digits.
    let mut order = if x_magnitude != y_magnitude {
        if x_magnitude < y_magnitude { -1 } else { 1 }
    } else {
        compare_digits(b, x, y)
    };
    if sx < 0 {
        order = -order;
    }
    order
}

/// A JSON number's sign, whether it is zero, and the power of ten of its
/// first significant digit (`123.4` → 2, `0.05` → -2), saturated far
/// beyond any `f64`.
const fn decimal(b: &[u8], v: usize) -> (bool, bool, i64) {
    let negative = at(b, v) == b'-';
    let mut i = if negative { v + 1 } else { v };
    // Digits before the point, and where the first significant one is.
    let mut position: i64 = 0;
    let mut first: Option<i64> = None;
    while at(b, i).is_ascii_digit() {
        if first.is_none() && at(b, i) != b'0' {
            first = Some(position);
        }
        position += 1;
        i += 1;
    }
    let point = position;
    if at(b, i) == b'.' {
        i += 1;
        while at(b, i).is_ascii_digit() {
            if first.is_none() && at(b, i) != b'0' {
                first = Some(position);
            }
            position += 1;
            i += 1;
        }
    }
    let mut exponent: i64 = 0;
    if matches!(at(b, i), b'e' | b'E') {
        i += 1;
        let minus = at(b, i) == b'-';
        if matches!(at(b, i), b'-' | b'+') {
            i += 1;
        }
        while at(b, i).is_ascii_digit() {
            if exponent < 1_000_000_000_000 {
                exponent = exponent * 10 + (at(b, i) - b'0') as i64;
            }
            i += 1;
        }
        if minus {
            exponent = -exponent;
        }
    }
    match first {
        None => (negative, true, 0),
        Some(f) => (negative, false, point - f - 1 + exponent),
    }
}

/// The significant digits of the numbers at `x` and `y` (of the same
/// magnitude) compared in order, a missing digit reading as 0.
const fn compare_digits(b: &[u8], x: usize, y: usize) -> i32 {
    let mut i = first_significant(b, x);
    let mut j = first_significant(b, y);
    loop {
        let (dx, next_i) = next_digit(b, i);
        let (dy, next_j) = next_digit(b, j);
        if dx == 0 && dy == 0 && next_i == i && next_j == j {
            return 0;
        }
        if dx != dy {
            return if dx < dy { -1 } else { 1 };
        }
        i = next_i;
        j = next_j;
    }
}

/// The offset of the first nonzero digit of the number at `v`.
const fn first_significant(b: &[u8], v: usize) -> usize {
    let mut i = v;
    while matches!(at(b, i), b'-' | b'0' | b'.') {
        i += 1;
    }
    i
}

/// The digit at `i` (past a point) and the offset after it; 0 and `i`
/// itself once the digits end.
const fn next_digit(b: &[u8], i: usize) -> (u8, usize) {
    let i = if at(b, i) == b'.' { i + 1 } else { i };
    let c = at(b, i);
    if c.is_ascii_digit() { (c - b'0', i + 1) } else { (0, i) }
}

/// The number at `v` is zero (all its digits are).
const fn is_zero(b: &[u8], v: usize) -> bool {
    let (_, zero, _) = decimal(b, v);
    zero
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

/// The object opening at `o` has a member before the one whose name is the
/// bytes `name_at..name_end` with that same name (compared as written).
const fn has_member_before(b: &[u8], o: usize, name_at: usize, name_end: usize) -> bool {
    let mut i = o + 1;
    while let Some((k, k_end, _, v_end)) = next_member(b, i) {
        if k >= name_at {
            return false;
        }
        if same_bytes(b, k, k_end, name_at, name_end) {
            return true;
        }
        i = v_end;
    }
    false
}

/// The array opening at `a` has an element before the one at `e..e_end`
/// with the same text (compared as written).
const fn has_element_before(b: &[u8], a: usize, e: usize, e_end: usize) -> bool {
    let mut i = a + 1;
    while let Some((x, x_end)) = next_element(b, i) {
        if x >= e {
            return false;
        }
        if same_bytes(b, x, x_end, e, e_end) {
            return true;
        }
        i = x_end;
    }
    false
}

/// The bytes `a..a_end` and `c..c_end` of `b` are the same.
const fn same_bytes(b: &[u8], a: usize, a_end: usize, c: usize, c_end: usize) -> bool {
    if a_end - a != c_end - c {
        return false;
    }
    let mut n = 0;
    while n < a_end - a && at(b, a + n) == at(b, c + n) {
        n += 1;
    }
    n == a_end - a
}

/// Which of [`BOUNDS`] the keyword hashed `h` is, or `NONE`: comparisons
/// with constants, which cost no steps.
const fn bound_index(h: u64) -> usize {
    macro_rules! index {
        ($($n:literal)*) => {
            $(if h == const { hash(BOUNDS[$n]) } {
                return $n;
            })*
        };
    }
    index!(0 1 2 3 4 5 6 7 8 9 10 11);
    NONE
}

/// The keyword hashed `h` is one `validated!` checks, or an annotation.
const fn in_validated_subset(h: u64) -> bool {
    macro_rules! any {
        ($($word:literal)*) => {
            $(h == const { hash($word) })||*
        };
    }
    any!("type" "properties" "required" "additionalProperties" "items" "minItems" "maxItems" "minLength"
        "maxLength" "minimum" "maximum" "exclusiveMinimum" "exclusiveMaximum" "enum" "const" "description" "title"
        "default" "examples" "$schema" "$comment" "format")
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
        let r = |s: &str| refusal(s, true).map(|r| (r.0, r.1.to_owned()));
        let outside = "is outside the subset validated! checks (see subako_tiny::schema)";
        assert_eq!(
            r(r#"{"type":"object","properties":{"s":{"type":"string","pattern":"^a"}}}"#),
            Some((outside, "pattern".into()))
        );
        assert_eq!(r(r#"{"type":"object","anyOf":[{}]}"#), Some((outside, "anyOf".into())));
        assert_eq!(
            r(r#"{"type":"object","properties":{"a":{"items":[{}]}}}"#),
            Some(("must be one schema under validated!", "items".into()))
        );
        // Every tool may say `items: [{}]`, as drafts before 2020-12 did.
        assert_eq!(refusal(r#"{"type":"object","properties":{"a":{"items":[{}]}}}"#, false), None);
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
}
