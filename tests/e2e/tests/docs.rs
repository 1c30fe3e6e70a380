//! The size record and what is built from it agree: docs/SIZE.md and the
//! README's marked tables are what `./size-report --record` writes from
//! docs/report.json, and every budget of `budgets.rs` sits between the
//! recorded size of its module and 15 % above it, so neither the docs nor
//! the budgets drift from the record.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use subako_tiny_e2e::crate_root;

const REFRESH: &str = "run ./size-report --vs-official --feature-costs then ./size-report --record";

/// How far above the recorded size a budget may sit.
const MAX_HEADROOM: f64 = 0.15;

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
            eprintln!("SKIPPED: size-report --docs-check needs Python 3.11 or newer ({found})");
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

/// `(example, dlmalloc bytes, lean bytes)` of `BUDGETS` in budgets.rs, read
/// as text: rows such as `("echo", 19 * KIB, 14 * KIB),`.
fn budgets(path: &Path) -> Vec<(String, u64, u64)> {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("const BUDGETS").expect("budgets.rs declares `const BUDGETS`");
    let body = &text[start..];
    let body = &body[body.find("= &[").expect("BUDGETS = &[ … ]") + 4..];
    let body = &body[..body.find("];").expect("BUDGETS ends with `];`")];
    let bytes = |expr: &str| -> u64 {
        let expr = expr.trim();
        match expr.split_once('*') {
            Some((n, unit)) => {
                assert_eq!(unit.trim(), "KIB", "a budget is N * KIB or a number of bytes, not {expr:?}");
                n.trim().replace('_', "").parse::<u64>().unwrap() * 1024
            }
            None => expr.replace('_', "").parse().unwrap_or_else(|_| panic!("not a budget: {expr:?}")),
        }
    };
    let mut rows = Vec::new();
    for row in body.split('(').skip(1) {
        let row = &row[..row.find(')').expect("a BUDGETS row closes")];
        let parts: Vec<&str> = row.split(',').collect();
        assert_eq!(parts.len(), 3, "a BUDGETS row is (name, dlmalloc, lean): {row:?}");
        rows.push((parts[0].trim().trim_matches('"').to_string(), bytes(parts[1]), bytes(parts[2])));
    }
    assert!(!rows.is_empty(), "no rows read from BUDGETS in {}", path.display());
    rows
}

#[test]
fn every_budget_follows_the_record() {
    let root = crate_root();
    let record: Value = serde_json::from_str(&std::fs::read_to_string(root.join("docs/report.json")).unwrap())
        .expect("docs/report.json is JSON");
    let recorded = |example: &str, allocator: &str| -> Option<u64> {
        record["rows"]
            .as_array()?
            .iter()
            .find(|r| r["example"] == example && r["allocator"] == allocator)
            .and_then(|r| r["bytes"].as_u64())
    };
    let mut problems = Vec::new();
    let budgets = budgets(&root.join("tests/e2e/tests/budgets.rs"));
    for (example, dlmalloc, lean) in &budgets {
        for (allocator, budget) in [("dlmalloc", *dlmalloc), ("lean", *lean)] {
            let Some(bytes) = recorded(example, allocator) else {
                problems
                    .push(format!("{example} ({allocator}) has a budget but no row in docs/report.json: {REFRESH}"));
                continue;
            };
            let ceiling = (bytes as f64 * (1.0 + MAX_HEADROOM)).floor() as u64;
            if budget < bytes {
                problems.push(format!(
                    "{example} ({allocator}): budget {budget} is below the recorded {bytes} bytes: if the module \
                     shrank or grew, {REFRESH}; else raise the budget in tests/e2e/tests/budgets.rs to at least \
                     {bytes}"
                ));
            } else if budget > ceiling {
                problems.push(format!(
                    "{example} ({allocator}): budget {budget} is more than 15 % above the recorded {bytes} bytes \
                     (at most {ceiling}): lower it in tests/e2e/tests/budgets.rs, or, if the record is out of \
                     date, {REFRESH}"
                ));
            }
        }
    }
    for row in record["rows"].as_array().expect("docs/report.json has rows") {
        let example = row["example"].as_str().unwrap();
        if !budgets.iter().any(|(n, _, _)| n == example) {
            problems.push(format!("docs/report.json records {example}, which has no row in BUDGETS (budgets.rs)"));
        }
    }
    problems.dedup();
    assert!(problems.is_empty(), "budgets and the size record disagree:\n  {}", problems.join("\n  "));
}
