//! Stable sorting with std's order, in a few hundred bytes.
//!
//! | std | here | what it costs a module |
//! |---|---|---|
//! | `v.sort()` | [`sort`] | a merge sort of indices, about a tenth of std's driftsort |
//! | `v.sort_by(\|a, b\| …)` | [`sort_by`] | the same code |
//! | `v.sort_by_key(\|x\| …)` | [`sort_by_key`] | the same code |
//!
//! Each leaves the slice in the order std's stable sort leaves it in, for
//! any comparison that is a total order (equal elements keep their order).
//! The sort orders the elements' indices (a bottom-up merge sort: n·log n
//! comparisons at most, two `u32` buffers of the slice's length), then
//! moves the elements into place with swaps: no element is moved until
//! every comparison is made, so a comparison that panics leaves the slice
//! as it was, and nothing is ever dropped twice or lost. The code that
//! sorts is the same for every element type (only the comparison and the
//! swap are compiled per type), so a module that sorts several types pays
//! for it once. `benches/idioms/measure.sh` prints its price beside std's,
//! `benches/sort.sh` its work: about three times driftsort's on numbers,
//! which it buys bytes with.
//!
//! # Examples
//! ```
//! let mut words = ["pear", "Apple", "fig", "apple"];
//! subako_tiny::sort::sort(&mut words);
//! assert_eq!(words, ["Apple", "apple", "fig", "pear"]);
//!
//! let mut people = [("Ada", 36), ("Grace", 85), ("Alan", 41), ("Edsger", 72)];
//! subako_tiny::sort::sort_by_key(&mut people, |p| p.1 / 10);
//! assert_eq!(people, [("Ada", 36), ("Alan", 41), ("Edsger", 72), ("Grace", 85)]);
//! ```

use core::cmp::Ordering;

use alloc::vec::Vec;

/// `v.sort()`: ascending, stable.
///
/// # Examples
/// ```
/// let mut v = vec![3, 1, 2, 1];
/// subako_tiny::sort::sort(&mut v);
/// assert_eq!(v, [1, 1, 2, 3]);
/// ```
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// `v.sort_by(compare)`: stable, by `compare`.
///
/// # Examples
/// ```
/// let mut v = vec!["b", "A", "a", "B"];
/// subako_tiny::sort::sort_by(&mut v, |a, b| a.to_ascii_lowercase().cmp(&b.to_ascii_lowercase()));
/// assert_eq!(v, ["A", "a", "b", "B"]);
/// ```
pub fn sort_by<T, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], mut compare: F) {
    let n = v.len();
    let (mut buffer, from) = {
        let items: &[T] = v;
        sorted_order(n, &mut |a, b| match (items.get(a), items.get(b)) {
            (Some(x), Some(y)) => compare(x, y) == Ordering::Less,
            _ => false,
        })
    };
    permute(&mut buffer, from, n, &mut |a, b| swap(v, a, b));
}

/// `v.sort_by_key(key)`: stable, by `key` (called for each comparison, as
/// std does).
///
/// # Examples
/// ```
/// let mut v = vec![-3, 2, -1, 1];
/// subako_tiny::sort::sort_by_key(&mut v, |x: &i32| x.abs());
/// assert_eq!(v, [-1, 1, 2, -3]);
/// ```
pub fn sort_by_key<T, K: Ord, F: FnMut(&T) -> K>(v: &mut [T], mut key: F) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Swaps `v[a]` and `v[b]` (nothing when out of bounds).
fn swap<T>(v: &mut [T], a: usize, b: usize) {
    if a.max(b) < v.len() {
        v.swap(a, b);
    }
}

/// The indices `0..n` in the order that sorts them by `is_less`, stably,
/// and where in the buffer returned they start: a bottom-up merge sort,
/// runs of 1, 2, 4… merged from one half of the buffer into the other and
/// back.
#[inline(never)]
fn sorted_order(n: usize, is_less: &mut dyn FnMut(usize, usize) -> bool) -> (Vec<u32>, usize) {
    // 0, 1, 2…: the first half the indices in their own order, the
    // second written over before it is read.
    let mut buffer = crate::sys::counting_words(2 * n);
    // The runs are read from `from..from + n` and written to the other half.
    let mut from = 0;
    let mut width = 1;
    while width < n {
        let into = n - from;
        let mut out = 0;
        while out < n {
            let (mut i, mid) = (out, (out + width).min(n));
            let (mut j, hi) = (mid, (mid + width).min(n));
            while out < hi {
                let left = buffer.get(from + i).copied().unwrap_or(0);
                let right = buffer.get(from + j).copied().unwrap_or(0);
                // The right one only when it is less: equal ones keep their order.
                let take_right = i >= mid || j < hi && is_less(right as usize, left as usize);
                if let Some(slot) = buffer.get_mut(into + out) {
                    *slot = if take_right { right } else { left };
                }
                if take_right {
                    j += 1;
                } else {
                    i += 1;
                }
                out += 1;
            }
        }
        from = into;
        width *= 2;
    }
    (buffer, from)
}

/// Puts the element at `order[k]` at `k`, for every `k < n`, where
/// `order` is `buffer` from `from` on, with `swap(a, b)`, one cycle of the
/// permutation at a time.
#[inline(never)]
fn permute(buffer: &mut [u32], from: usize, n: usize, swap: &mut dyn FnMut(usize, usize)) {
    for start in 0..n {
        let mut at = start;
        // Each place in the cycle takes the element it is to hold, which
        // is at the next place; each place is marked done (as itself).
        while let Some(slot) = buffer.get_mut(from + at) {
            let next = core::mem::replace(slot, at as u32) as usize;
            if next == start {
                break;
            }
            swap(at, next);
            at = next;
        }
    }
}
