//! Per-call cost as a worker pays it, measured in-process: a cold compile, then
//! fresh instance + one `tools/call` + exit from the precompiled module, and the
//! upload exchange (discover + tools/list).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::crash::judge;
use crate::exec::{Module, RunOptions, run};
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
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions { calls: 200, compiles: 5, tool: None, args: json!({}) }
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
        })
    }
    fn numbers(&self) -> [(&'static str, f64); 8] {
        [
            ("bytes", self.bytes as f64),
            ("compile_ms", self.compile_ms),
            ("call_us_median", self.call_us_median),
            ("call_us_p10", self.call_us_p10),
            ("call_us_p90", self.call_us_p90),
            ("list_us_median", self.list_us_median),
            ("pages_start", self.pages_start as f64),
            ("pages_exit", self.pages_exit as f64),
        ]
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
                    .map(|((k, x), (_, y))| (k.to_string(), if *x == 0.0 { Value::Null } else { json!(y / x) }))
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
        for (i, (k, x)) in a.iter().enumerate() {
            s += &format!("{k:<16} {x:>w$.1}");
            if let Some(b) = &self.b {
                let y = b.numbers()[i].1;
                s += &format!(" {y:>w$.1} {:>8}", if *x == 0.0 { "-".into() } else { format!("{:.2}", y / x) });
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
    let mut figs = subjects.into_iter().map(|mut s| BenchFigures {
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
    });
    let a = figs.next().unwrap();
    Ok(BenchReport { a, b: figs.next(), compile_ratios })
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
