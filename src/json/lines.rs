//! JSON Lines: one value per line.

use super::scan::{skip_ws, span};
use super::validator::{line, object_line};
use super::value::Value;

/// The values of JSON Lines text (one JSON value per line, as
/// [`fs::append_line`](crate::fs::append_line) writes them), in order. A
/// line that is not one whole value is skipped, not an error: a blank
/// line, the last line of a file whose write was cut short, and also a
/// line that is not JSON or not UTF-8 anywhere in the text (a line edited
/// by hand, a stray byte, a byte order mark an editor put before the first
/// line, which JSON Lines does not allow). [`Lines::skipped`] counts
/// the skipped lines that are not blank, so that a tool can tell "no
/// entries" from "entries it could not read" (and, say, refuse to number
/// a new entry after them).
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
    Lines { rest: text }
}

/// The iterator [`lines`] makes.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: &'a [u8],
}

impl<'a> Lines<'a> {
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
    pub fn fields<'k, const N: usize>(self, keys: [&'k str; N]) -> LineFields<'a, 'k, N> {
        LineFields { rest: self.rest, keys }
    }

    /// How many of the lines left would be skipped though not blank: not
    /// one whole JSON value, or not UTF-8. A reading of its own, so a
    /// module that never asks carries none of it.
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
    pub fn skipped(self) -> usize {
        self.fields([]).skipped_where(false)
    }
}

/// The iterator [`Lines::fields`] makes.
#[derive(Clone, Debug)]
pub struct LineFields<'a, 'k, const N: usize> {
    rest: &'a [u8],
    keys: [&'k str; N],
}

impl<const N: usize> LineFields<'_, '_, N> {
    /// How many of the lines left would be skipped though not blank: as
    /// [`Lines::skipped`], and also lines holding a value that is not an
    /// object.
    ///
    /// ```
    /// use subako_tiny::json;
    ///
    /// let notes = json::lines(b"{\"id\":1}\n[2]\n{\"id\":3}\n").fields(["id"]);
    /// assert_eq!(notes.clone().count(), 2);
    /// assert_eq!(notes.skipped(), 1);
    /// ```
    pub fn skipped(self) -> usize {
        self.skipped_where(true)
    }

    /// The lines left that hold no value (`objects`: no object) and are
    /// not blank.
    fn skipped_where(mut self, objects: bool) -> usize {
        let mut skipped = 0;
        while !self.rest.is_empty() {
            let (value, next) = if objects { object_line(self.rest, &[], &mut []) } else { line(self.rest) };
            let text = self.rest;
            self.rest = self.rest.get(next..).unwrap_or(&[]);
            // Blank: nothing but JSON's white space up to the line's end.
            let line = span(text, 0, next.min(text.len()));
            skipped += usize::from(value.is_none() && skip_ws(line, 0) < line.len());
        }
        skipped
    }
}

impl<'a, const N: usize> Iterator for LineFields<'a, '_, N> {
    type Item = [Option<Value<'a>>; N];

    fn next(&mut self) -> Option<Self::Item> {
        while !self.rest.is_empty() {
            let mut spans = [None; N];
            let (object, next) = object_line(self.rest, &self.keys, &mut spans);
            let text = self.rest;
            self.rest = self.rest.get(next..).unwrap_or(&[]);
            if object.is_some() {
                return Some(spans.map(|at| at.map(|(start, end)| Value { raw: span(text, start, end) })));
            }
        }
        None
    }
}

impl<'a> Iterator for Lines<'a> {
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
        }
        None
    }
}
