//! JSON Lines: one value per line.

use super::scan::{WS_IN_LINE, at, find, rfind, skip_ws_in, span};
use super::validator::{MAX_DEPTH, line, line_string_end, value_end_in};
use super::value::{Str, Value};

/// The values of JSON Lines text (one JSON value per line, as
/// [`fs::append_line`](crate::fs::append_line) writes them), in order. A
/// line that is not one whole value is skipped, not an error: a blank
/// line, the last line of a file whose write was cut short, and also a
/// line that is not JSON or not UTF-8 anywhere in the text (a line edited
/// by hand, a stray byte, a byte order mark an editor put before the first
/// line, which JSON Lines does not allow). [`Lines::skipped`] counts
/// the skipped lines that are not blank, so that a tool can tell "no
/// entries" from "entries it could not read"; [`Lines::unreadable`]
/// leaves out the start of an entry a write cut short (and, say, a store
/// can refuse to number a new entry while it is not 0).
///
/// ```
/// use subako_tiny::json;
///
/// let text = b"{\"n\":1}\n{\"n\":2}\n\n{\"n\":";
/// let values: Vec<&[u8]> = json::lines(text).map(|v| v.raw()).collect();
/// assert_eq!(values, [&b"{\"n\":1}"[..], b"{\"n\":2}"]);
/// // The last one: count them, then skip to it.
/// let last = json::lines(text).skip(json::lines(text).count().saturating_sub(1));
/// assert_eq!(last.map(|v| v.raw()).collect::<Vec<_>>(), [b"{\"n\":2}"]);
/// ```
pub fn lines(text: &[u8]) -> Lines<'_> {
    Lines { rest: text, passed: () }
}

/// The iterator [`lines`] makes. `C` is what it keeps of the lines it
/// passes over: nothing (`()`, the default), or their count (`usize`, once
/// [`counting_skipped`](Lines::counting_skipped) asks for it, for
/// [`skipped_so_far`](Lines::skipped_so_far)): an iterator that does not
/// count carries none of that.
#[derive(Clone, Debug)]
pub struct Lines<'a, C: SkipCount = ()> {
    rest: &'a [u8],
    passed: C,
}

/// What a [`Lines`] or [`LineFields`] keeps of the lines it passes over:
/// `()` keeps nothing, `usize` counts those that are not blank.
pub trait SkipCount: Clone + core::fmt::Debug + sealed::Sealed {
    /// Whether lines passed over are counted.
    #[doc(hidden)]
    const COUNTS: bool;
    /// Counts `n` more.
    #[doc(hidden)]
    fn add(&mut self, n: usize);
}

impl SkipCount for () {
    const COUNTS: bool = false;
    fn add(&mut self, _: usize) {}
}

