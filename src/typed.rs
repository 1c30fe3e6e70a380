//! Typed tools (feature `miniserde`): a tool takes a
//! `miniserde::Deserialize` input and returns a `miniserde::Serialize`
//! output, and [`typed!`](crate::typed) makes it a [`ToolFn`](crate::ToolFn).
//!
//! ```
//! use miniserde::{Deserialize, Serialize};
//! use subako_tiny::{Package, Tool, ToolError};
//!
//! #[derive(Deserialize)]
//! struct Greeting { name: String }
//!
//! #[derive(Serialize)]
//! struct Message { message: String }
//!
//! fn greet(input: Greeting) -> Result<Message, ToolError> {
//!     Ok(Message { message: ["Hello, ", &input.name, "!"].concat() })
//! }
//!
//! const PACKAGE: Package = Package::new("hello", "0.1.0", "Says hello.", &[Tool::new(
//!     "greet",
//!     "Greet someone by name.",
//!     r#"{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}"#,
//!     subako_tiny::typed!(greet),
//! )]);
//! # let call = |args: &str| {
//! #     let line = [r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":"#, args,
//! #         r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#].concat();
//! #     String::from_utf8(subako_tiny::execute(&PACKAGE, &["hello"], line.as_bytes()).0).unwrap()
//! # };
//! # assert!(call(r#"{"name":"Ada"}"#).contains(r#""structuredContent":{"message":"Hello, Ada!"}"#));
//! # assert!(call(r#"{"name":1}"#).contains(r#""text":"invalid input: the arguments do not fit the tool's input type"#));
//! # const INPUT: &str = r#"{"properties":{"name":{"type":"string","maxLength":3}},"required":["name"],"type":"object"}"#;
//! # const CHECKED: Package = Package::new("hello", "0.1.0", "Says hello.", &[subako_tiny::validated!(Tool::new(
//! #     "greet", "Greet.", INPUT, subako_tiny::typed!(greet),
//! # ))]);
//! # let call = |args: &str| {
//! #     let line = [r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":"#, args,
//! #         r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#].concat();
//! #     String::from_utf8(subako_tiny::execute(&CHECKED, &["hello"], line.as_bytes()).0).unwrap()
//! # };
//! # assert!(call(r#"{"name":"Ada"}"#).contains(r#""structuredContent":{"message":"Hello, Ada!"}"#));
//! # assert!(call(r#"{"name":1}"#).contains(r#""text":"invalid input: /name must be a string""#));
//! # assert!(call(r#"{"name":"Adam"}"#).contains(r#""text":"invalid input: /name must be at most 3 characters long""#));
//! ```
//!
//! miniserde checks types and required fields but says nothing about
//! which one failed (its error is a unit struct), so a bad input is
//! answered `invalid input: the arguments do not fit the tool's input type
//! (…)`. For messages naming the path, wrap the typed tool in
//! [`validated!`](crate::validated), which checks the schema first:
//! `validated!(INPUT, typed!(tool))`. Ranges, lengths and the like are the
//! tool's to check, as the schema states them.

use miniserde::{Deserialize, Serialize, json};

use crate::args::Args;
use crate::json::JsonWriter;
use crate::reply::{Reply, ToolError};

/// What a bad input is told: all that miniserde's error allows.
pub const MISMATCH: &str = "the arguments do not fit the tool's input type (a required field is missing, or a value has the wrong type or is not one of those allowed)";

/// Reads the arguments as `I`, runs `tool`, and writes its `O` as the
/// reply's JSON value. No arguments at all read as `{}`.
pub fn call<I: Deserialize, O: Serialize>(
    args: &Args<'_>,
    tool: impl FnOnce(I) -> Result<O, ToolError>,
) -> Result<Reply, ToolError> {
    let text = match args.object() {
        Some(object) => object.as_value().as_json(),
        None => "{}",
    };
    let input = json::from_str::<I>(text).map_err(|_| ToolError::invalid_input(MISMATCH))?;
    let output = tool(input)?;
    // miniserde writes one whole value, numbers in range and each field
    // once: no check is due.
    let mut out = JsonWriter::whole();
    out.trusted_raw(json::to_string(&output).as_bytes());
    Ok(Reply::json(out))
}

/// A [`ToolFn`](crate::ToolFn) from a function of a `miniserde::Deserialize`
/// input to `Result<impl miniserde::Serialize, ToolError>`.
#[macro_export]
macro_rules! typed {
    ($tool:expr $(,)?) => {{
        fn typed(args: &$crate::Args<'_>) -> ::core::result::Result<$crate::Reply, $crate::ToolError> {
            $crate::typed::call(args, $tool)
        }
        typed as $crate::ToolFn
    }};
}
