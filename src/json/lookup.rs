//! Member lookup: [`Object::get`] and [`Object::fields`], and several
//! members of an object in one reading of it for the protocol, skipping the
//! containers the validator saw end (a request's arguments) without reading
//! them again.

use super::scan::{at, plain_end, skip_ws, span};
use super::validator::{KnownEnds, ReadError, document, skip_string, skip_value};
use super::value::{Array, Object, Str, Value};

/// The most members [`members`] looks up in one reading.
pub(crate) const MAX_KEYS: usize = 6;

/// What separates the keys [`members`] is given: a byte no UTF-8 text
/// holds, so any `&str` is one key.
pub(crate) const KEY_SEPARATOR: u8 = 0xFF;

/// [`parse`](super::parse), learning in `ends` where the first containers end.
pub(crate) fn parse_with_ends<'a>(b: &'a [u8], ends: &mut KnownEnds) -> Result<Value<'a>, ReadError> {
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
    ends: Option<&KnownEnds>,
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
        let key_end = skip_string(b, i);
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
            if name.eq_key(plain, key) {
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

impl<'a> Object<'a> {
    /// The value of member `key` (compared after unescaping), or `None`
    /// when the object has no such member. It reads the whole object, so
    /// that the last of duplicate members wins as in serde_json: to read
    /// several members, [`fields`](Self::fields) reads them all in one walk,
    /// and for each element of an array, [`Array::fields`] reads each once
    /// (author trial 39: seven `get`s for each of 3,000 events took twice
    /// the official module's work, where `Array::fields` took 0.56 to 0.74 of it).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let value = json::parse(br#"{"rate": 1.05, "base": "EUR", "base": "USD"}"#).unwrap();
    /// let object = value.as_object().unwrap();
    /// assert_eq!(object.get("rate").and_then(|v| v.as_f64()), Some(1.05));
    /// assert!(object.get("base").unwrap().as_str().unwrap().eq_str("USD"));
    /// assert_eq!(object.get("date"), None);
    /// ```
    // Inlined: the call of `members` costs less at each use than a function
    // of its own does in every module.
    #[inline(always)]
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        let [found, ..] = members(Some(self.as_value()), key.as_bytes(), None);
        found
    }

    /// The values of the members named by `keys`, in their order, read in
    /// one walk of the object whatever their number and order (`None` for
    /// a member it does not have; the last of duplicates wins, as in
    /// serde_json). Each member's name is unescaped at most once. For
    /// each entry of an array, [`Array::fields`] reads it in one walk
    /// rather than two.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let note = json::parse(br#"{"id": 7, "title": "Tea", "tags": ["a"], "body": "Sencha", "id": 8}"#).unwrap();
    /// let [body, id, due] = note.as_object().unwrap().fields(["body", "id", "due"]);
    /// assert_eq!(body.and_then(|v| v.as_str()).map(|s| s.into_string()).as_deref(), Some("Sencha"));
    /// assert_eq!(id.and_then(|v| v.as_i64()), Some(8));
    /// assert_eq!(due, None);
    /// ```
    pub fn fields<const N: usize>(&self, keys: [&str; N]) -> [Option<Value<'a>>; N] {
        let mut found = [None; N];
        self.fill(&keys, &mut found);
        found
    }

    /// [`fields`](Self::fields)' walk, once for every `N`. Through
    /// `iter()`, not [`fill_members`]: a module mostly iterates some object
    /// too, and one walk of members is smaller than two.
    #[inline(never)]
    fn fill(&self, keys: &[&str], found: &mut [Option<Value<'a>>]) {
        for (name, value) in self.iter() {
            let name = name.to_str();
            for (slot, key) in found.iter_mut().zip(keys) {
                if crate::bytes::same(name.as_bytes(), key.as_bytes()) {
                    *slot = Some(value);
                }
            }
        }
    }
}

/// Walks the members of the object whose `{` is at `open` in validated
/// text `b`, putting into slot `k` the value of the member named by
/// `keys[k]` (the last of duplicates, names compared unescaped), and
/// returns the offset just past its `}`: [`Array::fields`]' walk of an
/// element, which learns where the element ends from it.
#[inline(never)]
fn fill_members<'a>(b: &'a [u8], open: usize, keys: &[&str], found: &mut [Option<Value<'a>>]) -> usize {
    let mut i = skip_ws(b, open + 1);
    // At each member's key, the opening quote at `i`; else at the `}`.
    while at(b, i) == b'"' {
        // A name with no escape, as most are, is known as such from the
        // search for its closing quote, and compared as it is written.
        let first_stop = plain_end(b, i + 1, true);
        let plain = at(b, first_stop) == b'"';
        let key_end = if plain { first_stop + 1 } else { skip_string(b, i) };
        let name = Str { raw: span(b, i + 1, key_end - 1) };
        let start = skip_ws(b, skip_ws(b, key_end) + 1);
        let end = skip_value(b, start, None);
        for (slot, key) in found.iter_mut().zip(keys) {
            if name.eq_key(plain, key.as_bytes()) {
                *slot = Some(Value { raw: span(b, start, end) });
            }
        }
        i = skip_ws(b, end);
        if at(b, i) != b',' {
            break;
        }
        i = skip_ws(b, i + 1);
    }
    i + 1
}

impl<'a> Array<'a> {
    /// The members named by `keys` of each element, in the order of
    /// `keys` (`None` for a member the element lacks; the last of
    /// duplicates wins, names compared unescaped), or `None` for an
    /// element that is not an object: what
    /// `array.iter().map(|e| Some(e.as_object()?.fields(keys)))` gives,
    /// but each element is read once, its end found by the walk that
    /// takes its members, rather than passed over and then walked again.
    /// For reading many entries of an answer (an HTTP API's list).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::json;
    ///
    /// let answer = json::parse(br#"{"departures": [{"line": "S2", "delay": 3}, {"line": "IC 5"}, "late"]}"#).unwrap();
    /// let list = answer.at(&["departures"]).and_then(|v| v.as_array()).unwrap();
    /// let mut read = Vec::new();
    /// for (i, entry) in list.fields(["line", "delay"]).enumerate() {
    ///     let Some([line, delay]) = entry else {
    ///         read.push(format!("departures[{i}] is not an object"));
    ///         continue;
    ///     };
    ///     let line = line.and_then(|v| v.as_str()).map(|s| s.into_string()).unwrap_or_default();
    ///     read.push(format!("{line}: {}", delay.and_then(|v| v.as_i64()).unwrap_or(0)));
    /// }
    /// assert_eq!(read, ["S2: 3", "IC 5: 0", "departures[2] is not an object"]);
    /// ```
    pub fn fields<'k, const N: usize>(&self, keys: [&'k str; N]) -> ElementFields<'a, 'k, N> {
        ElementFields { raw: self.raw, at: 1, keys }
    }
}

