//! Guest fuel: the wasm operators a run executes, counted by wasmtime in an
//! engine of its own, so the figure is the same from run to run.

use crate::Error;
use crate::exec::{Exit, Module, RunOptions, RunOutput, run};

use super::Subject;

pub(super) struct Fuel {
    pub call: u64,
    pub list: u64,
    pub manifest: Option<u64>,
    pub varies: Option<String>,
}

/// Fuel of one run of a fuel-counting module (a run that cannot start is an error).
pub(super) fn fuel_of(module: &Module, opts: &RunOptions) -> Result<(u64, RunOutput), Error> {
    let out = run(module, opts)?;
    Ok((out.fuel.expect("a fuel-counting module reports fuel"), out))
}

/// The call, the upload exchange and the manifest, each run twice in a
/// fuel-counting engine (the second run says whether fuel is repeatable).
pub(super) fn fuel_figures(s: &Subject) -> Result<Fuel, Error> {
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
