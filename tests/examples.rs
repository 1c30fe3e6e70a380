//! Every example's own tests run under `cargo test`: an example with a
//! `#[test]` is either taken in by a file here (`#[path =
//! "../examples/NAME.rs"]`) or marked `test = true` in Cargo.toml. (Cargo
//! builds examples but runs none of their tests unless told to, and an
//! example's tests once went unrun, one of them stale, for that reason.)

use std::fs;
use std::path::Path;

#[test]
fn every_example_with_tests_is_tested() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let marked = tested_in_manifest(&fs::read_to_string(root.join("Cargo.toml")).unwrap());
    let taken_in: Vec<String> = fs::read_dir(root.join("tests"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| fs::read_to_string(path).unwrap())
        .collect();
    let mut checked = 0;
    for entry in fs::read_dir(root.join("examples")).unwrap() {
        let path = entry.unwrap().path();
        let (Some(stem), Some("rs")) =
            (path.file_stem().and_then(|s| s.to_str()), path.extension().and_then(|e| e.to_str()))
        else {
            continue;
        };
        if !fs::read_to_string(&path).unwrap().contains("#[test]") {
            continue;
        }
        let included = std::format!("#[path = \"../examples/{stem}.rs\"]");
        assert!(
            marked.iter().any(|name| name == stem) || taken_in.iter().any(|text| text.contains(&included)),
            "examples/{stem}.rs has tests that `cargo test` never runs: add `test = true` to its [[example]] in \
             Cargo.toml, or take it in from a file in tests/ with {included}"
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} examples with tests found");
}

/// The names of the `[[example]]` tables of a Cargo.toml that say
/// `test = true`.
fn tested_in_manifest(manifest: &str) -> Vec<String> {
    let mut tested = vec![];
    for table in manifest.split("[[example]]").skip(1) {
        // The table ends where the next one begins.
        let table = table.split("\n[").next().unwrap();
        let value = |key: &str| {
            table.lines().find_map(|line| {
                let (k, v) = line.split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
            })
        };
        if value("test").as_deref() == Some("true") {
            tested.push(value("name").expect("an [[example]] names its example"));
        }
    }
    tested
}

#[test]
fn the_manifest_reader_finds_the_examples_marked_tested() {
    let manifest = "[package]\nname = \"x\"\n\n[[example]]\nname = \"a\"\ntest = true\n\n[[example]]\nname = \"b\"\nrequired-features = [\"m\"]\n\n[workspace]\ntest = true\n";
    assert_eq!(tested_in_manifest(manifest), ["a"]);
}
