//! A bug in a tool reaches the model as a readable isError result for that
//! request (then the module exits 0), not as a bare trap; and a package
//! built by the README's vendoring recipe starts at 2 memory pages.

use subako_tiny_e2e::{request, vendored};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

fn call(features: &[&str], tool: &str) -> (serde_json::Value, Exit, String, u64) {
    let module = Module::from_file(vendored(features)).unwrap();
    let stdin = request(serde_json::json!("call-1"), "tools/call", serde_json::json!({"name": tool, "arguments": {}}));
    let output =
        run(&module, &RunOptions { argv: vec!["vendored".into()], stdin: stdin.into_bytes(), ..RunOptions::default() })
            .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    (
        serde_json::from_str(&stdout).unwrap(),
        output.exit,
        String::from_utf8(output.stderr).unwrap(),
        output.pages_at_start,
    )
}

/// The line of `bug`'s `unwrap` in tests/e2e/vendored/src/main.rs.
fn bug_line() -> String {
    let source = include_str!("../vendored/src/main.rs");
    let line = source.lines().position(|l| l.contains("missing.unwrap()")).unwrap() + 1;
    format!("src/main.rs:{line})")
}

#[test]
fn a_panicking_tool_answers_its_request_with_where_it_panicked() {
    let (answer, exit, stderr, _) = call(&[], "bug");
    assert!(matches!(exit, Exit::Code(0)), "{exit:?}");
    assert_eq!(answer["id"], "call-1");
    let result = &answer["result"];
    assert_eq!(result["isError"], true);
    assert_eq!(result["resultType"], "complete");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(text, format!("tool panicked (at {}", bug_line()));
    assert_eq!(stderr, format!("panicked (at {}\n", bug_line()));
    // The start of the answer is the one every result has.
    let (fine, _, _, _) = call(&[], "fine");
    assert_eq!(answer["jsonrpc"], "2.0");
    assert_eq!(result["_meta"], fine["result"]["_meta"]);
    assert!(result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"].is_string(), "{answer}");
}

#[test]
fn with_panic_message_the_answer_says_what_too() {
    let (answer, exit, _, _) = call(&["panic-message"], "bug");
    assert!(matches!(exit, Exit::Code(0)), "{exit:?}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(text, format!("tool panicked: called `Option::unwrap()` on a `None` value (at {}", bug_line()));
}

#[test]
fn the_vendoring_recipe_gives_a_module_that_starts_at_two_pages() {
    let (answer, exit, stderr, pages) = call(&[], "fine");
    assert!(matches!(exit, Exit::Code(0)), "{exit:?}");
    assert!(stderr.is_empty());
    assert_eq!(answer["result"]["content"][0]["text"], "fine");
    assert!(pages <= 2, "starts at {pages} pages");
    let bytes = std::fs::read(vendored(&[])).unwrap();
    assert!(subako_tiny_runner::check(&bytes, None).accepted());
}

/// A package in a scratch directory whose tools panic with a long
/// multi-byte message and in a file at a long multi-byte path: the panic
/// answer is cut at 512 bytes, between characters, and a long message
/// is cut so that where it happened still fits.
fn long_multibyte_package() -> std::path::PathBuf {
    let root = subako_tiny_e2e::crate_root();
    let dir = tempfile::Builder::new().prefix("subako-panic-utf8").tempdir().unwrap().keep();
    // Three directories of 60 two-byte characters: a `file!()` of over 360 bytes.
    let deep: std::path::PathBuf = ["é", "ü", "ø"].iter().map(|c| c.repeat(60)).collect();
    std::fs::create_dir_all(dir.join("src").join(&deep)).unwrap();
    // Two of 45: a `file!()` of about 190 bytes, as a registry path is.
    let mid: std::path::PathBuf = ["ä", "ö"].iter().map(|c| c.repeat(45)).collect();
    std::fs::create_dir_all(dir.join("src").join(&mid)).unwrap();
    // A `file!()` of 430 bytes: room for a message's first words and the
    // whole place only when the answer's last bytes are counted (review 59).
    let long: std::path::PathBuf = [("à", 69), ("è", 69), ("ì", 70)].iter().map(|(c, n)| c.repeat(*n)).collect();
    std::fs::create_dir_all(dir.join("src").join(&long)).unwrap();
    let manifest = format!(
        "[package]\nname = \"utf8\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\nsubako-tiny = {{ path = {:?}, features = [\"panic-message\"] }}\n\n[workspace]\n\n{}",
        root.display().to_string(),
        "[profile.release]\nopt-level = \"z\"\nlto = true\ncodegen-units = 1\npanic = \"abort\"\nstrip = true\n",
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(root.join("tests/e2e/vendored/build.rs"), dir.join("build.rs")).unwrap();
    let euros = "€".repeat(210);
    std::fs::write(
        dir.join("src/main.rs"),
        format!(
            r##"#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
use subako_tiny::{{Args, Package, Reply, Tool, ToolError}};
#[path = {deep:?}]
mod deep;
#[path = {mid:?}]
mod mid;
#[path = {long:?}]
mod long;
fn euros(_: &Args<'_>) -> Result<Reply, ToolError> {{
    panic!("{euros}")
}}
const EMPTY: &str = r#"{{"type": "object", "properties": {{}}}}"#;
const PACKAGE: Package = Package::new("utf8", "0.1.0", "Panics.", &[
    Tool::new("deep", "Panics deep.", EMPTY, deep::deep),
    Tool::new("euros", "Panics in euros.", EMPTY, euros),
    Tool::new("mid", "Panics at length.", EMPTY, mid::mid),
    Tool::new("long", "Panics far down.", EMPTY, long::long),
]);
subako_tiny::main!(PACKAGE);
"##,
            deep = deep.join("deep.rs").display().to_string(),
            mid = mid.join("mid.rs").display().to_string(),
            long = long.join("long.rs").display().to_string(),
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("src").join(&long).join("long.rs"),
        format!("pub fn long(_: &subako_tiny::Args<'_>) -> Result<subako_tiny::Reply, subako_tiny::ToolError> {{\n    panic!(\"{}\")\n}}\n", "語".repeat(200)),
    )
    .unwrap();
    std::fs::write(
        dir.join("src").join(&mid).join("mid.rs"),
        format!("pub fn mid(_: &subako_tiny::Args<'_>) -> Result<subako_tiny::Reply, subako_tiny::ToolError> {{\n    panic!(\"{}\")\n}}\n", "語".repeat(200)),
    )
    .unwrap();
    std::fs::write(
        dir.join("src").join(&deep).join("deep.rs"),
        format!("pub fn deep(_: &subako_tiny::Args<'_>) -> Result<subako_tiny::Reply, subako_tiny::ToolError> {{\n    panic!(\"{}\")\n}}\n", "ß".repeat(100)),
    )
    .unwrap();
    let target = root.join("target/e2e/panic-utf8");
    let output = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&dir)
        .args(["build", "--quiet", "--release", "--target", "wasm32-wasip1", "--target-dir"])
        .arg(&target)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
    target.join("wasm32-wasip1/release/utf8.wasm")
}

#[test]
fn a_panic_answer_cut_short_is_still_utf8_json() {
    let module = Module::from_file(long_multibyte_package()).unwrap();
    for tool in ["euros", "deep", "mid", "long"] {
        let stdin = request(serde_json::json!(tool), "tools/call", serde_json::json!({"name": tool, "arguments": {}}));
        let output =
            run(&module, &RunOptions { argv: vec!["utf8".into()], stdin: stdin.into_bytes(), ..RunOptions::default() })
                .unwrap();
        assert!(matches!(output.exit, Exit::Code(0)), "{tool}: {:?}", output.exit);
        let stdout =
            String::from_utf8(output.stdout).unwrap_or_else(|e| panic!("{tool}: the answer is not UTF-8: {e}"));
        let answer: serde_json::Value =
            serde_json::from_str(stdout.trim_end()).unwrap_or_else(|e| panic!("{tool}: not JSON ({e}): {stdout}"));
        let text = answer["result"]["content"][0]["text"].as_str().unwrap();
        assert_eq!(answer["result"]["isError"], true);
        // Cut short: the message is there in part, as whole characters.
        let head = "tool panicked: ";
        let repeated = match tool {
            "euros" => '€',
            "mid" | "long" => '語',
            _ => 'ß',
        };
        assert!(text.starts_with(head), "{text}");
        assert!(text[head.len()..].starts_with(repeated), "{text}");
        if tool == "euros" {
            // The message is cut, not where it happened (review 56).
            assert!(text.len() > 350 && text.len() <= "tool ".len() + 512, "{} bytes: {text}", text.len());
            let (message, place) = text[head.len()..].split_once(" (at ").unwrap_or_else(|| panic!("no place: {text}"));
            assert!(message.chars().all(|c| c == '€'), "{text}");
            assert!(place.starts_with("src/main.rs:") && place.ends_with(')'), "{text}");
        } else if tool == "mid" {
            // A path of a registry's length still fits whole, line and all
            // (review 57: a fixed room left it cut).
            let (message, place) = text[head.len()..].split_once(" (at ").unwrap_or_else(|| panic!("no place: {text}"));
            assert!(message.chars().all(|c| c == '語') && message.len() > 64, "{text}");
            assert!(place.starts_with("src/ää") && place.ends_with("mid.rs:2)"), "{text}");
        } else if tool == "long" {
            let (message, place) = text[head.len()..].split_once(" (at ").unwrap_or_else(|| panic!("no place: {text}"));
            assert!(message.chars().all(|c| c == '語') && message.len() >= 30, "{text}");
            assert!(place.starts_with("src/àà") && place.ends_with("long.rs:2)"), "{text}");
        } else {
            // A path of hundreds of bytes: the message keeps its first
            // words, and the place is whole.
            let (message, place) = text[head.len()..].split_once(" (at ").unwrap_or_else(|| panic!("no place: {text}"));
            assert!(message.chars().all(|c| c == 'ß') && message.len() >= 32, "{text}");
            assert!(place.starts_with("src/éé") && place.ends_with("deep.rs:2)"), "{text}");
        }
        let stderr = String::from_utf8(output.stderr).unwrap_or_else(|e| panic!("{tool}: stderr is not UTF-8: {e}"));
        assert!(stderr.starts_with("panicked: "), "{stderr}");
    }
}
