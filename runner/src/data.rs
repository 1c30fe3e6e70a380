//! Where a module's data bytes go. wasm-ld merges every constant into one
//! `.rodata` segment, so the segments alone say nothing; but the code still
//! names each constant it reads by its address (an `i32.const`, or a load's
//! offset). Cutting the segments at those addresses gives back the pieces,
//! each with the functions that read it, and so the crate it belongs to.
//! Constants that only other constants point at (a table of `&str`s) stay
//! inside the piece before them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};
use wasmparser::{ConstExpr, DataKind, Operator, Parser, Payload};

use crate::module::Func;
use crate::text::{table, thousands};

/// One piece of a data segment: from an address the code refers to up to
/// the next such address (or the segment's end).
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// Its address in linear memory.
    pub address: u64,
    pub size: usize,
    /// The functions that refer to its first byte (code-section indices).
    pub readers: Vec<usize>,
    /// The addresses of the data words that point at it.
    pub held_by: Vec<u64>,
    /// When no function refers to it: the functions that read the pieces
    /// pointing at it.
    pub via: Vec<usize>,
    /// Whether it is the package's fixed answers.
    pub answers: bool,
    /// Whether it is the name of a Rust source file (a panic location's):
    /// `/rustc/…` for std's, a registry path for a dependency's.
    pub source_file: bool,
    /// The crate of the code that reads it, or of the data that points at it.
    pub owner: String,
    /// The start of its bytes, as text when they are text.
    pub preview: String,
}

/// The start of the package's fixed answers (`main!` renders them into one
/// constant: initialize's answer, tools/list's, then the manifest), and the
/// start and end of the manifest, which closes it.
const ANSWERS_START: &[u8] = b",\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/serverInfo\"";
const MANIFEST_START: &[u8] = b"{\n  \"abi\": ";
const MANIFEST_END: &[u8] = b"\n}\n";

/// What [`Piece::owner`] says of the package's fixed answers.
pub const ANSWERS: &str = "the package (main!: its tools' names, descriptions and schemas)";

/// Who refers to an address: functions (code-section indices) and the
/// addresses of the data words that hold it.
#[derive(Default)]
struct Refs {
    funcs: BTreeSet<usize>,
    data: BTreeSet<u64>,
}

