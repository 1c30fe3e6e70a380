//! The exchange: MCP (stateless revision 2026-07-28) over JSON-RPC 2.0, one
//! message per line, answered as the official SDK answers.
//!
//! Everything here is plain code over bytes: [`serve`] runs a whole
//! conversation over any [`Io`], and [`execute`] runs it over memory, so host
//! tests drive exactly what the guest runs.

use alloc::vec::Vec;

use crate::args::Args;
use crate::json::lookup::{KEY_SEPARATOR, members, parse_with_ends};
use crate::json::scan::find;
use crate::json::validator::KnownEnds;
use crate::json::write::{escape_into, put};
use crate::json::{Str, Value, num};
use crate::package::{Package, ToolFn};
use crate::rendered::{self, PROTOCOL_VERSION, Rendered};
use crate::reply::{self, Reply, ToolError};
use crate::text::concat;

/// The argument that prints the manifest instead of serving.
pub const MANIFEST_FLAG: &str = "--subako-manifest";

/// JSON-RPC: the line is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: JSON, but not a request this server can read.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: no such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC: the method's parameters are wrong.
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC: the server failed (stdin unreadable).
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP: the request's protocol version is not one this server speaks.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

// Each error's code (JSON-RPC's are negative: the sign is written, not
// kept) and the start of its message. The codes are written by the
// number writer the parse error's column needs anyway, and the
// `,"message":"` between them once, not in every message's text.
type Head = (u16, &'static [u8]);
const PARSE_ERROR_HEAD: Head = (32700, b"not JSON: ");
const NOT_A_MESSAGE: Head = (32600, b"not a message: ");
const LINE_TOO_LONG: Head = (32600, b"line too long: over ");
const UNKNOWN_VERSION: Head = (32600, b"unknown JSON-RPC version: ");
const NOT_A_REQUEST: Head = (32600, b"neither a request, a notification, nor a response");
const UNKNOWN_METHOD: Head = (32601, b"unknown method: ");
const NO_SUCH_CURSOR: Head = (32602, b"no such cursor");
const NAME_NOT_STRING: Head = (32602, b"invalid tools/call params: `name` must be a string");
const MISSING_META: Head = (32602, b"missing _meta ");
const STDIN_UNREADABLE: Head = (32603, b"stdin unreadable: errno ");
/// The one error whose `data` comes before its message.
const UNSUPPORTED_VERSION_HEAD: Head = (32022, b"");

/// The JSON-RPC code of `head`.
const fn code(head: Head) -> i64 {
    -(head.0 as i64)
}

// The heads hold the public codes; the build checks they agree.
const _: () = {
    assert!(code(PARSE_ERROR_HEAD) == PARSE_ERROR);
    assert!(code(NOT_A_MESSAGE) == INVALID_REQUEST);
    assert!(code(LINE_TOO_LONG) == INVALID_REQUEST);
    assert!(code(UNKNOWN_VERSION) == INVALID_REQUEST);
    assert!(code(NOT_A_REQUEST) == INVALID_REQUEST);
    assert!(code(UNKNOWN_METHOD) == METHOD_NOT_FOUND);
    assert!(code(NO_SUCH_CURSOR) == INVALID_PARAMS);
    assert!(code(NAME_NOT_STRING) == INVALID_PARAMS);
    assert!(code(MISSING_META) == INVALID_PARAMS);
    assert!(code(STDIN_UNREADABLE) == INTERNAL_ERROR);
    assert!(code(UNSUPPORTED_VERSION_HEAD) == UNSUPPORTED_PROTOCOL_VERSION);
};

// The members looked up in one reading of each object, split at
// `KEY_SEPARATOR` (`\xFF`).
const MESSAGE_KEYS: &[u8] = b"id\xFFjsonrpc\xFFmethod\xFFparams\xFFresult\xFFerror";
const PARAMS_KEYS: &[u8] = b"_meta\xFFname\xFFarguments\xFFcursor";
const META_KEYS: &[u8] = b"io.modelcontextprotocol/protocolVersion\xFFio.modelcontextprotocol/clientCapabilities";
const VERSION_KEY: &[u8] = META_KEYS.split_at(39).0;
const CAPABILITIES_KEY: &[u8] = META_KEYS.split_at(40).1;
const _: () = {
    assert!(META_KEYS[39] == KEY_SEPARATOR);
};

pub use crate::sys::{Io, IoError};

/// The panic answer around its text: what the entry point's panic handler
/// writes after the answer's start (see [`RunTool`]), with a text it has made
/// fit to stand in a JSON string as it is. The members and their order
/// are those of every other isError result (`tests`: the same bytes).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) const PANIC_ANSWER_OPEN: &[u8] = b"\"content\":[{\"text\":\"tool ";
/// See [`PANIC_ANSWER_OPEN`].
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) const PANIC_ANSWER_CLOSE: &[u8] = b"\",\"type\":\"text\"}],\"isError\":true,\"resultType\":\"complete\"}}\n";

