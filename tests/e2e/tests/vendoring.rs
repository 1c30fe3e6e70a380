//! Vendoring as the README's "Use it in your package" describes it, done
//! for real: the README's own copy block (`cargo package`, then the `.crate`
//! unpacked into `vendor/subako-tiny`) run in a package in a temporary
//! directory outside the repository, which depends on the copy by path and
//! takes its size profile and `build.rs` from the README's own blocks (so
//! the README cannot drift from what works); once as a package of its own,
//! once as a member of another workspace. Each is built for wasm32-wasip1
//! and judged by the runner's `check`. And the README's `build.rs` is the one
//! text of its link arguments: the crate's own and the vendored test
//! package's are checked against it.

use std::path::{Path, PathBuf};
use std::process::Command;

use subako_tiny_e2e::{Shape, crate_root, example};
use subako_tiny_runner::{BUILD_RS, CallOptions, Module, call, check};

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

/// Runs the README's ```bash block that copies the crate, in `package`,
/// with this checkout in place of `path/to/subako-tiny`.
fn copy_as_the_readme_says(blocks: &[(String, String)], package: &Path) {
    let copy = block(blocks, "bash", "cargo package");
    let root = crate_root();
    let script = copy.replace("path/to/subako-tiny", root.to_str().unwrap());
    std::fs::create_dir_all(package).unwrap();
    // The block gives `cargo package` its own target directory: whatever
    // CARGO_TARGET_DIR says, it finds the `.crate` and writes nothing there.
    let elsewhere = tempfile::tempdir().unwrap();
    let output = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .current_dir(package)
        .env("CARGO_TARGET_DIR", elsewhere.path())
        .output()
        .expect("bash runs");
    assert!(
        output.status.success(),
        "the README's copy block failed:\n{script}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!elsewhere.path().join("package").exists(), "the README's copy block packaged into CARGO_TARGET_DIR");
    let manifest = std::fs::read_to_string(package.join("vendor/subako-tiny/Cargo.toml")).unwrap();
    assert!(!manifest.contains("[workspace"), "the copy's Cargo.toml is a workspace root:\n{manifest}");
    // Dated now, not with the .crate's fixed dates: cargo rebuilds a copy
    // updated over an older one (an outside author's kept linking the old).
    let modified = std::fs::metadata(package.join("vendor/subako-tiny/src/lib.rs")).unwrap().modified().unwrap();
    let age = std::time::SystemTime::now().duration_since(modified).unwrap_or_default();
    assert!(age.as_secs() < 3600, "the copy's src/lib.rs is dated {age:?} ago");
}

/// Builds `-p mytool` for wasm32-wasip1 from `dir` into a target directory
/// kept between runs; the module's bytes.
fn build_mytool(dir: &Path, target: &str) -> Vec<u8> {
    build_mytool_with(dir, target, &[])
}

/// [`build_mytool`] with more cargo arguments (features).
fn build_mytool_with(dir: &Path, target: &str, more: &[&str]) -> Vec<u8> {
    let target: PathBuf = crate_root().join("target/e2e").join(target);
    let output = cargo()
        .current_dir(dir)
        .args(["build", "--quiet", "--release", "--target", "wasm32-wasip1", "-p", "mytool", "--target-dir"])
        .arg(&target)
        .args(more)
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "the vendoring package does not build for wasm32-wasip1:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read(target.join("wasm32-wasip1/release/mytool.wasm")).unwrap()
}

/// Hello as a package built: accepted, 2 pages, our hello's bytes give or
/// take the name, and it answers.
fn judge_hello(bytes: &[u8]) {
    let report = check(bytes, None);
    assert!(report.accepted(), "check refuses the vendored build: {:?}", report.failures);
    assert_eq!(report.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["greet"]);
    assert_eq!(Shape::read(bytes).initial_pages, Some(2), "the vendored build should start at 2 pages");
    let ours = std::fs::metadata(example("hello")).unwrap().len() as f64;
    let ratio = bytes.len() as f64 / ours;
    assert!(
        (0.98..=1.02).contains(&ratio),
        "vendored hello is {} bytes, our hello {ours}: more than 2 % apart",
        bytes.len()
    );
    let module = Module::from_bytes(bytes).unwrap();
    let outcome = call(&module, "greet", r#"{"name":"Ada"}"#, &CallOptions::default()).unwrap();
    let result = outcome.result.expect("greet answers");
    assert_eq!(result["structuredContent"]["message"], "Hello, Ada!", "{result}");
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
            !["Cargo.toml", "Cargo.lock", "build.rs", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "size-report"]
                .contains(&f.as_str())
        })
        .collect();
    assert!(stray.is_empty(), "the package list holds files a vendoring package does not need: {stray:?}");
}

#[test]
fn a_package_vendoring_the_crate_as_the_readme_says_builds_and_passes_check() {
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
    copy_as_the_readme_says(&blocks, &package);
    std::fs::create_dir_all(package.join("src")).unwrap();
    std::fs::write(
        package.join("Cargo.toml"),
        format!("[package]\nname = \"mytool\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n{manifest_lines}"),
    )
    .unwrap();
    std::fs::write(package.join("build.rs"), build_rs).unwrap();
    let hello = std::fs::read_to_string(crate_root().join("examples/hello.rs")).unwrap();
    std::fs::write(package.join("src/main.rs"), hello).unwrap();
    let dlmalloc = build_mytool(&package, "vendoring");
    judge_hello(&dlmalloc);
    // The block's features choose the allocator, as `size` builds each.
    let lean = build_mytool_with(&package, "vendoring-lean", &["--no-default-features", "--features", "lean-alloc"]);
    let ours = std::fs::metadata(example("hello")).unwrap().len() as usize;
    assert!(
        lean.len() + 1000 < dlmalloc.len(),
        "the README's lean-alloc feature should take dlmalloc out: {} bytes against {} (our hello {ours})",
        lean.len(),
        dlmalloc.len()
    );
}

