//! Host-side helpers for testing a package's tools (never in a wasm
//! module: this module exists only off `wasm32`).
//!
//! [`call`] runs one `tools/call` through the real protocol path (the same
//! [`execute`](crate::execute) a module's `main!` serves with), writing the
//! request line and its `_meta` for you, and hands back the answer parsed:
//!
//! ```
//! use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing};
//!
//! fn greet(args: &Args<'_>) -> Result<Reply, ToolError> {
//!     let name = args.str("name")?;
//!     Ok(Reply::object(|o| o.text("message", ("Hello, ", &name, "!"))))
//! }
//!
//! const PACKAGE: Package = Package::new("hello", "0.1.0", "Says hello.", &[Tool::new(
//!     "greet",
//!     "Greet someone by name.",
//!     r#"{"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}"#,
//!     greet,
//! )]);
//!
//! let called = testing::call(&PACKAGE, "greet", r#"{"name": "Ada"}"#);
//! assert!(!called.is_error());
//! assert_eq!(called.text(), r#"{"message":"Hello, Ada!"}"#);
//! assert_eq!(called.structured(), Some(r#"{"message":"Hello, Ada!"}"#));
//!
//! let refused = testing::call(&PACKAGE, "greet", "{}");
//! assert!(refused.is_error());
//! assert_eq!(refused.text(), "invalid input: missing field `name`");
//! ```
//!
//! An HTTP tool's requests are answered by a closure of the test's
//! ([`call_with_http`], [`with_http`]): it receives each request as the
//! worker would read it and answers with a response or an error kind,
//! which the tool then reads through the crate's real answer parser.
//! Without one, a request on the host fails with kind `abi` and a message
//! that says so. [`real_http`] is such a closure that makes the request
//! for real, to a server the test starts on 127.0.0.1, and
//! [`response_with_bytes`] answers with a body of any bytes (binary, or
//! not UTF-8) as the worker would.

extern crate std;

mod real_http;

pub use real_http::{real_http, response_with_bytes};

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::http::{HttpError, HttpErrorKind, INLINE_MAX_BYTES, Method, Response, ResponseBody};
use crate::json::write::{compact_into, put, write_escaped};
use crate::json::{self, JsonWriter, Object, Value};
use crate::package::Package;
use crate::rendered::PROTOCOL_VERSION;

/// The answer to one [`call`]: the `CallToolResult` a module sent, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallResult {
    line: String,
    is_error: bool,
    text: Option<String>,
    content: String,
    structured: Option<String>,
}

/// The old name of [`CallResult`].
#[deprecated(note = "renamed `CallResult`")]
pub type Called = CallResult;

impl CallResult {
    /// True when the tool answered with an error for the model
    /// (`"isError": true`), such as a refused argument.
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The first text block's text, unescaped: a JSON reply's compact JSON,
    /// a [`Reply::text`](crate::Reply::text), or an error's message.
    ///
    /// # Panics
    /// When the answer has no text block (a reply of images alone), naming
    /// the content it has.
    #[track_caller]
    pub fn text(&self) -> &str {
        match &self.text {
            Some(text) => text,
            None => panic!("testing: the answer has no text block; its content is {}", self.content),
        }
    }

    /// `structuredContent` as the module wrote it (compact JSON, its keys in
    /// the module's order), or `None` when the answer has none. [`call`]
    /// has checked it against the tool's output schema.
    pub fn structured(&self) -> Option<&str> {
        self.structured.as_deref()
    }

    /// The `content` array, as the module wrote it (compact JSON).
    pub fn content(&self) -> &str {
        &self.content
    }

    /// The whole answer line, without its newline.
    pub fn line(&self) -> &str {
        &self.line
    }
}