impl SkipCount for usize {
    const COUNTS: bool = true;
    fn add(&mut self, n: usize) {
        *self += n;
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for () {}
    impl Sealed for usize {}
}

/// 1 when the line that `text` starts with, which ends before `next` (as
/// [`line`] says), is not blank: something but white space before its end.
fn not_blank(text: &[u8], next: usize) -> usize {
    usize::from(skip_ws_in(text, 0, WS_IN_LINE) + 1 < next)
}

impl<'a, C: SkipCount> Lines<'a, C> {
    /// The members named by `keys` of each line that holds an object, in
    /// the order of `keys` (`None` for a member the object lacks; the last
    /// of duplicates wins, names compared unescaped): what
    /// `lines.filter_map(|v| Some(v.as_object()?.fields(keys)))` gives,
    /// but each line is read once, its members taken as it is checked,
    /// rather than checked and then walked again. Lines holding values that
    /// are not objects are skipped, as lines that are not JSON are.
    ///
    /// ```
    /// use subako_tiny::json;
    ///
    /// let text = b"{\"id\":1,\"title\":\"Tea\"}\n[1]\n{\"title\":\"Rain\",\"id\":2,\"id\":3}\n{\"id\":";
    /// let ids: Vec<(i64, String)> = json::lines(text)
    ///     .fields(["id", "title"])
    ///     .filter_map(|[id, title]| Some((id?.as_i64()?, title?.as_str()?.into_string())))
    ///     .collect();
    /// assert_eq!(ids, [(1, "Tea".to_string()), (3, "Rain".to_string())]);
    /// ```
    pub fn fields<'k, const N: usize>(self, keys: [&'k str; N]) -> LineFields<'a, 'k, N, C> {
        LineFields { rest: self.rest, keys, distinct: distinct(&keys), passed: self.passed }
    }

    /// The values of the lines whose text holds `needle`, found by a
    /// search of the text before any line is read: the lines without it are
    /// passed over unread (neither validated nor counted as skipped), so a
    /// lookup in a large file costs about the search, where reading every
    /// line costs what validating the whole file does. The search is of
    /// the text as the file holds it: a key written with escapes
    /// (`\u00e9`) is not found by its unescaped form, and a needle
    /// holding a newline is in no line. It finds lines, not members: check
    /// the member in the value it yields, since the text may be in another
    /// member, or in a key.
    ///
    /// ```
    /// use subako_tiny::json;
    ///
    /// let file = "{\"kanji\":\"日\",\"meaning\":\"day\"}\n{\"kanji\":\"本\",\"meaning\":\"book; 日\"}\n{\"kanji\":\"日\",\"meaning\":\"sun\"}\n";
    /// let meanings: Vec<String> = json::lines(file.as_bytes())
    ///     .containing("\"日\"")
    ///     .filter_map(|entry| {
    ///         let [kanji, meaning] = entry.as_object()?.fields(["kanji", "meaning"]);
    ///         kanji?.as_str()?.eq_str("日").then(|| meaning?.as_str().map(|m| m.into_string()))?
    ///     })
    ///     .collect();
    /// assert_eq!(meanings, ["day", "sun"]);
    /// ```
    pub fn containing<'n>(self, needle: &'n str) -> Containing<'a, 'n> {
        let needle = needle.as_bytes();
        // A line ends at a newline: a needle holding one is in none.
        let rest = if find(needle, 0, b'\n') < needle.len() { &[][..] } else { self.rest };
        Containing { rest, needle }
    }

    /// This iterator, counting the lines it passes over from here on, for
    /// [`skipped_so_far`](Lines::skipped_so_far).
    pub fn counting_skipped(self) -> Lines<'a, usize> {
        Lines { rest: self.rest, passed: 0 }
    }

    /// How many of the lines left would be skipped though not blank: not
    /// one whole JSON value, or not UTF-8. A reading of its own, which
    /// leaves the iterator where it is (ask before iterating), so a module
    /// that never asks carries none of it; it costs about what reading
    /// the values does, which [`skipped_so_far`](Lines::skipped_so_far)
    /// saves a tool that reads them all anyway.
    ///
    /// ```
    /// use subako_tiny::json;
    ///
    /// let text = b"{\"id\":1}\n{\"id\":\"\xFF\"}\n\n{\"id\":3}\n{\"id\":";
    /// let ids: Vec<i64> = json::lines(text).filter_map(|v| v.as_object()?.get("id")?.as_i64()).collect();
    /// assert_eq!(ids, [1, 3]);
    /// assert_eq!(json::lines(text).skipped(), 2); // a stray byte, and a line cut short
    /// assert_eq!(json::lines(b"\xEF\xBB\xBF{\"id\":1}\n").skipped(), 1); // a byte order mark
    /// ```
    pub fn skipped(&self) -> usize {
        skipped_where::<false>(self.rest, false)
    }

    /// How many of the lines left are unreadable entries: skipped though
    /// not blank, and not the start of a value that a write cut short (a
    /// line that is whole JSON up to where it ends too soon). Such a start
    /// is what a full volume leaves of an append that failed, and the tool
    /// that wrote it answered an error, so the entry was never added;
    /// [`fs::append_line`](crate::fs::append_line) puts the next entry on a
    /// line of its own after it. What is left counts lines edited by hand,
    /// stray bytes and byte order marks: a store that numbers its entries
    /// from the highest id it reads can refuse to add while this is not 0,
    /// rather than give out an id such a line may hold. A reading of its
    /// own, as [`skipped`](Lines::skipped)'s.
    ///
    /// ```
    /// use subako_tiny::json;
    ///
    /// // A write cut short (then another entry after it), and a stray byte.
    /// let text = b"{\"id\":1}\n{\"id\":2,\"t\":\"\xE9\x9B\n{\"id\":2}\n{\"id\":\xFF}\n{\"id\":4,\"t\":\"ab";
    /// assert_eq!(json::lines(text).count(), 2);
    /// assert_eq!(json::lines(text).skipped(), 3);
    /// assert_eq!(json::lines(text).unreadable(), 1);
    /// ```
    pub fn unreadable(&self) -> usize {
        skipped_where::<true>(self.rest, false)
    }
}

