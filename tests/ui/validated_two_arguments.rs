// The older form, which names the schema twice, still builds but warns:
// here the warning is an error.
#![deny(deprecated)]
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

const INPUT: &str = r#"{"type": "object"}"#;

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "old",
    "0.1.0",
    "The old form.",
    &[Tool::new("run", "Run.", INPUT, subako_tiny::validated!(INPUT, run))],
);

fn main() {
    let _ = PACKAGE.name;
}
