//! `json::lines` finds each line's end while it validates the line, in one
//! pass: the values it yields are exactly those of splitting the text at
//! every newline and parsing each line on its own, on random JSON Lines
//! text with values across lines, white space, `\r\n`, empty and cut-short
//! lines, and bad bytes (`LINES_CASES=N`, `LINES_SEED=S`). So are the
//! members `Lines::fields` takes as it checks each line: those of parsing
//! each line and looking them up in the object. And `skipped` counts the
//! lines that are not blank and hold no value (for `fields`, no object),
//! a line that starts with a byte order mark among them. `containing`
//! yields the values of the lines that hold its needle, as splitting and
//! searching each line finds them.

use subako_tiny::json;

/// The values of `text` as the line reader must find them.
fn by_splitting(text: &[u8]) -> Vec<&[u8]> {
    split(text).filter_map(|line| json::parse(line).ok()).map(|v| v.raw()).collect()
}

/// The lines of `text`.
fn split(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(|&c| c == b'\n')
}

/// How many lines of `text` are not blank and hold no value, or (with
/// `objects`) no object.
fn skipped_by_splitting(text: &[u8], objects: bool) -> usize {
    split(text)
        .filter(|line| !line.iter().all(|b| b" \t\r".contains(b)))
        .filter(|line| json::parse(line).map_or(true, |v| objects && v.as_object().is_none()))
        .count()
}

/// The members `Lines::fields` asks for: a duplicate, one named with an
/// escape in the pieces below, one no line has.
const KEYS: [&str; 5] = ["id", "title", "tags", "id", "nowhere"];

/// Keys none of which is there twice (a name is then looked for until it
/// is found, from the key after the last one found), in another order
/// than the lines' members.
const DISTINCT: [&str; 4] = ["title", "nowhere", "id", "tags"];

/// Where each of `values` is in `text`.
fn places(text: &[u8], values: &[Option<&[u8]>]) -> Vec<Option<(usize, usize)>> {
    values.iter().map(|v| v.map(|r| (r.as_ptr() as usize - text.as_ptr() as usize, r.len()))).collect()
}