impl Lines<'_, usize> {
    /// How many lines not blank the iterator has passed over so far,
    /// holding no value: what [`skipped`](Lines::skipped) counts, counted
    /// in the same reading as the values, where `skipped` reads the lines
    /// again. Iterate `by_ref()`, then ask.
    ///
    /// ```
    /// use subako_tiny::json;
    ///
    /// let text = b"{\"n\":1}\n{\"n\":\xFF}\n\n{\"n\":3}\n{\"n\":";
    /// let mut lines = json::lines(text).counting_skipped();
    /// assert_eq!(lines.by_ref().count(), 2);
    /// assert_eq!(lines.skipped_so_far(), 2); // a stray byte, and a line cut short
    /// ```
    pub fn skipped_so_far(&self) -> usize {
        self.passed
    }
}

/// Whether no two of `keys` are the same: then each member's name is
/// looked for among them until it is found, else among all of them (both
/// of two same keys get the member). One function for every `N`.
#[inline(never)]
fn distinct(keys: &[&str]) -> bool {
    let mut rest = keys;
    while let [key, more @ ..] = rest {
        for other in more {
            if crate::bytes::same(key.as_bytes(), other.as_bytes()) {
                return false;
            }
        }
        rest = more;
    }
    true
}

/// The iterator [`Lines::fields`] makes.
#[derive(Clone, Debug)]
pub struct LineFields<'a, 'k, const N: usize, C: SkipCount = ()> {
    rest: &'a [u8],
    keys: [&'k str; N],
    /// No key is there twice.
    distinct: bool,
    /// As in [`Lines`].
    passed: C,
}

impl<'k, const N: usize> LineFields<'_, 'k, N, usize> {
    /// How many lines not blank the iterator has passed over so far,
    /// holding no object: what [`skipped`](LineFields::skipped) counts,
    /// counted in the same reading as the members, where `skipped` reads
    /// the lines again. Iterate `by_ref()`, then ask.
    ///
    /// ```
    /// use subako_tiny::json;
    ///
    /// let text = b"{\"id\":1}\n[2]\n\n{\"id\":3}\n";
    /// let mut notes = json::lines(text).counting_skipped().fields(["id"]);
    /// let total: i64 = notes.by_ref().filter_map(|[id]| id?.as_i64()).sum();
    /// assert_eq!((total, notes.skipped_so_far()), (4, 1));
    /// ```
    pub fn skipped_so_far(&self) -> usize {
        self.passed
    }
}

impl<'a, 'k, const N: usize, C: SkipCount> LineFields<'a, 'k, N, C> {
    /// This iterator, counting the lines it passes over from here on, for
    /// [`skipped_so_far`](LineFields::skipped_so_far).
    pub fn counting_skipped(self) -> LineFields<'a, 'k, N, usize> {
        LineFields { rest: self.rest, keys: self.keys, distinct: self.distinct, passed: 0 }
    }

    /// How many of the lines left would be skipped though not blank: as
    /// [`Lines::skipped`], and also lines holding a value that is not an
    /// object.
    ///
    /// ```
    /// use subako_tiny::json;
    ///
    /// let notes = json::lines(b"{\"id\":1}\n[2]\n{\"id\":3}\n").fields(["id"]);
    /// assert_eq!(notes.skipped(), 1);
    /// assert_eq!(notes.count(), 2);
    /// ```
    pub fn skipped(&self) -> usize {
        skipped_where::<false>(self.rest, true)
    }

