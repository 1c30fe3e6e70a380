//! The exchange: MCP (stateless revision 2026-07-28) over JSON-RPC 2.0, one
//! message per line, answered as the official SDK answers.
//!
//! Everything here is plain code over bytes: [`serve`] runs a whole
//! conversation over any [`Io`], and [`execute`] runs it over memory, so host
//! tests drive exactly what the guest runs.

use alloc::vec::Vec;

use crate::args::Args;
use crate::json::write::{compact_into, escape_into, put, put_byte, write_escaped};
use crate::json::{Kind, Object, Str, Value, num};
use crate::package::Package;
use crate::reply::{self, Reply, ToolError};

/// The MCP revision this crate speaks.
pub const PROTOCOL_VERSION: &str = "2026-07-28";
/// The argument that prints the manifest instead of serving.
pub const MANIFEST_FLAG: &str = "--subako-manifest";
/// The function ABI, as `subako-package.json` names it.
pub const ABI: u32 = 1;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// Where a conversation's bytes come from and go to.
pub trait Io {
    /// Reads into `buf`; `Ok(0)` at the end of input.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, IoError>;
    /// Writes all of `bytes` (whole lines) and flushes them.
    fn write(&mut self, bytes: &[u8]) -> Result<(), IoError>;
}

/// A failed read or write: the platform's error number (WASI's on wasm32,
/// the OS's on the host). A number, not a name, so modules carry no table
/// of names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoError {
    pub errno: u16,
}

/// What runs a tool: the guest's back end catches a panic there and still
/// answers the request.
pub type Runner = fn(&crate::Tool, &Args<'_>, &[u8], &Package) -> Result<Reply, ToolError>;

fn run_plain(tool: &crate::Tool, args: &Args<'_>, _id: &[u8], _package: &Package) -> Result<Reply, ToolError> {
    (tool.run)(args)
}

/// The whole process: the manifest when `manifest` is asked for, otherwise
/// every request on `io` until it ends. Returns the exit code.
pub fn serve(package: &Package, manifest: bool, io: &mut impl Io, runner: Runner) -> i32 {
    let mut lines = LineReader::new(package.max_line);
    let mut out = Vec::new();
    loop {
        // The manifest is sent as a last answer is, without reading input.
        let more = if manifest {
            write_manifest(&mut out, package);
            false
        } else {
            match lines.next(io) {
                Line::End => return 0,
                Line::Text(line) => {
                    serve_line(package, line, &mut out, runner);
                    true
                }
                Line::TooLong => {
                    let mut max = [0; 20];
                    let max = num::u64_digits(package.max_line as u64, &mut max);
                    write_error(&mut out, None, INVALID_REQUEST, &[b"line too long: over ", max, b" bytes"]);
                    true
                }
                Line::Unreadable(e) => {
                    let mut errno = [0; 20];
                    let errno = num::u64_digits(e.errno as u64, &mut errno);
                    write_error(&mut out, None, INTERNAL_ERROR, &[b"stdin unreadable: errno ", errno]);
                    false
                }
            }
        };
        if !out.is_empty() {
            if io.write(&out).is_err() {
                // stdout is the only way back; a broken one is told by the exit code.
                return 2;
            }
            out.clear();
        }
        if !more {
            return 0;
        }
    }
}

/// The whole process as a pure function: `argv` and stdin in, stdout and
/// the exit code out. Panics in tools propagate (the host test sees them).
pub fn execute(package: &Package, argv: &[&str], stdin: &[u8]) -> (Vec<u8>, i32) {
    let mut io = MemoryIo { stdin, stdout: Vec::new() };
    let manifest = argv.get(1) == Some(&MANIFEST_FLAG);
    let code = serve(package, manifest, &mut io, run_plain);
    (io.stdout, code)
}

/// Input from a byte slice, output to a vector.
pub struct MemoryIo<'a> {
    pub stdin: &'a [u8],
    pub stdout: Vec<u8>,
}

