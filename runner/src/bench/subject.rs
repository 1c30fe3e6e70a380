//! What one bench run runs: the module, its calls in sequence with their
//! request lines, the upload exchange and the manifest run, and the fresh
//! volumes each run of the calls gets.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::Error;
use crate::call::{CallOptions, IntoArgs};
use crate::crash::judge;
use crate::error::read;
use crate::exec::{Module, RunOptions, run};
use crate::rpc::{request_line, request_line_with};

#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Calls (and discover + tools/list runs) measured per module.
    pub calls: usize,
    /// Cold compiles per module.
    pub compiles: usize,
    /// Tool to call; `None`: the first one tools/list names.
    pub tool: Option<String>,
    /// Its arguments, sent as they are written (a member named twice and
    /// escapes included, as `call` sends them); `None`: made from its input
    /// schema (as `size` makes them, [`sample_args`](crate::sample_args)),
    /// `{}` if it has none.
    pub args: Option<Box<RawValue>>,
    /// Calls after the first, in sequence: `(tool, arguments)`, each in a
    /// fresh instance on the same volumes, each measured.
    pub then: Vec<(String, Box<RawValue>)>,
    /// The volumes, the network grant and the limits every call runs with, as
    /// `call` takes them. `--data` and `--tmp` are copied afresh for every run
    /// of the sequence, so each run starts from the same files and the
    /// directories given are never changed.
    pub call: CallOptions,
    /// `Some(exe)`: also count the instructions of one compile of each module
    /// with callgrind, running `exe` (this runner's `subako-tiny` binary) as
    /// `valgrind … exe bench --callgrind-compile MODULE`. See runner/METHOD.md.
    pub compile_instructions: Option<PathBuf>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            calls: 200,
            compiles: 5,
            tool: None,
            args: None,
            then: Vec::new(),
            call: CallOptions::default(),
            compile_instructions: None,
        }
    }
}

pub(super) struct Subject {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    pub module: Module,
    /// The calls in order: (tool, its tools/call request line).
    pub calls: Vec<(String, String)>,
    pub package: String,
    pub list: RunOptions,
    pub manifest: RunOptions,
    pub compiles: Vec<Duration>,
    /// Per call of the sequence, its timed runs.
    pub times: Vec<Vec<Duration>>,
    pub lists: Vec<Duration>,
    pub pages: (u64, u64),
    /// Per call: (crash, isError text, the JSON-RPC `result`) of the warm-up run.
    pub outcomes: Vec<Outcome>,
}

pub(super) fn prepare(path: &Path, opts: &BenchOptions) -> Result<Subject, Error> {
    let bytes = read(path)?;
    let module = Module::from_bytes(&bytes)?;
    let package = crate::manifest::package_name(&module, opts.call.package.as_deref(), opts.call.time_limit);
    let mut list_in = request_line("discover-1", "server/discover", json!({}));
    list_in.push_str(&request_line("tools-list-1", "tools/list", json!({})));
    let list = RunOptions {
        argv: vec![package.clone()],
        stdin: list_in.into_bytes(),
        exit_grace: Some(Duration::from_secs(1)),
        ..RunOptions::default()
    };
    // tools/list, when the tool or its arguments are to be found there: a
    // module that lists nothing readable is still measured with the tool
    // given, and `{}`.
    let listed = if opts.tool.is_none() || opts.args.is_none() {
        let out = run(&module, &list)?;
        match judge(&[json!("discover-1"), json!("tools-list-1")], &out) {
            Ok(answers) => {
                answers.into_iter().find(|(id, _)| id == "tools-list-1").and_then(|(_, r)| r.get("tools").cloned())
            }
            Err(c) if opts.tool.is_none() => {
                return Err(Error::Module(format!("{}: discover + tools/list crashed: {c}", path.display())));
            }
            Err(_) => None,
        }
    } else {
        None
    };
    let tools = listed.as_ref().and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let tool = match &opts.tool {
        Some(t) => t.clone(),
        None => tools
            .first()
            .and_then(|t| t["name"].as_str().map(str::to_string))
            .ok_or_else(|| Error::Module(format!("{}: tools/list names no tool", path.display())))?,
    };
    let args = match &opts.args {
        Some(args) => args.clone(),
        None => tools
            .iter()
            .find(|t| t["name"] == tool.as_str())
            .map(|t| crate::sample_args(&t["inputSchema"]))
            .filter(Value::is_object)
            .unwrap_or_else(|| json!({}))
            .into_args()?,
    };
    let calls: Vec<(String, String)> = std::iter::once((tool, args))
        .chain(opts.then.iter().cloned())
        .enumerate()
        .map(|(i, (t, args))| {
            let line =
                request_line_with(format!("call-{}", i + 1), "tools/call", json!({"name": t}), "arguments", &args);
            (t, line)
        })
        .collect();
    // As `manifest` runs it: no stdin.
    let manifest =
        RunOptions { argv: vec![package.clone(), crate::manifest::MANIFEST_FLAG.into()], ..RunOptions::default() };
    let n = calls.len();
    Ok(Subject {
        path: path.to_path_buf(),
        bytes,
        module,
        calls,
        package,
        list,
        manifest,
        compiles: Vec::new(),
        times: vec![Vec::new(); n],
        lists: Vec::new(),
        pages: (0, 0),
        outcomes: Vec::new(),
    })
}

