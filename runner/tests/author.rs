//! An author's whole toolchain from the vendored copy alone: in a temporary
//! directory with no checkout of this repository on any path (the CLI is
//! copied there; nothing else comes from the repository but what `subako-tiny
//! new` writes), `new` → a wasm32 build → `size --check` and the vendored
//! `size-report --check` each failing with a budget below the module and
//! passing above it → `--feature-costs` and `--explain` printing → `cargo doc
//! -p subako-tiny` building, and `cargo doc --features miniserde` with the
//! typed layer. Each step's time is printed (`--nocapture`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

struct Author {
    _tmp: tempfile::TempDir,
    /// Holds the copied CLI, and is all the PATH adds.
    bin: PathBuf,
    package: PathBuf,
    target: PathBuf,
}

impl Author {
    fn new() -> Author {
        let tmp = tempfile::Builder::new().prefix("subako-author").tempdir().unwrap();
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().canonicalize().unwrap();
        assert!(!tmp.path().starts_with(&checkout), "the author's directory must be outside the checkout");
        let bin = tmp.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::copy(env!("CARGO_BIN_EXE_subako-tiny"), bin.join("subako-tiny")).unwrap();
        let package = tmp.path().join("mytool");
        let target = tmp.path().join("target");
        Author { _tmp: tmp, bin, package, target }
    }

    /// `program args` in the package, with a PATH that holds the copied CLI
    /// and the system's programs, and nothing of the outer cargo run.
    fn run(&self, program: &str, args: &[&str]) -> Output {
        let system: Vec<PathBuf> = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .filter(|p| !p.starts_with(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()))
            .collect();
        let path = std::env::join_paths(std::iter::once(self.bin.clone()).chain(system)).unwrap();
        let mut c = Command::new(program);
        let dir = if self.package.is_dir() { &self.package } else { self.package.parent().unwrap() };
        c.args(args).current_dir(dir).env("PATH", path).env("CARGO_TARGET_DIR", &self.target);
        for k in
            ["CARGO", "CARGO_BUILD_TARGET", "RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_MANIFEST_DIR", "SUBAKO_TINY"]
        {
            c.env_remove(k);
        }
        let start = Instant::now();
        let out = c.output().unwrap_or_else(|e| panic!("{program}: {e}"));
        eprintln!("[{:6.1} s] {program} {}", start.elapsed().as_secs_f64(), args.join(" "));
        out
    }