impl Io for MemoryIo<'_> {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, IoError> {
        let n = buf.len().min(self.stdin.len());
        buf[..n].copy_from_slice(&self.stdin[..n]);
        self.stdin = &self.stdin[n..];
        Ok(n)
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
    /// Zero-filled to its full length once; input fills `..filled`.
    buf: Vec<u8>,
    filled: usize,
    /// Where the next line starts.
    start: usize,
    /// How far has been searched for a newline.
    searched: usize,
    max: usize,
    /// Dropping the rest of a line that was too long.
    skipping: bool,
    ended: bool,
}

/// The first read's size; the buffer grows (doubling) only for longer lines.
/// Small, because every call is a fresh instance: zero-filling 64 KiB cost
/// more than the whole exchange, and grew memory by two pages.
const READ_CHUNK: usize = 4 << 10;

impl LineReader {
    fn new(max: usize) -> LineReader {
        LineReader { buf: Vec::new(), filled: 0, start: 0, searched: 0, max, skipping: false, ended: false }
    }

    fn next(&mut self, io: &mut impl Io) -> Line<'_> {
        loop {
            let unsearched = self.buf.get(self.searched..self.filled).unwrap_or(&[]);
            if let Some(at) = unsearched.iter().position(|&b| b == b'\n') {
                let (start, end) = (self.start, self.searched + at + 1);
                self.start = end;
                self.searched = end;
                // A long line read whole in one go is refused like one read in pieces.
                if self.skipping || end - start - 1 > self.max {
                    self.skipping = false;
                    return Line::TooLong;
                }
                return Line::Text(self.buf.get(start..end).unwrap_or(&[]));
            }
            if self.filled - self.start > self.max {
                self.skipping = true;
                self.start = self.filled;
            }
            if self.ended {
                let start = self.start;
                self.start = self.filled;
                if core::mem::take(&mut self.skipping) {
                    return Line::TooLong;
                }
                return match self.buf.get(start..self.filled) {
                    // A last line without its newline is still served.
                    Some(line) if !line.is_empty() => Line::Text(line),
                    _ => Line::End,
                };
            }
            // Keep only the partial line, at the front, then read more after it.
            let kept = self.filled - self.start;
            // Always true; spelled out so that no panic path is linked.
            if self.start <= self.filled && self.filled <= self.buf.len() {
                self.buf.copy_within(self.start..self.filled, 0);
            }
            self.start = 0;
            self.filled = kept;
            self.searched = kept;
            if self.buf.len() - kept < READ_CHUNK {
                self.buf.resize(self.buf.capacity().max(kept + READ_CHUNK), 0);
            }
            let read = io.read(self.buf.get_mut(kept..).unwrap_or(&mut []));
            let n = *read.as_ref().unwrap_or(&0);
            self.filled = kept + n;
            self.ended = n == 0;
            if let Err(e) = read {
                return Line::Unreadable(e);
            }
        }
    }
}

