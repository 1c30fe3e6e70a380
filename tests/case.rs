//! `subako_tiny::case` against std: every scalar value through
//! `char::to_lowercase`/`to_uppercase`, strings of every script and every
//! final-sigma context through `str::to_lowercase`/`to_uppercase`, the
//! case-insensitive comparisons through their std definitions.
//!
//! And the tables themselves: `src/case/tables.rs` is what
//! [`tables_source`] makes from this toolchain's std. After a toolchain
//! change (a new Unicode version) write them again with
//! `SUBAKO_WRITE_TABLES=1 cargo test -p subako-tiny --test case tables`.
//!
//! Release builds (`cargo test --release -p subako-tiny --test case`) or
//! `CASE_ALL=1` go through every scalar value; a debug build through a
//! sample (every one below U+3000, where most case mappings are, and every
//! 17th above; in strings, below U+0400 and every 997th).
//! `CASE_CASES=N` sets how many random strings are compared (default 200;
//! 50,000 in release builds), `CASE_SEED=S` their seed.

use subako_tiny::case;

mod common;
use common::{Rng, env};
#[path = "common/bits.rs"]
mod bits;
use bits::{BitWriter, byte_table, write_or_check};

fn scalar_values() -> impl Iterator<Item = char> {
    (0..=0x10FFFF).filter_map(char::from_u32)
}

/// Every scalar value, or in a quick run a sample: every one below
/// `dense` and every `step`th above (see the module docs).
fn sampled(dense: u32, step: u32) -> impl Iterator<Item = char> {
    let all = !cfg!(debug_assertions) || std::env::var_os("CASE_ALL").is_some();
    scalar_values().filter(move |&c| all || (c as u32) < dense || (c as u32).is_multiple_of(step))
}

// ---------------------------------------------------------------------------
// The generator.

/// One entry of the mapping table (see `map` in `src/case/mod.rs`).
#[derive(Clone, Debug)]
struct Entry {
    kind: u8,
    /// The first source, which is the key but for kind 3: `U` for kinds 1
    /// and 3, `U + d` for kind 2, the lowercase char for kind 0.
    source: u32,
    count: u32,
    stride: u32,
    /// Kinds 1–3: `L - U`; kind 0: the first char's offset from the source.
    d: i64,
    /// Kind 0: the further chars.
    tail: Vec<u32>,
}

impl Entry {
    fn key(&self) -> u32 {
        match self.kind {
            3 => self.source.min((self.source as i64 + self.d) as u32),
            _ => self.source,
        }
    }

    /// The entry's first source in direction `upper` (the char whose
    /// uppercase it gives, else whose lowercase), if it maps any that way.
    fn first_source(&self, upper: bool) -> Option<u32> {
        match (self.kind, upper) {
            (1 | 3, false) | (0 | 2, true) => Some(self.source),
            (3, true) => Some((self.source as i64 + self.d) as u32),
            _ => None,
        }
    }

    /// One past the highest char the entry maps in direction `upper`; 0
    /// when it maps none that way.
    fn sources_end(&self, upper: bool) -> u32 {
        self.first_source(upper).map_or(0, |first| first + (self.count - 1) * self.stride + 1)
    }

    /// Whether `c` is one of the entry's sources, and which.
    fn extends(&self, c: u32, d: i64, tail: &[u32]) -> bool {
        if self.d != d || self.tail != tail || c <= self.source {
            return false;
        }
        let step = c - self.source;
        if self.count == 1 { step <= 2 } else { step == self.count * self.stride }
    }
}

fn one(mut it: impl Iterator<Item = char>) -> Option<char> {
    let first = it.next()?;
    it.next().is_none().then_some(first)
}

/// How far apart the two chars of a pair whose entry maps both may be.
const FAR: i64 = 0x1000;

/// The mapping table's entries, from std.
fn entries() -> Vec<Entry> {
    let mut lists: [Vec<(u32, i64, Vec<u32>)>; 4] = Default::default();
    // ASCII: `map` answers it without the table.
    for c in scalar_values().filter(|c| !c.is_ascii()) {
        let lower = one(c.to_lowercase());
        let upper = one(c.to_uppercase());
        match lower {
            Some(l) if l != c => {
                let both = one(l.to_uppercase()) == Some(c);
                let d = l as i64 - c as i64;
                // A pair far apart is two entries, one at each source, so
                // that no entry maps a char far past its key (where a
                // lookup may start: MAP_STARTS).
                if both && d.abs() < FAR {
                    lists[3].push((c as u32, d, vec![]));
                } else {
                    lists[1].push((c as u32, d, vec![]));
                    if both {
                        lists[2].push((l as u32, d, vec![]));
                    }
                }
            }
            Some(_) => {}
            // The one lowercase of more than one char, written in the code.
            None => assert_eq!((c, c.to_lowercase().collect::<String>()), ('\u{130}', "i\u{307}".into())),
        }
        match upper {
            Some(u) if u != c => {
                if one(u.to_lowercase()) != Some(c) {
                    lists[2].push((c as u32, c as i64 - u as i64, vec![]));
                }
            }
            Some(_) => {}
            None => {
                let chars: Vec<u32> = c.to_uppercase().map(|x| x as u32).collect();
                assert!(chars.len() <= 3);
                lists[0].push((c as u32, chars[0] as i64 - c as i64, chars[1..].to_vec()));
            }
        }
    }
    let mut entries = vec![];
    for (kind, list) in lists.iter_mut().enumerate() {
        list.sort_by_key(|&(source, _, _)| source);
        let mut runs: Vec<Entry> = vec![];
        for (source, d, tail) in list {
            if let Some(run) = runs.last_mut().filter(|run| run.extends(*source, *d, tail)) {
                run.stride = (*source - run.source) / run.count;
                run.count += 1;
                continue;
            }
            runs.push(Entry { kind: kind as u8, source: *source, count: 1, stride: 1, d: *d, tail: tail.clone() });
        }
        entries.extend(runs);
    }
    entries.sort_by_key(|e| (e.key(), e.kind));
    entries
}

