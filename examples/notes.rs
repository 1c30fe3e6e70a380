//! The `notes` package: notes kept as JSON Lines in the volume, searched
//! and summarised. Each note is one line of `notes/notes.jsonl`, in
//! `/volume/data` when the agent enables it (the notes outlive the
//! session), else in `/volume/tmp` (they last the session):
//! `{"id":1,"title":"…","body":"…","tags":["…"],"created":"…"}`.
//!
//! Text is any UTF-8: search ignores case the way std's `to_lowercase`
//! does for every script (`É` finds `é`), lengths count characters, and
//! `stats` leaves out the words its asset `stopwords.txt` lists (read from
//! `/package`; bundle with `subako-tiny bundle --module notes.wasm --assets
//! examples/assets/notes --out DIR`).
//!
//! Written with the crate's cheap equivalents of std's costly idioms:
//! `case` for `to_lowercase`, `sort` for `sort`/`sort_by`, `chars` for
//! `trim` and `chars().count()`, `float` for `sqrt` and `round_ties_even`;
//! `Object::fields` reads the five members of a note in one walk.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::fs::{self, errno};
use subako_tiny::json::{Array, Str};
use subako_tiny::prelude::*;
use subako_tiny::tally::Tally;
use subako_tiny::{case, chars, float, sort};

/// Where the notes are kept: a directory and its one file.
struct Store {
    dir: &'static str,
    file: &'static str,
}

/// In `/volume/data`, which outlives the session when the agent enables it.
const KEPT: Store = Store { dir: "/volume/data/notes", file: "/volume/data/notes/notes.jsonl" };
/// In the session volume.
const SESSION: Store = Store { dir: "/volume/tmp/notes", file: "/volume/tmp/notes/notes.jsonl" };
/// The words `stats` does not count, one a line: the package's asset.
const STOPWORDS: &str = "/package/stopwords.txt";

/// The longest title, body, tag and `created`, in characters; the most tags.
const MAX_TITLE: usize = 200;
const MAX_BODY: usize = 100_000;
const MAX_TAG: usize = 40;
const MAX_TAGS: usize = 10;
const MAX_CREATED: usize = 40;
/// How many characters of a body `search` shows.
const PREVIEW: usize = 80;

/// The kept store when `/volume/data` is mounted, else the session's.
fn store() -> Result<&'static Store, ToolError> {
    if fs::is_dir("/volume/data") {
        Ok(&KEPT)
    } else if fs::is_dir("/volume/tmp") {
        Ok(&SESSION)
    } else {
        fail!("neither /volume/data nor /volume/tmp is mounted: the notes have nowhere to be kept")
    }
}

/// The store's file; empty before the first note.
fn read(store: &Store) -> Result<Vec<u8>, ToolError> {
    match fs::read(store.file) {
        Ok(text) => Ok(text),
        Err(e) if e.errno() == Some(errno::NOENT) => Ok(Vec::new()),
        Err(e) => Err(e.into()),
    }
}

/// The members of a note, in the order it is written.
const MEMBERS: [&str; 5] = ["id", "title", "body", "tags", "created"];

/// One note, borrowed from its line of the file (or from the arguments
/// of `add`): its text as JSON wrote it, escapes and all.
#[derive(Clone, Copy)]
struct Note<'a> {
    id: i64,
    title: Str<'a>,
    body: Str<'a>,
    /// Strings only; `None` for no tags.
    tags: Option<Array<'a>>,
    created: Option<Str<'a>>,
}

impl<'a> Note<'a> {
    /// The note a line's members make, or `None` when one is missing or
    /// has the wrong type: such a line is skipped, as one cut short is.
    fn read([id, title, body, tags, created]: [Option<Value<'a>>; 5]) -> Option<Note<'a>> {
        Note::new(id?.as_i64()?, title?, body?, tags, created)
    }

    fn new(
        id: i64,
        title: Value<'a>,
        body: Value<'a>,
        tags: Option<Value<'a>>,
        created: Option<Value<'a>>,
    ) -> Option<Note<'a>> {
        let tags = match tags {
            Some(tags) if !tags.is_null() => Some(tags.as_array().filter(|a| a.iter().all(|t| t.as_str().is_some()))?),
            _ => None,
        };
        let created = match created {
            Some(created) if !created.is_null() => Some(created.as_str()?),
            _ => None,
        };
        Some(Note { id, title: title.as_str()?, body: body.as_str()?, tags, created })
    }

    fn tags(&self) -> impl Iterator<Item = Str<'a>> {
        self.tags.into_iter().flat_map(|a| a.iter()).filter_map(|t| t.as_str())
    }

