//! `count`: the characters of `text`, behind `validated!` (object keywords
//! and string bounds): benches/validated.sh runs it beside the same tool on
//! the official SDK (`../official`).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::{Args, Package, Reply, Tool, ToolError, chars};

const INPUT: &str = r#"{"type":"object","properties":{"text":{"type":"string","minLength":1,"maxLength":1000000}},"required":["text"],"additionalProperties":false}"#;

fn count(args: &Args<'_>) -> Result<Reply, ToolError> {
    let text = args.str("text")?;
    let n = chars::count(&text) as u64;
    Ok(Reply::object(|o| o.field("chars", n)))
}

pub const PACKAGE: Package = Package::new(
    "validated-count",
    "0.1.0",
    "Counts characters.",
    &[subako_tiny::validated!(Tool::new("count", "Count the characters of text.", INPUT, count))],
);

subako_tiny::main!(PACKAGE);