/// The parameters of the mapping table's codes.
#[derive(Clone, Copy, Debug)]
struct MapOrders {
    gap: u32,
    count: u32,
    delta: u32,
    multi: u32,
    tail: u32,
}

/// The mapping table and its starts, as [`encode_map`] writes them.
type Map = (Vec<u8>, Vec<u64>);

/// How many places a lookup may start at in the mapping table.
const MAP_STARTS: usize = 12;

/// For each place a lookup may start at (before entry `i`, `i` from 1)
/// and direction (lower, upper): the first char a lookup from there may
/// ask for, as `walk` tests it: past the key before, and past every char
/// an entry before maps that way.
fn start_ends(entries: &[Entry]) -> Vec<[u32; 2]> {
    let mut ends = vec![[0, 0]];
    let mut mapped = [0u32; 2];
    for pair in entries.windows(2) {
        for (d, end) in mapped.iter_mut().enumerate() {
            *end = (*end).max(pair[0].sources_end(d == 1));
        }
        let past_key = pair[0].key() + 1;
        ends.push([mapped[0].max(past_key), mapped[1].max(past_key)]);
    }
    ends
}

/// The entries to put a start before: chosen one at a time, each the one
/// that most cuts the entries read, summed over the first lookup, in each
/// direction, of every char with a case mapping beyond ASCII (a letter);
/// the letters below U+0530 (Latin, Greek, Cyrillic, where most text with
/// case is) count four times. A start before entry `s` serves a lookup of `c` when
/// no entry before it maps `c` or a char past it that way.
fn choose_starts(entries: &[Entry]) -> Vec<usize> {
    let ends = start_ends(entries);
    let end = entries.iter().map(|e| e.sources_end(false).max(e.sources_end(true))).max().unwrap();
    // For each lookup: the last start that serves it, the entry it stops
    // at (the first that maps `c`, or whose key is past it), its weight.
    let mut lookups: Vec<(usize, usize, u64)> = vec![];
    let mut letters = vec![false; end as usize];
    for e in entries {
        for upper in [false, true] {
            let Some(first) = e.first_source(upper) else { continue };
            for n in 0..e.count {
                letters[(first + n * e.stride) as usize] = true;
            }
        }
    }
    for upper in [false, true] {
        let mut first_mapping = vec![usize::MAX; end as usize];
        for (i, e) in entries.iter().enumerate() {
            let Some(first) = e.first_source(upper) else { continue };
            for n in 0..e.count {
                let slot = &mut first_mapping[(first + n * e.stride) as usize];
                *slot = (*slot).min(i);
            }
        }
        let (mut past, mut last) = (0, 0);
        for c in 0x80..end {
            while past < entries.len() && entries[past].key() <= c {
                past += 1;
            }
            while last + 1 < ends.len() && ends[last + 1][upper as usize] <= c {
                last += 1;
            }
            let stop = past.min(first_mapping[c as usize]);
            if !letters[c as usize] {
                continue;
            }
            lookups.push((last.min(stop), stop, if c < 0x530 { 4 } else { 1 }));
        }
    }
    let mut chosen: Vec<usize> = vec![];
    for _ in 0..MAP_STARTS {
        // What a start before each entry would save: for a lookup whose
        // nearest chosen start is `p` and which a start before `q` still
        // serves, `s - p` entries for each `s` in `p + 1..=q`, summed with
        // two difference arrays (the weights, and the weights times `p`).
        let mut weight = vec![0i64; entries.len() + 2];
        let mut weighted = vec![0i64; entries.len() + 2];
        for &(serves, _, w) in &lookups {
            let p = chosen.iter().copied().filter(|&s| s <= serves).max().unwrap_or(0);
            if p < serves {
                weight[p + 1] += w as i64;
                weight[serves + 1] -= w as i64;
                weighted[p + 1] += (w * p as u64) as i64;
                weighted[serves + 1] -= (w * p as u64) as i64;
            }
        }
        let (mut w, mut wp, mut best) = (0i64, 0i64, (0i64, 0usize));
        for s in 1..entries.len() {
            w += weight[s];
            wp += weighted[s];
            let saved = w * s as i64 - wp;
            if saved > best.0 {
                best = (saved, s);
            }
        }
        if best.0 == 0 {
            break;
        }
        chosen.push(best.1);
    }
    chosen.sort();
    let read: u64 = lookups
        .iter()
        .map(|&(serves, stop, w)| {
            w * (stop + 1 - chosen.iter().copied().filter(|&s| s <= serves).max().unwrap_or(0)) as u64
        })
        .sum();
    if std::env::var_os("CASE_STARTS").is_some() {
        eprintln!("{} starts: {read} entries read, weighted, over every first lookup", chosen.len());
    }
    chosen
}

