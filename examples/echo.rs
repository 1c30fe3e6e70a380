//! The echo package: one tool, `echo`, that answers with its argument's
//! text copied `times` times. The tests use it to push memory to its limit
//! (a huge copy must end in an isError result, not a trap) and to echo
//! hostile text back.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

extern crate alloc;

use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn echo(args: &Args<'_>) -> Result<Reply, ToolError> {
    let text = args.str("text")?;
    let times = args.opt_int("times", 0, 100_000)?.unwrap_or(1);
    // Past 2 GiB (`isize::MAX` on wasm32) `repeat` would panic on the
    // length (review 66: "tool panicked" and std's line); below it,
    // running out of the call's memory is answered as such.
    if text.len() as u64 * times as u64 > i32::MAX as u64 {
        return Err(ToolError::from("invalid input: `text` copied `times` times is over 2 GiB: ask for fewer copies"));
    }
    let copied: alloc::string::String = text.repeat(times as usize);
    Ok(Reply::text(&copied))
}

pub const PACKAGE: Package = Package::new(
    "echo",
    env!("CARGO_PKG_VERSION"),
    "Echoes text back.",
    &[Tool::new(
        "echo",
        "Answer with `text`, copied `times` times (once by default).",
        r#"{
            "properties": {
                "text": {"description": "What to echo.", "type": "string"},
                "times": {"description": "How many copies.", "type": "integer", "minimum": 0, "maximum": 100000}
            },
            "required": ["text"],
            "type": "object"
        }"#,
        echo,
    )],
);

subako_tiny::main!(PACKAGE);
