//! The compact encoding of the crate's Unicode tables ([`crate::case`]):
//! streams of Exp-Golomb codes, read from the front, each code from one
//! eight-byte window. A table is scanned from its start (or from a place
//! listed beside it) on a lookup, which
//! is slower than a binary search over fixed-width entries and several
//! times smaller: a run of code points or a small difference takes a few
//! bits, not four bytes (`case` keeps what it has looked up).
//!
//! Bits are read least significant first within each byte. Past the end
//! of a stream every bit reads 1 and every code of order `k` reads
//! `2^k - 1`, so a truncated stream still ends the loops whose codes are
//! of order 1 or more, rather than hanging.

/// A position in a bit stream.
#[derive(Clone)]
pub(crate) struct Bits {
    data: &'static [u8],
    at: usize,
}

impl Bits {
    /// The start of `data`.
    pub(crate) const fn new(data: &'static [u8]) -> Bits {
        Bits { data, at: 0 }
    }

    /// Bit `at` of `data`.
    pub(crate) const fn at(data: &'static [u8], at: usize) -> Bits {
        Bits { data, at }
    }

    /// Which bit is next.
    pub(crate) const fn position(&self) -> usize {
        self.at
    }

    /// The next 64 bits from the current one on (ones past the end: the
    /// tables end in eight bytes of ones, so every code's window is in
    /// them), `n` of them taken.
    #[inline(never)]
    fn take(&mut self, n: u32) -> u64 {
        let w = match self.data.get(self.at >> 3..).and_then(|rest| rest.first_chunk::<8>()) {
            Some(bytes) => u64::from_le_bytes(*bytes) >> (self.at & 7),
            None => u64::MAX,
        };
        self.at += n as usize;
        w
    }

    /// The next bit.
    pub(crate) fn bit(&mut self) -> u32 {
        self.take(1) as u32 & 1
    }

    /// An Exp-Golomb code of order `k`: `z` zeros, a one (the top bit of
    /// `v + 2^k`), then its `z + k` lower bits, least significant first;
    /// read from one eight-byte window, not bit by bit.
    #[inline(never)]
    pub(crate) fn number(&mut self, k: u32) -> u32 {
        let w = self.take(0);
        let z = w.trailing_zeros();
        let n = z + k;
        self.at += (z + 1 + n) as usize;
        let low = (w >> (z + 1)) & ((1 << n) - 1);
        (low | 1 << n) as u32 - (1 << k)
    }

    /// A sign bit (1: negative) and then a [`number`](Bits::number), as a
    /// two's complement `u32` (to be added with `wrapping_add`).
    pub(crate) fn signed(&mut self, k: u32) -> u32 {
        let negative = self.bit();
        let magnitude = self.number(k);
        if negative == 1 { magnitude.wrapping_neg() } else { magnitude }
    }
}

/// Whether `c` is in the set that `data` encodes: the lengths of the runs
/// of code points outside and inside it, alternately from 0 (outside
/// first), each less one, of order `k_out` and `k_in`. The last run ends
/// past U+10FFFF.
#[inline(never)]
pub(crate) fn contains(data: &'static [u8], c: u32, k_out: u32, k_in: u32) -> bool {
    let mut bits = Bits::new(data);
    let mut end = 0u32;
    let mut inside = false;
    loop {
        end = end.wrapping_add(bits.number(if inside { k_in } else { k_out }) + 1);
        if c < end {
            return inside;
        }
        inside = !inside;
    }
}

/// [`contains`], and the run of the set's code points, all in or all out,
/// that holds `c`: where it starts and ends (`start..end`).
#[inline(never)]
pub(crate) fn run_of(data: &'static [u8], c: u32, k_out: u32, k_in: u32) -> (bool, u32, u32) {
    let mut bits = Bits::new(data);
    let mut end = 0u32;
    let mut inside = false;
    loop {
        let start = end;
        end = end.wrapping_add(bits.number(if inside { k_in } else { k_out }) + 1);
        if c < end {
            return (inside, start, end);
        }
        inside = !inside;
    }
}
