//! What `case::to_lowercase` and `to_uppercase` cost beyond their
//! answers, counted rather than timed:
//!
//! - memory: long text is mapped in one block of about its size, as std
//!   maps it, rather than a doubling series of blocks (trial 16:
//!   lowercasing one 17.8 MB record needed twice the memory std's
//!   `to_lowercase` needs, since the last doubling holds the old block
//!   beside one up to twice the text's size), measured with a counting
//!   allocator: the most bytes live at once while the mapping runs;
//! - table reads: a letter's mapping is read from the compressed table
//!   about once per text, however often it recurs, and the final-sigma
//!   rule, which asks for both mappings of each char beside a Σ, does not
//!   read it again each time, nor the case-ignorable table for a letter or
//!   an accent beside it (trial 16: capital Greek with Σ cost 2.5 times
//!   std's work, and Σ between runs of combining accents 200 times);
//! - search candidates: `find_ignore_case` compares the needle only at the
//!   chars that can begin a match (trial 33: a needle beginning with `i`
//!   or `k` was compared at every char beyond ASCII, which doubled the
//!   search of Japanese text for "istanbul").
//!
//! The tests share the crate's cache of answers and the counts, so they
//! run one at a time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use subako_tiny::case;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::SeqCst) + by;
    PEAK.fetch_max(live, Ordering::SeqCst);
}

// SAFETY: every call is passed on to `System` unchanged; the counts are
// only read by the test.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Counted as a move: both blocks live while the bytes are copied.
        grew(new_size);
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes `f` holds at once beyond what was live before it.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let out = f();
    (out, PEAK.load(Ordering::SeqCst) - before)
}

/// A mapping of a whole string.
type Mapping = fn(&str) -> String;

/// Both mappings, the crate's and std's.
const MAPPINGS: [(&str, Mapping, Mapping); 2] =
    [("to_lowercase", case::to_lowercase, str::to_lowercase), ("to_uppercase", case::to_uppercase, str::to_uppercase)];

/// One test at a time: the counts are the process's.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_long_text_is_mapped_in_one_block_of_about_its_size() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let texts = [
        ("ASCII", "The Quick Brown Fox, ".repeat(200_000)),
        ("Japanese", "東京の天気は晴れ。".repeat(150_000)),
        ("Greek capitals with Σ", "ΟΔΥΣΣΕΥΣ ΑΘΗΝΑ ".repeat(130_000)),
    ];
    for (what, text) in &texts {
        for (mapping, map, _) in MAPPINGS {
            let (mapped, peak) = peak_of(|| map(text));
            assert_eq!(mapped.len(), text.len(), "{what}: {mapping} keeps the length");
            // An eighth of slack, as the crate's buffers take for one large
            // reservation; a doubling series peaks at one and a half times.
            assert!(
                peak <= text.len() + text.len() / 8 + 64,
                "{what}: {mapping} of {} bytes held {peak} bytes at once",
                text.len()
            );
        }
    }
}

/// Table reads while `f` runs.
fn walks_of<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let walks = &subako_tiny::__test::case_table_walks;
    let before = walks.load(Ordering::SeqCst);
    let out = f();
    (out, walks.load(Ordering::SeqCst) - before)
}

#[test]
fn each_letter_is_read_from_the_table_about_once_per_text() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let texts = [
        ("capital Greek with Σ", "ΟΔΥΣΣΕΥΣ ΑΘΗΝΑ ΛΟΓΟΣ ΣΑΣ ΛΕΣ ".repeat(500)),
        ("Σ between combining accents", format!("Σ{}", "\u{301}".repeat(50)).repeat(200)),
        ("Cyrillic", "Привет мир Добрый день ".repeat(500)),
        ("Σ beside CJK punctuation", "ΟΔΥΣ。ΛΟΓΟΣ、ΣΑΣ」 ".repeat(500)),
    ];
    for (what, text) in &texts {
        each_char_is_read_about_once(what, text);
    }
}

/// Maps `text` both ways, as std does, reading the table for each
/// distinct char in each direction a few times over at most (answers that
/// share a set), never once per occurrence.
fn each_char_is_read_about_once(what: &str, text: &str) {
    for (mapping, map, std_map) in MAPPINGS {
        let (mapped, walks) = walks_of(|| map(text));
        assert_eq!(mapped, std_map(text), "{what}: {mapping} is std's");
        let distinct = text.chars().collect::<std::collections::BTreeSet<_>>().len() as u64;
        assert!(
            walks <= 4 * distinct,
            "{what}: {mapping} read the table {walks} times for {distinct} distinct chars in {} chars",
            text.chars().count()
        );
    }
}

/// A letter with no mapping in the direction asked (a small letter
/// lowercased) is found so by reading the table up to the next entry; the
/// chars from it to that entry have none either, so the script's other
/// such letters need no read of their own (author trial 33: a six-line
/// log lowercased in five scripts read the table once for every distinct
/// small letter, and its search cost 1.1 times the official module's).
/// Scripts no other test here reads, so that no answer is kept already.
#[test]
fn a_scripts_letters_without_a_mapping_share_a_read() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let scripts = [
        ("Glagolitic small letters", '\u{2C30}'..='\u{2C5F}'),
        ("Cherokee small letters", '\u{AB70}'..='\u{ABBF}'),
        ("Deseret small letters", '\u{10428}'..='\u{1044F}'),
    ];
    for (what, letters) in scripts {
        let text: String = letters.collect();
        let (lowered, walks) = walks_of(|| case::to_lowercase(&text));
        assert_eq!(lowered, text.to_lowercase(), "{what}");
        assert_eq!(lowered, text, "{what}: small letters lowercase to themselves");
        assert!(walks <= 3, "{what}: {walks} reads of the table for {} letters", text.chars().count());
    }
}

