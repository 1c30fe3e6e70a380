//! Embeds the crate a `subako-tiny new` package vendors: the files the root
//! `Cargo.toml`'s `include` globs name, plus that `Cargo.toml`, as a table of
//! `(path relative to the crate root, include_bytes!(absolute path))` in
//! `$OUT_DIR/vendor.rs`. So `cargo install --locked --path runner` from a
//! checkout gives a CLI that needs no checkout to scaffold a package.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let runner = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = runner.join("..");
    let manifest_path = root.join("Cargo.toml");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", manifest_path.display());
    let manifest = std::fs::read_to_string(&manifest_path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: the runner embeds the subako-tiny crate for `subako-tiny new`, so it builds only \
             inside a subako-tiny checkout (runner/ beside the crate's Cargo.toml)",
            manifest_path.display()
        )
    });
    let globs = include_globs(&manifest).unwrap_or_else(|| {
        panic!(
            "{}: no `include = [...]` in [package]: `subako-tiny new` vendors exactly what it lists",
            manifest_path.display()
        )
    });
    let root = root.canonicalize().expect("the crate root");
    let mut files: Vec<String> = vec!["Cargo.toml".into()];
    for g in &globs {
        let rel = g.strip_prefix('/').unwrap_or(g);
        if let Some(dir) = rel.strip_suffix("/**") {
            assert!(!dir.contains('*'), "include glob {g:?}: only `/DIR/**` and plain paths are understood here");
            let abs = root.join(dir);
            println!("cargo:rerun-if-changed={}", abs.display());
            walk(&abs, dir, &mut files);
        } else {
            assert!(
                !rel.contains('*') && !rel.contains('?') && !rel.contains('['),
                "include glob {g:?}: only `/DIR/**` and plain paths are understood here"
            );
            assert!(root.join(rel).is_file(), "include names {g:?}, which is not a file in {}", root.display());
            files.push(rel.to_string());
        }
    }
    files.sort();
    files.dedup();
    let mut out = String::from(
        "/// The vendored crate: (path in the crate, contents).\npub static VENDOR: &[(&str, &[u8])] = &[\n",
    );
    for f in &files {
        let abs = root.join(f);
        println!("cargo:rerun-if-changed={}", abs.display());
        let abs = abs.to_str().unwrap_or_else(|| panic!("{}: not UTF-8", abs.display()));
        writeln!(out, "    ({f:?}, include_bytes!({abs:?})),").unwrap();
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("vendor.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
}

/// The strings of `include = [...]` in the manifest's `[package]` table
/// (one array, possibly over several lines; `#` comments outside strings).
fn include_globs(manifest: &str) -> Option<Vec<String>> {
    let mut in_package = false;
    let mut lines = manifest.lines();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t.starts_with('[') {
            in_package = t == "[package]";
            continue;
        }
        let Some(rest) = t.strip_prefix("include").map(str::trim_start) else { continue };
        let Some(rest) = rest.strip_prefix('=') else { continue };
        if !in_package {
            continue;
        }
        let mut text = rest.to_string();
        while !strip_comment(&text).contains(']') {
            text.push('\n');
            text.push_str(lines.next()?);
        }
        let mut out = Vec::new();
        let mut in_str = false;
        let mut cur = String::new();
        for c in strip_comment_lines(&text).chars() {
            match (c, in_str) {
                ('"', false) => in_str = true,
                ('"', true) => {
                    out.push(std::mem::take(&mut cur));
                    in_str = false;
                }
                (c, true) => cur.push(c),
                (']', false) => return Some(out),
                _ => {}
            }
        }
        return None;
    }
    None
}

/// `line` up to a `#` that is outside a string.
fn strip_comment(line: &str) -> &str {
    let mut in_str = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_str = !in_str,
            '#' if !in_str => return &line[..i],
            _ => {}
        }
    }
    line
}

fn strip_comment_lines(text: &str) -> String {
    text.lines().map(strip_comment).collect::<Vec<_>>().join("\n")
}

/// Every file under `abs`, as `rel/...`, sorted.
fn walk(abs: &Path, rel: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(abs)
        .unwrap_or_else(|e| panic!("{}: {e}", abs.display()))
        .map(|e| e.expect("a directory entry"))
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        let name = name.to_str().unwrap_or_else(|| panic!("{}: a file name that is not UTF-8", e.path().display()));
        let child = format!("{rel}/{name}");
        let ty = e.file_type().expect("a file type");
        if ty.is_dir() {
            walk(&e.path(), &child, out);
        } else if ty.is_file() {
            out.push(child);
        }
    }
}
