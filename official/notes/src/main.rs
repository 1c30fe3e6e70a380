//! Notes kept as JSON Lines in the volume, searched and summarised, written
//! with the official SDK and std (`to_lowercase`, `sort`, `format!`,
//! `serde_json`), for comparison with subako-tiny's own notes example: the
//! same tools, arguments and answers.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use subako_function_sdk::{ToolError, function, package};

/// Where the notes are kept: a directory and its one file.
struct Store {
    dir: &'static str,
    file: &'static str,
}

/// In `/volume/data`, which outlives the session when the agent enables it.
const KEPT: Store = Store { dir: "/volume/data/notes", file: "/volume/data/notes/notes.jsonl" };
/// In the session volume.
const SESSION: Store = Store { dir: "/volume/tmp/notes", file: "/volume/tmp/notes/notes.jsonl" };
const STOPWORDS: &str = "/package/stopwords.txt";

const MAX_TITLE: usize = 200;
const MAX_BODY: usize = 100_000;
const MAX_TAG: usize = 40;
const MAX_TAGS: usize = 10;
const MAX_CREATED: usize = 40;
const PREVIEW: usize = 80;

fn store() -> Result<&'static Store, ToolError> {
    if Path::new("/volume/data").is_dir() {
        Ok(&KEPT)
    } else if Path::new("/volume/tmp").is_dir() {
        Ok(&SESSION)
    } else {
        Err(ToolError::new("neither /volume/data nor /volume/tmp is mounted: the notes have nowhere to be kept"))
    }
}

fn read(store: &Store) -> Result<String, ToolError> {
    match std::fs::read_to_string(store.file) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(ToolError::new(format!("read {}: {e}", store.file))),
    }
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Note {
    id: i64,
    title: String,
    body: String,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    created: Option<String>,
}

/// The lines that are whole notes; a line cut short is skipped.
fn notes(text: &str) -> impl Iterator<Item = Note> + '_ {
    text.lines().filter_map(|line| serde_json::from_str(line).ok())
}

/// The message subako-tiny's `Args::str_chars` gives.
fn length(field: &str, text: &str, min: usize, max: usize) -> Result<(), ToolError> {
    if (min..=max).contains(&text.chars().count()) {
        return Ok(());
    }
    let bounds = if min == 0 { format!("at most {max}") } else { format!("{min} to {max}") };
    Err(ToolError::new(format!("invalid input: `{field}` must be {bounds} characters long")))
}