/// Asserts `json::lines(text)` yields [`by_splitting`]'s values, the same
/// bytes at the same places, and that `fields` takes the members that
/// looking them up in those values finds.
fn check(text: &[u8]) {
    let ours: Vec<Option<&[u8]>> = json::lines(text).map(|v| Some(v.raw())).collect();
    let theirs: Vec<Option<&[u8]>> = by_splitting(text).into_iter().map(Some).collect();
    let shown = String::from_utf8_lossy(text);
    assert_eq!(places(text, &ours), places(text, &theirs), "in {shown:?}");

    let ours: Vec<_> =
        json::lines(text).fields(KEYS).map(|found| places(text, &found.map(|v| v.map(|v| v.raw())))).collect();
    let theirs: Vec<_> = by_splitting(text)
        .into_iter()
        .filter_map(|line| json::parse(line).unwrap().as_object())
        .map(|object| places(text, &object.fields(KEYS).map(|v| v.map(|v| v.raw()))))
        .collect();
    assert_eq!(ours, theirs, "fields in {shown:?}");
    let ours: Vec<_> =
        json::lines(text).fields(DISTINCT).map(|found| places(text, &found.map(|v| v.map(|v| v.raw())))).collect();
    let theirs: Vec<_> = by_splitting(text)
        .into_iter()
        .filter_map(|line| json::parse(line).unwrap().as_object())
        .map(|object| places(text, &DISTINCT.map(|key| object.get(key).map(|v| v.raw()))))
        .collect();
    assert_eq!(ours, theirs, "distinct fields in {shown:?}");

    // `containing`: the values of the lines that hold the needle.
    for needle in ["", "\"id\"", "note", "日本", "1", "{", "\\u", "é", "\"", "\n", "1\n"] {
        let n = needle.as_bytes();
        let ours: Vec<_> = json::lines(text).containing(needle).map(|v| Some(v.raw())).collect();
        let theirs: Vec<_> = split(text)
            .filter(|line| n.is_empty() || line.windows(n.len()).any(|w| w == n))
            .filter_map(|line| json::parse(line).ok())
            .map(|v| Some(v.raw()))
            .collect();
        assert_eq!(places(text, &ours), places(text, &theirs), "containing {needle:?} in {shown:?}");
    }

    assert_eq!(json::lines(text).skipped(), skipped_by_splitting(text, false), "skipped in {shown:?}");
    assert_eq!(
        json::lines(text).fields(KEYS).skipped(),
        skipped_by_splitting(text, true),
        "skipped objects in {shown:?}"
    );

    // Counted in the same reading: after each value, the lines passed
    // over before it; at the end, all of them; from the end, those after.
    let mut lines = json::lines(text).counting_skipped();
    while let Some(value) = lines.next() {
        let before = &text[..value.raw().as_ptr() as usize - text.as_ptr() as usize];
        assert_eq!(lines.skipped_so_far(), skipped_by_splitting(before, false), "so far in {shown:?}");
    }
    assert_eq!(lines.skipped_so_far(), skipped_by_splitting(text, false), "all in {shown:?}");
    let mut back = json::lines(text).counting_skipped();
    while let Some(value) = back.next_back() {
        let after = &text[value.raw().as_ptr() as usize - text.as_ptr() as usize + value.raw().len()..];
        let after = &after[after.iter().position(|&b| b == b'\n').map_or(after.len(), |k| k + 1)..];
        assert_eq!(back.skipped_so_far(), skipped_by_splitting(after, false), "from the end in {shown:?}");
    }
    assert_eq!(back.skipped_so_far(), skipped_by_splitting(text, false), "all from the end in {shown:?}");
    let mut fields = json::lines(text).fields(KEYS).counting_skipped();
    let objects = fields.by_ref().count();
    let all = (
        by_splitting(text).into_iter().filter(|l| json::parse(l).unwrap().as_object().is_some()).count(),
        skipped_by_splitting(text, true),
    );
    assert_eq!((objects, fields.skipped_so_far()), all, "objects in {shown:?}");
    let mut fields = json::lines(text).counting_skipped().fields(KEYS);
    assert_eq!((fields.by_ref().rev().count(), fields.skipped_so_far()), all, "objects from the end in {shown:?}");

    // From the end: the same values in the other order, and taking from
    // both ends meets in the middle with nothing lost or read twice.
    let forward: Vec<&[u8]> = json::lines(text).map(|v| v.raw()).collect();
    let mut backward: Vec<&[u8]> = json::lines(text).rev().map(|v| v.raw()).collect();
    backward.reverse();
    assert_eq!(
        places(text, &forward.iter().map(|v| Some(*v)).collect::<Vec<_>>()),
        places(text, &backward.iter().map(|v| Some(*v)).collect::<Vec<_>>()),
        "rev in {shown:?}"
    );
    for split in 0..=forward.len() {
        let mut both = json::lines(text);
        let mut front: Vec<&[u8]> = both.by_ref().take(split).map(|v| v.raw()).collect();
        let mut back: Vec<&[u8]> = both.rev().map(|v| v.raw()).collect();
        back.reverse();
        front.extend(back);
        assert_eq!(front, forward, "{split} from the front, the rest from the back, in {shown:?}");
    }
    fn raw<'a>(found: [Option<subako_tiny::json::Value<'a>>; 5]) -> [Option<&'a [u8]>; 5] {
        found.map(|v| v.map(|v| v.raw()))
    }
    let forward: Vec<_> = json::lines(text).fields(KEYS).map(raw).collect();
    let mut backward: Vec<_> = json::lines(text).fields(KEYS).rev().map(raw).collect();
    backward.reverse();
    assert_eq!(forward, backward, "fields rev in {shown:?}");
}

