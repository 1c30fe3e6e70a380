//! Schemas that cannot drift from what is checked.
//!
//! Two layers:
//!
//! - **Every tool**, at build time ([`rules::check_tool_schema`], called by
//!   [`Package::new`](crate::Package::new)): JSON (a syntax error is told
//!   by line and column inside the schema string, with the text there), an
//!   object root saying `"type": "object"`, every keyword one of JSON
//!   Schema 2020-12's (the list in `schema::keywords`) or an extension marked `x-`
//!   (a misspelt one is named with the nearest known keyword and the JSON
//!   Pointer of its schema), every keyword's value of the kind it takes
//!   (`"type": "integr"` is refused with the nearest type's name,
//!   `"minimum": "0"` because a number is due, a count past `u64`, an
//!   `items` that is a list (2020-12's `prefixItems`), a `required` that is
//!   not an array of distinct strings, an `enum` that is not a non-empty
//!   array…),
//!   no lower bound above its upper one (`minimum` and `maximum`, compared
//!   exactly, and not below an exclusive one; the `Length`, `Items`,
//!   `Properties` and `Contains` pairs), no
//!   key written twice in one object, no name written with an escape
//!   other than `\"` or `\\` (names are compared as written), no `$ref`,
//!   `$defs` or `definitions` (MCP clients reject them), and every name in
//!   a `required` list present in the `properties` beside it. Each refusal
//!   gives the line and column of the text to fix. Keywords are looked for
//!   only where a schema is: not among `properties`' names, in `enum`,
//!   `const`, `default` or `examples` values, or inside an `x-` extension.
//!   This costs a module nothing: it runs in the compiler.
//! - **Tools that opt in** with [`validated!`](crate::validated): the
//!   arguments are checked against the tool's own input schema before the
//!   tool runs, and a schema that says anything the check does not enforce
//!   fails the build. Modules that do not use it carry none of its code.
//! - **Host tests**: `subako_tiny::testing::call` (off wasm32) checks every
//!   `structuredContent` against the tool's output schema with the same
//!   validator, and refuses one that holds a member twice.
//!
//! ```
//! use subako_tiny::{Args, JsonWriter, Package, Reply, Tool, ToolError};
//!
//! const SQUARE_INPUT: &str = r#"{
//!     "type": "object",
//!     "properties": {"n": {"type": "integer", "minimum": -1000, "maximum": 1000}},
//!     "required": ["n"]
//! }"#;
//!
//! fn square(args: &Args<'_>) -> Result<Reply, ToolError> {
//!     let n = args.int("n", -1000, 1000)?;
//!     let mut out = JsonWriter::new();
//!     out.begin_object().key("square").int(n * n).end_object();
//!     Ok(Reply::json(out))
//! }
//!
//! const PACKAGE: Package = Package::new("math", "0.1.0", "Squares.", &[subako_tiny::validated!(Tool::new(
//!     "square",
//!     "Square an integer.",
//!     SQUARE_INPUT,
//!     square,
//! ))]);
//! # let call = |args: &str| {
//! #     let line = [r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"square","arguments":"#, args,
//! #         r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#].concat();
//! #     String::from_utf8(subako_tiny::execute(&PACKAGE, &["math"], line.as_bytes()).0).unwrap()
//! # };
//! # assert!(call(r#"{"n":12}"#).contains(r#""structuredContent":{"square":144}"#));
//! # assert!(call(r#"{"n":1e3}"#).contains(r#""text":"invalid input: /n must be an integer, written without a fraction or exponent""#));
//! # assert!(call(r#"{"n":"12"}"#).contains(r#""text":"invalid input: /n must be an integer""#));
//! # assert!(call(r#"{"n":1001}"#).contains(r#""text":"invalid input: /n must be at most 1000""#));
//! ```
//!
//! ## The subset `validated!` checks
//!
//! | keyword | rule |
//! |---|---|
//! | `type` | a name or a list of names: `null`, `boolean`, `object`, `array`, `number`, `string`, and `integer` (a number written without fraction or exponent, as `Args::int` and serde read one — stricter than JSON Schema, which also takes `1.0`) |
//! | `properties`, `required`, `additionalProperties` (`true`, `false` or a schema) | objects, nested to any depth the schema has |
//! | `items` (one schema), `minItems`, `maxItems` | arrays |
//! | `minLength`, `maxLength` | strings, counted in Unicode scalar values |
//! | `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numbers) | integers within `i64` or `u64` compared exactly; other numbers (a fraction, an exponent, an integer past 64 bits) as the `f64` nearest them, so `1e-400` is 0 and `0.99999999999999999999` is 1 |
//! | `enum`, `const` | JSON equality (`1` equals `1.0`, member order ignored; numbers as the bounds compare them); an object that writes a key twice equals no value that writes each key once |
//! | `description`, `title`, `default`, `examples`, `deprecated`, `readOnly`, `writeOnly`, `$schema`, `$comment`, `format`, and `x-` extensions | annotations: no rule. **`format` is not checked.** |
//!
//! Anything else (`pattern`, `anyOf`, `oneOf`, `allOf`, `not`,
//! `patternProperties`, `uniqueItems`, `multipleOf`, …) fails the build
//! under `validated!`. `pattern` is out because a regex engine is not
//! small: check such strings in the tool.
//!
//! A failure is the tool's isError result, naming the value by its JSON
//! Pointer and the rule it breaks, the first one found in schema order
//! (`type` first): `invalid input: /items/3/qty must be at most 1000`,
//! `invalid input: /currency must be one of "EUR", "USD", "JPY", not "GBP"`,
//! `invalid input: /items is required`. The arguments object itself is
//! written `/` (RFC 6901 writes the root as the empty string, which reads
//! badly in a sentence; a member named with the empty string is also `/`).
//!
//! The schema is read at each call with the crate's own reader, from a
//! copy `validated!` makes at build time without its white space and
//! annotations (`description`, `examples`, `x-`…, which only the model
//! reads); an array's item schema is read once for all its items. The walk
//! follows the schema, so arguments nested deeper than the schema are not
//! walked. Each object of the arguments is
//! walked once, whatever the number of keywords, and a string's characters
//! are counted once for both bounds. Nothing is allocated unless a check
//! fails.