/// Runs `tool` of `package` once with `arguments` (JSON text, written as
/// you like: it is compacted onto the request line as it is, key order and
/// escapes kept), through the real protocol path, and returns the answer.
///
/// A tool that panics panics the test, with its own message (on the
/// worker the panic becomes an isError result). HTTP requests the tool
/// makes fail, unless a [`with_http`] around the call answers them (or use
/// [`call_with_http`]).
///
/// Every answer's `structuredContent` is checked: no object in it may hold
/// a member twice, and when the tool declares an output schema, a result
/// that is not an error must have one that the schema allows, checked
/// with the rules [`validated!`](crate::validated) checks arguments with
/// (`type`, `properties`, `required`, `additionalProperties`, `items`, the
/// bounds, `enum` and `const`; keywords beyond them are not checked).
///
/// # Panics
/// When `arguments` is not JSON (naming the problem and where); when the
/// module answers with anything but one `CallToolResult`: a JSON-RPC
/// error (a line over the package's `max_line`, say, or arguments nested
/// too deep), which is quoted in the message; and when its
/// `structuredContent` holds a member twice or breaks the tool's output
/// schema, naming where and the rule:
///
/// ```should_panic
/// use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing};
///
/// fn convert(_: &Args<'_>) -> Result<Reply, ToolError> {
///     let rate: Option<f64> = None; // a bug: the rate was never found
///     Ok(Reply::object(|o| o.field("result", rate)))
/// }
///
/// const PACKAGE: Package = Package::new("fx", "0.1.0", "Converts.", &[Tool::new(
///     "convert",
///     "Convert an amount.",
///     r#"{"type": "object"}"#,
///     convert,
/// )
/// .output_schema(r#"{"type": "object", "properties": {"result": {"type": "number"}}, "required": ["result"]}"#)]);
///
/// // testing::call("convert"): the structuredContent breaks the tool's
/// // output schema: /result must be a number; it is {"result":null}
/// testing::call(&PACKAGE, "convert", "{}");
/// ```
#[track_caller]
pub fn call(package: &Package, tool: &str, arguments: &str) -> CallResult {
    let _ = check_late_schemas(package, tool);
    let line = request_line(tool, arguments);
    let (stdout, code) = crate::execute(package, &[package.name], &line);
    let stdout =
        String::from_utf8(stdout).unwrap_or_else(|e| panic!("testing::call({tool:?}): stdout is not UTF-8: {e}"));
    assert_eq!(code, 0, "testing::call({tool:?}): the module exited with {code}; its output: {stdout}");
    let Some(answer) = stdout.strip_suffix('\n').filter(|a| !a.contains('\n')) else {
        panic!("testing::call({tool:?}): the module did not answer with exactly one line: {stdout:?}");
    };
    let called = match read_answer(answer) {
        Ok(called) => called,
        Err(why) => panic!("testing::call({tool:?}): {why}: {answer}"),
    };
    if let Err(why) = check_structured(package, tool, &called) {
        panic!("testing::call({tool:?}): {why}");
    }
    called
}

/// `Package::new` checks schemas up to its budget and leaves the rest to
/// `main!`: a package tested without `main!` has them checked here, once
/// for each table of tools (by its address) the process calls. Whether
/// this call checked them (`false`: an earlier one had).
#[track_caller]
fn check_late_schemas(package: &Package, tool: &str) -> bool {
    static CHECKED: std::sync::Mutex<Vec<(usize, usize)>> = std::sync::Mutex::new(Vec::new());
    let key = (package.tools.as_ptr() as usize, package.tools.len());
    if CHECKED.lock().is_ok_and(|checked| checked.contains(&key)) {
        return false;
    }
    for later in &package.tools[crate::package::checked_by_new(package.tools)..] {
        if let Some(fault) = later.fault() {
            panic!("testing::call({tool:?}): the package's build would fail under main!: {}", fault.as_str());
        }
    }
    if let Ok(mut checked) = CHECKED.lock() {
        checked.push(key);
    }
    true
}

