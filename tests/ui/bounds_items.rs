// A `minItems` above the `maxItems` beside it leaves no valid array.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new(
        "ids",
        "Take ids.",
        r#"{
            "type": "object",
            "properties": {"ids": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 1}}
        }"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
