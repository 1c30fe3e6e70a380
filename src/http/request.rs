//! Building a request and writing it as the JSON `subako_http` reads.

use alloc::vec::Vec;

use super::error::{HttpError, HttpErrorKind};
use super::response::{END, Response, ResponseBody, field, parse_answer, same_name};
use super::{REQUEST_MAX_BYTES, raw};
use crate::json::write::{escape_into, put, put_byte, write_escaped};
use crate::json::{JsonBytes, JsonWriter};
use crate::reply::ToolError;

/// The methods a request may use. CONNECT, TRACE and TRACK have none: the
/// platform refuses tunnels and requests that echo credentials back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// `GET`, the default.
    #[default]
    Get,
    /// `HEAD`.
    Head,
    /// `POST`.
    Post,
    /// `PUT`.
    Put,
    /// `PATCH`.
    Patch,
    /// `DELETE`.
    Delete,
    /// `OPTIONS`.
    Options,
}

impl Method {
    /// Every method, in the platform's order.
    pub const ALL: [Method; 7] =
        [Method::Get, Method::Head, Method::Post, Method::Put, Method::Patch, Method::Delete, Method::Options];

    /// The method's name on the wire, in uppercase (`POST`).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::http::Method;
    ///
    /// assert_eq!(Method::Patch.as_str(), "PATCH");
    /// assert_eq!(Method::from_name("patch"), Some(Method::Patch));
    /// assert_eq!(Method::from_name("CONNECT"), None);
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
        }
    }

    /// The method named `name`, in any case (`post`, `POST`).
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.iter().copied().find(|m| m.as_str().eq_ignore_ascii_case(name))
    }
}