    /// How many of the lines left are unreadable entries: as
    /// [`Lines::unreadable`], and also lines holding a value that is not
    /// an object.
    ///
    /// ```
    /// use subako_tiny::json;
    ///
    /// let notes = json::lines(b"{\"id\":1}\n[2]\n{\"id\":3,\"ti").fields(["id"]);
    /// assert_eq!(notes.skipped(), 2);
    /// assert_eq!(notes.unreadable(), 1);
    /// ```
    pub fn unreadable(&self) -> usize {
        skipped_where::<true>(self.rest, true)
    }
}

/// The lines left that hold no value (`objects`: no object) and are
/// not blank; with `WHOLE`, not those that are the start of a value
/// cut short (a parameter of the type, so that `skipped` carries none
/// of that test).
fn skipped_where<const WHOLE: bool>(mut rest: &[u8], objects: bool) -> usize {
    let mut skipped = 0;
    while !rest.is_empty() {
        let (value, next) = if objects { object_line(rest, &[], &mut [], true) } else { line(rest) };
        let text = rest;
        rest = rest.get(next..).unwrap_or(&[]);
        let line = span(text, 0, next.min(text.len()));
        skipped += usize::from(
            value.is_none()
                && not_blank(text, next) == 1
                && !(WHOLE && cut_short(line.strip_suffix(b"\n").unwrap_or(line))),
        );
    }
    skipped
}

/// Whether `line` (no newline) is the start of a JSON value that ends too
/// soon: valid up to its end, where the value, a UTF-8 sequence or an
/// escape is left unfinished.
fn cut_short(line: &[u8]) -> bool {
    let Err(e) = super::validator::validate_line(line) else { return false };
    let tail = line.get(e.offset..).unwrap_or_default();
    // A UTF-8 sequence or an escape is left unfinished only in a string
    // (review 71: `[\\` and `{\xC3` are no write cut short). The text before
    // the stop is valid JSON so far, where every `"` not escaped opens or
    // closes a string.
    let mut in_string = false;
    let mut i = 0;
    while i < e.offset {
        match at(line, i) {
            b'\\' => i += 1,
            b'"' => in_string = !in_string,
            _ => {}
        }
        i += 1;
    }
    match tail {
        [] => true,
        _ if !in_string => false,
        // A lead byte (C2 to F4) with fewer continuation bytes than it needs.
        [lead @ 0xC2..=0xF4, more @ ..] => {
            // The second byte's range narrows after E0, ED, F0 and F4: no
            // UTF-8 text begins `E0 80` (review 72).
            let second = match lead {
                0xE0 => 0xA0..=0xBF,
                0xED => 0x80..=0x9F,
                0xF0 => 0x90..=0xBF,
                0xF4 => 0x80..=0x8F,
                _ => 0x80..=0xBF,
            };
            more.len() < 1 + usize::from(*lead >= 0xE0) + usize::from(*lead >= 0xF0)
                && more.first().is_none_or(|b| second.contains(b))
                && more.iter().all(|b| b & 0xC0 == 0x80)
        }
        // An escape's start: `\`, `\u` and up to three hex digits, or a
        // leading surrogate's `\uD8xx` and the start of the trailing one.
        [b'\\', rest @ ..] => match rest {
            [] => true,
            [b'u', hex @ ..] if hex.len() < 4 => hex.iter().all(u8::is_ascii_hexdigit),
            [b'u', b'd' | b'D', b'8' | b'9' | b'a' | b'b' | b'A' | b'B', h, l, after @ ..] => {
                h.is_ascii_hexdigit()
                    && l.is_ascii_hexdigit()
                    && match after {
                        [] | [b'\\'] => true,
                        [b'\\', b'u', hex @ ..] => hex.len() < 4 && hex.iter().all(u8::is_ascii_hexdigit),
                        _ => false,
                    }
            }
            _ => false,
        },
        _ => false,
    }
}

