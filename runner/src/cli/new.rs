//! `subako-tiny new`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use subako_tiny_runner::Error;

use crate::scaffold;

/// Writes a package into DIR (new or empty) that vendors subako-tiny: Cargo.toml with the size profile, build.rs,
/// one tool in src/main.rs with its tests, README.md, and the crate in vendor/subako-tiny/ (no checkout needed).
#[derive(Args)]
pub struct New {
    /// The package's directory
    dir: PathBuf,
    /// The package name (default: DIR's name): a-z, 0-9, '-', '_', starting with a letter
    #[arg(long)]
    name: Option<String>,
    /// The package's description, which Subako shows the model (default: "Says hello.")
    #[arg(long, value_name = "TEXT")]
    description: Option<String>,
}

impl New {
    pub fn run(self) -> Result<ExitCode, Error> {
        let s = scaffold::new_package(&self.dir, self.name.as_deref(), self.description.as_deref())
            .map_err(Error::Input)?;
        subako_tiny_runner::out!("{}", s.to_text());
        Ok(ExitCode::SUCCESS)
    }
}
