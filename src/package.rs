//! A package as a `const` table, checked when it is built.
//!
//! [`Package::new`] is a `const fn` that refuses (with a build error naming
//! the tool) schemas that are not JSON (saying where, by line and column),
//! schemas that break a rule of [`schema::rules`](crate::schema::rules)
//! (an unknown keyword, with the nearest known one), and duplicate or empty
//! names. Because the package is a `const`,
//! a mistake never reaches a module.

use crate::args::Args;
use crate::build_message::BuildMessage;
use crate::reply::{Reply, ToolError};

/// What a tool runs: a plain function of its arguments.
pub type ToolFn = fn(&Args<'_>) -> Result<Reply, ToolError>;

/// One tool a package serves: made with [`Tool::new`] (and
/// [`output_schema`](Tool::output_schema)), checked by [`Package::new`].
///
/// ```
/// use subako_tiny::{Args, Reply, Tool, ToolError};
///
/// fn ping(_: &Args<'_>) -> Result<Reply, ToolError> {
///     Ok(Reply::text("pong"))
/// }
///
/// const PING: Tool = Tool::new("ping", "Answer pong.", r#"{"type": "object"}"#, ping)
///     .output_schema(r#"{"type": "object"}"#);
/// assert_eq!(PING.name, "ping");
/// assert_eq!(PING.output_schema, Some(r#"{"type": "object"}"#));
/// ```
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Tool {
    /// The name the model calls it by: unique in its package.
    pub name: &'static str,
    /// What the model reads to decide when to call it.
    pub description: &'static str,
    /// A JSON Schema, written by hand; white space is taken out when it is sent.
    pub input_schema: &'static str,
    /// A JSON Schema of the tool's `structuredContent`, if it declares one.
    pub output_schema: Option<&'static str>,
    /// The function that answers a call.
    pub run: ToolFn,
}

impl Tool {
    /// A tool with no output schema. Nothing is checked here: a `const`
    /// [`Package::new`] checks its tools when the package is built.
    #[must_use]
    pub const fn new(name: &'static str, description: &'static str, input_schema: &'static str, run: ToolFn) -> Tool {
        Tool { name, description, input_schema, output_schema: None, run }
    }

    /// The same tool declaring `schema` as its output schema.
    #[must_use]
    pub const fn output_schema(mut self, schema: &'static str) -> Tool {
        self.output_schema = Some(schema);
        self
    }
}

/// A package: who it is and the tools it serves, made with [`Package::new`].
///
/// ```
/// use subako_tiny::{Args, Package, Reply, Tool, ToolError};
///
/// fn ping(_: &Args<'_>) -> Result<Reply, ToolError> {
///     Ok(Reply::text("pong"))
/// }
///
/// const PACKAGE: Package =
///     Package::new("ping", "0.1.0", "Pongs.", &[Tool::new("ping", "Answer pong.", r#"{"type": "object"}"#, ping)])
///         .max_line(1 << 20);
/// assert_eq!(PACKAGE.tools.len(), 1);
/// assert_eq!(PACKAGE.max_line, 1 << 20);
/// ```
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Package {
    /// Reported as `serverInfo.name`, and the manifest's `name`.
    pub name: &'static str,
    /// Reported as `serverInfo.version` in every result.
    pub version: &'static str,
    /// The manifest's `description` (`--subako-manifest`).
    pub description: &'static str,
    /// The tools, in the order `tools/list` lists them.
    pub tools: &'static [Tool],
    /// Longest request line read, newline excluded; longer lines are
    /// answered with an error and skipped. See [`Package::max_line`].
    pub max_line: usize,
}

/// Lines longer than this are refused unless a package says otherwise.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

impl Package {
    /// The package, checked at build time when used in a `const`: a
    /// schema that is not JSON or breaks a rule, a missing name or
    /// description, or a name listed twice fails the build with a message
    /// naming the tool.
    #[must_use]
    pub const fn new(
        name: &'static str,
        version: &'static str,
        description: &'static str,
        tools: &'static [Tool],
    ) -> Package {
        // The panic is here, not in a helper, so that the build error shows
        // the message and this one frame.
        if let Some(message) = fault(name, description, tools) {
            panic!("{}", message.as_str());
        }
        Package { name, version, description, tools, max_line: DEFAULT_MAX_LINE }
    }

    /// The same package reading request lines of up to `bytes` bytes.
    #[must_use]
    pub const fn max_line(mut self, bytes: usize) -> Package {
        self.max_line = bytes;
        self
    }
}

impl Tool {
    /// The name or the description missing.
    const fn entry_fault(&self) -> Option<BuildMessage> {
        if self.name.is_empty() {
            return Some(BuildMessage::new().push("a tool needs a name"));
        }
        if self.description.is_empty() {
            return Some(
                BuildMessage::new().push("tool ").push_quoted(self.name.as_bytes()).push(" needs a description"),
            );
        }
        None
    }

    /// What a malformed table entry fails the build with, if anything.
    pub(crate) const fn fault(&self) -> Option<BuildMessage> {
        if let Some(m) = self.entry_fault() {
            return Some(m);
        }
        if let Some(m) = crate::schema::tool_schema_fault(self.name, "input", self.input_schema) {
            return Some(m);
        }
        if let Some(schema) = self.output_schema
            && let Some(m) = crate::schema::tool_schema_fault(self.name, "output", schema)
        {
            return Some(m);
        }
        None
    }
}

/// The schema text [`Package::new`] checks itself, in bytes: the tools
/// whose schemas fit in it, from the first (and the first in any case).
/// The checks cost rustc's const evaluation 20 to 30 steps a byte (a turn
/// of a loop or a call is a step; dense schemas full of bounds cost the
/// most), and it stops one constant at 2,000,000 (the deny-by-default
/// `long_running_const_eval` lint); so the schemas of a package larger
/// than this (hundreds of tools) are checked by [`main!`](crate::main)
/// instead, in [`PARTS`] constants of their own ([`check_part`]). Names,
/// descriptions and duplicates are always checked by `Package::new`.
pub const CHECK_BUDGET: usize = 32 * 1024;

/// How many constants [`main!`](crate::main) checks the rest of a large
/// package's schemas in: a package then builds with up to about 4 MB of
/// schemas.
pub const PARTS: usize = 64;

/// How many tools, from the first, [`Package::new`] checks in full.
pub const fn checked_by_new(tools: &[Tool]) -> usize {
    let mut total = 0;
    let mut i = 0;
    while i < tools.len() {
        total += tools[i].input_schema.len();
        if let Some(schema) = tools[i].output_schema {
            total += schema.len();
        }
        if total > CHECK_BUDGET && i > 0 {
            return i;
        }
        i += 1;
    }
    tools.len()
}

/// Fails the build if a tool that [`Package::new`] left to `main!` (see
/// `CHECK_BUDGET`), in the `part`th of `PARTS` shares, is malformed.
/// Called by [`main!`](crate::main), once per part, each its own constant.
pub const fn check_part(package: &Package, part: usize) {
    let tools = package.tools;
    let from = checked_by_new(tools);
    let rest = tools.len() - from;
    let mut i = from + rest * part / PARTS;
    let end = from + rest * (part + 1) / PARTS;
    while i < end {
        if let Some(message) = tools[i].fault() {
            panic!("{}", message.as_str());
        }
        i += 1;
    }
}

/// The [`check_part`] constants, one per part.
#[doc(hidden)]
#[macro_export]
macro_rules! __check_parts {
    ($package:ident) => {
        $crate::__check_parts!($package; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25
            26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58
            59 60 61 62 63);
    };
    ($package:ident; $($part:literal)*) => {
        $(const _: () = $crate::__private::check_part(&$package, $part);)*
    };
}

/// What [`Package::new`] fails with, if anything: the first malformed
/// entry. Linear in the table: each tool's name is checked for a twin
/// through a hash, not against every other name.
pub const fn fault(name: &str, description: &str, tools: &[Tool]) -> Option<BuildMessage> {
    if name.is_empty() {
        return Some(BuildMessage::new().push("the package needs a name"));
    }
    if blank(description.as_bytes()) {
        // A blank one too, as the platform's upload check (review 100).
        return Some(BuildMessage::new().push("package ").push_quoted(name.as_bytes()).push(
            " needs a description, which Subako shows the model (a package made by `subako-tiny new` \
             takes it from Cargo.toml's `description`)",
        ));
    }
    let checked = checked_by_new(tools);
    // Duplicate names: each name's hash marks a bit of `seen`, and only a
    // name whose bit is already set is compared with the names before it
    // (rarely: 65,536 bits for a few hundred names), instead of every pair.
    let mut seen = [0u64; 1024];
    let mut i = 0;
    while i < tools.len() {
        let tool = &tools[i];
        let fault = if i < checked { tool.fault() } else { tool.entry_fault() };
        if let Some(m) = fault {
            return Some(m);
        }
        let h = hash(tool.name.as_bytes()) % (seen.len() * 64);
        let bit = 1u64 << (h % 64);
        if seen[h / 64] & bit != 0 {
            let mut j = 0;
            while j < i {
                if str_eq(tool.name, tools[j].name) {
                    return Some(
                        BuildMessage::new().push("tool ").push_quoted(tool.name.as_bytes()).push(" is listed twice"),
                    );
                }
                j += 1;
            }
        }
        seen[h / 64] |= bit;
        i += 1;
    }
    None
}

/// A hash of a name (as the schema's keywords are hashed), its bits mixed
/// (Knuth's multiplicative step) so that its low 16 tell similar names apart.
const fn hash(b: &[u8]) -> usize {
    let h = crate::bytes::hash(b);
    ((h * 2_654_435_761) >> 15) as usize
}

/// Whether `b` is empty or ASCII white space alone.
const fn blank(b: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        if !matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
            return false;
        }
        i += 1;
    }
    true
}

const fn str_eq(a: &str, b: &str) -> bool {
    crate::bytes::same(a.as_bytes(), b.as_bytes())
}

/// `tool` answering with `run` (what [`validated!`](crate::validated)
/// wraps its function in).
#[doc(hidden)]
pub const fn with_run(tool: Tool, run: ToolFn) -> Tool {
    let mut tool = tool;
    tool.run = run;
    tool
}