/// The mapping table, and its starts: before each entry of `starts`,
/// where a lookup may begin reading (`src/case/mod.rs`'s `walk`), the
/// differences carried from entry to entry are set to 0 again. Each start
/// packs, as `walk` reads them: from bit 48 and from bit 32, how far past
/// the key before the first char a lookup from there may ask for is,
/// uppercase and lowercase; from bit 13 the key before; the bit.
fn encode_map(entries: &[Entry], at: &[usize], k: MapOrders) -> Map {
    let ends = start_ends(entries);
    let mut w = BitWriter::default();
    let mut key = 0;
    let mut multi = 0;
    let mut last = 0;
    let mut starts = vec![];
    for (i, e) in entries.iter().enumerate() {
        if at.contains(&i) {
            let [lower, upper] = ends[i].map(|end| end - key);
            assert!(key < 1 << 19 && w.len < 1 << 13 && lower < 1 << 16 && upper < 1 << 16);
            starts.push(u64::from(upper) << 48 | u64::from(lower) << 32 | u64::from(key) << 13 | w.len as u64);
            (multi, last) = (0, 0);
        }
        w.number((e.key() - key) as u64, k.gap);
        key = e.key();
        w.bit(e.kind & 1 == 1);
        w.bit(e.kind & 2 == 2);
        w.number(e.count as u64 - 1, k.count);
        if e.count > 1 {
            assert!(e.stride == 1 || e.stride == 2);
            w.bit(e.stride == 2);
        }
        if e.kind == 0 {
            w.signed(e.d - multi, k.multi);
            multi = e.d;
            assert!(matches!(e.tail.len(), 1 | 2));
            w.bit(e.tail.len() == 2);
            let mut last = e.source as i64 + e.d;
            for &t in &e.tail {
                w.signed(t as i64 - last, k.tail);
                last = t as i64;
            }
        } else {
            w.bit(e.d == 1);
            if e.d != 1 {
                w.signed(e.d - last, k.delta);
                last = e.d;
            }
        }
    }
    // Past every scalar value: the end.
    w.number((0x11_0000 - key) as u64, k.gap);
    (w.finish(), starts)
}

/// The runs of a set of code points, outside and inside alternately from
/// 0 (the first outside), as `src/bits.rs`'s `contains` reads them, with
/// the orders that make them shortest. Code points `ignored` are in
/// whichever run holds them.
fn encode_set(inside: &dyn Fn(u32) -> bool, ignored: &dyn Fn(u32) -> bool) -> (Vec<u8>, u32, u32) {
    let mut runs = vec![];
    let mut start = 0;
    let mut state = false;
    for cp in 0..=0x11_0000 {
        // What is never asked about goes with the run it is in.
        if cp < 0x11_0000 && ignored(cp) {
            continue;
        }
        let now = cp < 0x11_0000 && inside(cp);
        if now != state {
            runs.push(cp - start);
            start = cp;
            state = now;
        }
    }
    runs.push(0x11_0000 - start + 1);
    assert!(runs.iter().all(|&r| r > 0));
    let encode = |k_out: u32, k_in: u32| {
        let mut w = BitWriter::default();
        for (i, &r) in runs.iter().enumerate() {
            w.number(r as u64 - 1, if i % 2 == 0 { k_out } else { k_in });
        }
        w.finish()
    };
    let (k_out, k_in) =
        (0..12).flat_map(|o| (0..12).map(move |i| (o, i))).min_by_key(|&(o, i)| encode(o, i).len()).unwrap();
    (encode(k_out, k_in), k_out, k_in)
}

/// Whether std's final-sigma rule skips `c` (Case_Ignorable), and whether
/// it counts `c` as cased when it does not: read off `str::to_lowercase`.
fn sigma_classes(c: char) -> (bool, bool) {
    let alone = [c, 'Σ'].iter().collect::<String>().to_lowercase().ends_with('ς');
    let after_cased = ['A', c, 'Σ'].iter().collect::<String>().to_lowercase().ends_with('ς');
    // alone: not ignorable and cased; after_cased: ignorable or cased.
    (after_cased && !alone, alone)
}

