//! `subako-tiny compile-time`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use subako_tiny_runner::{CompileTimes, Error};

/// Cold compile time of each module (median, p10, p90 ms), compiled in turn so drift hits them alike. The modules
/// need only validate.
#[derive(Args)]
pub struct CompileTime {
    /// The modules
    #[arg(required = true)]
    modules: Vec<PathBuf>,
    /// Compiles of each
    #[arg(long, value_name = "N", default_value_t = 11, value_parser = super::at_least_one)]
    compiles: usize,
    /// Print [{module, compile_ms, compile_ms_p10, compile_ms_p90}]
    #[arg(long)]
    json: bool,
}

impl CompileTime {
    pub fn run(self) -> Result<ExitCode, Error> {
        let r = CompileTimes::measure(&self.modules, self.compiles)?;
        if self.json {
            subako_tiny_runner::outln!("{}", r.to_json());
        } else {
            subako_tiny_runner::out!("{}", r.to_text());
        }
        Ok(ExitCode::SUCCESS)
    }
}
