//! `subako-tiny bundle`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use subako_tiny_runner::{Error, bundle};

/// Writes DIR/{subako-package.json,module.wasm,assets/} and DIR.tar.gz, refusing what upload would refuse.
#[derive(Args)]
pub struct Bundle {
    /// The module
    #[arg(long, value_name = "MODULE.wasm")]
    module: PathBuf,
    /// The package's assets (mounted at /package)
    #[arg(long, value_name = "DIR")]
    assets: Option<PathBuf>,
    /// Where to write the bundle
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

impl Bundle {
    pub fn run(self) -> Result<ExitCode, Error> {
        let r = bundle(&self.module, self.assets.as_deref(), &self.out)?;
        subako_tiny_runner::out!("{}", r.to_text());
        Ok(ExitCode::SUCCESS)
    }
}