#[test]
fn two_scripts_mixed_in_one_text_each_read_their_letters_about_once() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // Author trial 23: a column alternating `łódź` and `чай` read the table
    // at every letter (their letters shared the one slot each had), 15
    // times std's work; `Æ` and `υ` alone, 18 times.
    let alternating =
        [("łódź and чай", ["łódź", "чай"]), ("Ærø and ευχαριστώ", ["Ærø", "ευχαριστώ"]), ("Æ and υ", ["Æ", "υ"])];
    let scripts: [(&str, Vec<char>); 5] = [
        ("Latin-1", ('\u{C0}'..='\u{FF}').filter(|c| c.is_alphabetic()).collect()),
        ("Latin Extended-A", ('\u{100}'..='\u{17F}').collect()),
        ("Greek", ('\u{391}'..='\u{3C9}').filter(|c| c.is_alphabetic()).collect()),
        ("Cyrillic", ('\u{400}'..='\u{45F}').collect()),
        ("Armenian", ('\u{531}'..='\u{586}').filter(|c| c.is_alphabetic()).collect()),
    ];
    let mut texts: Vec<(String, String)> =
        alternating.iter().map(|(what, [a, b])| (what.to_string(), format!("{a} {b} ").repeat(2000))).collect();
    for (i, (a, left)) in scripts.iter().enumerate() {
        for (b, right) in &scripts[i + 1..] {
            // Each letter of one beside each of the other, in turn, twenty times.
            let n = left.len().max(right.len());
            let once: String = (0..n).flat_map(|k| [left[k % left.len()], right[k % right.len()]]).collect();
            texts.push((format!("{a} and {b}"), once.repeat(20)));
        }
    }
    for (what, text) in &texts {
        each_char_is_read_about_once(what, text);
    }
}

#[test]
fn a_search_compares_only_at_chars_that_can_begin_a_match() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let candidates = &subako_tiny::__test::case_search_candidates;
    let count = |haystack: &str, needle: &str| {
        let before = candidates.load(Ordering::SeqCst);
        let found = case::find_ignore_case(haystack, needle);
        assert_eq!(found.is_some(), haystack.to_lowercase().contains(&needle.to_lowercase()), "{needle}");
        candidates.load(Ordering::SeqCst) - before
    };
    // Counting compares at the same chars, through the whole text, and
    // lowers no other (trial 42: it lowered every char and stepped a table
    // of the needle with it, more work than std's).
    let lowered = &subako_tiny::__test::case_chars_lowered;
    let counted = |haystack: &str, needle: &str| {
        let (before, lowered_before) = (candidates.load(Ordering::SeqCst), lowered.load(Ordering::SeqCst));
        let n = case::count_ignore_case(haystack, needle);
        assert_eq!(n, haystack.to_lowercase().matches(&needle.to_lowercase()).count(), "{needle}");
        let compared = candidates.load(Ordering::SeqCst) - before;
        // Each candidate lowers a char or two (İ), the needle's too.
        let most = 3 * compared + 2 * needle.chars().count() as u64 + 2;
        let read = lowered.load(Ordering::SeqCst) - lowered_before;
        assert!(read <= most, "{needle}: {read} chars lowered for {compared} candidates");
        compared
    };
    // Japanese with a little Latin: only `i`, `I`, `K`, `k` and the chars
    // that share İ's or the Kelvin sign's first byte (ā…Ŀ, and U+2000…U+2FFF,
    // here an ellipsis) can begin a match of a needle that begins with `i`
    // or `k` (the ellipsis is one of the Kelvin sign's); a needle found in
    // the first line stops there.
    let text = "東京の天気は晴れです。データベース…".repeat(1_000) + "İstanbul, Ķekava and Kyoto are not here: kİ";
    for (needle, most) in [("istanbul", 11), ("kyoto", 1_000 + 11), ("zzz", 1), ("データ", 11)] {
        let n = count(&text, needle);
        assert!(n <= most, "{needle}: compared at {n} chars");
    }
    // Every char that can begin a match, once: 1,000 ellipses and a few
    // Latin letters for `i` and `k`, the chars that share `デ`'s first
    // byte (most kana), none for `zzz` (the end).
    let kana = text.bytes().filter(|&b| b == "デ".as_bytes()[0]).count() as u64;
    for (needle, most) in [("istanbul", 1_000 + 12), ("kyoto", 1_000 + 12), ("zzz", 1), ("データ", kana + 1)] {
        let n = counted(&text, needle);
        assert!(n <= most, "{needle}: counted with comparisons at {n} chars");
    }
}

/// Every char's first lookup reads at most a hundred entries of the
/// mapping table (a few dozen for most), from the nearest place a reading
/// may start at before it, not up to all 300 (trial 33: a six-line log in
/// five scripts searched at five times the official module's work, every
/// letter's first lookup reading the table from its start).
#[test]
fn a_first_lookup_reads_a_few_dozen_entries() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let entries = &subako_tiny::__test::case_table_entries;
    let (mut most, mut at) = (0, '\0');
    for c in ('\u{80}'..='\u{1E943}').filter(|c| c.to_lowercase().ne([*c]) || c.to_uppercase().ne([*c])) {
        for map in [case::lower, case::upper] {
            let before = entries.load(Ordering::SeqCst);
            map(c).for_each(drop);
            let read = entries.load(Ordering::SeqCst) - before;
            if read > most {
                (most, at) = (read, c);
            }
        }
    }
    assert!(most <= 96, "{at:?} (U+{:04X}) read {most} entries", at as u32);
}
