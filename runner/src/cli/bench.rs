//! `subako-tiny bench`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use subako_tiny_runner::{
    BenchOptions, Error, GrowthKind, GrowthOptions, IntoArgs, JSONL_SIZES, JsonlWorkload, bench,
    callgrind_compile_child, growth,
};

use super::{CallSpec, read_args, read_args_text};

/// Compile time, per-call time (median, p10, p90), discover + tools/list time and memory pages, with guest fuel
/// beside them (wasm operators run: the same on every run of a module that reads no clock and no random bytes).
/// The call takes call's options (volumes, network, --then for calls in sequence). With --vs, the two modules
/// measured interleaved. --growth: fuel per request-line byte as one argument grows. Exits 1, after the figures,
/// when a measured call crashed or answered isError.
#[derive(Args)]
pub struct Bench {
    /// The module
    #[arg(required_unless_present_any = ["growth", "callgrind_compile"])]
    module: Option<std::path::PathBuf>,
    /// The tool to call, as `call` takes it (or --tool)
    #[arg(value_name = "TOOL", conflicts_with_all = ["tool", "growth"])]
    tool_at: Option<String>,
    /// Its arguments as JSON, - for stdin or @FILE, as `call` takes them (or --args)
    #[arg(value_name = "ARGS_JSON", requires = "tool_at", conflicts_with_all = ["args", "args_file"])]
    args_at: Option<String>,
    /// A second module, measured interleaved with the first (ratios b/a)
    #[arg(long, value_name = "OTHER.wasm")]
    vs: Option<PathBuf>,
    /// Timed calls (and discover + tools/list runs) per module
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = super::at_least_one)]
    calls: usize,
    /// Timed cold compiles per module
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = super::at_least_one)]
    compiles: usize,
    #[command(flatten)]
    calls_: CallSpec,
    /// Also count the x86 instructions of one compile with callgrind (valgrind on the PATH)
    #[arg(long = "compile-instructions")]
    compile_instructions: bool,
    /// The growth benchmark on MODULE instead (method: runner/METHOD.md): a hello-like tool (--tool, default greet)
    /// answering `Hello, <MEMBER>!`, as examples/hello.rs does, or with --jsonl a tool reading a JSON Lines file it
    /// makes. Your own tool's growth: bench MODULE --tool T --args-file F on arguments of each size
    #[arg(long, value_name = "MODULE.wasm", conflicts_with = "module")]
    growth: Option<PathBuf>,
    /// --growth: only these kinds of growing line (comma-separated: ascii, escaped, unused, french,
    /// french-unused, japanese, japanese-unused, emoji, emoji-unused; default all, or none with --jsonl)
    #[arg(long, value_name = "KINDS", value_delimiter = ',', requires = "growth")]
    kinds: Vec<String>,
    /// --growth: the string argument that grows (default name)
    #[arg(long, value_name = "NAME", default_value = "name", requires = "growth")]
    member: String,
    /// --growth: the JSON Lines workload: TOOL called with ARGS (JSON or @FILE) reading a file of RECORDs (a JSON
    /// object, one per line; its "id" member, if it has one, renumbered 1, 2, 3…; none is added) in /volume/data,
    /// at about 64 KiB, 1 MiB and 8 MiB
    #[arg(long, value_names = ["TOOL", "ARGS", "RECORD"], num_args = 3, requires = "growth")]
    jsonl: Vec<String>,
    /// --jsonl: the file's path under /volume/data
    #[arg(long = "jsonl-path", value_name = "PATH", default_value = "records.jsonl", requires = "jsonl")]
    jsonl_path: String,
    /// The process --compile-instructions runs under callgrind
    #[arg(long = "callgrind-compile", value_name = "MODULE.wasm", hide = true)]
    callgrind_compile: Option<PathBuf>,
    /// Print every figure as JSON (keys: runner/METHOD.md)
    #[arg(long)]
    json: bool,
}

/// JSON text, or `@FILE`'s (`read_args` reads both).
fn json_arg(v: &str) -> Result<serde_json::Value, Error> {
    read_args(Some(v), None)
}