/// What a result's `structuredContent` must be: no object in it holding a
/// member twice (serde_json would keep the last, other readers refuse
/// it), and, when the tool declares an output schema and did not fail, a
/// value that schema allows (MCP requires it), checked with the rules
/// [`validated!`](crate::validated) checks arguments with (other keywords,
/// such as `anyOf` or `pattern`, are not checked).
fn check_structured(package: &Package, tool: &str, called: &CallResult) -> Result<(), String> {
    let cut = |text: &str| match text.char_indices().nth(300) {
        Some((at, _)) => [&text[..at], "…"].concat(),
        None => text.to_owned(),
    };
    if let Some(structured) = called.structured() {
        let value = json::parse(structured.as_bytes()).map_err(|_| "the structuredContent is not JSON".to_owned())?;
        if let Some(twice) = member_twice(value, &mut String::new()) {
            return Err(format!(
                "structuredContent has {twice} (JSON readers keep one, or refuse it): {}",
                cut(structured)
            ));
        }
    }
    let Some(schema) = package.tools.iter().find(|t| t.name == tool).and_then(|t| t.output_schema) else {
        return Ok(());
    };
    if called.is_error() {
        return Ok(());
    }
    let Some(structured) = called.structured() else {
        return Err(format!(
            "the tool declares an output schema, so its result needs a structuredContent (a Reply::json or \
             Reply::object), but it answered {}",
            cut(called.content())
        ));
    };
    let value = json::parse(structured.as_bytes()).map_err(|_| "the structuredContent is not JSON".to_owned())?;
    crate::schema::validate::check_value(schema, value).map_err(|e| {
        let why = e.message().strip_prefix("invalid input: ").unwrap_or(e.message());
        format!("the structuredContent breaks the tool's output schema: {why}; it is {}", cut(structured))
    })
}

/// The first member written twice in one object of `value`: `the member
/// "rate" twice in /quotes/0`; `path` is the pointer of `value`.
fn member_twice(value: Value<'_>, path: &mut String) -> Option<String> {
    let depth = path.len();
    let mut found = None;
    if let Some(object) = value.as_object() {
        let mut seen = std::collections::BTreeSet::new();
        for (key, member) in object.iter() {
            let key = key.to_str();
            if !seen.insert(key.clone()) {
                let at = if path.is_empty() { "/" } else { path.as_str() };
                return Some(format!("the member {:?} twice in {at}", &*key));
            }
            path.push('/');
            path.push_str(&key.replace('~', "~0").replace('/', "~1"));
            found = found.or_else(|| member_twice(member, path));
            path.truncate(depth);
        }
    } else if let Some(array) = value.as_array() {
        for (index, element) in array.iter().enumerate() {
            path.push_str(&format!("/{index}"));
            found = found.or_else(|| member_twice(element, path));
            path.truncate(depth);
        }
    }
    found
}

/// [`call`] with `handler` answering every HTTP request the tool makes
/// (see [`with_http`]).
///
/// ```
/// use subako_tiny::http::{HttpErrorKind, Request, Response};
/// use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing};
///
/// fn status(args: &Args<'_>) -> Result<Reply, ToolError> {
///     let response = Request::get(&args.str("url")?).header("accept", "text/plain").send()?;
///     Ok(Reply::text(&[response.header("x-kind").unwrap_or("?"), ": ", response.text().unwrap_or("")].concat()))
/// }
///
/// const PACKAGE: Package = Package::new("status", "0.1.0", "Reads a URL.", &[Tool::new(
///     "status",
///     "Read a URL.",
///     r#"{"properties":{"url":{"type":"string"}},"required":["url"],"type":"object"}"#,
///     status,
/// )]);
///
/// let called = testing::call_with_http(&PACKAGE, "status", r#"{"url": "https://api.example.com/x"}"#, |request| {
///     assert_eq!(request.url, "https://api.example.com/x");
///     assert_eq!(request.header("Accept"), Some("text/plain"));
///     Ok(Response::inline(200, "fine").with_header("X-Kind", "health"))
/// });
/// assert_eq!(called.text(), "health: fine");
///
/// let timed_out = testing::call_with_http(&PACKAGE, "status", r#"{"url": "https://h/"}"#, |_| {
///     Err(HttpErrorKind::Timeout.into())
/// });
/// assert!(timed_out.is_error());
/// assert_eq!(timed_out.text(), "HTTP request failed (timeout): the HTTP hook answered timeout");
/// ```
#[track_caller]
pub fn call_with_http<F>(package: &Package, tool: &str, arguments: &str, handler: F) -> CallResult
where
    F: FnMut(&HttpRequest) -> Result<Response, HttpError>,
{
    // `call` runs inside a closure, where `#[track_caller]` does not reach:
    // its panics name this line, and their messages name the tool.
    with_http(handler, || call(package, tool, arguments))
}

