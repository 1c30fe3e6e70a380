//! Every file-system error reaches the model in words, in real wasmtime:
//! the operation, the path, what the errno means and its name, never a
//! bare number. Every WASI errno, from a host that answers `path_open` with
//! it; the ones real directories give (a name over 255 bytes, a symbolic
//! link loop); and a path to write that ends in `/`, which names a
//! directory and is refused before any call.

mod scripted;

use scripted::{Script, call_line, compile, run};
use serde_json::{Value, json};
use subako_tiny_e2e::{Variant, crate_root, example_variant, vendored};
use subako_tiny_runner::{CallOptions, Module, call};

/// The isError text of a scripted run's one answer.
fn error_text(answer: &Value) -> String {
    let result = &answer["result"];
    assert_eq!(result["isError"], json!(true), "{answer}");
    result["content"][0]["text"].as_str().unwrap().to_string()
}

/// Every WASI errno but success, in order (`wasi` has no other way to make one).
const ERRNOS: [wasi::Errno; 76] = [
    wasi::ERRNO_2BIG,
    wasi::ERRNO_ACCES,
    wasi::ERRNO_ADDRINUSE,
    wasi::ERRNO_ADDRNOTAVAIL,
    wasi::ERRNO_AFNOSUPPORT,
    wasi::ERRNO_AGAIN,
    wasi::ERRNO_ALREADY,
    wasi::ERRNO_BADF,
    wasi::ERRNO_BADMSG,
    wasi::ERRNO_BUSY,
    wasi::ERRNO_CANCELED,
    wasi::ERRNO_CHILD,
    wasi::ERRNO_CONNABORTED,
    wasi::ERRNO_CONNREFUSED,
    wasi::ERRNO_CONNRESET,
    wasi::ERRNO_DEADLK,
    wasi::ERRNO_DESTADDRREQ,
    wasi::ERRNO_DOM,
    wasi::ERRNO_DQUOT,
    wasi::ERRNO_EXIST,
    wasi::ERRNO_FAULT,
    wasi::ERRNO_FBIG,
    wasi::ERRNO_HOSTUNREACH,
    wasi::ERRNO_IDRM,
    wasi::ERRNO_ILSEQ,
    wasi::ERRNO_INPROGRESS,
    wasi::ERRNO_INTR,
    wasi::ERRNO_INVAL,
    wasi::ERRNO_IO,
    wasi::ERRNO_ISCONN,
    wasi::ERRNO_ISDIR,
    wasi::ERRNO_LOOP,
    wasi::ERRNO_MFILE,
    wasi::ERRNO_MLINK,
    wasi::ERRNO_MSGSIZE,
    wasi::ERRNO_MULTIHOP,
    wasi::ERRNO_NAMETOOLONG,
    wasi::ERRNO_NETDOWN,
    wasi::ERRNO_NETRESET,
    wasi::ERRNO_NETUNREACH,
    wasi::ERRNO_NFILE,
    wasi::ERRNO_NOBUFS,
    wasi::ERRNO_NODEV,
    wasi::ERRNO_NOENT,
    wasi::ERRNO_NOEXEC,
    wasi::ERRNO_NOLCK,
    wasi::ERRNO_NOLINK,
    wasi::ERRNO_NOMEM,
    wasi::ERRNO_NOMSG,
    wasi::ERRNO_NOPROTOOPT,
    wasi::ERRNO_NOSPC,
    wasi::ERRNO_NOSYS,
    wasi::ERRNO_NOTCONN,
    wasi::ERRNO_NOTDIR,
    wasi::ERRNO_NOTEMPTY,
    wasi::ERRNO_NOTRECOVERABLE,
    wasi::ERRNO_NOTSOCK,
    wasi::ERRNO_NOTSUP,
    wasi::ERRNO_NOTTY,
    wasi::ERRNO_NXIO,
    wasi::ERRNO_OVERFLOW,
    wasi::ERRNO_OWNERDEAD,
    wasi::ERRNO_PERM,
    wasi::ERRNO_PIPE,
    wasi::ERRNO_PROTO,
    wasi::ERRNO_PROTONOSUPPORT,
    wasi::ERRNO_PROTOTYPE,
    wasi::ERRNO_RANGE,
    wasi::ERRNO_ROFS,
    wasi::ERRNO_SPIPE,
    wasi::ERRNO_SRCH,
    wasi::ERRNO_STALE,
    wasi::ERRNO_TIMEDOUT,
    wasi::ERRNO_TXTBSY,
    wasi::ERRNO_XDEV,
    wasi::ERRNO_NOTCAPABLE,
];

