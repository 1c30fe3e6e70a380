//! The seed's hello package: one tool, `greet`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn greet(args: &Args<'_>) -> Result<Reply, ToolError> {
    let name = args.str("name")?;
    Ok(Reply::object(|o| o.text("message", ("Hello, ", &name, "!"))))
}

pub const PACKAGE: Package = Package::new(
    "hello",
    env!("CARGO_PKG_VERSION"),
    "Says hello.",
    &[Tool::new(
        "greet",
        "Greet someone by name.",
        r#"{
            "properties": {"name": {"description": "Who to greet.", "type": "string"}},
            "required": ["name"],
            "type": "object"
        }"#,
        greet,
    )
    .output_schema(r#"{"properties": {"message": {"type": "string"}}, "required": ["message"], "type": "object"}"#)],
);

subako_tiny::main!(PACKAGE);