    /// The tags, each a string (a raw `Value` would be checked again as it
    /// is written).
    fn write_tags<'w>(&self, a: &'w mut ArrayWriter) -> &'w mut ArrayWriter {
        for tag in self.tags() {
            a.push(tag);
        }
        a
    }

    /// The note's members: a line of the file, and what `add` and `get`
    /// answer.
    fn write<'o>(&self, o: &'o mut ObjectWriter) -> &'o mut ObjectWriter {
        o.field("id", self.id).field("title", self.title).field("body", self.body);
        o.array("tags", |a| self.write_tags(a));
        match self.created {
            Some(created) => o.field("created", created),
            None => o,
        }
    }
}

/// The notes of the file, in order: the lines that are whole notes, each
/// read once (its members taken as it is checked).
fn notes(text: &[u8]) -> impl DoubleEndedIterator<Item = Note<'_>> {
    json::lines(text).fields(MEMBERS).filter_map(Note::read)
}

/// `text` without the white space around it, unless nothing is left.
fn not_blank<'t>(text: &'t str, field: &str) -> Result<&'t str, ToolError> {
    match chars::trim(text) {
        "" => Err(ToolError::invalid_input(("`", field, "` must not be blank"))),
        trimmed => Ok(trimmed),
    }
}

fn add(args: &Args<'_>) -> Result<Reply, ToolError> {
    args.only(&["title", "body", "tags", "created"])?;
    not_blank(&args.str_chars("title", 1, MAX_TITLE)?, "title")?;
    args.str_chars("body", 0, MAX_BODY)?;
    if let Some(tags) = args.opt_strs("tags", 0, MAX_TAGS)? {
        for (i, tag) in tags.enumerate() {
            if !(1..=MAX_TAG).contains(&chars::count(&tag)) {
                fail!("invalid input: `tags[", i, "]` must be 1 to ", MAX_TAG, " characters long");
            }
        }
    }
    if args.value("created").is_some() {
        args.str_chars("created", 1, MAX_CREATED)?;
    }

    let store = store()?;
    let text = read(store)?;
    let last = notes(&text).map(|note| note.id).max().unwrap_or(0);
    let Some(id) = last.checked_add(1) else { fail!("no id is left after ", last, ": start a new file") };
    // The checked members, written as the arguments wrote them.
    let [_, title, body, tags, created] = args.object().map(|o| o.fields(MEMBERS)).unwrap_or_default();
    let Some(note) = title.zip(body).and_then(|(title, body)| Note::new(id, title, body, tags, created)) else {
        fail!("invalid input: `title` and `body` must be strings");
    };
    let reply = Reply::object(|o| note.write(o));
    fs::create_dir_all(store.dir)?;
    // After a last line a full volume cut short, the note starts a line of
    // its own: the fragment stays a line `json::lines` skips.
    fs::append_line(store.file, reply.structured().unwrap_or(b"{}"))?;
    Ok(reply)
}

fn get(args: &Args<'_>) -> Result<Reply, ToolError> {
    args.only(&["id"])?;
    let id = args.int("id", 1, i64::MAX)?;
    let text = read(store()?)?;
    // The last line with the id wins: read from the end, the newest note
    // costs one line, not the file.
    let found = notes(&text).rev().find(|note| note.id == id);
    match found {
        Some(note) => Ok(Reply::object(|o| note.write(o))),
        None => fail!("no note has id ", id, ": `search` finds notes by their words"),
    }
}