/// What the request sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Body<'a> {
    None,
    Text(&'a str),
    /// JSON text, written by a [`JsonWriter`] or [`json::object`](crate::json::object).
    Json(&'a [u8]),
    /// A volume file, streamed by the worker.
    File(&'a str),
}

/// What [`Request::body_json`] sends: the JSON that [`json::object`](crate::json::object) and
/// [`json::array`](crate::json::array) return, JSON by construction, or the value a
/// [`JsonWriter`] holds, put into the request unchecked: a writer left unfinished, or
/// holding text given to `raw` that is not JSON, makes a request the worker refuses
/// (`invalid_request`). Sealed.
pub trait JsonBody: sealed::Sealed {
    /// The JSON text.
    #[doc(hidden)]
    fn json_text(&self) -> &[u8];
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::json::JsonBytes {}
    impl Sealed for crate::json::JsonWriter {}
}

impl JsonBody for JsonBytes {
    fn json_text(&self) -> &[u8] {
        self
    }
}

impl JsonBody for JsonWriter {
    fn json_text(&self) -> &[u8] {
        self.as_bytes()
    }
}

/// One HTTP request, built in steps and sent with [`Request::send`]:
///
/// ```
/// use subako_tiny::http::{Method, Request};
/// use subako_tiny::json;
///
/// let order = json::object(|o| o.field("order", 1042));
/// let request = Request::new(Method::Post, "https://api.example.com/orders")
///     .header("accept", "application/json")
///     .body_json(&order)
///     .timeout_ms(5000);
/// assert_eq!(
///     request.to_json(),
///     br#"{"method":"POST","url":"https://api.example.com/orders","headers":{"accept":"application/json"},"body":{"type":"json","json":{"order":1042}},"output":{"type":"inline"},"follow_redirects":true,"timeout_ms":5000}"#
/// );
/// // Off the worker, with no test answering (`subako_tiny::testing::with_http`),
/// // the request fails with kind `abi`.
/// assert_eq!(request.send().unwrap_err().kind, subako_tiny::http::HttpErrorKind::Abi);
/// ```
///
/// It borrows its URL, body and paths; header names and values are
/// copied (escaped) as they are added, so they may be built on the spot.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    method: Method,
    url: &'a str,
    /// Each header's name and then its value, each followed by
    /// [`END`](super::response::END), as they were added.
    headers: Vec<u8>,
    body: Body<'a>,
    /// `Some(path)`: the body goes to this volume file, not inline.
    save_to: Option<&'a str>,
    /// How [`send_ok`](Request::send_ok) reads the start of a saved body:
    /// set by [`save_to`](Request::save_to), so that only a module that
    /// saves bodies links the file reading it takes.
    saved_start: Option<SavedStart>,
    follow_redirects: bool,
    timeout_ms: Option<u64>,
}

impl<'a> Request<'a> {
    /// A request with no headers and no body, its answer's body inline,
    /// redirects followed and no timeout of its own.
    #[must_use]
    pub fn new(method: Method, url: &'a str) -> Request<'a> {
        Request {
            method,
            url,
            headers: Vec::new(),
            body: Body::None,
            save_to: None,
            saved_start: None,
            follow_redirects: true,
            timeout_ms: None,
        }
    }

    /// A `GET` request for `url`, as [`Request::new`] makes it.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::http::Request;
    ///
    /// let request = Request::get("https://api.example.com/items?page=2").header("accept", "application/json");
    /// assert_eq!(
    ///     request.to_json(),
    ///     br#"{"method":"GET","url":"https://api.example.com/items?page=2","headers":{"accept":"application/json"},"output":{"type":"inline"},"follow_redirects":true}"#
    /// );
    /// ```
    #[must_use]
    pub fn get(url: &'a str) -> Request<'a> {
        Request::new(Method::Get, url)
    }

    /// A `POST` request for `url`, as [`Request::new`] makes it; give it a
    /// body with [`body_text`](Request::body_text),
    /// [`body_json`](Request::body_json) or [`body_file`](Request::body_file).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::http::Request;
    ///
    /// let request = Request::post("https://api.example.com/notes").body_text("remember the milk");
    /// assert_eq!(
    ///     request.to_json(),
    ///     br#"{"method":"POST","url":"https://api.example.com/notes","headers":{},"body":{"type":"text","text":"remember the milk"},"output":{"type":"inline"},"follow_redirects":true}"#
    /// );
    /// ```
    #[must_use]
    pub fn post(url: &'a str) -> Request<'a> {
        Request::new(Method::Post, url)
    }

    /// Adds a header, sent as given on the first hop. Connection headers
    /// (`host`, `content-length`…) are the worker's own; a header a
    /// credential sets for the origin is refused (`credential_header`).
    /// Naming a header twice (ASCII case ignored) sends it once, where it
    /// was first named, with its values joined with `, ` (HTTP's rule for
    /// a repeated field), so the request's `headers` object names each once.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::http::Request;
    ///
    /// let request = Request::get("https://h/").header("accept", "text/html").header("Accept", "*/*");
    /// assert_eq!(
    ///     request.to_json(),
    ///     br#"{"method":"GET","url":"https://h/","headers":{"accept":"text/html, */*"},"output":{"type":"inline"},"follow_redirects":true}"#
    /// );
    /// ```
    #[must_use]
    pub fn header(mut self, name: &str, value: &str) -> Request<'a> {
        // Written into a local, not through `&mut self.headers`: a pointer
        // into the request would make the compiler assume every field may
        // change, and keep the code for bodies and outputs it never sends.
        let mut headers = core::mem::take(&mut self.headers);
        for part in [name, value] {
            put(&mut headers, part.as_bytes());
            put_byte(&mut headers, END);
        }
        self.headers = headers;
        self
    }

    /// Sends `text`, as `text/plain; charset=utf-8` unless a
    /// `content-type` header says otherwise.
    #[must_use]
    pub fn body_text(mut self, text: &'a str) -> Request<'a> {
        self.body = Body::Text(text);
        self
    }

    /// Sends `json` (made by [`json::object`](crate::json::object) or
    /// [`json::array`](crate::json::array), or a
    /// [`JsonWriter`]'s value), as `application/json` unless a
    /// `content-type` header says otherwise. An empty writer sends `null`.
    ///
    /// The worker gets the value, not its text, and writes it out again:
    /// the members may reach the server in another order and a number
    /// spelled another way (`4.50` as `4.5`). Where the exact bytes matter
    /// (a signed body, fixed decimals), send them with
    /// [`body_text`](Self::body_text) and a `content-type:
    /// application/json` header.
    #[must_use]
    pub fn body_json<J: JsonBody + ?Sized>(mut self, json: &'a J) -> Request<'a> {
        self.body = Body::Json(json.json_text());
        self
    }

    /// Streams the volume file at `path` (absolute, under `/volume`) as the
    /// body; it never passes through this module's memory.
    #[must_use]
    pub fn body_file(mut self, path: &'a str) -> Request<'a> {
        self.body = Body::File(path);
        self
    }

    /// Saves the response body to the volume file at `path` (overwritten,
    /// its missing directories created by the platform, counted against
    /// the call's write budget) instead of returning it
    /// inline: for bodies over 256 KiB or not UTF-8. The body of any
    /// status is saved, an error page's too: check the status (or use
    /// [`send_ok`](Self::send_ok)) before reading the file.
    #[must_use]
    pub fn save_to(mut self, path: &'a str) -> Request<'a> {
        self.save_to = Some(path);
        self.saved_start = Some(saved_start);
        self
    }

    /// Whether to follow up to 10 redirects, each checked like the first
    /// (on by default).
    #[must_use]
    pub fn follow_redirects(mut self, follow: bool) -> Request<'a> {
        self.follow_redirects = follow;
        self
    }

    /// Bounds the whole request, every hop and the body included; the
    /// call's own time limit applies regardless.
    #[must_use]
    pub fn timeout_ms(mut self, ms: u64) -> Request<'a> {
        self.timeout_ms = Some(ms);
        self
    }

    /// The request as the JSON `subako_http` reads.
    pub fn to_json(&self) -> Vec<u8> {
        let mut out = JsonWriter::whole();
        out.begin_object();
        out.key("method").string(self.method.as_str());
        out.key("url").string(self.url);
        // Each name once, where it was first named, its values joined: a
        // request names a header a few times at most, so each pair looks at
        // the others rather than through a table.
        let mut headers = Vec::new();
        let pairs = &self.headers[..];
        let mut at = 0;
        while at < pairs.len() {
            let name = field(pairs, at);
            let next = at + name.len() + field(pairs, at + name.len() + 1).len() + 2;
            if !named_before(pairs, at, name) {
                if !headers.is_empty() {
                    put_byte(&mut headers, b',');
                }
                write_escaped(&mut headers, name);
                put(&mut headers, b":\"");
                let mut later = at;
                let mut first = true;
                while later < pairs.len() {
                    let other = field(pairs, later);
                    let value = field(pairs, later + other.len() + 1);
                    if same_name(other, name) {
                        if !first {
                            put(&mut headers, b", ");
                        }
                        escape_into(&mut headers, value);
                        first = false;
                    }
                    later += other.len() + value.len() + 2;
                }
                put_byte(&mut headers, b'"');
            }
            at = next;
        }
        out.key("headers").begin_object().trusted_raw(&headers).end_object();
        // Each body's type, the member that holds it, and its text (JSON's
        // is written as it is): one writer call for each part of any body.
        let (kind, member, text) = match self.body {
            Body::None => ("", "", ""),
            Body::Text(text) => ("text", "text", text),
            Body::Json(_) => ("json", "json", ""),
            Body::File(path) => ("file", "path", path),
        };
        if !kind.is_empty() {
            out.key("body").begin_object().key("type").string(kind).key(member);
            match self.body {
                Body::Json([]) => out.null(),
                Body::Json(json) => out.trusted_raw(json),
                _ => out.string(text),
            };
            out.end_object();
        }
        out.key("output").begin_object().key("type").string(if self.save_to.is_some() { "file" } else { "inline" });
        if let Some(path) = self.save_to {
            out.key("path").string(path);
        }
        out.end_object();
        out.key("follow_redirects").bool(self.follow_redirects);
        if let Some(ms) = self.timeout_ms {
            out.key("timeout_ms").uint(ms);
        }
        out.end_object();
        out.into_bytes()
    }

    /// Performs the request through the worker. A request whose JSON is
    /// over 8 MiB is refused here (`invalid_request`) without a call: send
    /// a large body as a file.
    ///
    /// # Errors
    /// An [`HttpError`] when there is no response: its
    /// [`kind`](HttpError::kind) says why, and its message is the
    /// platform's, which does not name the request ([`send_ok`](Self::send_ok)
    /// names it: a tool that makes several requests and handles the status
    /// itself says which one failed, as in `map_err(|e|
    /// ToolError::from(text!("GET ", url, ": ", e.message)))`). A response
    /// with any status, 404 and 500 included, is `Ok`.
    ///
    /// # Examples
    /// On the host a test answers the request
    /// (`subako_tiny::testing::with_http`):
    ///
    /// ```
    /// use subako_tiny::http::{Request, Response};
    /// use subako_tiny::testing;
    ///
    /// let response = testing::with_http(
    ///     |request| {
    ///         assert_eq!(request.url, "https://api.example.com/missing");
    ///         Ok(Response::inline(404, "no such item"))
    ///     },
    ///     || Request::get("https://api.example.com/missing").send(),
    /// )
    /// .unwrap();
    /// assert_eq!((response.status, response.text()), (404, Some("no such item")));
    /// ```
    pub fn send(&self) -> Result<Response, HttpError> {
        let json = self.to_json();
        if json.len() > REQUEST_MAX_BYTES {
            return Err(too_big(json.len()));
        }
        match raw::exchange(&json) {
            Ok(answer) => parse_answer(&answer, self.save_to),
            Err(code) => Err(HttpError::abi_code(code)),
        }
    }
}

impl Request<'_> {
    /// [`send`](Self::send), with a status outside 200–299 an error too,
    /// saying the request, the status and the start of the body:
    /// `GET https://api.example.com/x answered 503: try again later`. A
    /// body saved with [`save_to`](Self::save_to) is quoted from its file
    /// (the platform saves it whatever the status), when it is text. A
    /// request that fails before any answer names itself as well: `HTTP
    /// request failed (connection): GET https://api.example.com/x: …`.
    ///
    /// # Errors
    /// As [`send`](Self::send), and for a status that is not a success.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::http::{HttpError, HttpErrorKind, Request, Response};
    /// use subako_tiny::testing;
    ///
    /// let failed = testing::with_http(|_| Ok(Response::inline(503, "try again later")), || {
    ///     Request::get("https://api.example.com/x").send_ok()
    /// });
    /// assert_eq!(failed.unwrap_err().message(), "GET https://api.example.com/x answered 503: try again later");
    ///
    /// let refused = testing::with_http(|_| Err(HttpError::new(HttpErrorKind::Connection, "connection refused")), || {
    ///     Request::get("https://api.example.com/x").send_ok()
    /// });
    /// assert_eq!(
    ///     refused.unwrap_err().message(),
    ///     "HTTP request failed (connection): GET https://api.example.com/x: connection refused"
    /// );
    /// ```
    pub fn send_ok(&self) -> Result<Response, ToolError> {
        let sent = self.send();
        if let Ok(response) = &sent
            && (200..300).contains(&response.status)
        {
            return Ok(sent?);
        }
        // The request named, so that a model can tell which of a tool's
        // requests failed: one that failed before any answer as well.
        let mut text = crate::text!(self.method.as_str(), " ", self.url);
        let response = match sent {
            Ok(response) => response,
            Err(e) => {
                text.push(": ").push(&e.message);
                return Err(HttpError::new(e.kind, text.into_string()).into());
            }
        };
        text.push(" answered ").push(&response.status);
        // The start of the body, inline or saved to a file (the platform
        // saves it whatever the status).
        match (&response.body, self.saved_start) {
            (ResponseBody::Inline { text: body }, _) => push_excerpt(&mut text, body, body.len()),
            (ResponseBody::File { path, bytes }, Some(read)) => read(path, *bytes, &mut text),
            (ResponseBody::File { .. }, None) => {}
        }
        Err(text.into())
    }
}

/// `: ` and the start of `body` (`len` bytes in all), cut between
/// characters, and `…` when there is more.
fn push_excerpt(text: &mut crate::text::Text, body: &str, len: usize) {
    let mut end = body.len().min(BODY_EXCERPT);
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    if end > 0 {
        text.push(": ").push(body.get(..end).unwrap_or(""));
        if end < len {
            text.push("…");
        }
    }
}

/// How much of a failed response's body [`Request::send_ok`] quotes.
const BODY_EXCERPT: usize = 200;

/// Adds the start of a saved body to a message: see [`saved_start`].
type SavedStart = fn(&str, u64, &mut crate::text::Text);

/// [`push_excerpt`] for the body saved at `path` (`bytes` long), read
/// from its file: its text cut before a char the read cut short, and
/// nothing when the file cannot be read or is not UTF-8 text.
fn saved_start(path: &str, bytes: u64, text: &mut crate::text::Text) {
    let mut start = Vec::new();
    crate::fs::read_start(path, &mut start, BODY_EXCERPT);
    // Whole chars, with the JSON reader's own UTF-8 check.
    let mut end = 0;
    while let Some(&b) = start.get(end) {
        let next = if b < 0x80 { end + 1 } else { crate::json::scan::utf8_end(&start, end) };
        if next == end {
            break;
        }
        end = next;
    }
    // Not text, unless only a char the read cut short is left.
    if end == start.len() || (start.len() == BODY_EXCERPT && start.len() - end < 4) {
        // SAFETY: `start[..end]` is whole UTF-8 chars.
        let body = unsafe { crate::sys::assume_utf8(start.get(..end).unwrap_or_default()) };
        push_excerpt(text, body, usize::try_from(bytes).unwrap_or(usize::MAX));
    }
}

fn too_big(bytes: usize) -> HttpError {
    let message = crate::text!(
        "the request is ",
        bytes,
        " bytes of JSON, over the 8 MiB (8388608 bytes) a request may hold: send a large body as a volume file (body_file)"
    );
    HttpError::new(HttpErrorKind::InvalidRequest, message)
}

/// Whether a header before `at` in `pairs` has `name` (ASCII case ignored).
fn named_before(pairs: &[u8], at: usize, name: &[u8]) -> bool {
    let mut i = 0;
    while i < at {
        let other = field(pairs, i);
        if same_name(other, name) {
            return true;
        }
        i += other.len() + field(pairs, i + other.len() + 1).len() + 2;
    }
    false
}