/// `src/case/tables.rs`, made from this toolchain's std.
fn tables_source() -> String {
    let entries = entries();
    let at = choose_starts(&entries);
    let mut best: Option<(Map, MapOrders)> = None;
    for gap in 1..6 {
        for count in 0..3 {
            for delta in 0..10 {
                for multi in 0..8 {
                    for tail in 0..8 {
                        let k = MapOrders { gap, count, delta, multi, tail };
                        let bytes = encode_map(&entries, &at, k);
                        if best.as_ref().is_none_or(|(b, _)| bytes.0.len() < b.0.len()) {
                            best = Some((bytes, k));
                        }
                    }
                }
            }
        }
    }
    let ((map, starts), k) = best.unwrap();

    // Where nothing maps, for lookups to skip the table: past the last
    // char with a mapping, and the 512-char blocks of the BMP with none.
    let mapped: Vec<u32> = scalar_values()
        .filter(|&c| one(c.to_lowercase()) != Some(c) || one(c.to_uppercase()) != Some(c))
        .map(|c| c as u32)
        .collect();
    let end = mapped.last().unwrap() + 1;
    let unmapped_blocks = (0..128).filter(|&b| !mapped.iter().any(|&c| c >> 9 == b)).fold(0u128, |m, b| m | 1 << b);

    let mut ignorable = vec![false; 0x11_0000];
    let mut cased_unmapped = vec![false; 0x11_0000];
    // What `cased_beside` never asks CASED_UNMAPPED about.
    let mut asked_elsewhere = vec![true; 0x11_0000];
    for c in scalar_values() {
        let (skip, cased) = sigma_classes(c);
        let mapped = one(c.to_lowercase()) != Some(c) || one(c.to_uppercase()) != Some(c);
        // The code reads "cased" as mapped or in CASED_UNMAPPED, for what
        // is not ignorable.
        assert!(skip || cased || !mapped, "{c:?} has a case mapping but is not cased");
        // `cased_beside` answers a char with a mapping as cased, but for
        // U+0345, and the combining diacritical marks as case-ignorable.
        assert_eq!(skip && mapped, c == '\u{345}', "{c:?}: case-ignorable with a case mapping");
        assert!(skip || !('\u{300}'..'\u{370}').contains(&c), "{c:?} is not case-ignorable");
        ignorable[c as usize] = skip;
        cased_unmapped[c as usize] = cased && !mapped;
        asked_elsewhere[c as usize] = skip || mapped;
    }
    let (ignorable, ig_out, ig_in) = encode_set(&|cp| ignorable[cp as usize], &|_| false);
    let (cased, ca_out, ca_in) = encode_set(&|cp| cased_unmapped[cp as usize], &|cp| asked_elsewhere[cp as usize]);

    let bytes = byte_table;
    let (major, minor, update) = char::UNICODE_VERSION;
    let mut s = String::new();
    s += "//! Generated by `tests/case.rs` from the toolchain's std (`char::to_lowercase`,\n";
    s += "//! `char::to_uppercase`, `str::to_lowercase`): do not edit. Write it again with\n";
    s += "//! `SUBAKO_WRITE_TABLES=1 cargo test -p subako-tiny --test case tables`.\n\n";
    s += "/// The Unicode version of the std these were made from.\n";
    s += &format!("pub(super) const UNICODE_VERSION: (u8, u8, u8) = ({major}, {minor}, {update});\n\n");
    s += "/// The orders of [`MAP`]'s codes.\n";
    s += &format!("pub(super) const MAP_GAP: u32 = {};\n", k.gap);
    s += &format!("pub(super) const MAP_COUNT: u32 = {};\n", k.count);
    s += &format!("pub(super) const MAP_DELTA: u32 = {};\n", k.delta);
    s += &format!("pub(super) const MAP_MULTI: u32 = {};\n", k.multi);
    s += &format!("pub(super) const MAP_TAIL: u32 = {};\n\n", k.tail);
    s += &bytes("MAP", "/// The case mappings (`super::map` reads them).", &map);
    s += "\n/// Where a lookup in [`MAP`] may begin: how far past the key before the\n\
          /// first char a lookup from there may ask for is, uppercase (from bit\n\
          /// 48) and lowercase (from bit 32); the key before (from bit 13); the bit.\n";
    s += &format!("pub(super) static MAP_STARTS: [u64; {}] = [\n", starts.len());
    for start in &starts {
        s += &format!("    {start:#X},\n");
    }
    s += "];\n";
    s += "\n/// One past the last char with a case mapping.\n";
    s += &format!("pub(super) const END: u32 = {end:#X};\n\n");
    s += "/// The 512-char blocks of the BMP with no case mapping, a bit each.\n";
    s += &format!(
        "pub(super) const UNMAPPED_BLOCKS: [u64; 2] = [{:#018X}, {:#018X}];\n",
        unmapped_blocks as u64,
        (unmapped_blocks >> 64) as u64
    );
    s += "\n/// The orders of [`IGNORABLE`]'s runs.\n";
    s += &format!("pub(super) const IGNORABLE_OUT: u32 = {ig_out};\n");
    s += &format!("pub(super) const IGNORABLE_IN: u32 = {ig_in};\n\n");
    s += &bytes("IGNORABLE", "/// Case_Ignorable: what the final-sigma rule skips.", &ignorable);
    s += "\n/// The orders of [`CASED_UNMAPPED`]'s runs.\n";
    s += &format!("pub(super) const CASED_UNMAPPED_OUT: u32 = {ca_out};\n");
    s += &format!("pub(super) const CASED_UNMAPPED_IN: u32 = {ca_in};\n\n");
    s += &bytes(
        "CASED_UNMAPPED",
        "/// Cased chars with no case mapping (all with one are cased), among those\n\
         /// that are not case-ignorable (the rest are not asked about).",
        &cased,
    );
    s
}

#[test]
fn tables_are_std_s() {
    write_or_check("src/case/tables.rs", &tables_source(), "case");
    assert_eq!(case::UNICODE_VERSION, char::UNICODE_VERSION);
}

// ---------------------------------------------------------------------------
// The answers.

#[test]
fn every_scalar_value() {
    for c in sampled(0x3000, 17) {
        assert!(case::lower(c).eq(c.to_lowercase()), "lower({c:?} U+{:04X})", c as u32);
        assert!(case::upper(c).eq(c.to_uppercase()), "upper({c:?} U+{:04X})", c as u32);
        assert_eq!(case::lower(c).len(), c.to_lowercase().len());
        assert_eq!(case::upper(c).len(), c.to_uppercase().len());
    }
    // Downwards too: the run of a table entry kept from the last read in
    // each direction is entered at its end, and each of its first chars
    // is asked before the one below it.
    for c in sampled(0x3000, 17).collect::<Vec<_>>().into_iter().rev() {
        assert!(case::lower(c).eq(c.to_lowercase()), "lower({c:?} U+{:04X})", c as u32);
        assert!(case::upper(c).eq(c.to_uppercase()), "upper({c:?} U+{:04X})", c as u32);
    }
}

