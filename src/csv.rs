//! Comma-separated text with quoted fields, read as Python's `csv` module
//! reads it.
//!
//! | elsewhere | here |
//! |---|---|
//! | `line.split(',')` (std, [`chars::split`](crate::chars::split)) | [`records`]: a field may be quoted, and hold commas, doubled quotes and line breaks |
//! | Python's `csv.reader(f)` (the `excel` dialect, `strict=False`) | [`records`], with the same records and fields |
//! | `csv.reader(f, delimiter=';')` | [`records`]`(text).delimited_by(b';')` |
//!
//! What a record is, as Python's reader has it:
//! - Records end at `\n`, `\r\n` or a lone `\r`, outside quotes; a final
//!   line break starts no record. A blank line is a record with no fields
//!   ([`Record::is_blank`]).
//! - A field that starts with `"` is quoted: up to the next lone `"`,
//!   a doubled `""` reading as one `"`, delimiters and line breaks kept.
//!   Text after its closing quote, up to the delimiter, is kept as written
//!   (`"ab"c` is `abc`); a quote left open runs to the end of the text.
//! - In a field that does not start with `"`, a quote is a plain char
//!   (`5"`, ` "a"` with its space).
//! - Unlike Python's reader given the file as UTF-8: a byte order mark at
//!   the start of the text (a spreadsheet's export) is passed over, as
//!   `encoding="utf-8-sig"` does, instead of sticking to the first field.
//!
//! Fields are [`Cow`]s: a field without a doubled quote borrows the text;
//! only one with `""` (or text after its closing quote) is copied. There
//! are no types and no header handling: skip the header with `.skip(1)`,
//! read numbers with [`num::parse_f64`](crate::num::parse_f64).
//! `benches/idioms/measure.sh` prices it beside `split(',')`.
//!
//! # Examples
//! ```
//! use subako_tiny::csv;
//!
//! let text = "term,translation\r\n\"Tokyo, Japan\",東京\n\"say \"\"hi\"\"\",挨拶\n";
//! let rows: Vec<Vec<_>> = csv::records(text).skip(1).map(|r| r.collect()).collect();
//! assert_eq!(rows, [["Tokyo, Japan", "東京"], ["say \"hi\"", "挨拶"]]);
//!
//! // Fields by place, without collecting them.
//! let mut first = csv::records("name;pop\nBern;134591\n").delimited_by(b';').nth(1).unwrap();
//! assert_eq!((first.next().as_deref(), first.next().as_deref()), (Some("Bern"), Some("134591")));
//! ```

use alloc::borrow::Cow;
use alloc::vec::Vec;

/// The records of `text`, comma-separated; see the [module](self) for the
/// rules.
///
/// # Examples
/// ```
/// use subako_tiny::csv;
///
/// let mut records = csv::records("a,\"b\nc\",d\r\n\ne");
/// assert!(records.next().unwrap().eq(["a", "b\nc", "d"]));
/// assert!(records.next().unwrap().is_blank());
/// assert!(records.next().unwrap().eq(["e"]));
/// assert!(records.next().is_none());
/// ```
pub fn records(text: &str) -> Records<'_> {
    // U+FEFF, compared as a pattern rather than by `strip_prefix`'s `memcmp`.
    let rest = match text.as_bytes() {
        [0xEF, 0xBB, 0xBF, rest @ ..] => rest,
        all => all,
    };
    Records { rest: Some(rest), delimiter: b',' }
}

/// The iterator [`records`] returns.
#[derive(Clone, Debug)]
pub struct Records<'a> {
    /// The text not yet read, cut only beside ASCII bytes (so UTF-8);
    /// `None` after the last record.
    rest: Option<&'a [u8]>,
    delimiter: u8,
}

/// `bytes` as the `str` it is.
///
/// # Safety
/// `bytes` is a `str` (the text `records` was given) cut only beside
/// ASCII bytes (line breaks, quotes, the delimiter, the three bytes of a
/// byte order mark), so on chars' boundaries: UTF-8.
unsafe fn text_of(bytes: &[u8]) -> &str {
    // SAFETY: the caller's promise.
    unsafe { crate::sys::assume_utf8(bytes) }
}

impl<'a> Records<'a> {
    /// The same records with fields separated by `delimiter` (`b'\t'`,
    /// `b';'`) instead of a comma. An ASCII byte: one past `0x7F` (part of
    /// a char written in several bytes) separates nothing, nor do `"`,
    /// `\n` and `\r`, which mean what they always do: the fields are then
    /// the whole records.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::csv;
    ///
    /// let record = csv::records("Zürich\t\"a\tb\"\n").delimited_by(b'\t').next().unwrap();
    /// assert!(record.eq(["Zürich", "a\tb"]));
    /// ```
    #[must_use]
    pub fn delimited_by(self, delimiter: u8) -> Records<'a> {
        // 0xFF stands for "none": a byte UTF-8 never holds, so nothing is
        // cut inside a char (review 85: 0x80, a continuation byte, cut `À`).
        let delimiter =
            if delimiter.is_ascii() && !matches!(delimiter, b'"' | b'\n' | b'\r') { delimiter } else { 0xFF };
        Records { delimiter, ..self }
    }
}

