//! JSON Schema 2020-12's keywords, what each one's value is, and the
//! nearest known keyword to a misspelt one. Build time only.

/// What a keyword's value is, for the walk in [`rules`](super::rules):
/// what it must be, and whether schemas are inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vocab {
    /// Not a 2020-12 keyword, and not marked `x-`.
    Unknown,
    /// An extension (`x-…`): its value is not looked into.
    Extension,
    /// `$ref`, `$defs`, `definitions`: refused, MCP clients reject them.
    Refused,
    /// One schema (`not`, `if`, `additionalProperties`…).
    Schema,
    /// `items`: one schema (an array of them, as older drafts wrote it, is refused).
    Items,
    /// Name → schema (`properties`, `patternProperties`, `dependentSchemas`).
    SchemaMap,
    /// A non-empty array of schemas (`allOf`, `anyOf`, `oneOf`, `prefixItems`).
    SchemaList,
    /// Any value, data where nothing is a keyword (`const`, `default`).
    Data,
    /// An array of data (`enum`, non-empty; `examples`).
    DataList,
    /// `type`: a type's name, or a non-empty array of distinct names.
    Types,
    /// A number (`minimum`, `maximum`, and the exclusive ones).
    Number,
    /// A number above 0 (`multipleOf`).
    Positive,
    /// A whole number, 0 or more (`minLength`, `maxItems`…).
    Count,
    /// A string (`description`, `format`, `pattern`, `$schema`…).
    Text,
    /// `true` or `false` (`uniqueItems`, `deprecated`…).
    Flag,
    /// An array of distinct strings (`required`).
    Names,
    /// An object of arrays of strings (`dependentRequired`).
    NameLists,
    /// An object (`$vocabulary`).
    Map,
    /// Not a keyword's value: a member or element of a container that is
    /// not a schema.
    Other,
}

/// The keyword named `k` (as written between its quotes).
#[cfg(test)]
pub const fn vocab(k: &[u8]) -> Vocab {
    vocab_at(k, 0, k.len()).0
}

/// The keyword named by the bytes `at..end` of `b`, and the name's hash
/// ([`fnv`]). No slice is cut (cutting one costs const evaluation about 20
/// steps): the name is hashed in one loop, the hash picked out of the known
/// ones by comparisons (which cost no steps), and the name compared with
/// the one keyword it may be.
pub const fn vocab_at(b: &[u8], at: usize, end: usize) -> (Vocab, u64) {
    let h = fnv(b, at, end);
    match lookup(h) {
        Some((vocab, word)) if same(b, at, end, word.as_bytes()) => (vocab, h),
        _ if end - at > 2 && b[at] == b'x' && b[at + 1] == b'-' => (Vocab::Extension, h),
        _ => (Vocab::Unknown, h),
    }
}

/// A hash of the bytes `at..end` of `b`.
pub const fn fnv(b: &[u8], at: usize, end: usize) -> u64 {
    crate::bytes::hash_at(b, at, end)
}

/// [`fnv`] of a whole keyword.
pub const fn hash(word: &str) -> u64 {
    fnv(word.as_bytes(), 0, word.len())
}

use crate::bytes::same_at as same;

macro_rules! vocabulary {
    ($($word:literal: $vocab:ident,)*) => {
        /// Every keyword [`vocab`] knows, most used first (a tie in
        /// [`suggest`] goes to the earlier one). `$ref`, `$defs` and
        /// `definitions` are known so that they are refused by name.
        pub const KNOWN: [&str; [$($word),*].len()] = [$($word),*];

        /// The keyword whose hash is `h`, if one's is.
        const fn lookup(h: u64) -> Option<(Vocab, &'static str)> {
            $(if h == const { hash($word) } {
                return Some((Vocab::$vocab, $word));
            })*
            None
        }
    };
}

