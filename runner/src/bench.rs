//! Per-call cost as a worker pays it, measured in-process: a cold compile, then
//! fresh instance + one `tools/call` + exit from the precompiled module, and the
//! upload exchange (discover + tools/list).
//!
//! Beside the wall-clock figures, deterministic ones: guest fuel (wasm
//! operators run, counted by wasmtime in a separate fuel-counting engine and
//! stores, after the timed runs) for the call, the upload exchange and the
//! manifest run; optionally the x86 instructions of one compile under
//! callgrind; and [`BenchReport::growth`]: fuel per request-line byte as the line grows.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::crash::judge;
use crate::exec::{Exit, Module, RunOptions, RunOutput, run};
use crate::rpc::request_line;
use crate::{Error, err};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Calls (and discover + tools/list runs) measured per module.
    pub calls: usize,
    /// Cold compiles per module.
    pub compiles: usize,
    /// Tool to call; `None`: the first one tools/list names.
    pub tool: Option<String>,
    pub args: Value,
    /// `Some(exe)`: also count the instructions of one compile of each module
    /// with callgrind, running `exe` (this runner's `subako-tiny` binary) as
    /// `valgrind … exe bench --callgrind-compile MODULE`. See `--help`.
    pub compile_instructions: Option<PathBuf>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions { calls: 200, compiles: 5, tool: None, args: json!({}), compile_instructions: None }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BenchFigures {
    pub module: PathBuf,
    pub bytes: usize,
    pub tool: String,
    pub compile_ms: f64,
    pub compile_ms_p10: f64,
    pub compile_ms_p90: f64,
    pub call_us_median: f64,
    pub call_us_p10: f64,
    pub call_us_p90: f64,
    pub list_us_median: f64,
    pub pages_start: u64,
    pub pages_exit: u64,
    /// The crash rule the measured call broke, if it did (figures are then suspect).
    pub call_crash: Option<String>,
    /// Guest fuel (wasm operators) of instantiation + `_start` for the call,
    /// for discover + tools/list (the upload exchange), and for the
    /// `--subako-manifest` run (`None` if that run did not exit 0).
    pub call_fuel: u64,
    pub list_fuel: u64,
    pub manifest_fuel: Option<u64>,
    /// Set when two fuel runs of the same input disagreed (the module reads
    /// something that varies, e.g. `random_get`): what differed.
    pub fuel_varies: Option<String>,
    /// Callgrind's instruction count of one compile, when asked and measured:
    /// the median of `COMPILE_INSTRUCTION_RUNS` (3) processes, and each of them.
    pub compile_instructions: Option<u64>,
    pub compile_instructions_runs: Vec<u64>,
}

impl BenchFigures {
    pub fn to_json(&self) -> Value {
        json!({
            "module": self.module.display().to_string(), "bytes": self.bytes, "tool": self.tool,
            "compile_ms": self.compile_ms, "compile_ms_p10": self.compile_ms_p10,
            "compile_ms_p90": self.compile_ms_p90, "call_us_median": self.call_us_median,
            "call_us_p10": self.call_us_p10, "call_us_p90": self.call_us_p90,
            "list_us_median": self.list_us_median, "pages_start": self.pages_start,
            "pages_exit": self.pages_exit, "call_crash": self.call_crash,
            "call_fuel": self.call_fuel, "list_fuel": self.list_fuel, "manifest_fuel": self.manifest_fuel,
            "fuel_varies": self.fuel_varies, "compile_instructions": self.compile_instructions,
            "compile_instructions_runs": self.compile_instructions_runs,
        })
    }
    /// The figures compared between modules: (key, value, decimals shown).
    fn numbers(&self) -> Vec<(&'static str, Option<f64>, usize)> {
        vec![
            ("bytes", Some(self.bytes as f64), 1),
            ("compile_ms", Some(self.compile_ms), 1),
            ("call_us_median", Some(self.call_us_median), 1),
            ("call_us_p10", Some(self.call_us_p10), 1),
            ("call_us_p90", Some(self.call_us_p90), 1),
            ("list_us_median", Some(self.list_us_median), 1),
            ("pages_start", Some(self.pages_start as f64), 1),
            ("pages_exit", Some(self.pages_exit as f64), 1),
            ("call_fuel", Some(self.call_fuel as f64), 0),
            ("list_fuel", Some(self.list_fuel as f64), 0),
            ("manifest_fuel", self.manifest_fuel.map(|f| f as f64), 0),
            ("compile_instructions", self.compile_instructions.map(|n| n as f64), 0),
        ]
    }
}

