//! What the runner embeds from the crate beside it, so the installed CLI
//! needs no checkout:
//!
//! - `$OUT_DIR/vendor.rs`: the subako-tiny crate as `cargo package`
//!   normalises it (its `include` files, and a `Cargo.toml` with no
//!   `[workspace]`, so a package inside another workspace can vendor it), as
//!   `(path, include_bytes!(…))` for `subako-tiny new`;
//! - `$OUT_DIR/package_build.rs`: the `build.rs` of the README's "Use it in
//!   your package", the one text every copy of it comes from;
//! - `$OUT_DIR/vendored_from.txt`: which crate that is, its version and the
//!   commit of the checkout (and whether its files had changes not yet
//!   committed), for `new` and `--version`: an author comparing modules
//!   built on two vendored copies can tell them apart.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let runner = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = runner.join("..").canonicalize().unwrap_or_else(|e| {
        panic!(
            "{}/..: {e}: the runner embeds the subako-tiny crate for `subako-tiny new`, so it builds only inside a \
             subako-tiny checkout (runner/ beside the crate's Cargo.toml)",
            runner.display()
        )
    });
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=Cargo.toml");
    for f in ["Cargo.toml", "build.rs", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "size-report", "src"] {
        println!("cargo:rerun-if-changed={}", root.join(f).display());
    }

    let crate_dir = package(&root, &out);
    let mut files = Vec::new();
    walk(&crate_dir, "", &mut files);
    files.retain(|f| !["Cargo.lock", "Cargo.toml.orig", ".cargo_vcs_info.json"].contains(&f.as_str()));
    files.sort();
    let mut vendor = String::from(
        "/// The vendored crate, as `cargo package` normalises it: (path in the crate, contents).\n\
         pub static VENDOR: &[(&str, &[u8])] = &[\n",
    );
    for f in &files {
        let abs = crate_dir.join(f);
        let abs = abs.to_str().unwrap_or_else(|| panic!("{}: not UTF-8", abs.display()));
        writeln!(vendor, "    ({f:?}, include_bytes!({abs:?})),").unwrap();
    }
    vendor.push_str("];\n");
    write(&out.join("vendor.rs"), &vendor);

    let version = crate_dir.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_prefix("subako-tiny-"));
    let version = version.expect("cargo package unpacks to subako-tiny-VERSION");
    write(&out.join("vendored_from.txt"), &format!("{version} ({})", commit(&root)));

    let readme = std::fs::read_to_string(crate_dir.join("README.md")).expect("the packaged crate has a README.md");
    write(&out.join("package_build.rs"), &readme_build_rs(&readme));
}

/// The checkout's commit, with a word when the crate's files differ from
/// it; or that there is no git checkout (a copy from an archive).
fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        let out = Command::new("git").arg("-C").arg(root).args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let Some(head) = git(&["rev-parse", "--short=12", "HEAD"]) else {
        return "not from a git checkout".into();
    };
    // A new commit changes HEAD's branch file, not the crate's files.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        let dir = PathBuf::from(dir);
        let mut watch = vec![dir.join("HEAD"), dir.join("packed-refs")];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watch.push(dir.join(branch));
        }
        for p in watch.iter().filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
    let files = ["Cargo.toml", "build.rs", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "size-report", "src"];
    let mut status = vec!["status", "--porcelain", "--"];
    status.extend(files);
    match git(&status) {
        Some(changes) if changes.is_empty() => format!("commit {head}"),
        _ => format!("commit {head} with changes not committed"),
    }
}

/// `cargo package --no-verify` of the crate at `root`, unpacked under
/// `out`: the directory that holds it.
fn package(root: &Path, out: &Path) -> PathBuf {
    let target = out.join("package");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let run = |offline: bool| {
        let mut c = Command::new(&cargo);
        c.current_dir(root)
            .args(["package", "--no-verify", "--allow-dirty", "--quiet", "-p", "subako-tiny", "--target-dir"])
            .arg(&target);
        if offline {
            c.arg("--offline");
        }
        for k in ["CARGO_TARGET_DIR", "RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_TARGET"] {
            c.env_remove(k);
        }
        c.output().expect("cargo runs")
    };
    // Offline first: the workspace's lock and cache usually hold everything.
    let mut output = run(true);
    if !output.status.success() {
        output = run(false);
    }
    assert!(
        output.status.success(),
        "cargo package -p subako-tiny (for what `subako-tiny new` vendors) failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let dir = target.join("package");
    let crate_file = std::fs::read_dir(&dir)
        .expect("cargo package wrote target/package")
        .map(|e| e.expect("a directory entry").path())
        .find(|p| p.extension().is_some_and(|x| x == "crate"))
        .expect("cargo package wrote a .crate");
    let unpacked = out.join("vendor");
    if unpacked.exists() {
        std::fs::remove_dir_all(&unpacked).expect("remove the previous copy");
    }
    let gz = flate2::read::GzDecoder::new(std::fs::File::open(&crate_file).expect("the .crate"));
    tar::Archive::new(gz).unpack(&unpacked).expect("unpack the .crate");
    let stem = crate_file.file_stem().expect("NAME-VERSION.crate");
    unpacked.join(stem)
}

/// The one ```rust block holding `fn main()` in the README's "Use it in your package".
fn readme_build_rs(readme: &str) -> String {
    let start = readme.find("\n## Use it in your package\n").expect("the README has \"## Use it in your package\"");
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 4)];
    let mut found = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        if line == "```rust" {
            let text: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
            if text.iter().any(|l| l.contains("fn main()")) {
                found.push(text.join("\n") + "\n");
            }
        }
    }
    assert_eq!(found.len(), 1, "the README's \"Use it in your package\" must hold one ```rust block with fn main()");
    found.remove(0)
}

/// Every file under `dir`, as paths relative to it with `/`.
fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let e = e.expect("a directory entry");
        let name = e.file_name();
        let name = name.to_str().unwrap_or_else(|| panic!("{}: a file name that is not UTF-8", e.path().display()));
        let child = if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") };
        if e.file_type().expect("a file type").is_dir() {
            walk(&e.path(), &child, out);
        } else {
            out.push(child);
        }
    }
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}
