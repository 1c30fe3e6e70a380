//! `subako-tiny`: the local Subako worker (check, call, serve, bundle, time and
//! measure modules; scaffold a package). `main` parses the command line and
//! hands the command to its module under `cli/`.

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod scaffold;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli.command.run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("subako-tiny: {e}");
            cli::exit_code(&e)
        }
    }
}