/// `text` without the white space around it, unless nothing is left.
fn not_blank<'t>(field: &str, text: &'t str, max: usize) -> Result<&'t str, ToolError> {
    length(field, text, 1, max)?;
    match text.trim() {
        "" => Err(ToolError::new(format!("invalid input: `{field}` must not be blank"))),
        trimmed => Ok(trimmed),
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AddInput {
    /// The note's title: 1 to 200 characters, not blank.
    #[schemars(length(min = 1, max = 200))]
    title: String,
    /// The note's text, up to 100000 characters.
    #[schemars(length(max = 100000))]
    body: String,
    /// Up to 10 tags of 1 to 40 characters each.
    #[schemars(length(max = 10), inner(length(min = 1, max = 40)))]
    tags: Option<Vec<String>>,
    /// When the note was written, as the caller writes it (such as 2026-12-01).
    #[schemars(length(min = 1, max = 40))]
    created: Option<String>,
}

/// Add a note, and answer it with its id. It is kept in /volume/data when the agent enables it (it outlives the session), else in the session volume.
#[function]
fn add(input: AddInput) -> Result<Note, ToolError> {
    not_blank("title", &input.title, MAX_TITLE)?;
    length("body", &input.body, 0, MAX_BODY)?;
    let tags = input.tags.unwrap_or_default();
    if tags.len() > MAX_TAGS {
        return Err(ToolError::new(format!("invalid input: `tags` must hold 0 to {MAX_TAGS} items")));
    }
    for (i, tag) in tags.iter().enumerate() {
        length(&format!("tags[{i}]"), tag, 1, MAX_TAG)?;
    }
    if let Some(created) = &input.created {
        length("created", created, 1, MAX_CREATED)?;
    }

    let store = store()?;
    let text = read(store)?;
    let last = notes(&text).map(|note| note.id).max().unwrap_or(0);
    let id =
        last.checked_add(1).ok_or_else(|| ToolError::new(format!("no id is left after {last}: start a new file")))?;
    let note = Note { id, title: input.title, body: input.body, tags, created: input.created };
    let mut line = serde_json::to_string(&note).map_err(|e| ToolError::new(e.to_string()))?;
    line.push('\n');
    // After a last line a full volume cut short, the note starts a line of its own.
    if !text.is_empty() && !text.ends_with('\n') {
        line.insert(0, '\n');
    }
    std::fs::create_dir_all(store.dir).map_err(|e| ToolError::new(format!("create directory {}: {e}", store.dir)))?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(store.file)
        .and_then(|mut file| file.write_all(line.as_bytes()))
        .map_err(|e| ToolError::new(format!("append {}: {e}", store.file)))?;
    Ok(note)
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GetInput {
    /// The note's id, as `add` or `search` gave it.
    #[schemars(range(min = 1))]
    id: i64,
}

/// Read one note by its id.
#[function]
fn get(input: GetInput) -> Result<Note, ToolError> {
    if input.id < 1 {
        return Err(ToolError::new("invalid input: `id` must be an integer of at least 1"));
    }
    let text = read(store()?)?;
    notes(&text)
        .filter(|note| note.id == input.id)
        .last()
        .ok_or_else(|| ToolError::new(format!("no note has id {}: `search` finds notes by their words", input.id)))
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchInput {
    /// The text to find: 1 to 200 characters, not blank.
    #[schemars(length(min = 1, max = 200))]
    query: String,
    /// Only notes with this tag (ignoring case).
    tag: Option<String>,
    /// How many notes to list (default 10).
    #[schemars(range(min = 1, max = 100))]
    limit: Option<i64>,
}

#[derive(Serialize, JsonSchema)]
struct Hit {
    id: i64,
    title: String,
    /// 2 for a match in the title, 1 in the body, 3 in both.
    score: u8,
    /// The body's first 80 characters.
    preview: String,
    tags: Vec<String>,
}

#[derive(Serialize, JsonSchema)]
struct Found {
    query: String,
    /// How many notes match, listed or not.
    matches: usize,
    notes: Vec<Hit>,
}

fn limit(limit: Option<i64>) -> Result<usize, ToolError> {
    match limit.unwrap_or(10) {
        n @ 1..=100 => Ok(n as usize),
        _ => Err(ToolError::new("invalid input: `limit` must be an integer from 1 to 100")),
    }
}

/// Find the notes whose title or body holds some text, ignoring case in every script: title matches first, then the newest.
#[function]
fn search(input: SearchInput) -> Result<Found, ToolError> {
    let query = not_blank("query", &input.query, MAX_TITLE)?.to_string();
    let limit = limit(input.limit)?;
    let text = read(store()?)?;

    let needle = query.to_lowercase();
    let tag = input.tag.map(|t| t.to_lowercase());
    let mut hits = Vec::new();
    for note in notes(&text) {
        if let Some(tag) = &tag
            && !note.tags.iter().any(|t| t.to_lowercase() == *tag)
        {
            continue;
        }
        let in_title = note.title.to_lowercase().contains(&needle);
        let in_body = note.body.to_lowercase().contains(&needle);
        if in_title || in_body {
            hits.push((2 * in_title as u8 + in_body as u8, note));
        }
    }
    hits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.id.cmp(&a.1.id)));
    let matches = hits.len();
    let notes = hits
        .into_iter()
        .take(limit)
        .map(|(score, note)| {
            let mut preview: String = note.body.chars().take(PREVIEW).collect();
            if note.body.chars().nth(PREVIEW).is_some() {
                preview.push('…');
            }
            Hit { id: note.id, title: note.title, score, preview, tags: note.tags }
        })
        .collect();
    Ok(Found { query, matches, notes })
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StatsInput {
    /// How many tags and words to list (default 10).
    #[schemars(range(min = 1, max = 100))]
    limit: Option<i64>,
}

/// The bodies' lengths in characters.
#[derive(Serialize, JsonSchema)]
struct Characters {
    total: u64,
    shortest: u64,
    longest: u64,
    mean: f64,
    /// The population standard deviation.
    std_dev: f64,
}

#[derive(Serialize, JsonSchema)]
struct TagCount {
    tag: String,
    count: usize,
}

#[derive(Serialize, JsonSchema)]
struct WordCount {
    word: String,
    count: usize,
}

#[derive(Serialize, JsonSchema)]
struct Stats {
    notes: u64,
    characters: Characters,
    /// The most used tags, lowercased.
    tags: Vec<TagCount>,
    /// The most frequent words of titles and bodies, lowercased.
    words: Vec<WordCount>,
}

/// A char between words: white space, or punctuation of ASCII, Latin-1,
/// Unicode's General Punctuation, CJK's (`、。「」`) or fullwidth forms.
fn between_words(c: char) -> bool {
    matches!(c, '!'..='/' | ':'..='@' | '['..='`' | '{'..='~' | '\u{a1}'..='\u{bf}' | '\u{d7}' | '\u{f7}'
        | '\u{2000}'..='\u{206f}' | '\u{3000}'..='\u{303f}' | '\u{ff01}'..='\u{ff0f}' | '\u{ff1a}'..='\u{ff20}'
        | '\u{ff3b}'..='\u{ff40}' | '\u{ff5b}'..='\u{ff65}')
        || c.is_whitespace()
}

/// Counted items, the most frequent first, equal numbers in byte order.
fn by_count(counts: BTreeMap<String, usize>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = counts.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1));
    counts
}

