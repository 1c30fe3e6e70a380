//! Counting by key, in place of `BTreeMap<K, u64>` and `entry(k).or_insert(0) += 1`.
//!
//! | std | here |
//! |---|---|
//! | `*map.entry(k).or_insert(0) += 1` | [`Tally::add`] |
//! | `*map.entry(s.to_owned()).or_insert(0) += 1` | [`Tally::add_ref`]: owns the key only when it is new |
//! | `map.get(&k).copied().unwrap_or(0)` | [`Tally::get`] |
//! | `map.into_iter().collect::<Vec<_>>()` (key order) | [`Tally::sorted`] |
//! | the same, then a stable sort by count, most first | [`Tally::most_common`] |
//!
//! A [`Tally`] is a hash table of indices into a vector of `(key, count)`
//! pairs, so a key is hashed once per [`add`](Tally::add) and compared only
//! with keys whose hash agrees; `BTreeMap` compares a string key with
//! about log₂ n others on every insert. The keys come out in key order
//! only when asked, with the crate's own stable sort. The table's code is
//! the same for every key type (only hashing and comparing are compiled
//! per type). `benches/idioms/measure.sh` prints what it adds to a module
//! beside `BTreeMap`'s price.
//!
//! What it will not do: remove a key, iterate in key order without
//! sorting, or sum numbers that may be negative (its counts are `u64`:
//! for totals of money in and out by category, tally the two apart with
//! [`add_n`](Tally::add_n), one tally of amounts out and one of amounts
//! in, and subtract one [`get`](Tally::get) from the other). The hash is
//! not keyed (a module's work is the same on every run), so keys chosen
//! to share a hash, which takes intent and no ordinary text does, are
//! compared with each other: every key still counts right, but n such
//! keys take about n²/2 comparisons. Where an adversary may choose
//! thousands of distinct keys in one call, sort them with
//! [`sort::sort`](crate::sort::sort) and count the runs, which takes
//! n·log n whatever they are.
//!
//! # Examples
//! ```
//! use subako_tiny::tally::Tally;
//!
//! let mut words = Tally::new();
//! for word in "the cat and the hat and the bat".split(' ') {
//!     words.add(word);
//! }
//! assert_eq!(words.get("the"), 3);
//! assert_eq!(words.get("dog"), 0);
//! assert_eq!(words.most_common()[..3], [("the", 3), ("and", 2), ("bat", 1)]);
//! ```

use core::borrow::Borrow;
use core::hash::{Hash, Hasher};

use alloc::borrow::ToOwned;
use alloc::vec::Vec;

/// Counts of distinct keys.
#[derive(Clone, Debug)]
pub struct Tally<K> {
    /// Open addressing, probed linearly: 0 for an empty slot, else the
    /// key's hash in the high 32 bits and its index in `entries` plus one
    /// in the low 32. Its length is 0 or a power of two, at most three
    /// quarters full.
    slots: Vec<u64>,
    /// Each distinct key with its count, in the order first added.
    entries: Vec<(K, u64)>,
}

impl<K> Default for Tally<K> {
    fn default() -> Self {
        Tally::new()
    }
}

impl<K> Tally<K> {
    /// An empty tally; it allocates on the first [`add`](Tally::add).
    ///
    /// # Examples
    /// ```
    /// let tally: subako_tiny::tally::Tally<&str> = subako_tiny::tally::Tally::new();
    /// assert!(tally.is_empty());
    /// ```
    pub const fn new() -> Tally<K> {
        Tally { slots: Vec::new(), entries: Vec::new() }
    }

