//! `subako-tiny`: check, call, serve, bundle and time Subako function modules
//! locally. Arguments are parsed by hand to keep the build small.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Value, json};
use subako_tiny_runner::{
    BenchOptions, CallOptions, Exit, HttpConfig, Module, RunOptions, bench, bundle, call, check, compile_times,
    manifest, serve,
};

mod scaffold;

const USAGE: &str = "\
subako-tiny: run Subako function modules the way the Subako worker does

USAGE:
  subako-tiny check MODULE.wasm [--assets DIR] [--json]
      The upload checks; prints the tool list. Exit 0 only if Subako would accept.
  subako-tiny call MODULE.wasm TOOL [ARGS_JSON] [CALL OPTIONS]
      One tools/call in a fresh instance; prints the CallToolResult JSON and any
      volume:/// files it links. On a crash: the rule, stderr's last 4 KiB, exit 1.
  subako-tiny serve MODULE.wasm [CALL OPTIONS]
      Raw: this process's stdin goes to the module, its stdout comes back, line by line.
  subako-tiny bundle --module MODULE.wasm [--assets DIR] --out DIR
      Writes DIR/{subako-package.json,module.wasm,assets/} and DIR.tar.gz.
  subako-tiny bench MODULE.wasm [--vs OTHER.wasm] [--calls N] [--compiles N]
                    [--tool T] [--args JSON] [--compile-instructions] [--json]
      Compile time, per-call time (median, p10, p90), discover+tools/list time, pages;
      and beside them guest fuel, which is the same run to run: wasm operators run by
      instantiate + _start in a separate fuel-counting engine (Config::consume_fuel,
      Store::set_fuel(u64::MAX/2), fuel = before - get_fuel() after), each in a fresh
      store after all timed runs, so the times are not metered. Fuel is for the call,
      for discover + tools/list (the upload exchange, as check sends it) and for the
      --subako-manifest run; each is run twice and a difference is warned about.
      --compile-instructions: also the x86 instructions (callgrind's Ir) of compiling
      the module: `valgrind --tool=callgrind --collect-atstart=no
      --toggle-collect=subako_tiny_callgrind_compile` runs this binary's hidden
      `bench --callgrind-compile MODULE`, which makes an engine configured as the
      runner's, compiles the module once uncounted (wasmtime's one-time setup), then
      once more inside that function: only wasmtime::Module::from_binary (Cranelift,
      one thread: this wasmtime is built without parallel compilation) is counted.
      Under valgrind Cranelift sees valgrind's CPUID, not the machine's. The count
      moves by a few hundredths of a percent between processes (hash seeds), so it
      is the median of 3 processes; the note under the table says their spread.
      Prints `-` when valgrind is not on the PATH.
      --json keys (with --vs: {\"a\":…,\"b\":…,\"ratio\":{key: b/a},\"compile_ratio_pairs\":…}):
        module, bytes, tool, compile_ms, compile_ms_p10, compile_ms_p90,
        call_us_median, call_us_p10, call_us_p90, list_us_median, pages_start,
        pages_exit, call_crash (null or the rule broken), call_fuel, list_fuel,
        manifest_fuel (null if that run did not exit 0), fuel_varies (null or what
        differed between two runs), compile_instructions (null unless counted),
        compile_instructions_runs (each process's count).
  subako-tiny bench --growth MODULE.wasm [--vs OTHER.wasm] [--tool T] [--json]
      Fuel per request-line byte for a hello-like tool (T, default greet, with a
      string argument `name`): one tools/call per line in a fresh fuel-counting
      instance (the worker's 256 MiB memory cap; 300 s time limit) as the line grows
      by (ascii) `name` in ASCII, (escaped) `name` as \\u00e9 escapes (6 JSON bytes
      per é), (unused) an argument member `pad` the tool does not read (its schema
      does not forbid extra members). Lines of 1 KiB, 128 KiB, 1 MiB, 16 MiB (exact
      bytes, newline excluded); per byte = (fuel(L) - fuel(base)) / (L - base bytes),
      base = the same kind with a 6-byte payload. Also: fuel/byte at 16 MiB over at
      128 KiB, and the fuel of the seed's tools/call line. A line answered with
      anything but \"Hello, <name>!\" is reported and gets no per-byte figure.
      With --vs, the targets for MODULE against OTHER, each met or NOT MET: a used
      argument (ascii, escaped) at most 0.75x OTHER's fuel/byte at 16 MiB, an
      unused one at most OTHER's, each kind within 5 % of linear, the seed's call
      at most half OTHER's fuel.
      --json: {\"a\": F, \"b\": F|null, \"targets\": [{what, value, bound, met}]},
        F = {module, tool, member, seed, baselines, rows,
        linearity_16mib_over_128kib: {ascii, escaped, unused}}; seed, each
        baseline and row = {kind, line_bytes, fuel, ok, problem, fuel_per_byte}.
  subako-tiny manifest MODULE.wasm
      Prints the module's --subako-manifest, checked.
  subako-tiny new DIR [--name NAME]
      Writes a package into DIR (new or empty) that vendors subako-tiny: Cargo.toml
      with the size profile, build.rs, one tool in src/main.rs with a test, README.md.
      NAME defaults to DIR's name: a-z, 0-9, '-', '_', starting with a letter.
  subako-tiny compile-time MODULE.wasm... [--compiles N] [--json]
      Cold compile time of each module (median, p10, p90 ms), compiled in turn.
      The modules need only validate; size-report --explain times copies of one.
  subako-tiny size MODULE.wasm [--explain] [--top N] [--json]
      Sections and their bytes, code and data bytes, functions, initial pages, imports,
      exports; --explain: functions by size, demangled, grouped by crate (needs a name
      section: an unstripped build). ./size-report reads its --json.

CALL OPTIONS:
  --package NAME        argv[0] (default: the manifest's name)
  --tmp DIR             host dir for /volume/tmp (default: a fresh temporary dir)
  --data DIR            host dir for /volume/data
  --assets DIR          mounted read-only at /package
  --allow-host HOST     let subako_http reach HOST (repeatable; *.example.com, host:port);
                        without any, every request fails: 'this call has no network'
  --allow-loopback      allow loopback addresses and plain http:// to them
  --time-limit-ms N     (default 10000; serve: none)
  --memory-limit-mb N   (default 256)
  --write-budget N      bytes a call may write to files (default 1 GiB)
";

struct Args {
    pos: Vec<String>,
    opts: Vec<(String, Option<String>)>,
}

const FLAGS: [&str; 5] = ["--json", "--allow-loopback", "--help", "--explain", "--compile-instructions"];

fn parse(args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args { pos: Vec::new(), opts: Vec::new() };
    let mut it = args.peekable();
    while let Some(x) = it.next() {
        if x == "-h" {
            a.opts.push(("--help".into(), None));
        } else if FLAGS.contains(&x.as_str()) {
            a.opts.push((x, None));
        } else if let Some((k, v)) = x.split_once('=').filter(|_| x.starts_with("--")) {
            a.opts.push((k.to_string(), Some(v.to_string())));
        } else if x.starts_with("--") {
            let v = it.next().ok_or_else(|| format!("{x} needs a value"))?;
            a.opts.push((x, Some(v)));
        } else {
            a.pos.push(x);
        }
    }
    Ok(a)
}

impl Args {
    fn has(&self, k: &str) -> bool {
        self.opts.iter().any(|(x, _)| x == k)
    }
    fn get(&self, k: &str) -> Option<&str> {
        self.opts.iter().rev().find(|(x, _)| x == k).and_then(|(_, v)| v.as_deref())
    }
    fn all(&self, k: &str) -> Vec<String> {
        self.opts.iter().filter(|(x, _)| x == k).filter_map(|(_, v)| v.clone()).collect()
    }
    fn num(&self, k: &str) -> Result<Option<u64>, String> {
        self.get(k).map(|v| v.parse().map_err(|_| format!("{k}: not a number: {v}"))).transpose()
    }
    fn only(&self, allowed: &[&str]) -> Result<(), String> {
        match self.opts.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
            Some((k, _)) => Err(format!("unknown option {k}")),
            None => Ok(()),
        }
    }
}

const CALL_OPTS: [&str; 9] = [
    "--package",
    "--tmp",
    "--data",
    "--assets",
    "--allow-host",
    "--allow-loopback",
    "--time-limit-ms",
    "--memory-limit-mb",
    "--write-budget",
];

fn call_options(a: &Args) -> Result<CallOptions, String> {
    let mut o = CallOptions {
        package: a.get("--package").map(str::to_string),
        tmp_dir: a.get("--tmp").map(PathBuf::from),
        data_dir: a.get("--data").map(PathBuf::from),
        assets_dir: a.get("--assets").map(PathBuf::from),
        ..CallOptions::default()
    };
    // Always a host: with nothing allowed it answers every request with an
    // error naming --allow-host (the platform's stub would answer -1).
    o.http = Some(HttpConfig { allow_hosts: a.all("--allow-host"), allow_loopback: a.has("--allow-loopback") });
    if let Some(ms) = a.num("--time-limit-ms")? {
        o.time_limit = Duration::from_millis(ms);
    }
    if let Some(mb) = a.num("--memory-limit-mb")? {
        o.memory_limit_bytes = (mb as usize) << 20;
    }
    if let Some(b) = a.num("--write-budget")? {
        o.write_budget = Some(b);
    }
    Ok(o)
}

fn module_arg(a: &Args, i: usize) -> Result<Module, String> {
    let p = a.pos.get(i).ok_or("missing MODULE.wasm")?;
    Module::from_file(p).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    match real_main() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("subako-tiny: {e}");
            if e.starts_with("usage") || e.starts_with("unknown") || e.starts_with("missing") {
                eprint!("\n{USAGE}");
            }
            ExitCode::from(2)
        }
    }
}

fn real_main() -> Result<ExitCode, String> {
    let a = parse(std::env::args().skip(1))?;
    if a.has("--help") || a.pos.is_empty() {
        print!("{USAGE}");
        return Ok(if a.has("--help") { ExitCode::SUCCESS } else { ExitCode::from(2) });
    }
    let cmd = a.pos[0].as_str();
    match cmd {
        "check" => {
            a.only(&["--assets", "--json"])?;
            let p = a.pos.get(1).ok_or("missing MODULE.wasm")?;
            let bytes = std::fs::read(p).map_err(|e| format!("{p}: {e}"))?;
            let r = check(&bytes, a.get("--assets").map(std::path::Path::new));
            if a.has("--json") {
                let tools: Vec<&Value> = r.tools.iter().map(|t| &t.raw).collect();
                println!(
                    "{}",
                    json!({"accepted": r.accepted(), "failures": r.failures, "warnings": r.warnings, "tools": tools, "pages": r.pages})
                );
            } else {
                for t in &r.tools {
                    println!("{}: {}", t.name, t.description);
                    println!("    input: {}", t.input_schema);
                }
                for w in &r.warnings {
                    println!("warning: {w}");
                }
                if r.accepted() {
                    println!("accepted: {} tool(s) on {} tools/list page(s)", r.tools.len(), r.pages);
                } else {
                    println!("refused:");
                    for f in &r.failures {
                        println!("  - {f}");
                    }
                    if !r.stderr_tail.is_empty() {
                        println!("stderr (last 4 KiB):\n{}", r.stderr_tail);
                    }
                }
            }
            Ok(if r.accepted() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        "call" => {
            a.only(&CALL_OPTS)?;
            let m = module_arg(&a, 1)?;
            let tool = a.pos.get(2).ok_or("missing TOOL")?;
            let args = a.pos.get(3).map_or("{}", String::as_str);
            let o = call_options(&a)?;
            let out = call(&m, tool, args, &o).map_err(|e| e.to_string())?;
            match &out.result {
                Ok(v) => {
                    // As the module wrote it: its key order, not serde_json's.
                    match &out.result_text {
                        Some(raw) => println!("{raw}"),
                        None => println!("{v}"),
                    }
                    for l in &out.links {
                        let host =
                            l.host_path.as_ref().map_or("(no preopen covers it)".into(), |p| p.display().to_string());
                        let size = l.size.map_or("missing".into(), |s| format!("{s} bytes"));
                        eprintln!("linked file {} -> {host} ({size})", l.guest_path);
                    }
                    if o.tmp_dir.is_none() && !out.links.is_empty() {
                        // Keep the fresh /volume/tmp so the linked files can be looked at.
                        eprintln!("/volume/tmp kept at {}", out.tmp_dir.display());
                        std::mem::forget(out);
                    }
                    Ok(ExitCode::SUCCESS)
                }
                Err(c) => {
                    println!("crashed: {c}");
                    println!("stderr (last 4 KiB):\n{}", out.stderr_tail);
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        "serve" => {
            a.only(&CALL_OPTS)?;
            let m = module_arg(&a, 1)?;
            let o = call_options(&a)?;
            let package =
                o.package.clone().or_else(|| manifest(&m).ok().map(|x| x.name)).unwrap_or_else(|| "module".into());
            let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
            let mut preopens =
                vec![("/volume/tmp".to_string(), o.tmp_dir.clone().unwrap_or_else(|| tmp.path().into()), false)];
            if let Some(d) = &o.data_dir {
                preopens.push(("/volume/data".into(), d.clone(), false));
            }
            if let Some(d) = &o.assets_dir {
                preopens.push(("/package".into(), d.clone(), true));
            }
            let time_limit =
                if a.get("--time-limit-ms").is_some() { o.time_limit } else { Duration::from_secs(365 * 24 * 3600) };
            let opts = RunOptions {
                argv: vec![package],
                preopens,
                time_limit,
                memory_limit_bytes: o.memory_limit_bytes,
                http: o.http,
                write_budget: o.write_budget,
                ..RunOptions::default()
            };
            let out = serve(&m, &opts).map_err(|e| e.to_string())?;
            match out.exit {
                Exit::Code(0) => Ok(ExitCode::SUCCESS),
                Exit::Code(n) => Ok(ExitCode::from(n.clamp(1, 255) as u8)),
                other => {
                    eprintln!("subako-tiny: module ended: {other:?}");
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        "bundle" => {
            a.only(&["--module", "--assets", "--out"])?;
            let m = a.get("--module").or(a.pos.get(1).map(String::as_str)).ok_or("missing --module")?;
            let out = a.get("--out").ok_or("missing --out DIR")?;
            let r =
                bundle(std::path::Path::new(m), a.get("--assets").map(std::path::Path::new), std::path::Path::new(out))
                    .map_err(|e| e.to_string())?;
            println!(
                "bundled {} ({} tool(s), {} asset file(s), {} asset bytes)\n  {}\n  {}",
                r.manifest.name,
                r.tools.len(),
                r.asset_files,
                r.asset_bytes,
                r.dir.display(),
                r.archive.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        "bench" => {
            a.only(&[
                "--vs",
                "--calls",
                "--compiles",
                "--tool",
                "--args",
                "--json",
                "--compile-instructions",
                "--growth",
                "--callgrind-compile",
            ])?;
            // Hidden: the process `--compile-instructions` runs under callgrind.
            if let Some(m) = a.get("--callgrind-compile") {
                subako_tiny_runner::callgrind_compile_child(std::path::Path::new(m)).map_err(|e| e.to_string())?;
                return Ok(ExitCode::SUCCESS);
            }
            if let Some(p) = a.get("--growth") {
                let r = subako_tiny_runner::growth(
                    std::path::Path::new(p),
                    a.get("--vs").map(std::path::Path::new),
                    a.get("--tool"),
                )
                .map_err(|e| e.to_string())?;
                if a.has("--json") {
                    println!("{}", r.to_json());
                } else {
                    print!("{}", r.to_text());
                }
                return Ok(ExitCode::SUCCESS);
            }
            let p = a.pos.get(1).ok_or("missing MODULE.wasm")?;
            let mut o = BenchOptions { tool: a.get("--tool").map(str::to_string), ..BenchOptions::default() };
            if let Some(n) = a.num("--calls")? {
                o.calls = n as usize;
            }
            if let Some(n) = a.num("--compiles")? {
                o.compiles = n as usize;
            }
            if let Some(j) = a.get("--args") {
                o.args = serde_json::from_str(j).map_err(|e| format!("--args: {e}"))?;
            }
            if a.has("--compile-instructions") {
                o.compile_instructions = Some(std::env::current_exe().map_err(|e| format!("this executable: {e}"))?);
            }
            let r = bench(std::path::Path::new(p), a.get("--vs").map(std::path::Path::new), &o)
                .map_err(|e| e.to_string())?;
            if a.has("--json") {
                println!("{}", r.to_json());
            } else {
                print!("{}", r.to_text());
            }
            Ok(ExitCode::SUCCESS)
        }
        "compile-time" => {
            a.only(&["--compiles", "--json"])?;
            let paths: Vec<PathBuf> = a.pos.iter().skip(1).map(PathBuf::from).collect();
            if paths.is_empty() {
                return Err("missing MODULE.wasm".into());
            }
            let n = a.num("--compiles")?.map_or(11, |n| n as usize);
            let times = compile_times(&paths, n).map_err(|e| e.to_string())?;
            if a.has("--json") {
                let rows: Vec<Value> = paths
                    .iter()
                    .zip(&times)
                    .map(|(p, [m, lo, hi])| json!({"module": p.display().to_string(), "compile_ms": m, "compile_ms_p10": lo, "compile_ms_p90": hi}))
                    .collect();
                println!("{}", Value::Array(rows));
            } else {
                for (p, [m, lo, hi]) in paths.iter().zip(&times) {
                    println!("{m:8.2} ms ({lo:.2}–{hi:.2})  {}", p.display());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        "size" => {
            a.only(&["--explain", "--top", "--json"])?;
            let p = a.pos.get(1).ok_or("missing MODULE.wasm")?;
            if a.pos.len() > 2 {
                return Err(format!(
                    "usage: subako-tiny size MODULE.wasm [--explain] [--top N] [--json] (one module; got also {:?})",
                    &a.pos[2..]
                ));
            }
            let bytes = std::fs::read(p).map_err(|e| format!("{p}: {e}"))?;
            let r = subako_tiny_runner::size(&bytes).map_err(|e| format!("{p}: {e}"))?;
            let explain = a.has("--explain");
            if a.has("--json") {
                let mut v = r.to_json(explain);
                v["module"] = json!(p);
                println!("{v}");
            } else {
                let top = a.num("--top")?.map_or(25, |n| n as usize);
                print!("{p}: {}", r.to_text(explain, top));
            }
            Ok(ExitCode::SUCCESS)
        }
        "manifest" => {
            a.only(&[])?;
            let m = module_arg(&a, 1)?;
            let mf = manifest(&m).map_err(|e| e.to_string())?;
            println!("{}", serde_json::to_string_pretty(&mf.to_json()).unwrap());
            Ok(ExitCode::SUCCESS)
        }
        "new" => {
            a.only(&["--name"])?;
            let dir = a.pos.get(1).ok_or("missing DIR: subako-tiny new DIR [--name NAME]")?;
            if a.pos.len() > 2 {
                return Err(format!("usage: subako-tiny new DIR [--name NAME] (one DIR; got also {:?})", &a.pos[2..]));
            }
            let s = scaffold::new_package(std::path::Path::new(dir), a.get("--name"))?;
            let vendored = s.files.iter().filter(|f| f.starts_with("vendor/")).count();
            println!("wrote package {} in {}:", s.name, s.dir.display());
            for f in s.files.iter().filter(|f| !f.starts_with("vendor/")) {
                println!("  {f}");
            }
            println!("  vendor/subako-tiny/ ({vendored} files: the subako-tiny crate)");
            println!("next:");
            println!("  cd {}", s.dir.display());
            println!("  cargo build --release --target wasm32-wasip1");
            println!("  cargo test");
            println!("  subako-tiny check target/wasm32-wasip1/release/{}.wasm", s.name);
            Ok(ExitCode::SUCCESS)
        }
        other => Err(format!("unknown command {other:?}")),
    }
}