impl<'a, const N: usize, C: SkipCount> Iterator for LineFields<'a, '_, N, C> {
    type Item = [Option<Value<'a>>; N];

    fn next(&mut self) -> Option<Self::Item> {
        while !self.rest.is_empty() {
            let mut spans = [None; N];
            let (object, next) = object_line(self.rest, &self.keys, &mut spans, self.distinct);
            let text = self.rest;
            self.rest = self.rest.get(next..).unwrap_or(&[]);
            if object.is_some() {
                return Some(spans.map(|at| at.map(|(start, end)| Value { raw: span(text, start, end) })));
            }
            if C::COUNTS {
                self.passed.add(not_blank(text, next));
            }
        }
        None
    }
}

/// Splits the last line off `rest` (up to the end, or the newline that
/// ends it): the line with its newline, the text before it.
fn last_line(rest: &[u8]) -> (&[u8], &[u8]) {
    let body = rest.strip_suffix(b"\n").unwrap_or(rest);
    let start = rfind(body, b'\n').map_or(0, |k| k + 1);
    (span(rest, start, rest.len()), span(rest, 0, start))
}

/// From the last line back: a line read from the end is read as it is from
/// the start, so `rev()` yields what `next` does, in the other order, and
/// the newest entries of a long file cost what they hold, not the file.
///
/// ```
/// use subako_tiny::json;
///
/// let text = b"{\"id\":1}\n{\"id\":2}\n{\"id\":";
/// let newest = json::lines(text).next_back().and_then(|v| v.as_object()?.get("id")?.as_i64());
/// assert_eq!(newest, Some(2)); // the last line was cut short
/// ```
impl<'a, C: SkipCount> DoubleEndedIterator for Lines<'a, C> {
    fn next_back(&mut self) -> Option<Value<'a>> {
        while !self.rest.is_empty() {
            let (text, before) = last_line(self.rest);
            self.rest = before;
            match line(text) {
                (Some((start, end)), _) => return Some(Value { raw: span(text, start, end) }),
                (None, next) if C::COUNTS => self.passed.add(not_blank(text, next)),
                _ => {}
            }
        }
        None
    }
}

/// From the last line back, as [`Lines`] goes.
///
/// ```
/// use subako_tiny::json;
///
/// let text = b"{\"id\":1,\"t\":\"a\"}\n[2]\n{\"id\":3,\"t\":\"c\"}\n";
/// let newest: Vec<i64> = json::lines(text).fields(["id"]).rev().filter_map(|[id]| id?.as_i64()).collect();
/// assert_eq!(newest, [3, 1]);
/// ```
impl<'a, const N: usize, C: SkipCount> DoubleEndedIterator for LineFields<'a, '_, N, C> {
    fn next_back(&mut self) -> Option<Self::Item> {
        while !self.rest.is_empty() {
            let (text, before) = last_line(self.rest);
            self.rest = before;
            let mut spans = [None; N];
            let (object, next) = object_line(text, &self.keys, &mut spans, self.distinct);
            if object.is_some() {
                return Some(spans.map(|at| at.map(|(start, end)| Value { raw: span(text, start, end) })));
            }
            if C::COUNTS {
                self.passed.add(not_blank(text, next));
            }
        }
        None
    }
}

/// The iterator [`Lines::containing`] makes.
#[derive(Clone, Debug)]
pub struct Containing<'a, 'n> {
    rest: &'a [u8],
    needle: &'n [u8],
}

impl<'a> Iterator for Containing<'a, '_> {
    type Item = Value<'a>;

    fn next(&mut self) -> Option<Value<'a>> {
        while !self.rest.is_empty() {
            let at = super::scan::find_bytes(self.rest, self.needle)?;
            // The line it is in, from just past the newline before it.
            let start = rfind(span(self.rest, 0, at), b'\n').map_or(0, |k| k + 1);
            let text = span(self.rest, start, self.rest.len());
            let (value, next) = line(text);
            self.rest = text.get(next..).unwrap_or(&[]);
            if let Some((start, end)) = value {
                return Some(Value { raw: span(text, start, end) });
            }
        }
        None
    }
}

