//! # subako-tiny
//!
//! Subako function packages as tiny, fast-starting WebAssembly modules: a
//! `#![no_std]` crate that serves the whole Subako function ABI 1 (MCP,
//! stateless revision 2026-07-28, one JSON-RPC 2.0 message per line on
//! stdin/stdout) with no std, no serde and no `core::fmt` on the paths a
//! module uses by default.
//!
//! A package is a `const` table of tools with hand-written JSON Schemas and
//! plain functions:
//!
//! ```
//! use subako_tiny::{Args, Package, Reply, Tool, ToolError};
//!
//! fn greet(args: &Args<'_>) -> Result<Reply, ToolError> {
//!     let name = args.str("name")?;
//!     Ok(Reply::object(|o| o.text("message", ("Hello, ", &name, "!"))))
//! }
//!
//! const PACKAGE: Package = Package::new("hello", "0.1.0", "Says hello.", &[Tool::new(
//!     "greet",
//!     "Greet someone by name.",
//!     r#"{"properties":{"name":{"description":"Who to greet.","type":"string"}},"required":["name"],"type":"object"}"#,
//!     greet,
//! )]);
//!
//! let stdin = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
//! let (stdout, code) = subako_tiny::execute(&PACKAGE, &["hello"], stdin);
//! assert_eq!(code, 0);
//! assert!(stdout.ends_with(b"\"structuredContent\":{\"message\":\"Hello, Ada!\"}}}\n"));
//! ```
//!
//! and `subako_tiny::main!(PACKAGE);` makes it a program: a WASI command on
//! `wasm32-wasip1`, a std program everywhere else.
//!
//! The [`guide`] is the manual, chapter by chapter: writing a tool, the
//! schemas the build refuses, HTTP, files and images, host tests, typed
//! tools, keeping a module small (the crate's equivalents of std's heavy
//! idioms, priced), measuring a package, guarantees and limits, and what
//! differs from the official SDK. It travels with the crate, so
//! `cargo doc -p subako-tiny --open` shows it in a package that vendors it.
//!
//! ## What it will not do
//!
//! - Derive schemas: each tool's JSON Schema is written by hand (and
//!   checked when the package builds).
//! - Use serde: arguments are read through [`Args`] and replies written
//!   with [`Reply::object`] (other JSON with [`json::object`]);
//!   `miniserde` is an optional typed layer.
//! - Use `core::fmt` on a module's default paths: numbers are written by
//!   the crate's own digit and float writers, panics reported by where they happened.
//! - Run threads: a module is one single-threaded WASI command per call.
//! - Speak the component model or WASI preview 2: preview 1 only.
//! - Check a schema's regex `pattern`: a schema using it does not build
//!   with [`validated!`].
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks, clippy::return_self_not_must_use)]

extern crate alloc;

pub mod args;
mod bits;
mod build_message;
mod bytes;
pub mod case;
pub mod chars;
pub mod clock;
pub mod csv;
pub mod float;
pub mod fs;
pub mod guide;
pub mod http;
/// Inline images moved into [`reply`]: [`reply::base64`] and
/// [`Reply::with_image`].
#[deprecated(note = "moved: `subako_tiny::reply::base64`")]
#[doc(hidden)]
pub mod image {
    pub use crate::reply::base64;
}
pub mod json;
pub mod num;
mod package;
pub mod png;
mod protocol;
pub mod random;
mod rendered;
pub mod reply;
mod rt;
pub mod schema;
pub mod sort;
mod sys;
pub mod tally;
#[cfg(not(target_arch = "wasm32"))]
pub mod testing;
pub mod text;
#[cfg(feature = "miniserde")]
pub mod typed;

/// What the macros expand to: not API, and free to change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::package::{check_part, with_run};
    pub use crate::rendered::{Rendered, array, len, tool_fns, tool_names, validator_array, validator_len};
    pub use crate::rt::run;
    #[allow(deprecated)]
    pub use crate::schema::{CheckedSchema, check_args, check_checked, require_supported, validated_schema_and_tool};
    pub use crate::text::no_placeholder;
}

/// What the crate's own tests, fuzz targets and benches reach beneath the
/// API: not API, and free to change in any release.
#[doc(hidden)]
pub mod __test {
    /// The number writers beneath `JsonWriter` and `text!`.
    pub mod json_num {
        pub use crate::json::num::{u64_digits, usize_digits, write_f64, write_i64, write_u64, write_usize};
    }
    pub use crate::build_message::BuildMessage;
    #[cfg(not(target_arch = "wasm32"))]
    pub use crate::case::CANDIDATES as case_search_candidates;
    #[cfg(not(target_arch = "wasm32"))]
    pub use crate::case::ENTRIES as case_table_entries;
    #[cfg(not(target_arch = "wasm32"))]
    pub use crate::case::LOWERED as case_chars_lowered;
    #[cfg(not(target_arch = "wasm32"))]
    pub use crate::case::WALKS as case_table_walks;
    #[cfg(not(target_arch = "wasm32"))]
    pub use crate::chars::WALKS as alphanumeric_table_walks;
    #[cfg(not(target_arch = "wasm32"))]
    pub use crate::json::float::EXACT_RUNS as float_exact_runs;
    pub use crate::json::validator::validate_line;
    pub use crate::json::write::{compact_into, escape_into, put, put_byte, write_escaped};
    pub use crate::package::DEFAULT_MAX_LINE;
    pub use crate::protocol::{
        INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, Io, IoError, MANIFEST_FLAG, METHOD_NOT_FOUND, MemoryIo,
        PARSE_ERROR, RunPlain, RunTool, UNSUPPORTED_PROTOCOL_VERSION, serve, serve_line, serve_package,
    };
    pub use crate::rendered::{ABI, PROTOCOL_VERSION};
    pub use crate::rt::Guarded;
    pub use crate::schema::check_args;
    pub use crate::schema::rules::{Fault, check_supported, check_tool_schema};
}

