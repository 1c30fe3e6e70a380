//! What Subako checks at upload, each refusal with its reason: the module's
//! shape (core module, WASI command, allowed features and imports), then one run
//! answering `server/discover` and `tools/list`.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use wasmparser::{Validator, WasmFeatures};
use wasmtime::ExternType;

use crate::crash::{judge, stderr_tail};
use crate::exec::{Module, RunOptions, run, sig, wasi_signatures};
use crate::manifest::Manifest;
use crate::rpc::{PROTOCOL_VERSION, request_line};

/// `tools/list` pages the platform follows at most.
const MAX_PAGES: usize = 16;

#[derive(Clone, Debug, PartialEq)]
pub struct Tool {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
    pub output_schema: Option<Value>,
    /// The tool object as listed.
    pub raw: Value,
}

#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Why Subako would refuse the module; empty when it would accept it.
    pub failures: Vec<String>,
    pub tools: Vec<Tool>,
    /// The `server/discover` result.
    pub discover: Option<Value>,
    /// The module's `--subako-manifest` output, when it prints a valid one
    /// (not part of acceptance: the bundle's `subako-package.json` is).
    pub manifest: Option<Manifest>,
    /// `tools/list` pages read.
    pub pages: usize,
    /// Last 4 KiB of the upload run's stderr.
    pub stderr_tail: String,
    /// What upload accepts but costs the module start-up time or bytes,
    /// each with the fix (a build without the recipe's `build.rs`, say).
    pub warnings: Vec<String>,
}

impl CheckReport {
    pub fn accepted(&self) -> bool {
        self.failures.is_empty()
    }

    /// `{accepted, failures, warnings, tools, pages}`, each tool as listed.
    pub fn to_json(&self) -> Value {
        let tools: Vec<&Value> = self.tools.iter().map(|t| &t.raw).collect();
        json!({"accepted": self.accepted(), "failures": self.failures, "warnings": self.warnings, "tools": tools,
               "pages": self.pages})
    }

    /// The tools with their input schemas (and output schemas, where a tool
    /// declares one), the warnings, and the verdict with each reason (and
    /// the upload run's stderr) when refused.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for t in &self.tools {
            s += &format!("{}: {}\n    input: {}\n", t.name, t.description, t.input_schema);
            if let Some(output) = &t.output_schema {
                s += &format!("    output: {output}\n");
            }
        }
        for w in &self.warnings {
            s += &format!("warning: {w}\n");
        }
        if self.accepted() {
            s += &format!("accepted: {} tool(s) on {} tools/list page(s)\n", self.tools.len(), self.pages);
        } else {
            s += "refused:\n";
            for f in &self.failures {
                s += &format!("  - {f}\n");
            }
            if !self.stderr_tail.is_empty() {
                s += &format!("stderr (last 4 KiB):\n{}\n", self.stderr_tail);
            }
        }
        s
    }
}

fn allowed_features() -> WasmFeatures {
    let mut f = WasmFeatures::default();
    f.remove(WasmFeatures::THREADS);
    f.remove(WasmFeatures::SHARED_EVERYTHING_THREADS);
    f.remove(WasmFeatures::EXCEPTIONS);
    f.remove(WasmFeatures::LEGACY_EXCEPTIONS);
    f
}