/// The volumes of one run of the sequence: fresh copies of the directories
/// given (or empty ones), alive as long as this is.
pub(crate) struct Volumes {
    pub preopens: Vec<(String, PathBuf, bool)>,
    _dirs: Vec<tempfile::TempDir>,
}

impl Volumes {
    pub(crate) fn fresh(o: &CallOptions) -> Result<Volumes, Error> {
        let mut dirs = Vec::new();
        let mut preopens = Vec::new();
        for (guest, given) in [("/volume/tmp", &o.tmp_dir), ("/volume/data", &o.data_dir)] {
            if guest == "/volume/data" && given.is_none() {
                continue;
            }
            let d = tempfile::Builder::new().prefix("subako-bench-volume").tempdir()?;
            if let Some(src) = given {
                copy_dir(src, d.path())?;
            }
            preopens.push((guest.to_string(), d.path().to_path_buf(), false));
            dirs.push(d);
        }
        if let Some(a) = &o.assets_dir
            && crate::call::has_assets(a)
        {
            preopens.push(("/package".into(), a.clone(), true));
        }
        Ok(Volumes { preopens, _dirs: dirs })
    }
}

/// Copies the tree under `from` into the existing directory `to`.
fn copy_dir(from: &Path, to: &Path) -> Result<(), Error> {
    for e in std::fs::read_dir(from).map_err(|e| Error::file(from, e))? {
        let e = e.map_err(|e| Error::file(from, e))?;
        let dest = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            std::fs::create_dir_all(&dest)?;
            copy_dir(&e.path(), &dest)?;
        } else {
            std::fs::copy(e.path(), &dest).map_err(|err| Error::file(e.path(), err))?;
        }
    }
    Ok(())
}

impl Subject {
    /// The run options of call `i` on `volumes`.
    pub fn call_options(&self, i: usize, volumes: &Volumes, o: &CallOptions) -> RunOptions {
        RunOptions {
            argv: vec![self.package.clone()],
            stdin: self.calls[i].1.clone().into_bytes(),
            preopens: volumes.preopens.clone(),
            time_limit: o.time_limit,
            memory_limit_bytes: o.memory_limit_bytes,
            http: o.http.clone(),
            write_budget: o.write_budget,
            exit_grace: Some(Duration::from_secs(1)),
            clock: o.clock,
        }
    }
}

/// What one call of the sequence did: the crash rule it broke, or the text
/// of the `isError` result it answered, and the result itself.
pub(super) type Outcome = (Option<String>, Option<String>, Option<Value>);

/// The outcome of call `i`'s run.
pub(super) fn outcome(i: usize, out: &crate::exec::RunOutput) -> Outcome {
    match judge(&[json!(format!("call-{}", i + 1))], out) {
        Err(c) => (Some(c.to_string()), None, None),
        Ok(answers) => {
            let r = &answers[0].1;
            let error = (r.get("isError") == Some(&Value::Bool(true))).then(|| {
                let text = r.pointer("/content/0/text").and_then(Value::as_str).unwrap_or("");
                text.chars().take(200).collect::<String>()
            });
            (None, error, Some(r.clone()))
        }
    }
}
