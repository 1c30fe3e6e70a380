//! Per-call cost as a worker pays it, measured in-process: a cold compile, then
//! fresh instance + one `tools/call` + exit from the precompiled module, and the
//! upload exchange (discover + tools/list).
//!
//! Beside the wall-clock figures, deterministic ones: guest fuel (wasm
//! operators run, counted by wasmtime in a separate fuel-counting engine and
//! stores, after the timed runs) for the call, the upload exchange and the
//! manifest run; optionally the x86 instructions of one compile under
//! callgrind; and [`growth`]: fuel per request-line byte as the line grows.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{Value, json};

use crate::Error;
use crate::exec::run;

mod callgrind;
mod fuel;
mod growth;
mod jsonl;
mod subject;
mod timing;

pub use callgrind::{COMPILE_INSTRUCTION_RUNS, callgrind_compile_child};
pub use growth::{GROWTH_SIZES, GrowthFigures, GrowthKind, GrowthOptions, GrowthProbe, GrowthReport, KIB, MIB, growth};
pub use jsonl::{JSONL_SIZES, JsonlProbe, JsonlWorkload};
pub use timing::{CompileTimes, compile_times};

use crate::text::ratio as ratio_of;
use callgrind::{COMPILE_INSTRUCTIONS_HOW, compile_instructions, valgrind};
use fuel::fuel_figures;
pub use subject::BenchOptions;
use subject::{Volumes, outcome, prepare};
use timing::{pct, quantile, timed_compiles};

/// One call of the measured sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct CallFigures {
    pub tool: String,
    pub us_median: f64,
    pub us_p10: f64,
    pub us_p90: f64,
    pub fuel: u64,
    /// The crash rule the call broke, if it did.
    pub crash: Option<String>,
    /// The text of an `isError` result, if the tool answered one.
    pub error: Option<String>,
    /// The call's JSON-RPC `result` (content, structuredContent, isError),
    /// unless it crashed.
    pub answer: Option<Value>,
}

impl CallFigures {
    /// `crashed: …` or `isError: …` when the call did not answer with a result.
    pub fn problem(&self) -> Option<String> {
        match (&self.crash, &self.error) {
            (Some(c), _) => Some(format!("crashed: {c}")),
            (None, Some(e)) => Some(format!("isError: {e}")),
            (None, None) => None,
        }
    }

