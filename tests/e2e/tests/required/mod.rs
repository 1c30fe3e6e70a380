//! What a test does when a tool it needs is missing: it says so on the
//! terminal and passes, unless `SUBAKO_REQUIRE` (a comma-separated list,
//! e.g. `python,node,miri`, which `.ci/run` sets) names the tool: then it
//! fails, so that CI never passes a test that did not run.

use std::io::Write as _;

/// Whether `SUBAKO_REQUIRE` names `tool`.
pub fn required(tool: &str) -> bool {
    std::env::var("SUBAKO_REQUIRE").is_ok_and(|list| list.split(',').any(|t| t.trim() == tool))
}

/// The test cannot run without `tool`, for the reason `why`: a panic when
/// the tool is required, else a line straight to stderr (past the test
/// harness's capture, so a passing run shows it too).
#[track_caller]
pub fn skip(tool: &str, why: &str) {
    if required(tool) {
        panic!("{why}; SUBAKO_REQUIRE names {tool}, so this test may not skip");
    }
    let _ = writeln!(std::io::stderr(), "SKIPPED ({tool}): {why} (set SUBAKO_REQUIRE={tool} to make this a failure)");
}