fn cents(x: f64) -> f64 {
    (x * 100.0).round_ties_even() / 100.0
}

/// Count the notes, their bodies' lengths in characters, their tags and their most frequent words (leaving out common words).
#[function]
fn stats(input: StatsInput) -> Result<Stats, ToolError> {
    let limit = limit(input.limit)?;
    let stopwords = std::fs::read_to_string(STOPWORDS).map_err(|e| ToolError::new(format!("read {STOPWORDS}: {e}")))?;
    let stopwords: BTreeSet<&str> =
        stopwords.lines().map(str::trim).filter(|w| !w.is_empty() && !w.starts_with('#')).collect();
    let text = read(store()?)?;

    let (mut count, mut total, mut squares, mut shortest, mut longest) = (0u64, 0u64, 0u64, u64::MAX, 0u64);
    let mut words = BTreeMap::new();
    let mut tags = BTreeMap::new();
    for note in notes(&text) {
        let length = note.body.chars().count() as u64;
        count += 1;
        total += length;
        squares += length * length;
        shortest = shortest.min(length);
        longest = longest.max(length);
        for text in [&note.title, &note.body] {
            for word in text.to_lowercase().split(between_words).filter(|w| !w.is_empty()) {
                *words.entry(word.to_string()).or_insert(0) += 1;
            }
        }
        for tag in &note.tags {
            *tags.entry(tag.to_lowercase()).or_insert(0) += 1;
        }
    }
    let (mean, deviation) = if count == 0 {
        (0.0, 0.0)
    } else {
        let mean = total as f64 / count as f64;
        (mean, (squares as f64 / count as f64 - mean * mean).max(0.0).sqrt())
    };
    words.retain(|word, _| !stopwords.contains(word.as_str()));

    Ok(Stats {
        notes: count,
        characters: Characters {
            total,
            shortest: if count == 0 { 0 } else { shortest },
            longest,
            mean: cents(mean),
            std_dev: cents(deviation),
        },
        tags: by_count(tags).into_iter().take(limit).map(|(tag, count)| TagCount { tag, count }).collect(),
        words: by_count(words).into_iter().take(limit).map(|(word, count)| WordCount { word, count }).collect(),
    })
}

package! {
    name: "notes",
    description: "Keeps notes in the volume, and searches and summarises them.",
    functions: [add, get, search, stats],
}
