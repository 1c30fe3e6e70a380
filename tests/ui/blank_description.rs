// A package's description may not be empty or blank: Subako shows it to
// the model, and its upload check refuses a blank one.
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn run(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("ok"))
}

const PACKAGE: Package = Package::new(
    "blank",
    "0.1.0",
    " \n",
    &[Tool::new("greet", "Greet.", r#"{"type": "object"}"#, run)],
);

fn main() {
    let _ = PACKAGE.name;
}
