//! Guest fuel: the wasm operators a run executes, counted by wasmtime in an
//! engine of its own, so the figure is the same from run to run.

use crate::Error;
use crate::exec::{Exit, Module, RunOptions, RunOutput, run};

use crate::call::CallOptions;

use super::subject::{Subject, Volumes};

pub(super) struct Fuel {
    /// Each call of the sequence.
    pub calls: Vec<u64>,
    pub list: u64,
    pub manifest: Option<u64>,
    pub varies: Option<String>,
}

/// Fuel of one run of a fuel-counting module (a run that cannot start is an error).
pub(super) fn fuel_of(module: &Module, opts: &RunOptions) -> Result<(u64, RunOutput), Error> {
    let out = run(module, opts)?;
    Ok((out.fuel.expect("a fuel-counting module reports fuel"), out))
}

/// The calls, the upload exchange and the manifest, each run twice in a
/// fuel-counting engine (the second run says whether fuel is repeatable);
/// each run of the calls on volumes of its own, fresh from the same files.
pub(super) fn fuel_figures(s: &Subject, o: &CallOptions) -> Result<Fuel, Error> {
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
    let (list, _) = twice("list", &s.list)?;
    let (manifest, out) = twice("manifest", &s.manifest)?;
    let manifest = (out.exit == Exit::Code(0)).then_some(manifest);
    let mut runs: Vec<Vec<u64>> = Vec::new();
    for _ in 0..2 {
        let volumes = Volumes::fresh(o)?;
        let mut fuels = Vec::new();
        for i in 0..s.calls.len() {
            fuels.push(fuel_of(&m, &s.call_options(i, &volumes, o))?.0);
        }
        runs.push(fuels);
    }
    for (i, (f1, f2)) in runs[0].iter().zip(&runs[1]).enumerate() {
        if f1 != f2 {
            let what = if s.calls.len() == 1 { "call".to_string() } else { format!("call {}", i + 1) };
            varies.push(format!("{what} {f1} then {f2}"));
        }
    }
    Ok(Fuel { calls: runs.swap_remove(0), list, manifest, varies: (!varies.is_empty()).then(|| varies.join(", ")) })
}
