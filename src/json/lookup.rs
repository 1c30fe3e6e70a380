//! Member lookup: several members of an object in one reading of it, and
//! the containers the validator saw end, so a request's arguments are
//! skipped without being read again.

use super::scan::{at, skip_ws, span};
use super::validator::{ReadError, document, value_end};
use super::value::{Str, Value};

/// The most members [`members`] looks up in one reading.
pub(crate) const MAX_KEYS: usize = 6;

/// What separates the keys [`members`] is given: a byte no UTF-8 text
/// holds, so any `&str` is one key.
pub(crate) const KEY_SEPARATOR: u8 = 0xFF;

/// Where the validator saw containers end: the largest at each of levels
/// 2 and 3 (a request's `params`, and the arguments in it). Walking an
/// object skips each member's value to reach the next key; with this, a
/// walk over the message or its params skips those values without reading
/// them again, so a request's arguments are read once by validation and
/// once by the tool.
pub(crate) struct ContainerEnds {
    /// The address of the text the offsets are in.
    base: usize,
    /// For levels 2 and 3 (at `level & 1`), a container's `(start, end)`
    /// offsets.
    pub(crate) spans: [(usize, usize); 2],
}

impl ContainerEnds {
    /// A table that knows no container.
    pub(crate) const NONE: ContainerEnds = ContainerEnds { base: 0, spans: [(0, 0); 2] };

    /// Where the container starting at `b[i]` ends in `b`, if it is known.
    /// An entry never set is `(0, 0)`, and no skipped value starts at
    /// offset 0: the document's own value is walked, never skipped.
    fn end_of(&self, b: &[u8], i: usize) -> Option<usize> {
        let start = (b.as_ptr() as usize).wrapping_sub(self.base).wrapping_add(i);
        let (from, to) = self.spans[(self.spans[1].0 == start) as usize];
        if from == start { Some(i + (to - from)) } else { None }
    }
}

/// The offset just past the value starting at `i` in validated text.
pub(crate) fn skip_value(b: &[u8], i: usize, ends: Option<&ContainerEnds>) -> usize {
    if let Some(end) = ends.and_then(|e| e.end_of(b, i)) {
        return end;
    }
    match value_end(b, i, true, None) {
        Ok(end) => end,
        Err(_) => b.len(),
    }
}

/// [`parse`], learning in `ends` where the first containers end.
pub(crate) fn parse_with_ends<'a>(b: &'a [u8], ends: &mut ContainerEnds) -> Result<Value<'a>, ReadError> {
    ends.base = b.as_ptr() as usize;
    let (start, end) = document(b, Some(ends))?;
    Ok(Value { raw: span(b, start, end) })
}

/// Looks up to [`MAX_KEYS`] members of `object` in one reading of it:
/// slot `k` holds the value of the member named by the `k`th of `keys`
/// (split at [`KEY_SEPARATOR`]; the last of duplicates, as [`Object::get`]
/// finds it), or `None`; every slot is `None` when `object` is not an
/// object.
// Walks the members itself rather than through `iter()`: less code in
// every module, and every module looks members up. The slots are returned
// rather than passed in, so they are cleared in one place.
pub(crate) fn members<'a>(
    object: Option<Value<'a>>,
    keys: &[u8],
    ends: Option<&ContainerEnds>,
) -> [Option<Value<'a>>; MAX_KEYS] {
    let mut found = [None; MAX_KEYS];
    let b = match object {
        Some(Value { raw: b @ [b'{', ..] }) => b,
        _ => return found,
    };
    // Each member: its key's opening quote at `i`, then colon, value, and
    // a comma or the closing brace.
    let mut i = skip_ws(b, 1);
    while at(b, i) == b'"' {
        let key_end = skip_value(b, i, ends);
        let start = skip_ws(b, skip_ws(b, key_end) + 1);
        let end = skip_value(b, start, ends);
        let name = Str { raw: span(b, i + 1, key_end - 1) };
        let plain = name.is_plain();
        let value = Some(Value { raw: span(b, start, end) });
        // Each key, up to a separator or the end.
        let mut rest = keys;
        for slot in found.iter_mut() {
            let mut k = 0;
            while k < rest.len() && rest[k] != KEY_SEPARATOR {
                k += 1;
            }
            let key = span(rest, 0, k);
            // A name with no escapes is its raw text.
            if if plain { crate::bytes::same(name.raw, key) } else { name.eq_bytes(key) } {
                *slot = value;
            }
            rest = match rest.get(k + 1..) {
                Some(more) => more,
                None => break,
            };
        }
        i = skip_ws(b, skip_ws(b, end) + 1);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    /// The containers the validator remembers change no lookup: every
    /// member found with them is the one found by reading again, for
    /// messages whose levels 2 and 3 hold objects, arrays, empty ones and
    /// duplicates, in any order.
    #[test]
    fn remembered_ends_find_what_reading_again_finds() {
        let params = [
            r#"{"arguments":{"a":[1,{"b":2}]},"_meta":{"v":"x"},"name":"t"}"#,
            r#"{"_meta":{},"arguments":{"pad":"xxxxxxxxxxxxxxxxxxxxxxxx"},"name":"t","name":"u"}"#,
            r#"{"name":[{"x":1},[2]],"arguments":[],"_meta":{"v":[{"w":{}}]}}"#,
            r#"{ "arguments" : { "a" : { "b" : [ ] } } , "arguments" : { "c" : 1 } }"#,
            r#"[{"arguments":{}},[{"a":1}],{}]"#,
            r#""params""#,
        ];
        let keys = b"name\xffarguments\xff_meta";
        for p in params {
            for tail in ["", r#","params":{"name":"late"}"#, r#","id":[1,[2,{"x":3}]]"#] {
                let doc = format!(r#"{{"jsonrpc":"2.0","params":{p},"method":"m"{tail}}}"#);
                let mut ends = ContainerEnds::NONE;
                let message = parse_with_ends(doc.as_bytes(), &mut ends).unwrap();
                let message_keys = b"params\xffid\xffmethod";
                let with = members(Some(message), message_keys, Some(&ends));
                let without = members(Some(message), message_keys, None);
                assert_eq!(with, without, "{doc}");
                assert_eq!(members(with[0], keys, Some(&ends)), members(without[0], keys, None), "{doc}");
            }
        }
    }
}
