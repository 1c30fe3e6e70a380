//! The runner's own failures: what it could not do, as opposed to what a
//! module did wrong (a [`crate::Crash`], a [`crate::CheckReport`]'s failures).

use std::path::{Path, PathBuf};

/// A failure of the runner itself. Each message names what was wrong and,
/// where it can, the fix.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or directory the runner was given, or writes, could not be used.
    #[error("{}: {source}{hint}", path.display())]
    File {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
        /// Where the file may be instead, or empty.
        hint: String,
    },
    /// Other I/O: a temporary directory, a pipe, a child process's output.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Bytes that are not a module the runner can take: not WebAssembly, a
    /// component, or a module that does not validate or link.
    #[error("{0}")]
    NotAModule(String),
    /// wasmtime failed while compiling or running a module.
    #[error("{0}")]
    Wasmtime(String),
    /// The module ran, but did not answer what the runner needed from it
    /// (its manifest, its tools/list).
    #[error("{0}")]
    Module(String),
    /// Bad input from the caller: an option, an argument, JSON, a manifest's
    /// table. The CLI exits 2 on it.
    #[error("{0}")]
    Input(String),
    /// A program the runner runs (cargo, valgrind, wasm-opt) failed or is missing.
    #[error("{0}")]
    Command(String),
}

impl Error {
    /// A file error for `path`.
    pub fn file(path: impl AsRef<Path>, source: std::io::Error) -> Error {
        let path = path.as_ref().to_path_buf();
        let hint = match source.kind() {
            std::io::ErrorKind::NotFound => {
                elsewhere(&path, std::env::var_os("CARGO_TARGET_DIR").as_deref().map(Path::new))
            }
            _ => String::new(),
        };
        Error::File { path, source, hint }
    }

    /// Whether the caller's input was at fault (the CLI's exit 2), not the run.
    pub fn is_input(&self) -> bool {
        matches!(self, Error::Input(_))
    }
}

impl From<wasmtime::Error> for Error {
    fn from(e: wasmtime::Error) -> Self {
        Error::Wasmtime(format!("{e:#}"))
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Input(format!("JSON: {e}"))
    }
}

/// For a missing `target/…` path while `CARGO_TARGET_DIR` sends cargo's
/// builds elsewhere (trial 97: the README's `check target/…` line), where
/// the file is there; empty when it is not there either.
fn elsewhere(path: &Path, target_dir: Option<&Path>) -> String {
    // `./target/…` as `target/…` (review 100).
    let path = path.strip_prefix(".").unwrap_or(path);
    let (Some(dir), Ok(rest)) = (target_dir, path.strip_prefix("target")) else {
        return String::new();
    };
    let there = dir.join(rest);
    if path.is_relative() && there.is_file() {
        format!(" (CARGO_TARGET_DIR is set, and cargo builds there: is it {}?)", there.display())
    } else {
        String::new()
    }
}

/// Reads a whole file, naming it in the error.
pub(crate) fn read(path: impl AsRef<Path>) -> Result<Vec<u8>, Error> {
    std::fs::read(path.as_ref()).map_err(|e| Error::file(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_target_path_names_cargo_target_dir() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("wasm32-wasip1/release")).unwrap();
        std::fs::write(dir.path().join("wasm32-wasip1/release/t.wasm"), b"\0asm").unwrap();
        let missing = Path::new("target/wasm32-wasip1/release/t.wasm");
        let hint = elsewhere(missing, Some(dir.path()));
        assert!(hint.contains("CARGO_TARGET_DIR is set"), "{hint}");
        assert!(hint.contains(&dir.path().join("wasm32-wasip1/release/t.wasm").display().to_string()), "{hint}");
        assert_eq!(elsewhere(Path::new("./target/wasm32-wasip1/release/t.wasm"), Some(dir.path())), hint);
        // Not there either, no variable, or a path not under target/: nothing.
        assert_eq!(elsewhere(Path::new("target/wasm32-wasip1/release/u.wasm"), Some(dir.path())), "");
        assert_eq!(elsewhere(missing, None), "");
        assert_eq!(elsewhere(Path::new("other/wasm32-wasip1/release/t.wasm"), Some(dir.path())), "");
    }
}
