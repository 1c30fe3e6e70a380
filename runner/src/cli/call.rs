//! `subako-tiny call`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use subako_tiny_runner::{Error, call};

use super::{CallArgs, module, read_args};

/// One tools/call in a fresh instance, as the worker makes it. Prints the CallToolResult as the module wrote it,
/// and on stderr each volume:/// file it links. Exit 1 when the call crashed (the rule that fired and the last 4 KiB
/// of stderr are printed) or answered isError.
#[derive(Args)]
pub struct Call {
    /// The module
    module: PathBuf,
    /// The tool to call
    tool: String,
    /// Its arguments as JSON, or - to read them from stdin (default {})
    #[arg(value_name = "ARGS_JSON")]
    args: Option<String>,
    /// Read the arguments from FILE (for arguments longer than a command line holds)
    #[arg(long = "args-file", value_name = "FILE")]
    args_file: Option<PathBuf>,
    #[command(flatten)]
    call: CallArgs,
}

impl Call {
    pub fn run(self) -> Result<ExitCode, Error> {
        let m = module(&self.module)?;
        let args = read_args(self.args.as_deref(), self.args_file.as_deref())?;
        let o = self.call.options();
        let mut out = call(&m, &self.tool, args, &o)?;
        print!("{}", out.to_text());
        eprint!("{}", out.links_text());
        if !out.links.is_empty()
            && let Some(kept) = out.keep_tmp()
        {
            // So the linked files can be looked at.
            eprintln!("/volume/tmp kept at {}", kept.display());
        }
        Ok(if out.crash().is_some() || out.is_error() { ExitCode::FAILURE } else { ExitCode::SUCCESS })
    }
}
