// A `minimum` above the `maximum` beside it leaves no valid value.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new(
        "pick",
        "Pick.",
        r#"{
            "type": "object",
            "properties": {"n": {"type": "number", "minimum": 10, "maximum": 1e0}}
        }"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