/// `case` keeps what it finds in the table, in 256 slots by char: an
/// answer kept, or put out by another char's and found again, is the
/// answer, in either direction and in any order.
#[test]
fn kept_answers_are_std_s() {
    let mapped: Vec<char> =
        sampled(0x3000, 17).filter(|&c| c.to_lowercase().ne([c]) || c.to_uppercase().ne([c])).collect();
    for (i, &c) in mapped.iter().enumerate() {
        // The next char in the same slot (`src/case/mod.rs` picks it by
        // the char's low byte crossed with its next).
        let slot = |d: u32| (d ^ d >> 8) & 255;
        let rival = (c as u32 + 1..=0x10FFFF)
            .filter_map(char::from_u32)
            .find(|&d| slot(d as u32) == slot(c as u32))
            .unwrap_or(c);
        let other = mapped[(i * 7 + 3) % mapped.len()];
        for d in [c, rival, c, other, c, rival] {
            assert!(case::lower(d).eq(d.to_lowercase()), "lower({d:?}) after {c:?}");
            assert!(case::upper(d).eq(d.to_uppercase()), "upper({d:?}) after {c:?}");
        }
    }
}

fn check(s: &str) {
    assert_eq!(case::to_lowercase(s), s.to_lowercase(), "to_lowercase({s:?})");
    assert_eq!(case::to_uppercase(s), s.to_uppercase(), "to_uppercase({s:?})");
}

/// Every scalar value's string alone, and beside a capital sigma either
/// side, and between two: the first three tell whether the final-sigma
/// rule skips it and whether it counts as cased.
#[test]
fn every_scalar_value_in_strings() {
    let mut s = String::new();
    for c in sampled(0x400, 997) {
        for shape in [&[c, 'Σ'][..], &['A', c, 'Σ'], &['Σ', c, 'a'], &[c], &['Σ', c], &['Σ', c, 'Σ']] {
            s.clear();
            s.extend(shape);
            check(&s);
        }
    }
}

#[test]
fn final_sigma_in_every_context() {
    for s in [
        "Σ",
        "ΣΣ",
        "ΣΣΣ",
        "ΑΣ",
        "ΑΣ ",
        "ΑΣΑ",
        "ΑΣ.",
        "ΑΣ'",
        "Α'Σ",
        "ΑΣ'Α",
        "Α.Σ",
        "Α.Σ.Α",
        "ΑΣ\u{301}",
        "ΑΣ\u{301}Α",
        "Α\u{301}Σ",
        "\u{301}Σ",
        "ΑΣ\u{301}\u{301}\u{301}",
        "Α\u{301}\u{345}\u{301}Σ",
        "ΑΣ1",
        "1Σ",
        "aΣ",
        "aΣb",
        "ªΣ",
        "ʰΣ",
        "Σʰ",
        "ΑʰΣ",
        "ΑΣʰ",
        "ΑΣʰb",
        "ΟΔΥΣΣΕΥΣ",
        "ΣΑΣ ΛΕΣ ΟΣΟ",
        "ὈΔΥΣΣΕΎΣ",
        "ΘΑΛΑΣΣΑ, ΘΑΛΑΣΣΕΣ!",
        "\u{10400}Σ",
        "Σ\u{10400}",
        "\u{1D400}Σ",
        "ǅΣ",
        "ΣǄ",
        "\u{E0001}Σ",
        "Α\u{E0001}Σ",
        "ΑΣ\u{E0001}",
        "ΑΣ\u{E0001}b",
        "日Σ",
        "Α日Σ",
        "ΑΣ日",
    ] {
        check(s);
    }
}

#[test]
fn scripts() {
    for s in [
        "",
        "hello, WORLD 123",
        "Grüße aus KÖLN, straße, ẞ",
        "İstanbul, ıİiI, DİYARBAKIR",
        "日本語のテキスト、カタカナ、ＡＢＣｄｅｆ",
        "ΚΑΛΗΜΈΡΑ κόσμε, ΐΰ ᾳᾼῃῌῳῼ ᾀᾈ ᾷ ῗ",
        "ქართული ᲥᲐᲠᲗᲣᲚᲘ",
        "ᏣᎳᎩ ꮳꮃꭹ Ᏸ ᏸ",
        "Ꭰ ꭰ ſ ß ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ ﬓ ﬔ ﬕ ﬖ ﬗ և ŉ ǰ ẖ ẗ ẘ ẙ ẚ",
        "K Å Ω ℌ ⅰ Ⅰ ⓐ Ⓐ ꞵ Ꞵ 𐐀 𐐨 𞤀 𞤢",
        "ǅǄǆ ǈǇǉ ǋǊǌ ǲǱǳ",
        "Кириллица ЁЛКА ӀӏꙊ",
        "Հայերեն ԵՒ",
        "\u{0}\u{7F}\u{80}\u{FFFF}\u{10FFFF}",
    ] {
        check(s);
    }
}

/// Random strings from a pool rich in what is mapped, ignorable or cased.
fn random_string(rng: &mut Rng, pool: &[char]) -> String {
    let len = rng.below(12);
    (0..len)
        .map(|_| match rng.below(8) {
            0 => char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('Σ'),
            1 => 'Σ',
            _ => pool[rng.below(pool.len())],
        })
        .collect()
}

