//! The clock inside a module, in wasmtime: `now` (tests/e2e/vendored)
//! answers the time `clock::now` reads through WASI's `clock_time_get`,
//! as RFC 3339 text and Unix seconds, which agree with each other and with
//! the host's clock.

use subako_tiny_e2e::{request, vendored};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

#[test]
fn now_is_the_host_s_time_in_utc() {
    let module = Module::from_file(vendored(&[])).unwrap();
    let stdin = request(serde_json::json!(1), "tools/call", serde_json::json!({"name": "now", "arguments": {}}));
    let before = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let output =
        run(&module, &RunOptions { argv: vec!["vendored".into()], stdin: stdin.into_bytes(), ..RunOptions::default() })
            .unwrap();
    let after = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    assert!(matches!(output.exit, Exit::Code(0)), "{:?}: {}", output.exit, String::from_utf8_lossy(&output.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let now = &answer["result"]["structuredContent"];
    let seconds = now["seconds"].as_u64().unwrap_or_else(|| panic!("{answer}"));
    assert!((before..=after).contains(&seconds), "{seconds} not in {before}..={after}");
    // The text is the same second, by the date command's reckoning.
    let utc = now["utc"].as_str().unwrap();
    let date = std::process::Command::new("date")
        .args(["-u", "-d", &format!("@{seconds}"), "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .expect("coreutils' date runs");
    assert!(date.status.success(), "{}", String::from_utf8_lossy(&date.stderr));
    assert_eq!(utc, String::from_utf8_lossy(&date.stdout).trim());
}

/// The `now` tool's answer in a run whose clock starts at `start`; the run
/// must exit 0.
fn now_from(module: &Module, start: std::time::Duration) -> serde_json::Value {
    let stdin = request(serde_json::json!(1), "tools/call", serde_json::json!({"name": "now", "arguments": {}}));
    let options = RunOptions {
        argv: vec!["vendored".into()],
        stdin: stdin.into_bytes(),
        clock: Some(start),
        ..RunOptions::default()
    };
    let output = run(module, &options).unwrap();
    assert!(matches!(output.exit, Exit::Code(0)), "{start:?}: {:?}", output.exit);
    serde_json::from_slice(&output.stdout).unwrap()
}

/// `subako-tiny call --clock TIME` (RunOptions::clock): the module's clock
/// starts at TIME, so a tool can be tried at a year's end.
#[test]
fn a_run_s_clock_can_start_at_a_chosen_time() {
    let module = Module::from_file(vendored(&[])).unwrap();
    // 2026-12-31T23:59:59.25Z, as `--clock` reads it (runner/src/cli/mod.rs).
    let answer = now_from(&module, std::time::Duration::from_millis(1_798_761_599_250));
    let now = &answer["result"]["structuredContent"];
    // A run takes well under the 0.75 s left in the year.
    assert_eq!(now["utc"], "2026-12-31T23:59:59Z", "{answer}");
    assert_eq!(now["seconds"], 1_798_761_599u64, "{answer}");
}

/// A clock started where 64 bits of nanoseconds end: the module is told
/// its clock did not answer (EOVERFLOW, as WASI's clock answers past
/// 2554), and the runner does not panic (review 59: adding the time run to
/// a start near u64::MAX seconds overflowed).
#[test]
fn a_clock_past_wasi_s_range_fails_the_read_not_the_runner() {
    let module = Module::from_file(vendored(&[])).unwrap();
    for start in [std::time::Duration::from_nanos(u64::MAX), std::time::Duration::from_secs(u64::MAX)] {
        let answer = now_from(&module, start);
        assert_eq!(answer["result"]["isError"], true, "{answer}");
        let text = answer["result"]["content"][0]["text"].as_str().unwrap();
        assert_eq!(text, "the platform's clock did not answer (clock_time_get: errno 61)", "{start:?}");
    }
}

/// `clock::sleep` waits in a module (WASI's `poll_oneoff` on the monotonic
/// clock) at least as long as asked, by the module's own realtime clock
/// and the host's; and a wait past the call's time limit ends the call out
/// of time (author trial 63: a tool honouring `Retry-After` had to call
/// `poll_oneoff` itself).
#[test]
fn sleep_waits_in_a_module_within_the_call_s_time() {
    let module = Module::from_file(vendored(&[])).unwrap();
    let wait = |ms: u64, limit_ms: u64| {
        let arguments = serde_json::json!({"name": "wait", "arguments": {"ms": ms}});
        let options = RunOptions {
            argv: vec!["vendored".into()],
            stdin: request(serde_json::json!(1), "tools/call", arguments).into_bytes(),
            time_limit: std::time::Duration::from_millis(limit_ms),
            ..RunOptions::default()
        };
        let started = std::time::Instant::now();
        let output = run(&module, &options).unwrap();
        (output, started.elapsed())
    };
    let (output, took) = wait(300, 10_000);
    assert!(matches!(output.exit, Exit::Code(0)), "{:?}: {}", output.exit, String::from_utf8_lossy(&output.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let waited = answer["result"]["structuredContent"]["waited_ms"].as_u64().unwrap_or_else(|| panic!("{answer}"));
    assert!(waited >= 300 && took >= std::time::Duration::from_millis(300), "{waited} ms, {took:?}");
    // A minute's wait under half a second's limit ends at the limit, not
    // when the wait would (review 65: 5 s asked, 5.16 s taken); the bound
    // is generous, as this machine is shared.
    let (output, took) = wait(60_000, 500);
    assert!(matches!(output.exit, Exit::Timeout), "a wait past the limit: {:?}", output.exit);
    assert!(took < std::time::Duration::from_secs(30), "the wait ran on past the limit: {took:?}");
}
