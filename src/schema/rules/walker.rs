//! The walk: one pass over a schema, keyword by keyword, with a fixed
//! stack of the schemas and lists of schemas open around it.

use super::checks::{check_bounds, check_required, in_subset, keyword_value};
use super::fault::{ESCAPED, Fault, UNKNOWN, fault, fault_value};
use super::tables::bound_index;
use super::values::{has_escape, has_member_before, is_bool, is_string, string_end, value_end};
use super::{Holds, INDEX, MAX_NESTING, MAX_PROPERTIES, NONE, frame};
use crate::bytes::at;
use crate::json::scan::skip_ws;
use crate::schema::keywords::{Vocab, fnv, hash, suggest, vocab_at};

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

/// One pass over the schema (already known to be JSON), with a fixed
/// stack of the open schemas and lists of schemas: each byte is looked at
/// about once, and keywords are told apart by their hash, so a package of
/// many tools stays well inside what rustc lets one constant evaluate.
pub(super) const fn walk(b: &[u8], strict: bool) -> Result<(), Fault> {
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
        // Names are compared as written (keywords, duplicates, `required`):
        // `"typ\u0065"` would be an unknown keyword, `"\u0061"` beside `"a"`
        // no duplicate, so a name with an escape is refused for what it is.
        if name_at != INDEX && has_escape(b, name_at, name_end) {
            let f = fault(ESCAPED, name_at, name_end);
            return Err(f.located(b, &stack, depth));
        }
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
                        if strict && let Err(f) = in_subset(h, name_at, name_end) {
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
