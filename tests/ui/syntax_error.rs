// A schema that is not JSON fails the build, saying where inside the
// schema string (line and column) and quoting the text there.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new(
        "greet",
        "A missing comma.",
        r#"{
        "type": "object",
        "properties": {"name": {"type": "string"} "age": {"type": "integer"}}
    }"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
