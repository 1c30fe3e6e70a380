// A schema whose root is not `"type": "object"` fails the build.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new("list", "An array root.", r#"{"type": "array", "items": {"type": "string"}}"#, run)],
);

fn main() {
    let _ = PACKAGE.name;
}
