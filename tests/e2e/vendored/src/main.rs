//! A package built as a vendoring user builds one, with a tool that has a
//! bug: `bug` unwraps a `None`, to show what the model reads then.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn bug(args: &Args<'_>) -> Result<Reply, ToolError> {
    let missing: Option<&str> = args.value("nothing").and(None);
    Ok(Reply::text(missing.unwrap())) // the line the answer names
}

fn fine(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("fine"))
}

const EMPTY: &str = r#"{"type": "object", "properties": {}}"#;

const PACKAGE: Package = Package::new(
    "vendored",
    "0.1.0",
    "Has a bug.",
    &[Tool::new("bug", "Panics.", EMPTY, bug), Tool::new("fine", "Answers.", EMPTY, fine)],
);

subako_tiny::main!(PACKAGE);