/// The iterator [`Array::fields`] makes.
#[derive(Clone, Debug)]
pub struct ElementFields<'a, 'k, const N: usize> {
    raw: &'a [u8],
    /// Where the next element (or white space before it) begins.
    at: usize,
    keys: [&'k str; N],
}

impl<const N: usize> core::iter::FusedIterator for ElementFields<'_, '_, N> {}

impl<'a, const N: usize> Iterator for ElementFields<'a, '_, N> {
    type Item = Option<[Option<Value<'a>>; N]>;

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.raw;
        let i = skip_ws(b, self.at);
        let (end, item) = match at(b, i) {
            b']' | 0 => return None,
            b'{' => {
                let mut found = [None; N];
                (fill_members(b, i, &self.keys, &mut found), Some(found))
            }
            _ => (skip_value(b, i, None), None),
        };
        let next = skip_ws(b, end);
        // Past the comma, or left on the closing bracket.
        self.at = if at(b, next) == b',' { next + 1 } else { next };
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

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
                let mut ends = KnownEnds::NONE;
                let message = parse_with_ends(doc.as_bytes(), &mut ends).unwrap();
                let message_keys = b"params\xffid\xffmethod";
                let with = members(Some(message), message_keys, Some(&ends));
                let without = members(Some(message), message_keys, None);
                assert_eq!(with, without, "{doc}");
                assert_eq!(members(with[0], keys, Some(&ends)), members(without[0], keys, None), "{doc}");
            }
        }
    }

    /// An array's `fields` gives, element by element, what passing each
    /// element and then walking its members gives: white space anywhere,
    /// nested containers, elements that are not objects, empty objects,
    /// duplicates, names with escapes (a quote, one that unescapes to a
    /// key, one a key's prefix), names at the very end of the text.
    #[test]
    fn an_arrays_fields_are_each_elements_fields() {
        let arrays = [
            "[]",
            "[ ]",
            r#"[{"a":1}]"#,
            r#"[{"a":1},{"b":2,"a":3},{}]"#,
            r#"[ { "a" : [1, {"a": 9}] , "b" : {"a": "x"} } , "a" , 7 , null , [ {"a":1} ] , { } ]"#,
            r#"[{"a":1,"a":2},{"\u0061":"esc","a\"":"quote","ab":"prefix"},{"b":true}]"#,
            r#"[{"xxxxxxxxxxxxxxxxxxxxxxxxxxxx":"long name","a":"v"},{"a":"é\n","b":"東京"}]"#,
            "[\n\t{\"a\"\t:\n1\r}\n]",
            r#"[[],{},{"a":{}},{"b":[]}]"#,
        ];
        for text in arrays {
            let array = super::super::parse(text.as_bytes()).unwrap().as_array().unwrap();
            let read: alloc::vec::Vec<_> = array.fields(["a", "b", "a\""]).collect();
            let walked: alloc::vec::Vec<_> =
                array.iter().map(|e| Some(e.as_object()?.fields(["a", "b", "a\""]))).collect();
            assert_eq!(read, walked, "{text}");
            assert_eq!(read.len(), array.len(), "{text}");
            // Fused: past the end, it stays there.
            let mut fields = array.fields(["a"]);
            fields.by_ref().for_each(drop);
            assert_eq!((fields.next(), fields.next()), (None, None), "{text}");
        }
    }

    /// The longest string is remembered, wherever it is (a key, a value,
    /// in an array, deep down; with escapes or without; the first of equal
    /// ones), and walking the arguments with it finds what walking them
    /// without finds.
    #[test]
    fn the_longest_string_is_remembered_and_skipped_alike() {
        let long = "日本語のテキスト and some ASCII, é".repeat(4);
        let arguments = [
            format!(r#"{{"text":"{long}","n":1}}"#),
            format!(r#"{{"a":"short","text":"{long}\n","b":"{long}"}}"#),
            format!(r#"{{"a":"{long}\u00e9","b":"tail"}}"#),
            format!(r#"{{"{long}":1,"b":"x"}}"#),
            format!(r#"{{"list":["a","{long}",["{long}"]],"deep":{{"x":{{"y":"{long}"}}}}}}"#),
            String::from(r#"{"a":"xx","b":"yy","c":"\"q"}"#),
            format!(r#"{{"a":"\u00e9","text":"{long}","b":"\n"}}"#),
            format!(r#"{{"text":"{long}\\"}}"#),
            String::from("{}"),
        ];
        for args in arguments {
            let doc = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{args}}}}}"#
            );
            let mut ends = KnownEnds::NONE;
            let message = parse_with_ends(doc.as_bytes(), &mut ends).unwrap();
            // The longest string of the line, by a plain search.
            let (mut best, mut i) = ((0, 0), 0);
            let b = doc.as_bytes();
            while i < b.len() {
                if b[i] == b'"' {
                    let mut j = i + 1;
                    while b[j] != b'"' {
                        j += if b[j] == b'\\' { 2 } else { 1 };
                    }
                    if j + 1 - i > best.1 {
                        best = (i, j + 1 - i);
                    }
                    i = j;
                }
                i += 1;
            }
            assert_eq!(ends.string, best, "{doc}");
            assert_eq!(ends.plain, !b[best.0..best.0 + best.1].contains(&b'\\'), "{doc}");
            let [params, ..] = members(Some(message), b"params", Some(&ends));
            let [arguments, ..] = members(params, b"arguments", Some(&ends));
            let keys = b"text\xffa\xffb\xfflist\xffdeep\xffn";
            assert_eq!(members(arguments, keys, Some(&ends)), members(arguments, keys, None), "{doc}");
            // A string read through the request's arguments is what it is
            // read without them, escaped or not, and a walk counts the same.
            let object = arguments.and_then(|a| a.as_object()).unwrap();
            let (known, unknown) = (crate::Args::of_request(object, &ends), crate::Args::new(object));
            for key in ["text", "a", "b"] {
                assert_eq!(known.str(key).ok(), unknown.str(key).ok(), "{doc}: {key}");
            }
            let walk = |ends| crate::schema::validate::Walk::new(object, ends).collect::<alloc::vec::Vec<_>>();
            assert_eq!(walk(Some(&ends)), walk(None), "{doc}");
        }
    }
}
