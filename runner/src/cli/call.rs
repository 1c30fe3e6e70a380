//! `subako-tiny call`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use subako_tiny_runner::{CallOutcome, Error, IntoArgs, call, check};

use super::{CallArgs, Then, module, read_args_text, then_name};

/// One tools/call in a fresh instance, as the worker makes it (and, with --then, more after it on the same
/// volumes). Prints each CallToolResult as the module wrote it, and on stderr each volume:/// file it links. Exit 1
/// when a call crashed (the rule that fired and the last 4 KiB of stderr are printed) or answered isError.
#[derive(Args)]
pub struct Call {
    /// The module
    module: PathBuf,
    /// The tool to call
    tool: String,
    /// Its arguments as JSON, - to read them from stdin, or @FILE to read them from FILE (default {})
    #[arg(value_name = "ARGS_JSON")]
    args: Option<String>,
    /// Read the arguments from FILE (for arguments longer than a command line holds)
    #[arg(long = "args-file", value_name = "FILE")]
    args_file: Option<PathBuf>,
    #[command(flatten)]
    then: Then,
    #[command(flatten)]
    call: CallArgs,
}

impl Call {
    pub fn run(self) -> Result<ExitCode, Error> {
        let m = module(&self.module)?;
        // Every call's arguments as written (`-0`, `1e2`, `1e400`, key
        // order), the first's and those of `--then` alike.
        let first = read_args_text(self.args.as_deref(), self.args_file.as_deref())?.into_args()?;
        let then = self.then.texts()?;
        let tools: Vec<&str> = then.iter().map(|(t, _)| t.as_str()).collect();
        let then = then.iter().enumerate().map(|(i, (t, args))| {
            // Named as `--then`'s other refusals are (review 72).
            let args = args.as_str().into_args().map_err(|e| match e {
                Error::Input(m) => Error::Input(format!("{}: {m}", then_name(&tools, i))),
                e => e,
            })?;
            Ok((t.clone(), args))
        });
        let calls = std::iter::once(Ok((self.tool.clone(), first))).chain(then).collect::<Result<Vec<_>, Error>>()?;
        self.call.check_dirs()?;
        let mut o = self.call.options();
        let mut outcomes = Vec::new();
        let mut failed = false;
        for (i, (tool, args)) in calls.into_iter().enumerate() {
            // Each call a fresh instance, all on the first one's volumes.
            let out = call(&m, &tool, args, &o)?;
            o.tmp_dir = Some(out.tmp_dir.clone());
            subako_tiny_runner::out!("{}", out.to_text());
            eprint!("{}", out.links_text());
            if out.is_error() {
                self.name_the_tools(&tool, &out);
            }
            failed |= out.crash().is_some() || out.is_error();
            let crashed = out.crash().is_some();
            outcomes.push(out);
            if crashed {
                if i < self.then.then.len() / 2 {
                    eprintln!("subako-tiny: call {} crashed; the calls after it were not made", i + 1);
                }
                break;
            }
        }
        if outcomes.iter().any(|o| !o.links.is_empty())
            && let Some(kept) = outcomes.first_mut().and_then(|o| o.keep_tmp())
        {
            // So the linked files can be looked at.
            eprintln!("/volume/tmp kept at {}", kept.display());
        }
        Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
    }

    /// After an `unknown tool` answer (whose words the wire contract fixes),
    /// names on stderr the tools the module does have, as tools/list gives them.
    fn name_the_tools(&self, tool: &str, out: &CallOutcome) {
        let said = out.result.as_ref().ok().and_then(|r| r["content"][0]["text"].as_str());
        if said != Some(&format!("unknown tool: {tool}")) {
            return;
        }
        let Ok(bytes) = std::fs::read(&self.module) else { return };
        let listed = check(&bytes, self.call.assets.as_deref());
        let names: Vec<&str> = listed.tools.iter().map(|t| t.name.as_str()).collect();
        if !names.is_empty() {
            eprintln!(
                "subako-tiny: {} has no tool {tool:?}; its tools: {} (subako-tiny check prints their schemas)",
                self.module.display(),
                names.join(", ")
            );
        }
    }
}
