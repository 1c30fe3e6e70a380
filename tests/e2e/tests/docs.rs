//! The size record and what is built from it agree: docs/SIZE.md and the
//! README's marked tables are what `./size-report --record` writes from
//! docs/report.json, so the docs do not drift from the record (and
//! `budgets.rs` holds every module to it, to the byte).

mod required;

use std::process::Command;

use subako_tiny_e2e::crate_root;

const REFRESH: &str = "run ./size-report --vs-official --feature-costs then ./size-report --record";

/// The first Python 3.11+ on the PATH (size-report needs `tomllib`).
fn python() -> Result<String, String> {
    let mut seen = Vec::new();
    for candidate in ["python3", "python3.14", "python3.13", "python3.12", "python3.11", "python"] {
        let Ok(out) = Command::new(candidate)
            .args(["-c", "import sys; print(sys.version.split()[0]); sys.exit(sys.version_info < (3, 11))"])
            .output()
        else {
            continue;
        };
        let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if out.status.success() {
            return Ok(candidate.to_string());
        }
        seen.push(format!("{candidate} is {version}"));
    }
    Err(if seen.is_empty() { "no python on the PATH".into() } else { seen.join(", ") })
}

#[test]
fn the_docs_are_what_the_record_gives() {
    let root = crate_root();
    let python = match python() {
        Ok(p) => p,
        Err(found) => {
            required::skip("python", &format!("size-report --docs-check needs Python 3.11 or newer ({found})"));
            return;
        }
    };
    let out = Command::new(&python).current_dir(&root).args(["size-report", "--docs-check"]).output().unwrap();
    assert!(
        out.status.success(),
        "`{python} size-report --docs-check` failed:\n{}{}\n(for new figures, {REFRESH}; after editing the \
         generated text's templates in size-report, run ./size-report --record)",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
