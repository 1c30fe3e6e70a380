// A property written twice: JSON readers keep one, so the schema says less than it seems.
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
            "properties": {
                "name": {"type": "string"},
                "name": {"type": "integer"}
            }
        }"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
