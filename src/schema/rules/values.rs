//! Reading the (valid) schema in place: an object's members, an array's
//! elements, where a value ends, and what a value is.

use crate::bytes::{at, same_at as eq};
use crate::json::scan::skip_ws;

pub(super) const fn has_string(b: &[u8], array: usize, word: &[u8]) -> bool {
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
pub(super) const fn is_count(b: &[u8], v: usize) -> bool {
    let end = value_end(b, v);
    let mut i = v;
    while i < end {
        if !at(b, i).is_ascii_digit() {
            return false;
        }
        i += 1;
    }
    // Within u64, as the check compares a count (review 76: a
    // `minLength` past it was passed over, so nothing was too short). JSON
    // writes no leading zero, so more digits is more.
    const MAX: &[u8] = b"18446744073709551615";
    end > v && (end - v < MAX.len() || end - v == MAX.len() && !above(b, v, MAX))
}

/// Whether the digits at `v` are above `max`, as many digits.
const fn above(b: &[u8], v: usize, max: &[u8]) -> bool {
    let mut i = 0;
    while i < max.len() {
        if at(b, v + i) != max[i] {
            return at(b, v + i) > max[i];
        }
        i += 1;
    }
    false
}

pub(super) const fn is_bool(b: &[u8], v: usize) -> bool {
    let end = value_end(b, v);
    eq(b, v, end, b"true") || eq(b, v, end, b"false")
}

/// The string at `v` is exactly `word` (compared as written).
pub(super) const fn is_string(b: &[u8], v: usize, word: &[u8]) -> bool {
    at(b, v) == b'"' && eq(b, v + 1, string_end(b, v) - 1, word)
}

/// Whether the bytes `at..end` of `b` (a string's inside) hold an escape
/// other than `\"` and `\\`: with only those (the one way to write each
/// of the two), a name has one spelling, and names compared as written
/// are compared as the strings they are.
pub(super) const fn has_escape(b: &[u8], mut at: usize, end: usize) -> bool {
    while at < end {
        if b[at] == b'\\' {
            if at + 1 < end && (b[at + 1] == b'"' || b[at + 1] == b'\\') {
                at += 1;
            } else {
                return true;
            }
        }
        at += 1;
    }
    false
}

/// The object at `o` has a member named as the bytes `at..end` of `b`.
pub(super) const fn has_member(b: &[u8], o: usize, name_at: usize, name_end: usize) -> bool {
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
pub(super) const fn next_member(b: &[u8], i: usize) -> Option<(usize, usize, usize, usize)> {
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
pub(super) const fn next_element(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let mut i = skip_ws(b, i);
    if at(b, i) == b',' {
        i = skip_ws(b, i + 1);
    }
    if matches!(at(b, i), b']' | 0) {
        return None;
    }
    Some((i, value_end(b, i)))
}

/// Past the value starting at `i` in the (valid) schema: the reader's skip
/// over text it has validated.
pub(super) const fn value_end(b: &[u8], i: usize) -> usize {
    crate::json::validator::skip(b, i)
}

/// Past the closing quote of the (valid) string whose opening quote is at `i`.
pub(super) const fn string_end(b: &[u8], i: usize) -> usize {
    crate::json::validator::skip_string(b, i)
}

/// The object opening at `o` has a member before the one whose name is the
/// bytes `name_at..name_end` with that same name (compared as written).
pub(super) const fn has_member_before(b: &[u8], o: usize, name_at: usize, name_end: usize) -> bool {
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
pub(super) const fn has_element_before(b: &[u8], a: usize, e: usize, e_end: usize) -> bool {
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
