//! The growth benchmark with this project's targets: our module against the
//! official SDK's twin, fuel per request-line byte, each target met or NOT MET.
//!
//!     cargo bench --profile runner -p subako-tiny-runner --bench growth -- OURS.wasm OFFICIAL.wasm [--json]
//!
//! `benches/growth.sh` builds both hello modules and runs this.

mod targets;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let json = args.iter().any(|a| a == "--json");
    let paths: Vec<PathBuf> = args.iter().filter(|a| !a.starts_with("--")).map(PathBuf::from).collect();
    let [ours, official] = paths.as_slice() else {
        eprintln!("usage: growth OURS.wasm OFFICIAL.wasm [--json]");
        return ExitCode::from(2);
    };
    let report = match subako_tiny_runner::growth(ours, Some(official), None) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("growth: {e}");
            return ExitCode::FAILURE;
        }
    };
    let targets = targets::targets(&report);
    if json {
        let mut v = report.to_json();
        v["targets"] = targets
            .iter()
            .map(|t| serde_json::json!({"what": t.what, "value": t.value, "bound": t.bound, "met": t.met}))
            .collect();
        println!("{v}");
    } else {
        print!("{}", report.to_text());
        println!("targets for {} against {}:", ours.display(), official.display());
        print!("{}", targets::to_text(&targets));
    }
    ExitCode::SUCCESS
}