/// The dlmalloc port with its invariant walkers, for the fuzz target
/// (`cfg(fuzzing)`, which cargo-fuzz sets); in no module.
#[cfg(fuzzing)]
#[doc(hidden)]
pub use sys::dlmalloc as __dlmalloc;

/// What a tool file uses, in one line: `use subako_tiny::prelude::*;`. It
/// brings the table types, the reply and error types, the writers, `text!`
/// and `fail!`, the JSON reader, and alloc's `Cow`, `String`, `Vec`,
/// `vec!` and `ToString`: a `no_std` tool file that uses only these needs
/// no `extern crate alloc`. For more of alloc (`Box`, `BTreeMap`), write
/// `extern crate alloc;` and import them from it: the host build has std,
/// so only the wasm32 build reports one missing (author trial 38 met that
/// with `vec!`, which is why it is here). `format!` is left out on
/// purpose: it links `core::fmt` (use [`text!`](crate::text!)).
///
/// ```
/// use subako_tiny::prelude::*;
///
/// fn greet(args: &Args<'_>) -> Result<Reply, ToolError> {
///     let name: Cow<'_, str> = args.str_or("name", "world")?;
///     if name.is_empty() {
///         fail!("`name` must not be empty");
///     }
///     Ok(Reply::object(|o| o.text("message", ("Hello, ", &name, "!"))))
/// }
/// # let args = json::parse(br#"{"name":"Ada"}"#).unwrap();
/// # let reply = greet(&Args::new(args.as_object().unwrap())).unwrap();
/// # assert_eq!(reply.structured(), Some(&br#"{"message":"Hello, Ada!"}"#[..]));
/// let mut seen: Vec<&str> = vec!["Ada"];
/// seen.push("Grace");
/// assert_eq!(seen.len(), 2);
/// ```
pub mod prelude {
    pub use crate::json::{self, ArrayWriter, JsonWriter, ObjectWriter, ToJson, Value};
    pub use crate::text::Text;
    pub use crate::{Args, Package, Reply, Tool, ToolError, ToolFn, fail, text};
    pub use alloc::borrow::{Cow, ToOwned};
    pub use alloc::string::{String, ToString};
    pub use alloc::vec;
    pub use alloc::vec::Vec;
}

pub use args::Args;
pub use json::{JsonWriter, Value};
pub use package::{Package, Tool, ToolFn};
pub use protocol::execute;
pub use reply::{Reply, ToolError};
pub use sys::log;

/// Makes `$package` (a constant [`Package`]) the program's entry point:
/// `__main_void` for wasi-libc's `_start` on wasm32, `main` elsewhere. The
/// package's fixed answers are rendered here, at build time. The crate root needs
/// `#![cfg_attr(target_arch = "wasm32", no_std, no_main)]`.
#[macro_export]
macro_rules! main {
    ($package:expr) => {
        const __SUBAKO_PACKAGE: $crate::Package = $package;
        // The schemas of a package too large for `Package::new` to check
        // in one constant, checked here in parts (nothing for most).
        $crate::__check_parts!(__SUBAKO_PACKAGE);
        // The package's fixed answers, rendered at build time: the module
        // keeps them and each tool's name and function, not the table.
        static __SUBAKO_TEXT: [u8; $crate::__private::len(&__SUBAKO_PACKAGE)] =
            $crate::__private::array(&__SUBAKO_PACKAGE);
        static __SUBAKO_TOOL_NAMES: [&str; __SUBAKO_PACKAGE.tools.len()] =
            $crate::__private::tool_names(&__SUBAKO_PACKAGE);
        static __SUBAKO_TOOL_FNS: [$crate::ToolFn; __SUBAKO_PACKAGE.tools.len()] =
            $crate::__private::tool_fns(&__SUBAKO_PACKAGE);
        static __SUBAKO_RENDERED: $crate::__private::Rendered<'static> = $crate::__private::Rendered::new(
            &__SUBAKO_PACKAGE,
            &__SUBAKO_TEXT,
            &__SUBAKO_TOOL_NAMES,
            &__SUBAKO_TOOL_FNS,
        );

        #[cfg(target_arch = "wasm32")]
        #[unsafe(no_mangle)]
        extern "C" fn __main_void() -> i32 {
            $crate::__private::run(&__SUBAKO_RENDERED)
        }

        #[cfg(not(target_arch = "wasm32"))]
        #[allow(dead_code)] // when a test includes the example as a module
        fn main() {
            ::std::process::exit($crate::__private::run(&__SUBAKO_RENDERED))
        }
    };
}