impl<'a, C: SkipCount> Iterator for Lines<'a, C> {
    type Item = Value<'a>;

    fn next(&mut self) -> Option<Value<'a>> {
        while !self.rest.is_empty() {
            // Each line is read once: validating it finds where it ends.
            let (value, next) = line(self.rest);
            let text = self.rest;
            self.rest = self.rest.get(next..).unwrap_or(&[]);
            if let Some((start, end)) = value {
                return Some(Value { raw: span(text, start, end) });
            }
            if C::COUNTS {
                self.passed.add(not_blank(text, next));
            }
        }
        None
    }
}

/// [`line`] for JSON Lines whose lines are objects, taking members as it
/// checks them rather than in a walk of their own: slot `k` of `found`
/// gets where the value of the member named `keys[k]` starts and ends (the
/// last of duplicates; names compared unescaped). `distinct` says that
/// no two of `keys` are the same, so a name is one key at most. Returns
/// what [`line`] returns, but `None` too for a line holding a value that
/// is not an object; `found` means nothing then.
pub(crate) fn object_line(
    b: &[u8],
    keys: &[&str],
    found: &mut [Option<(usize, usize)>],
    distinct: bool,
) -> (Option<(usize, usize)>, usize) {
    let start = skip_ws_in(b, 0, WS_IN_LINE);
    let stop = match object_end(b, start, keys, found, distinct) {
        Ok(end) => {
            let i = skip_ws_in(b, end, WS_IN_LINE);
            if i >= b.len() || at(b, i) == b'\n' {
                return (Some((start, end)), i + 1);
            }
            i
        }
        // Nothing reads past a newline (see `line`): the line ends at the
        // first one from here.
        Err(stop) => stop,
    };
    (None, find(b, stop, b'\n') + 1)
}

/// [`object_line`]'s walk of the object at `i`: where it ends, or the
/// offset of the first byte that makes it no object (as far as the
/// validator reads, never past a newline).
fn object_end(
    b: &[u8],
    mut i: usize,
    keys: &[&str],
    found: &mut [Option<(usize, usize)>],
    distinct: bool,
) -> Result<usize, usize> {
    // The key after the one the last member was: where the next member's
    // name is looked for first, since the lines of one file mostly hold
    // their members in one order.
    let mut next_key = 0;
    if at(b, i) != b'{' {
        return Err(i);
    }
    i = skip_ws_in(b, i + 1, WS_IN_LINE);
    if at(b, i) == b'}' {
        return Ok(i + 1);
    }
    loop {
        if at(b, i) != b'"' {
            return Err(i);
        }
        let key_end = match line_string_end(b, i) {
            Ok(end) => end,
            Err(e) => return Err(e.offset),
        };
        let mut start = skip_ws_in(b, key_end, WS_IN_LINE);
        if at(b, start) != b':' {
            return Err(start);
        }
        start = skip_ws_in(b, start + 1, WS_IN_LINE);
        // The object is the line's first level: its members' containers
        // start at the second, as when the line is read whole.
        let end = match value_end_in(b, start, None, WS_IN_LINE, MAX_DEPTH - 1) {
            Ok(end) => end,
            Err(e) => return Err(e.offset),
        };
        let name = Str { raw: span(b, i + 1, key_end - 1) };
        // A name with no escapes is its raw text: looked for once, not per key.
        let plain = name.is_plain();
        // Every key once, from `next_key` round to the one before it; with
        // distinct keys, up to the one the name is.
        let mut k = next_key;
        for _ in 0..keys.len() {
            if k >= keys.len() {
                k = 0;
            }
            if let (Some(key), Some(slot)) = (keys.get(k), found.get_mut(k))
                && name.eq_key(plain, key.as_bytes())
            {
                *slot = Some((start, end));
                next_key = k + 1;
                if distinct {
                    break;
                }
            }
            k += 1;
        }
        i = skip_ws_in(b, end, WS_IN_LINE);
        match at(b, i) {
            b',' => i = skip_ws_in(b, i + 1, WS_IN_LINE),
            b'}' => return Ok(i + 1),
            _ => return Err(i),
        }
    }
}
