//! `subako-tiny serve`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use subako_tiny_runner::{Error, Exit, RunOptions, package_name, serve};

use super::{CallArgs, module};

/// Raw: this process's stdin goes to the module, its stdout comes back, line by line, for as long as the module
/// runs (no time limit unless --time-limit-ms is given). The exit code is the module's. When the module ends with
/// lines it did not answer (a panic or running out of memory ends the process), stderr says how many.
#[derive(Args)]
pub struct Serve {
    /// The module
    module: PathBuf,
    #[command(flatten)]
    call: CallArgs,
}

impl Serve {
    pub fn run(self) -> Result<ExitCode, Error> {
        let m = module(&self.module)?;
        self.call.check_dirs()?;
        let o = self.call.options();
        let package = package_name(&m, o.package.as_deref(), o.time_limit);
        let tmp = tempfile::tempdir()?;
        let mut preopens =
            vec![("/volume/tmp".to_string(), o.tmp_dir.clone().unwrap_or_else(|| tmp.path().into()), false)];
        if let Some(d) = &o.data_dir {
            preopens.push(("/volume/data".into(), d.clone(), false));
        }
        if let Some(d) = &o.assets_dir
            && subako_tiny_runner::has_assets(d)
        {
            preopens.push(("/package".into(), d.clone(), true));
        }
        let time_limit =
            if self.call.time_limit_ms.is_some() { o.time_limit } else { Duration::from_secs(365 * 24 * 3600) };
        let opts = RunOptions {
            argv: vec![package],
            preopens,
            time_limit,
            memory_limit_bytes: o.memory_limit_bytes,
            http: o.http,
            write_budget: o.write_budget,
            clock: o.clock,
            ..RunOptions::default()
        };
        let out = serve(&m, &opts)?;
        if let Some(notice) = out.served.as_ref().and_then(|s| s.notice(&out.exit)) {
            eprintln!("subako-tiny: {notice}");
        }
        Ok(match out.exit {
            Exit::Code(0) => ExitCode::SUCCESS,
            Exit::Code(n) => ExitCode::from(n.clamp(1, 255) as u8),
            other => {
                eprintln!("subako-tiny: the module ended with {other}");
                ExitCode::FAILURE
            }
        })
    }
}
