//! Scanning bytes: the byte at an offset, white space, and the word-at-a-time
//! searches (plain string text, UTF-8 sequences, one byte, four hex digits)
//! that the validator, the value API and the writer share, and the
//! substring search built on the one-byte search.

use crate::bytes::same_at;
pub(crate) use crate::bytes::{at, span};

/// Past the white space from `i` on.
pub(crate) const fn skip_ws(b: &[u8], i: usize) -> usize {
    skip_ws_in(b, i, WS)
}

/// JSON's white space, a bit for each byte of it.
pub(crate) const WS: u64 = 1 << b' ' | 1 << b'\n' | 1 << b'\r' | 1 << b'\t';

/// White space within a line of JSON Lines: a newline ends the line.
pub(crate) const WS_IN_LINE: u64 = WS & !(1 << b'\n');

/// Past the bytes from `i` on that `ws` ([`WS`] or [`WS_IN_LINE`]) holds.
pub(crate) const fn skip_ws_in(b: &[u8], mut i: usize, ws: u64) -> usize {
    loop {
        let c = at(b, i);
        if c > b' ' || (ws >> c) & 1 == 0 {
            return i;
        }
        i += 1;
    }
}

/// The four hex digits at `i`, if there are four: all four at once, a
/// byte to a lane of one word.
pub(crate) const fn hex4(b: &[u8], i: usize) -> u32 {
    let Some((_, rest)) = b.split_at_checked(i) else {
        return NOT_HEX;
    };
    let Some(digits) = rest.first_chunk::<4>() else {
        return NOT_HEX;
    };
    let x = u32::from_le_bytes(*digits);
    // For a byte below 0x80 no sum below carries out of its lane, and the
    // lane's high bit says whether the byte is at least a bound. A byte of
    // 0x80 or more passes neither test, whatever carries into its lane
    // (its own carries go only to lanes above). `| 0x20` lowers `A`-`F` and
    // leaves `a`-`f`; no other byte lands there. (Checked against a
    // byte-at-a-time reading for all 2^32 words.)
    let lower = x | 0x2020_2020;
    let digit = x.wrapping_add(0x5050_5050) & !x.wrapping_add(0x4646_4646); // 0x30 to 0x39
    let letter = lower.wrapping_add(0x1F1F_1F1F) & !lower.wrapping_add(0x1919_1919); // 0x61 to 0x66
    if (digit | letter) & 0x8080_8080 != 0x8080_8080 {
        return NOT_HEX;
    }
    // `0`-`9` hold their value in their low four bits; `A`-`F` and `a`-`f`
    // hold 1 to 6 there and have bit 6 set: nine more. The first digit is
    // the lowest lane and the highest of the four.
    let nibbles = (x & 0x0F0F_0F0F) + ((x >> 6) & 0x0101_0101) * 9;
    let pairs = (nibbles << 4) | (nibbles >> 8);
    ((pairs & 0xFF) << 8) | ((pairs >> 16) & 0xFF)
}

/// What [`hex4`] returns for anything but four hex digits: past every value
/// four digits can spell.
pub(crate) const NOT_HEX: u32 = 0x10000;

