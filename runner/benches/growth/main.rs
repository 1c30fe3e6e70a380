//! The growth benchmark with this project's targets: our modules against
//! the official SDK's twins, fuel per request-line byte (and per file byte
//! of a JSON Lines workload), each target met or NOT MET.
//!
//!     cargo bench --profile runner -p subako-tiny-runner --bench growth -- \
//!         OURS.wasm OFFICIAL.wasm [--json] [--kinds K,K] \
//!         [--jsonl OURS.wasm OFFICIAL.wasm TOOL ARGS_JSON RECORD_JSON [PATH]]
//!
//! `benches/growth.sh` builds hello (ours and the official twin) and runs this.

mod targets;

use std::path::PathBuf;
use std::process::ExitCode;

use subako_tiny_runner::{GrowthKind, GrowthOptions, JSONL_SIZES, JsonlWorkload, growth};

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("growth: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let json = args.iter().any(|a| a == "--json");
    args.retain(|a| a != "--json");
    let mut text = GrowthOptions::default();
    if let Some(i) = args.iter().position(|a| a == "--kinds") {
        let list = args.get(i + 1).ok_or("--kinds needs a list")?.clone();
        text.kinds = list
            .split(',')
            .map(|k| GrowthKind::from_name(k).ok_or_else(|| format!("no kind {k:?}")))
            .collect::<Result<_, _>>()?;
        args.drain(i..i + 2);
    }
    let jsonl = match args.iter().position(|a| a == "--jsonl") {
        None => None,
        Some(i) => {
            let rest: Vec<String> = args.drain(i..).skip(1).collect();
            let [ours, official, tool, call_args, record, path @ ..] = rest.as_slice() else {
                return Err("--jsonl OURS.wasm OFFICIAL.wasm TOOL ARGS_JSON RECORD_JSON [PATH]".into());
            };
            let parse = |s: &str| serde_json::from_str(s).map_err(|e| format!("{s}: {e}"));
            let w = JsonlWorkload {
                tool: tool.clone(),
                args: parse(call_args)?,
                record: parse(record)?,
                path: path.first().cloned().unwrap_or_else(|| "records.jsonl".into()),
                sizes: JSONL_SIZES.to_vec(),
            };
            Some((PathBuf::from(ours), PathBuf::from(official), w))
        }
    };
    let [ours, official] = args.as_slice() else {
        return Err("usage: growth OURS.wasm OFFICIAL.wasm [--json] [--kinds K,K] [--jsonl …]".into());
    };
    let report = growth(ours.as_ref(), Some(official.as_ref()), &text).map_err(|e| e.to_string())?;
    let mut found = targets::targets(&report);
    let lines = match &jsonl {
        Some((a, b, w)) => {
            let o = GrowthOptions { kinds: Vec::new(), jsonl: Some(w.clone()), ..GrowthOptions::default() };
            let r = growth(a, Some(b), &o).map_err(|e| e.to_string())?;
            found.extend(targets::jsonl_targets(&r));
            Some(r)
        }
        None => None,
    };
    if json {
        let all: Vec<serde_json::Value> = found
            .iter()
            .map(|t| serde_json::json!({"what": t.what, "value": t.value, "bound": t.bound, "met": t.met}))
            .collect();
        let v = serde_json::json!({"text": report.to_json(), "jsonl": lines.as_ref().map(|r| r.to_json()),
                                   "targets": all});
        println!("{v}");
    } else {
        print!("{}", report.to_text());
        if let Some(r) = &lines {
            print!("{}", r.to_text());
        }
        println!("targets, ours against the official SDK's:");
        print!("{}", targets::to_text(&found));
    }
    Ok(ExitCode::SUCCESS)
}