/// The errnos of sockets, processes and messages, which no file operation
/// meets, and EBADF (the crate uses only descriptors it holds, and answers
/// a read's EBADF, a directory's, as EISDIR): named (`read PATH:
/// EADDRINUSE`) but not worded, so that every module that does files does
/// not carry their words.
const NAMED_ONLY: [&str; 39] = [
    "ADDRINUSE",
    "ADDRNOTAVAIL",
    "AFNOSUPPORT",
    "ALREADY",
    "BADF",
    "BADMSG",
    "CANCELED",
    "CHILD",
    "CONNABORTED",
    "CONNREFUSED",
    "CONNRESET",
    "DEADLK",
    "DESTADDRREQ",
    "DOM",
    "HOSTUNREACH",
    "IDRM",
    "INPROGRESS",
    "ISCONN",
    "MSGSIZE",
    "MULTIHOP",
    "NETDOWN",
    "NETRESET",
    "NETUNREACH",
    "NOBUFS",
    "NOEXEC",
    "NOLCK",
    "NOLINK",
    "NOMSG",
    "NOPROTOOPT",
    "NOTCONN",
    "NOTRECOVERABLE",
    "NOTSOCK",
    "OWNERDEAD",
    "PROTO",
    "PROTONOSUPPORT",
    "PROTOTYPE",
    "RANGE",
    "SRCH",
    "TIMEDOUT",
];

#[test]
fn every_wasi_errno_is_named_and_worded() {
    let module = compile(&example_variant("files", &Variant::default()));
    let volume = tempfile::tempdir().unwrap();
    let prefix = "read /volume/tmp/files/n.txt: ";
    let mut meanings = Vec::new();
    // 0 is success: `path_open` then opened something.
    for (errno, wasi_errno) in (1..=76u16).zip(ERRNOS) {
        assert_eq!(wasi_errno.raw(), errno);
        let script = Script { path_open_errno: Some(i32::from(errno)), ..Script::default() };
        let ran = run(
            &module,
            &["files"],
            &call_line("load", json!({"name": "n.txt"})),
            &[("/volume/tmp", volume.path())],
            script,
        );
        assert_eq!(ran.exit, Ok(0), "errno {errno}: {}", ran.stderr_text());
        let text = error_text(&ran.answer());
        let name = wasi_errno.name();
        let words = text.strip_prefix(prefix).unwrap_or_else(|| panic!("errno {errno}: {text}"));
        if NAMED_ONLY.contains(&name) {
            assert_eq!(words, format!("E{name}"), "errno {errno}");
            continue;
        }
        let (meaning, rest) = words
            .split_once(&format!(" (E{name})"))
            .unwrap_or_else(|| panic!("errno {errno} ({name}) is not named: {text}"));
        assert!(
            !meaning.is_empty() && !meaning.bytes().any(|b| b.is_ascii_digit() || b.is_ascii_uppercase()),
            "errno {errno} ({name}) is not worded: {text}"
        );
        assert!(rest.is_empty() || rest.starts_with(": "), "errno {errno}: {text}");
        meanings.push(meaning.to_string());
    }
    // A meaning of its own for each worded one (two WASI reserves are the exception).
    let mut distinct = meanings.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= meanings.len() - 2, "{meanings:?}");

    // A number WASI does not define says so.
    let script = Script { path_open_errno: Some(77), ..Script::default() };
    let ran = run(
        &module,
        &["files"],
        &call_line("load", json!({"name": "n.txt"})),
        &[("/volume/tmp", volume.path())],
        script,
    );
    assert_eq!(error_text(&ran.answer()), format!("{prefix}an error WASI does not define (errno 77)"));
}

fn files() -> Module {
    Module::from_file(subako_tiny_e2e::example("files")).unwrap()
}

fn files_session(volume: &tempfile::TempDir) -> CallOptions {
    CallOptions {
        package: Some("files".into()),
        tmp_dir: Some(volume.path().to_path_buf()),
        assets_dir: Some(crate_root().join("examples/assets/files")),
        ..CallOptions::default()
    }
}

fn failure(module: &Module, tool: &str, args: Value, opts: &CallOptions) -> String {
    let outcome = call(module, tool, args, opts).unwrap();
    let result = outcome.expect_ok();
    assert_eq!(result["isError"], json!(true), "{result}");
    result["content"][0]["text"].as_str().unwrap().to_string()
}

#[test]
fn a_name_over_255_bytes_says_so() {
    let volume = tempfile::tempdir().unwrap();
    let name = "é".repeat(128);
    assert_eq!(
        failure(&files(), "save", json!({"name": name, "text": "x"}), &files_session(&volume)),
        format!(
            "write /volume/tmp/files/{name}: file name too long (ENAMETOOLONG): a name in a path may be at most 255 \
             bytes"
        )
    );
}

#[test]
fn a_symbolic_link_loop_says_so() {
    let volume = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(volume.path().join("files")).unwrap();
    std::os::unix::fs::symlink("loop.txt", volume.path().join("files/loop.txt")).unwrap();
    assert_eq!(
        failure(&files(), "load", json!({"name": "loop.txt"}), &files_session(&volume)),
        "read /volume/tmp/files/loop.txt: too many levels of symbolic links (ELOOP)"
    );
}

