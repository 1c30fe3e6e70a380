// A tool is made with `Tool::new`, so that a field added later breaks no
// package and nothing skips the checks: a struct literal does not build.
use subako_tiny::{Args, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const TOOL: Tool = Tool { name: "greet", description: "Greets.", input_schema: "{}", output_schema: None, run };

fn main() {
    let _ = TOOL.name;
}