    /// The number of distinct keys.
    ///
    /// # Examples
    /// ```
    /// let mut tally = subako_tiny::tally::Tally::new();
    /// tally.add('a');
    /// tally.add('a');
    /// tally.add('b');
    /// assert_eq!(tally.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no key was added.
    ///
    /// # Examples
    /// ```
    /// let mut tally = subako_tiny::tally::Tally::new();
    /// assert!(tally.is_empty());
    /// tally.add(7);
    /// assert!(!tally.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Each key with its count, in the order the keys were first added.
    ///
    /// # Examples
    /// ```
    /// let mut tally = subako_tiny::tally::Tally::new();
    /// for c in "banana".chars() {
    ///     tally.add(c);
    /// }
    /// assert_eq!(tally.iter().collect::<Vec<_>>(), [&('b', 1), &('a', 3), &('n', 2)]);
    /// ```
    pub fn iter(&self) -> core::slice::Iter<'_, (K, u64)> {
        self.entries.iter()
    }

    /// The keys and counts, in the order the keys were first added.
    ///
    /// # Examples
    /// ```
    /// let mut tally = subako_tiny::tally::Tally::new();
    /// tally.add("b");
    /// tally.add("a");
    /// tally.add("b");
    /// assert_eq!(tally.into_vec(), [("b", 2), ("a", 1)]);
    /// ```
    pub fn into_vec(self) -> Vec<(K, u64)> {
        self.entries
    }
}

impl<K: Hash + Eq> Tally<K> {
    /// Counts `key` once more.
    ///
    /// # Examples
    /// ```
    /// let mut tally = subako_tiny::tally::Tally::new();
    /// tally.add(String::from("tea"));
    /// tally.add(String::from("tea"));
    /// assert_eq!(tally.get("tea"), 2);
    /// ```
    pub fn add(&mut self, key: K) {
        self.add_n(key, 1);
    }

    /// Counts `key` `n` times more (a count stops at `u64::MAX`).
    ///
    /// # Examples
    /// ```
    /// let mut tally = subako_tiny::tally::Tally::new();
    /// tally.add_n("tea", 5);
    /// tally.add("tea");
    /// assert_eq!(tally.get("tea"), 6);
    /// ```
    pub fn add_n(&mut self, key: K, n: u64) {
        self.count::<K, K>(key, n, |key| key);
    }

    /// Counts the key `key` borrows once more, making an owned key only
    /// when it is new: a `Tally<String>` fed `&str`s borrowed from a line
    /// allocates once per distinct key, not once per line.
    ///
    /// # Examples
    /// ```
    /// let mut tally: subako_tiny::tally::Tally<String> = subako_tiny::tally::Tally::new();
    /// let line = String::from("GET /a GET /b GET /a");
    /// for word in line.split(' ') {
    ///     tally.add_ref(word);
    /// }
    /// assert_eq!(tally.get("GET"), 3);
    /// assert_eq!(tally.most_common(), [(String::from("GET"), 3), (String::from("/a"), 2), (String::from("/b"), 1)]);
    /// ```
    pub fn add_ref<Q>(&mut self, key: &Q)
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        self.count(key, 1, Q::to_owned);
    }

    /// Counts the key that `key` is `n` times more, its entry made by
    /// `owned` when it is new.
    fn count<Q: Hash + Eq + ?Sized, R: Borrow<Q>>(&mut self, key: R, n: u64, owned: impl FnOnce(R) -> K)
    where
        K: Borrow<Q>,
    {
        let hash = hash_of(key.borrow());
        let entries = &mut self.entries;
        match probe(&self.slots, hash, &mut |i| entries.get(i).is_some_and(|(k, _)| k.borrow() == key.borrow())) {
            Ok(i) => {
                if let Some((_, count)) = entries.get_mut(i) {
                    *count = count.saturating_add(n);
                }
            }
            Err(_) => {
                push_entry(entries, owned(key), n);
                insert(&mut self.slots, hash, entries.len());
            }
        }
    }

    /// How many times `key` was counted: 0 for a key never added.
    ///
    /// # Examples
    /// ```
    /// let mut tally = subako_tiny::tally::Tally::new();
    /// tally.add(String::from("tea"));
    /// assert_eq!(tally.get("tea"), 1);
    /// assert_eq!(tally.get("coffee"), 0);
    /// ```
    pub fn get<Q>(&self, key: &Q) -> u64
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let entries = &self.entries;
        match probe(&self.slots, hash_of(key), &mut |i| entries.get(i).is_some_and(|(k, _)| k.borrow() == key)) {
            Ok(i) => entries.get(i).map_or(0, |&(_, count)| count),
            Err(_) => 0,
        }
    }
}

