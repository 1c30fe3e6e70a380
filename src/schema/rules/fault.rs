//! Why a schema is refused ([`Fault`]) and the fault in words: the rule,
//! where it is (a JSON Pointer, a line and column) and what it quotes.

use super::{Frame, INDEX, NONE};
use crate::build_message::BuildMessage;
use crate::bytes::same_at as eq;
use crate::schema::syntax::line_column;

/// Longest JSON Pointer a fault keeps (longer ones end with `…`).
const PATH: usize = 120;

/// At most this many bytes of a value are quoted in a fault.
const QUOTE: usize = 40;

/// What a fault quotes after its rule, as the schema has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quote {
    /// Nothing.
    Nothing,
    /// `, not VALUE`: the value found where another was due.
    Not(usize, usize),
    /// `: VALUE`: the value the rule is about.
    Is(usize, usize),
    /// `: A > B`: two bounds that leave nothing between them, and how they
    /// compare.
    Pair(usize, usize, &'static str, usize, usize),
}

/// Why a schema is refused: a rule, the bytes of the schema it is about
/// (a keyword or a property name; empty when it is the schema as a whole),
/// and where: the JSON Pointer of the schema that says it, and the line
/// and column of the text to fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Reads after the subject: "`$ref` is not allowed …"; or, for an
    /// unknown keyword, before it.
    pub rule: &'static str,
    /// Where the offending text starts in the schema, in bytes.
    pub at: usize,
    /// Where it ends.
    pub end: usize,
    /// The nearest known keyword or type name, for a misspelt one.
    pub suggestion: Option<&'static str>,
    /// What the message quotes after the rule.
    pub quote: Quote,
    /// The offset the line and column are given for.
    pub place: usize,
    pub(super) path: [u8; PATH],
    pub(super) path_len: usize,
}

pub(super) const fn fault(rule: &'static str, at: usize, end: usize) -> Fault {
    // A name is pointed at by its opening quote.
    let place = if at > 0 && at < end { at - 1 } else { NONE };
    Fault { rule, at, end, suggestion: None, quote: Quote::Nothing, place, path: [0; PATH], path_len: 0 }
}

/// A fault about the keyword named by `k..k_end`, whose value at `v`
/// (ending at `v_end`) is quoted and placed.
pub(super) const fn fault_value(rule: &'static str, k: usize, k_end: usize, v: usize, v_end: usize) -> Fault {
    let mut f = fault(rule, k, k_end);
    f.quote = Quote::Not(v, v_end);
    f.place = v;
    f
}

/// A fault about the keyword named by `k..k_end` that quotes the value at
/// `v` (ending at `v_end`) as what it is about, and is placed there.
pub(super) const fn fault_is(rule: &'static str, k: usize, k_end: usize, v: usize, v_end: usize) -> Fault {
    let mut f = fault_value(rule, k, k_end, v, v_end);
    f.quote = Quote::Is(v, v_end);
    f
}

/// The rule of a name written with an escape that another spelling of
/// it would not have (names are compared as written).
pub const ESCAPED: &str = "is written with an escape other than \\\" or \\\\: write names as plain UTF-8 text, as they are compared as written";

/// [`ESCAPED`], for a name in a list (`required`).
pub const ESCAPED_IN_LIST: &str = "lists a name written with an escape other than \\\" or \\\\: write names as plain UTF-8 \
                                   text, as they are compared as written";

/// The rule of an unknown keyword's fault.
pub const UNKNOWN: &str = "unknown keyword";

