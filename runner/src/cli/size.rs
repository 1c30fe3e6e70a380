//! `subako-tiny size`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::json;
use subako_tiny_runner::Error;

/// What a module is made of: sections and their bytes, code and data, functions, initial pages, imports and
/// exports. --explain: the functions by size, demangled and grouped by the crate that owns them (an unstripped
/// build has the names).
#[derive(Args)]
pub struct Size {
    /// The module
    module: PathBuf,
    /// Also every function by size and owner, and the data segments
    #[arg(long)]
    explain: bool,
    /// Rows of --explain's lists
    #[arg(long, value_name = "N", default_value_t = 25)]
    top: usize,
    /// Print the figures as JSON
    #[arg(long)]
    json: bool,
}

impl Size {
    pub fn run(self) -> Result<ExitCode, Error> {
        let p = &self.module;
        let bytes = std::fs::read(p).map_err(|e| Error::file(p, e))?;
        let r = subako_tiny_runner::size(&bytes).map_err(|e| Error::NotAModule(format!("{}: {e}", p.display())))?;
        if self.json {
            let mut v = r.to_json(self.explain);
            v["module"] = json!(p);
            println!("{v}");
        } else {
            print!("{}: {}", p.display(), r.to_text(self.explain, self.top));
        }
        Ok(ExitCode::SUCCESS)
    }
}