/// Appends the answer to the message on `line`, if it asks for one.
#[inline(never)]
pub fn serve_line(package: &Package, line: &[u8], out: &mut Vec<u8>, runner: Runner) {
    let message = match crate::json::parse(line) {
        Ok(message) => message,
        Err(e) => {
            let mut column = [0; 20];
            let column = num::u64_digits(e.offset as u64 + 1, &mut column);
            let why = e.kind.describe().as_bytes();
            return write_error(out, None, PARSE_ERROR, &[b"not JSON: ", why, b" at column ", column]);
        }
    };
    let (message, id_raw, jsonrpc, method) = match message_fields(message) {
        Ok(fields) => fields,
        Err(why) => return write_error(out, None, INVALID_REQUEST, &[b"not a message: ", why]),
    };
    if !jsonrpc.eq_str("2.0") {
        let version = jsonrpc.to_str();
        return write_error(out, id_raw, INVALID_REQUEST, &[b"unknown JSON-RPC version: ", version.as_bytes()]);
    }
    let (id, method) = match (id_raw, method) {
        (Some(id), Some(method)) => (id, method),
        (None, Some(_)) => return,
        // A response (its `result` or `error` not null) is answered by nothing.
        (Some(_), None) if ["result", "error"].iter().any(|&key| message.get(key).is_some_and(|v| !v.is_null())) => return,
        (id, None) => {
            return write_error(out, id, INVALID_REQUEST, &[b"neither a request, a notification, nor a response"]);
        }
    };
    let params = message.get("params").and_then(|p| p.as_object());
    if let Err(()) = check_meta(out, id, params) {
        return;
    }
    if method.eq_str("server/discover") {
        begin_result(out, id, package);
        put(out, b"\"capabilities\":{\"tools\":{}},\"resultType\":\"complete\",\"supportedVersions\":[\"2026-07-28\"]}}\n");
    } else if method.eq_str("tools/list") {
        // Every tool is on the first page, so no cursor names another.
        if params.is_some_and(|p| p.get("cursor").is_some()) {
            return write_error(out, Some(id), INVALID_PARAMS, &[b"no such cursor"]);
        }
        write_tools(out, id, package);
    } else if method.eq_str("tools/call") {
        let Some(name) = params.and_then(|p| p.get("name")).and_then(|n| n.as_str()) else {
            return write_error(out, Some(id), INVALID_PARAMS, &[b"invalid tools/call params: `name` must be a string"]);
        };
        let arguments = params.and_then(|p| p.get("arguments"));
        let result = call(package, name, arguments, id, runner);
        begin_result(out, id, package);
        reply::write_content(out, &result);
        put(out, b",\"resultType\":\"complete\"");
        if let Some(json) = result.as_ref().ok().and_then(|reply| reply.structured()) {
            put(out, b",\"structuredContent\":");
            put(out, json);
        }
        put(out, b"}}\n");
    } else {
        let name = method.to_str();
        write_error(out, Some(id), METHOD_NOT_FOUND, &[b"unknown method: ", name.as_bytes()]);
    }
}

/// A message's object, its id's text, `jsonrpc` and `method`, read as the
/// official SDK reads a message: a member of the wrong type makes the whole
/// line no message (answered with id null, saying why), and serde reads a
/// `null` id or method as an absent one.
#[allow(clippy::type_complexity)]
fn message_fields(message: Value<'_>) -> Result<(Object<'_>, Option<&[u8]>, Str<'_>, Option<Str<'_>>), &'static [u8]> {
    let Some(message) = message.as_object() else {
        return Err(b"not an object");
    };
    let id = message.get("id").filter(|id| !id.is_null());
    let id_raw = id.filter(|id| matches!(id.kind(), Kind::Number | Kind::String)).map(|id| id.raw());
    if id.is_some() && id_raw.is_none() {
        return Err(b"`id` must be a string or a number");
    }
    let Some(jsonrpc) = message.get("jsonrpc").and_then(|v| v.as_str()) else {
        return Err(b"`jsonrpc` must be a string");
    };
    let method = match message.get("method").filter(|m| !m.is_null()) {
        Some(m) => match m.as_str() {
            Some(m) => Some(m),
            None => return Err(b"`method` must be a string"),
        },
        None => None,
    };
    Ok((message, id_raw, jsonrpc, method))
}

fn call(package: &Package, name: Str<'_>, arguments: Option<Value<'_>>, id: &[u8], runner: Runner) -> Result<Reply, ToolError> {
    let Some(tool) = package.tools.iter().find(|t| name.eq_str(t.name)) else {
        return Err(ToolError::from_parts(&["unknown tool: ", &name.to_str()]));
    };
    // MCP lets a call leave its arguments out.
    let args = match arguments {
        None => Args::empty(),
        Some(v) => match v.as_object() {
            Some(object) => Args::new(object),
            None => return Err(ToolError::invalid_input(&["arguments must be an object, not ", v.kind().article_name()])),
        },
    };
    runner(tool, &args, id, package)
}

