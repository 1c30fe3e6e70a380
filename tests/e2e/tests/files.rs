//! The `files` example in real wasmtime, through the runner, with real
//! temporary directories preopened as the worker does: `/volume/tmp`,
//! `/volume/data` when enabled, and the example's assets at `/package`.

use std::path::PathBuf;

use serde_json::{Value, json};
use subako_tiny_e2e::{crate_root, example};
use subako_tiny_runner::{CallOptions, Module, call};

fn module() -> Module {
    Module::from_file(example("files")).expect("files.wasm compiles")
}

fn assets() -> PathBuf {
    crate_root().join("examples/assets/files")
}

/// Options for a call in the session whose volume is `volume`.
fn session(volume: &tempfile::TempDir) -> CallOptions {
    CallOptions {
        package: Some("files".into()),
        tmp_dir: Some(volume.path().to_path_buf()),
        assets_dir: Some(assets()),
        ..CallOptions::default()
    }
}

/// One call in a fresh instance; the `CallToolResult`.
fn run(module: &Module, tool: &str, args: Value, opts: &CallOptions) -> Value {
    let outcome = call(module, tool, args, opts).expect("the runner runs the module");
    outcome.expect_ok().clone()
}

fn structured(result: &Value) -> &Value {
    assert_eq!(result.get("isError"), None, "{result}");
    &result["structuredContent"]
}

/// The error text of an isError result.
fn error_text(result: &Value) -> String {
    assert_eq!(result["isError"], json!(true), "{result}");
    result["content"][0]["text"].as_str().unwrap().to_string()
}

#[test]
fn save_list_load_across_separate_calls() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let opts = session(&volume);

    assert_eq!(structured(&run(&module, "list", json!({}), &opts)), &json!({"names": []}));
    let saved = run(&module, "save", json!({"name": "b.txt", "text": "bee\n"}), &opts);
    assert_eq!(structured(&saved), &json!({"path": "/volume/tmp/files/b.txt", "bytes": 4}));
    let text = "こんにちは, \"world\"\n\ttabs and \\ slashes";
    run(&module, "save", json!({"name": "メモ 1+1.txt", "text": text}), &opts);
    run(&module, "save", json!({"name": "a.txt", "text": "first"}), &opts);
    run(&module, "save", json!({"name": "a.txt", "text": "ay"}), &opts);

    // Each call was its own instance: only the volume remembers.
    assert_eq!(std::fs::read_to_string(volume.path().join("files/b.txt")).unwrap(), "bee\n");
    assert_eq!(std::fs::read_to_string(volume.path().join("files/メモ 1+1.txt")).unwrap(), text);
    assert_eq!(
        structured(&run(&module, "list", json!({}), &opts)),
        &json!({"names": ["a.txt", "b.txt", "メモ 1+1.txt"]})
    );
    assert_eq!(structured(&run(&module, "load", json!({"name": "a.txt"}), &opts)), &json!({"text": "ay"}));
    assert_eq!(structured(&run(&module, "load", json!({"name": "メモ 1+1.txt"}), &opts)), &json!({"text": text}));

    // Another session has its own volume.
    let other = tempfile::tempdir().unwrap();
    assert_eq!(structured(&run(&module, "list", json!({}), &session(&other))), &json!({"names": []}));
}

#[test]
fn templates_come_from_the_package_assets() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let opts = session(&volume);
    for name in ["greeting", "report"] {
        let expected = std::fs::read_to_string(assets().join("templates").join(format!("{name}.txt"))).unwrap();
        assert_eq!(structured(&run(&module, "template", json!({"name": name}), &opts)), &json!({"text": expected}));
    }
    assert_eq!(
        error_text(&run(&module, "template", json!({"name": "missing"}), &opts)),
        "read /package/templates/missing.txt: no such file or directory (ENOENT)"
    );
    // A package without assets has no /package.
    let bare = CallOptions { assets_dir: None, ..session(&volume) };
    assert_eq!(
        error_text(&run(&module, "template", json!({"name": "greeting"}), &bare)),
        "read /package/templates/greeting.txt: /package is not mounted: the package has no assets"
    );
}

#[test]
fn a_missing_file_is_a_readable_error() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    assert_eq!(
        error_text(&run(&module, "load", json!({"name": "nope.txt"}), &session(&volume))),
        "read /volume/tmp/files/nope.txt: no such file or directory (ENOENT)"
    );
}

/// WASI opens a directory for reading and then refuses to read it
/// (EBADF); the crate answers as its host back end does, and as the path
/// is: a directory.
#[test]
fn a_directory_read_as_a_file_is_a_readable_error() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(volume.path().join("files/notes.txt")).unwrap();
    assert_eq!(
        error_text(&run(&module, "load", json!({"name": "notes.txt"}), &session(&volume))),
        "read /volume/tmp/files/notes.txt: is a directory (EISDIR)"
    );
}

#[test]
fn bad_names_are_refused() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let opts = session(&volume);
    for name in ["", "a/b", "..", "../secret", "x..y", "/abs"] {
        for (tool, args) in [
            ("save", json!({"name": name, "text": "x"})),
            ("load", json!({"name": name})),
            ("template", json!({"name": name})),
        ] {
            let text = error_text(&run(&module, tool, args, &opts));
            assert_eq!(
                text, "invalid input: `name` must be a file name: not empty, without `/` or `..`",
                "{tool} {name:?}"
            );
        }
    }
    assert_eq!(
        error_text(&run(&module, "save", json!({"name": 7, "text": "x"}), &opts)),
        "invalid input: `name` must be a string"
    );
    assert!(std::fs::read_dir(volume.path()).unwrap().next().is_none(), "nothing was written");
}