pub(crate) mod keywords;
pub(crate) mod rules;
pub(crate) mod syntax;
pub(crate) mod validate;

// What `validated!` expands to; hidden with the rest of its plumbing.
#[doc(hidden)]
pub use validate::check_args;
#[doc(hidden)]
pub use validate::check_checked;

use crate::build_message::BuildMessage;
use crate::json::validate;

/// Fails the build (from the `const` in [`validated!`](crate::validated))
/// unless `schema` is JSON that the validator checks in full. `site` names
/// the macro call in the message.
#[doc(hidden)]
pub const fn require_supported(schema: &str, site: &str) {
    if let Some(m) = supported(schema, site) {
        panic!("{}", m.as_str());
    }
}

/// What [`require_supported`] fails with, if anything.
#[doc(hidden)]
pub const fn supported(schema: &str, site: &str) -> Option<BuildMessage> {
    if let Err(e) = validate(schema.as_bytes()) {
        return Some(syntax::explain(
            schema.as_bytes(),
            e,
            BuildMessage::new().push(site).push(": the schema is not JSON"),
        ));
    }
    match rules::check_supported(schema.as_bytes()) {
        Ok(()) => None,
        Err(fault) => Some(fault.explain(schema, BuildMessage::new().push(site).push(": the schema"))),
    }
}

/// What a tool's `which` ("input" or "output") schema fails the build
/// with, if anything: `tool "greet": input schema is not JSON: expected
/// ':' at line 1, column 9, near …`, or a rule of [`rules`] it breaks.
#[doc(hidden)]
pub const fn tool_schema_fault(tool: &str, which: &str, schema: &str) -> Option<BuildMessage> {
    let b = schema.as_bytes();
    if let Err(e) = validate(b) {
        let head = BuildMessage::new()
            .push("tool ")
            .push_quoted(tool.as_bytes())
            .push(": ")
            .push(which)
            .push(" schema is not JSON");
        return Some(syntax::explain(b, e, head));
    }
    match rules::check_tool_schema(b) {
        Ok(()) => None,
        Err(fault) => {
            let head =
                BuildMessage::new().push("tool ").push_quoted(tool.as_bytes()).push(": ").push(which).push(" schema");
            Some(fault.explain(schema, head))
        }
    }
}

/// A tool's input schema proven JSON in the subset the validator checks
/// when it was made (by [`validated!`](crate::validated), in a `const`:
/// at build time), so a call reads it without checking it again.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct CheckedSchema {
    /// The schema's one value, without the white space around it.
    value: &'static [u8],
}

impl CheckedSchema {
    /// Tool `name`'s input schema, checked: fails (the build, in a
    /// `const`) unless the validator checks all of it.
    pub const fn new(name: &str, input_schema: &'static str) -> CheckedSchema {
        let b = input_schema.as_bytes();
        let site = BuildMessage::new().push("validated!: tool ").push_quoted(name.as_bytes());
        let (start, end) = match crate::json::validator::document(b, None) {
            Ok(span) => span,
            Err(e) => {
                let m = syntax::explain(b, e, site.push(": input schema is not JSON"));
                panic!("{}", m.as_str());
            }
        };
        if let Err(fault) = rules::check_supported(b) {
            let m = fault.explain(input_schema, site.push(": input schema"));
            panic!("{}", m.as_str());
        }
        CheckedSchema { value: b.split_at(end).0.split_at(start).1 }
    }

    /// The same schema as `compact`, its text as the validator reads it
    /// (what `validated!` keeps in the module, rather than the text as
    /// written: without white space and annotations).
    #[must_use]
    pub const fn compacted(self, compact: &'static [u8]) -> CheckedSchema {
        CheckedSchema { value: compact }
    }

    /// The schema as a value of the crate's reader.
    pub(crate) fn value(self) -> crate::json::Value<'static> {
        crate::json::Value { raw: self.value }
    }
}

/// What the two-argument form of [`validated!`](crate::validated) calls,
/// so that it warns.
#[doc(hidden)]
#[deprecated(note = "write `validated!(Tool::new(name, description, SCHEMA, tool))`, which names the schema once")]
pub const fn validated_schema_and_tool() {}

