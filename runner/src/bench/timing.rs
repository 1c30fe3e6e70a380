//! Wall-clock figures: cold compiles timed in rounds over every module, and
//! the quantiles the report gives.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::{Error, err};

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