/// A new key's entry, at the end. Not inlined: the `Vec`'s growth is then
/// called from the crate's code, not from the author's function that
/// `add` was inlined into, where `subako-tiny size` would advise against
/// growing a `Vec`.
#[inline(never)]
fn push_entry<K>(entries: &mut Vec<(K, u64)>, key: K, n: u64) {
    entries.push((key, n));
}

impl<K: Ord> Tally<K> {
    /// The keys and counts in key order: what iterating a `BTreeMap` of
    /// the counts gives.
    ///
    /// # Examples
    /// ```
    /// let mut tally = subako_tiny::tally::Tally::new();
    /// for word in ["pear", "fig", "pear", "apple"] {
    ///     tally.add(word);
    /// }
    /// assert_eq!(tally.sorted(), [("apple", 1), ("fig", 1), ("pear", 2)]);
    /// ```
    pub fn sorted(self) -> Vec<(K, u64)> {
        let mut entries = self.entries;
        crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
        entries
    }

    /// The keys and counts, the most counted first, equal counts in key
    /// order: [`sorted`](Tally::sorted), then a stable sort by count from
    /// the most.
    ///
    /// # Examples
    /// ```
    /// let mut tally = subako_tiny::tally::Tally::new();
    /// for word in ["pear", "fig", "pear", "apple", "fig", "kiwi"] {
    ///     tally.add(word);
    /// }
    /// assert_eq!(tally.most_common(), [("fig", 2), ("pear", 2), ("apple", 1), ("kiwi", 1)]);
    /// ```
    pub fn most_common(self) -> Vec<(K, u64)> {
        let mut entries = self.entries;
        // Keys are distinct: this order is total, so one sort gives what
        // the two stable sorts give.
        crate::sort::sort_by(&mut entries, |a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        entries
    }
}

impl<K: Hash + Eq> Extend<K> for Tally<K> {
    fn extend<I: IntoIterator<Item = K>>(&mut self, keys: I) {
        for key in keys {
            self.add(key);
        }
    }
}

impl<K: Hash + Eq> FromIterator<K> for Tally<K> {
    /// # Examples
    /// ```
    /// use subako_tiny::tally::Tally;
    ///
    /// let tally: Tally<char> = "hello".chars().collect();
    /// assert_eq!(tally.get(&'l'), 2);
    /// ```
    fn from_iter<I: IntoIterator<Item = K>>(keys: I) -> Self {
        let mut tally = Tally::new();
        tally.extend(keys);
        tally
    }
}

/// A key's hash: the high half of an FxHash-style product, which mixes
/// better than its low half.
fn hash_of<Q: Hash + ?Sized>(key: &Q) -> u32 {
    let mut hasher = Fx(0);
    key.hash(&mut hasher);
    (hasher.0 >> 32) as u32
}

/// FxHash's round (rotate, xor, multiply), eight bytes at a time.
struct Fx(u64);

impl Fx {
    fn round(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while let Some((word, next)) = rest.split_first_chunk::<8>() {
            self.round(u64::from_le_bytes(*word));
            rest = next;
        }
        if !rest.is_empty() {
            let mut last = [0; 8];
            last[..rest.len()].copy_from_slice(rest);
            // The length too, so that a tail of zero bytes still counts.
            self.round(u64::from_le_bytes(last) ^ (rest.len() as u64) << 59);
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.round(u64::from(byte));
    }

    fn write_u32(&mut self, n: u32) {
        self.round(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.round(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.round(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The index in the entries of the key with `hash` that `is_key` accepts,
/// or the empty slot where it would go. The same code for every key type.
#[inline(never)]
fn probe(slots: &[u64], hash: u32, is_key: &mut dyn FnMut(usize) -> bool) -> Result<usize, usize> {
    let mask = slots.len().wrapping_sub(1);
    let mut at = first_slot(hash, slots.len());
    while let Some(&slot) = slots.get(at) {
        #[cfg(test)]
        tests::PROBES.with(|p| p.set(p.get() + 1));
        if slot == 0 {
            return Err(at);
        }
        let index = (slot as u32 as usize).wrapping_sub(1);
        if (slot >> 32) as u32 == hash && is_key(index) {
            return Ok(index);
        }
        at = (at + 1) & mask;
    }
    // No table yet.
    Err(0)
}

/// The slot a key of `hash` is looked for from in a table of `len`: the
/// hash's top bits, which depend on all of the key (the product that
/// makes the hash carries a key's low bits up, never down). Its low bits
/// were taken: keys whose own low bits are all zero, as `f64::to_bits` of
/// whole numbers are, then shared a slot (review 100: 40,000 of them took
/// 426 probes a key).
fn first_slot(hash: u32, len: usize) -> usize {
    // Spread by the golden ratio first (Fibonacci hashing): the hash of
    // consecutive integers steps by about 7/22 of its range, whose top
    // bits alone fall in 22 runs.
    ((u64::from(hash.wrapping_mul(0x9E37_79B9)) * len as u64) >> 32) as usize
}

/// Records that entry `number` (its index plus one) has `hash`, growing
/// the table first when it would be more than three quarters full.
#[inline(never)]
fn insert(slots: &mut Vec<u64>, hash: u32, number: usize) {
    if number * 4 > slots.len() * 3 {
        let old = core::mem::replace(slots, alloc::vec![0; (slots.len() * 2).max(16)]);
        for slot in old.into_iter().filter(|&slot| slot != 0) {
            place(slots, slot);
        }
    }
    place(slots, u64::from(hash) << 32 | number as u64);
}

/// Puts `slot` in the first empty slot from its hash on (there is one: the
/// table is never full).
fn place(slots: &mut [u64], slot: u64) {
    let mask = slots.len().wrapping_sub(1);
    let mut at = first_slot((slot >> 32) as u32, slots.len());
    while let Some(s) = slots.get_mut(at) {
        if *s == 0 {
            *s = slot;
            return;
        }
        at = (at + 1) & mask;
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use core::cell::Cell;

    use super::Tally;

    std::thread_local! {
        /// Slots [`super::probe`] looked at, on this thread.
        pub(super) static PROBES: Cell<usize> = const { Cell::new(0) };
    }

    /// Keys whose low bits are all zero (`f64::to_bits` of whole numbers,
    /// multiples of a power of two) spread over the table as others do
    /// (review 100: they shared a slot, 426 probes a key at 40,000).
    #[test]
    fn keys_with_low_zero_bits_spread() {
        for keys in [
            (0..40_000u64).map(|i| (i as f64).to_bits()).collect::<alloc::vec::Vec<_>>(),
            (0..40_000u64).map(|i| i << 40).collect(),
            (0..40_000u64).collect(),
        ] {
            PROBES.with(|p| p.set(0));
            let mut tally = Tally::new();
            for &key in &keys {
                tally.add(key);
                tally.add(key);
            }
            let probes = PROBES.with(Cell::get);
            std::eprintln!("{probes} probes for {} adds", 2 * keys.len());
            assert!(probes < 4 * 2 * keys.len(), "{probes} probes for {} adds", 2 * keys.len());
            assert_eq!(tally.len(), keys.len());
            assert!(keys.iter().all(|k| tally.get(k) == 2));
        }
    }
}
