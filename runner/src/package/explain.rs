//! `size --manifest-path … --explain BIN`: where one module's bytes go. An
//! unstripped build (the same code, with names) beside the module as built:
//! sections, code by crate, cold compile time by crate, the largest
//! functions and data, and the advisor's lines.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::builds::{PackageOptions, build, names_build};
use super::{Package, Variant};
use crate::Error;
use crate::advisor::{Advice, advise};
use crate::bench::CompileTimes;
use crate::error::read;
use crate::size::{SizeReport, by_owner, segments_text, size};
use crate::text::{count, table, thousands};

/// Cold compile ms of a module, of its frame (every body emptied), and of
/// each crate's bodies less the frame, largest first.
#[derive(Clone, Debug)]
pub struct CompileSplit {
    pub module_ms: f64,
    pub frame_ms: f64,
    pub by_crate: Vec<(String, f64)>,
}

/// One module explained.
#[derive(Clone, Debug)]
pub struct Explained {
    pub title: String,
    pub module: PathBuf,
    pub unstripped: PathBuf,
    pub names: SizeReport,
    pub stripped: SizeReport,
    /// Cold compile ms: (the whole module, its frame, each crate's bodies less the frame).
    pub compile: Option<CompileSplit>,
    pub advice: Vec<Advice>,
    /// The crate's optional layers, read from the same names.
    pub layers: Vec<Layer>,
    pub top: usize,
}

/// Explains `target` built as `variant`.
pub fn explain(
    pkg: &Package,
    opts: &PackageOptions,
    variant: &Variant,
    target: &str,
    top: usize,
) -> Result<Explained, Error> {
    let t = pkg.targets.iter().find(|t| t.name == target).ok_or_else(|| {
        let names: Vec<&str> = pkg.targets.iter().map(|t| t.name.as_str()).collect();
        Error::Input(format!("--explain {target}: no such module in {} (its modules: {})", pkg.name, names.join(", ")))
    })?;
    let sel = pkg.selection(variant, t);
    let unstripped = names_build(pkg, opts, &sel, target)?;
    let module = build(pkg, opts, &sel, Some(target), &[])?.join(format!("{target}.wasm"));
    let ubytes = read(&unstripped)?;
    let mut names = size(&ubytes)?;
    names.cut_data(&ubytes);
    let stripped = size(&read(&module)?)?;
    let authors = [pkg.name.replace('-', "_"), target.replace('-', "_")];
    let authors: Vec<&str> = authors.iter().map(String::as_str).collect();
    let advice = advise(&ubytes, &names, &authors);
    let layers = layers(&names.funcs, &names.pieces);
    let compile = if opts.measure.quick {
        None
    } else {
        Some(compile_split(&read(&module)?, &stripped, &ubytes, &names, &pkg.out_dir(opts.target_dir.as_deref()))?)
    };
    Ok(Explained {
        title: format!("{target} ({}; package {})", variant.label, pkg.name),
        module,
        unstripped,
        names,
        stripped,
        compile,
        advice,
        layers,
        top,
    })
}

impl Explained {
    pub fn to_json(&self) -> Value {
        json!({
            "title": self.title, "module": self.module, "unstripped": self.unstripped,
            "size": self.names.to_json(true), "stripped_bytes": self.stripped.bytes,
            "compile": self.compile.as_ref().map(|c| json!({
                "module_ms": c.module_ms, "frame_ms": c.frame_ms,
                "by_crate": c.by_crate.iter().map(|(k, ms)| json!({"crate": k, "ms": ms})).collect::<Vec<_>>(),
            })),
            "advice": self.advice,
            "layers": self.layers.iter().map(|l| json!({
                "layer": l.name, "bytes": l.bytes, "data": l.data, "functions": l.functions, "tools": l.tools,
            })).collect::<Vec<_>>(),
        })
    }