vocabulary! {
    "type": Types,
    "properties": SchemaMap,
    "required": Names,
    "description": Text,
    "items": Items,
    "enum": DataList,
    "const": Data,
    "default": Data,
    "examples": DataList,
    "title": Text,
    "format": Text,
    "minimum": Number,
    "maximum": Number,
    "exclusiveMinimum": Number,
    "exclusiveMaximum": Number,
    "multipleOf": Positive,
    "minLength": Count,
    "maxLength": Count,
    "pattern": Text,
    "minItems": Count,
    "maxItems": Count,
    "uniqueItems": Flag,
    "additionalProperties": Schema,
    "patternProperties": SchemaMap,
    "propertyNames": Schema,
    "minProperties": Count,
    "maxProperties": Count,
    "anyOf": SchemaList,
    "oneOf": SchemaList,
    "allOf": SchemaList,
    "not": Schema,
    "if": Schema,
    "then": Schema,
    "else": Schema,
    "prefixItems": SchemaList,
    "contains": Schema,
    "minContains": Count,
    "maxContains": Count,
    "dependentRequired": NameLists,
    "dependentSchemas": SchemaMap,
    "unevaluatedItems": Schema,
    "unevaluatedProperties": Schema,
    "deprecated": Flag,
    "readOnly": Flag,
    "writeOnly": Flag,
    "contentEncoding": Text,
    "contentMediaType": Text,
    "contentSchema": Schema,
    "$schema": Text,
    "$id": Text,
    "$comment": Text,
    "$anchor": Text,
    "$dynamicRef": Text,
    "$dynamicAnchor": Text,
    "$vocabulary": Map,
    "$ref": Refused,
    "$defs": Refused,
    "definitions": Refused,
}

/// Names longer than this are not compared (no keyword is near one).
const LONGEST: usize = 32;

/// The optimal-string-alignment distance between `a` and `b` (Levenshtein
/// with adjacent transpositions, each edit counting 1), compared as bytes.
/// Names longer than `LONGEST` bytes are `usize::MAX` away.
pub const fn distance(a: &[u8], b: &[u8]) -> usize {
    if a.len() > LONGEST || b.len() > LONGEST {
        return usize::MAX;
    }
    // Three rows of the edit table: the one before last, the last, this.
    let mut two = [0usize; LONGEST + 1];
    let mut one = [0usize; LONGEST + 1];
    let mut row = [0usize; LONGEST + 1];
    let mut j = 0;
    while j <= b.len() {
        one[j] = j;
        j += 1;
    }
    let mut i = 1;
    while i <= a.len() {
        row[0] = i;
        let mut j = 1;
        while j <= b.len() {
            let cost = if a[i - 1] == b[j - 1] { 0 } else { 1 };
            let mut d = one[j - 1] + cost;
            if one[j] + 1 < d {
                d = one[j] + 1;
            }
            if row[j - 1] + 1 < d {
                d = row[j - 1] + 1;
            }
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && two[j - 2] + 1 < d {
                d = two[j - 2] + 1;
            }
            row[j] = d;
            j += 1;
        }
        two = one;
        one = row;
        i += 1;
    }
    one[b.len()]
}

/// How many edits still read as a misspelling of a keyword of `len` bytes:
/// one for short ones, two up to 8 bytes, three beyond.
const fn tolerance(len: usize) -> usize {
    if len <= 4 {
        1
    } else if len <= 8 {
        2
    } else {
        3
    }
}

/// The known keyword nearest to `k`, if one is near enough to be what was
/// meant: fewest edits, within `tolerance` of the keyword's length, and
/// fewer edits than `k` has bytes (so `"ab"` is no one's misspelling).
pub const fn suggest(k: &[u8]) -> Option<&'static str> {
    let mut best: Option<&'static str> = None;
    let mut best_d = usize::MAX;
    let mut n = 0;
    while n < KNOWN.len() {
        let word = KNOWN[n].as_bytes();
        let d = distance(k, word);
        if d < best_d && d <= tolerance(word.len()) && d < k.len() {
            best = Some(KNOWN[n]);
            best_d = d;
        }
        n += 1;
    }
    best
}
