//! What each keyword's value must be, and what a schema must say once it
//! closes: its `required` names among its `properties`, its bounds in order.

use super::fault::{ESCAPED, ESCAPED_IN_LIST, Fault, Quote, fault, fault_is, fault_value};
use super::numbers::{compare_numbers, is_zero};
use super::tables::{BOUNDS, in_validated_subset};
use super::values::{
    has_element_before, has_escape, has_member, has_member_before, has_string, is_bool, is_count, is_string,
    next_element, next_member, value_end,
};
use super::{Frame, Holds, NONE};
use crate::bytes::{at, same_at as eq};
use crate::schema::keywords::{Vocab, distance, fnv, hash};

/// Checks a known keyword's value: what it must be, by its [`Vocab`].
/// Returns what to walk inside it, if anything.
pub(super) const fn keyword_value(
    b: &[u8],
    vocab: Vocab,
    k: usize,
    k_end: usize,
    v: usize,
) -> Result<Option<Holds>, Fault> {
    let c = at(b, v);
    let (fits, rule) = match vocab {
        Vocab::Schema | Vocab::Items => {
            if c == b'{' {
                return Ok(Some(Holds::Keywords));
            }
            // `items` as an array of schemas, as drafts before 2020-12 wrote
            // it: what it says is not checked anywhere (review 76), and
            // 2020-12 spells it `prefixItems`.
            if c == b'[' && matches!(vocab, Vocab::Items) {
                return Err(fault_value(
                    "must be one schema (an object, true or false; a list of schemas, as drafts before 2020-12 \
                     wrote it, is \"prefixItems\" in 2020-12)",
                    k,
                    k_end,
                    v,
                    value_end(b, v),
                ));
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
        Vocab::Count => (is_count(b, v), "must be a whole number from 0 to 18446744073709551615, in digits"),
        Vocab::Text => (c == b'"', "must be a string"),
        Vocab::Flag => (is_bool(b, v), "must be true or false"),
        Vocab::Names => return check_names(b, k, k_end, v),
        Vocab::NameLists => {
            if c != b'{' {
                (false, "must be an object of arrays of strings")
            } else {
                let mut i = v + 1;
                while let Some((n, n_end, e, e_end)) = next_member(b, i) {
                    // Its names are property names, held to the same rules.
                    if has_escape(b, n, n_end) {
                        return Err(fault(ESCAPED, n, n_end));
                    }
                    if has_member_before(b, v, n, n_end) {
                        return Err(fault("is written twice in one object: JSON readers keep only one", n, n_end));
                    }
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
        // Another language's name for a type, or a name in capitals
        // (review 76: "INTEGER" and "int" had no hint).
        let mut n = 0;
        while n < TYPE_ALIASES.len() {
            if word.eq_ignore_ascii_case(TYPE_ALIASES[n].0.as_bytes()) {
                f.suggestion = Some(TYPE_ALIASES[n].1);
                return Some(f);
            }
            n += 1;
        }
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

/// Names of types in other languages and schemas, each with JSON
/// Schema's; and JSON Schema's own, for a name written in capitals.
const TYPE_ALIASES: [(&str, &str); 36] = [
    ("null", "null"),
    ("boolean", "boolean"),
    ("object", "object"),
    ("array", "array"),
    ("number", "number"),
    ("integer", "integer"),
    ("string", "string"),
    ("int", "integer"),
    ("int32", "integer"),
    ("int64", "integer"),
    ("i64", "integer"),
    ("u64", "integer"),
    ("uint", "integer"),
    ("i32", "integer"),
    ("u32", "integer"),
    ("int8", "integer"),
    ("int16", "integer"),
    ("uint32", "integer"),
    ("uint64", "integer"),
    ("f32", "number"),
    ("float32", "number"),
    ("real", "number"),
    ("char", "string"),
    ("f64", "number"),
    ("float64", "number"),
    ("long", "integer"),
    ("float", "number"),
    ("double", "number"),
    ("decimal", "number"),
    ("str", "string"),
    ("text", "string"),
    ("bool", "boolean"),
    ("list", "array"),
    ("dict", "object"),
    ("map", "object"),
    ("none", "null"),
];

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
        if has_escape(b, e + 1, e_end - 1) {
            return Err(fault_is(ESCAPED_IN_LIST, k, k_end, e, e_end));
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
pub(super) const fn in_subset(h: u64, k: usize, k_end: usize) -> Result<(), Fault> {
    if !in_validated_subset(h) {
        return Err(fault("is outside the subset validated! checks (see subako_tiny::schema)", k, k_end));
    }
    Ok(())
}

/// Every name in the schema's `required` list must be one of its
/// `properties`, when it has them or says it is an object. (A schema with
/// neither, such as an `anyOf` branch, names properties declared elsewhere.)
pub(super) const fn check_required(b: &[u8], schema: &Frame) -> Result<(), Fault> {
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
pub(super) const fn check_bounds(b: &[u8], schema: &Frame) -> Result<(), Fault> {
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
    // A closed bound beside an open one (`minimum` with `exclusiveMaximum`,
    // `exclusiveMinimum` with `maximum`) leaves nothing when the lower is
    // not below the upper.
    let mut pair = 0;
    while pair < 2 {
        let (l, h) = if pair == 0 { (0, 3) } else { (2, 1) };
        let (low, high) = (schema.bounds[l], schema.bounds[h]);
        if low != NONE && high != NONE && compare_numbers(b, low, high) >= 0 {
            let k = schema.bound_keys[l];
            let rule = if pair == 0 { "is not below its \"exclusiveMaximum\"" } else { "is not below its \"maximum\"" };
            let mut f = fault(rule, k, k + BOUNDS[l].len());
            f.quote = Quote::Pair(low, value_end(b, low), ">=", high, value_end(b, high));
            f.place = low;
            return Err(f);
        }
        pair += 1;
    }
    Ok(())
}
