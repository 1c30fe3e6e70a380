// `enum` must be an array of the allowed values.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new(
        "convert",
        "Convert.",
        r#"{
            "type": "object",
            "properties": {"currency": {"type": "string", "enum": "EUR"}}
        }"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