impl Bench {
    fn growth_options(&self) -> Result<GrowthOptions, Error> {
        // The growing lines are made whole here, on volumes of their own:
        // an option of a plain call would be dropped unsaid.
        let c = &self.calls_;
        let ignored = [
            ("--args", c.args.is_some()),
            ("--args-file", c.args_file.is_some()),
            ("--then", !c.then.then.is_empty()),
            ("--data", c.call.data.is_some()),
            ("--tmp", c.call.tmp.is_some()),
            ("--assets", c.call.assets.is_some()),
            ("--allow-host", !c.call.allow_host.is_empty()),
        ];
        if let Some((flag, _)) = ignored.iter().find(|(_, given)| *given) {
            return Err(Error::Input(format!(
                concat!(
                    "--growth takes no {}: it measures a hello-like tool (--tool, default greet, answering ",
                    "`Hello, <MEMBER>!` as examples/hello.rs does) on lines it makes, or with --jsonl a tool reading a ",
                    "JSON Lines file it writes. To measure your own tool as an argument grows, run `bench MODULE --tool ",
                    "T --args-file F` with arguments of each size"
                ),
                flag
            )));
        }
        let mut o = GrowthOptions { member: self.member.clone(), ..GrowthOptions::default() };
        if let Some(t) = &self.calls_.tool {
            o.tool = t.clone();
        }
        if let [tool, args, record] = self.jsonl.as_slice() {
            let record = json_arg(record)?;
            if !record.is_object() {
                return Err(Error::Input("--jsonl RECORD: one JSON object, the file's every line".into()));
            }
            o.jsonl = Some(JsonlWorkload {
                tool: tool.clone(),
                args: json_arg(args)?,
                record,
                path: self.jsonl_path.clone(),
                sizes: JSONL_SIZES.to_vec(),
            });
            o.kinds.clear();
        }
        if !self.kinds.is_empty() {
            o.kinds = self
                .kinds
                .iter()
                .map(|k| {
                    GrowthKind::from_name(k).ok_or_else(|| {
                        let all: Vec<&str> = GrowthKind::ALL.iter().map(|k| k.name()).collect();
                        Error::Input(format!("--kinds: no kind {k:?} (the kinds: {})", all.join(", ")))
                    })
                })
                .collect::<Result<_, _>>()?;
        }
        Ok(o)
    }

    pub fn run(self) -> Result<ExitCode, Error> {
        if let Some(m) = &self.callgrind_compile {
            callgrind_compile_child(m)?;
            return Ok(ExitCode::SUCCESS);
        }
        if let Some(p) = &self.growth {
            let r = growth(p, self.vs.as_deref(), &self.growth_options()?)?;
            if self.json {
                subako_tiny_runner::outln!("{}", r.to_json());
            } else {
                subako_tiny_runner::out!("{}", r.to_text());
            }
            return Ok(ExitCode::SUCCESS);
        }
        let module = self.module.as_deref().expect("clap requires MODULE without --growth");
        let spec = &self.calls_;
        let mut o = BenchOptions {
            tool: self.tool_at.clone().or_else(|| spec.tool.clone()),
            calls: self.calls,
            compiles: self.compiles,
            then: spec
                .then
                .texts()?
                .into_iter()
                .map(|(t, a)| Ok((t, a.as_str().into_args()?)))
                .collect::<Result<_, Error>>()?,
            call: {
                spec.call.check_dirs()?;
                spec.call.measure_options()
            },
            ..Default::default()
        };
        // As written, as `call` sends them (review 100: read into a
        // `Value`, a member named twice was sent once and escapes decoded).
        o.args = match (&self.args_at, &spec.args, &spec.args_file) {
            (Some(args), _, _) => Some(read_args_text(Some(args), None)?.as_str().into_args()?),
            (None, None, None) => None,
            (None, text, file) => Some(read_args_text(text.as_deref(), file.as_deref())?.as_str().into_args()?),
        };
        if self.compile_instructions {
            o.compile_instructions =
                Some(std::env::current_exe().map_err(|e| Error::Command(format!("this executable: {e}")))?);
        }
        let r = bench(module, self.vs.as_deref(), &o)?;
        if self.json {
            subako_tiny_runner::outln!("{}", r.to_json());
        } else {
            subako_tiny_runner::out!("{}", r.to_text());
        }
        // Figures of a failure are printed, but do not pass for the tool's
        // (review 71: exit 0 with only a warning).
        let failed = std::iter::once(&r.a).chain(r.b.as_ref()).flat_map(|f| &f.calls).any(|c| c.problem().is_some());
        if failed {
            eprintln!(
                "subako-tiny: a measured call crashed or answered isError (see its warning): its figures are the \
                 failure's"
            );
            return Ok(ExitCode::FAILURE);
        }
        Ok(ExitCode::SUCCESS)
    }
}
