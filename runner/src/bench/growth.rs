//! The growth benchmark (`subako-tiny bench --growth`): fuel per
//! request-line byte as one argument of a tools/call grows (ASCII, escapes,
//! raw 2-, 3- and 4-byte UTF-8; read by the tool or not), and fuel per file
//! byte of a JSON Lines workload: a tool reading records from a file in
//! `/volume/data` as the file grows.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use crate::Error;
use crate::crash::judge;
use crate::error::read;
use crate::exec::{Module, RunOptions};

use super::fuel::fuel_of;
use super::jsonl::{JsonlProbe, JsonlWorkload, jsonl_probes};
use crate::text::ratio as ratio_of;

pub use crate::text::{KIB, MIB};
/// Request-line sizes (bytes, newline excluded) the growth benchmark measures.
pub const GROWTH_SIZES: [usize; 4] = [KIB, 128 * KIB, MIB, 16 * MIB];
/// Payload bytes of the small baseline line of each kind (one `\u00e9`).
const BASE_PAYLOAD: usize = 6;
/// The tools/call line of the platform's ABI document (`../shared/seeds/`), verbatim.
const SEED_CALL: &str = r#"{"jsonrpc":"2.0","id":"call-0192f5c4","method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"subako","version":"0.2.3"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;
const SEED_ID: &str = "call-0192f5c4";

/// What grows in the request line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrowthKind {
    /// The string argument the tool reads, ASCII (`"name":"xxxx…"`).
    Ascii,
    /// The same argument as `\u00e9` escapes: 6 bytes of JSON text per é
    /// (the few bytes short of a multiple of 6 are ASCII `x`).
    Escaped,
    /// An extra argument member the tool never reads (`"name":"Ada","pad":"xxxx…"`).
    Unused,
    /// The argument the tool reads as raw French text: mostly ASCII, some 2-byte characters.
    French,
    /// French text in a member the tool never reads.
    FrenchUnused,
    /// Raw Japanese text: 3-byte characters.
    Japanese,
    JapaneseUnused,
    /// Raw emoji: 4-byte characters.
    Emoji,
    EmojiUnused,
}

/// The texts the raw kinds repeat (each line's last few bytes short of a
/// whole character are ASCII `x`).
const FRENCH: &str = "Où est la bibliothèque ? Là-bas, près de la fenêtre, à côté du café où l'on sert des crêpes. ";
const JAPANESE: &str = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。";
const EMOJI: &str = "😀🎉🚀🌍🍣🎵";

impl GrowthKind {
    pub const ALL: [GrowthKind; 9] = [
        GrowthKind::Ascii,
        GrowthKind::Escaped,
        GrowthKind::Unused,
        GrowthKind::French,
        GrowthKind::FrenchUnused,
        GrowthKind::Japanese,
        GrowthKind::JapaneseUnused,
        GrowthKind::Emoji,
        GrowthKind::EmojiUnused,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GrowthKind::Ascii => "ascii",
            GrowthKind::Escaped => "escaped",
            GrowthKind::Unused => "unused",
            GrowthKind::French => "french",
            GrowthKind::FrenchUnused => "french-unused",
            GrowthKind::Japanese => "japanese",
            GrowthKind::JapaneseUnused => "japanese-unused",
            GrowthKind::Emoji => "emoji",
            GrowthKind::EmojiUnused => "emoji-unused",
        }
    }

    /// The kind a name (as [`GrowthKind::name`] gives it) names.
    pub fn from_name(name: &str) -> Option<GrowthKind> {
        GrowthKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// `n` bytes of this kind's text, as it stands in the JSON string (raw
    /// UTF-8 needs no escaping), or `None` for the ASCII and escaped kinds.
    fn text(self, n: usize) -> Option<String> {
        let sample = match self {
            GrowthKind::French | GrowthKind::FrenchUnused => FRENCH,
            GrowthKind::Japanese | GrowthKind::JapaneseUnused => JAPANESE,
            GrowthKind::Emoji | GrowthKind::EmojiUnused => EMOJI,
            _ => return None,
        };
        let mut s = String::with_capacity(n);
        'fill: loop {
            for c in sample.chars() {
                if s.len() + c.len_utf8() > n {
                    break 'fill;
                }
                s.push(c);
            }
        }
        while s.len() < n {
            s.push('x');
        }
        Some(s)
    }

    /// The `arguments` members with `n` payload bytes of JSON text, and the
    /// value of `member` the tool should then see.
    fn arguments(self, member: &str, n: usize) -> (String, String) {
        let key = serde_json::to_string(member).unwrap();
        let unused = |pad: String| (format!("{key}:\"Ada\",\"pad\":\"{pad}\""), "Ada".to_string());
        match self {
            GrowthKind::Ascii => (format!("{key}:\"{}\"", "x".repeat(n)), "x".repeat(n)),
            GrowthKind::Escaped => {
                let (k, r) = (n / 6, n % 6);
                (format!("{key}:\"{}{}\"", "\\u00e9".repeat(k), "x".repeat(r)), "é".repeat(k) + &"x".repeat(r))
            }
            GrowthKind::Unused => unused("x".repeat(n)),
            GrowthKind::French | GrowthKind::Japanese | GrowthKind::Emoji => {
                let t = self.text(n).unwrap_or_default();
                (format!("{key}:\"{t}\""), t)
            }
            GrowthKind::FrenchUnused | GrowthKind::JapaneseUnused | GrowthKind::EmojiUnused => {
                unused(self.text(n).unwrap_or_default())
            }
        }
    }
}

