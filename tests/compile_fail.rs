//! Package tables, schemas and messages the build refuses: each case in tests/ui
//! must fail to compile with the message in its `.stderr` file, naming the
//! tool (or the `validated!` call) and the rule. Regenerate the messages
//! with `TRYBUILD=overwrite cargo test --test compile_fail` and review the
//! diff. And what the build accepts: `x-` extensions, and a package of a
//! thousand tools.

use std::fmt::Write as _;
use std::process::Command;

use subako_tiny::{Args, Package, Reply, Tool, ToolError};

#[test]
fn bad_tables_fail_the_build() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

/// Keywords marked `x-` are extensions, anywhere a keyword can be, and
/// nothing inside them is read as a keyword: this builds.
const EXTENDED: Package = Package::new(
    "extended",
    "0.1.0",
    "Extensions.",
    &[Tool::new(
        "greet",
        "Greets.",
        r#"{"type": "object", "x-ui-order": ["name"],
        "properties": {"name": {"type": "string", "x-widget": {"requried": true, "$ref": "/x"}}},
        "required": ["name"]}"#,
        run,
    )
    .output_schema(r#"{"type": "object", "x-cache": 60}"#)],
);

#[test]
fn extensions_build_and_are_sent() {
    let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let (out, code) = subako_tiny::execute(&EXTENDED, &["extended"], line);
    assert_eq!(code, 0);
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains(r#""x-widget":{"requried":true,"$ref":"/x"}"#), "{out}");
    assert!(out.contains(r#""outputSchema":{"type":"object","x-cache":60}"#), "{out}");
}

/// A package of 1,000 tools, each with schemas the size of hello's, builds
/// (`cargo check` of a generated crate): rustc stops any one constant
/// after 2,000,000 steps, and the checks and the rendering stay inside it.
#[test]
fn a_thousand_tools_build() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("thousand-tools");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"thousand-tools\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [dependencies]\nsubako-tiny = {{ path = {:?} }}\n\n[workspace]\n",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's lock file: the same dependency versions, no resolving.
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let mut main = String::from(
        "use subako_tiny::{Args, Package, Reply, Tool, ToolError};\n\
         fn greet(_: &Args<'_>) -> Result<Reply, ToolError> { Ok(Reply::text(\"hi\")) }\n\
         pub const PACKAGE: Package = Package::new(\"many\", \"0.1.0\", \"Many tools.\", &[\n",
    );
    for i in 0..1000 {
        writeln!(
            main,
            r##"    Tool::new("tool_{i}", "Greet someone by name.",
        r#"{{"properties": {{"name": {{"description": "Who to greet.", "type": "string"}}}},
            "required": ["name"], "type": "object"}}"#, greet)
        .output_schema(r#"{{"properties": {{"message": {{"type": "string"}}}}, "required": ["message"], "type": "object"}}"#),"##
        )
        .unwrap();
    }
    main.push_str("]);\nsubako_tiny::main!(PACKAGE);\n");
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["check", "--quiet", "--offline"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "a 1,000-tool package does not build:\n{}", String::from_utf8_lossy(&out.stderr));
}

/// A typed package builds for wasm32-wasip1 from the docs alone: the
/// feature on, and miniserde through the crate's re-export, with no
/// dependency of its own; or with miniserde's default features off. With
/// them on, std comes too and the build fails as the docs say.
#[test]
fn a_typed_package_builds_the_first_time() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("typed-first-time");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let main = r##"#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
extern crate alloc;
use alloc::string::String;
use subako_tiny::typed::miniserde::{self, Deserialize, Serialize};
use subako_tiny::{Package, Tool, ToolError};

#[derive(Deserialize)]
struct Greeting { name: String }

#[derive(Serialize)]
struct Message { message: String }

fn greet(input: Greeting) -> Result<Message, ToolError> {
    Ok(Message { message: ["Hello, ", &input.name, "!"].concat() })
}

const PACKAGE: Package = Package::new("hello", "0.1.0", "Says hello.", &[Tool::new(
    "greet",
    "Greet someone by name.",
    r#"{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}"#,
    subako_tiny::typed!(greet),
)]);

subako_tiny::main!(PACKAGE);
"##;
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    let check = |own_dependency: &str| {
        let manifest = format!(
            "[package]\nname = \"typed-first-time\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nsubako-tiny = {{ path = {:?}, features = [\"miniserde\"] }}\n{own_dependency}\n\n[workspace]\n",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
        // Not `--offline`: on a fresh machine nothing has fetched miniserde
        // yet. The lock file copied above still fixes every version.
        Command::new(env!("CARGO"))
            .args(["check", "--quiet", "--target", "wasm32-wasip1"])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            .env_remove("RUSTFLAGS")
            .output()
            .expect("cargo runs")
    };
    let out = check("");
    assert!(out.status.success(), "through the re-export:\n{}", String::from_utf8_lossy(&out.stderr));
    let out = check("miniserde = { version = \"0.1\", default-features = false }");
    assert!(out.status.success(), "with the docs' dependency line:\n{}", String::from_utf8_lossy(&out.stderr));
    let out = check("miniserde = \"0.1\"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("duplicate lang item"), "with std's miniserde:\n{stderr}");
}