fn search(args: &Args<'_>) -> Result<Reply, ToolError> {
    args.only(&["query", "tag", "limit"])?;
    let query = args.str_chars("query", 1, MAX_TITLE)?;
    let query = not_blank(&query, "query")?;
    let tag = args.opt_str("tag")?;
    let limit = args.opt_int("limit", 1, 100)?.unwrap_or(10) as usize;
    let text = read(store()?)?;

    // A match in the title ranks above one in the body only; then the newest.
    let mut hits = Vec::new();
    for note in notes(&text) {
        if let Some(tag) = &tag
            && !note.tags().any(|t| case::eq_ignore_case(&t.to_str(), tag))
        {
            continue;
        }
        let in_title = case::contains_ignore_case(&note.title.to_str(), query);
        let in_body = case::contains_ignore_case(&note.body.to_str(), query);
        if in_title || in_body {
            hits.push((2 * in_title as u8 + in_body as u8, note));
        }
    }
    sort::sort_by(&mut hits, |a, b| b.0.cmp(&a.0).then(b.1.id.cmp(&a.1.id)));

    Ok(Reply::object(|o| {
        o.field("query", query).field("matches", hits.len());
        o.array("notes", |a| {
            for (score, note) in hits.iter().take(limit) {
                a.object(|h| {
                    h.field("id", note.id).field("title", note.title).field("score", *score);
                    let body = note.body.to_str();
                    // Where the char after the first PREVIEW begins, if there is one.
                    let cut = body.bytes().enumerate().filter(|(_, b)| b & 0xC0 != 0x80).nth(PREVIEW);
                    match cut.and_then(|(cut, _)| body.get(..cut)) {
                        Some(preview) => h.text("preview", (preview, "…")),
                        None => h.field("preview", &body),
                    };
                    h.array("tags", |a| note.write_tags(a))
                });
            }
            a
        })
    }))
}

/// `items` counted: each distinct one with its number, the most frequent
/// first, equal numbers in byte order.
fn counted<'a>(items: &mut dyn Iterator<Item = &'a str>) -> Vec<(&'a str, u64)> {
    let mut counts = Tally::new();
    for item in items {
        counts.add(item);
    }
    counts.most_common()
}

/// A char between words: white space, or punctuation of ASCII, Latin-1,
/// Unicode's General Punctuation, CJK's (`、。「」`) or fullwidth forms.
/// (`chars::words`, std's split at `!c.is_alphanumeric()`, would also
/// split at symbols and emoji, and brings a table: the guide's price list
/// has its bytes.)
fn between_words(c: char) -> bool {
    matches!(c, '!'..='/' | ':'..='@' | '['..='`' | '{'..='~' | '\u{a1}'..='\u{bf}' | '\u{d7}' | '\u{f7}'
        | '\u{2000}'..='\u{206f}' | '\u{3000}'..='\u{303f}' | '\u{ff01}'..='\u{ff0f}' | '\u{ff1a}'..='\u{ff20}'
        | '\u{ff3b}'..='\u{ff40}' | '\u{ff5b}'..='\u{ff65}')
        || chars::is_whitespace(c)
}

/// `x` rounded to two decimals, halves to even.
fn cents(x: f64) -> f64 {
    float::round_ties_even(x * 100.0) / 100.0
}

fn stats(args: &Args<'_>) -> Result<Reply, ToolError> {
    args.only(&["limit"])?;
    let limit = args.opt_int("limit", 1, 100)?.unwrap_or(10) as usize;
    // One word a line; a comment or a blank line matches no word.
    let stopwords = fs::read_to_string(STOPWORDS)?;
    let is_stopword = |word: &str| stopwords.lines().any(|line| chars::trim(line) == word);
    let text = read(store()?)?;

    // Body lengths in characters; every title and body lowercased into
    // one text to split into words; every tag lowercased.
    let (mut count, mut total, mut squares, mut shortest, mut longest) = (0u64, 0u64, 0u64, u64::MAX, 0u64);
    let mut lowered = Text::new();
    let mut tags: Vec<String> = Vec::new();
    for note in notes(&text) {
        let body = note.body.to_str();
        let length = chars::count(&body) as u64;
        count += 1;
        total += length;
        squares += length * length;
        shortest = shortest.min(length);
        longest = longest.max(length);
        lowered.push(&case::to_lowercase(&note.title.to_str())).push("\n").push(&case::to_lowercase(&body)).push("\n");
        for tag in note.tags() {
            tags.push(case::to_lowercase(&tag.to_str()));
        }
    }
    let (mean, deviation) = if count == 0 {
        (0.0, 0.0)
    } else {
        let mean = total as f64 / count as f64;
        (mean, float::sqrt(float::max(squares as f64 / count as f64 - mean * mean, 0.0)))
    };
    let words = counted(&mut lowered.as_str().split(between_words).filter(|w| !w.is_empty()));
    let tags = counted(&mut tags.iter().map(|t| t.as_str()));

    Ok(Reply::object(|o| {
        o.field("notes", count);
        o.object("characters", |c| {
            c.field("total", total)
                .field("shortest", if count == 0 { 0 } else { shortest })
                .field("longest", longest)
                .field("mean", cents(mean))
                .field("std_dev", cents(deviation))
        });
        o.array("tags", |a| {
            for (tag, n) in tags.iter().take(limit) {
                a.object(|t| t.field("tag", *tag).field("count", *n));
            }
            a
        });
        o.array("words", |a| {
            for (word, n) in words.iter().filter(|(word, _)| !is_stopword(word)).take(limit) {
                a.object(|w| w.field("word", *word).field("count", *n));
            }
            a
        })
    }))
}

