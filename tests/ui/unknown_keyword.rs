// A keyword outside JSON Schema 2020-12 fails the build, with the known
// keyword nearest to it.
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
        "A misspelt keyword.",
        r#"{"type": "object", "properties": {"name": {"type": "string"}}, "requried": ["name"]}"#,
        run,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