impl core::iter::FusedIterator for Records<'_> {}

impl<'a> Iterator for Records<'a> {
    type Item = Record<'a>;

    fn next(&mut self) -> Option<Record<'a>> {
        let b = self.rest.filter(|t| !t.is_empty())?;
        let (mut at, mut quoted, mut field_start) = (0, false, true);
        while let Some(&c) = b.get(at) {
            if quoted {
                // `""` inside quotes is a quote; a lone one closes them.
                if c == b'"' {
                    if b.get(at + 1) == Some(&b'"') {
                        at += 1;
                    } else {
                        quoted = false;
                    }
                }
            } else if c == b'\n' || c == b'\r' {
                break;
            } else if c == b'"' && field_start {
                quoted = true;
            }
            field_start = !quoted && c == self.delimiter;
            at += 1;
        }
        let after = if b.get(at) == Some(&b'\r') && b.get(at + 1) == Some(&b'\n') { at + 2 } else { at + 1 };
        self.rest = b.get(after..);
        let line = b.get(..at).unwrap_or_default();
        Some(Record { line, rest: Some(line).filter(|l| !l.is_empty()), delimiter: self.delimiter })
    }
}

/// One record: an iterator over its fields, in order.
#[derive(Clone, Debug)]
pub struct Record<'a> {
    /// As [`Records`]' `rest`, cut beside ASCII bytes.
    line: &'a [u8],
    /// The fields not yet read; `None` after the last.
    rest: Option<&'a [u8]>,
    delimiter: u8,
}

impl<'a> Record<'a> {
    /// Whether the record is a blank line, which has no fields (Python's
    /// reader gives `[]`); a line holding only `""` has one, empty.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::csv;
    ///
    /// let blank: Vec<bool> = csv::records("a\n\n\"\"\n").map(|r| r.is_blank()).collect();
    /// assert_eq!(blank, [false, true, false]);
    /// ```
    pub fn is_blank(&self) -> bool {
        self.line.is_empty()
    }

    /// The record's text as the file has it, quotes and all, without its
    /// line break: a search can look for a word in it before reading its
    /// fields.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::csv;
    ///
    /// let record = csv::records("\"say \"\"hi\"\"\",挨拶\r\n").next().unwrap();
    /// assert_eq!(record.text(), "\"say \"\"hi\"\"\",挨拶");
    /// ```
    pub fn text(&self) -> &'a str {
        // SAFETY: `line` is cut beside ASCII bytes, as `text_of` asks.
        unsafe { text_of(self.line) }
    }
}

impl core::iter::FusedIterator for Record<'_> {}

impl<'a> Iterator for Record<'a> {
    type Item = Cow<'a, str>;

    fn next(&mut self) -> Option<Cow<'a, str>> {
        let b = self.rest?;
        let mut field = Field { only: b"", copy: Vec::new() };
        // `from` starts the piece not yet put in `field`.
        let (mut at, mut from, mut quoted) = if b.first() == Some(&b'"') { (1, 1, true) } else { (0, 0, false) };
        let end = loop {
            match b.get(at) {
                None => break at,
                Some(b'"') if quoted => {
                    field.put(b.get(from..at).unwrap_or_default());
                    // A doubled quote keeps its second; a lone one closes.
                    quoted = b.get(at + 1) == Some(&b'"');
                    from = at + 1;
                    at += 1 + usize::from(quoted);
                }
                Some(&c) if !quoted && c == self.delimiter => break at,
                Some(_) => at += 1,
            }
        };
        field.put(b.get(from..end).unwrap_or_default());
        self.rest = b.get(end + 1..).filter(|_| end < b.len());
        Some(if field.copy.is_empty() {
            // SAFETY: the field's one piece, cut beside ASCII bytes.
            Cow::Borrowed(unsafe { text_of(field.only) })
        } else {
            // SAFETY: the pieces one after another, each cut beside ASCII
            // bytes, so UTF-8 (as `text_of` asks).
            Cow::Owned(unsafe { crate::sys::assume_utf8_string(field.copy) })
        })
    }
}

/// A field's text as it is read: its one piece, borrowed, until a second
/// comes; then a copy of them all. Grown by the crate's own buffer code,
/// not `String::push_str`, which links a panic path.
struct Field<'a> {
    only: &'a [u8],
    copy: Vec<u8>,
}