/// Runs `f` with this thread's clock ([`clock::now`](crate::clock::now))
/// starting at `start` and running on from there, then puts back the
/// clock it had: to test a tool at a day's or a year's end. Other threads
/// keep theirs, so tests can run in parallel. The module's own clock is
/// set the same way by `subako-tiny call --clock TIME`. Past
/// 2554-07-21T23:34:33Z (64 bits of nanoseconds, where a `Timestamp`
/// stops) `clock::now` fails, as the platform's clock does there.
///
/// ```
/// use subako_tiny::clock::{self, Timestamp};
/// use subako_tiny::{testing, text};
///
/// let millennium = Timestamp::from_unix_seconds(978_307_199); // 2000-12-31T23:59:59Z
/// let said = testing::with_clock(millennium, || text!("saved at ", clock::now().unwrap()));
/// assert_eq!(said.as_str(), "saved at 2000-12-31T23:59:59Z");
/// assert!(clock::now().unwrap().unix_seconds() > 1_700_000_000); // the host's again
/// ```
pub fn with_clock<R>(start: crate::clock::Timestamp, f: impl FnOnce() -> R) -> R {
    crate::sys::with_clock(start.unix_nanos(), f)
}

/// Runs `f` with `handler` answering the HTTP requests made on this thread
/// ([`Request::send`](crate::http::Request::send)), then puts back what
/// answered them before. Other threads are not affected, so tests can run
/// in parallel.
///
/// `handler` gets each request as the worker reads it and answers as the
/// worker does: `Ok` with a response, or `Err` with an error (an
/// [`HttpErrorKind`] converts into one). The answer is written as the
/// worker writes it — header names lowercased, repeated ones joined with
/// `, `, an inline body over 256 KiB refused with `too_large`, an inline
/// body for a request that saves to a file written to that file (through
/// the host's mounts, [`crate::fs`]) — and the tool reads it with the
/// crate's real answer parser.
///
/// ```
/// use subako_tiny::http::{Method, Request, Response};
/// use subako_tiny::testing::{self, HttpBody};
///
/// let mut seen = Vec::new();
/// let response = testing::with_http(
///     |request| {
///         seen.push((request.method, request.url.clone(), request.body.clone()));
///         Ok(Response::inline(201, "made"))
///     },
///     || Request::post("https://api.example.com/orders").body_text("one").send(),
/// )
/// .unwrap();
/// assert_eq!((response.status, response.text()), (201, Some("made")));
/// assert_eq!(seen, [(Method::Post, "https://api.example.com/orders".to_string(), HttpBody::Text("one".into()))]);
///
/// // Outside, no hook: the request fails and says how to answer it.
/// let error = Request::get("https://api.example.com/").send().unwrap_err();
/// assert!(error.message.starts_with("no HTTP on the host: answer this tool's requests with subako_tiny::testing::"));
/// ```
pub fn with_http<F, R>(mut handler: F, f: impl FnOnce() -> R) -> R
where
    F: FnMut(&HttpRequest) -> Result<Response, HttpError>,
{
    let mut hook = |request_json: &[u8]| answer(&mut handler, request_json);
    crate::sys::with_http_hook(&mut hook, f)
}

/// One request a tool sent, as the worker reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// The method.
    pub method: Method,
    /// The URL, as the tool wrote it.
    pub url: String,
    /// `(name, value)` as the tool set them, in its order.
    pub headers: Vec<(String, String)>,
    /// What the request sends.
    pub body: HttpBody,
    /// `Some(path)`: the tool asked for the body in this volume file.
    pub save_to: Option<String>,
    /// Whether the worker would follow redirects.
    pub follow_redirects: bool,
    /// The request's own time limit, if it set one.
    pub timeout_ms: Option<u64>,
    /// The request JSON itself, as the tool sent it.
    pub json: String,
}