#[test]
fn volume_data_only_when_the_agent_enables_it() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let opts = session(&volume);
    assert_eq!(
        error_text(&run(&module, "save", json!({"name": "k.txt", "text": "kept", "keep": true}), &opts)),
        "create directory /volume/data/files: /volume/data is not mounted: the agent has not enabled it"
    );
    assert_eq!(
        error_text(&run(&module, "list", json!({"keep": true}), &opts)),
        "list /volume/data/files: /volume/data is not mounted: the agent has not enabled it"
    );

    let data = tempfile::tempdir().unwrap();
    let enabled = CallOptions { data_dir: Some(data.path().to_path_buf()), ..session(&volume) };
    let saved = run(&module, "save", json!({"name": "k.txt", "text": "kept", "keep": true}), &enabled);
    assert_eq!(structured(&saved), &json!({"path": "/volume/data/files/k.txt", "bytes": 4}));
    assert_eq!(std::fs::read_to_string(data.path().join("files/k.txt")).unwrap(), "kept");
    assert_eq!(
        structured(&run(&module, "load", json!({"name": "k.txt", "keep": true}), &enabled)),
        &json!({"text": "kept"})
    );
    assert_eq!(structured(&run(&module, "list", json!({}), &enabled)), &json!({"names": []}));
}

#[test]
fn writes_past_the_budget_are_refused() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let tight = CallOptions { write_budget: Some(100), ..session(&volume) };
    assert_eq!(
        structured(&run(&module, "save", json!({"name": "small.txt", "text": "x".repeat(100)}), &tight))["bytes"],
        100
    );
    assert_eq!(
        error_text(&run(&module, "save", json!({"name": "big.txt", "text": "x".repeat(101)}), &tight)),
        "write /volume/tmp/files/big.txt: disk quota exceeded (EDQUOT): the call's file write budget is spent"
    );
    // The budget is per call: the next call starts afresh.
    assert_eq!(
        structured(&run(&module, "save", json!({"name": "again.txt", "text": "y".repeat(100)}), &tight))["bytes"],
        100
    );
}

#[test]
fn runner_bundle_packages_files_with_its_assets() {
    let out = tempfile::tempdir().unwrap();
    let report = subako_tiny_runner::bundle(&example("files"), Some(&assets()), &out.path().join("files")).unwrap();
    assert_eq!(report.manifest.name, "files");
    assert_eq!(report.tools.len(), 4);
    assert_eq!(report.asset_files, 2);
    let dir = &report.dir;
    let manifest: Value = serde_json::from_slice(&std::fs::read(dir.join("subako-package.json")).unwrap()).unwrap();
    assert_eq!(manifest["abi"], 1);
    assert_eq!(manifest["name"], "files");
    assert_eq!(std::fs::read(dir.join("module.wasm")).unwrap(), std::fs::read(example("files")).unwrap());
    for name in ["greeting.txt", "report.txt"] {
        let shipped = std::fs::read(assets().join("templates").join(name)).unwrap();
        assert_eq!(std::fs::read(dir.join("assets/templates").join(name)).unwrap(), shipped, "{name}");
    }
    assert!(report.archive.metadata().unwrap().len() > 0);
}

/// A save refused part-way (the call's write budget spent, as a full
/// volume would refuse it) leaves the file as it was: `save` writes a
/// file of its own and renames it over the old one (review 66: with
/// `fs::write` the refused save emptied the file, and `load` answered "").
#[test]
fn a_refused_save_leaves_the_old_text() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let opts = session(&volume);
    run(&module, "save", json!({"name": "a.txt", "text": "precious"}), &opts);
    let tight = CallOptions { write_budget: Some(50), ..session(&volume) };
    let refused = error_text(&run(&module, "save", json!({"name": "a.txt", "text": "x".repeat(100)}), &tight));
    assert!(refused.contains("/volume/tmp/files/a.txt") && refused.contains("EDQUOT"), "{refused}");
    assert_eq!(structured(&run(&module, "load", json!({"name": "a.txt"}), &opts)), &json!({"text": "precious"}));
    let names: Vec<String> = std::fs::read_dir(volume.path().join("files"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["a.txt"], "no partial file is left");
}

/// Where the directory `save` makes is a link out of the mounted
/// directory, WASI cannot look at what it names: the error keeps the
/// platform's own EEXIST rather than claim a file is there (review 68:
/// it said ENOTDIR, though the link's target is a directory).
#[cfg(unix)]
#[test]
fn a_link_out_of_the_volume_keeps_the_platform_s_answer() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), volume.path().join("files")).unwrap();
    let refused = error_text(&run(&module, "save", json!({"name": "a.txt", "text": "x"}), &session(&volume)));
    assert_eq!(refused, "create directory /volume/tmp/files: file exists (EEXIST)");
    assert!(std::fs::read_dir(outside.path()).unwrap().next().is_none(), "nothing written outside the volume");
}

/// A name on the volume that is not UTF-8: wasmtime refuses the listing
/// itself, and the answer says why (review 83: "illegal byte sequence"),
/// the same words as the host back end's (src/fs/tests.rs).
#[test]
fn a_name_that_is_not_utf8_refuses_the_listing_saying_why() {
    use std::os::unix::ffi::OsStrExt;
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let opts = session(&volume);
    let dir = volume.path().join("files");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("good.txt"), "").unwrap();
    assert_eq!(structured(&run(&module, "list", json!({}), &opts)), &json!({"names": ["good.txt"]}));
    std::fs::write(dir.join(std::ffi::OsStr::from_bytes(b"bad\xffname")), "").unwrap();
    assert_eq!(
        error_text(&run(&module, "list", json!({}), &opts)),
        "list /volume/tmp/files: illegal byte sequence (EILSEQ): a name is not UTF-8"
    );
}