/// A package that is a member of another workspace vendors the copy the
/// same way: the copy has no `[workspace]` of its own to clash with.
#[test]
fn a_member_of_another_workspace_vendors_the_crate_as_the_readme_says() {
    let blocks = readme_blocks();
    let manifest_lines = block(&blocks, "toml", "[dependencies]");
    let (dependencies, profile) = manifest_lines.split_once("[profile.release]").expect("the block has the profile");
    let dir = tempfile::Builder::new().prefix("subako-vendoring-member").tempdir().unwrap();
    let workspace = dir.path().join("tools");
    let package = workspace.join("mytool");
    copy_as_the_readme_says(&blocks, &package);
    std::fs::write(
        workspace.join("Cargo.toml"),
        format!("[workspace]\nresolver = \"3\"\nmembers = [\"mytool\"]\n\n[profile.release]{profile}"),
    )
    .unwrap();
    std::fs::create_dir_all(package.join("src")).unwrap();
    std::fs::write(
        package.join("Cargo.toml"),
        format!("[package]\nname = \"mytool\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n{dependencies}"),
    )
    .unwrap();
    std::fs::write(package.join("build.rs"), block(&blocks, "rust", "fn main()")).unwrap();
    let hello = std::fs::read_to_string(crate_root().join("examples/hello.rs")).unwrap();
    std::fs::write(package.join("src/main.rs"), hello).unwrap();
    judge_hello(&build_mytool(&workspace, "vendoring-member"));
}

/// The link arguments exist once, in the README's `build.rs`: the runner
/// embeds that block (`subako-tiny new` writes it, `size --link-args`
/// passes its arguments), the vendored test package holds it verbatim, and
/// the crate's own `build.rs` gives its examples the same arguments under
/// the same condition.
#[test]
fn the_readme_s_build_rs_is_the_one_text_of_the_link_arguments() {
    let readme = block(&readme_blocks(), "rust", "fn main()");
    assert_eq!(BUILD_RS, readme, "the runner's embedded build.rs is not the README's (rebuild the runner)");
    let vendored = std::fs::read_to_string(crate_root().join("tests/e2e/vendored/build.rs")).unwrap();
    assert_eq!(vendored, readme, "tests/e2e/vendored/build.rs is not the README's block");
    // (argument, given only without debug info) in order.
    fn args(text: &str, instruction: &str) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        let mut release_only = false;
        for line in text.lines() {
            if line.contains("\"DEBUG\"") {
                release_only = true;
            }
            if let Some(rest) = line.split(instruction).nth(1) {
                out.push((rest.split('"').next().unwrap().to_string(), release_only));
            }
        }
        out
    }
    let crate_build = std::fs::read_to_string(crate_root().join("build.rs")).unwrap();
    let want = args(&readme, "cargo:rustc-link-arg=");
    assert_eq!(want.len(), 3, "{readme}");
    assert_eq!(
        args(&crate_build, "cargo:rustc-link-arg-examples="),
        want,
        "the crate's build.rs gives its examples other link arguments"
    );
}

/// A vendored copy's `size-report` names the CLI's commit and warns when
/// it is not the one the copy was packaged from (its
/// `.cargo_vcs_info.json`): author trial 28 measured with a CLI from an
/// older commit at the same version, unwarned. The CLI here is a script
/// on the PATH that says its version and does nothing else.
#[test]
fn a_vendored_size_report_warns_of_a_cli_from_another_commit() {
    let root = crate_root();
    let dir = tempfile::Builder::new().prefix("subako-vendored-cli").tempdir().unwrap();
    let copy = dir.path().join("vendor");
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::create_dir_all(&bin).unwrap();
    for file in ["size-report", "Cargo.toml"] {
        std::fs::copy(root.join(file), copy.join(file)).unwrap();
    }
    let cli = bin.join("subako-tiny");
    std::fs::write(
        &cli,
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'subako-tiny 0.1.0 (commit 0123456789ab)'; fi\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&cli, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let run = |sha1: &str| {
        std::fs::write(copy.join(".cargo_vcs_info.json"), format!(r#"{{"git":{{"sha1":"{sha1}"}},"path_in_vcs":""}}"#))
            .unwrap();
        let out = Command::new("python3")
            .arg(copy.join("size-report"))
            .args(["--manifest-path", "Cargo.toml"])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env_remove("SUBAKO_TINY")
            .output()
            .expect("python3 runs");
        assert!(out.status.success(), "size-report failed:\n{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stderr).unwrap()
    };
    let other = run("fedcba9876543210fedcba9876543210fedcba98");
    assert!(other.contains("commit 0123456789ab, from the PATH"), "{other}");
    assert!(
        other.contains("warning: that CLI was built from commit 0123456789ab, this crate is from fedcba987654"),
        "{other}"
    );
    let same = run("0123456789abcdef0123456789abcdef01234567");
    assert!(same.contains("commit 0123456789ab"), "{same}");
    assert!(!same.contains("warning"), "{same}");
}
