//! Vendoring as the README's "Use it in your package" describes it, done
//! for real: the files `cargo package --list` names are copied into a
//! package in a temporary directory outside the repository, which depends
//! on the copy by path and takes its size profile and `build.rs` from the
//! README's own blocks (so the README cannot drift from what works). It is
//! built for wasm32-wasip1 and judged by the runner's `check`.

use std::path::{Path, PathBuf};
use std::process::Command;

use subako_tiny_e2e::{Shape, crate_root, example};
use subako_tiny_runner::{CallOptions, Module, call, check};

/// Files `cargo package` writes itself: they are in its list, not on disk.
const GENERATED: [&str; 2] = [".cargo_vcs_info.json", "Cargo.toml.orig"];

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// What `cargo package --list` names for the crate.
fn package_list() -> Vec<String> {
    let root = crate_root();
    let output = cargo()
        .current_dir(&root)
        .args(["package", "--list", "--allow-dirty", "--quiet", "-p", "subako-tiny", "--target-dir"])
        .arg(root.join("target/e2e/package"))
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "cargo package --list failed:\n{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().lines().map(str::to_string).collect()
}

/// The fenced blocks of the README's "Use it in your package" section, as
/// (info string, text).
fn readme_blocks() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(crate_root().join("README.md")).unwrap();
    let start =
        readme.find("\n## Use it in your package\n").expect("the README has a \"Use it in your package\" section");
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 4)];
    let mut blocks = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        if let Some(info) = line.strip_prefix("```") {
            let text: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
            blocks.push((info.to_string(), text.join("\n") + "\n"));
        }
    }
    blocks
}

/// The one ```INFO block of the section that holds `holding`.
fn block(blocks: &[(String, String)], info: &str, holding: &str) -> String {
    let found: Vec<&String> = blocks.iter().filter(|(i, t)| i == info && t.contains(holding)).map(|(_, t)| t).collect();
    assert_eq!(
        found.len(),
        1,
        "the README's \"Use it in your package\" should have one ```{info} block with {holding:?}"
    );
    found[0].clone()
}

fn copy_listed(files: &[String], to: &Path) {
    let root = crate_root();
    for file in files {
        let from = root.join(file);
        if !from.exists() {
            assert!(
                GENERATED.contains(&file.as_str()) || file == "Cargo.lock",
                "{file} is in the package list but not on disk"
            );
            continue;
        }
        let dest = to.join(file);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&from, &dest).unwrap();
    }
}

#[test]
fn the_package_list_is_what_a_vendoring_package_copies() {
    let files = package_list();
    for needed in ["Cargo.toml", "build.rs", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "src/lib.rs"] {
        assert!(files.iter().any(|f| f == needed), "`cargo package --list` lacks {needed}: {files:?}");
    }
    let stray: Vec<&String> = files
        .iter()
        .filter(|f| !f.starts_with("src/") && !GENERATED.contains(&f.as_str()))
        .filter(|f| {
            !["Cargo.toml", "Cargo.lock", "build.rs", "README.md", "LICENSE-MIT", "LICENSE-APACHE"]
                .contains(&f.as_str())
        })
        .collect();
    assert!(stray.is_empty(), "the package list holds files a vendoring package does not need: {stray:?}");
}

#[test]
fn a_package_vendoring_the_listed_files_builds_and_passes_check() {
    let blocks = readme_blocks();
    let manifest_lines = block(&blocks, "toml", "[dependencies]");
    let build_rs = block(&blocks, "rust", "fn main()");
    assert!(
        manifest_lines.contains("path = \"vendor/subako-tiny\""),
        "the README's Cargo.toml block lost its path line"
    );

    let dir = tempfile::Builder::new().prefix("subako-vendoring").tempdir().unwrap();
    assert!(!dir.path().starts_with(crate_root()), "the package must live outside the repository");
    let package = dir.path().join("mytool");
    copy_listed(&package_list(), &package.join("vendor/subako-tiny"));
    std::fs::create_dir_all(package.join("src")).unwrap();
    std::fs::write(
        package.join("Cargo.toml"),
        format!("[package]\nname = \"mytool\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n{manifest_lines}"),
    )
    .unwrap();
    std::fs::write(package.join("build.rs"), build_rs).unwrap();
    let hello = std::fs::read_to_string(crate_root().join("examples/hello.rs")).unwrap();
    std::fs::write(package.join("src/main.rs"), hello).unwrap();

    // A target directory kept between runs (its dependencies stay built);
    // the package itself is the temporary one.
    let target: PathBuf = crate_root().join("target/e2e/vendoring");
    let output = cargo()
        .current_dir(&package)
        .args(["build", "--quiet", "--release", "--target", "wasm32-wasip1", "--target-dir"])
        .arg(&target)
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "the vendoring package does not build for wasm32-wasip1:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let module_path = target.join("wasm32-wasip1/release/mytool.wasm");
    let bytes = std::fs::read(&module_path).unwrap();

    let report = check(&bytes, None);
    assert!(report.accepted(), "check refuses the vendored build: {:?}", report.failures);
    assert_eq!(report.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["greet"]);
    assert_eq!(Shape::read(&bytes).initial_pages, Some(2), "the vendored build should start at 2 pages");

    // The same bytes as our own hello give or take the package's name.
    let ours = std::fs::metadata(example("hello")).unwrap().len() as f64;
    let ratio = bytes.len() as f64 / ours;
    assert!(
        (0.98..=1.02).contains(&ratio),
        "vendored hello is {} bytes, our hello {ours}: more than 2 % apart",
        bytes.len()
    );

    let module = Module::from_bytes(&bytes).unwrap();
    let outcome = call(&module, "greet", r#"{"name":"Ada"}"#, &CallOptions::default()).unwrap();
    let result = outcome.result.expect("greet answers");
    assert_eq!(result["structuredContent"]["message"], "Hello, Ada!", "{result}");
}
