// `$ref` anywhere a keyword can be fails the build: clients reject it.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new("point", "A point.", r#"{"type": "object", "properties": {"x": {"type": "number"}}}"#, run)
        .output_schema(r#"{"type": "object", "properties": {"p": {"$ref": "/definitions/point"}}}"#)],
);

fn main() {
    let _ = PACKAGE.name;
}