/// A tools/call line (no newline) of exactly `size` bytes if `size` is
/// given, else with the baseline payload; and the argument value it carries.
fn growth_line(tool: &str, member: &str, kind: GrowthKind, size: Option<usize>) -> Result<(String, String), Error> {
    let tool = serde_json::to_string(tool).unwrap();
    let meta = crate::rpc::meta().to_string();
    let line = |n: usize| {
        let (args, value) = kind.arguments(member, n);
        let l = format!(
            r#"{{"jsonrpc":"2.0","id":"call-1","method":"tools/call","params":{{"name":{tool},"arguments":{{{args}}},"_meta":{meta}}}}}"#
        );
        (l, value)
    };
    let Some(size) = size else { return Ok(line(BASE_PAYLOAD)) };
    let overhead = line(0).0.len();
    let n = size
        .checked_sub(overhead)
        .ok_or_else(|| Error::Input(format!("a {size}-byte line is shorter than its frame")))?;
    let (l, v) = line(n);
    debug_assert_eq!(l.len(), size);
    Ok((l, v))
}

/// One measured tools/call line.
#[derive(Clone, Debug, PartialEq)]
pub struct GrowthProbe {
    /// `None` for the seed's line.
    pub kind: Option<GrowthKind>,
    /// Request-line bytes, newline excluded.
    pub line_bytes: usize,
    pub fuel: u64,
    /// `None`: answered `Hello, <name>!`; otherwise what went wrong (a crash,
    /// a refusal such as a line limit, isError, or another message).
    pub problem: Option<String>,
    /// (fuel − the kind's baseline fuel) / (line bytes − baseline bytes); rows only.
    pub fuel_per_byte: Option<f64>,
    /// Linear memory pages when the call ended: the call's peak.
    pub pages: u64,
}