/// Eight copies of byte `b`, to test a word's eight bytes at once.
const fn splat(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// The high bit of each byte of a word.
pub(crate) const HIGH_BITS: u64 = splat(0x80);

/// The high bit of each byte of word `w` that is not plain string text,
/// exact up to the lowest: a byte's high bit ends up set when it is `"` or
/// `\\` (which the XOR makes 0, which the subtraction wraps), below 0x20
/// (wraps too), or 0x80 and above. Borrows carry only from such a byte
/// upward: the lowest mark is the first such byte. Taking out the marks of
/// the bytes of 0x80 and above leaves the lowest of the rest exact: such a
/// byte wraps no subtraction, so it starts no borrow.
#[inline(always)]
pub(crate) const fn text_marks(w: u64) -> u64 {
    ((w ^ splat(b'"')).wrapping_sub(splat(1))
        | (w ^ splat(b'\\')).wrapping_sub(splat(1))
        | w.wrapping_sub(splat(0x20))
        | w)
        & HIGH_BITS
}

/// The first offset from `i` on whose byte is a quote or a bracket, in
/// validated text outside strings (ASCII: numbers, literals, commas,
/// colons, white space), eight bytes a turn; where fewer than eight are
/// left (the caller goes on byte by byte), or `b.len()`. The marks are
/// exact up to the lowest, as [`text_marks`]': `[` and `{` (and `]` and
/// `}`) differ in bit 5 alone, so two tests find all four.
#[inline(never)]
pub(crate) const fn structure_end(b: &[u8], i: usize) -> usize {
    let Some((_, mut rest)) = b.split_at_checked(i) else {
        return b.len();
    };
    while let Some((word, next)) = rest.split_first_chunk::<8>() {
        let w = u64::from_le_bytes(*word);
        let folded = w | splat(0x20);
        let m = ((w ^ splat(b'"')).wrapping_sub(splat(1))
            | (folded ^ splat(b'{')).wrapping_sub(splat(1))
            | (folded ^ splat(b'}')).wrapping_sub(splat(1)))
            & HIGH_BITS;
        if m != 0 {
            return b.len() - rest.len() + (m.trailing_zeros() / 8) as usize;
        }
        rest = next;
    }
    b.len() - rest.len()
}

/// Past the plain string text from `i` on, eight bytes a turn: printable
/// ASCII but `"` and `\\`; with `high`, also every byte from 0x80 on (for
/// skipping validated text, and for the writer, which copies UTF-8 as it
/// is; without, [`utf8_end`] validates those). Returns the first offset
/// whose byte is not such text, where fewer than eight bytes are left (the
/// caller goes on byte by byte), or `b.len()`.
#[inline(never)]
pub(crate) const fn plain_end(b: &[u8], i: usize, high: bool) -> usize {
    let Some((_, mut rest)) = b.split_at_checked(i) else {
        return b.len();
    };
    // The bytes whose high bit does not end the run.
    let keep = if high { u64::MAX } else { 0 };
    while let Some((word, next)) = rest.split_first_chunk::<8>() {
        let w = u64::from_le_bytes(*word);
        let m = text_marks(w);
        if m != 0 {
            // Only when some byte is marked, so the common turn costs
            // nothing more: with `high`, the high bytes are not marks.
            let m = m & !(w & HIGH_BITS & keep);
            if m != 0 {
                return b.len() - rest.len() + (m.trailing_zeros() / 8) as usize;
            }
        }
        rest = next;
    }
    b.len() - rest.len()
}

/// Past the whole, valid UTF-8 sequences of two to four bytes from `i` on
/// (no overlong forms, no surrogates, nothing past U+10FFFF), and the
/// printable ASCII but `"` and `\\` among them: the first offset that is
/// neither, `i` itself if the text there is neither. Each turn reads eight
/// bytes as one word and takes one sequence, two three-byte ones, a word
/// whose high bytes are whole two-byte sequences (Latin, Greek or Cyrillic
/// text), or the ASCII the word starts with: mixed text (a Japanese word,
/// a space, a Latin name) stays in this loop.
pub(crate) const fn utf8_end(b: &[u8], i: usize) -> usize {
    let Some((_, mut rest)) = b.split_at_checked(i) else {
        return b.len();
    };
    loop {
        // The next eight bytes, zeros past the end (never part of a sequence).
        let w = match rest.first_chunk::<8>() {
            Some(eight) => u64::from_le_bytes(*eight),
            None => {
                let (mut w, mut k) = (0, rest.len());
                while k > 0 {
                    k -= 1;
                    w = w << 8 | rest[k] as u64;
                }
                w
            }
        };
        // Printable ASCII but `"` and `\\` is unmarked; every other byte
        // has its high bit set here.
        let marks = text_marks(w);
        let len = if w & 0xC0_C0F0 == 0x80_80E0 {
            // 1110xxxx and two continuations, and perhaps another such
            // sequence right after it (CJK text), both lanes checked at
            // once. A lane is overlong (E0 80-9F) or a surrogate (ED A0-BF)
            // when its lead's low four bits are 0 and bit 5 of the byte
            // after it clear, or 0xD and that bit set: then, and only then,
            // the XOR of the bits with 0xD times that bit is zero, and
            // adding 0xF carries into the lane's bit 4 when it is not.
            let ok = ((w & 0x00000F_00000F) ^ (((w >> 13) & 0x000001_000001) * 0xD)) + 0x00000F_00000F;
            if ok & 0x10 == 0 {
                break;
            }
            if w & 0xC0C0F0_000000 == 0x8080E0_000000 && ok & 0x10_000000 != 0 { 6 } else { 3 }
        } else if marks == w & HIGH_BITS && two_byte_only(w, marks) {
            // Whole two-byte sequences and ASCII (Latin, Greek or Cyrillic
            // text), the whole word.
            8
        } else if marks & 0x80 == 0 {
            // Printable ASCII up to the first marked byte (a space, a Latin
            // word in Japanese text) is taken here too: a return to the
            // caller's loop costs more than the test. The zeros past the
            // end are marked, as control characters.
            (marks.trailing_zeros() / 8) as usize
        } else if w & 0xC0E0 == 0x80C0 && w & 0x1E != 0 {
            // 110xxxxx (not C0 or C1, overlong) and a continuation.
            2
        } else if w & 0xC0C0_C0F8 == 0x8080_80F0 {
            // 11110xxx and three continuations. Bits 20 to 16 of the code
            // point: zero for an overlong form, past 0x10 beyond U+10FFFF.
            let top = ((w & 0x07) << 2) | ((w >> 12) & 3);
            if top == 0 || top > 0x10 {
                break;
            }
            4
        } else {
            break;
        };
        rest = match rest.split_at_checked(len) {
            Some((_, next)) => next,
            None => break,
        };
    }
    b.len() - rest.len()
}

/// Whether the high bytes of word `w` (whose high bits are `hi`) are
/// whole, valid two-byte UTF-8 sequences, as Latin, Greek or Cyrillic text
/// has them: each a lead from C2 to DF, then a continuation in the same
/// word.
pub(crate) const fn two_byte_only(w: u64, hi: u64) -> bool {
    // Leads (11xxxxxx); the other high bytes are continuations, and each
    // must follow a lead as each lead must precede one.
    let lead = hi & (w << 1);
    lead & (w << 2) == 0
        && lead << 8 == hi ^ lead
        && lead >> 63 == 0
        // Not C0 or C1 (overlong): some of bits 4 to 1 set.
        && lead & !((w & splat(0x1E)) + splat(0x7F)) == 0
}

/// Bit 7 of some byte set when word `k` of `pair` holds `x` (as in
/// [`find`]'s test, without the lowest mark's place).
#[inline(always)]
const fn holds(pair: &[u8; 16], k: usize, x: u8) -> u64 {
    let y = u64::from_le_bytes([
        pair[k * 8],
        pair[k * 8 + 1],
        pair[k * 8 + 2],
        pair[k * 8 + 3],
        pair[k * 8 + 4],
        pair[k * 8 + 5],
        pair[k * 8 + 6],
        pair[k * 8 + 7],
    ]) ^ splat(x);
    y.wrapping_sub(splat(1)) & !y & HIGH_BITS
}

/// The last offset of `b` that holds `x`: [`find`] from the end, eight
/// bytes a turn (reading JSON Lines backward, a line's start).
#[inline(never)]
pub(crate) fn rfind(b: &[u8], x: u8) -> Option<usize> {
    let mut rest = b;
    while let Some((before, word)) = rest.split_last_chunk::<8>() {
        // As in `find`: a byte of `x` is a zero byte of `y`, and the word is
        // marked if it holds one. Only the lowest mark is exact (a borrow
        // can mark the byte above a zero byte), so the word is then read
        // from its end a byte at a time.
        let y = u64::from_le_bytes(*word) ^ splat(x);
        if y.wrapping_sub(splat(1)) & !y & HIGH_BITS != 0 {
            let mut k = word.len();
            while k > 0 {
                k -= 1;
                if word[k] == x {
                    return Some(before.len() + k);
                }
            }
        }
        rest = before;
    }
    rest.iter().rposition(|&c| c == x)
}

/// The first offset at or after `i` that holds `x`, or `b.len()`: sixteen
/// bytes a turn, then eight, stopping only at `x` (the line reader's
/// newline, a string's backslash).
#[inline(never)]
pub(crate) const fn find(b: &[u8], i: usize, x: u8) -> usize {
    let Some((_, mut rest)) = b.split_at_checked(i) else {
        return b.len();
    };
    // Two words a turn while neither holds `x` (most of a long line, of a
    // long string): the loop's own work is spent half as often.
    while let Some((pair, next)) = rest.split_first_chunk::<16>() {
        if holds(pair, 0, x) | holds(pair, 1, x) != 0 {
            break;
        }
        rest = next;
    }
    while let Some((word, next)) = rest.split_first_chunk::<8>() {
        // A byte of `x` is a zero byte here; the subtraction wraps it, and
        // `!y` keeps only bytes that were below 0x80. As in [`plain_end`],
        // the lowest mark is exact.
        let y = u64::from_le_bytes(*word) ^ splat(x);
        let m = y.wrapping_sub(splat(1)) & !y & HIGH_BITS;
        if m != 0 {
            return b.len() - rest.len() + (m.trailing_zeros() / 8) as usize;
        }
        rest = next;
    }
    while let [first, more @ ..] = rest {
        if *first == x {
            break;
        }
        rest = more;
    }
    b.len() - rest.len()
}

/// Where `needle` first is in `haystack` (0 for an empty one): each place
/// the needle's rarest-looking byte is, found eight bytes a step, then
/// compared there. Fast when that byte is rare in the haystack; up to
/// `haystack.len() × needle.len()` steps when it is everywhere.
pub(crate) fn find_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let last = haystack.len().checked_sub(needle.len())?;
    let pick = rarest(needle);
    let Some(&rare) = needle.get(pick) else { return Some(0) };
    let mut at = pick;
    loop {
        at = find(haystack, at, rare);
        // `at` is never below `pick`: the search starts there.
        let start = at - pick;
        if start > last {
            return None;
        }
        if same_at(haystack, start, start + needle.len(), needle) {
            return Some(start);
        }
        at += 1;
    }
}