/// Checks the `_meta` every request carries: the revision, which must be
/// ours, and the client's capabilities, which must be an object.
fn check_meta(out: &mut Vec<u8>, id: &[u8], params: Option<crate::json::Object<'_>>) -> Result<(), ()> {
    let meta = params.and_then(|p| p.get("_meta")).and_then(|m| m.as_object());
    let (version, capabilities) = match meta {
        Some(meta) => (meta.get(VERSION_KEY), meta.get(CAPABILITIES_KEY)),
        None => (None, None),
    };
    let capabilities = capabilities.is_some_and(|c| c.kind() == Kind::Object);
    let missing = match version.and_then(|v| v.as_str()) {
        None => VERSION_KEY,
        Some(version) if !version.eq_str(PROTOCOL_VERSION) => {
            put(out, b"{\"error\":{\"code\":-32022,\"data\":{\"requested\":\"");
            escape_into(out, version.to_str().as_bytes());
            put(out, b"\",\"supported\":[\"2026-07-28\"]},\"message\":\"Unsupported protocol version\"},\"id\":");
            put(out, id);
            put(out, b",\"jsonrpc\":\"2.0\"}\n");
            return Err(());
        }
        Some(_) if capabilities => return Ok(()),
        Some(_) => CAPABILITIES_KEY,
    };
    let why: [&[u8]; 3] = [b"missing _meta ", missing.as_bytes(), b"; this server speaks MCP 2026-07-28"];
    write_error(out, Some(id), INVALID_PARAMS, &why);
    Err(())
}

/// What follows the id at the start of every result, up to the server's
/// name. Shared with the panic path's answer, so modules carry it once.
pub(crate) const RESULT_AFTER_ID: &[u8] = b",\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":";

/// Writes `{"id":…,"jsonrpc":"2.0","result":{"_meta":{…},` — the start of
/// every result, signed with the package's name and version.
fn begin_result(out: &mut Vec<u8>, id: &[u8], package: &Package) {
    put(out, b"{\"id\":");
    put(out, id);
    put(out, RESULT_AFTER_ID);
    write_escaped(out, package.name.as_bytes());
    put(out, b",\"version\":");
    write_escaped(out, package.version.as_bytes());
    put(out, b"}},");
}

fn write_tools(out: &mut Vec<u8>, id: &[u8], package: &Package) {
    begin_result(out, id, package);
    put(out, b"\"cacheScope\":\"public\",\"resultType\":\"complete\",\"tools\":[");
    for (i, tool) in package.tools.iter().enumerate() {
        if i > 0 {
            put_byte(out, b',');
        }
        put(out, b"{\"description\":");
        write_escaped(out, tool.description.as_bytes());
        put(out, b",\"inputSchema\":");
        compact_into(out, tool.input_schema.as_bytes());
        put(out, b",\"name\":");
        write_escaped(out, tool.name.as_bytes());
        if let Some(schema) = tool.output_schema {
            put(out, b",\"outputSchema\":");
            compact_into(out, schema.as_bytes());
        }
        put_byte(out, b'}');
    }
    // A module's tools never change: a client may keep them for a day.
    put(out, b"],\"ttlMs\":86400000}}\n");
}

/// Appends a JSON-RPC error line whose message is `parts` joined; `id` is
/// `null` where none was readable.
#[inline(never)]
pub fn write_error(out: &mut Vec<u8>, id: Option<&[u8]>, code: i64, parts: &[&[u8]]) {
    put(out, b"{\"error\":{\"code\":");
    num::write_i64(out, code);
    put(out, b",\"message\":\"");
    for part in parts {
        escape_into(out, part);
    }
    put(out, b"\"},\"id\":");
    put(out, id.unwrap_or(b"null"));
    put(out, b",\"jsonrpc\":\"2.0\"}\n");
}

/// The manifest, `subako-package.json`, as serde_json writes it pretty.
#[inline(never)]
pub fn write_manifest(out: &mut Vec<u8>, package: &Package) {
    put(out, b"{\n  \"abi\": ");
    num::write_u64(out, ABI as u64);
    put(out, b",\n  \"name\": ");
    write_escaped(out, package.name.as_bytes());
    put(out, b",\n  \"description\": ");
    write_escaped(out, package.description.as_bytes());
    put(out, b"\n}\n");
}
