//! `subako-tiny new DIR [--name NAME] [--description TEXT]`: a complete
//! package that vendors the crate (as `cargo package` normalises it,
//! embedded in this binary by `build.rs`), with the size profile, the
//! README's `build.rs` and one tool.

use std::path::{Path, PathBuf};

use subako_tiny_runner::BUILD_RS;

include!(concat!(env!("OUT_DIR"), "/vendor.rs"));

/// The vendored crate's version and the commit it was taken from:
/// `0.1.0 (commit 0123456789ab)`.
pub const VENDORED_FROM: &str = include_str!(concat!(env!("OUT_DIR"), "/vendored_from.txt"));

/// What `new` wrote.
pub struct Scaffold {
    pub name: String,
    pub dir: PathBuf,
    /// Paths relative to `dir`, in the order written.
    pub files: Vec<String>,
}

impl Scaffold {
    /// What was written, and the next commands.
    pub fn to_text(&self) -> String {
        let vendored = self.files.iter().filter(|f| f.starts_with("vendor/")).count();
        let mut s = format!("wrote package {} in {}:\n", self.name, self.dir.display());
        for f in self.files.iter().filter(|f| !f.starts_with("vendor/")) {
            s += &format!("  {f}\n");
        }
        s += &format!("  vendor/subako-tiny/: the subako-tiny crate {VENDORED_FROM}, {vendored} files\n");
        // Where cargo puts the module: under CARGO_TARGET_DIR when it is set.
        let target = std::env::var("CARGO_TARGET_DIR").ok().filter(|t| !t.is_empty());
        let wasm = format!("{}/wasm32-wasip1/release/{}.wasm", target.as_deref().unwrap_or("target"), self.name);
        s += "next:\n";
        s += &format!("  cd {}\n", self.dir.display());
        s += "  cargo build --release --target wasm32-wasip1    # the module\n";
        s += "  cargo test                                      # the tool's tests, on the host\n";
        s += &format!("  subako-tiny check {wasm}\n");
        s += &format!("  subako-tiny call {wasm} greet '{{\"name\":\"Ada\"}}'\n");
        s += "  subako-tiny size --manifest-path Cargo.toml     # its size, the advisor, the budgets (--check)\n";
        s
    }
}

/// Names Cargo refuses for a package or a binary, and the crate's own
/// (a package cannot depend on a library of its own name).
const RESERVED: &[&str] = &[
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "try",
    "gen",
    "test",
    "std",
    "core",
    "alloc",
    "proc_macro",
    "proc-macro",
    "build",
    "deps",
    "examples",
    "subako-tiny",
    "subako_tiny",
];

/// Checks `name` as both a Cargo package name and a Subako package name
/// (the module's argv[0] and the bundle's `name`).
pub fn check_name(name: &str) -> Result<(), String> {
    let rule = "a package name is 1 to 64 of a-z, 0-9, '-' and '_', starting with a letter \
                (new makes it both the Cargo package's name and the Subako package name the module answers to)";
    let first_ok = name.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    let rest_ok = name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !first_ok || !rest_ok || name.len() > 64 {
        let bad = name.chars().find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-' || *c == '_'));
        let why = match bad {
            _ if name.is_empty() => "it is empty".to_string(),
            Some(c) => format!("{c:?} is not allowed"),
            None if name.len() > 64 => format!("it is {} characters long", name.len()),
            None => "it does not start with a letter".to_string(),
        };
        return Err(format!("package name {name:?}: {why}; {rule}"));
    }
    if RESERVED.contains(&name) {
        return Err(format!(
            "package name {name:?} is reserved (a Rust keyword, a name Cargo refuses, or the crate's own); pick another"
        ));
    }
    Ok(())
}

/// What the scaffold's manifest says when `--description` is not given.
const DESCRIPTION: &str = "Says hello.";