/// The pieces of every active segment with a constant address, largest first.
pub fn pieces(bytes: &[u8], funcs: &[Func]) -> Vec<Piece> {
    let mut segments: Vec<(u64, &[u8])> = Vec::new();
    let mut refs: BTreeMap<u64, Refs> = BTreeMap::new();
    let mut body = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        match payload {
            Ok(Payload::DataSection(s)) => {
                for d in s.into_iter().flatten() {
                    if let DataKind::Active { offset_expr, .. } = d.kind
                        && let Some(at) = const_address(&offset_expr)
                    {
                        segments.push((at, d.data));
                    }
                }
            }
            Ok(Payload::CodeSectionEntry(b)) => {
                if let Ok(mut ops) = b.get_operators_reader() {
                    // An `i32.const` counts once the next operator shows
                    // it is not a number: compared, masked or scaled, it is
                    // a char or a count (`c < 0x11EF3`), not an address.
                    let mut constant = None;
                    while !ops.eof() {
                        let Ok(op) = ops.read() else { break };
                        if let Some(a) = constant.take()
                            && !arithmetic(&op)
                        {
                            refs.entry(a).or_default().funcs.insert(body);
                        }
                        match op {
                            Operator::I32Const { value } => constant = Some(value as u32 as u64),
                            _ => {
                                if let Some(a) = address(&op) {
                                    refs.entry(a).or_default().funcs.insert(body);
                                }
                            }
                        }
                    }
                }
                body += 1;
            }
            _ => {}
        }
    }
    let inside = |a: u64| segments.iter().any(|&(s, d)| a >= s && a < s + d.len() as u64);
    // Pointers held in data (a `&str` in a table, a panic location's file
    // name): the aligned words whose value is an address in some segment
    // and whose next word is a length that fits there, as a slice's is. A
    // table of chars in the same range has no such length after each.
    for &(start, data) in &segments {
        let skip = start.wrapping_neg() % 4;
        let words: Vec<u64> = data
            .get(skip as usize..)
            .unwrap_or_default()
            .chunks_exact(4)
            .map(|w| u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]])))
            .collect();
        for (i, pair) in words.windows(2).enumerate() {
            let (value, len) = (pair[0], pair[1]);
            if value != 0 && len != 0 && inside(value) && inside(value + len - 1) {
                refs.entry(value).or_default().data.insert(start + skip + 4 * i as u64);
            }
        }
    }
    let mut out = Vec::new();
    for &(start, data) in &segments {
        let end = start + data.len() as u64;
        let mut cuts: BTreeSet<u64> = refs.range(start..end).map(|(&a, _)| a).collect();
        cuts.insert(start);
        // The package's answers are one constant: one piece, whatever their
        // parts' readers.
        let mut answers = None;
        if let Some(a) = find(data, ANSWERS_START)
            && let Some(m) = find(&data[a..], MANIFEST_START)
            && let Some(e) = find(&data[a + m..], MANIFEST_END)
        {
            let (from, to) = (start + a as u64, start + (a + m + e + MANIFEST_END.len()) as u64);
            cuts.retain(|&c| c <= from || c >= to);
            cuts.insert(from);
            cuts.insert(to);
            answers = Some(from);
        }
        let cuts: Vec<u64> = cuts.into_iter().filter(|&c| c < end).collect();
        for (i, &at) in cuts.iter().enumerate() {
            let to = cuts.get(i + 1).copied().unwrap_or(end);
            let piece = &data[(at - start) as usize..(to - start) as usize];
            let r = refs.get(&at);
            out.push(Piece {
                address: at,
                size: piece.len(),
                readers: r.map(|r| r.funcs.iter().copied().filter(|&f| f < funcs.len()).collect()).unwrap_or_default(),
                held_by: r.map(|r| r.data.iter().copied().collect()).unwrap_or_default(),
                via: Vec::new(),
                answers: answers == Some(at),
                source_file: is_source_file(piece),
                preview: if is_source_file(piece) { file_preview(piece) } else { preview(piece) },
                owner: String::new(),
            });
        }
    }
    // Owners: by the code that reads a piece, and by the owners of the
    // pieces that hold a pointer to it.
    out.sort_by_key(|p| p.address);
    let (mut owners, mut seen) = (vec![None; out.len()], vec![false; out.len()]);
    for i in 0..out.len() {
        let owner = owner_of(&out, i, funcs, &mut owners, &mut seen);
        out[i].owner = if owner.is_empty() { "(nothing refers to it)".into() } else { owner };
    }
    // For a piece only data points at: the functions that read the pieces
    // holding those pointers (for a panic location's file, where it panics).
    for i in 0..out.len() {
        if out[i].readers.is_empty() {
            let mut via = BTreeSet::new();
            for &at in &out[i].held_by {
                if let Some(h) = out.partition_point(|q| q.address <= at).checked_sub(1)
                    && h != i
                {
                    via.extend(out[h].readers.iter().copied());
                }
            }
            out[i].via = via.into_iter().collect();
        }
    }
    out.sort_by(|a, b| b.size.cmp(&a.size).then(a.address.cmp(&b.address)));
    out
}

/// Piece `i`'s owner (empty when nothing refers to it): the crates of its
/// readers and of its holders' owners, found by walking up the holders
/// (`seen`, the pieces on the walk, stops it at a cycle of pointers) and kept in `known`.
fn owner_of(pieces: &[Piece], i: usize, funcs: &[Func], known: &mut [Option<String>], seen: &mut [bool]) -> String {
    if let Some(o) = &known[i] {
        return o.clone();
    }
    let p = &pieces[i];
    if p.answers {
        return ANSWERS.into();
    }
    seen[i] = true;
    let mut owners: BTreeSet<String> = p.readers.iter().map(|&f| funcs[f].owner.clone()).collect();
    for &at in &p.held_by {
        if let Some(h) = pieces.partition_point(|q| q.address <= at).checked_sub(1)
            && !seen[h]
        {
            let o = owner_of(pieces, h, funcs, known, seen);
            if !o.is_empty() {
                owners.insert(o);
            }
        }
    }
    let owner = match owners.len() {
        0 => String::new(),
        1 => owners.into_iter().next().unwrap_or_default(),
        _ => "several crates".into(),
    };
    seen[i] = false;
    known[i] = Some(owner.clone());
    owner
}