    pub fn to_text(&self) -> String {
        let n = &self.names;
        let mut s = format!(
            "{}: {}, unstripped {} bytes; the stripped module is {} bytes\n",
            self.title,
            self.unstripped.display(),
            thousands(n.bytes),
            thousands(self.stripped.bytes)
        );
        if n.code_bytes != self.stripped.code_bytes {
            s += &format!(
                "note: code section {} bytes here vs {} stripped (builds differ)\n",
                thousands(n.code_bytes),
                thousands(self.stripped.code_bytes)
            );
        }
        if !n.has_names {
            s += "note: this build has no name section; functions are shown by index\n";
        }
        s += "\nsections (strip drops the custom ones: debug info, names, producers):\n";
        let mut kept: BTreeMap<(u8, &str), usize> = BTreeMap::new();
        for sec in &self.stripped.sections {
            *kept.entry((sec.id, sec.name.as_str())).or_default() += sec.size;
        }
        let rows: Vec<Vec<String>> = n
            .sections
            .iter()
            .map(|sec| {
                let label = if sec.custom { format!("custom {}", sec.name) } else { sec.name.clone() };
                vec![label, thousands(sec.size), count(kept.get(&(sec.id, sec.name.as_str())).map(|&b| b as u64))]
            })
            .collect();
        s += &table(&["section", "unstripped", "stripped"], &rows, &[0], "");
        s += &format!("\ncode by crate ({} bytes in {} functions):\n", thousands(n.code_bytes), n.funcs.len());
        let rows: Vec<Vec<String>> = by_owner(&n.funcs)
            .into_iter()
            .map(|(o, b, k)| {
                vec![o, thousands(b), k.to_string(), format!("{:.1}%", b as f64 * 100.0 / n.code_bytes.max(1) as f64)]
            })
            .collect();
        s += &table(&["crate", "bytes", "functions", "share"], &rows, &[0], "");
        if let Some(CompileSplit { module_ms: whole, frame_ms: frame, by_crate: per }) = &self.compile {
            s += &format!(
                "\ncold compile time by crate (ms; each: a copy of the module keeping only that crate's function \
                 bodies, less a copy keeping none, {frame:.1} ms: the module's frame of functions, imports and \
                 exports; the whole module {whole:.1} ms):\n"
            );
            let rest = (whole - frame).max(1e-9);
            let rows: Vec<Vec<String>> = per
                .iter()
                .map(|(c, t)| vec![c.clone(), format!("{t:.1}"), format!("{:.0}%", t / rest * 100.0)])
                .collect();
            s += &table(&["crate", "ms", "share of code's"], &rows, &[0], "");
        }
        let funcs = n.funcs_by_size();
        s += &format!("\nlargest {} functions:\n", self.top.min(funcs.len()));
        let rows: Vec<Vec<String>> =
            funcs.iter().take(self.top).map(|f| vec![thousands(f.size), f.name.clone()]).collect();
        s += &table(&["bytes", "function"], &rows, &[1], "");
        s += &segments_text(&n.data);
        s += &crate::data::to_text(&n.pieces, &n.funcs, self.top);
        s += &layers_text(&self.layers);
        s += &advice_text(&self.advice);
        s += "\n(read by `subako-tiny size --explain`: names demangled with rustc-demangle)\n";
        s
    }
}

/// The advisor's lines, or a line saying there is nothing to advise.
pub fn advice_text(advice: &[Advice]) -> String {
    if advice.is_empty() {
        return "\nstd routines with a cheaper equivalent: none\n".into();
    }
    let mut s = "\nstd routines with a cheaper equivalent (bytes of their code, and tables: the least that \
                     goes with each, as what the compiler inlined into your functions goes too; the equivalent's \
                     own bytes come back):\n"
        .to_string();
    for a in advice {
        s += &a.to_text();
    }
    s
}

/// One of the crate's optional layers found in a module: the code of the
/// functions that are its own, and the data only they read. What the
/// compiler inlined into other functions (a tool's, or its `validated!`
/// wrapper) is counted as theirs, so taking a layer out can save more.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    pub name: &'static str,
    /// Code bytes.
    pub bytes: usize,
    /// Data bytes: the pieces read by its functions alone.
    pub data: usize,
    pub functions: usize,
    /// For `validated!`: the tools behind it, from their wrappers' names.
    pub tools: Vec<String>,
    pub instead: &'static str,
}