/// What runs a tool: the guest's back end answers a panic, or memory
/// running out, from the moment a tool starts until its answer has room.
pub trait RunTool {
    /// Runs `tool` for the request whose id's text is `id` (in the request
    /// line, which stays put until the answer is written). A failure from
    /// here until [`answered`](RunTool::answered) answers that request with
    /// an isError result of its own: `{"id":` and `id` and the package's
    /// result prefix, then its content.
    fn run(&self, tool: ToolFn, args: &Args<'_>, id: &[u8]) -> Result<Reply, ToolError>;

    /// The answer is written: a failure from here on has no request to answer.
    fn answered(&self) {}
}

/// Runs a tool as it is: a panic propagates (host tests see it).
pub struct RunPlain;

impl RunTool for RunPlain {
    fn run(&self, tool: ToolFn, args: &Args<'_>, _id: &[u8]) -> Result<Reply, ToolError> {
        tool(args)
    }
}

/// [`serve`] for a package whose fixed answers are rendered now, at run
/// time: for hosts and tests. A module's `main!` renders them at build
/// time instead.
pub fn serve_package(package: &Package, manifest: bool, io: &mut impl Io, runner: &impl RunTool) -> i32 {
    let mut text = Vec::new();
    crate::sys::resize_zeroed(&mut text, rendered::len(package));
    rendered::render(package, &mut text);
    let names: Vec<&'static str> = package.tools.iter().map(|t| t.name).collect();
    let runs: Vec<ToolFn> = package.tools.iter().map(|t| t.run).collect();
    serve(&Rendered::new(package, &text, &names, &runs), manifest, io, runner)
}

/// The whole process: the manifest when `manifest` is asked for, otherwise
/// every request on `io` until it ends. Returns the exit code.
pub fn serve(package: &Rendered<'_>, manifest: bool, io: &mut impl Io, runner: &impl RunTool) -> i32 {
    let mut lines = LineReader::new(package.max_line);
    let mut out = Vec::new();
    loop {
        let mut reply = None;
        // The manifest is sent as a last answer is, without reading input.
        let more = if manifest {
            put(&mut out, package.manifest);
            false
        } else {
            match lines.next(io) {
                Line::End => return 0,
                Line::Text(line) => {
                    serve_line(package, line, &mut out, &mut reply, runner);
                    true
                }
                Line::TooLong => {
                    error_head(&mut out, LINE_TOO_LONG);
                    num::write_usize(&mut out, package.max_line);
                    put(&mut out, b" bytes");
                    error_tail(&mut out, None);
                    true
                }
                Line::Unreadable(e) => {
                    error_head(&mut out, STDIN_UNREADABLE);
                    num::write_usize(&mut out, usize::from(e.errno));
                    error_tail(&mut out, None);
                    false
                }
            }
        };
        // A structured value goes out from its reply, after the answer's
        // start, rather than copied behind it.
        let value = reply.as_ref().and_then(|reply| reply.structured());
        let tail: &[u8] = if value.is_some() { b"}}\n" } else { b"" };
        for part in [&out[..], value.unwrap_or(b""), tail] {
            // stdout is the only way back; a broken one is told by the exit code.
            if !part.is_empty() && io.write(part).is_err() {
                return 2;
            }
        }
        out.clear();
        if !more {
            return 0;
        }
    }
}

/// The whole process as a pure function: `argv` and stdin in, stdout and
/// the exit code out. Panics in tools propagate (the host test sees them).
pub fn execute(package: &Package, argv: &[&str], stdin: &[u8]) -> (Vec<u8>, i32) {
    #[cfg(not(target_arch = "wasm32"))]
    crate::json::output::start_process();
    let mut io = MemoryIo { stdin, stdout: Vec::new() };
    let manifest = argv.get(1) == Some(&MANIFEST_FLAG);
    let code = serve_package(package, manifest, &mut io, &RunPlain);
    (io.stdout, code)
}

/// Input from a byte slice, output to a vector.
pub struct MemoryIo<'a> {
    /// What is left to read.
    pub stdin: &'a [u8],
    /// Everything written.
    pub stdout: Vec<u8>,
}

