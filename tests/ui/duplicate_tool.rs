// Two tools with one name fail the build.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const SCHEMA: &str = r#"{"type": "object"}"#;

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad tables.",
    &[Tool::new("twice", "The first.", SCHEMA, run), Tool::new("twice", "The second.", SCHEMA, run)],
);

fn main() {
    let _ = PACKAGE.name;
}