#[test]
fn a_path_to_write_that_ends_in_a_slash_is_refused() {
    let module = Module::from_file(vendored(&[])).unwrap();
    let volume = tempfile::tempdir().unwrap();
    let opts = CallOptions {
        package: Some("vendored".into()),
        tmp_dir: Some(volume.path().to_path_buf()),
        ..CallOptions::default()
    };
    for path in ["/volume/tmp/a/", "/volume/tmp/a/.", "/volume/tmp/a/.."] {
        assert_eq!(
            failure(&module, "write", json!({"path": path, "text": "x"}), &opts),
            format!(
                "write {path}: the path names a directory (it ends in `/`, `/.` or `/..`): end it with a file name"
            )
        );
    }
    assert!(std::fs::read_dir(volume.path()).unwrap().next().is_none(), "something was written");
    // A file name is written.
    let outcome = call(&module, "write", json!({"path": "/volume/tmp/a", "text": "x"}), &opts).unwrap();
    assert_eq!(outcome.expect_ok()["content"][0]["text"], json!("written"));
    assert_eq!(std::fs::read_to_string(volume.path().join("a")).unwrap(), "x");
}

/// `/package` is read-only on the worker, and `fs::mount("/package", …)`
/// in a host test is too (src/fs/mod.rs's doctest): the same words both
/// ways.
#[test]
fn the_package_is_read_only() {
    let module = Module::from_file(vendored(&[])).unwrap();
    let volume = tempfile::tempdir().unwrap();
    let assets = tempfile::tempdir().unwrap();
    std::fs::write(assets.path().join("words.txt"), "tea").unwrap();
    let opts = CallOptions {
        package: Some("vendored".into()),
        tmp_dir: Some(volume.path().to_path_buf()),
        assets_dir: Some(assets.path().to_path_buf()),
        ..CallOptions::default()
    };
    for path in ["/package/words.txt", "/package/new.txt"] {
        assert_eq!(
            failure(&module, "write", json!({"path": path, "text": "coffee"}), &opts),
            format!("write {path}: operation not permitted (EPERM)")
        );
    }
    assert_eq!(std::fs::read_to_string(assets.path().join("words.txt")).unwrap(), "tea");
}

/// `fs::write_atomic` refused part-way (the call's write budget spent)
/// leaves the file as it was and nothing beside it, where `fs::write`
/// leaves it emptied (author trial 60: a ledger rewritten past the budget
/// was lost). Across two preopened directories the rename works too.
#[test]
fn a_write_atomic_refused_part_way_leaves_the_file_whole() {
    let module = Module::from_file(vendored(&[])).unwrap();
    let volume = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    std::fs::write(volume.path().join("ledger.jsonl"), "{\"n\":1}\n".repeat(1000)).unwrap();
    std::fs::write(volume.path().join("other.jsonl"), "kept\n").unwrap();
    let opts = CallOptions {
        package: Some("vendored".into()),
        tmp_dir: Some(volume.path().to_path_buf()),
        data_dir: Some(data.path().to_path_buf()),
        write_budget: Some(100),
        ..CallOptions::default()
    };
    let long = "x".repeat(101);
    assert_eq!(
        failure(&module, "replace", json!({"path": "/volume/tmp/ledger.jsonl", "text": long}), &opts),
        "write /volume/tmp/ledger.jsonl: disk quota exceeded (EDQUOT): the call's file write budget is spent"
    );
    assert_eq!(std::fs::read_to_string(volume.path().join("ledger.jsonl")).unwrap(), "{\"n\":1}\n".repeat(1000));
    let mut names: Vec<String> =
        std::fs::read_dir(volume.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["ledger.jsonl", "other.jsonl"], "a partial file was left");
    // The same through `fs::write`: the file is emptied, then refused.
    failure(&module, "write", json!({"path": "/volume/tmp/other.jsonl", "text": long}), &opts);
    assert!(std::fs::read_to_string(volume.path().join("other.jsonl")).unwrap().len() < 101);
    // Within the budget: replaced whole.
    let outcome =
        call(&module, "replace", json!({"path": "/volume/tmp/ledger.jsonl", "text": "new\n"}), &opts).unwrap();
    assert_eq!(outcome.expect_ok()["content"][0]["text"], json!("replaced"));
    assert_eq!(std::fs::read_to_string(volume.path().join("ledger.jsonl")).unwrap(), "new\n");
    // Into another preopened directory, and a refusal that names both paths.
    std::fs::write(volume.path().join("moved.txt"), "m").unwrap();
    let moved = json!({"from": "/volume/tmp/moved.txt", "to": "/volume/data/moved.txt"});
    assert_eq!(
        call(&module, "rename", moved.clone(), &opts).unwrap().expect_ok()["content"][0]["text"],
        json!("renamed")
    );
    assert_eq!(std::fs::read_to_string(data.path().join("moved.txt")).unwrap(), "m");
    assert_eq!(
        failure(&module, "rename", moved, &opts),
        "rename /volume/tmp/moved.txt to /volume/data/moved.txt: no such file or directory (ENOENT)"
    );
}
