// `minimum` must be a number, not a string holding one.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new(
        "age",
        "Take an age.",
        r#"{
            "type": "object",
            "properties": {"age": {"type": "integer", "minimum": "0"}}
        }"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