    fn to_json(&self) -> Value {
        json!({"tool": self.tool, "us_median": self.us_median, "us_p10": self.us_p10, "us_p90": self.us_p90,
               "fuel": self.fuel, "crash": self.crash, "error": self.error, "answer": self.answer})
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
    /// The text of the measured call's `isError` result, if it answered one.
    pub call_error: Option<String>,
    /// The measured call's JSON-RPC `result`, unless it crashed.
    pub call_answer: Option<Value>,
    /// Every call of the sequence (the first is the one the `call_` figures give).
    pub calls: Vec<CallFigures>,
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
            "pages_exit": self.pages_exit, "call_crash": self.call_crash, "call_error": self.call_error,
            "call_answer": self.call_answer, "calls": self.calls.iter().map(CallFigures::to_json).collect::<Vec<_>>(),
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
            let failed = std::iter::once(&self.a)
                .chain(self.b.as_ref())
                .any(|f| f.calls.first().is_some_and(|c| c.problem().is_some()));
            let k = match *k {
                "compile_instructions" if self.compile_instructions_note.is_none() => continue,
                "compile_instructions" => "compile_instr",
                // A call that crashed or answered isError: its figures are the failure's.
                "call_us_median" | "call_us_p10" | "call_us_p90" | "call_fuel" if failed => &format!("{k}*"),
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
        if std::iter::once(&self.a)
            .chain(self.b.as_ref())
            .any(|f| f.calls.first().is_some_and(|c| c.problem().is_some()))
        {
            s += "*: the measured call failed (below): the figures are the failure's, not the tool's work\n";
        }
        for f in std::iter::once(&self.a).chain(self.b.as_ref()) {
            s += &format!("tool called in {}: {}\n", col(f), f.tool);
            for (i, c) in f.calls.iter().enumerate().skip(1) {
                s += &format!(
                    "then call {} in {}: {}: {:.1} µs ({:.1}–{:.1}), fuel {}\n",
                    i + 1,
                    col(f),
                    c.tool,
                    c.us_median,
                    c.us_p10,
                    c.us_p90,
                    c.fuel
                );
            }
            for (i, c) in f.calls.iter().enumerate() {
                if let Some(p) = c.problem() {
                    // Its figures are those of a failure, not of the tool's work.
                    s += &format!("warning: call {} ({}) in {} {p}\n", i + 1, c.tool, col(f));
                    if let Some(fix) = missing_grant(&p) {
                        s += &format!("  to measure the tool's work: {fix}\n");
                    }
                }
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
        let volumes = Volumes::fresh(&opts.call)?;
        for i in 0..s.calls.len() {
            let out = run(&s.module, &s.call_options(i, &volumes, &opts.call))?;
            if i == 0 {
                s.pages = (out.pages_at_start, out.pages_at_exit);
            }
            s.outcomes.push(outcome(i, &out));
        }
        run(&s.module, &s.list)?;
    }
    for _ in 0..opts.calls.max(1) {
        for s in &mut subjects {
            // Fresh volumes outside the timed spans.
            let volumes = Volumes::fresh(&opts.call)?;
            for i in 0..s.calls.len() {
                let o = s.call_options(i, &volumes, &opts.call);
                let t = Instant::now();
                run(&s.module, &o)?;
                s.times[i].push(t.elapsed());
            }
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
        fuels.push(fuel_figures(s, &opts.call)?);
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
    let figs = subjects.into_iter().zip(fuels).zip(instructions).map(|((mut s, fuel), instr)| {
        let calls: Vec<CallFigures> = s
            .times
            .iter_mut()
            .zip(&s.calls)
            .zip(&s.outcomes)
            .zip(&fuel.calls)
            .map(|(((times, (tool, _)), (crash, error, answer)), fuel)| CallFigures {
                tool: tool.clone(),
                us_median: pct(times, 0.5).as_secs_f64() * 1e6,
                us_p10: pct(times, 0.1).as_secs_f64() * 1e6,
                us_p90: pct(times, 0.9).as_secs_f64() * 1e6,
                fuel: *fuel,
                crash: crash.clone(),
                error: error.clone(),
                answer: answer.clone(),
            })
            .collect();
        (s, fuel, instr, calls)
    });
    let mut figs = figs.map(|(mut s, fuel, instr, calls)| BenchFigures {
        module: s.path.clone(),
        bytes: s.bytes.len(),
        tool: calls[0].tool.clone(),
        compile_ms: pct(&mut s.compiles, 0.5).as_secs_f64() * 1e3,
        compile_ms_p10: pct(&mut s.compiles, 0.1).as_secs_f64() * 1e3,
        compile_ms_p90: pct(&mut s.compiles, 0.9).as_secs_f64() * 1e3,
        call_us_median: calls[0].us_median,
        call_us_p10: calls[0].us_p10,
        call_us_p90: calls[0].us_p90,
        list_us_median: pct(&mut s.lists, 0.5).as_secs_f64() * 1e6,
        pages_start: s.pages.0,
        pages_exit: s.pages.1,
        call_crash: calls[0].crash.clone(),
        call_error: calls[0].error.clone(),
        call_answer: calls[0].answer.clone(),
        call_fuel: calls[0].fuel,
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
        calls,
    });
    let a = figs.next().unwrap();
    Ok(BenchReport { a, b: figs.next(), compile_ratios, compile_instructions_note })
}

/// What the call `problem` came from was not given, when its words say:
/// a volume, the package's assets, or a network grant (without
/// `--allow-host`, a measured call's `subako_http` is the platform's stub
/// for a function without network, which answers -1); for `size` and
/// `bench` to name the option.
pub(crate) fn missing_grant(problem: &str) -> Option<&'static str> {
    if problem.contains("/volume/data is not mounted") {
        Some(
            "give it a directory behind /volume/data with --data DIR, as the agent enables one; size also \
             takes data = \"DIR\" in [package.metadata.subako-tiny]",
        )
    } else if problem.contains("/package is not mounted") {
        Some(
            "give the package's assets with --assets DIR, or assets = \"DIR\" in [package.metadata.subako-tiny], \
             as the bundle mounts them at /package",
        )
    } else if problem.contains("subako_http returned -1") {
        Some(
            "grant the hosts it calls with --allow-host HOST[:PORT] (and --allow-loopback for 127.0.0.1): \
             without, a measured call has no network, as on a worker that grants none",
        )
    } else {
        None
    }
}
