//! `subako-tiny check`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use subako_tiny_runner::{Error, check};

/// The upload checks: a core module exporting _start and memory, the allowed imports, and one run answering
/// server/discover and tools/list. Prints the tools; exit 0 only if Subako would accept the module.
#[derive(Args)]
pub struct Check {
    /// The module
    module: PathBuf,
    /// Mounted read-only at /package for the upload run
    #[arg(long, value_name = "DIR")]
    assets: Option<PathBuf>,
    /// Print {accepted, failures, warnings, tools, pages}
    #[arg(long)]
    json: bool,
}

impl Check {
    pub fn run(self) -> Result<ExitCode, Error> {
        let bytes = std::fs::read(&self.module).map_err(|e| Error::file(&self.module, e))?;
        let r = check(&bytes, self.assets.as_deref());
        if self.json {
            subako_tiny_runner::outln!("{}", r.to_json());
        } else {
            subako_tiny_runner::out!("{}", r.to_text());
        }
        Ok(if r.accepted() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
    }
}