/// Checks `module_bytes` as upload does; `assets_dir` is mounted at `/package`.
pub fn check(module_bytes: &[u8], assets_dir: Option<&Path>) -> CheckReport {
    let mut r = CheckReport { warnings: warnings(module_bytes), ..CheckReport::default() };
    let module = match static_checks(module_bytes, &mut r.failures) {
        Some(m) if r.failures.is_empty() => m,
        _ => return r,
    };
    r.manifest = crate::manifest::manifest(&module).ok();
    let package = r.manifest.as_ref().map_or("module".to_string(), |m| m.name.clone());
    let preopens = assets_dir
        .filter(|d| crate::call::has_assets(d))
        .map(|d| vec![("/package".to_string(), d.to_path_buf(), true)])
        .unwrap_or_default();

    // Each page needs the previous answer's cursor, and stdin is written up front,
    // so every page is a fresh run repeating discover and all earlier pages: the
    // last run is the one judged, exactly as one upload run would see it.
    let mut cursors: Vec<Option<Value>> = vec![None];
    loop {
        let mut stdin = request_line("discover-1", "server/discover", json!({}));
        let mut ids = vec![json!("discover-1")];
        for (i, c) in cursors.iter().enumerate() {
            let id = format!("tools-list-{}", i + 1);
            let params = match c {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            stdin.push_str(&request_line(id.as_str(), "tools/list", params));
            ids.push(json!(id));
        }
        let opts = RunOptions {
            argv: vec![package.clone()],
            stdin: stdin.into_bytes(),
            preopens: preopens.clone(),
            time_limit: Duration::from_secs(10),
            http: None,
            exit_grace: Some(Duration::from_secs(1)),
            ..RunOptions::default()
        };
        let out = match run(&module, &opts) {
            Ok(o) => o,
            Err(e) => {
                r.failures.push(format!("cannot run the module: {e}"));
                return r;
            }
        };
        r.stderr_tail = stderr_tail(&out.stderr);
        let answers = match judge(&ids, &out) {
            Ok(a) => a,
            Err(c) => {
                r.failures.push(format!("the upload run crashed: {c}"));
                return r;
            }
        };
        let get = |id: &Value| answers.iter().find(|(i, _)| i == id).map(|(_, v)| v.clone());
        r.discover = get(&ids[0]);
        let last = get(ids.last().unwrap()).unwrap_or(Value::Null);
        match last.get("nextCursor") {
            Some(c) if !c.is_null() => {
                if cursors.len() >= MAX_PAGES {
                    r.failures.push(format!("tools/list asks for more than {MAX_PAGES} pages"));
                    break;
                }
                cursors.push(Some(c.clone()));
            }
            _ => {
                r.pages = cursors.len();
                for id in &ids[1..] {
                    collect_tools(&get(id).unwrap_or(Value::Null), &mut r);
                }
                break;
            }
        }
    }
    check_discover(r.discover.as_ref(), &mut r.failures);
    let mut names: Vec<&str> = r.tools.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    for w in names.windows(2) {
        if w[0] == w[1] && !w[0].is_empty() {
            r.failures.push(format!("tool name {:?} is listed twice", w[0]));
        }
    }
    r
}

/// The module's shape. Returns the compiled module when it compiles.
/// Pages above the 64 KiB stack and a page of data: rustc's default 1 MiB
/// stack makes 17, which every call then pays for.
const MAX_QUIET_PAGES: u64 = 2;

fn warnings(bytes: &[u8]) -> Vec<String> {
    let Ok(report) = crate::size::size(bytes) else { return Vec::new() };
    let mut warnings = Vec::new();
    if let Some(pages) = report.initial_pages.filter(|&p| p > MAX_QUIET_PAGES) {
        warnings.push(format!(
            "the module starts at {pages} memory pages: its package's build.rs does not set the 64 KiB stack \
             (cargo:rustc-link-arg=-zstack-size=65536); copy build.rs from the README's \"Use it in your package\""
        ));
    }
    if report.sections.iter().any(|s| s.name.starts_with(".debug_")) {
        warnings.push(
            "the module carries debug info: build with --release and the size profile from the README's \
             \"Use it in your package\" ([profile.release] with strip = true)"
                .into(),
        );
    }
    warnings
}

fn static_checks(bytes: &[u8], failures: &mut Vec<String>) -> Option<Module> {
    if bytes.len() < 8 || &bytes[..4] != b"\0asm" {
        failures.push("not a WebAssembly binary (no \\0asm header)".into());
        return None;
    }
    if bytes[6..8] == [1, 0] {
        failures.push("this is a WebAssembly component; Subako takes a core module (a WASI preview 1 command)".into());
        return None;
    }
    if bytes[4..8] != [1, 0, 0, 0] {
        failures.push(format!("unknown WebAssembly version {:02x?}", &bytes[4..8]));
        return None;
    }
    if let Err(e) = Validator::new_with_features(WasmFeatures::all()).validate_all(bytes) {
        failures.push(format!("invalid module: {e}"));
        return None;
    }
    if let Err(e) = Validator::new_with_features(allowed_features()).validate_all(bytes) {
        failures.push(format!("uses threads (shared memory, atomics) or exceptions, which Subako does not run: {e}"));
        return None;
    }
    let module = match Module::from_bytes(bytes) {
        Ok(m) => m,
        Err(e) => {
            failures.push(e.to_string());
            return None;
        }
    };
    let m = &module.module;
    match m.get_export("_start") {
        Some(ExternType::Func(f)) if f.params().len() == 0 && f.results().len() == 0 => {}
        Some(ExternType::Func(f)) => failures.push(format!("`_start` must be a function () -> (), it is {}", sig(&f))),
        Some(_) => failures.push("`_start` is exported but is not a function".into()),
        None => failures.push("does not export `_start`: not a WASI preview 1 command".into()),
    }
    match m.get_export("memory") {
        Some(ExternType::Memory(_)) => {}
        Some(_) => failures.push("`memory` is exported but is not a memory".into()),
        None => failures.push("does not export `memory`".into()),
    }
    let wasi = wasi_signatures();
    for imp in m.imports() {
        let (mm, name) = (imp.module(), imp.name());
        let ExternType::Func(f) = imp.ty() else {
            failures.push(format!("imports {mm}::{name}, which is not a function; Subako provides only functions"));
            continue;
        };
        let got = sig(&f);
        let want = match mm {
            "wasi_snapshot_preview1" => match wasi.get(name) {
                Some(w) => w.clone(),
                None => {
                    failures.push(format!("imports {mm}::{name}, which is not a WASI preview 1 function"));
                    continue;
                }
            },
            "subako_http" if name == "request" || name == "read_response" => "(i32, i32) -> (i32)".to_string(),
            "subako_http" => {
                failures.push(format!("imports subako_http::{name}; subako_http has only request and read_response"));
                continue;
            }
            _ => {
                failures.push(format!(
                    "imports {mm}::{name}, which Subako does not provide (only wasi_snapshot_preview1 and subako_http)"
                ));
                continue;
            }
        };
        if got != want {
            failures.push(format!("imports {mm}::{name} as {got}, but it is {want}"));
        }
    }
    Some(module)
}

fn check_discover(d: Option<&Value>, failures: &mut Vec<String>) {
    let Some(d) = d else {
        failures.push("server/discover was not answered".into());
        return;
    };
    let versions = d.get("supportedVersions").and_then(Value::as_array);
    if !versions.is_some_and(|v| v.iter().any(|x| x == PROTOCOL_VERSION)) {
        failures.push(format!("server/discover does not list supportedVersions {PROTOCOL_VERSION:?}"));
    }
    if !d.pointer("/capabilities/tools").is_some_and(Value::is_object) {
        failures.push("server/discover does not declare a tools capability (capabilities.tools object)".into());
    }
}

fn collect_tools(page: &Value, r: &mut CheckReport) {
    let Some(tools) = page.get("tools").and_then(Value::as_array) else {
        r.failures.push("a tools/list answer has no tools array".into());
        return;
    };
    for (i, t) in tools.iter().enumerate() {
        let name = t.get("name").and_then(Value::as_str).unwrap_or("");
        let label = if name.is_empty() { format!("tool #{}", r.tools.len() + 1) } else { format!("tool {name:?}") };
        if name.is_empty() {
            r.failures.push(format!("{label} (entry {i} of its page) has no name"));
        }
        let description = t.get("description").and_then(Value::as_str).unwrap_or("");
        if description.is_empty() {
            r.failures.push(format!("{label} has no description"));
        }
        let input_schema = t.get("inputSchema").cloned().unwrap_or(Value::Null);
        if input_schema.get("type").and_then(Value::as_str) != Some("object") {
            r.failures.push(format!("{label}: inputSchema must be an object schema (\"type\":\"object\")"));
        }
        r.tools.push(Tool {
            name: name.to_string(),
            description: description.to_string(),
            input_schema,
            output_schema: t.get("outputSchema").cloned(),
            raw: t.clone(),
        });
    }
}