/// b/a, when both exist and a is not zero.
fn ratio_of(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) if x != 0.0 => Some(y / x),
        _ => None,
    }
}

#[derive(Clone, Debug)]
pub struct BenchReport {
    pub a: BenchFigures,
    /// The `--vs` module, measured interleaved with `a`.
    pub b: Option<BenchFigures>,
    /// With `b`: b's compile time over a's, per pair of compiles run back to
    /// back, sorted. Machine drift between pairs cancels out of each ratio,
    /// so their spread is the comparison's own.
    pub compile_ratios: Vec<f64>,
    /// `Some` when compile instructions were asked for: how they were
    /// counted, or why they were not (no valgrind on the PATH).
    pub compile_instructions_note: Option<String>,
}

impl BenchReport {
    /// One module: its figures, flat. Two: `{"a":…,"b":…,"ratio":{figure: b/a}}`.
    pub fn to_json(&self) -> Value {
        match &self.b {
            None => self.a.to_json(),
            Some(b) => {
                let ratio: serde_json::Map<String, Value> = self
                    .a
                    .numbers()
                    .iter()
                    .zip(b.numbers())
                    .map(|((k, x, _), (_, y, _))| (k.to_string(), json!(ratio_of(*x, y))))
                    .collect();
                let r = &self.compile_ratios;
                let pairs = json!({"count": r.len(), "median": quantile(r, 0.5), "min": r.first(), "max": r.last()});
                json!({"a": self.a.to_json(), "b": b.to_json(), "ratio": ratio, "compile_ratio_pairs": pairs})
            }
        }
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        // Each module by its file name, or by its path when the two names
        // are the same (`a/hello.wasm` vs `b/hello.wasm`).
        let same_name = self.b.as_ref().is_some_and(|b| b.module.file_name() == self.a.module.file_name());
        let col = |f: &BenchFigures| match f.module.file_name() {
            Some(n) if !same_name => n.to_string_lossy().into_owned(),
            _ => f.module.display().to_string(),
        };
        // Columns as wide as the longest label, at least 16.
        let w =
            std::iter::once(&self.a).chain(self.b.as_ref()).map(|f| col(f).chars().count()).max().unwrap_or(0).max(16);
        s += &format!("{:<16} {:>w$}", "", col(&self.a));
        if let Some(b) = &self.b {
            s += &format!(" {:>w$} {:>8}", col(b), "b/a");
        }
        s.push('\n');
        let a = self.a.numbers();
        let b = self.b.as_ref().map(BenchFigures::numbers);
        let show = |v: Option<f64>, d: usize| v.map_or("-".to_string(), |v| format!("{v:.d$}"));
        for (i, (k, x, d)) in a.iter().enumerate() {
            // The instruction row only when asked for; its key shortened to the column.
            let k = match *k {
                "compile_instructions" if self.compile_instructions_note.is_none() => continue,
                "compile_instructions" => "compile_instr",
                k => k,
            };
            s += &format!("{k:<16} {:>w$}", show(*x, *d));
            if let Some(b) = &b {
                let y = b[i].1;
                s += &format!(" {:>w$} {:>8}", show(y, *d), show(ratio_of(*x, y), 2));
            }
            s.push('\n');
        }
        let r = &self.compile_ratios;
        if let (Some(median), Some(first), Some(last)) = (quantile(r, 0.5), r.first(), r.last()) {
            s += &format!(
                "compile b/a per interleaved pair: median {median:.2}, range {first:.2}–{last:.2} ({} pairs)\n",
                r.len()
            );
        }
        for f in std::iter::once(&self.a).chain(self.b.as_ref()) {
            s += &format!("tool called in {}: {}\n", col(f), f.tool);
            if let Some(c) = &f.call_crash {
                s += &format!("warning: the call crashed in {}: {c}\n", col(f));
            }
            if let Some(v) = &f.fuel_varies {
                s += &format!("warning: fuel differs between two runs of the same input in {}: {v}\n", col(f));
            }
        }
        s += "fuel: wasm operators of instantiate + _start in a fuel-counting engine (list = discover + tools/list)\n";
        if let Some(n) = &self.compile_instructions_note {
            s += &format!("compile_instr: {n}\n");
        }
        s
    }
}

struct Subject {
    path: PathBuf,
    bytes: Vec<u8>,
    module: Module,
    tool: String,
    call: RunOptions,
    list: RunOptions,
    manifest: RunOptions,
    compiles: Vec<Duration>,
    calls: Vec<Duration>,
    lists: Vec<Duration>,
    pages: (u64, u64),
    crash: Option<String>,
    _tmp: tempfile::TempDir,
}