impl Io for MemoryIo<'_> {
    fn read(&mut self, buf: &mut Vec<u8>) -> Result<usize, IoError> {
        let (now, rest) = self.stdin.split_at((buf.capacity() - buf.len()).min(self.stdin.len()));
        crate::sys::append(buf, now);
        self.stdin = rest;
        Ok(now.len())
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), IoError> {
        self.stdout.extend_from_slice(bytes);
        Ok(())
    }
}

enum Line<'a> {
    Text(&'a [u8]),
    /// A line over the limit, already skipped up to its newline.
    TooLong,
    Unreadable(IoError),
    End,
}

/// Splits input into lines, growing its buffer to fit the longest line
/// allowed and no further.
struct LineReader {
    /// What was read and not yet returned is `buf[start..]`; reads go into
    /// its spare capacity, which is never zeroed.
    buf: Vec<u8>,
    start: usize,
    /// Where the search for a newline goes on: there is none before it.
    searched: usize,
    max: usize,
    /// Dropping the rest of a line that was too long.
    skipping: bool,
    ended: bool,
}

/// The least room a read is given; the buffer grows (doubling) only for
/// longer lines. Small, because every call is a fresh instance and a
/// large first block grew memory by pages.
const READ_CHUNK: usize = 4 << 10;

impl LineReader {
    fn new(max: usize) -> LineReader {
        LineReader { buf: Vec::new(), start: 0, searched: 0, max, skipping: false, ended: false }
    }

    fn next(&mut self, io: &mut impl Io) -> Line<'_> {
        loop {
            let len = self.buf.len();
            let at = find(&self.buf, self.searched, b'\n');
            let newline = at < len;
            // A line ends at a newline, or at the end of input.
            let end = if newline {
                at + 1
            } else if self.ended {
                len
            } else {
                0
            };
            if end > 0 || self.ended {
                let start = self.start;
                self.start = end.max(start);
                self.searched = self.start;
                // A long line read whole in one go is refused like one read in pieces.
                if core::mem::take(&mut self.skipping) || end.saturating_sub(start) > self.max + newline as usize {
                    return Line::TooLong;
                }
                // The line without its newline, as serde_json's columns count it.
                return match self.buf.get(start..end - usize::from(newline)) {
                    Some(line) if newline || !line.is_empty() => Line::Text(line),
                    _ => Line::End,
                };
            }
            if len - self.start > self.max {
                self.skipping = true;
                self.start = len;
            }
            // Keep only the partial line, at the front, then read more after
            // it. Only returned lines are dropped, so each byte moves once.
            crate::sys::drop_front(&mut self.buf, self.start);
            self.start = 0;
            self.searched = self.buf.len();
            crate::sys::reserve(&mut self.buf, READ_CHUNK);
            let read = io.read(&mut self.buf);
            self.ended = matches!(read, Ok(0));
            if let Err(e) = read {
                return Line::Unreadable(e);
            }
        }
    }
}