/// A note's members, as `get` answers and the file holds them.
const NOTE_SCHEMA: &str = r#"{
    "properties": {
        "id": {"type": "integer"},
        "title": {"type": "string"},
        "body": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "created": {"type": "string"}
    },
    "required": ["id", "title", "body", "tags"],
    "type": "object"
}"#;

pub const PACKAGE: Package = Package::new(
    "notes",
    env!("CARGO_PKG_VERSION"),
    "Keeps notes in the volume, and searches and summarises them.",
    &[
        Tool::new("add", "Add a note, and answer it with its id. It is kept in /volume/data when the agent enables it (it outlives the session), else in the session volume.", r#"{
                "properties": {
                    "title": {"description": "The note's title: 1 to 200 characters, not blank.", "type": "string", "minLength": 1, "maxLength": 200},
                    "body": {"description": "The note's text, up to 100000 characters.", "type": "string", "maxLength": 100000},
                    "tags": {"description": "Up to 10 tags of 1 to 40 characters each.", "type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 40}, "maxItems": 10},
                    "created": {"description": "When the note was written, as the caller writes it (such as 2026-12-01).", "type": "string", "minLength": 1, "maxLength": 40}
                },
                "required": ["title", "body"],
                "additionalProperties": false,
                "type": "object"
            }"#, add).output_schema(NOTE_SCHEMA),
        Tool::new("get", "Read one note by its id.", r#"{
                "properties": {
                    "id": {"description": "The note's id, as `add` or `search` gave it.", "type": "integer", "minimum": 1}
                },
                "required": ["id"],
                "additionalProperties": false,
                "type": "object"
            }"#, get).output_schema(NOTE_SCHEMA),
        Tool::new("search", "Find the notes whose title or body holds some text, ignoring case in every script: title matches first, then the newest.", r#"{
                "properties": {
                    "query": {"description": "The text to find: 1 to 200 characters, not blank.", "type": "string", "minLength": 1, "maxLength": 200},
                    "tag": {"description": "Only notes with this tag (ignoring case).", "type": "string"},
                    "limit": {"description": "How many notes to list (default 10).", "type": "integer", "minimum": 1, "maximum": 100}
                },
                "required": ["query"],
                "additionalProperties": false,
                "type": "object"
            }"#, search).output_schema(
                r#"{
                "properties": {
                    "query": {"type": "string"},
                    "matches": {"description": "How many notes match, listed or not.", "type": "integer"},
                    "notes": {"type": "array", "items": {
                        "properties": {
                            "id": {"type": "integer"},
                            "title": {"type": "string"},
                            "score": {"description": "2 for a match in the title, 1 in the body, 3 in both.", "type": "integer"},
                            "preview": {"description": "The body's first 80 characters.", "type": "string"},
                            "tags": {"type": "array", "items": {"type": "string"}}
                        },
                        "required": ["id", "title", "score", "preview", "tags"],
                        "type": "object"
                    }}
                },
                "required": ["query", "matches", "notes"],
                "type": "object"
            }"#,
            ),
        Tool::new("stats", "Count the notes, their bodies' lengths in characters, their tags and their most frequent words (leaving out common words).", r#"{
                "properties": {
                    "limit": {"description": "How many tags and words to list (default 10).", "type": "integer", "minimum": 1, "maximum": 100}
                },
                "additionalProperties": false,
                "type": "object"
            }"#, stats).output_schema(
                r#"{
                "properties": {
                    "notes": {"type": "integer"},
                    "characters": {"description": "The bodies' lengths in characters.", "type": "object", "properties": {
                        "total": {"type": "integer"},
                        "shortest": {"type": "integer"},
                        "longest": {"type": "integer"},
                        "mean": {"type": "number"},
                        "std_dev": {"description": "The population standard deviation.", "type": "number"}
                    }, "required": ["total", "shortest", "longest", "mean", "std_dev"]},
                    "tags": {"description": "The most used tags, lowercased.", "type": "array", "items": {
                        "properties": {"tag": {"type": "string"}, "count": {"type": "integer"}},
                        "required": ["tag", "count"],
                        "type": "object"
                    }},
                    "words": {"description": "The most frequent words of titles and bodies, lowercased.", "type": "array", "items": {
                        "properties": {"word": {"type": "string"}, "count": {"type": "integer"}},
                        "required": ["word", "count"],
                        "type": "object"
                    }}
                },
                "required": ["notes", "characters", "tags", "words"],
                "type": "object"
            }"#,
            ),
    ],
);