fn pool() -> Vec<char> {
    let mut pool: Vec<char> = concat!(
        "aAzZ .,'`:^-_0ΣσςΑΩάΌ\u{301}\u{345}\u{307}ʰªİıiIßẞſK日本ᲥაᏣꮳǅ\u{E0001}\u{200D}\u{AD}",
        "\u{483}\u{5BF}\u{610}\u{93C}\u{E31}\u{1AB0}\u{1DC0}\u{20D0}\u{FE00}\u{FE20}\u{1D167}ˆ˜·׳\u{2019}\u{2024}ℓ℘ⓐⒶ𝐀𝔞ꝰ",
    )
    .chars()
    .collect();
    // Every 7th char with a case mapping.
    pool.extend(
        scalar_values()
            .filter(|&c| c.to_lowercase().ne([c]) || c.to_uppercase().ne([c]))
            .filter(|&c| (c as u32).is_multiple_of(7)),
    );
    pool
}

/// Long runs of ASCII, which `to_lowercase` and `to_uppercase` pass eight
/// bytes a turn: the bytes beside each letter range (`@`, `[`, `` ` ``,
/// `{`) and the letters at its ends, at every place in a word and across
/// words, with chars beyond ASCII (CJK and Hangul too, passed without
/// decoding) now and then.
#[test]
fn ascii_runs_at_every_place() {
    const ASCII: &[u8] = b"aAzZ@[`{09 \x7f\x00mM";
    const OTHER: [char; 9] = ['é', 'İ', 'Σ', '東', 'ß', 'ǅ', '\u{212A}', '한', '\u{FF21}'];
    let mut rng = Rng(env("CASE_SEED", 0xA5C11));
    for _ in 0..env("CASE_ASCII", if cfg!(debug_assertions) { 2_000 } else { 100_000 }) {
        let len = rng.below(40);
        let s: String =
            (0..len)
                .map(|_| {
                    if rng.below(10) == 0 {
                        OTHER[rng.below(OTHER.len())]
                    } else {
                        ASCII[rng.below(ASCII.len())] as char
                    }
                })
                .collect();
        check(&s);
    }
}

#[test]
fn random_strings() {
    let cases = env("CASE_CASES", if cfg!(debug_assertions) { 200 } else { 50_000 });
    let mut rng = Rng(env("CASE_SEED", 0xCA5E));
    let pool = pool();
    for _ in 0..cases {
        let a = random_string(&mut rng, &pool);
        check(&a);
        let b = if rng.below(2) == 0 { random_string(&mut rng, &pool) } else { a.to_uppercase() };
        // Every substring of the needles now and then.
        if rng.below(16) == 0 {
            compare(&a, &b);
        } else {
            compare_whole(&a, &b);
        }
        compare_whole(&a, &a.to_lowercase());
    }
}

/// find_ignore_case's definition, with std: the char of `h` whose
/// lowercase holds the first byte of `n.to_lowercase()`'s first match in
/// `h.to_lowercase()`.
fn find_reference(h: &str, n: &str) -> Option<usize> {
    let lowered = h.to_lowercase();
    let at = lowered.find(&n.to_lowercase())?;
    if n.is_empty() {
        return Some(0);
    }
    // Where each char of `h` lands in `lowered`: its own lowercase, except
    // that a Σ's is decided by the whole string (one char either way).
    let mut end = 0;
    for (i, c) in h.char_indices() {
        end += if c == 'Σ' { 'σ'.len_utf8() } else { c.to_lowercase().map(char::len_utf8).sum() };
        if at < end {
            return Some(i);
        }
    }
    unreachable!()
}

/// find_range_ignore_case's definition, with std: from the char of `h`
/// whose lowercase holds the first byte of `n.to_lowercase()`'s first
/// match in `h.to_lowercase()` to the end of the one holding its last.
fn find_range_reference(h: &str, n: &str) -> Option<std::ops::Range<usize>> {
    let lowered = h.to_lowercase();
    let needle = n.to_lowercase();
    let at = lowered.find(&needle)?;
    if n.is_empty() {
        return Some(0..0);
    }
    let (mut start, mut end) = (None, 0);
    for (i, c) in h.char_indices() {
        end += if c == 'Σ' { 'σ'.len_utf8() } else { c.to_lowercase().map(char::len_utf8).sum() };
        if at < end {
            start.get_or_insert(i);
        }
        if at + needle.len() <= end {
            return Some(start.unwrap()..i + c.len_utf8());
        }
    }
    unreachable!()
}

fn compare(a: &str, b: &str) {
    compare_whole(a, b);
    for (h, n) in [(a, b), (b, a)] {
        // Every substring of the needle, found in the haystack.
        let ends: Vec<usize> = n.char_indices().map(|(i, _)| i).chain([n.len()]).collect();
        for (x, &i) in ends.iter().enumerate() {
            for &j in &ends[x..] {
                let sub = &n[i..j];
                assert_eq!(case::find_ignore_case(h, sub), find_reference(h, sub), "find_ignore_case({h:?}, {sub:?})");
                assert_eq!(
                    case::find_range_ignore_case(h, sub),
                    find_range_reference(h, sub),
                    "find_range_ignore_case({h:?}, {sub:?})"
                );
                assert_eq!(
                    case::count_ignore_case(h, sub),
                    count_reference(h, sub),
                    "count_ignore_case({h:?}, {sub:?})"
                );
            }
        }
    }
}

