//! What `chars::is_alphanumeric` (and so `chars::words`) costs beyond its
//! answers, counted rather than timed: a char beyond the blocks that are
//! all in or all out is looked up in the compressed table, and the run of
//! chars the lookup ends in is kept, so the other letters of a script,
//! which mostly stand in one run, need no walk of the table of their own
//! (author trial 33: a small call over a few lines in five scripts walked
//! the table once for every distinct letter, and its word count took
//! several times std's work). One test, since the count is shared.

use std::sync::atomic::Ordering;

use subako_tiny::__test::alphanumeric_table_walks as WALKS;
use subako_tiny::chars;

#[test]
fn a_scripts_letters_walk_the_table_about_once() {
    // Distinct letters, none looked up before in this process.
    let text = "Ο χρήστης ΟΔΥΣΣΕΥΣ συνδέθηκε. Превышено время ожидания запроса. Ψάξε Жук";
    let distinct = {
        let mut letters: Vec<char> = text.chars().filter(|c| !c.is_ascii()).collect();
        letters.sort_unstable();
        letters.dedup();
        letters.len()
    };
    let before = WALKS.load(Ordering::Relaxed);
    let words: Vec<&str> = chars::words(text).collect();
    let walks = WALKS.load(Ordering::Relaxed) - before;
    assert_eq!(words, text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect::<Vec<_>>());
    assert!(distinct > 30, "{distinct} distinct letters: the text proves little");
    assert!(walks <= 12, "{walks} walks of the table for {distinct} distinct letters");
}