/// A tool whose arguments are checked against its own input schema
/// before its function runs; a failure is an isError `invalid input: …`
/// naming the path and the rule. Fails the build if the schema uses a
/// keyword outside the checked subset (see [`schema`](crate::schema)).
///
/// Give it the whole [`Tool`](crate::Tool), so that the schema checked is
/// the one the tool declares:
///
/// ```
/// use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing, validated};
///
/// const INPUT: &str = r#"{"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}}, "required": ["n"]}"#;
///
/// fn double(args: &Args<'_>) -> Result<Reply, ToolError> {
///     let n = args.int("n", i64::MIN, i64::MAX)?;
///     Ok(Reply::object(|o| o.field("double", 2 * n)))
/// }
///
/// const PACKAGE: Package = Package::new("math", "0.1.0", "Doubles.", &[validated!(Tool::new(
///     "double",
///     "Double a digit.",
///     INPUT,
///     double,
/// ))]);
///
/// assert_eq!(testing::call(&PACKAGE, "double", r#"{"n": 4}"#).text(), r#"{"double":8}"#);
/// assert_eq!(testing::call(&PACKAGE, "double", r#"{"n": 10}"#).text(), "invalid input: /n must be at most 9");
/// ```
///
/// Anything after `Tool::new(…)` (`.output_schema(…)`) is kept. The
/// function the macro makes is named after the tool's function when that
/// is a name (or `typed!(name)`): `PACKAGE::double::validated` in
/// `subako-tiny size --explain`, so each tool's validator is told apart.
/// Any other expression of a `Tool` works too, under a name of its own.
///
/// The older form `validated!(SCHEMA, tool)`, which names the schema a
/// second time in `Tool::new`, still builds and is deprecated.
#[macro_export]
macro_rules! validated {
    (Tool::new($name:expr, $description:expr, $schema:expr, $($run:tt)+) $($rest:tt)*) => {
        $crate::__validated!([Tool::new($name, $description, $schema, $($run)+) $($rest)*] $($run)+)
    };
    ($krate:ident :: Tool::new($name:expr, $description:expr, $schema:expr, $($run:tt)+) $($rest:tt)*) => {
        $crate::__validated!([$krate::Tool::new($name, $description, $schema, $($run)+) $($rest)*] $($run)+)
    };
    ($schema:expr, $tool:expr $(,)?) => {{
        const _: () = $crate::__private::validated_schema_and_tool();
        const _: () = $crate::__private::require_supported(
            $schema,
            ::core::concat!("validated!(", ::core::stringify!($schema), ", ", ::core::stringify!($tool), ")"),
        );
        fn validated(args: &$crate::Args<'_>) -> ::core::result::Result<$crate::Reply, $crate::ToolError> {
            $crate::__private::check_args($schema, args)?;
            ($tool)(args)
        }
        validated as $crate::ToolFn
    }};
    ($tool:expr $(,)?) => {
        $crate::__validated!(@named validated [$tool])
    };
}

/// [`validated!`]'s work: the name its function goes by, from the tool's
/// function (`run`, `typed!(run)`), then the tool with that function.
#[doc(hidden)]
#[macro_export]
macro_rules! __validated {
    ([$($tool:tt)*] $run:ident $(,)?) => {
        $crate::__validated!(@named $run [$($tool)*])
    };
    ([$($tool:tt)*] $($wrapper:ident)::+ ! ($run:ident $(,)?) $(,)?) => {
        $crate::__validated!(@named $run [$($tool)*])
    };
    ([$($tool:tt)*] $($other:tt)+) => {
        $crate::__validated!(@named validated [$($tool)*])
    };
    (@named $name:ident [$($tool:tt)*]) => {{
        const __SUBAKO_TOOL: $crate::Tool = $($tool)*;
        // Checked as written, kept as the validator reads it: without
        // white space and the annotations.
        static __SUBAKO_SCHEMA_TEXT: [u8; $crate::__private::validator_len(__SUBAKO_TOOL.input_schema)] =
            $crate::__private::validator_array(__SUBAKO_TOOL.input_schema);
        const __SUBAKO_SCHEMA: $crate::__private::CheckedSchema =
            $crate::__private::CheckedSchema::new(__SUBAKO_TOOL.name, __SUBAKO_TOOL.input_schema)
                .compacted(&__SUBAKO_SCHEMA_TEXT);
        // A block of its own: `$name` may be the tool's function, which
        // the tool above names.
        {
            // Never in a module: it runs in the compiler, and makes the
            // validator's path `…::$name::validated`.
            const fn $name() -> $crate::ToolFn {
                fn validated(args: &$crate::Args<'_>) -> ::core::result::Result<$crate::Reply, $crate::ToolError> {
                    $crate::__private::check_checked(__SUBAKO_SCHEMA, args)?;
                    (__SUBAKO_TOOL.run)(args)
                }
                validated
            }
            $crate::__private::with_run(__SUBAKO_TOOL, $name())
        }
    }};
}

#[cfg(test)]
mod tests;