/// Where the byte [`find_bytes`] skips to is in `needle`: the first of
/// the rarest-looking.
fn rarest(needle: &[u8]) -> usize {
    let (mut pick, mut least) = (0, u8::MAX);
    for (k, &b) in needle.iter().enumerate() {
        // A char's last byte varies most: the one before it in a CJK
        // char is one of a few for a whole script (katakana's are 0x82
        // and 0x83), as a lead byte is, so nearly every char of such text
        // would be compared (author trial 67).
        let last_of_char = at(needle, k + 1) & 0xC0 != 0x80;
        let rarity = rarity(b) + (b & 0xC0 == 0x80 && !last_of_char) as u8 * 2;
        if rarity < least {
            (pick, least) = (k, rarity);
        }
    }
    pick
}

/// How common a byte is in text, and in JSON text above all (lower is
/// rarer): a UTF-8 continuation byte is one of 64 (a char's last; the
/// others [`find_bytes`] ranks with lead bytes), an ASCII letter or digit
/// one of 62, a lead byte is shared by a script's letters, and spaces and
/// JSON's punctuation are everywhere.
fn rarity(b: u8) -> u8 {
    if b >= 0x80 {
        if b < 0xC0 { 0 } else { 2 }
    } else if (b | 0x20).wrapping_sub(b'a') < 26 || b.wrapping_sub(b'0') < 10 {
        1
    } else {
        3
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::{find, rarest};
    use std::vec::Vec;

    /// The byte skipped to is a char's last where the needle has one: in
    /// CJK text the byte before it is one of a few for a whole script, so
    /// each of its places would be compared.
    #[test]
    fn the_byte_skipped_to_ends_a_char() {
        for (needle, expected) in [("アクセス", 2), ("トークン", 2), ("Zürich", 2), ("café", 4), ("日本", 2), ("ab", 0)]
        {
            assert_eq!(rarest(needle.as_bytes()), expected, "{needle}");
        }
        // How many places of that byte a page of katakana holds, against
        // the byte before it.
        let text = "アクセストークンをサーバーに送信してください。".repeat(50);
        let places = |b: u8| text.bytes().filter(|&x| x == b).count();
        let needle = "トークン".as_bytes();
        assert!(places(needle[rarest(needle)]) * 5 < places(needle[1]), "{}", places(needle[rarest(needle)]));
    }

    /// `find` agrees with a byte-by-byte search for every place of the byte
    /// sought (or none) in texts up to five pairs of words long, from every
    /// start, among fills that are its neighbours, 0, 0xFF and bytes with
    /// the high bit set (which a borrow from a lower byte could mark).
    #[test]
    fn find_agrees_with_a_byte_search_at_every_place() {
        for x in [b'\n', b'\\', b'"', 0, 0x7F, 0x80, 0xFF] {
            let fills = [x ^ 1, x.wrapping_add(1), x.wrapping_sub(1), x ^ 0x80, 0, 0xFF, 0x81];
            for n in 0..=80usize {
                for fill in fills.iter().filter(|&&f| f != x) {
                    let mut text: Vec<u8> = (0..n).map(|k| if k % 3 == 0 { *fill } else { fill ^ 0x80 }).collect();
                    text.iter_mut().filter(|b| **b == x).for_each(|b| *b = *fill);
                    for at in (0..n).map(Some).chain([None]) {
                        let mut t = text.clone();
                        if let Some(at) = at {
                            t[at] = x;
                            // A second one after it: the first is found.
                            if at + 9 < n {
                                t[at + 9] = x;
                            }
                        }
                        for start in [0, 1, 7, 8, 15, 16, 17].into_iter().filter(|&s| s <= n) {
                            let expected = t[start..].iter().position(|&b| b == x).map_or(n, |p| start + p);
                            assert_eq!(find(&t, start, x), expected, "x {x:#x}, n {n}, at {at:?}, start {start}");
                        }
                    }
                }
            }
        }
        assert_eq!(find(b"abc", 4, b'a'), 3, "a start past the end");
    }
}
