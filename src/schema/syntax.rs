//! A schema's syntax error in an author's words: what was expected, where
//! (line and column inside the schema string) and the text there. Build
//! time only, and only once [`validate`](crate::json::validate) has
//! refused the schema: valid schemas pay nothing for it.

use crate::build_message::BuildMessage;
use crate::json::{ReadError, ReadErrorKind};

/// What the text before the error ended with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    Nothing,
    Open,
    Name,
    Colon,
    Comma,
    Value,
}

/// At most this many bytes of the schema are quoted after "near".
const NEAR: usize = 40;

/// `message` followed by `: expected ',' or '}' at line 3, column 18, near
/// "\"type\" \"string\""` for the error `e` in `b`.
pub const fn explain(b: &[u8], e: ReadError, message: BuildMessage) -> BuildMessage {
    let at = if e.offset < b.len() { e.offset } else { b.len() };
    // The text before `at` is JSON as far as it goes: follow its nesting
    // and its last token.
    let mut arrays = [false; crate::json::MAX_DEPTH];
    let mut depth = 0usize;
    let mut last = Last::Nothing;
    let mut last_at = 0;
    let mut inside = false; // `at` is inside a token that starts at `last_at`
    let mut i = 0;
    while i < at {
        let c = b[i];
        if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            i += 1;
            continue;
        }
        last_at = i;
        match c {
            b'{' | b'[' => {
                if depth < arrays.len() {
                    arrays[depth] = c == b'[';
                }
                depth += 1;
                last = Last::Open;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                last = Last::Value;
                i += 1;
            }
            b':' => {
                last = Last::Colon;
                i += 1;
            }
            b',' => {
                last = Last::Comma;
                i += 1;
            }
            b'"' => {
                let in_object = depth > 0 && depth <= arrays.len() && !arrays[depth - 1];
                last = if in_object && matches!(last, Last::Open | Last::Comma) { Last::Name } else { Last::Value };
                i += 1;
                while i < at && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                if i >= at {
                    inside = true;
                }
                i += 1;
            }
            _ => {
                last = Last::Value;
                while i < at
                    && !matches!(b[i], b' ' | b'\n' | b'\r' | b'\t' | b',' | b':' | b'{' | b'}' | b'[' | b']' | b'"')
                {
                    i += 1;
                }
                // A word cut short (`tru`): the error is in it.
                if i >= at && matches!(b[last_at], b't' | b'f' | b'n') {
                    inside = true;
                }
            }
        }
    }
    let in_array = depth > 0 && depth <= arrays.len() && arrays[depth - 1];
    let c = if at < b.len() { b[at] } else { 0 };
    let close = if in_array { "']'" } else { "'}'" };
    let m = message.push(": ");
    let m = match e.kind {
        ReadErrorKind::BadString if c == b'\\' => m.push("invalid escape in a string"),
        ReadErrorKind::BadString if c < 0x20 => {
            m.push("a control character (a line break, a tab) inside a string: write it as an escape")
        }
        ReadErrorKind::BadString => m.push("invalid string"),
        ReadErrorKind::Eof if inside => m.push("a string that is not closed"),
        ReadErrorKind::BadNumber => m.push("invalid number"),
        ReadErrorKind::TooDeep => m.push("nested too deeply"),
        ReadErrorKind::Trailing => m.push("expected the end of the schema"),
        _ if inside => m.push("expected true, false or null"),
        // `01`: the validator reads `0` and then a stray digit.
        _ if matches!(last, Last::Value) && c.is_ascii_digit() && at > 0 && b[at - 1].is_ascii_digit() => {
            m.push("invalid number (no leading zeros)")
        }
        _ => {
            let m =
                if matches!(c, b'}' | b']') && matches!(last, Last::Comma) { m.push("trailing comma: ") } else { m };
            match last {
                Last::Nothing | Last::Colon => m.push("expected a value"),
                Last::Open if in_array => m.push("expected a value or ']'"),
                Last::Open => m.push("expected a member name in double quotes or '}'"),
                Last::Comma if in_array => m.push("expected a value"),
                Last::Comma => m.push("expected a member name in double quotes"),
                Last::Name => m.push("expected ':'"),
                Last::Value if depth == 0 => m.push("expected the end of the schema"),
                Last::Value => m.push("expected ',' or ").push(close),
            }
        }
    };
    let m = if matches!(e.kind, ReadErrorKind::Eof) { m.push(", but the schema ends") } else { m };
    let (line, column, line_start) = line_column(b, at);
    let m = m.push(" at line ").push_usize(line).push(", column ").push_usize(column);
    // From the token before (if it is on this line) to the end of the one
    // at the error, on this line and at most `NEAR` bytes.
    let mut from = if inside || (last_at >= line_start && !matches!(last, Last::Nothing)) { last_at } else { at };
    if from < line_start {
        from = line_start;
    }
    let mut to = token_end(b, at);
    let mut k = from;
    while k < to && b[k] != b'\n' && b[k] != b'\r' {
        k += 1;
    }
    to = k;
    if to - from > NEAR {
        to = from + NEAR;
    }
    // Whole characters only.
    while to < b.len() && to > from && b[to] & 0xC0 == 0x80 {
        to -= 1;
    }
    if to <= from {
        return m;
    }
    let near = b.split_at(to).0.split_at(from).1;
    m.push(", near ").push_quoted(near)
}

/// The line and column (in characters) of byte `at` of `b`, counted from
/// 1, and where its line starts.
pub const fn line_column(b: &[u8], at: usize) -> (usize, usize, usize) {
    let mut line = 1;
    let mut line_start = 0;
    let mut column = 1;
    let mut i = 0;
    while i < at && i < b.len() {
        if b[i] == b'\n' {
            line += 1;
            line_start = i + 1;
            column = 1;
        } else if b[i] & 0xC0 != 0x80 {
            column += 1;
        }
        i += 1;
    }
    (line, column, line_start)
}

/// Past the token at `i`: a string (to its quote, or the line's end), a
/// word or number, or one byte.
const fn token_end(b: &[u8], i: usize) -> usize {
    if i >= b.len() {
        return b.len();
    }
    let mut k = i + 1;
    if b[i] == b'"' {
        while k < b.len() && b[k] != b'"' && b[k] != b'\n' {
            k += if b[k] == b'\\' { 2 } else { 1 };
        }
        return if k < b.len() { k + 1 } else { b.len() };
    }
    if matches!(b[i], b'{' | b'}' | b'[' | b']' | b',' | b':') {
        return k;
    }
    while k < b.len() && !matches!(b[k], b' ' | b'\n' | b'\r' | b'\t' | b',' | b':' | b'{' | b'}' | b'[' | b']' | b'"')
    {
        k += 1;
    }
    k
}
