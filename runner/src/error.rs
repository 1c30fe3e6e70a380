//! The runner's own failures: what it could not do, as opposed to what a
//! module did wrong (a [`crate::Crash`], a [`crate::CheckReport`]'s failures).

use std::path::{Path, PathBuf};

/// A failure of the runner itself. Each message names what was wrong and,
/// where it can, the fix.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or directory the runner was given, or writes, could not be used.
    #[error("{}: {source}", path.display())]
    File {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
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
        Error::File { path: path.as_ref().to_path_buf(), source }
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

/// Reads a whole file, naming it in the error.
pub(crate) fn read(path: impl AsRef<Path>) -> Result<Vec<u8>, Error> {
    std::fs::read(path.as_ref()).map_err(|e| Error::file(path, e))
}