impl<'a> Field<'a> {
    fn put(&mut self, piece: &'a [u8]) {
        if piece.is_empty() {
        } else if self.only.is_empty() {
            self.only = piece;
        } else {
            if self.copy.is_empty() {
                crate::sys::append(&mut self.copy, self.only);
            }
            crate::sys::append(&mut self.copy, piece);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec;

    fn read(text: &str) -> Vec<Vec<String>> {
        records(text).map(|r| r.map(Cow::into_owned).collect()).collect()
    }

    /// Each case beside what Python 3's `list(csv.reader(io.StringIO(text, newline="")))` gives.
    #[test]
    fn records_are_python_s() {
        let cases: [(&str, &[&[&str]]); 20] = [
            ("a,b\n", &[&["a", "b"]]),
            ("a,b", &[&["a", "b"]]),
            ("\"x, y\",\"say \"\"hi\"\"\"\n", &[&["x, y", "say \"hi\""]]),
            ("\n\na\n", &[&[], &[], &["a"]]),
            ("a\"b,c\n", &[&["a\"b", "c"]]),
            ("\"ab\"c,d\n", &[&["abc", "d"]]),
            ("\"abc", &[&["abc"]]),
            ("a,\"b\nc\",d\r\ne\r\n", &[&["a", "b\nc", "d"], &["e"]]),
            ("a,\n", &[&["a", ""]]),
            (",\n", &[&["", ""]]),
            ("\"\"\n", &[&[""]]),
            (" \"a\",b\n", &[&[" \"a\"", "b"]]),
            ("a\rb\n", &[&["a"], &["b"]]),
            ("\"a\"\"\n", &[&["a\"\n"]]),
            ("", &[]),
            ("\r\n", &[&[]]),
            ("a\r\r\nb", &[&["a"], &[], &["b"]]),
            ("\"a\"b\"c\",d", &[&["ab\"c\"", "d"]]),
            ("\"\"\"\",\"a\"\"\"", &[&["\"", "a\""]]),
            ("\u{feff}term,読み\n東京,とうきょう", &[&["term", "読み"], &["東京", "とうきょう"]]),
        ];
        for (text, expected) in cases {
            let expected: Vec<Vec<String>> =
                expected.iter().map(|r| r.iter().map(|f| String::from(*f)).collect()).collect();
            assert_eq!(read(text), expected, "{text:?}");
        }
    }

    /// A delimiter that is not ASCII, or is a quote or a line break,
    /// separates nothing: no field is cut inside a char (review 85: the
    /// stand-in for "none" was 0x80, the second byte of `À`, and a piece
    /// cut there went out as a `str`).
    #[test]
    fn a_delimiter_that_cannot_be_one_separates_nothing() {
        let read_with = |text: &str, delimiter: u8| -> Vec<Vec<String>> {
            records(text).delimited_by(delimiter).map(|r| r.map(Cow::into_owned).collect()).collect()
        };
        let text = "xÀy,€\u{10FFFF};\"a\"\r\nÀ\u{80}\u{FF}";
        for delimiter in [0x80, 0x82, 0xAC, 0xBF, 0xC3, 0xE2, 0xFF, b'"', b'\n', b'\r'] {
            assert_eq!(read_with(text, delimiter), [["xÀy,€\u{10FFFF};\"a\""], ["À\u{80}\u{FF}"]], "{delimiter:#x}");
        }
        assert_eq!(read_with(text, b';'), [vec!["xÀy,€\u{10FFFF}", "a"], vec!["À\u{80}\u{FF}"]]);
    }

    /// A field without a doubled quote borrows the text.
    #[test]
    fn plain_and_quoted_fields_borrow() {
        let fields: Vec<bool> =
            records("a,\"b,c\",\"d\"\"e\",\"f\"g").next().unwrap().map(|f| matches!(f, Cow::Borrowed(_))).collect();
        assert_eq!(fields, [true, true, false, false]);
    }

    /// Fields written as a CSV writer quotes them read back as themselves.
    #[test]
    fn written_fields_read_back() {
        let alphabet = ["a", ",", "\"", "\n", "\r", " ", "東", "\r\n", "é", ";"];
        let mut state = 0x2545_F491_u32;
        let mut next = |n: u32| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state % n
        };
        for _ in 0..if cfg!(miri) { 100 } else { 3000 } {
            let rows: Vec<Vec<String>> = (0..1 + next(4))
                .map(|_| {
                    (0..1 + next(4)).map(|_| (0..next(6)).map(|_| alphabet[next(10) as usize]).collect()).collect()
                })
                .collect();
            let mut text = String::new();
            for row in &rows {
                let fields: Vec<String> = row
                    .iter()
                    .map(|f| {
                        // As Python's writer (QUOTE_MINIMAL): a field that is
                        // empty and alone, or holds a special char, is quoted.
                        if f.contains([',', '"', '\n', '\r']) || (f.is_empty() && row.len() == 1) {
                            ["\"", &f.replace('"', "\"\""), "\""].concat()
                        } else {
                            f.clone()
                        }
                    })
                    .collect();
                text.push_str(&fields.join(","));
                text.push_str("\r\n");
            }
            assert_eq!(read(&text), rows, "{text:?}");
        }
    }
}
