//! Wall-clock figures: cold compiles timed in rounds over every module, and
//! the quantiles the report gives.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::Error;
use crate::error::read;

/// The value at fraction `p` of sorted `v` (nearest rank), if any.
pub(super) fn quantile<T: Copy>(v: &[T], p: f64) -> Option<T> {
    v.get((v.len().saturating_sub(1) as f64 * p).round() as usize).copied()
}

pub(super) fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort_unstable();
    quantile(v, p).unwrap_or(Duration::ZERO)
}

/// Cold compiles of each module in turn, `compiles` rounds (so drift hits
/// them alike): the times per module, in the order given.
pub(super) fn timed_compiles(
    engine: &wasmtime::Engine,
    modules: &[&[u8]],
    compiles: usize,
) -> Result<Vec<Vec<Duration>>, Error> {
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

/// Cold compile times of several modules, compiled in turn `compiles`
/// times each (so drift hits them alike): (median, p10, p90) in ms, in the
/// order given. The modules need only validate: nothing is run, so a copy
/// with some function bodies emptied is timed as well as the real one.
pub fn compile_times(paths: &[PathBuf], compiles: usize) -> Result<Vec<[f64; 3]>, Error> {
    let engine = &crate::exec::host().engine;
    let mut modules = Vec::new();
    for p in paths {
        let bytes = read(p)?;
        // Compiled once before timing: a module that does not validate fails here.
        wasmtime::Module::new(engine, &bytes).map_err(|e| Error::NotAModule(format!("{}: {e:#}", p.display())))?;
        modules.push(bytes);
    }
    let bytes: Vec<&[u8]> = modules.iter().map(Vec::as_slice).collect();
    Ok(timed_compiles(engine, &bytes, compiles)?
        .iter_mut()
        .map(|times| [0.5, 0.1, 0.9].map(|p| pct(times, p).as_secs_f64() * 1e3))
        .collect())
}

/// `subako-tiny compile-time`: each module's cold compile time.
#[derive(Clone, Debug)]
pub struct CompileTimes {
    /// The modules, in the order given.
    pub modules: Vec<PathBuf>,
    /// (median, p10, p90) ms of each.
    pub times: Vec<[f64; 3]>,
}

impl CompileTimes {
    /// Compiles each of `paths` in turn, `compiles` rounds.
    pub fn measure(paths: &[PathBuf], compiles: usize) -> Result<CompileTimes, Error> {
        Ok(CompileTimes { modules: paths.to_vec(), times: compile_times(paths, compiles)? })
    }

    /// `[{module, compile_ms, compile_ms_p10, compile_ms_p90}]`.
    pub fn to_json(&self) -> serde_json::Value {
        self.modules
            .iter()
            .zip(&self.times)
            .map(|(p, [m, lo, hi])| {
                serde_json::json!({"module": p.display().to_string(), "compile_ms": m, "compile_ms_p10": lo,
                                   "compile_ms_p90": hi})
            })
            .collect()
    }

    /// One line per module: median ms, the p10–p90 range, the path.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (p, [m, lo, hi]) in self.modules.iter().zip(&self.times) {
            s += &format!("{m:8.2} ms ({lo:.2}–{hi:.2})  {}\n", p.display());
        }
        s
    }
}
