// A misspelt keyword deep in a schema (here the output schema) is found
// by its JSON Pointer.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "bad",
    "0.1.0",
    "Bad schemas.",
    &[Tool::new("age", "A misspelt bound.", r#"{"type": "object"}"#, run).output_schema(
        r#"{
        "type": "object",
        "properties": {
            "person": {"type": "object", "properties": {"age": {"type": "integer", "minimun": 0}}}
        }
    }"#,
    )],
);

fn main() {
    let _ = PACKAGE.name;
}