impl GrowthProbe {
    fn to_json(&self) -> Value {
        json!({
            "kind": self.kind.map(GrowthKind::name), "line_bytes": self.line_bytes, "fuel": self.fuel,
            "ok": self.problem.is_none(), "problem": self.problem, "fuel_per_byte": self.fuel_per_byte,
            "pages": self.pages,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GrowthFigures {
    pub module: PathBuf,
    pub tool: String,
    pub member: String,
    /// The seed's ~300-byte tools/call line.
    pub seed: GrowthProbe,
    /// Each kind's small line (payload of 6 bytes), in [`GrowthKind`] order.
    pub baselines: Vec<GrowthProbe>,
    /// Each size in turn, each kind at that size.
    pub rows: Vec<GrowthProbe>,
    /// The JSON Lines workload: the one-record file first, then each size.
    pub jsonl: Vec<JsonlProbe>,
    pub jsonl_tool: Option<String>,
}

impl GrowthFigures {
    /// The row of `kind` at `size` line bytes.
    pub fn row(&self, size: usize, kind: GrowthKind) -> Option<&GrowthProbe> {
        self.rows.iter().find(|r| r.line_bytes == size && r.kind == Some(kind))
    }
    /// Fuel per byte of `kind` at `size` line bytes, when that line was answered.
    pub fn per_byte(&self, size: usize, kind: GrowthKind) -> Option<f64> {
        self.row(size, kind)?.fuel_per_byte
    }
    /// Fuel per byte at the largest size over at 128 KiB.
    pub fn linearity(&self, kind: GrowthKind) -> Option<f64> {
        ratio_of(self.per_byte(128 * KIB, kind), self.per_byte(16 * MIB, kind))
    }
    /// The JSON Lines call on a file of at least `size` bytes.
    pub fn jsonl_at(&self, size: usize) -> Option<&JsonlProbe> {
        self.jsonl.iter().skip(1).find(|p| p.file_bytes >= size && p.file_bytes < size + size / 8 + 4096)
    }
    fn kinds(&self) -> Vec<GrowthKind> {
        GrowthKind::ALL.into_iter().filter(|k| self.baselines.iter().any(|b| b.kind == Some(*k))).collect()
    }
    fn to_json(&self) -> Value {
        let lin: serde_json::Map<String, Value> =
            self.kinds().iter().map(|k| (k.name().to_string(), json!(self.linearity(*k)))).collect();
        json!({
            "module": self.module.display().to_string(), "tool": self.tool, "member": self.member,
            "seed": self.seed.to_json(),
            "baselines": self.baselines.iter().map(GrowthProbe::to_json).collect::<Vec<_>>(),
            "rows": self.rows.iter().map(GrowthProbe::to_json).collect::<Vec<_>>(),
            "linearity_16mib_over_128kib": lin,
            "jsonl": self.jsonl.iter().map(JsonlProbe::to_json).collect::<Vec<_>>(),
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GrowthReport {
    pub a: GrowthFigures,
    pub b: Option<GrowthFigures>,
}

fn size_label(n: usize) -> String {
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else if n >= KIB && n.is_multiple_of(KIB) {
        format!("{} KiB", n / KIB)
    } else {
        format!("{n} B")
    }
}

impl GrowthReport {
    /// `{"a": figures, "b": figures|null}`, figures as runner/METHOD.md documents them.
    pub fn to_json(&self) -> Value {
        json!({"a": self.a.to_json(), "b": self.b.as_ref().map(GrowthFigures::to_json)})
    }

    pub fn to_text(&self) -> String {
        let same_name = self.b.as_ref().is_some_and(|b| b.module.file_name() == self.a.module.file_name());
        let col = |f: &GrowthFigures| match f.module.file_name() {
            Some(n) if !same_name => n.to_string_lossy().into_owned(),
            _ => f.module.display().to_string(),
        };
        let w = std::iter::once(&self.a).chain(self.b.as_ref()).map(|f| col(f).chars().count()).max().unwrap_or(0);
        let w = w.max(14);
        let kinds = self.a.kinds();
        let mut sizes: Vec<usize> = self.a.rows.iter().map(|r| r.line_bytes).collect();
        sizes.dedup();
        let mut s = String::new();
        if !kinds.is_empty() {
            s += &self.text_kinds(&kinds, &sizes, w, &col);
        }
        if !self.a.jsonl.is_empty() {
            s += &self.text_jsonl(w, &col);
        }
        for f in std::iter::once(&self.a).chain(self.b.as_ref()) {
            // The seed line calls `greet`: its problem is told only where
            // the growing lines call a hello-like tool of that name.
            let seed = (f.tool == "greet" && !kinds.is_empty()).then_some(&f.seed);
            for p in seed.into_iter().chain(&f.baselines).chain(&f.rows) {
                if let Some(why) = &p.problem {
                    let what = p.kind.map_or("seed", GrowthKind::name);
                    s += &format!("{}: {} {what} line: {why}\n", col(f), size_label(p.line_bytes));
                }
            }
            for p in &f.jsonl {
                if let Some(why) = &p.problem {
                    s += &format!("{}: JSON Lines file of {} B: {why}\n", col(f), p.file_bytes);
                }
            }
        }
        s
    }

    fn text_jsonl(&self, w: usize, col: &dyn Fn(&GrowthFigures) -> String) -> String {
        let num = |v: Option<f64>, d: usize| v.map_or("-".to_string(), |v| format!("{v:.d$}"));
        let mut s = format!(
            "fuel per file byte, tools/call {} reading a JSON Lines file in /volume/data: (fuel(F) - fuel(one \
             record)) / (F - one record's bytes)\n",
            self.a.jsonl_tool.as_deref().unwrap_or("?")
        );
        s += &format!("{:<12} {:>8} {:>w$}", "file", "lines", col(&self.a));
        if let Some(b) = &self.b {
            s += &format!(" {:>w$} {:>8}", col(b), "b/a");
        }
        s.push('\n');
        for (i, p) in self.a.jsonl.iter().enumerate() {
            let label = if i == 0 { format!("{} B", p.file_bytes) } else { size_label(p.file_bytes) };
            s += &format!("{label:<12} {:>8} {:>w$}", p.lines, num(p.fuel_per_byte, 3));
            if let Some(q) = self.b.as_ref().and_then(|b| b.jsonl.get(i)) {
                s += &format!(
                    " {:>w$} {:>8}",
                    num(q.fuel_per_byte, 3),
                    num(ratio_of(p.fuel_per_byte, q.fuel_per_byte), 2)
                );
            }
            s.push('\n');
        }
        s += "fuel of whole calls:\n";
        for (i, p) in self.a.jsonl.iter().enumerate() {
            s += &format!("{:<21} {:>w$}", format!("{} B file", p.file_bytes), p.fuel);
            if let Some(q) = self.b.as_ref().and_then(|b| b.jsonl.get(i)) {
                s += &format!(" {:>w$} {:>8}", q.fuel, num(ratio_of(Some(p.fuel as f64), Some(q.fuel as f64)), 2));
            }
            s.push('\n');
        }
        s
    }

    fn text_kinds(
        &self,
        kinds: &[GrowthKind],
        sizes: &[usize],
        w: usize,
        col: &dyn Fn(&GrowthFigures) -> String,
    ) -> String {
        let num = |v: Option<f64>, d: usize| v.map_or("-".to_string(), |v| format!("{v:.d$}"));
        let mut s = format!(
            "fuel per request-line byte, tools/call {} with {:?} growing: (fuel(L) - fuel(base)) / (L - base bytes)\n",
            self.a.tool, self.a.member
        );
        s += &format!("{:<8} {:<15} {:>w$}", "size", "kind", col(&self.a));
        if let Some(b) = &self.b {
            s += &format!(" {:>w$} {:>8}", col(b), "b/a");
        }
        s.push('\n');
        for &size in sizes {
            for &kind in kinds {
                let x = self.a.per_byte(size, kind);
                s += &format!("{:<8} {:<15} {:>w$}", size_label(size), kind.name(), num(x, 3));
                if let Some(b) = &self.b {
                    let y = b.per_byte(size, kind);
                    s += &format!(" {:>w$} {:>8}", num(y, 3), num(ratio_of(x, y), 2));
                }
                s.push('\n');
            }
        }
        s += "linearity: fuel/byte at 16 MiB over fuel/byte at 128 KiB\n";
        for &kind in kinds {
            s += &format!("{:<24} {:>w$}", kind.name(), num(self.a.linearity(kind), 3));
            if let Some(b) = &self.b {
                s += &format!(" {:>w$}", num(b.linearity(kind), 3));
            }
            s.push('\n');
        }
        s += "fuel of whole lines (and pages when the call ended):\n";
        let probes = |f: &GrowthFigures| -> Vec<(String, GrowthProbe)> {
            let mut v = vec![(format!("seed call ({} B)", f.seed.line_bytes), f.seed.clone())];
            for p in &f.baselines {
                v.push((format!("base {} ({} B)", p.kind.map_or("", GrowthKind::name), p.line_bytes), p.clone()));
            }
            v
        };
        let pa = probes(&self.a);
        let pb = self.b.as_ref().map(probes);
        for (i, (label, p)) in pa.iter().enumerate() {
            s += &format!("{label:<29} {:>w$}", p.fuel);
            if let Some(pb) = &pb {
                let q = &pb[i].1;
                s += &format!(" {:>w$} {:>8}", q.fuel, num(ratio_of(Some(p.fuel as f64), Some(q.fuel as f64)), 2));
            }
            s.push('\n');
        }
        s += "pages when the call ended, at the largest line:\n";
        if let Some(&largest) = sizes.last() {
            for &kind in kinds {
                let pages = |f: &GrowthFigures| f.row(largest, kind).map_or("-".to_string(), |r| r.pages.to_string());
                s += &format!("{:<24} {:>w$}", kind.name(), pages(&self.a));
                if let Some(b) = &self.b {
                    s += &format!(" {:>w$}", pages(b));
                }
                s.push('\n');
            }
        }
        s
    }
}

/// Runs one tools/call line in a fresh fuel-counting instance and judges the answer.
fn probe(
    m: &Module,
    package: &str,
    tmp: &Path,
    kind: Option<GrowthKind>,
    line: &str,
    id: &str,
    want: &str,
) -> Result<GrowthProbe, Error> {
    let mut stdin = Vec::with_capacity(line.len() + 1);
    stdin.extend_from_slice(line.as_bytes());
    stdin.push(b'\n');
    let opts = RunOptions {
        argv: vec![package.to_string()],
        stdin,
        preopens: vec![("/volume/tmp".into(), tmp.to_path_buf(), false)],
        // Fuel, not time, is the figure: a metered 16 MiB call gets room.
        time_limit: Duration::from_secs(300),
        exit_grace: Some(Duration::from_secs(1)),
        ..RunOptions::default()
    };
    let (fuel, out) = fuel_of(m, &opts)?;
    let problem = match judge(&[json!(id)], &out) {
        Err(c) => Some(format!("crashed: {c}")),
        Ok(answers) => {
            let r = &answers[0].1;
            if r.get("isError") == Some(&Value::Bool(true)) {
                let text = r.pointer("/content/0/text").and_then(Value::as_str).unwrap_or("");
                Some(format!("isError: {}", text.chars().take(200).collect::<String>()))
            } else {
                let msg = r.pointer("/structuredContent/message").and_then(Value::as_str);
                let want = format!("Hello, {want}!");
                (msg != Some(want.as_str())).then(|| "answered, but not with message \"Hello, <name>!\"".to_string())
            }
        }
    };
    Ok(GrowthProbe { kind, line_bytes: line.len(), fuel, problem, fuel_per_byte: None, pages: out.pages_at_exit })
}

/// What `growth` measures.
#[derive(Clone, Debug)]
pub struct GrowthOptions {
    /// The hello-like tool, with a string argument `member`.
    pub tool: String,
    pub member: String,
    /// The kinds of growing line (none: only the JSON Lines workload).
    pub kinds: Vec<GrowthKind>,
    /// Request-line sizes.
    pub sizes: Vec<usize>,
    pub jsonl: Option<JsonlWorkload>,
}

impl Default for GrowthOptions {
    fn default() -> Self {
        GrowthOptions {
            tool: "greet".into(),
            member: "name".into(),
            kinds: GrowthKind::ALL.to_vec(),
            sizes: GROWTH_SIZES.to_vec(),
            jsonl: None,
        }
    }
}

fn growth_one(path: &Path, o: &GrowthOptions) -> Result<GrowthFigures, Error> {
    let (tool, member) = (o.tool.as_str(), o.member.as_str());
    let bytes = read(path)?;
    let m = Module::from_bytes_with_fuel(&bytes)?;
    let package = crate::manifest::manifest(&m).map(|x| x.name).unwrap_or_else(|_| "module".into());
    let tmp = tempfile::tempdir()?;
    let seed = probe(&m, &package, tmp.path(), None, SEED_CALL, SEED_ID, "Ada")?;
    let mut baselines = Vec::new();
    for &kind in &o.kinds {
        let (line, value) = growth_line(tool, member, kind, None)?;
        baselines.push(probe(&m, &package, tmp.path(), Some(kind), &line, "call-1", &value)?);
    }
    let mut rows = Vec::new();
    for &size in &o.sizes {
        for (&kind, base) in o.kinds.iter().zip(&baselines) {
            let (line, value) = growth_line(tool, member, kind, Some(size))?;
            let mut p = probe(&m, &package, tmp.path(), Some(kind), &line, "call-1", &value)?;
            drop(line);
            if p.problem.is_none() && base.problem.is_none() {
                p.fuel_per_byte =
                    Some((p.fuel as f64 - base.fuel as f64) / (p.line_bytes as f64 - base.line_bytes as f64));
            }
            rows.push(p);
        }
    }
    let jsonl = match &o.jsonl {
        Some(w) => jsonl_probes(&m, &package, w)?,
        None => Vec::new(),
    };
    Ok(GrowthFigures {
        module: path.to_path_buf(),
        tool: tool.into(),
        member: member.into(),
        seed,
        baselines,
        rows,
        jsonl,
        jsonl_tool: o.jsonl.as_ref().map(|w| w.tool.clone()),
    })
}

/// The growth benchmark (`subako-tiny bench --growth`): fuel of one
/// tools/call in a fresh fuel-counting instance, per request-line byte, as
/// the line grows by each of `o.kinds` at each of `o.sizes` (plus the seed's
/// tools/call line), and per file byte of the JSON Lines workload when
/// given. `b` (the same package on another SDK) is measured the same way.
pub fn growth(a: &Path, b: Option<&Path>, o: &GrowthOptions) -> Result<GrowthReport, Error> {
    let a = growth_one(a, o)?;
    let b = b.map(|b| growth_one(b, o)).transpose()?;
    Ok(GrowthReport { a, b })
}