impl Layer {
    /// A layer not yet found: no functions, no bytes.
    fn new(name: &'static str, instead: &'static str) -> Layer {
        Layer { name, bytes: 0, data: 0, functions: 0, tools: Vec::new(), instead }
    }
}

/// `validated!`'s run-time checker and the typed layer, from function names
/// and owners (an unstripped build) and the data `pieces` they read (empty
/// when the data was not cut): what an author pays for each, which the
/// per-crate table files under `subako_tiny` and the advisor, which looks
/// for std's routines, does not name.
pub fn layers(funcs: &[crate::size::Func], pieces: &[crate::data::Piece]) -> Vec<Layer> {
    let checker = Layer::new(
        "validated! (the run-time schema checker, shared by its tools)",
        "a tool whose accessors' bounds say enough (str_chars, int(name, min, max), strs, only) needs no \
         validated!; the checker leaves the module with its last tool",
    );
    let typed = Layer::new(
        "typed! (the typed layer and miniserde's derives)",
        "read arguments with the accessors and write with Reply::object (examples/typed_by_hand.rs is \
         examples/typed.rs without it)",
    );
    let check = Layer::new(
        "the reply check (JSON written token by token with JsonWriter, or copied in as it is: a Value, raw, \
         compact)",
        "build replies with Reply::object / ObjectWriter, whose output cannot be malformed and is not \
         checked; write a Value read from JSON member by member (o.field(name, …)) rather than whole, \
         which brings the stricter check (numbers within f64, no member twice). A record passed through \
         whole, whose members the tool does not know, has no cheaper way: the check is what keeps a \
         record from a file or a response from breaking the reply",
    );
    let errno = Layer::new(
        "FsError's messages (words for every WASI errno, linked by `?` on an FsError or its message())",
        "word the failures the tool expects from FsError::errno() (Some(errno::NOENT) for a missing file) \
         and FsError::path(), and say the rest with FsError::short_message(), which words every reason that \
         is not an errno (a volume not mounted, text not UTF-8 …) as message() does and gives an errno its \
         number: the words for every errno leave the module",
    );
    let json = Layer::new(
        "miniserde::json (to_string, from_str: miniserde's own JSON writer and reader, and the number writers \
         they bring)",
        "the crate's JSON, in the module already: json::object(|o| o.field(…)) for a line of a file (then \
         fs::append_line), Reply::object for a reply, json::parse or json::lines with Object::fields to read \
         one; typed! reads arguments and writes results with the crate's reader and writer, not these",
    );
    let typed_in = funcs.iter().any(|f| f.owner == "miniserde" || f.name.starts_with("subako_tiny::typed::"));
    // typed! reads and writes with the crate's JSON: miniserde's own, and
    // the number writers (zmij, itoa) only it brings beside miniserde, are
    // the author's call of miniserde::json (author trial 29: a file line
    // written with to_string was priced as typed!'s). Without it, number
    // writers are another crate's (serde_json's, in the official SDK).
    let miniserde_json = funcs.iter().any(|f| f.name.starts_with("miniserde::json::"));
    let validated_in = funcs.iter().any(|f| f.name.ends_with("::validated"));
    // Which layer (an index of `found` below) each function is of, if any.
    let of: Vec<Option<usize>> = funcs
        .iter()
        .map(|f| {
            if f.name.starts_with("subako_tiny::schema::") {
                // The typed layer words its errors with the checker's paths
                // and walks an object with its scanner (author trial 25: a
                // module with typed! alone was told to drop validated!):
                // typed!'s when no tool is validated!, neither's alone when
                // both are in.
                let shared = ["Path", "Walk", "string_scan"]
                    .iter()
                    .any(|n| f.name.strip_prefix("subako_tiny::schema::validate::").is_some_and(|r| r.starts_with(n)));
                match (shared && typed_in, validated_in) {
                    (false, _) => Some(0),
                    (true, false) => Some(1),
                    (true, true) => None,
                }
            } else if f.name.starts_with("miniserde::json::")
                || miniserde_json && ["zmij", "itoa", "ryu"].contains(&f.owner.as_str())
            {
                Some(4)
            } else if typed_in && f.owner == "miniserde" || f.name.starts_with("subako_tiny::typed::") {
                Some(1)
            } else if f.name.starts_with("subako_tiny::json::output::") {
                Some(2)
            } else if f.name.starts_with("subako_tiny::fs::error::")
                // Made by every failed file operation, worded or not.
                && !f.name.starts_with("subako_tiny::fs::error::FsError::new")
            {
                Some(3)
            } else {
                None
            }
        })
        .collect();
    let mut found = [checker, typed, check, errno, json];
    for (f, layer) in funcs.iter().zip(&of) {
        if let Some(l) = *layer {
            found[l].bytes += f.size;
            found[l].functions += 1;
        } else if let Some(tool) = f.name.strip_suffix("::validated") {
            found[0].tools.push(tool.rsplit("::").next().unwrap_or(tool).to_string());
        }
    }
    for p in pieces {
        let readers = if p.readers.is_empty() { &p.via } else { &p.readers };
        let layer = |r: &usize| of.get(*r).copied().flatten();
        // The errno words are known by their start: the compiler inlines
        // their reader into whatever turns an FsError into text (`?`'s
        // `from_residual`, a tool).
        if p.preview.starts_with(ERRNO_WORDS_START) {
            found[3].data += p.size;
        } else if let Some(l) = readers.first().and_then(layer)
            && readers.iter().all(|r| layer(r) == Some(l))
        {
            found[l].data += p.size;
        }
    }
    found[0].tools.sort();
    // The errno words are the layer: without them, the functions of
    // `fs::error` left are what `FsError::short_message` keeps (a volume
    // not mounted worded), which the advice leads to (review 85, trial 86:
    // the advice stood, for 55 B, after it was followed).
    if found[3].data == 0 && !funcs.iter().any(|f| f.name.starts_with("subako_tiny::fs::error::errno_words")) {
        (found[3].bytes, found[3].functions) = (0, 0);
    }
    found.into_iter().filter(|l| l.functions > 0 || l.data > 0).collect()
}

