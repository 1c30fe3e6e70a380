//! Scanning JSON text already known to be valid: where each value and
//! string ends, skipping white space, without checking anything again.
//! Shared by the schema rules (in const evaluation, where the package is
//! checked) and the reader's lookups (at run time).
//!
//! On text that is not valid JSON the results are meaningless but stay in
//! bounds: every offset returned is at most the text's length.

// The scanners below index `b` themselves, with its length taken once:
// rustc's const evaluation counts each call (`at`, and `len` too) and each
// loop turn, and stops a constant at 2,000,000 of them.

/// The first offset at or after `i` that is not white space.
pub(crate) const fn skip_ws(b: &[u8], mut i: usize) -> usize {
    let n = b.len();
    while i < n && matches!(b[i], b' ' | b'\n' | b'\r' | b'\t') {
        i += 1;
    }
    i
}

/// Past the closing quote of the (valid) string whose opening quote is at `i`.
pub(crate) const fn string_end(b: &[u8], i: usize) -> usize {
    let n = b.len();
    let mut i = i + 1;
    while i < n {
        match b[i] {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    n
}

/// Past the (valid) value starting at `i`.
pub(crate) const fn value_end(b: &[u8], i: usize) -> usize {
    let n = b.len();
    let mut i = i;
    let mut depth = 0usize;
    let mut in_string = false;
    while i < n {
        let c = b[i];
        if in_string {
            if c == b'\\' {
                i += 1;
            } else if c == b'"' {
                in_string = false;
                if depth == 0 {
                    return i + 1;
                }
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    // A scalar ends before its container's close; a container at it.
                    if depth <= 1 {
                        return if depth == 0 { i } else { i + 1 };
                    }
                    depth -= 1;
                }
                b',' | b' ' | b'\n' | b'\r' | b'\t' if depth == 0 => return i,
                _ => {}
            }
        }
        i += 1;
    }
    n
}
