//! JSON Lines: one value per line.

use super::scan::span;
use super::validator::line;
use super::value::Value;

/// The values of JSON Lines text (one JSON value per line, as
/// [`fs::append_line`](crate::fs::append_line) writes them), in order. A
/// line that is not one whole value (an empty line, or the last line of a
/// file whose write was cut short) is skipped, not an error.
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