/// The comparisons of `a` and `b` as wholes.
fn compare_whole(a: &str, b: &str) {
    assert_eq!(case::eq_ignore_case(a, b), a.to_lowercase() == b.to_lowercase(), "eq_ignore_case({a:?}, {b:?})");
    for (h, n) in [(a, b), (b, a)] {
        let want = find_reference(h, n);
        assert_eq!(case::find_ignore_case(h, n), want, "find_ignore_case({h:?}, {n:?})");
        assert_eq!(case::find_ignore_case_linear(h, n), want, "find_ignore_case_linear({h:?}, {n:?})");
        let range = find_range_reference(h, n);
        assert_eq!(case::find_range_ignore_case(h, n), range, "find_range_ignore_case({h:?}, {n:?})");
        assert_eq!(case::find_range_ignore_case_linear(h, n), range, "find_range_ignore_case_linear({h:?}, {n:?})");
        assert_eq!(case::contains_ignore_case(h, n), want.is_some());
        let count = count_reference(h, n);
        assert_eq!(case::count_ignore_case(h, n), count, "count_ignore_case({h:?}, {n:?})");
        assert_eq!(case::count_ignore_case_linear(h, n), count, "count_ignore_case_linear({h:?}, {n:?})");
    }
}

/// count_ignore_case's definition, with std.
fn count_reference(h: &str, n: &str) -> usize {
    h.to_lowercase().matches(&n.to_lowercase()).count()
}

/// Long partial matches, over an alphabet of the chars whose lowercase is
/// special (İ, the Kelvin sign, Σ and its neighbours): the inputs on which
/// `find_ignore_case` turns to its linear search, both paths held to std's
/// answer. Needles are cut from the haystack (or its other case), some
/// with one char changed.
#[test]
fn long_partial_matches_find_what_std_finds() {
    const ALPHABET: [&str; 10] = ["a", "A", "İ", "i", "\u{307}", "Σ", "σ", "ς", "\u{212A}", " "];
    let mut rng = Rng(env("CASE_SEED", 0x5EA2C4));
    for _ in 0..env("CASE_LONG", 400) {
        // Mostly one letter, so that partial matches run long.
        let len = 50 + rng.below(400);
        let h: String = (0..len).map(|_| if rng.below(6) == 0 { ALPHABET[rng.below(10)] } else { "a" }).collect();
        let chars: Vec<(usize, char)> = h.char_indices().collect();
        let from = rng.below(chars.len());
        let to = (from + 1 + rng.below(120)).min(chars.len());
        let end = chars.get(to).map_or(h.len(), |&(i, _)| i);
        let mut n = h[chars[from].0..end].to_string();
        if rng.below(2) == 0 {
            n = n.to_uppercase();
        }
        if rng.below(3) == 0 {
            n.push_str(ALPHABET[rng.below(10)]);
        }
        let want = find_reference(&h, &n);
        assert_eq!(case::find_ignore_case(&h, &n), want, "find_ignore_case({h:?}, {n:?})");
        assert_eq!(case::find_ignore_case_linear(&h, &n), want, "find_ignore_case_linear({h:?}, {n:?})");
        let range = find_range_reference(&h, &n);
        assert_eq!(case::find_range_ignore_case(&h, &n), range, "find_range_ignore_case({h:?}, {n:?})");
        assert_eq!(case::find_range_ignore_case_linear(&h, &n), range, "find_range_ignore_case_linear({h:?}, {n:?})");
        // Counted, the needle's overlaps and near misses (the lone
        // letter's partial matches, İ's two halves) too.
        for n in [n.as_str(), &n[..n.char_indices().nth(1).map_or(n.len(), |(i, _)| i)], "aa", "AİA", "\u{307}"] {
            let count = count_reference(&h, n);
            assert_eq!(case::count_ignore_case(&h, n), count, "count_ignore_case({h:?}, {n:?})");
            assert_eq!(case::count_ignore_case_linear(&h, n), count, "count_ignore_case_linear({h:?}, {n:?})");
        }
    }
    // The shape that made comparing at each candidate slow.
    let h = "a".repeat(20_000);
    for n in [format!("{}b", "a".repeat(300)), "A".repeat(300), format!("{}İ", "a".repeat(50))] {
        assert_eq!(case::find_ignore_case(&h, &n), find_reference(&h, &n), "{n}");
        assert_eq!(case::find_range_ignore_case(&h, &n), find_range_reference(&h, &n), "{n}");
        assert_eq!(case::count_ignore_case(&h, &n), count_reference(&h, &n), "{n}");
    }
}

/// What `find_ignore_case` skips by: of the chars other than ASCII, only
/// İ and the Kelvin sign lowercase to something that begins with ASCII.
/// What `to_lowercase` and `to_uppercase` pass without decoding: the
/// chars whose UTF-8 begins with 0xE3 to 0xE9 or 0xEB to 0xED (U+3000 to
/// U+9FFF, U+B000 to U+D7FF: CJK and Hangul) are each their own case.
#[test]
fn cjk_and_hangul_have_no_case_mapping() {
    for c in (0x3000..=0x9FFF).chain(0xB000..=0xD7FF).filter_map(char::from_u32) {
        let lead = c.to_string().as_bytes()[0];
        assert!(matches!(lead, 0xE3..=0xE9 | 0xEB..=0xED), "{c:?} begins with {lead:#x}");
        assert!(c.to_lowercase().eq([c]) && c.to_uppercase().eq([c]), "{c:?} has a case mapping");
    }
}

#[test]
fn only_two_chars_beyond_ascii_lowercase_to_ascii() {
    let to_ascii: Vec<char> =
        (0x80..=0x10FFFF).filter_map(char::from_u32).filter(|c| c.to_lowercase().next().unwrap().is_ascii()).collect();
    assert_eq!(to_ascii, ['\u{130}', '\u{212A}']);
}