/// How the preview of `subako_tiny::fs`'s words for every errno begins
/// (`ERRNO_TEXT`, its line for errno 0 first; a line break shown as `\n`).
const ERRNO_WORDS_START: &str = "\"ESUCCESS\\n";

fn layers_text(layers: &[Layer]) -> String {
    if layers.is_empty() {
        return String::new();
    }
    let mut s = "\nthe crate's optional layers (at least: the code and data that are theirs alone; what the compiler \
                 inlined into a tool's functions counts as the tool's, so taking a layer out can save more):\n"
        .to_string();
    for l in layers {
        s += &format!(
            "{:>8} B  {}, {} functions ({} B of code, {} B of data)",
            thousands(l.bytes + l.data),
            l.name,
            l.functions,
            thousands(l.bytes),
            thousands(l.data)
        );
        if !l.tools.is_empty() {
            s += &format!(", for tools: {}", l.tools.join(", "));
        }
        s += &format!("\n            instead: {}\n", l.instead);
    }
    s
}

/// Cold compile ms of `module` (the stripped build), of its frame (every
/// body emptied), and of each crate's bodies alone less the frame. Crates
/// are read from the unstripped build when its code is the same.
fn compile_split(
    module: &[u8],
    info: &SizeReport,
    unstripped: &[u8],
    names: &SizeReport,
    out: &Path,
) -> Result<CompileSplit, Error> {
    let same = info.funcs.iter().map(|f| f.size).eq(names.funcs.iter().map(|f| f.size));
    let (bytes, info) = if same { (module, info) } else { (unstripped, names) };
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for f in &names.funcs {
        groups.entry(f.owner.as_str()).or_default().push(f.index);
    }
    let dir = tempfile::Builder::new().prefix("subako-compile-split").tempdir_in(ensure(out)?)?;
    let mut copies = vec![("module".to_string(), bytes.to_vec()), ("frame".to_string(), with_bodies(bytes, info, &[]))];
    for (g, keep) in &groups {
        copies.push((g.to_string(), with_bodies(bytes, info, keep)));
    }
    let mut paths = Vec::new();
    for (k, (_, data)) in copies.iter().enumerate() {
        let p = dir.path().join(format!("copy-{k}.wasm"));
        std::fs::write(&p, data).map_err(|e| Error::file(&p, e))?;
        paths.push(p);
    }
    let times = CompileTimes::measure(&paths, 11)?;
    let ms: Vec<f64> = times.times.iter().map(|t| t[0]).collect();
    let frame = ms[1];
    let mut per: Vec<(String, f64)> =
        copies[2..].iter().zip(&ms[2..]).map(|((g, _), t)| (g.clone(), (t - frame).max(0.0))).collect();
    per.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok(CompileSplit { module_ms: ms[0], frame_ms: frame, by_crate: per })
}