fn prepare(path: &Path, opts: &BenchOptions) -> Result<Subject, Error> {
    let bytes = std::fs::read(path).map_err(|e| err(format!("{}: {e}", path.display())))?;
    let module = Module::from_bytes(&bytes)?;
    let package = crate::bundle::manifest(&module).map(|m| m.name).unwrap_or_else(|_| "module".into());
    let mut list_in = request_line("discover-1", "server/discover", json!({}));
    list_in.push_str(&request_line("tools-list-1", "tools/list", json!({})));
    let list = RunOptions {
        argv: vec![package.clone()],
        stdin: list_in.into_bytes(),
        exit_grace: Some(Duration::from_secs(1)),
        ..RunOptions::default()
    };
    let tool = match &opts.tool {
        Some(t) => t.clone(),
        None => {
            let out = run(&module, &list)?;
            let answers = judge(&[json!("discover-1"), json!("tools-list-1")], &out)
                .map_err(|c| err(format!("{}: discover + tools/list crashed: {c}", path.display())))?;
            answers
                .iter()
                .find(|(id, _)| id == "tools-list-1")
                .and_then(|(_, r)| r.pointer("/tools/0/name")?.as_str().map(str::to_string))
                .ok_or_else(|| err(format!("{}: tools/list names no tool", path.display())))?
        }
    };
    let tmp = tempfile::tempdir()?;
    // As `manifest` runs it: no stdin.
    let manifest =
        RunOptions { argv: vec![package.clone(), crate::bundle::MANIFEST_FLAG.into()], ..RunOptions::default() };
    let call = RunOptions {
        argv: vec![package],
        stdin: request_line("call-1", "tools/call", json!({"name": tool, "arguments": opts.args})).into_bytes(),
        preopens: vec![("/volume/tmp".into(), tmp.path().to_path_buf(), false)],
        exit_grace: Some(Duration::from_secs(1)),
        ..RunOptions::default()
    };
    Ok(Subject {
        path: path.to_path_buf(),
        bytes,
        module,
        tool,
        call,
        list,
        manifest,
        compiles: Vec::new(),
        calls: Vec::new(),
        lists: Vec::new(),
        pages: (0, 0),
        crash: None,
        _tmp: tmp,
    })
}

/// The value at fraction `p` of sorted `v` (nearest rank), if any.
fn quantile<T: Copy>(v: &[T], p: f64) -> Option<T> {
    v.get((v.len().saturating_sub(1) as f64 * p).round() as usize).copied()
}

fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort_unstable();
    quantile(v, p).unwrap_or(Duration::ZERO)
}

/// Cold compiles of each module in turn, `compiles` rounds (so drift hits
/// them alike): the times per module, in the order given.
fn timed_compiles(engine: &wasmtime::Engine, modules: &[&[u8]], compiles: usize) -> Result<Vec<Vec<Duration>>, Error> {
    let mut times = vec![Vec::new(); modules.len()];
    for _ in 0..compiles.max(1) {
        for (bytes, t) in modules.iter().zip(&mut times) {
            let start = Instant::now();
            let m = wasmtime::Module::new(engine, bytes)?;
            t.push(start.elapsed());
            drop(m);
        }
    }
    Ok(times)
}

