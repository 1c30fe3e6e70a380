//! The x86 instructions of one compile, counted by callgrind in a child
//! process of this binary (`bench --callgrind-compile`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;
use crate::error::read;

/// The symbol callgrind toggles collection on: only what runs inside it
/// (inclusive, on its thread) is counted.
const COMPILE_SYMBOL: &str = "subako_tiny_callgrind_compile";

/// Callgrind processes per module: the count moves by a few hundredths of
/// a percent between processes (hash seeds, addresses), so the median of a few.
pub const COMPILE_INSTRUCTION_RUNS: usize = 3;

/// How `compile_instr` is counted, for the report.
pub(super) const COMPILE_INSTRUCTIONS_HOW: &str = "x86 instructions (callgrind Ir) inside one wasmtime::Module::from_binary \
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
pub(super) fn valgrind() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("valgrind")).find(|p| p.is_file())
}

/// The callgrind instruction count of `subako_tiny_callgrind_compile` in
/// `exe bench --callgrind-compile module` (see [`callgrind_compile_child`]).
pub(super) fn compile_instructions(valgrind: &Path, exe: &Path, module: &Path) -> Result<u64, Error> {
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
        .map_err(|e| Error::Command(format!("{}: {e}", valgrind.display())))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: String = stderr.chars().rev().take(2000).collect::<Vec<_>>().into_iter().rev().collect();
        return Err(Error::Command(format!("callgrind on {} failed ({}):\n{tail}", module.display(), out.status)));
    }
    let text = std::fs::read_to_string(&file)?;
    // `summary:` (older callgrind) or `totals:`: the collected event counts, Ir first.
    let n = text
        .lines()
        .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .ok_or_else(|| Error::Command(format!("callgrind wrote no instruction total for {}", module.display())))?;
    if n == 0 {
        return Err(Error::Command(format!("callgrind counted no instructions in {COMPILE_SYMBOL}: was it entered?")));
    }
    Ok(n)
}

/// What `subako-tiny bench --callgrind-compile MODULE` does, for callgrind
/// to count: an engine configured as the runner's (no fuel), one compile
/// not counted (wasmtime's one-time setup), then the counted one through
/// `subako_tiny_callgrind_compile`.
pub fn callgrind_compile_child(module: &Path) -> Result<(), Error> {
    let bytes = read(module)?;
    let engine = wasmtime::Engine::new(&crate::exec::engine_config(false))?;
    drop(wasmtime::Module::from_binary(&engine, &bytes)?);
    drop(subako_tiny_callgrind_compile(&engine, &bytes)?);
    Ok(())
}