/// A source file's name in quotes, its last 48 characters when longer;
/// std's without `/rustc/HASH/`, which says less than `library/alloc/…`.
fn file_preview(bytes: &[u8]) -> String {
    let name = String::from_utf8_lossy(bytes);
    let name = name.trim_end_matches('\0');
    let name = match name.strip_prefix("/rustc/").and_then(|rest| rest.split_once('/')) {
        Some((_hash, path)) => path,
        None => name,
    };
    let count = name.chars().count();
    match count.checked_sub(48) {
        Some(skip) if skip > 0 => format!("…\"{}\"", name.chars().skip(skip).collect::<String>()),
        _ => format!("\"{name}\""),
    }
}

/// Whether `bytes` are a Rust source file's name (and the padding after it).
fn is_source_file(bytes: &[u8]) -> bool {
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let name = &bytes[..end];
    name.ends_with(b".rs") && std::str::from_utf8(name).is_ok_and(|t| !t.contains(char::is_control))
}

/// Where `needle` first occurs in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A segment's address when its offset is one `i32.const` (or `i64.const`).
fn const_address(expr: &ConstExpr) -> Option<u64> {
    let mut ops = expr.get_operators_reader();
    match ops.read().ok()? {
        Operator::I32Const { value } => Some(value as u32 as u64),
        Operator::I64Const { value } => Some(value as u64),
        _ => None,
    }
}

/// Whether `op`, after an `i32.const`, treats it as a number: compares,
/// masks, subtracts or scales by it. An address is added to, loaded from,
/// stored, passed or returned.
fn arithmetic(op: &Operator) -> bool {
    use Operator::*;
    matches!(
        op,
        I32Eq
            | I32Ne
            | I32LtS
            | I32LtU
            | I32GtS
            | I32GtU
            | I32LeS
            | I32LeU
            | I32GeS
            | I32GeU
            | I32Sub
            | I32Mul
            | I32DivS
            | I32DivU
            | I32RemS
            | I32RemU
            | I32And
            | I32Or
            | I32Xor
            | I32Shl
            | I32ShrS
            | I32ShrU
            | I32Rotl
            | I32Rotr
    )
}

/// The address a load or store names by its constant offset (a table read
/// at `offset=TABLE` from a computed index).
fn address(op: &Operator) -> Option<u64> {
    use Operator::*;
    match op {
        I32Load { memarg }
        | I64Load { memarg }
        | F32Load { memarg }
        | F64Load { memarg }
        | I32Load8S { memarg }
        | I32Load8U { memarg }
        | I32Load16S { memarg }
        | I32Load16U { memarg }
        | I64Load8S { memarg }
        | I64Load8U { memarg }
        | I64Load16S { memarg }
        | I64Load16U { memarg }
        | I64Load32S { memarg }
        | I64Load32U { memarg }
        | I32Store { memarg }
        | I64Store { memarg }
        | F32Store { memarg }
        | F64Store { memarg }
        | I32Store8 { memarg }
        | I32Store16 { memarg }
        | I64Store8 { memarg }
        | I64Store16 { memarg }
        | I64Store32 { memarg } => Some(memarg.offset).filter(|&o| o != 0),
        _ => None,
    }
}

/// Up to 48 characters of `bytes` in quotes when they start as text (a
/// line break shown as `\n`), else how many bytes of table.
fn preview(bytes: &[u8]) -> String {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
    };
    let printable = |c: char| !c.is_control() || c == '\n';
    let head: String = text.chars().take_while(|&c| printable(c)).take(48).collect();
    // Text when at least the first eight bytes (or all of a shorter piece) read as text.
    if head.len() < bytes.len().min(8) || head.is_empty() {
        return "(table or numbers)".into();
    }
    let more = if head.len() < bytes.len() { "…" } else { "" };
    format!("\"{}\"{more}", head.replace('\n', "\\n"))
}