/// Measures `a` (and `b`, interleaved, so drift hits both alike).
pub fn bench(a: &Path, b: Option<&Path>, opts: &BenchOptions) -> Result<BenchReport, Error> {
    let mut subjects = vec![prepare(a, opts)?];
    if let Some(b) = b {
        subjects.push(prepare(b, opts)?);
    }
    let engine = subjects[0].module.engine.clone();
    let bytes: Vec<&[u8]> = subjects.iter().map(|s| s.bytes.as_slice()).collect();
    let compiles = timed_compiles(&engine, &bytes, opts.compiles)?;
    for (s, c) in subjects.iter_mut().zip(compiles) {
        s.compiles = c;
    }
    // Warm-up: first-touch costs (page faults, lazy init) belong to no call.
    for s in &mut subjects {
        let out = run(&s.module, &s.call)?;
        s.crash = judge(&[json!("call-1")], &out).err().map(|c| c.to_string());
        s.pages = (out.pages_at_start, out.pages_at_exit);
        run(&s.module, &s.list)?;
    }
    for _ in 0..opts.calls.max(1) {
        for s in &mut subjects {
            let t = Instant::now();
            run(&s.module, &s.call)?;
            s.calls.push(t.elapsed());
            let t = Instant::now();
            run(&s.module, &s.list)?;
            s.lists.push(t.elapsed());
        }
    }
    let mut compile_ratios: Vec<f64> = match subjects.as_slice() {
        [a, b] => {
            a.compiles.iter().zip(&b.compiles).map(|(x, y)| y.as_secs_f64() / x.as_secs_f64().max(1e-9)).collect()
        }
        _ => Vec::new(),
    };
    compile_ratios.sort_by(f64::total_cmp);
    // The deterministic figures, after every timed run: their own engine,
    // compiles and stores, so fuel metering never touches the times above.
    let mut fuels = Vec::new();
    for s in &subjects {
        fuels.push(fuel_figures(s)?);
    }
    let mut instructions = vec![Vec::new(); subjects.len()];
    let mut compile_instructions_note = None;
    if let Some(exe) = &opts.compile_instructions {
        match valgrind() {
            None => compile_instructions_note = Some("- (valgrind is not on the PATH)".to_string()),
            Some(vg) => {
                let mut spread: f64 = 0.0;
                for (s, n) in subjects.iter().zip(&mut instructions) {
                    for _ in 0..COMPILE_INSTRUCTION_RUNS {
                        n.push(compile_instructions(&vg, exe, &s.path)?);
                    }
                    let (lo, hi) = (n.iter().min().unwrap(), n.iter().max().unwrap());
                    spread = spread.max((hi - lo) as f64 / *lo as f64);
                }
                compile_instructions_note = Some(format!(
                    "{COMPILE_INSTRUCTIONS_HOW}; median of {COMPILE_INSTRUCTION_RUNS} processes, which differ by \
                     {:.3} % at most",
                    spread * 100.0
                ));
            }
        }
    }
    let mut figs = subjects.into_iter().zip(fuels).zip(instructions).map(|((mut s, fuel), instr)| BenchFigures {
        module: s.path.clone(),
        bytes: s.bytes.len(),
        tool: s.tool.clone(),
        compile_ms: pct(&mut s.compiles, 0.5).as_secs_f64() * 1e3,
        compile_ms_p10: pct(&mut s.compiles, 0.1).as_secs_f64() * 1e3,
        compile_ms_p90: pct(&mut s.compiles, 0.9).as_secs_f64() * 1e3,
        call_us_median: pct(&mut s.calls, 0.5).as_secs_f64() * 1e6,
        call_us_p10: pct(&mut s.calls, 0.1).as_secs_f64() * 1e6,
        call_us_p90: pct(&mut s.calls, 0.9).as_secs_f64() * 1e6,
        list_us_median: pct(&mut s.lists, 0.5).as_secs_f64() * 1e6,
        pages_start: s.pages.0,
        pages_exit: s.pages.1,
        call_crash: s.crash.clone(),
        call_fuel: fuel.call,
        list_fuel: fuel.list,
        manifest_fuel: fuel.manifest,
        fuel_varies: fuel.varies,
        compile_instructions: quantile(
            &{
                let mut v = instr.clone();
                v.sort_unstable();
                v
            },
            0.5,
        ),
        compile_instructions_runs: instr,
    });
    let a = figs.next().unwrap();
    Ok(BenchReport { a, b: figs.next(), compile_ratios, compile_instructions_note })
}

struct Fuel {
    call: u64,
    list: u64,
    manifest: Option<u64>,
    varies: Option<String>,
}

/// Fuel of one run of a fuel-counting module (a run that cannot start is an error).
fn fuel_of(module: &Module, opts: &RunOptions) -> Result<(u64, RunOutput), Error> {
    let out = run(module, opts)?;
    Ok((out.fuel.expect("a fuel-counting module reports fuel"), out))
}

/// The call, the upload exchange and the manifest, each run twice in a
/// fuel-counting engine (the second run says whether fuel is repeatable).
fn fuel_figures(s: &Subject) -> Result<Fuel, Error> {
    let m = Module::from_bytes_with_fuel(&s.bytes)?;
    let mut varies = Vec::new();
    let mut twice = |what: &str, o: &RunOptions| -> Result<(u64, RunOutput), Error> {
        let (f1, out) = fuel_of(&m, o)?;
        let (f2, _) = fuel_of(&m, o)?;
        if f1 != f2 {
            varies.push(format!("{what} {f1} then {f2}"));
        }
        Ok((f1, out))
    };
    let (call, _) = twice("call", &s.call)?;
    let (list, _) = twice("list", &s.list)?;
    let (manifest, out) = twice("manifest", &s.manifest)?;
    let manifest = (out.exit == Exit::Code(0)).then_some(manifest);
    Ok(Fuel { call, list, manifest, varies: (!varies.is_empty()).then(|| varies.join(", ")) })
}