    fn set_budget(&self, line: &str) {
        let path = self.package.join("Cargo.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("budget =")).collect();
        let mut text = kept.join("\n") + "\n";
        text = text.replace("[package.metadata.subako-tiny]\n", &format!("[package.metadata.subako-tiny]\n{line}\n"));
        std::fs::write(&path, text).unwrap();
    }
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn an_author_measures_and_budgets_a_package_from_the_vendored_copy_alone() {
    let a = Author::new();
    let out = a.run("subako-tiny", &["new", a.package.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));

    let out = a.run("cargo", &["build", "--release", "--target", "wasm32-wasip1"]);
    assert!(out.status.success(), "{}", text(&out));
    let module = a.target.join("wasm32-wasip1/release/mytool.wasm");
    let bytes = std::fs::metadata(&module).unwrap().len();

    // Below the module: both ways fail, naming the module, its bytes and the budget.
    a.set_budget("budget = { mytool = 1000 }");
    let size = ["size", "--manifest-path", "Cargo.toml", "--check", "--quick", "--no-advice"];
    let out = a.run("subako-tiny", &size);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let shown = subako_tiny_runner::thousands(bytes as usize);
    let over = format!(
        "mytool: {shown} bytes, over its budget of 1,000 (package.metadata.subako-tiny.budget), dlmalloc build"
    );
    assert!(said.contains(&over), "no {over:?} in:\n{said}");
    // Both allocators the scaffold's features choose, each over.
    assert!(said.contains("mytool  dlmalloc") && said.contains("mytool  lean"), "{said}");
    assert!(said.contains("lean build"), "{said}");
    // The author's CARGO_TARGET_DIR holds the builds and the report; the
    // package's directory gets no target of its own.
    assert!(a.target.join("size-report/report.json").is_file(), "{said}");
    assert!(!a.package.join("target").exists(), "size built in the package's own target/: {said}");
    let report = ["--check", "--quick", "--no-advice"];
    let out = a.run("vendor/subako-tiny/size-report", &report);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains(&over), "no {over:?} in:\n{said}");
    assert!(said.contains(&format!("using {}", a.bin.join("subako-tiny").display())), "{said}");
    // --check holds with --feature-costs and --explain too: their report, then the verdict.
    for with in [&["--feature-costs"][..], &["--explain", "mytool"]] {
        let out = a.run("subako-tiny", &[&size[..], with].concat());
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{with:?}: {said}");
        assert!(said.contains(&over), "{with:?}: no {over:?} in:\n{said}");
    }

    // Above it: both pass.
    a.set_budget("budget = { mytool = { dlmalloc = 40000, lean = 40000 } }");
    let out = a.run("subako-tiny", &size);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("within budget"), "{}", text(&out));
    let out = a.run("vendor/subako-tiny/size-report", &report);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("within 40,000"), "{}", text(&out));
    // --json-out puts the report there and leaves the shared one alone
    // (two packages in one target directory keep their reports apart).
    let shared = a.target.join("size-report/report.json");
    std::fs::remove_file(&shared).unwrap();
    let own = a.package.join("mytool-report.json");
    let out = a.run("subako-tiny", &[&size[..], &["--json-out", own.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&own).unwrap()).unwrap();
    assert!(written["rows"].as_array().is_some_and(|rows| !rows.is_empty()), "{written}");
    assert!(!shared.exists(), "--json-out also wrote {}", shared.display());

    // A budget that names no module of the package is refused, with the names.
    a.set_budget("budget = { nosuch = 1 }");
    let out = a.run("subako-tiny", &size);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("\"nosuch\", which is not a module of mytool (its modules: mytool)"), "{}", text(&out));
    a.set_budget("budget = { mytool = 40000 }");

    let out = a.run("vendor/subako-tiny/size-report", &["--feature-costs"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("mytool  panic-message"), "{said}");
    assert!(said.contains("mytool  lean-alloc instead of dlmalloc"), "{said}");
    // The scaffold forwards the typed layer, so its cost is priced too.
    assert!(said.contains("mytool  miniserde"), "{said}");

    let explain = ["size", "--manifest-path", "Cargo.toml", "--explain", "mytool", "--quick", "--check"];
    let out = a.run("subako-tiny", &explain);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("within budget"), "{said}");
    for want in ["sections", "code by crate", "largest 25 functions", "mytool::greet", "subako_tiny", "std routines"] {
        assert!(said.contains(want), "no {want:?} in:\n{said}");
    }
    assert!(said.contains("mytool (dlmalloc; package mytool)"), "{said}");
    // A second binary that does not build yet stops no look at this one
    // (author trial 51: every binary was built for one's --explain).
    let broken = a.package.join("src/bin/draft.rs");
    std::fs::create_dir_all(broken.parent().unwrap()).unwrap();
    std::fs::write(&broken, "fn main() { let x: u8 = \"not a number\"; }\n").unwrap();
    let out = a.run("subako-tiny", &["size", "--manifest-path", "Cargo.toml", "--explain", "mytool", "--quick"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("mytool (dlmalloc; package mytool)"), "{said}");
    std::fs::remove_dir_all(broken.parent().unwrap()).unwrap();
    // It measures the build the package's defaults make, whichever allocator that is.
    let manifest = a.package.join("Cargo.toml");
    let text0 = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text0.replace("default = [\"dlmalloc\"]", "default = [\"lean-alloc\"]")).unwrap();
    let out = a.run("subako-tiny", &["size", "--manifest-path", "Cargo.toml", "--explain", "mytool", "--quick"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("mytool (lean; package mytool)"), "{said}");

    // --features and --no-default-features measure the build they choose,
    // each allocator's, and say so (author trial 86: no way to measure a
    // package's own feature); a feature it lacks is refused, naming those
    // it has.
    std::fs::write(&manifest, text0.replace("[features]\n", "[features]\nshout = []\n")).unwrap();
    let main = a.package.join("src/main.rs");
    let main0 = std::fs::read_to_string(&main).unwrap();
    let about = "#[cfg(feature = \"shout\")]\nconst ABOUT: &str = \"Says hello, loudly, in a description long enough to be seen.\";\n\
                 #[cfg(not(feature = \"shout\"))]\nconst ABOUT: &str = \"Says hello.\";\n\npub const PACKAGE";
    assert!(main0.contains("env!(\"CARGO_PKG_DESCRIPTION\")"), "{main0}");
    std::fs::write(
        &main,
        main0.replace("env!(\"CARGO_PKG_DESCRIPTION\")", "ABOUT").replace("pub const PACKAGE", about),
    )
    .unwrap();
    let rows = |extra: &[&str]| {
        let args = [&["size", "--manifest-path", "Cargo.toml", "--quick", "--no-advice", "--json"][..], extra].concat();
        let out = a.run("subako-tiny", &args);
        assert!(out.status.success(), "{extra:?}: {}", text(&out));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let bytes: Vec<(String, u64)> = report["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["allocator"].as_str().unwrap().to_string(), r["bytes"].as_u64().unwrap()))
            .collect();
        (bytes, report["notes"].to_string())
    };
    let (plain, notes) = rows(&[]);
    assert!(!notes.contains("built with"), "{notes}");
    let (shouted, notes) = rows(&["--features", "shout"]);
    assert!(notes.contains("built with --features shout: not as the package's defaults alone"), "{notes}");
    assert_eq!(plain.len(), 2, "{plain:?}");
    assert_eq!(shouted.len(), 2, "{shouted:?}");
    for ((allocator, before), (same, after)) in plain.iter().zip(&shouted) {
        assert_eq!(allocator, same);
        assert!(after > before, "{allocator}: --features shout built {after} bytes, the defaults {before}");
    }
    // As cargo reads them: a name twice is one, `default` the defaults (review 92).
    let (again, notes) = rows(&["--no-default-features", "--features", "shout,shout,default"]);
    assert!(notes.contains("built with --features shout: not"), "{notes}");
    assert_eq!(again, shouted);
    let (lean_only, notes) = rows(&["--no-default-features", "--features", "lean-alloc,shout"]);
    assert!(notes.contains("built with --no-default-features --features lean-alloc,shout"), "{notes}");
    assert_eq!(lean_only, shouted, "the same two builds, the lean one chosen");
    let out = a.run("subako-tiny", &["size", "--manifest-path", "Cargo.toml", "--quick", "--features", "shuot"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains(
            "--features shuot: package mytool has no such feature (its features: dlmalloc, lean-alloc, miniserde, panic-message, shout)"
        ),
        "{}",
        text(&out)
    );
    let out = a.run(
        "subako-tiny",
        &["size", "--manifest-path", "Cargo.toml", "--explain", "mytool", "--quick", "--features", "shout"],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("mytool (dlmalloc; package mytool)"), "{}", text(&out));
    std::fs::write(&main, &main0).unwrap();
    std::fs::write(&manifest, &text0).unwrap();

    // Tools that need a feature the package turns on by default (`typed!`
    // needs miniserde): it is priced as required, and the rest still are.
    let main = a.package.join("src/main.rs");
    let main0 = std::fs::read_to_string(&main).unwrap();
    std::fs::write(&main, format!("{main0}\n#[allow(unused_imports)]\nuse subako_tiny::typed::miniserde as _;\n"))
        .unwrap();
    std::fs::write(&manifest, text0.replace("default = [\"dlmalloc\"]", "default = [\"dlmalloc\", \"miniserde\"]"))
        .unwrap();
    let costs = ["size", "--manifest-path", "Cargo.toml", "--feature-costs", "--quick", "--no-advice"];
    let out = a.run("subako-tiny", &costs);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("mytool: does not build without miniserde, so it is required (error"), "{said}");
    for want in ["required by the module", "mytool  panic-message", "mytool  lean-alloc instead of dlmalloc"] {
        assert!(said.contains(want), "no {want:?} in:\n{said}");
    }
    std::fs::write(&main, main0).unwrap();
    std::fs::write(&manifest, text0).unwrap();

    // The measured call the settings name (author trials 75 and 78), and
    // the options over it (review 80): `--args` alone keeps the settings'
    // tool, a tool named alone gets arguments made from its schema.
    let text0 = std::fs::read_to_string(&manifest).unwrap();
    let settings = "[package.metadata.subako-tiny]\ntool = \"greet\"\nargs = { name = \"Ada\" }\n";
    std::fs::write(&manifest, text0.replace("[package.metadata.subako-tiny]\n", settings)).unwrap();
    let measured = |extra: &[&str]| {
        let mut args = vec!["size", "--manifest-path", "Cargo.toml", "--quick", "--no-advice", "--json"];
        args.extend(extra);
        let out = a.run("subako-tiny", &args);
        assert!(out.status.success(), "{}", text(&out));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let row = &report["rows"][0];
        (row["tool"].clone(), row["args"].clone())
    };
    let greet = serde_json::json!("greet");
    assert_eq!(measured(&[]), (greet.clone(), serde_json::json!({"name": "Ada"})));
    assert_eq!(measured(&["--args", r#"{"name":"Bo"}"#]), (greet.clone(), serde_json::json!({"name": "Bo"})));
    assert_eq!(measured(&["--tool", "greet"]), (greet.clone(), serde_json::json!({"name": "Ada"})));
    // A misspelt tool: the first measured, and said (review 81).
    std::fs::write(&manifest, text0.replace("[package.metadata.subako-tiny]\n", &settings.replace("greet", "gret")))
        .unwrap();
    let out = a.run("subako-tiny", &["size", "--manifest-path", "Cargo.toml", "--quick", "--no-advice"]);
    let said = text(&out);
    assert!(said.contains(r#"the settings' tool "gret" (package.metadata.subako-tiny.tool) is not one of this module's tools (greet): measured greet instead"#), "{said}");
    std::fs::write(&manifest, &text0).unwrap();
    assert_eq!(measured(&["--tool", "greet"]), (greet, serde_json::json!({"name": "world"})));
    // A `--then` call that fails is said as its own; the measured call's
    // figures stand (review 81: it was told as the measured call's).
    let then = ["--then", "greet", "{}"];
    let out = a.run(
        "subako-tiny",
        &[&["size", "--manifest-path", "Cargo.toml", "--no-advice", "--calls", "1", "--compiles", "1"][..], &then]
            .concat(),
    );
    let said = text(&out);
    assert!(
        said.contains(
            "warning: call 2 (--then greet), after the measured call, answered isError: invalid input: missing \
             field `name`: the measured call's figures are its own"
        ),
        "{said}"
    );
    assert!(!said.contains("the measured call greet answered"), "{said}");

    let out = a.run("cargo", &["doc", "-p", "subako-tiny", "--no-deps"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(a.target.join("doc/subako_tiny/index.html").is_file());
    // The typed layer's page, as the guide says to build it (Cargo refuses
    // `-p subako-tiny --features …` outside the workspace).
    let out = a.run("cargo", &["doc", "--features", "miniserde"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(a.target.join("doc/subako_tiny/typed/index.html").is_file());
}
