//! A package as a `const` table, checked when it is built.
//!
//! [`Package::new`] is a `const fn` that refuses (with a build error naming
//! the tool) schemas that are not JSON, schemas whose root is not an
//! object, and duplicate or empty names. Because the package is a `const`,
//! a mistake never reaches a module.

use crate::args::Args;
use crate::json::read::validate;
use crate::reply::{Reply, ToolError};

/// What a tool runs: a plain function of its arguments.
pub type ToolFn = fn(&Args<'_>) -> Result<Reply, ToolError>;

/// One tool a package serves.
#[derive(Clone, Copy)]
pub struct Tool {
    pub name: &'static str,
    /// What the model reads to decide when to call it.
    pub description: &'static str,
    /// A JSON Schema, written by hand; white space is taken out when it is sent.
    pub input_schema: &'static str,
    pub output_schema: Option<&'static str>,
    pub run: ToolFn,
}

/// A package: who it is and the tools it serves.
#[derive(Clone, Copy)]
pub struct Package {
    pub name: &'static str,
    /// Reported as `serverInfo.version` in every result.
    pub version: &'static str,
    pub description: &'static str,
    pub tools: &'static [Tool],
    /// Longest request line read, newline excluded; longer lines are
    /// answered with an error and skipped. See [`Package::max_line`].
    pub max_line: usize,
}

/// Lines longer than this are refused unless a package says otherwise.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

impl Package {
    /// The package, checked at build time when used in a `const`.
    pub const fn new(
        name: &'static str,
        version: &'static str,
        description: &'static str,
        tools: &'static [Tool],
    ) -> Package {
        if name.is_empty() {
            Message::new().push("the package needs a name").fail();
        }
        if description.is_empty() {
            Message::new().push("package `").push(name).push("` needs a description").fail();
        }
        let mut i = 0;
        while i < tools.len() {
            tools[i].check();
            let mut j = 0;
            while j < i {
                if str_eq(tools[i].name, tools[j].name) {
                    Message::new().push("tool `").push(tools[i].name).push("` is listed twice").fail();
                }
                j += 1;
            }
            i += 1;
        }
        Package { name, version, description, tools, max_line: DEFAULT_MAX_LINE }
    }

    /// The same package reading request lines of up to `bytes` bytes.
    pub const fn max_line(mut self, bytes: usize) -> Package {
        self.max_line = bytes;
        self
    }

    /// The tool called `name`, if the package has one.
    pub fn tool(&self, name: &str) -> Option<&'static Tool> {
        self.tools.iter().find(|t| t.name == name)
    }
}

impl Tool {
    /// Fails the build if the tool's table entry is malformed.
    pub const fn check(&self) {
        if self.name.is_empty() {
            Message::new().push("a tool needs a name").fail();
        }
        if self.description.is_empty() {
            Message::new().push("tool `").push(self.name).push("` needs a description").fail();
        }
        check_schema(self.name, "input", self.input_schema);
        if let Some(schema) = self.output_schema {
            check_schema(self.name, "output", schema);
        }
    }
}

const fn check_schema(tool: &str, which: &str, schema: &str) {
    let b = schema.as_bytes();
    if let Err(e) = validate(b) {
        Message::new()
            .push("tool `")
            .push(tool)
            .push("`: ")
            .push(which)
            .push(" schema is not JSON (")
            .push(e.kind.describe())
            .push(")")
            .fail();
    }
    // An object root saying "type": "object", no `$ref`, `required` names
    // among the `properties`: see `schema::rules`.
    if let Err(fault) = crate::schema::rules::check_tool_schema(b) {
        fault.explain(schema, Message::new().push("tool `").push(tool).push("`: ").push(which).push(" schema")).fail();
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A build-time error message: `const fn`s cannot format, so the pieces
/// are copied into a fixed buffer and the buffer is the panic message.
pub struct Message {
    buf: [u8; 256],
    len: usize,
}

impl Message {
    pub const fn new() -> Message {
        Message { buf: [0; 256], len: 0 }
    }

    pub const fn push(mut self, s: &str) -> Message {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && self.len < self.buf.len() {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// Stops const evaluation with this message.
    pub const fn fail(&self) -> ! {
        let (text, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(text) => panic!("{}", text),
            Err(_) => panic!("invalid package table"),
        }
    }
}

impl Default for Message {
    fn default() -> Message {
        Message::new()
    }
}
