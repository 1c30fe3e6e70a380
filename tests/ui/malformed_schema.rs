// A schema that is not JSON fails the build, naming the tool.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new("broken", "A trailing comma.", r#"{"type": "object", "properties": {},}"#, run)],
);

fn main() {
    let _ = PACKAGE.name;
}