/// A member's containers count from the line's second level: the deepest
/// line the reader takes has its members taken, one level more is no
/// object.
#[test]
fn fields_refuse_nesting_where_a_whole_line_is_refused() {
    for levels in [json::MAX_DEPTH - 1, json::MAX_DEPTH] {
        let line = format!("{{\"id\":{}1{}}}", "[".repeat(levels - 1), "]".repeat(levels - 1));
        let whole = json::lines(line.as_bytes()).count();
        assert_eq!(whole, (levels < json::MAX_DEPTH) as usize, "{levels} levels");
        assert_eq!(json::lines(line.as_bytes()).fields(["id"]).count(), whole, "{levels} levels");
        check(line.as_bytes());
    }
}

#[test]
fn lines_as_the_doc_shows() {
    for text in [
        &b""[..],
        b"\n",
        b"\n\n1\n\n",
        b"1",
        b"1\n2",
        b"{\"n\":1}\n{\"n\":2}\n\n{\"n\":",
        b" 1 \r\n\t2\t\r\n3\r",
        b"{\"a\":\n1}\n2",
        b"[1,\n2]\n[3]\n",
        b"\"a\nb\"\n\"c\"",
        b"\"\\\n\"\n7",
        b"tru\ne\ntrue",
        b"1 2\n3",
        b"12\n-\n-1\n1.\n1.5",
        b"\"caf\xC3\xA9\"\n\"caf\xC3\"\n\"\xE3\x81\n\x82\"\n\"\xE3\x81\x82\"",
        b"{\"k\":\"v\"} \n {\"k\":\"v\"}x\n{}",
    ] {
        check(text);
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Pieces JSON Lines text is made of: values, their parts, white space
/// (a newline among it), and bytes that break them.
const PIECES: [&str; 30] = [
    "{\"id\":1,\"title\":\"note\",\"body\":\"text\",\"tags\":[\"a\",\"b\"]}",
    "{ \"ti\\u0074le\" : { \"id\" : [ ] } , \"id\":2 ,\"id\" :\"three\" ,\"tags\":{}}",
    "{\"title\":\"日本語のノート\",\"body\":\"Le cœur a ses raisons 😀\"}",
    "{}",
    "[1,2.5,-3e2,true,false,null]",
    "\"a string \\\" with \\n escapes \\u00e9\"",
    "12345",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    " ",
    "\t",
    "\r",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "tru",
    "e",
    "1.",
    "-",
    "\u{1F}",
    "\u{7F}",
    "é",
    "😀",
];

#[test]
fn random_lines_read_as_split_lines() {
    let cases: usize = std::env::var("LINES_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let mut rng = Rng(std::env::var("LINES_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5EED_11E5));
    let mut text = Vec::new();
    let mut values = 0;
    for _ in 0..cases {
        text.clear();
        for _ in 0..rng.below(40) {
            // Mostly whole values, one a line.
            if rng.below(3) == 0 {
                text.extend_from_slice(PIECES[rng.below(PIECES.len())].as_bytes());
            } else {
                text.extend_from_slice(PIECES[rng.below(6)].as_bytes());
                text.push(b'\n');
            }
        }
        // A byte order mark, as editors write one: the first line is skipped.
        if rng.below(8) == 0 {
            text.splice(0..0, *b"\xEF\xBB\xBF");
        }
        // A byte flipped, the end cut, bytes no UTF-8 holds.
        match rng.below(4) {
            0 if !text.is_empty() => {
                let at = rng.below(text.len());
                text[at] = rng.next() as u8;
            }
            1 => text.truncate(rng.below(text.len() + 1)),
            2 => text.extend_from_slice(b"\"\xFF\xC0\xAF\xED\xA0\x80\"\n"),
            _ => {}
        }
        check(&text);
        values += by_splitting(&text).len();
    }
    assert!(values > cases, "only {values} values in {cases} texts");
}

/// Whole JSON Lines entries of every kind of text the crate writes (raw
/// UTF-8 of two to four bytes, escapes, numbers, literals, nesting), and a
/// surrogate pair escaped by hand.
fn whole_entries() -> Vec<String> {
    let texts = ["plain", "é café", "日本語のテキスト", "emoji 🎉 ok", "quote \" back \\ tab \t nul \u{0} bell \u{7}"];
    let mut lines = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let reply = subako_tiny::Reply::object(|o| {
            o.field("id", i as i64 - 2).field("t", *text).field("x", -12.5e-3).field("ok", i % 2 == 0);
            o.array("tags", |a| a.push(*text).push(1u64)).object("in", |o| o.field("n", None::<u64>))
        });
        lines.push(String::from_utf8(reply.structured().unwrap().to_vec()).unwrap());
    }
    lines.push(r#"{"id":9,"t":"\ud83d\ude00\u00e9\n","n":[true,false,null,0,1E+2]}"#.to_string());
    // The leads whose second byte's range is narrower: E0, ED, F0, F4.
    lines.push("{\"id\":10,\"t\":\"\u{800}\u{d7ff}\u{10000}\u{10ffff}\"}".to_string());
    lines
}

/// A line a write cut short, anywhere in it, is not an unreadable entry,
/// whether it is the last line or `fs::append_line` has put another after
/// it; a line edited by hand, a stray byte or a byte order mark is.
#[test]
fn a_line_cut_anywhere_is_no_unreadable_entry_and_a_broken_one_is() {
    for entry in whole_entries() {
        let bytes = entry.as_bytes();
        for cut in 1..bytes.len() {
            let part = &bytes[..cut];
            let last = [b"{\"id\":0}\n", part].concat();
            let then = [part, b"\n{\"id\":7}\n"].concat();
            let shown = String::from_utf8_lossy(part);
            assert_eq!(json::lines(&last).unreadable(), 0, "cut last: {shown:?}");
            assert_eq!(json::lines(&then).unreadable(), 0, "cut, then an entry: {shown:?}");
            assert_eq!(json::lines(&then).fields(KEYS).unreadable(), 0, "fields, cut: {shown:?}");
            assert_eq!(json::lines(&then).skipped(), 1, "skipped, cut: {shown:?}");
        }
    }
    let broken: [&[u8]; 18] = [
        // A string ending in bytes no UTF-8 text begins with (review 72).
        b"{\"a\":\"\xE0\x80",
        b"{\"a\":\"\xED\xA0",
        b"{\"a\":\"\xF0\x80",
        b"{\"a\":\"\xF4\x90",
        // Ends in what would be unfinished in a string, but outside one
        // (review 71: counted as a write cut short).
        b"{\xC3",
        b"[\\",
        b"{\"id\":1}\xC3",
        b"tru\\",
        b"1\\u12",
        b"{\\ud83d",
        b"\xEF\xBB\xBF{\"id\":1}",
        b"{\"id\":1,}",
        b"{\"id\":1}}",
        b"{\"id\":\"a\xFFb\"}",
        b"{\"id\":\"\\x41\"}",
        b"{\"id\":01}",
        b"{id:1}",
        b"{\"t\":\"\\ud83d\\u0041\"}",
    ];
    for line in broken {
        let text = [b"{\"id\":0}\n", line, b"\n{\"id\":2}"].concat();
        assert_eq!(json::lines(&text).unreadable(), 1, "{:?}", String::from_utf8_lossy(line));
        assert_eq!(json::lines(&text).fields(KEYS).unreadable(), 1, "{:?}", String::from_utf8_lossy(line));
        let last = [b"{\"id\":0}\n", line].concat();
        assert_eq!(json::lines(&last).unreadable(), 1, "last: {:?}", String::from_utf8_lossy(line));
    }
    // A value that is not an object is an unreadable entry of `fields`.
    assert_eq!(json::lines(b"{\"id\":0}\n[1,2]\n").fields(KEYS).unreadable(), 1);
    assert_eq!(json::lines(b"{\"id\":0}\n[1,2]\n").unreadable(), 0);
}
