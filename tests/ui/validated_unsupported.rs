// Under `validated!`, a keyword the validator does not check fails the
// build, so the schema never promises what is not checked.
use subako_tiny::{Args, Package, Reply, Tool, ToolError, validated};

const INPUT: &str = r#"{
    "type": "object",
    "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]+$"}},
    "required": ["sku"]
}"#;

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package =
    Package::new("bad", "0.1.0", "Bad schemas.", &[validated!(Tool::new("lookup", "Look a SKU up.", INPUT, run))]);

fn main() {
    let _ = PACKAGE.name;
}
