// `additionalProperties` must be a schema: true, false or an object.
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
        "Greet.",
        r#"{
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "additionalProperties": "no"
        }"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
