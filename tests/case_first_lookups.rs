//! How many entries of the case-mapping table the first lookups of a
//! script's letters read, counted, in a process of its own so that no
//! answer is kept from another test.
//!
//! A lookup starts reading at the nearest place before the letter that
//! its direction allows: one that no entry before maps the letter, or a
//! letter past it, that way. Author trial 33's six-line summary in five
//! scripts read 26 entries per lookup, most of them passed on the way,
//! since Greek and Cyrillic sat in the shadow of pairs that map a char far
//! past their key in the other direction (ͻ and Ͻ, Ѐ and ѐ): 698 entries
//! for 27 lookups, where it now reads 215.

use std::sync::atomic::Ordering;

use subako_tiny::case;

#[test]
fn greek_cyrillic_and_armenian_letters_are_each_a_few_entries_from_a_start() {
    let entries = &subako_tiny::__test::case_table_entries;
    let scripts =
        [("Greek", '\u{386}'..='\u{3CE}'), ("Cyrillic", '\u{400}'..='\u{45F}'), ("Armenian", '\u{531}'..='\u{586}')];
    for (script, letters) in scripts {
        for (direction, map) in [("lower", case::lower as fn(char) -> case::CaseMapping), ("upper", case::upper)] {
            let (mut most, mut total, mut lookups) = (0, 0, 0);
            for c in letters.clone().filter(|c| c.to_lowercase().ne([*c]) || c.to_uppercase().ne([*c])) {
                let before = entries.load(Ordering::SeqCst);
                map(c).for_each(drop);
                let read = entries.load(Ordering::SeqCst) - before;
                (most, total, lookups) = (most.max(read), total + read, lookups + 1);
            }
            println!("{script} {direction}: {lookups} letters, {total} entries, at most {most}");
            assert!(most <= 16, "{script} {direction}: a lookup read {most} entries");
            assert!(total <= 5 * lookups, "{script} {direction}: {total} entries for {lookups} letters");
        }
    }
}