/// Cold compile times of several modules, compiled in turn `compiles`
/// times each (so drift hits them alike): (median, p10, p90) in ms, in the
/// order given. The modules need only validate: nothing is run, so a copy
/// with some function bodies emptied is timed as well as the real one.
pub fn compile_times(paths: &[PathBuf], compiles: usize) -> Result<Vec<[f64; 3]>, Error> {
    let engine = &crate::exec::host().engine;
    let mut modules = Vec::new();
    for p in paths {
        let bytes = std::fs::read(p).map_err(|e| err(format!("{}: {e}", p.display())))?;
        // Compiled once before timing: a module that does not validate fails here.
        wasmtime::Module::new(engine, &bytes).map_err(|e| err(format!("{}: {e:#}", p.display())))?;
        modules.push(bytes);
    }
    let bytes: Vec<&[u8]> = modules.iter().map(Vec::as_slice).collect();
    Ok(timed_compiles(engine, &bytes, compiles)?
        .iter_mut()
        .map(|times| [0.5, 0.1, 0.9].map(|p| pct(times, p).as_secs_f64() * 1e3))
        .collect())
}

// ---------------------------------------------------------------- compile instructions

/// The symbol callgrind toggles collection on: only what runs inside it
/// (inclusive, on its thread) is counted.
const COMPILE_SYMBOL: &str = "subako_tiny_callgrind_compile";

/// Callgrind processes per module: the count moves by a few hundredths of
/// a percent between processes (hash seeds, addresses), so the median of a few.
pub const COMPILE_INSTRUCTION_RUNS: usize = 3;

/// How `compile_instr` is counted, for the report.
const COMPILE_INSTRUCTIONS_HOW: &str = "x86 instructions (callgrind Ir) inside one wasmtime::Module::from_binary \
(Cranelift, single-threaded: this wasmtime is built without parallel compilation), the second compile of the \
bytes in a fresh process (the first carries wasmtime's one-time setup and is not counted); under valgrind, \
Cranelift sees valgrind's CPUID";

/// The compile callgrind counts (`--toggle-collect` on its unmangled name).
#[inline(never)]
#[unsafe(no_mangle)]
pub fn subako_tiny_callgrind_compile(engine: &wasmtime::Engine, bytes: &[u8]) -> wasmtime::Result<wasmtime::Module> {
    wasmtime::Module::from_binary(engine, bytes)
}

/// `valgrind` on the PATH, if any.
fn valgrind() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("valgrind")).find(|p| p.is_file())
}

/// The callgrind instruction count of `subako_tiny_callgrind_compile` in
/// `exe bench --callgrind-compile module` (see [`BenchReport::callgrind_compile_child`]).
fn compile_instructions(valgrind: &Path, exe: &Path, module: &Path) -> Result<u64, Error> {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("callgrind.out");
    let out = Command::new(valgrind)
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", file.display()))
        .arg("--collect-atstart=no")
        .arg(format!("--toggle-collect={COMPILE_SYMBOL}"))
        .arg(exe)
        .args(["bench", "--callgrind-compile"])
        .arg(module)
        .output()
        .map_err(|e| err(format!("{}: {e}", valgrind.display())))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: String = stderr.chars().rev().take(2000).collect::<Vec<_>>().into_iter().rev().collect();
        return Err(err(format!("callgrind on {} failed ({}):\n{tail}", module.display(), out.status)));
    }
    let text = std::fs::read_to_string(&file)?;
    // `summary:` (older callgrind) or `totals:`: the collected event counts, Ir first.
    let n = text
        .lines()
        .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .ok_or_else(|| err(format!("callgrind wrote no instruction total for {}", module.display())))?;
    if n == 0 {
        return Err(err(format!("callgrind counted no instructions in {COMPILE_SYMBOL}: was it entered?")));
    }
    Ok(n)
}

// ---------------------------------------------------------------- growth

const KIB: usize = 1 << 10;
const MIB: usize = 1 << 20;
/// Request-line sizes (bytes, newline excluded) the growth benchmark measures.
const GROWTH_SIZES: [usize; 4] = [KIB, 128 * KIB, MIB, 16 * MIB];
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
}