/// What `find_ignore_case` looks for when the needle's lowercase begins
/// beyond ASCII: a char whose lowercase holds such a char `f` begins with
/// `f`'s first byte or its uppercase's, but for these five, whose first
/// bytes the search adds.
#[test]
fn five_chars_beyond_ascii_begin_with_a_byte_of_their_own() {
    let lead = |c: char| c.to_string().as_bytes()[0];
    let mut own = vec![];
    for y in (0x80..=0x10FFFF).filter_map(char::from_u32) {
        for f in y.to_lowercase().filter(|f| !f.is_ascii()) {
            let upper = f.to_uppercase().next().unwrap();
            if lead(y) != lead(f) && lead(y) != lead(upper) {
                own.push((y, f));
            }
        }
    }
    assert_eq!(own, [('\u{130}', '\u{307}'), ('ϴ', 'θ'), ('ẞ', 'ß'), ('\u{2126}', 'ω'), ('\u{212B}', 'å')]);
}

/// Every char beyond ASCII is found by each char of its lowercase, in CJK
/// text (whose bytes the search passes a word at a time).
#[test]
fn every_char_is_found_by_its_lowercase_among_other_scripts() {
    for y in sampled(0x3000, 17).filter(|y| !y.is_ascii()) {
        let h = format!("日本語のテキストと{y}z");
        for f in y.to_lowercase() {
            let n = f.to_string();
            assert_eq!(case::find_ignore_case(&h, &n), find_reference(&h, &n), "find_ignore_case({h:?}, {n:?})");
            let found = case::find_range_ignore_case(&h, &n);
            assert_eq!(found, find_range_reference(&h, &n), "find_range_ignore_case({h:?}, {n:?})");
            assert_eq!(&h[found.unwrap()], y.to_string(), "find_range_ignore_case({h:?}, {n:?})");
        }
    }
}

#[test]
fn comparisons() {
    for (a, b) in [
        ("", ""),
        ("", "a"),
        ("abc", "ABC"),
        ("Straße", "STRASSE"),
        ("ΌΣΟΣ", "όσος"),
        ("ΌΣΟΣ", "όσοσ"),
        ("ΑΣ Α", "ας α"),
        ("İ", "i\u{307}"),
        ("İ", "i"),
        ("xİy", "\u{307}y"),
        ("xİy", "i\u{307}Y"),
        ("K", "k"),
        ("Ω", "ω"),
        ("ǅ", "ǆ"),
        ("Hello, Wörld", "WÖR"),
        ("ΟΔΟΣ ΟΔΟΣ", "ος"),
        ("ΟΔΟΣΑ", "οσα"),
        ("aaaaab", "aab"),
        // Past eight ASCII bytes (a word the search passes whole) to a
        // match, and to chars other than ASCII whose lowercase begins one.
        ("The quick brown fox jumps over the LAZY dog", "lazy"),
        ("The quick brown fox jumps over the LAZY dog", "dog"),
        ("xxxxxxxxxxxxxxxxxxxxxxxİx", "i\u{307}x"),
        ("xxxxxxxxxxxxxxxxxxxxxxxİx", "\u{307}"),
        ("the absolute temperature is 300 \u{212A}", "k"),
        ("the absolute temperature is 300 \u{212A}elvin", "KELVIN"),
        ("xxxxxxxxxxxxxxxxxxxxxxxİ", "i"),
        ("mostly ASCII text, 桜の木の下で Straße", "STRASSE"),
        ("0123456789012345678901234567890123456789", "89012"),
    ] {
        compare(a, b);
    }
}

/// `original_offsets` maps every offset of std's lowercase, ascending, to
/// the char of the text whose lowercase holds it, on random text with the
/// chars whose lowercase is longer (İ) or shorter (the Kelvin sign) than
/// they are, final sigmas and scripts of each UTF-8 length: where std's
/// `to_lowercase` of each char, one after another, puts it.
#[test]
fn original_offsets_map_the_lowercase_back_to_the_text() {
    const POOL: &[char] = &[
        'a',
        'Z',
        ' ',
        'İ',
        '\u{212A}',
        'Σ',
        'σ',
        'ς',
        'ẞ',
        'ß',
        'Ä',
        'é',
        '日',
        'カ',
        'Ω',
        '\u{1E900}',
        '😀',
        '\u{301}',
    ];
    let mut rng = Rng(0x0ff5_e7a5);
    for _ in 0..3_000 {
        let text: String = (0..rng.below(24)).map(|_| POOL[rng.below(POOL.len())]).collect();
        let lower = text.to_lowercase();
        // Where each byte of the lowercase comes from, char by char.
        let mut from = Vec::new();
        for (at, c) in text.char_indices() {
            from.extend(std::iter::repeat_n(at, c.to_lowercase().map(char::len_utf8).sum()));
        }
        assert_eq!(from.len(), lower.len(), "{text:?}");
        let mut offsets: Vec<usize> = (0..lower.len() + 3).collect();
        case::original_offsets(&text, &mut offsets);
        let expected: Vec<usize> = (0..lower.len() + 3).map(|o| from.get(o).copied().unwrap_or(text.len())).collect();
        assert_eq!(offsets, expected, "{text:?}");
        // A few of them, as a search finds them.
        let mut some: Vec<usize> = (0..lower.len()).filter(|_| rng.below(4) == 0).collect();
        let wanted: Vec<usize> = some.iter().map(|&o| from[o]).collect();
        case::original_offsets(&text, &mut some);
        assert_eq!(some, wanted, "{text:?}");
    }
}