/// Writes the package into `dir` (which must not exist, or be empty).
pub fn new_package(dir: &Path, name: Option<&str>, description: Option<&str>) -> Result<Scaffold, String> {
    let description = description.unwrap_or(DESCRIPTION);
    if description.trim().is_empty() {
        return Err("--description: the manifest's description must not be empty (Subako shows it to the model)".into());
    }
    let name = match name {
        Some(n) => {
            check_name(n).map_err(|e| format!("--name: {e}"))?;
            n.to_string()
        }
        None => {
            // `new .` takes the name of the directory it is in.
            let whole = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
            let n = whole.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
                format!("{}: no directory name to take the package name from; pass --name NAME", dir.display())
            })?;
            check_name(n).map_err(|e| format!("{e}; it comes from the directory's name: pass --name NAME"))?;
            n.to_string()
        }
    };
    match std::fs::read_dir(dir) {
        Ok(entries) => {
            // A fresh `git init` is as good as empty: new writes no file of git's.
            if entries.flatten().any(|e| e.file_name() != ".git") {
                return Err(format!(
                    "{} exists and is not empty: pick a new directory (new never overwrites files)",
                    dir.display()
                ));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) if dir.exists() && !dir.is_dir() => {
            return Err(format!("{} exists and is not a directory ({e}): pick a new directory", dir.display()));
        }
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    }
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("Cargo.toml".into(), cargo_toml(&name, description).into_bytes()),
        ("build.rs".into(), BUILD_RS.as_bytes().to_vec()),
        ("src/main.rs".into(), main_rs(&name).into_bytes()),
        (".gitignore".into(), b"/target\n".to_vec()),
        ("README.md".into(), readme(&name, VENDORED_FROM).into_bytes()),
    ];
    for (path, bytes) in VENDOR {
        files.push((format!("vendor/subako-tiny/{path}"), bytes.to_vec()));
    }
    for (rel, bytes) in &files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        if rel.ends_with("/size-report") {
            executable(&path)?;
        }
    }
    Ok(Scaffold { name, dir: dir.to_path_buf(), files: files.into_iter().map(|(p, _)| p).collect() })
}

/// Lets the owner run the file (the vendored `size-report`).
fn executable(path: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

fn cargo_toml(name: &str, description: &str) -> String {
    // A JSON string is a TOML basic string, once DEL, which JSON leaves
    // as it is and TOML refuses, is escaped (review 100).
    let description = serde_json::to_string(description).expect("a string").replace('\u{7f}', "\\u007F");
    format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
# What the package does, which Subako shows the model: src/main.rs gives
# it to Package::new (env!("CARGO_PKG_DESCRIPTION")), so it is written here alone.
description = {description}
publish = false

[package.metadata.subako-tiny]
# Size budgets: module name = at most this many bytes (or {{ dlmalloc = BYTES, lean = BYTES }}).
# `subako-tiny size --manifest-path Cargo.toml --check` and
# `vendor/subako-tiny/size-report --check` build the modules and check them.
# budget = {{ {name} = 20000 }}
# The assets' directory beside this file, mounted at /package for the
# measured call (a tool that reads them is measured answering).
# assets = "assets"
# The call `size` measures (default: the first tool, with arguments made
# from its schema), and a directory a copy of which is its /volume/data.
# tool = "greet"
# args = {{ name = "Ada" }}
# data = "testdata"

[dependencies]
subako-tiny = {{ path = "vendor/subako-tiny", default-features = false, features = ["panic-handler"] }}

# The crate's features, chosen here: `size` builds the module with each
# allocator and prices the others (`--feature-costs`; forward
# "dlmalloc-crate" too to have it priced). For typed tools
# (`typed!`), add "miniserde" to `default`; `cargo doc --features miniserde`
# then documents the typed layer too.
[features]
default = ["dlmalloc"]
dlmalloc = ["subako-tiny/dlmalloc"]
lean-alloc = ["subako-tiny/lean-alloc"]
panic-message = ["subako-tiny/panic-message"]
miniserde = ["subako-tiny/miniserde"]

# A workspace of its own, so an enclosing workspace never swallows it, with
# the vendored crate a dependency, not a member (its dev-dependencies stay
# out of this package's lock).
[workspace]
exclude = ["vendor"]

# The size profile for modules (vendor/subako-tiny/README.md, "Use it in your package").
[profile.release]
opt-level = "z"
lto = true
codegen-units = 1
panic = "abort"
strip = true

# miniserde (the typed layer) at opt-level 2: at "z" rustc shares its copies
# of alloc's generic functions with the crates above it, which then call them
# rather than inline their own, a little larger with the feature on even
# where no typed tool is linked.
[profile.release.package.miniserde]
opt-level = 2
"#
    )
}

fn main_rs(name: &str) -> String {
    MAIN_RS.replace("{name}", name)
}

const MAIN_RS: &str = r###"//! The {name} package: one tool, `greet`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn greet(args: &Args<'_>) -> Result<Reply, ToolError> {
    let name = args.str("name")?; // a missing or non-string name is an isError result
    // Sent as text and as structuredContent; an object built this way is
    // always well-formed JSON.
    Ok(Reply::object(|o| o.text("message", ("Hello, ", &name, "!"))))
}