impl GrowthKind {
    const ALL: [GrowthKind; 3] = [GrowthKind::Ascii, GrowthKind::Escaped, GrowthKind::Unused];

    pub fn name(self) -> &'static str {
        match self {
            GrowthKind::Ascii => "ascii",
            GrowthKind::Escaped => "escaped",
            GrowthKind::Unused => "unused",
        }
    }

    /// The `arguments` members with `n` payload bytes of JSON text, and the
    /// value of `member` the tool should then see.
    fn arguments(self, member: &str, n: usize) -> (String, String) {
        let key = serde_json::to_string(member).unwrap();
        match self {
            GrowthKind::Ascii => (format!("{key}:\"{}\"", "x".repeat(n)), "x".repeat(n)),
            GrowthKind::Escaped => {
                let (k, r) = (n / 6, n % 6);
                (format!("{key}:\"{}{}\"", "\\u00e9".repeat(k), "x".repeat(r)), "é".repeat(k) + &"x".repeat(r))
            }
            GrowthKind::Unused => (format!("{key}:\"Ada\",\"pad\":\"{}\"", "x".repeat(n)), "Ada".into()),
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
    let n = size.checked_sub(overhead).ok_or_else(|| err(format!("a {size}-byte line is shorter than its frame")))?;
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
}

impl GrowthProbe {
    fn to_json(&self) -> Value {
        json!({
            "kind": self.kind.map(GrowthKind::name), "line_bytes": self.line_bytes, "fuel": self.fuel,
            "ok": self.problem.is_none(), "problem": self.problem, "fuel_per_byte": self.fuel_per_byte,
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
}

impl GrowthFigures {
    fn row(&self, size: usize, kind: GrowthKind) -> Option<&GrowthProbe> {
        self.rows.iter().find(|r| r.line_bytes == size && r.kind == Some(kind))
    }
    fn per_byte(&self, size: usize, kind: GrowthKind) -> Option<f64> {
        self.row(size, kind)?.fuel_per_byte
    }
    /// Fuel per byte at the largest size over at 128 KiB.
    fn linearity(&self, kind: GrowthKind) -> Option<f64> {
        ratio_of(self.per_byte(128 * KIB, kind), self.per_byte(16 * MIB, kind))
    }
    fn to_json(&self) -> Value {
        let lin: serde_json::Map<String, Value> =
            GrowthKind::ALL.iter().map(|k| (k.name().to_string(), json!(self.linearity(*k)))).collect();
        json!({
            "module": self.module.display().to_string(), "tool": self.tool, "member": self.member,
            "seed": self.seed.to_json(),
            "baselines": self.baselines.iter().map(GrowthProbe::to_json).collect::<Vec<_>>(),
            "rows": self.rows.iter().map(GrowthProbe::to_json).collect::<Vec<_>>(),
            "linearity_16mib_over_128kib": lin,
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
    /// `{"a": figures, "b": figures|null}`, figures as documented in the CLI's help.
    pub fn to_json(&self) -> Value {
        let targets: Vec<Value> = self
            .targets()
            .into_iter()
            .map(|(what, value, bound, met)| json!({"what": what, "value": value, "bound": bound, "met": met}))
            .collect();
        json!({"a": self.a.to_json(), "b": self.b.as_ref().map(GrowthFigures::to_json), "targets": targets})
    }

    /// The per-byte targets for the first module against the second (the
    /// official hello): `(what, the first's figure, its bound, met)`. A used
    /// string argument at most 0.75× the second's fuel per byte at 16 MiB
    /// (ASCII and escaped), an unused one at most the second's, each kind
    /// within 5 % of linear (16 MiB over 128 KiB), and the seed's call at
    /// most half the second's fuel. Empty without a second module.
    pub fn targets(&self) -> Vec<(String, f64, f64, bool)> {
        let Some(b) = &self.b else { return Vec::new() };
        let mut out = Vec::new();
        for (kind, share) in [(GrowthKind::Ascii, 0.75), (GrowthKind::Escaped, 0.75), (GrowthKind::Unused, 1.0)] {
            if let (Some(x), Some(y)) = (self.a.per_byte(16 * MIB, kind), b.per_byte(16 * MIB, kind)) {
                let bound = share * y;
                out.push((
                    format!("{} fuel/byte at 16 MiB <= {share} x the second's", kind.name()),
                    x,
                    bound,
                    x <= bound,
                ));
            }
        }
        for kind in GrowthKind::ALL {
            if let Some(l) = self.a.linearity(kind) {
                out.push((
                    format!("{} linear: 16 MiB over 128 KiB within 5 %", kind.name()),
                    l,
                    1.05,
                    (l - 1.0).abs() <= 0.05,
                ));
            }
        }
        if self.a.seed.problem.is_none() && b.seed.problem.is_none() {
            let (x, bound) = (self.a.seed.fuel as f64, 0.5 * b.seed.fuel as f64);
            out.push(("seed call fuel <= 0.5 x the second's".to_string(), x, bound, x <= bound));
        }
        out
    }

    pub fn to_text(&self) -> String {
        let same_name = self.b.as_ref().is_some_and(|b| b.module.file_name() == self.a.module.file_name());
        let col = |f: &GrowthFigures| match f.module.file_name() {
            Some(n) if !same_name => n.to_string_lossy().into_owned(),
            _ => f.module.display().to_string(),
        };
        let w = std::iter::once(&self.a).chain(self.b.as_ref()).map(|f| col(f).chars().count()).max().unwrap_or(0);
        let w = w.max(14);
        let num = |v: Option<f64>, d: usize| v.map_or("-".to_string(), |v| format!("{v:.d$}"));
        let mut s = format!(
            "fuel per request-line byte, tools/call {} with {:?} growing: (fuel(L) - fuel(base)) / (L - base bytes)\n",
            self.a.tool, self.a.member
        );
        s += &format!("{:<8} {:<8} {:>w$}", "size", "kind", col(&self.a));
        if let Some(b) = &self.b {
            s += &format!(" {:>w$} {:>8}", col(b), "b/a");
        }
        s.push('\n');
        for size in GROWTH_SIZES {
            for kind in GrowthKind::ALL {
                let x = self.a.per_byte(size, kind);
                s += &format!("{:<8} {:<8} {:>w$}", size_label(size), kind.name(), num(x, 3));
                if let Some(b) = &self.b {
                    let y = b.per_byte(size, kind);
                    s += &format!(" {:>w$} {:>8}", num(y, 3), num(ratio_of(x, y), 2));
                }
                s.push('\n');
            }
        }
        s += "linearity: fuel/byte at 16 MiB over fuel/byte at 128 KiB\n";
        for kind in GrowthKind::ALL {
            s += &format!("{:<17} {:>w$}", kind.name(), num(self.a.linearity(kind), 3));
            if let Some(b) = &self.b {
                s += &format!(" {:>w$}", num(b.linearity(kind), 3));
            }
            s.push('\n');
        }
        s += "fuel of whole lines:\n";
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
            s += &format!("{label:<22} {:>w$}", p.fuel);
            if let Some(pb) = &pb {
                let q = &pb[i].1;
                s += &format!(" {:>w$} {:>8}", q.fuel, num(ratio_of(Some(p.fuel as f64), Some(q.fuel as f64)), 2));
            }
            s.push('\n');
        }
        let targets = self.targets();
        if !targets.is_empty() {
            s += &format!("targets for {} against {}:\n", col(&self.a), col(self.b.as_ref().unwrap_or(&self.a)));
            for (what, x, bound, met) in targets {
                s += &format!("{what:<52} {x:>12.3} vs {bound:>12.3}  {}\n", if met { "met" } else { "NOT MET" });
            }
        }
        for f in std::iter::once(&self.a).chain(self.b.as_ref()) {
            for p in std::iter::once(&f.seed).chain(&f.baselines).chain(&f.rows) {
                if let Some(why) = &p.problem {
                    let what = p.kind.map_or("seed", GrowthKind::name);
                    s += &format!("{}: {} {what} line: {why}\n", col(f), size_label(p.line_bytes));
                }
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
    Ok(GrowthProbe { kind, line_bytes: line.len(), fuel, problem, fuel_per_byte: None })
}

fn growth_one(path: &Path, tool: &str, member: &str) -> Result<GrowthFigures, Error> {
    let bytes = std::fs::read(path).map_err(|e| err(format!("{}: {e}", path.display())))?;
    let m = Module::from_bytes_with_fuel(&bytes)?;
    let package = crate::bundle::manifest(&m).map(|x| x.name).unwrap_or_else(|_| "module".into());
    let tmp = tempfile::tempdir()?;
    let seed = probe(&m, &package, tmp.path(), None, SEED_CALL, SEED_ID, "Ada")?;
    let mut baselines = Vec::new();
    for kind in GrowthKind::ALL {
        let (line, value) = growth_line(tool, member, kind, None)?;
        baselines.push(probe(&m, &package, tmp.path(), Some(kind), &line, "call-1", &value)?);
    }
    let mut rows = Vec::new();
    for size in GROWTH_SIZES {
        for (kind, base) in GrowthKind::ALL.into_iter().zip(&baselines) {
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
    Ok(GrowthFigures { module: path.to_path_buf(), tool: tool.into(), member: member.into(), seed, baselines, rows })
}

impl BenchReport {
    /// The growth benchmark (`subako-tiny bench --growth`): fuel of one
    /// tools/call of `tool` (default `greet`) in a fresh fuel-counting
    /// instance, per request-line byte, as its string argument `name` grows
    /// in ASCII or in `\u00e9` escapes, or as an unused `pad` argument does,
    /// at lines of 1 KiB, 128 KiB, 1 MiB and 16 MiB; plus the seed's
    /// tools/call line. `b` is measured the same way.
    pub fn growth(a: &Path, b: Option<&Path>, tool: Option<&str>) -> Result<GrowthReport, Error> {
        let tool = tool.unwrap_or("greet");
        let a = growth_one(a, tool, "name")?;
        let b = b.map(|b| growth_one(b, tool, "name")).transpose()?;
        Ok(GrowthReport { a, b })
    }

    /// What `subako-tiny bench --callgrind-compile MODULE` does, for callgrind
    /// to count: an engine configured as the runner's (no fuel), one compile
    /// not counted (wasmtime's one-time setup), then the counted one through
    /// `subako_tiny_callgrind_compile`.
    pub fn callgrind_compile_child(module: &Path) -> Result<(), Error> {
        let bytes = std::fs::read(module).map_err(|e| err(format!("{}: {e}", module.display())))?;
        let engine = wasmtime::Engine::new(&crate::exec::engine_config(false))?;
        drop(wasmtime::Module::from_binary(&engine, &bytes)?);
        drop(subako_tiny_callgrind_compile(&engine, &bytes)?);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figures with `per_byte[k]` fuel per byte for kind `k` at 128 KiB and
    /// `per_byte[k] * stretch` at 16 MiB, and a seed call of `seed` fuel.
    fn figures(per_byte: [f64; 3], stretch: f64, seed: u64) -> GrowthFigures {
        let probe = |kind, line_bytes, fuel_per_byte| GrowthProbe {
            kind: Some(kind),
            line_bytes,
            fuel: 0,
            problem: None,
            fuel_per_byte: Some(fuel_per_byte),
        };
        let mut rows = Vec::new();
        for (kind, x) in GrowthKind::ALL.into_iter().zip(per_byte) {
            rows.push(probe(kind, 128 * KIB, x));
            rows.push(probe(kind, 16 * MIB, x * stretch));
        }
        GrowthFigures {
            module: PathBuf::from("m.wasm"),
            tool: "greet".into(),
            member: "name".into(),
            seed: GrowthProbe { kind: None, line_bytes: 299, fuel: seed, problem: None, fuel_per_byte: None },
            baselines: Vec::new(),
            rows,
        }
    }

    #[test]
    fn the_targets_are_judged_against_the_second_module() {
        let official = figures([172.5, 116.5, 15.5], 1.0, 134_521);
        let report = |ours| GrowthReport { a: ours, b: Some(official.clone()) };
        let met = |r: &GrowthReport| r.targets().iter().map(|t| t.3).collect::<Vec<_>>();
        assert_eq!(met(&report(figures([129.0, 87.0, 15.5], 1.0, 67_000))), [true; 7]);
        // Each bound crossed in turn: 0.75x, 0.75x, 1x, linearity, half the seed.
        assert!(!met(&report(figures([130.0, 87.0, 15.5], 1.0, 67_000)))[0]);
        assert!(!met(&report(figures([129.0, 88.0, 15.5], 1.0, 67_000)))[1]);
        assert!(!met(&report(figures([129.0, 87.0, 15.6], 1.0, 67_000)))[2]);
        let curved = met(&report(figures([100.0, 80.0, 10.0], 1.06, 67_000)));
        assert_eq!(&curved[..6], [true, true, true, false, false, false]);
        assert!(!met(&report(figures([129.0, 87.0, 15.5], 1.0, 67_261)))[6]);
        assert!(GrowthReport { a: official.clone(), b: None }.targets().is_empty());
        let text = report(figures([172.5, 87.0, 15.5], 1.0, 67_000)).to_text();
        assert!(text.contains("ascii fuel/byte at 16 MiB <= 0.75 x the second's"), "{text}");
        assert!(text.contains("NOT MET"), "{text}");
    }
}
