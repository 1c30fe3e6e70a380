// A `minLength` above the `maxLength` beside it leaves no valid string.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new(
        "code",
        "Take a code.",
        r#"{
            "type": "object",
            "properties": {"code": {"type": "string", "minLength": 4, "maxLength": 3}}
        }"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
