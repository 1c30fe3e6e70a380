//! `subako-tiny manifest`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use subako_tiny_runner::{Error, manifest};

use super::module;

/// Prints the module's --subako-manifest answer, checked (ABI 1, a name and a description).
#[derive(Args)]
pub struct ManifestCmd {
    /// The module
    module: PathBuf,
}

impl ManifestCmd {
    pub fn run(self) -> Result<ExitCode, Error> {
        let m = manifest(&module(&self.module)?)?;
        subako_tiny_runner::outln!("{:#}", m.to_json());
        Ok(ExitCode::SUCCESS)
    }
}