fn ensure(dir: &Path) -> Result<&Path, Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::file(dir, e))?;
    Ok(dir)
}

fn uleb(mut n: usize, out: &mut Vec<u8>) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        out.push(byte | if n != 0 { 0x80 } else { 0 });
        if n == 0 {
            return;
        }
    }
}

/// A copy of `bytes` in which every function body but those at the code
/// section's indices in `keep` only traps (no locals; `unreachable`; `end`):
/// it still validates and compiles, costing the kept functions plus the
/// module's frame.
fn with_bodies(bytes: &[u8], info: &SizeReport, keep: &[usize]) -> Vec<u8> {
    let mut out = bytes[..8].to_vec();
    for s in &info.sections {
        let mut payload = bytes[s.offset..s.offset + s.size].to_vec();
        if s.id == 10 && !s.custom {
            payload.clear();
            uleb(info.funcs.len(), &mut payload);
            for f in &info.funcs {
                if keep.contains(&f.index) {
                    payload.extend_from_slice(&bytes[f.offset..f.offset + f.size]);
                } else {
                    payload.extend_from_slice(&[3, 0, 0, 0x0b]);
                }
            }
        }
        out.push(s.id);
        uleb(payload.len(), &mut out);
        out.extend_from_slice(&payload);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::layers;
    use crate::size::Func;

    fn func(name: &str, owner: &str, size: usize) -> Func {
        Func { index: 0, func_index: 0, offset: 0, size, symbol: None, name: name.into(), owner: owner.into() }
    }

    #[test]
    fn the_optional_layers_are_priced_and_their_tools_named() {
        let funcs = [
            func("subako_tiny::schema::validate::check_counted", "subako_tiny", 3000),
            func("subako_tiny::schema::validate::fail", "subako_tiny", 800),
            func("shop::PACKAGE::order::validated", "shop", 2000),
            func("shop::PACKAGE::refund::validated", "shop", 500),
            func("miniserde::de::Visitor::string", "miniserde", 400),
            func("zmij::format", "zmij", 900),
            func("subako_tiny::typed::call", "subako_tiny", 100),
            func("subako_tiny::json::output::strict", "subako_tiny", 1900),
            func("subako_tiny::json::output::walk", "subako_tiny", 600),
            func("subako_tiny::protocol::serve_line", "subako_tiny", 2000),
        ];
        let piece = |size: usize, readers: Vec<usize>| crate::data::Piece {
            address: 0,
            size,
            readers,
            held_by: Vec::new(),
            via: Vec::new(),
            answers: false,
            source_file: false,
            owner: String::new(),
            preview: String::new(),
        };
        // Data read by the checker alone, by miniserde alone, and by the
        // checker and the serve loop (the layer's only in part: not counted).
        let pieces = [piece(120, vec![0, 1]), piece(64, vec![4]), piece(999, vec![0, 9])];
        let found = layers(&funcs, &pieces);
        assert_eq!(found.len(), 3);
        assert_eq!((found[0].bytes, found[0].data, found[0].functions), (3800, 120, 2));
        assert_eq!(found[0].tools, ["order", "refund"]);
        // zmij, with no miniserde::json to bring it, is no layer's.
        assert_eq!((found[1].bytes, found[1].data, found[1].functions), (500, 64, 2));
        assert!(found[2].name.starts_with("the reply check"));
        assert_eq!((found[2].bytes, found[2].functions), (2500, 2));
        // A module with none of them names none, and number writers
        // without miniserde or the typed layer (serde_json's) are no layer.
        assert!(layers(&funcs[9..], &[]).is_empty());
        // The errno words, read by a function of the author's (inlined into
        // `?`), with no function of the layer left: named by their start.
        let mut words = piece(1753, vec![9]);
        words.preview = r#""ESUCCESS\nargument list too long (E2BIG)"…"#.into();
        let found = layers(&funcs[9..], &[words]);
        assert_eq!(found.len(), 1);
        assert!(found[0].name.starts_with("FsError's messages"));
        assert_eq!((found[0].bytes, found[0].data, found[0].functions), (0, 1753, 0));
        // FsError::new alone, which every failed file operation makes,
        // worded by the author or not (author trial 21): no layer to act on.
        assert!(layers(&[func("subako_tiny::fs::error::FsError::new", "subako_tiny", 74)], &[]).is_empty());
        // What `short_message` keeps, without the errno words: the advice
        // followed, no layer left to advise on (review 85).
        let short = [
            func("subako_tiny::fs::error::is_under", "subako_tiny", 55),
            func("subako_tiny::fs::error::FsError::short_message", "subako_tiny", 120),
        ];
        assert!(layers(&short, &[]).is_empty());
        let mut with_words = short.to_vec();
        with_words.push(func("subako_tiny::fs::error::errno_words", "subako_tiny", 60));
        assert_eq!(layers(&with_words, &[])[0].functions, 3);
        let serde = [func("zmij::format", "zmij", 900), func("itoa::Buffer::format", "itoa", 200)];
        assert!(layers(&serde, &[]).is_empty());
    }

    #[test]
    fn miniserde_json_and_the_number_writers_it_brings_are_not_typed_s() {
        // Author trial 29: a line of a file written with
        // miniserde::json::to_string was priced as typed!'s, whose reading
        // and writing are the crate's.
        let funcs = [
            func("expenses::PACKAGE::add::typed", "expenses", 2900),
            func("subako_tiny::typed::read", "subako_tiny", 2000),
            func("miniserde::de::impls::<impl miniserde::de::Deserialize for f64>::begin", "miniserde", 300),
            func("miniserde::json::ser::to_string", "miniserde", 1200),
            func("miniserde::json::ser::escape_str", "miniserde", 250),
            func("zmij::format", "zmij", 900),
            func("itoa::Buffer::format", "itoa", 200),
        ];
        let found = layers(&funcs, &[]);
        assert_eq!(found.len(), 2);
        assert!(found[0].name.starts_with("typed!"));
        assert_eq!((found[0].bytes, found[0].functions), (2300, 2));
        assert!(found[1].name.starts_with("miniserde::json"));
        assert!(found[1].instead.contains("fs::append_line"));
        assert_eq!((found[1].bytes, found[1].functions), (2550, 4));
    }

    #[test]
    fn the_checkers_paths_and_scanner_are_typed_s_when_no_tool_is_validated() {
        // Author trial 25: typed! alone was priced as validated!'s checker.
        let typed_only = [
            func("glossary::PACKAGE::rename::typed", "glossary", 2900),
            func("subako_tiny::typed::read", "subako_tiny", 2000),
            func("subako_tiny::schema::validate::string_scan", "subako_tiny", 300),
            func("subako_tiny::schema::validate::Path::write", "subako_tiny", 200),
            func("subako_tiny::schema::validate::Path::invalid_input", "subako_tiny", 230),
        ];
        let found = layers(&typed_only, &[]);
        assert_eq!(found.len(), 1);
        assert!(found[0].name.starts_with("typed!"));
        assert_eq!((found[0].bytes, found[0].functions), (2730, 4));
        // With a validated! tool too, they are neither's alone; the rest of
        // the checker is its own.
        let mut both = typed_only.to_vec();
        both.push(func("glossary::PACKAGE::add::validated", "glossary", 500));
        both.push(func("subako_tiny::schema::validate::check_counted", "subako_tiny", 3000));
        let found = layers(&both, &[]);
        assert_eq!(found.len(), 2);
        assert!(found[0].name.starts_with("validated!"));
        assert_eq!((found[0].bytes, found[0].functions, found[0].tools.clone()), (3000, 1, vec!["add".to_string()]));
        assert_eq!((found[1].bytes, found[1].functions), (2000, 1));
    }
}