/// Appends the answer to the message on `line`, if it asks for one. A
/// tool's answer with a structured value leaves its reply in `pending`:
/// `out` then ends with `"structuredContent":`, and the caller writes the
/// value after it, then `}}` and the newline.
#[inline(never)]
pub fn serve_line(
    package: &Rendered<'_>,
    line: &[u8],
    out: &mut Vec<u8>,
    pending: &mut Option<Reply>,
    runner: &impl RunTool,
) {
    let mut ends = KnownEnds::NONE;
    let message = match parse_with_ends(line, &mut ends) {
        Ok(message) => message,
        Err(e) => {
            error_head(out, PARSE_ERROR_HEAD);
            put(out, e.kind.describe().as_bytes());
            put(out, b" at column ");
            // serde_json's column: the byte at fault, or the line's length
            // where the line ended too soon.
            num::write_usize(out, (e.offset + 1).min(line.len()));
            return error_tail(out, None);
        }
    };
    let (id_raw, jsonrpc, method, params, answered) = match message_fields(message, &ends) {
        Ok(fields) => fields,
        Err(why) => return write_error(out, None, NOT_A_MESSAGE, why),
    };
    if !jsonrpc.eq_str("2.0") {
        error_head(out, UNKNOWN_VERSION);
        write_normalized(out, jsonrpc);
        return error_tail(out, id_raw);
    }
    let (id, method) = match (id_raw, method) {
        (Some(id), Some(method)) => (id, method),
        (None, Some(_)) => return,
        // A response (its `result` or `error` not null) is answered by nothing.
        (Some(_), None) if answered => return,
        (id, None) => return write_error(out, id, NOT_A_REQUEST, b""),
    };
    // The params' members, in one reading of them.
    let [meta, name, arguments, cursor, ..] = members(params, PARAMS_KEYS, Some(&ends));
    if let Err(()) = check_meta(out, id, meta, &ends) {
        return;
    }
    if method.eq_str("server/discover") {
        begin_result(out, id, package);
        put(out, package.discover);
    } else if method.eq_str("tools/list") {
        // Every tool is on the first page, so no cursor names another.
        if cursor.is_some() {
            return write_error(out, Some(id), NO_SUCH_CURSOR, b"");
        }
        begin_result(out, id, package);
        put(out, package.tools_list);
    } else if method.eq_str("tools/call") {
        let Some(name) = name.and_then(|n| n.as_str()) else {
            return write_error(out, Some(id), NAME_NOT_STRING, b"");
        };
        begin_result(out, id, package);
        let result = call(package, name, arguments, &ends, id, runner).and_then(|reply| reply.verified(name));
        reply::write_content(out, &result);
        put(out, b",\"resultType\":\"complete\"");
        // Until here, running out of memory (the answer's buffer growing
        // included) is answered as a panic is, from `id` and the package's
        // fixed prefix: the half-written answer is never sent.
        runner.answered();
        if let Ok(reply) = result
            && reply.structured().is_some()
        {
            put(out, b",\"structuredContent\":");
            *pending = Some(reply);
            return;
        }
        put(out, b"}}\n");
    } else {
        error_head(out, UNKNOWN_METHOD);
        write_normalized(out, method);
        error_tail(out, Some(id));
    }
}

/// Appends string `s` escaped as serde_json escapes its value: decoded,
/// then written again, as the official SDK echoes a string it read.
#[inline(never)]
fn write_normalized(out: &mut Vec<u8>, s: Str<'_>) {
    escape_into(out, s.to_str().as_bytes());
}

/// A message's id's text, `jsonrpc`, `method`, `params`, and whether it
/// has a `result` or `error` that is not null (a response), read as the
/// official SDK reads a message, in one reading of its members: a member
/// of the wrong type makes the whole line no message (answered with id
/// null, saying why), and serde reads a `null` id or method as an absent
/// one.
#[allow(clippy::type_complexity)]
fn message_fields<'a>(
    message: Value<'a>,
    ends: &KnownEnds,
) -> Result<(Option<&'a [u8]>, Str<'a>, Option<Str<'a>>, Option<Value<'a>>, bool), &'static [u8]> {
    if message.as_object().is_none() {
        return Err(b"not an object");
    }
    let [id, jsonrpc, method, params, result, error] = members(Some(message), MESSAGE_KEYS, Some(ends));
    // A string or a number: anything not `null`, `true`, `false`, an array or an object.
    let id_raw = match id.map(|id| id.raw()) {
        None | Some([b'n', ..]) => None,
        Some([b't' | b'f' | b'[' | b'{', ..]) => return Err(b"`id` must be a string or a number"),
        raw => raw,
    };
    let Some(jsonrpc) = jsonrpc.and_then(|v| v.as_str()) else {
        // Missing or not a string: one message names the fix for both.
        return Err(b"`jsonrpc` must be \\\"2.0\\\"");
    };
    let method = match method.filter(|m| !m.is_null()) {
        Some(m) => match m.as_str() {
            Some(m) => Some(m),
            None => return Err(b"`method` must be a string"),
        },
        None => None,
    };
    let answered = result.is_some_and(|v| !v.is_null()) || error.is_some_and(|v| !v.is_null());
    Ok((id_raw, jsonrpc, method, params, answered))
}

fn call(
    package: &Rendered<'_>,
    name: Str<'_>,
    arguments: Option<Value<'_>>,
    ends: &KnownEnds,
    id: &[u8],
    runner: &impl RunTool,
) -> Result<Reply, ToolError> {
    let found = package.tool_names.iter().position(|&n| name.eq_str(n));
    let Some(&run) = found.and_then(|i| package.tool_fns.get(i)) else {
        return Err(ToolError::from(concat("unknown tool: ", &name.to_str(), "", "")));
    };
    // MCP lets a call leave its arguments out.
    let args = match arguments {
        None => Args::empty(),
        Some(v) => match v.as_object() {
            Some(object) => Args::of_request(object, ends),
            None => {
                return Err(ToolError::from(concat(
                    "invalid input: arguments must be an object, not ",
                    v.kind().article_name(),
                    "",
                    "",
                )));
            }
        },
    };
    runner.run(run, &args, id)
}

