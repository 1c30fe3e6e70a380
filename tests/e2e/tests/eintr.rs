//! A platform whose `fd_write` or `fd_read` answers EINTR on every call:
//! the module retries a bounded number of times, then fails as it does for
//! any other broken stream: stdout ends the module with exit 2, stdin is
//! answered with `-32603 stdin unreadable`, a file operation is an isError
//! result naming the errno. It never spins until the time limit.

mod scripted;

use scripted::{Script, call_line, compile, run};
use serde_json::json;
use subako_tiny_e2e::{Variant, crate_root, example_variant};

/// Interrupted calls a module may make before giving up: enough for any
/// sensible bound on retries, far below [`scripted::SPIN`].
const MAX_CALLS: u64 = 1_000;

/// Descriptors past stdio: preopened directories and the files opened in them.
fn files() -> Vec<i32> {
    (3..64).collect()
}

#[test]
fn stdout_interrupted_forever_ends_the_module_with_exit_2() {
    for variant in [Variant::default(), Variant::lean()] {
        let module = compile(&example_variant("hello", &variant));
        let script = Script { interrupt_writes: vec![1], ..Script::default() };
        let ran = run(&module, &["hello"], &call_line("greet", json!({"name": "Ada"})), &[], script);
        assert_eq!(ran.exit, Ok(2), "{variant:?}: stderr: {}", ran.stderr_text());
        assert!(ran.stdout.is_empty(), "{variant:?}");
        assert!(ran.counts.fd_write <= MAX_CALLS, "{variant:?}: {} calls of fd_write", ran.counts.fd_write);
    }
}

#[test]
fn stdin_interrupted_forever_is_answered_as_unreadable() {
    let module = compile(&example_variant("hello", &Variant::default()));
    let script = Script { interrupt_reads: vec![0], ..Script::default() };
    let ran = run(&module, &["hello"], &call_line("greet", json!({"name": "Ada"})), &[], script);
    assert_eq!(ran.exit, Ok(0), "stderr: {}", ran.stderr_text());
    let answer = ran.answer();
    assert_eq!(answer["id"], json!(null), "{answer}");
    assert_eq!(answer["error"]["code"], json!(-32603), "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("stdin unreadable"), "{message}");
    assert!(ran.counts.fd_read <= MAX_CALLS, "{} calls of fd_read", ran.counts.fd_read);
}

#[test]
fn a_file_interrupted_forever_is_a_worded_error() {
    let module = compile(&example_variant("files", &Variant::default()));
    let volume = tempfile::tempdir().unwrap();
    let assets = crate_root().join("examples/assets/files");
    let preopens = [("/volume/tmp", volume.path()), ("/package", assets.as_path())];

    let script = Script { interrupt_writes: files(), ..Script::default() };
    let ran = run(&module, &["files"], &call_line("save", json!({"name": "n.txt", "text": "hi"})), &preopens, script);
    assert_eq!(ran.exit, Ok(0), "stderr: {}", ran.stderr_text());
    let result = &ran.answer()["result"];
    assert_eq!(result["isError"], json!(true), "{result}");
    assert_eq!(
        result["content"][0]["text"],
        json!("write /volume/tmp/files/n.txt: interrupted (EINTR): the platform interrupted every retry"),
    );
    assert!(ran.counts.fd_write <= MAX_CALLS, "{} calls of fd_write", ran.counts.fd_write);

    std::fs::write(volume.path().join("files/n.txt"), "hi").unwrap();
    let script = Script { interrupt_reads: files(), ..Script::default() };
    let ran = run(&module, &["files"], &call_line("load", json!({"name": "n.txt"})), &preopens, script);
    assert_eq!(ran.exit, Ok(0), "stderr: {}", ran.stderr_text());
    let result = &ran.answer()["result"];
    assert_eq!(
        result["content"][0]["text"],
        json!("read /volume/tmp/files/n.txt: interrupted (EINTR): the platform interrupted every retry"),
    );
    assert!(ran.counts.fd_read <= MAX_CALLS, "{} calls of fd_read", ran.counts.fd_read);
}