impl HttpRequest {
    /// The value of header `name`, compared ignoring ASCII case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// What a request sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HttpBody {
    /// No body.
    None,
    /// A text body.
    Text(String),
    /// JSON text, compact, as the tool wrote it.
    Json(String),
    /// The path of a volume file the worker would stream.
    File(String),
}

/// `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{…}}` and a
/// newline, with `arguments` compacted and the `_meta` every request needs.
#[track_caller]
fn request_line(tool: &str, arguments: &str) -> Vec<u8> {
    if let Err(e) = json::parse(arguments.as_bytes()) {
        panic!(
            "testing::call({tool:?}): the arguments are not JSON: {} at byte {} of {arguments:?}",
            e.kind.describe(),
            e.offset
        );
    }
    let mut line = Vec::new();
    put(&mut line, br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"#);
    write_escaped(&mut line, tool.as_bytes());
    put(&mut line, br#","arguments":"#);
    compact_into(&mut line, arguments.as_bytes());
    put(&mut line, br#","_meta":{"io.modelcontextprotocol/protocolVersion":""#);
    put(&mut line, PROTOCOL_VERSION.as_bytes());
    put(&mut line, b"\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}\n");
    line
}

/// The answer line read as a `CallToolResult`, or what it is instead.
fn read_answer(line: &str) -> Result<CallResult, String> {
    let answer = json::parse(line.as_bytes()).map_err(|e| format!("the answer is not JSON ({})", e.kind.describe()))?;
    let answer = answer.as_object().ok_or("the answer is not a JSON object")?;
    let Some(result) = answer.get("result").and_then(|r| r.as_object()) else {
        return Err(match answer.get("error") {
            Some(_) => "the module answered with a JSON-RPC error, not a result".to_owned(),
            None => "the answer holds no result".to_owned(),
        });
    };
    let content = result.get("content").and_then(|c| c.as_array()).ok_or("the result has no `content` array")?;
    let text = content.iter().filter_map(|block| block.as_object()).find_map(|block| {
        let is_text = block.get("type").and_then(|t| t.as_str()).is_some_and(|t| t.eq_str("text"));
        Some(block.get("text").filter(|_| is_text)?.as_str()?.to_str().into_owned())
    });
    Ok(CallResult {
        line: line.to_owned(),
        is_error: result.get("isError").and_then(|e| e.as_bool()).unwrap_or(false),
        text,
        content: raw_text(content.as_value()),
        structured: result.get("structuredContent").map(raw_text),
    })
}

fn raw_text(value: Value<'_>) -> String {
    value.as_json().to_owned()
}

/// The worker's answer to `request_json`, from `handler`'s response.
fn answer<F>(handler: &mut F, request_json: &[u8]) -> Vec<u8>
where
    F: FnMut(&HttpRequest) -> Result<Response, HttpError>,
{
    let request = match read_request(request_json) {
        Ok(request) => request,
        Err(why) => return error_answer(&HttpError::new(HttpErrorKind::InvalidRequest, why)),
    };
    match handler(&request).and_then(|response| deliver(&request, response)) {
        Ok(response) => ok_answer(&response),
        Err(error) => error_answer(&error),
    }
}

/// The response as the worker would hand it over for `request`: an inline
/// body checked against the inline limit, or saved where the request asks.
fn deliver(request: &HttpRequest, mut response: Response) -> Result<Response, HttpError> {
    let ResponseBody::Inline { text } = &response.body else {
        return Ok(response);
    };
    match &request.save_to {
        None if text.len() > INLINE_MAX_BYTES => Err(HttpError::new(
            HttpErrorKind::TooLarge,
            "the body is over 262144 bytes, more than comes inline: save it to a file",
        )),
        None => Ok(response),
        Some(path) => {
            let bytes = text.len() as u64;
            real_http::save(path, text.as_bytes())?;
            response.body = ResponseBody::File { path: path.clone(), bytes };
            Ok(response)
        }
    }
}

fn ok_answer(response: &Response) -> Vec<u8> {
    // Names lowercased, a repeated name's values joined, in first-seen order.
    let mut headers: Vec<(String, String)> = Vec::new();
    for (name, value) in response.headers() {
        let name = name.to_ascii_lowercase();
        match headers.iter_mut().find(|(n, _)| *n == name) {
            Some((_, joined)) => {
                joined.push_str(", ");
                joined.push_str(value);
            }
            None => headers.push((name, value.into())),
        }
    }
    let mut out = JsonWriter::new();
    out.begin_object().key("ok").begin_object().key("status").uint(u64::from(response.status));
    out.key("headers").begin_object();
    for (name, value) in &headers {
        out.key(name).string(value);
    }
    out.end_object().key("body").begin_object();
    match &response.body {
        ResponseBody::Inline { text } => out.key("type").string("inline").key("text").string(text),
        ResponseBody::File { path, bytes } => {
            out.key("type").string("file").key("path").string(path).key("bytes").uint(*bytes)
        }
    };
    out.end_object().end_object().end_object();
    out.into_bytes()
}

fn error_answer(error: &HttpError) -> Vec<u8> {
    let mut out = JsonWriter::new();
    out.begin_object().key("error").begin_object();
    out.key("kind").string(error.kind.as_str()).key("message").string(&error.message);
    out.end_object().end_object();
    out.into_bytes()
}

/// The request JSON read as the worker reads it; the reason it cannot be.
fn read_request(request_json: &[u8]) -> Result<HttpRequest, String> {
    let value = json::parse(request_json).map_err(|e| format!("the request is not JSON: {}", e.kind.describe()))?;
    let request = value.as_object().ok_or("the request is not a JSON object")?;
    let string =
        |object: &Object<'_>, key: &str| -> Option<String> { Some(object.get(key)?.as_str()?.to_str().into_owned()) };
    let method = string(&request, "method").and_then(|m| Method::ALL.into_iter().find(|k| k.as_str() == m));
    let method = method.ok_or("method must be GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS")?;
    let url = string(&request, "url").ok_or("url must be a string")?;
    let mut headers = Vec::new();
    if let Some(found) = request.get("headers") {
        for (name, value) in found.as_object().ok_or("headers must be an object")?.iter() {
            let value = value.as_str().ok_or("header values must be strings")?;
            headers.push((name.to_str().into_owned(), value.to_str().into_owned()));
        }
    }
    let body = match request.get("body").filter(|b| !b.is_null()) {
        None => HttpBody::None,
        Some(body) => {
            let body = body.as_object().ok_or("body must be an object")?;
            match string(&body, "type").as_deref() {
                Some("text") => HttpBody::Text(string(&body, "text").ok_or("body.text must be a string")?),
                Some("json") => HttpBody::Json(raw_text(body.get("json").ok_or("body.json is missing")?)),
                Some("file") => HttpBody::File(string(&body, "path").ok_or("body.path must be a string")?),
                _ => return Err("body.type must be \"text\", \"json\" or \"file\"".to_owned()),
            }
        }
    };
    let save_to = match request.get("output").and_then(|o| o.as_object()) {
        None => None,
        Some(output) => match string(&output, "type").as_deref() {
            Some("inline") => None,
            Some("file") => Some(string(&output, "path").ok_or("output.path must be a string")?),
            _ => return Err("output.type must be \"inline\" or \"file\"".to_owned()),
        },
    };
    Ok(HttpRequest {
        method,
        url,
        headers,
        body,
        save_to,
        follow_redirects: request.get("follow_redirects").and_then(|f| f.as_bool()).unwrap_or(true),
        timeout_ms: request.get("timeout_ms").and_then(|t| t.as_u64()),
        json: value.as_json().to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Args, Reply, Tool, ToolError};

    const OUTPUT: &str = r#"{"type": "object",
        "properties": {"result": {"type": "number"}, "quotes": {"type": "array", "items": {"type": "object"}}},
        "required": ["result"], "additionalProperties": false}"#;

    /// Answers with what its `answer` argument names.
    fn answer(args: &Args<'_>) -> Result<Reply, ToolError> {
        let mut out = JsonWriter::new();
        match &*args.str("answer")? {
            "number" => out.begin_object().key("result").float(1.5).end_object(),
            "null" => out.begin_object().key("result").null().end_object(),
            "extra" => out.begin_object().key("result").int(1).key("rate").int(2).end_object(),
            "twice" => out
                .begin_object()
                .key("result")
                .int(1)
                .key("quotes")
                .begin_array()
                .begin_object()
                .key("a/b")
                .int(1)
                .key("a/b")
                .int(2)
                .end_object()
                .end_array()
                .end_object(),
            "text" => return Ok(Reply::text("1.5")),
            _ => return Err(ToolError::new("no such answer")),
        };
        Ok(Reply::json(out))
    }

    const PACKAGE: Package = Package::new(
        "answers",
        "0.0.0",
        "Answers.",
        &[
            Tool::new("checked", "Answer.", r#"{"type": "object"}"#, answer).output_schema(OUTPUT),
            Tool::new("free", "Answer.", r#"{"type": "object"}"#, answer),
        ],
    );

    /// `with_clock` sets this thread's clock alone, and puts it back after
    /// a panic too.
    #[test]
    fn a_set_clock_is_the_thread_s_and_is_put_back() {
        use crate::clock::{Timestamp, now};
        let y2k = Timestamp::from_unix_seconds(946_684_800);
        with_clock(y2k, || {
            assert_eq!(now().unwrap().unix_seconds(), 946_684_800);
            let other = std::thread::spawn(|| now().unwrap().unix_seconds()).join().unwrap();
            assert!(other > 1_700_000_000, "another thread read the set clock: {other}");
            // Nested: the inner one wins, then the outer is back.
            with_clock(Timestamp::from_unix_seconds(1), || assert_eq!(now().unwrap().unix_seconds(), 1));
            assert_eq!(now().unwrap().unix_seconds(), 946_684_800);
        });
        // Past 64 bits of nanoseconds the read fails, as the platform's
        // does there (review 59: it stopped at 2554 and answered).
        let late = with_clock(Timestamp::from_unix_seconds(u64::MAX), || {
            std::thread::sleep(std::time::Duration::from_millis(1));
            now().map_err(|e| String::from(e.message()))
        });
        assert_eq!(late, Err(String::from("the platform's clock did not answer (clock_time_get: errno 61)")));
        let caught = std::panic::catch_unwind(|| with_clock(y2k, || panic!("inside")));
        assert!(caught.is_err());
        assert!(now().unwrap().unix_seconds() > 1_700_000_000, "the clock stayed set after a panic");
    }

    /// A schema past `Package::new`'s budget, which `main!` checks, is
    /// checked by `call` too: a package tested without `main!` (a library's
    /// `const`) cannot pass its tests with a schema its build would refuse.
    #[test]
    fn a_schema_main_would_refuse_fails_the_test() {
        let long: &'static str = format!(r#"{{"type": "object", "description": "{}"}}"#, "x".repeat(40_000)).leak();
        let tools: &'static [Tool] = alloc::vec![
            Tool::new("first", "Answer.", long, answer),
            Tool::new("second", "Answer.", r#"{"type": "object", "properties": {"n": {"minimum": "0"}}}"#, answer),
        ]
        .leak();
        let package = Package::new("late", "0.0.0", "Checked late.", tools);
        assert_eq!(crate::package::checked_by_new(package.tools), 1, "the second tool is main!'s to check");
        let caught = std::panic::catch_unwind(|| call(&package, "first", r#"{"answer": "number"}"#));
        let message = caught.err().map(|e| e.downcast_ref::<String>().cloned().unwrap_or_default());
        let message = message.expect("a schema main! refuses passed testing::call");
        assert!(
            message.starts_with(r#"testing::call("first"): the package's build would fail under main!: "#),
            "{message}"
        );
        assert!(message.contains("second") && message.contains("minimum"), "{message}");
    }

    /// The late schemas are checked once per table of tools, not once per
    /// call (a package of hundreds of tools tested call by call checked
    /// them all again each time); a package that fails is refused on
    /// every call, and another table is checked on its own.
    #[test]
    fn late_schemas_are_checked_once_per_table() {
        let long: &'static str = format!(r#"{{"type": "object", "description": "{}"}}"#, "x".repeat(40_000)).leak();
        let table = || -> &'static [Tool] {
            alloc::vec![
                Tool::new("first", "Answer.", long, answer),
                Tool::new("second", "Answer.", r#"{"type": "object"}"#, answer)
            ]
            .leak()
        };
        let (one, other) =
            (Package::new("one", "0.0.0", "Once.", table()), Package::new("other", "0.0.0", "Once.", table()));
        assert_eq!(crate::package::checked_by_new(one.tools), 1, "the second tool is main!'s to check");
        assert!(check_late_schemas(&one, "first"), "the first call checks");
        assert!(!check_late_schemas(&one, "second"), "a later call checked again");
        assert!(check_late_schemas(&other, "first"), "a second table with the same tools went unchecked");
        assert!(!call(&one, "first", r#"{"answer": "number"}"#).is_error());

        let bad: &'static [Tool] = alloc::vec![
            Tool::new("first", "Answer.", long, answer),
            Tool::new("second", "Answer.", r#"{"type": "integr"}"#, answer),
        ]
        .leak();
        let bad = Package::new("bad", "0.0.0", "Refused.", bad);
        for _ in 0..2 {
            let caught = std::panic::catch_unwind(|| check_late_schemas(&bad, "first"));
            assert!(caught.is_err(), "a package that fails the check passed it on a later call");
        }
    }

    /// The panic message of `call`, or `None` when it returns.
    fn refusal(tool: &str, answer: &str) -> Option<String> {
        let arguments = format!(r#"{{"answer": "{answer}"}}"#);
        let caught = std::panic::catch_unwind(|| call(&PACKAGE, tool, &arguments));
        caught.err().map(|e| e.downcast_ref::<String>().cloned().unwrap_or_default())
    }

    #[test]
    fn a_structured_value_the_output_schema_allows_passes() {
        assert_eq!(refusal("checked", "number"), None);
        assert_eq!(call(&PACKAGE, "checked", r#"{"answer": "number"}"#).structured(), Some(r#"{"result":1.5}"#));
        // An error carries no structured value: nothing to check.
        assert_eq!(refusal("checked", "none"), None);
        // A tool with no output schema may answer anything but members twice.
        for answer in ["null", "extra", "text"] {
            assert_eq!(refusal("free", answer), None, "{answer}");
        }
    }

    #[test]
    fn a_structured_value_that_breaks_the_output_schema_fails_the_test() {
        assert_eq!(
            refusal("checked", "null").as_deref(),
            Some(
                r#"testing::call("checked"): the structuredContent breaks the tool's output schema: /result must be a number; it is {"result":null}"#
            )
        );
        assert_eq!(
            refusal("checked", "extra").as_deref(),
            Some(
                r#"testing::call("checked"): the structuredContent breaks the tool's output schema: /rate is not allowed; it is {"result":1,"rate":2}"#
            )
        );
        assert_eq!(
            refusal("checked", "text").as_deref(),
            Some(
                r#"testing::call("checked"): the tool declares an output schema, so its result needs a structuredContent (a Reply::json or Reply::object), but it answered [{"text":"1.5","type":"text"}]"#
            )
        );
    }

    #[test]
    fn a_member_written_twice_fails_the_test() {
        let twice = r#"testing::call("TOOL"): structuredContent has the member "a/b" twice in /quotes/0 (JSON readers keep one, or refuse it): {"result":1,"quotes":[{"a/b":1,"a/b":2}]}"#;
        for tool in ["checked", "free"] {
            assert_eq!(refusal(tool, "twice"), Some(twice.replace("TOOL", tool)));
        }
        // Deeper, and in an object's own name's pointer.
        let value = json::parse(br#"{"x~y":[0,{"k":{"z":1,"z":2}}]}"#).unwrap();
        assert_eq!(member_twice(value, &mut String::new()).as_deref(), Some(r#"the member "z" twice in /x~0y/1/k"#));
        let value = json::parse(br#"{"a":1,"\u0061":2}"#).unwrap();
        assert_eq!(member_twice(value, &mut String::new()).as_deref(), Some(r#"the member "a" twice in /"#));
    }
}