/// Checks the `_meta` every request carries: the revision, which must be
/// ours, and the client's capabilities, which must be an object.
fn check_meta(out: &mut Vec<u8>, id: &[u8], meta: Option<Value<'_>>, ends: &KnownEnds) -> Result<(), ()> {
    let [version, capabilities, ..] = members(meta, META_KEYS, Some(ends));
    let capabilities = capabilities.is_some_and(|c| c.as_object().is_some());
    let missing = match version.and_then(|v| v.as_str()) {
        None => VERSION_KEY,
        Some(version) if !version.eq_str(PROTOCOL_VERSION) => {
            error_head(out, UNSUPPORTED_VERSION_HEAD);
            write_normalized(out, version);
            put(out, b"\",\"supported\":[\"2026-07-28\"]},\"message\":\"Unsupported protocol version");
            error_tail(out, Some(id));
            return Err(());
        }
        Some(_) if capabilities => return Ok(()),
        Some(_) => CAPABILITIES_KEY,
    };
    error_head(out, MISSING_META);
    put(out, missing);
    put(out, b"; this server speaks MCP 2026-07-28");
    error_tail(out, Some(id));
    Err(())
}

/// Writes `{"id":…,"jsonrpc":"2.0","result":{"_meta":{…},` — the start of
/// every result, signed with the package's name and version.
#[inline(never)]
fn begin_result(out: &mut Vec<u8>, id: &[u8], package: &Rendered<'_>) {
    put(out, b"{\"id\":");
    put(out, id);
    put(out, package.result_prefix);
}

/// Starts a JSON-RPC error: `head` is the code and the start of the
/// message (for [`UNSUPPORTED_VERSION_HEAD`], of its `data`).
// Inlined into a call of `error_start` with the two as they are: a
// `Head` passed whole is kept in memory, a pointer for each.
#[inline(always)]
fn error_head(out: &mut Vec<u8>, (code, start): Head) {
    error_start(out, code, start);
}

/// [`error_head`], out of line.
#[inline(never)]
fn error_start(out: &mut Vec<u8>, code: u16, start: &[u8]) {
    put(out, b"{\"error\":{\"code\":-");
    num::write_usize(out, code.into());
    put(out, if code == UNSUPPORTED_VERSION_HEAD.0 { b",\"data\":{\"requested\":\"" } else { b",\"message\":\"" });
    put(out, start);
}

/// Ends the message a JSON-RPC error started and the line; `id` is `null`
/// where none was readable.
fn error_tail(out: &mut Vec<u8>, id: Option<&[u8]>) {
    put(out, b"\"},\"id\":");
    put(out, id.unwrap_or(b"null"));
    put(out, b",\"jsonrpc\":\"2.0\"}\n");
}

/// Appends a JSON-RPC error line: `head` is the code and the start of the
/// message, `detail` (ASCII the crate wrote, needing no escapes) ends it.
// Inlined: one function fewer for wasmtime to compile in every module,
// and the modules come out smaller. `error_head`,
// `begin_result` and `write_normalized` are not: called from several
// places, each out of line makes every module smaller.
#[inline(always)]
fn write_error(out: &mut Vec<u8>, id: Option<&[u8]>, head: Head, detail: &[u8]) {
    error_head(out, head);
    put(out, detail);
    error_tail(out, id);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tool;
    use alloc::string::String;

    fn fails(_: &Args<'_>) -> Result<Reply, ToolError> {
        Err(ToolError::new("tool panicked: boom (at src/x.rs:1)"))
    }

    /// The panic handler's answer is byte for byte the isError result the
    /// serve loop writes for the same text.
    #[test]
    fn the_panic_answer_is_an_error_result_as_any_other() {
        const PACKAGE: Package =
            Package::new("p", "0.1.0", "Fails.", &[Tool::new("fails", "Fails.", r#"{"type":"object"}"#, fails)]);
        let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fails","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let (out, code) = execute(&PACKAGE, &["p"], line);
        assert_eq!(code, 0);
        let panic_tail = [PANIC_ANSWER_OPEN, b"panicked: boom (at src/x.rs:1)", PANIC_ANSWER_CLOSE].concat();
        assert!(out.ends_with(&panic_tail), "{}", String::from_utf8_lossy(&out));
        assert!(out.starts_with(b"{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":"));
    }
}