pub const PACKAGE: Package = Package::new(
    "{name}",
    env!("CARGO_PKG_VERSION"),
    env!("CARGO_PKG_DESCRIPTION"),
    &[Tool::new(
        "greet",
        "Greet someone by name.",
        r#"{
            "properties": {"name": {"description": "Who to greet.", "type": "string"}},
            "required": ["name"],
            "type": "object"
        }"#,
        greet,
    )
    .output_schema(r#"{"properties": {"message": {"type": "string"}}, "required": ["message"], "type": "object"}"#)],
);

subako_tiny::main!(PACKAGE);

#[cfg(test)]
mod tests {
    use super::PACKAGE;

    use subako_tiny::testing;

    #[test]
    fn greets_by_name() {
        let called = testing::call(&PACKAGE, "greet", r#"{"name": "Ada"}"#);
        assert!(!called.is_error(), "{}", called.line());
        assert_eq!(called.structured(), Some(r#"{"message":"Hello, Ada!"}"#));
    }

    #[test]
    fn a_missing_name_is_an_error_the_model_reads() {
        let called = testing::call(&PACKAGE, "greet", "{}");
        assert!(called.is_error(), "{}", called.line());
        assert_eq!(called.text(), "invalid input: missing field `name`");
    }
}
"###;

fn readme(name: &str, vendored_from: &str) -> String {
    format!(
        r#"# {name}

A Subako function package built with subako-tiny {vendored_from},
vendored in `vendor/subako-tiny/`. `cargo doc -p subako-tiny --open` is its manual
(module `guide`) and its reference.

```sh
rustup target add wasm32-wasip1                      # once
cargo build --release --target wasm32-wasip1         # target/wasm32-wasip1/release/{name}.wasm
cargo test                                           # the tool's tests, on the host
subako-tiny check target/wasm32-wasip1/release/{name}.wasm
subako-tiny call target/wasm32-wasip1/release/{name}.wasm greet '{{"name":"Ada"}}'
subako-tiny size --manifest-path Cargo.toml --check  # sizes, advice, the budgets in Cargo.toml
vendor/subako-tiny/size-report --check               # the same, from the vendored copy
subako-tiny bundle --module target/wasm32-wasip1/release/{name}.wasm --out dist
```
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["hello", "my-tool", "a_b2", "x"] {
            assert_eq!(check_name(ok), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("", "empty"),
            ("Hello", "'H' is not allowed"),
            ("2fa", "does not start with a letter"),
            ("-x", "does not start with a letter"),
            ("my tool", "' ' is not allowed"),
            ("café", "'é' is not allowed"),
            ("fn", "reserved"),
            ("subako-tiny", "reserved"),
        ] {
            let e = check_name(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert!(check_name(&"a".repeat(65)).unwrap_err().contains("65 characters"));
    }

    #[test]
    fn vendor_is_the_include_list_plus_a_manifest_without_a_workspace() {
        const TOP: [&str; 6] = ["Cargo.toml", "build.rs", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "size-report"];
        let paths: Vec<&str> = VENDOR.iter().map(|(p, _)| *p).collect();
        for want in TOP.iter().chain(&["src/lib.rs"]) {
            assert!(paths.contains(want), "{want} missing from {paths:?}");
        }
        assert!(paths.iter().all(|p| TOP.contains(p) || p.starts_with("src/")), "{paths:?}");
        let manifest = std::str::from_utf8(VENDOR.iter().find(|(p, _)| *p == "Cargo.toml").unwrap().1).unwrap();
        assert!(!manifest.contains("[workspace"), "{manifest}");
        assert!(manifest.contains("name = \"subako-tiny\"") && manifest.contains("version = \""), "{manifest}");
    }

    #[test]
    fn the_description_is_a_toml_string_main_rs_reads() {
        let d = "Says \"hi\" \\ to you, é\u{7f}\t";
        let toml: toml::Table = cargo_toml("x", d).parse().unwrap();
        assert_eq!(toml["package"]["description"].as_str(), Some(d));
        // One place (trial 91 found it in two, to keep alike by hand).
        assert!(main_rs("x").contains("    env!(\"CARGO_PKG_DESCRIPTION\"),\n"), "{}", main_rs("x"));
        assert!(!main_rs("x").contains("description}"), "{}", main_rs("x"));
    }
}