impl Piece {
    /// Who reads it: a function's name, or the first and how many more.
    pub fn read_by(&self, funcs: &[Func]) -> String {
        if self.answers {
            return "main! (initialize, tools/list, the manifest)".into();
        }
        let names = |list: &[usize]| names(list, funcs);
        if let Some(readers) = names(&self.readers) {
            return readers;
        }
        let what = match (self.held_by.is_empty(), self.source_file) {
            (true, _) => return "-".into(),
            (false, true) => "a panic location's file name",
            (false, false) => "a pointer in other data",
        };
        match names(&self.via) {
            Some(via) => format!("{what}, for {via}"),
            None => format!("({what})"),
        }
    }
}

/// A function's name, or the first's and how many more.
fn names(list: &[usize], funcs: &[Func]) -> Option<String> {
    match list {
        [] => None,
        [f] => Some(funcs[*f].name.clone()),
        [f, rest @ ..] => Some(format!("{} and {} more", funcs[*f].name, rest.len())),
    }
}

/// Bytes and pieces of data by the crate of the code that reads them, largest first.
pub fn by_owner(pieces: &[Piece]) -> Vec<(String, usize, usize)> {
    let mut m: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for p in pieces {
        let e = m.entry(p.owner.as_str()).or_default();
        e.0 += p.size;
        e.1 += 1;
    }
    let mut v: Vec<_> = m.into_iter().map(|(o, (b, n))| (o.to_string(), b, n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// The data by crate and the `top` largest pieces, as `size --explain` prints them.
pub fn to_text(pieces: &[Piece], funcs: &[Func], top: usize) -> String {
    if pieces.is_empty() {
        return String::new();
    }
    let total: usize = pieces.iter().map(|p| p.size).sum();
    let mut s = format!(
        "\ndata by crate ({} bytes, cut where code or data refers to an address; each piece counted for the \
         crate whose code reads it, or whose data points at it):\n",
        thousands(total)
    );
    let rows: Vec<Vec<String>> =
        by_owner(pieces).into_iter().map(|(o, b, n)| vec![o, thousands(b), n.to_string()]).collect();
    s += &table(&["crate", "bytes", "pieces"], &rows, &[0], "");
    s += &format!("\nlargest {} pieces of data:\n", top.min(pieces.len()));
    let rows: Vec<Vec<String>> =
        pieces.iter().take(top).map(|p| vec![thousands(p.size), p.preview.clone(), p.read_by(funcs)]).collect();
    s += &table(&["bytes", "starts with", "read by"], &rows, &[1, 2], "");
    // Every panic location, however small: each is a panic path an index,
    // `unwrap` or division left in a function, which the guide says to
    // look for here.
    let places: Vec<&Piece> = pieces.iter().filter(|p| p.source_file && !p.held_by.is_empty()).collect();
    if !places.is_empty() {
        s += &format!(
            "\npanic locations ({} file name{}, each named by the places a function can panic in it; std's are \
             under library/; in your own files, `get` instead of an index and `?` or a default instead of \
             `unwrap` take them out):\n",
            places.len(),
            if places.len() == 1 { "" } else { "s" }
        );
        let rows: Vec<Vec<String>> =
            places.iter().map(|p| vec![p.preview.clone(), names(&p.via, funcs).unwrap_or_default()]).collect();
        s += &table(&["file", "in"], &rows, &[0, 1], "");
    }
    s
}

/// The same as JSON: `{address, size, owner, read_by, readers, preview}`
/// per piece (`readers`: every function that names its address).
pub fn to_json(pieces: &[Piece], funcs: &[Func]) -> Value {
    pieces
        .iter()
        .map(|p| {
            json!({
                "address": p.address, "size": p.size, "owner": p.owner,
                "read_by": p.read_by(funcs),
                "readers": p.readers.iter().map(|&f| funcs[f].name.as_str()).collect::<Vec<_>>(),
                "preview": p.preview,
            })
        })
        .collect()
}
