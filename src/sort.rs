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
//! `benches/sort.sh` its work: about twice driftsort's on numbers, which
//! it buys bytes with. Nor does it look for runs already in order: a list
//! that is sorted or nearly so (records appended by date) costs n·log n
//! comparisons, where driftsort's costs about n. Finding them cost more
//! than a tenth again in bytes; a tool that sorts a long list that is
//! mostly in order, at each call, is one to keep std's `sort_by` in.
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
    // Zero-sized elements are all alike, so every order is the sorted one;
    // and a slice of them may be longer than any buffer of indices.
    if size_of::<T>() == 0 {
        return;
    }
    sort_indices(v.len(), &mut |a, b, swap| {
        if a.max(b) >= v.len() {
            false
        } else if swap {
            v.swap(a, b);
            false
        } else {
            compare(&v[a], &v[b]) == Ordering::Less
        }
    });
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

/// Sorts `0..n` by `is_less_or_swap(a, b, false)` (is element `a` less
/// than element `b`?), stably, then puts every element in its place with
/// `is_less_or_swap(a, b, true)` (swap elements `a` and `b`): a bottom-up
/// merge sort of the indices, runs of 1, 2, 4… merged from one half of a
/// buffer into the other and back, then the permutation it found, one
/// cycle at a time. One closure for both, so that it may borrow the slice
/// mutably.
#[inline(never)]
fn sort_indices(n: usize, is_less_or_swap: &mut dyn FnMut(usize, usize, bool) -> bool) {
    // 0, 1, 2…: the first half the indices in their own order, the
    // second written over before it is read.
    let mut buffer = crate::sys::counting_words(2 * n);
    let half = buffer.len() / 2;
    // The runs are read from `runs` and merged into `into`, a pair of runs
    // at a time: `left` and `right` are what is left of the pair.
    let (mut runs, mut into) = buffer.split_at_mut(half);
    let mut width = 1;
    while width < n {
        let (mut left, mut right, mut pairs): (&[u32], &[u32], &[u32]) = (&[], &[], runs);
        for slot in into.iter_mut() {
            if let ([], []) = (left, right) {
                (left, right) = pairs.split_at(width.min(pairs.len()));
                (right, pairs) = right.split_at(width.min(right.len()));
            }
            // Of two equal ones, the left one.
            *slot = match (left, right) {
                ([l, ..], [r, rest @ ..]) if is_less_or_swap(*r as usize, *l as usize, false) => {
                    right = rest;
                    *r
                }
                ([l, rest @ ..], _) => {
                    left = rest;
                    *l
                }
                (_, [r, rest @ ..]) => {
                    right = rest;
                    *r
                }
                // Both empty: never, as `into` is as long as the runs.
                _ => continue,
            };
        }
        (runs, into) = (into, runs);
        width *= 2;
    }
    // `runs[k]` is the element to put at `k`. Each place in a cycle takes
    // the element it is to hold, which is at the next place, and is marked
    // done (as itself).
    for start in 0..n {
        let mut at = start;
        while let Some(slot) = runs.get_mut(at) {
            let next = core::mem::replace(slot, at as u32) as usize;
            if next == start {
                break;
            }
            is_less_or_swap(at, next, true);
            at = next;
        }
    }
}