subako_tiny::main!(PACKAGE);

/// On the host, through the crate's real protocol: the volume and the
/// assets are real directories (`fs::mount`; the mounts are the test
/// thread's own).
#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use subako_tiny::fs::{mount, unmount};
    use subako_tiny::testing;

    use super::PACKAGE;

    const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/assets/notes");

    /// A fresh directory, mounted at `guest` for this thread.
    fn mounted(guest: &str, name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("subako-tiny-notes-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        mount(guest, &dir);
        dir
    }

    /// The `structuredContent` of a call that succeeded.
    #[track_caller]
    fn ok(tool: &str, arguments: &str) -> String {
        let called = testing::call(&PACKAGE, tool, arguments);
        assert!(!called.is_error(), "{}", called.line());
        called.structured().unwrap().to_string()
    }

    /// The message of a call that failed.
    #[track_caller]
    fn error(tool: &str, arguments: &str) -> String {
        let called = testing::call(&PACKAGE, tool, arguments);
        assert!(called.is_error(), "{}", called.line());
        called.text().to_string()
    }

    const TEA: &str = r#"{"title": "Thé vert à Kyoto", "body": "Le thé vert du marché était délicieux. ÉTÉ chaud.", "tags": ["Voyage", "thé"], "created": "2026-11-30"}"#;
    const MATCHA: &str = r#"{"title": "お茶の時間", "body": "京都で抹茶を飲んだ。Thé vert とても美味しい。", "tags": ["voyage", "日本"]}"#;
    const SHOPPING: &str = r#"{"title": "Shopping list", "body": "Eggs, milk, the green tea and the rice."}"#;

    #[test]
    fn notes_in_japanese_and_french_are_added_read_searched_and_counted() {
        let dir = mounted("/volume/tmp", "tmp");
        mount("/package", ASSETS);
        let file = dir.join("notes/notes.jsonl");

        let lines = [
            r#"{"id":1,"title":"Thé vert à Kyoto","body":"Le thé vert du marché était délicieux. ÉTÉ chaud.","tags":["Voyage","thé"],"created":"2026-11-30"}"#,
            r#"{"id":2,"title":"お茶の時間","body":"京都で抹茶を飲んだ。Thé vert とても美味しい。","tags":["voyage","日本"]}"#,
            r#"{"id":3,"title":"Shopping list","body":"Eggs, milk, the green tea and the rice.","tags":[]}"#,
        ];
        // Each note is answered as the file keeps it.
        assert_eq!(ok("add", TEA), lines[0]);
        assert_eq!(ok("add", MATCHA), lines[1]);
        assert_eq!(ok("add", SHOPPING), lines[2]);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), lines.map(|l| [l, "\n"].concat()).concat());

        // Each note as the file holds it, raw UTF-8 and all.
        for (id, line) in lines.iter().enumerate() {
            assert_eq!(ok("get", &format!(r#"{{"id": {}}}"#, id + 1)), *line);
        }

        // Case ignored in every script: É finds é; a title match ranks first.
        assert_eq!(
            ok("search", r#"{"query": "THÉ VERT"}"#),
            r#"{"query":"THÉ VERT","matches":2,"notes":[{"id":1,"title":"Thé vert à Kyoto","score":3,"preview":"Le thé vert du marché était délicieux. ÉTÉ chaud.","tags":["Voyage","thé"]},{"id":2,"title":"お茶の時間","score":1,"preview":"京都で抹茶を飲んだ。Thé vert とても美味しい。","tags":["voyage","日本"]}]}"#
        );
        assert_eq!(
            ok("search", r#"{"query": "été", "limit": 1}"#),
            r#"{"query":"été","matches":1,"notes":[{"id":1,"title":"Thé vert à Kyoto","score":1,"preview":"Le thé vert du marché était délicieux. ÉTÉ chaud.","tags":["Voyage","thé"]}]}"#
        );
        assert_eq!(
            ok("search", r#"{"query": " 抹茶 "}"#),
            r#"{"query":"抹茶","matches":1,"notes":[{"id":2,"title":"お茶の時間","score":1,"preview":"京都で抹茶を飲んだ。Thé vert とても美味しい。","tags":["voyage","日本"]}]}"#
        );
        // Only notes with a tag, its case ignored; the newest first.
        assert_eq!(
            ok("search", r#"{"query": "T", "tag": "VOYAGE"}"#),
            r#"{"query":"T","matches":2,"notes":[{"id":1,"title":"Thé vert à Kyoto","score":3,"preview":"Le thé vert du marché était délicieux. ÉTÉ chaud.","tags":["Voyage","thé"]},{"id":2,"title":"お茶の時間","score":1,"preview":"京都で抹茶を飲んだ。Thé vert とても美味しい。","tags":["voyage","日本"]}]}"#
        );
        assert_eq!(ok("search", r#"{"query": "tea", "tag": "日本"}"#), r#"{"query":"tea","matches":0,"notes":[]}"#);

        // Lengths in characters (49, 27 and 39); words lowercased, without
        // the stopwords (à, le, du, the, and), equal counts in byte order.
        assert_eq!(
            ok("stats", "{}"),
            r#"{"notes":3,"characters":{"total":115,"shortest":27,"longest":49,"mean":38.33,"std_dev":8.99},"tags":[{"tag":"voyage","count":2},{"tag":"thé","count":1},{"tag":"日本","count":1}],"words":[{"word":"thé","count":3},{"word":"vert","count":3},{"word":"chaud","count":1},{"word":"délicieux","count":1},{"word":"eggs","count":1},{"word":"green","count":1},{"word":"kyoto","count":1},{"word":"list","count":1},{"word":"marché","count":1},{"word":"milk","count":1}]}"#
        );
        assert_eq!(
            ok("stats", r#"{"limit": 1}"#),
            r#"{"notes":3,"characters":{"total":115,"shortest":27,"longest":49,"mean":38.33,"std_dev":8.99},"tags":[{"tag":"voyage","count":2}],"words":[{"word":"thé","count":3}]}"#
        );
        unmount("/volume/tmp");
        unmount("/package");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_long_body_is_previewed_by_characters() {
        let dir = mounted("/volume/tmp", "preview");
        let body = "é".repeat(81);
        ok("add", &format!(r#"{{"title": "long", "body": "{body}"}}"#));
        let expected = format!(
            r#"{{"query":"ÉÉ","matches":1,"notes":[{{"id":1,"title":"long","score":1,"preview":"{}…","tags":[]}}]}}"#,
            "é".repeat(80)
        );
        assert_eq!(ok("search", r#"{"query": "ÉÉ"}"#), expected);
        unmount("/volume/tmp");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `get` reads from the end: of two lines with one id (a file edited by
    /// hand) the later wins, as it did when the whole file was read, and
    /// lines after it that are not notes are passed over.
    #[test]
    fn get_answers_the_last_line_with_the_id() {
        let dir = mounted("/volume/tmp", "twice");
        std::fs::create_dir_all(dir.join("notes")).unwrap();
        let lines = [
            r#"{"id":1,"title":"first","body":"","tags":[]}"#,
            r#"{"id":2,"title":"other","body":"","tags":[]}"#,
            r#"{"id":1,"title":"edited","body":"","tags":[]}"#,
            r#"{"id":3,"title":"#,
        ];
        std::fs::write(dir.join("notes/notes.jsonl"), lines.join("\n")).unwrap();
        assert_eq!(ok("get", r#"{"id": 1}"#), lines[2]);
        assert_eq!(ok("get", r#"{"id": 2}"#), lines[1]);
        assert_eq!(error("get", r#"{"id": 3}"#), "no note has id 3: `search` finds notes by their words");
        unmount("/volume/tmp");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_empty_store_answers_and_a_missing_note_is_named() {
        let dir = mounted("/volume/tmp", "empty");
        mount("/package", ASSETS);
        assert_eq!(error("get", r#"{"id": 1}"#), "no note has id 1: `search` finds notes by their words");
        assert_eq!(ok("search", r#"{"query": "x"}"#), r#"{"query":"x","matches":0,"notes":[]}"#);
        assert_eq!(
            ok("stats", "{}"),
            r#"{"notes":0,"characters":{"total":0,"shortest":0,"longest":0,"mean":0.0,"std_dev":0.0},"tags":[],"words":[]}"#
        );
        unmount("/volume/tmp");
        unmount("/package");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A last line a full volume cut short is skipped by every tool, and
    /// the next note goes on a line of its own, not onto it.
    #[test]
    fn a_cut_short_last_line_is_skipped_and_not_written_onto() {
        let dir = mounted("/volume/tmp", "cut");
        std::fs::create_dir_all(dir.join("notes")).unwrap();
        let file = dir.join("notes/notes.jsonl");
        let whole = r#"{"id":1,"title":"a","body":"b","tags":[]}"#;
        let fragment = r#"{"id":2,"title":"cut sh"#;
        std::fs::write(&file, [whole, "\n", fragment].concat()).unwrap();
        assert_eq!(error("get", r#"{"id": 2}"#), "no note has id 2: `search` finds notes by their words");
        let added = r#"{"id":2,"title":"cut again","body":"","tags":[]}"#;
        assert_eq!(ok("add", r#"{"title": "cut again", "body": ""}"#), added);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), [whole, "\n", fragment, "\n", added, "\n"].concat());
        assert_eq!(ok("get", r#"{"id": 2}"#), added);
        assert_eq!(
            ok("search", r#"{"query": "CUT"}"#),
            r#"{"query":"CUT","matches":1,"notes":[{"id":2,"title":"cut again","score":2,"preview":"","tags":[]}]}"#
        );
        // A line with a member of the wrong type is not a note either.
        std::fs::write(
            &file,
            [r#"{"id":"1","title":"a","body":"b"}"#, "\n", r#"{"id":1,"title":"a","body":"b","tags":[1]}"#, "\n"]
                .concat(),
        )
        .unwrap();
        assert_eq!(
            ok("add", r#"{"title": "t", "body": "b", "tags": null}"#),
            r#"{"id":1,"title":"t","body":"b","tags":[]}"#
        );
        unmount("/volume/tmp");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_notes_are_kept_in_volume_data_when_it_is_mounted() {
        let tmp = mounted("/volume/tmp", "session");
        let data = mounted("/volume/data", "data");
        assert_eq!(
            ok("add", SHOPPING),
            r#"{"id":1,"title":"Shopping list","body":"Eggs, milk, the green tea and the rice.","tags":[]}"#
        );
        assert!(data.join("notes/notes.jsonl").exists());
        assert!(!tmp.join("notes").exists());
        unmount("/volume/data");
        assert_eq!(error("get", r#"{"id": 1}"#), "no note has id 1: `search` finds notes by their words");
        unmount("/volume/tmp");
        assert_eq!(
            error("add", SHOPPING),
            "neither /volume/data nor /volume/tmp is mounted: the notes have nowhere to be kept"
        );
        assert_eq!(
            error("get", r#"{"id": 1}"#),
            "neither /volume/data nor /volume/tmp is mounted: the notes have nowhere to be kept"
        );
        std::fs::remove_dir_all(&tmp).unwrap();
        std::fs::remove_dir_all(&data).unwrap();
    }

    #[test]
    fn stats_needs_the_stopwords_from_the_package() {
        let dir = mounted("/volume/tmp", "nostop");
        assert_eq!(
            error("stats", "{}"),
            "read /package/stopwords.txt: /package is not mounted: the package has no assets"
        );
        unmount("/volume/tmp");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_input_is_refused_with_what_to_change() {
        let dir = mounted("/volume/tmp", "bad");
        let long_title = "x".repeat(201);
        let many_tags = format!("[{}]", [r#""t""#; 11].join(","));
        let long_tag = "é".repeat(41);
        let cases = [
            ("add", r#"{"body": "b"}"#.to_string(), "invalid input: missing field `title`"),
            ("add", r#"{"title": "t"}"#.to_string(), "invalid input: missing field `body`"),
            (
                "add",
                r#"{"title": "", "body": "b"}"#.to_string(),
                "invalid input: `title` must be 1 to 200 characters long",
            ),
            ("add", r#"{"title": " \u3000\t", "body": "b"}"#.to_string(), "invalid input: `title` must not be blank"),
            (
                "add",
                format!(r#"{{"title": "{long_title}", "body": "b"}}"#),
                "invalid input: `title` must be 1 to 200 characters long",
            ),
            ("add", r#"{"title": 7, "body": "b"}"#.to_string(), "invalid input: `title` must be a string"),
            ("add", r#"{"title": "t", "body": null}"#.to_string(), "invalid input: `body` must be a string"),
            (
                "add",
                r#"{"title": "t", "body": "b", "tags": "x"}"#.to_string(),
                "invalid input: `tags` must be an array",
            ),
            (
                "add",
                r#"{"title": "t", "body": "b", "tags": ["a", 2]}"#.to_string(),
                "invalid input: `tags[1]` must be a string",
            ),
            (
                "add",
                r#"{"title": "t", "body": "b", "tags": ["a", ""]}"#.to_string(),
                "invalid input: `tags[1]` must be 1 to 40 characters long",
            ),
            (
                "add",
                format!(r#"{{"title": "t", "body": "b", "tags": ["{long_tag}"]}}"#),
                "invalid input: `tags[0]` must be 1 to 40 characters long",
            ),
            (
                "add",
                format!(r#"{{"title": "t", "body": "b", "tags": {many_tags}}}"#),
                "invalid input: `tags` must hold 0 to 10 items",
            ),
            (
                "add",
                r#"{"title": "t", "body": "b", "created": ""}"#.to_string(),
                "invalid input: `created` must be 1 to 40 characters long",
            ),
            (
                "add",
                r#"{"title": "t", "body": "b", "id": 3}"#.to_string(),
                "invalid input: unknown field `id`, expected one of `title`, `body`, `tags`, `created`",
            ),
            ("get", "{}".to_string(), "invalid input: missing field `id`"),
            ("get", r#"{"id": 0}"#.to_string(), "invalid input: `id` must be an integer of at least 1"),
            (
                "get",
                r#"{"id": 1.5}"#.to_string(),
                "invalid input: `id` must be an integer of at least 1, written without a fraction or exponent",
            ),
            ("get", r#"{"id": "1"}"#.to_string(), "invalid input: `id` must be an integer of at least 1"),
            ("search", "{}".to_string(), "invalid input: missing field `query`"),
            ("search", r#"{"query": "  "}"#.to_string(), "invalid input: `query` must not be blank"),
            (
                "search",
                r#"{"query": "x", "limit": 101}"#.to_string(),
                "invalid input: `limit` must be an integer from 1 to 100",
            ),
            ("search", r#"{"query": "x", "tag": 1}"#.to_string(), "invalid input: `tag` must be a string"),
            (
                "search",
                r#"{"query": "x", "sort": "id"}"#.to_string(),
                "invalid input: unknown field `sort`, expected one of `query`, `tag`, `limit`",
            ),
            ("stats", r#"{"limit": 0}"#.to_string(), "invalid input: `limit` must be an integer from 1 to 100"),
            ("stats", r#"{"top": 3}"#.to_string(), "invalid input: unknown field `top`, expected `limit`"),
        ];
        for (tool, arguments, message) in cases {
            assert_eq!(error(tool, &arguments), message, "{tool} {arguments}");
        }
        assert!(!dir.join("notes").exists(), "nothing was written");
        unmount("/volume/tmp");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