impl Fault {
    /// The text the fault is about, such as `$ref` or a property name.
    pub const fn subject<'s>(&self, schema: &'s str) -> &'s str {
        text(schema, self.at, self.end)
    }

    /// The JSON Pointer of the schema the fault is in (`""` for the root).
    pub const fn path(&self) -> &str {
        match core::str::from_utf8(self.path.split_at(self.path_len).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }

    /// `message` followed by the fault in words: `, line 1, column 47:
    /// unknown keyword "requried" at the root (did you mean "required"?)`,
    /// `, line 3, column 20: "minimum" at /properties/n must be a number,
    /// not "0"`, or ` must be …` when it is about the schema as a whole.
    pub const fn explain(&self, schema: &str, message: BuildMessage) -> BuildMessage {
        let subject = self.subject(schema);
        if subject.is_empty() {
            return message.push(" ").push(self.rule);
        }
        let m = if self.place == NONE {
            message
        } else {
            let (line, column, _) = line_column(schema.as_bytes(), self.place);
            message.push(", line ").push_usize(line).push(", column ").push_usize(column)
        };
        let m = m.push(": ");
        let unknown = str_is(self.rule, UNKNOWN);
        let m = if unknown { m.push(UNKNOWN).push(" ") } else { m };
        let m = m.push_byte(b'"').push(subject).push_byte(b'"').push(" at ");
        let m = if self.path_len == 0 { m.push("the root") } else { m.push(self.path()) };
        if unknown {
            return match self.suggestion {
                Some(s) => m.push(" (did you mean \"").push(s).push("\"?)"),
                None => m.push(" (an extension needs an \"x-\" prefix)"),
            };
        }
        let m = m.push(" ").push(self.rule);
        let m = match self.quote {
            Quote::Nothing => m,
            Quote::Not(v, v_end) => quoted(m.push(", not "), schema, v, v_end),
            Quote::Is(v, v_end) => quoted(m.push(": "), schema, v, v_end),
            Quote::Pair(a, a_end, op, b, b_end) => {
                let m = quoted(m.push(": "), schema, a, a_end).push(" ").push(op).push(" ");
                quoted(m, schema, b, b_end)
            }
        };
        match self.suggestion {
            Some(s) => m.push(" (did you mean \"").push(s).push("\"?)"),
            None => m,
        }
    }

    /// The fault with the pointer of the schema open at the top of `stack`.
    pub(super) const fn located(mut self, b: &[u8], stack: &[Frame], depth: usize) -> Fault {
        let mut d = 1;
        while d < depth {
            let f = &stack[d];
            self = self.path_byte(b'/');
            if f.seg_at == INDEX {
                let mut buf = [0u8; 20];
                let digits = crate::bytes::u64_digits(f.seg_end as u64, &mut buf);
                let mut k = 0;
                while k < digits.len() {
                    self = self.path_byte(digits[k]);
                    k += 1;
                }
            } else {
                let mut k = f.seg_at;
                while k < f.seg_end {
                    self = match b[k] {
                        b'~' => self.path_byte(b'~').path_byte(b'0'),
                        b'/' => self.path_byte(b'~').path_byte(b'1'),
                        c => self.path_byte(c),
                    };
                    k += 1;
                }
            }
            d += 1;
        }
        self
    }

    const fn path_byte(mut self, c: u8) -> Fault {
        if self.path_len < PATH - 3 {
            self.path[self.path_len] = c;
            self.path_len += 1;
        } else if self.path_len == PATH - 3 && c & 0xC0 != 0x80 {
            // "…", once, at a character boundary.
            self.path[PATH - 3] = 0xE2;
            self.path[PATH - 2] = 0x80;
            self.path[PATH - 1] = 0xA6;
            self.path_len = PATH;
        }
        self
    }
}

/// The bytes `at..end` of `schema` as text (empty when out of range).
const fn text(schema: &str, at: usize, end: usize) -> &str {
    let b = schema.as_bytes();
    if at >= end || end > b.len() {
        return "";
    }
    let (_, tail) = b.split_at(at);
    let (subject, _) = tail.split_at(end - at);
    match core::str::from_utf8(subject) {
        Ok(s) => s,
        Err(_) => "",
    }
}

/// `m` and the value at `v..v_end` of `schema` as written, on one line,
/// cut after about [`QUOTE`] bytes (at a character) with `…`.
const fn quoted(mut m: BuildMessage, schema: &str, v: usize, v_end: usize) -> BuildMessage {
    let b = schema.as_bytes();
    let mut i = v;
    let mut space = false;
    while i < v_end && i < b.len() {
        let c = b[i];
        if i - v >= QUOTE && c & 0xC0 != 0x80 {
            return m.push("…");
        }
        if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            space = true;
        } else {
            if space {
                m = m.push_byte(b' ');
                space = false;
            }
            m = m.push_byte(c);
        }
        i += 1;
    }
    m
}

const fn str_is(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    eq(a, 0, a.len(), b)
}
