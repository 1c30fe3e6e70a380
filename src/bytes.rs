//! Byte helpers with no panic path, as `const fn`s: the build-time checks
//! (`package`, `schema`, `rendered`) and the run-time code share them. A
//! leaf: it imports nothing.

/// The byte at `i`, or 0 past the end. No JSON token holds a raw 0, so 0
/// reads as "nothing valid here", and indexing through this never panics.
pub(crate) const fn at(b: &[u8], i: usize) -> u8 {
    if i < b.len() { b[i] } else { 0 }
}

/// `b[from..to]`, or nothing when that is out of range (never, for offsets
/// into validated text; this just keeps panics out of the code).
pub(crate) fn span(b: &[u8], from: usize, to: usize) -> &[u8] {
    b.get(from..to).unwrap_or(&[])
}

/// Whether `a` and `b` hold the same bytes. A loop of its own: the bytes
/// compared are short (keys, names, flags), and slice `==` links libc's
/// `memcmp` and core's comparison into every module.
#[inline(never)]
pub(crate) const fn same(a: &[u8], b: &[u8]) -> bool {
    same_at(a, 0, a.len(), b)
}

/// Whether the bytes `from..to` of `b` are `word`. Offsets rather than a
/// slice: const evaluation counts every call, and cutting a slice is
/// several. Inlined: otherwise, in a module that also searches text
/// (`json::scan::find_bytes`), it is a function of its own, and [`same`], which
/// compares every key read, becomes a call of it with a bounds check at
/// each byte (author trial 36: +7.7 % on reading a file).
#[inline(always)]
pub(crate) const fn same_at(b: &[u8], from: usize, to: usize, word: &[u8]) -> bool {
    if to < from || to - from != word.len() {
        return false;
    }
    let mut n = 0;
    while n < word.len() {
        if at(b, from + n) != word[n] {
            return false;
        }
        n += 1;
    }
    true
}

/// The largest prime below 2^32, the modulus of the crate's polynomial
/// hashes ([`hash_at`] and the duplicate-member check's).
pub(crate) const PRIME: u64 = 4_294_967_291;

/// A hash of the bytes `from..to` of `b`, modulo [`PRIME`] (plain
/// operators: a method such as `wrapping_mul` is a call, and a call is a
/// step of const evaluation).
pub(crate) const fn hash_at(b: &[u8], from: usize, to: usize) -> u64 {
    let mut h: u64 = 0;
    let mut i = from;
    while i < to {
        h = (h * 257 + at(b, i) as u64 + 1) % PRIME;
        i += 1;
    }
    h
}

/// [`hash_at`] of all of `b`.
pub(crate) const fn hash(b: &[u8]) -> u64 {
    hash_at(b, 0, b.len())
}

/// The decimal digits of `n`, written at the end of `buf` (room for any
/// `u64`): the one digit loop, at build time and at run time.
pub(crate) const fn u64_digits(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    // Twenty digits hold any u64; the test of `at` keeps every index
    // provably in range, so no panic path is linked.
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    match buf.split_at_checked(at) {
        Some((_, digits)) => digits,
        None => &[],
    }
}

/// Hex digits, lower case as JSON's `\u00XX` escapes are written.
pub(crate) const HEX: &[u8; 16] = b"0123456789abcdef";

/// The hex digit of `nibble` (its low four bits), upper case as a
/// percent-encoded URI writes it.
pub(crate) const fn hex_upper(nibble: u8) -> u8 {
    let c = HEX[(nibble & 15) as usize];
    if c >= b'a' { c - (b'a' - b'A') } else { c }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_match_what_std_does() {
        for (a, b) in [(&b""[..], &b""[..]), (b"a", b"a"), (b"a", b"b"), (b"ab", b"a"), (b"key", b"key")] {
            assert_eq!(same(a, b), a == b);
        }
        assert_eq!(span(b"hello", 1, 3), b"el");
        assert_eq!(span(b"hello", 3, 1), b"");
        assert_eq!(span(b"hello", 2, 9), b"");
        assert_eq!((at(b"ab", 1), at(b"ab", 2)), (b'b', 0));
        for n in [0u64, 7, 10, 99, 1234567890, u64::MAX] {
            assert_eq!(u64_digits(n, &mut [0; 20]), alloc::format!("{n}").as_bytes());
        }
        let upper: alloc::vec::Vec<u8> = (0..16).map(hex_upper).collect();
        assert_eq!(upper, b"0123456789ABCDEF");
        assert_ne!(hash(b"name"), hash(b"nama"));
    }
}
