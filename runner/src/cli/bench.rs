//! `subako-tiny bench`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use subako_tiny_runner::{BenchOptions, Error, bench, callgrind_compile_child, growth};

use super::CallSpec;

/// Compile time, per-call time (median, p10, p90), discover + tools/list time and memory pages, with guest fuel
/// beside them (wasm operators run: the same on every run). The call takes call's options (volumes, network,
/// --then for calls in sequence). With --vs, the two modules measured interleaved. --growth: fuel per request-line
/// byte as one argument grows.
#[derive(Args)]
pub struct Bench {
    /// The module
    #[arg(required_unless_present_any = ["growth", "callgrind_compile"])]
    module: Option<std::path::PathBuf>,
    /// A second module, measured interleaved with the first (ratios b/a)
    #[arg(long, value_name = "OTHER.wasm")]
    vs: Option<PathBuf>,
    /// Timed calls (and discover + tools/list runs) per module
    #[arg(long, value_name = "N", default_value_t = 200)]
    calls: usize,
    /// Timed cold compiles per module
    #[arg(long, value_name = "N", default_value_t = 5)]
    compiles: usize,
    #[command(flatten)]
    calls_: CallSpec,
    /// Also count the x86 instructions of one compile with callgrind (valgrind on the PATH)
    #[arg(long = "compile-instructions")]
    compile_instructions: bool,
    /// The growth benchmark on MODULE instead
    #[arg(long, value_name = "MODULE.wasm", conflicts_with = "module")]
    growth: Option<PathBuf>,
    /// The process --compile-instructions runs under callgrind
    #[arg(long = "callgrind-compile", value_name = "MODULE.wasm", hide = true)]
    callgrind_compile: Option<PathBuf>,
    /// Print every figure as JSON (keys: runner/METHOD.md)
    #[arg(long)]
    json: bool,
}

impl Bench {
    pub fn run(self) -> Result<ExitCode, Error> {
        if let Some(m) = &self.callgrind_compile {
            callgrind_compile_child(m)?;
            return Ok(ExitCode::SUCCESS);
        }
        if let Some(p) = &self.growth {
            let r = growth(p, self.vs.as_deref(), self.calls_.tool.as_deref())?;
            if self.json {
                println!("{}", r.to_json());
            } else {
                print!("{}", r.to_text());
            }
            return Ok(ExitCode::SUCCESS);
        }
        let module = self.module.as_deref().expect("clap requires MODULE without --growth");
        let spec = &self.calls_;
        let mut o = BenchOptions {
            tool: spec.tool.clone(),
            calls: self.calls,
            compiles: self.compiles,
            then: spec.then.calls()?,
            call: spec.call.options(),
            ..Default::default()
        };
        if let Some(args) = spec.args()? {
            o.args = args;
        }
        if self.compile_instructions {
            o.compile_instructions =
                Some(std::env::current_exe().map_err(|e| Error::Command(format!("this executable: {e}")))?);
        }
        let r = bench(module, self.vs.as_deref(), &o)?;
        if self.json {
            println!("{}", r.to_json());
        } else {
            print!("{}", r.to_text());
        }
        Ok(ExitCode::SUCCESS)
    }
}
