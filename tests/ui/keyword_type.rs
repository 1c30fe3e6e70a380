// A misspelt type name fails the build, with the nearest one.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new(
        "count",
        "Count.",
        r#"{
            "type": "object",
            "properties": {"n": {"type": "integr"}}
        }"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
