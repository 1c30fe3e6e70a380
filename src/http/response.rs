//! Reading the worker's answer: a response, or why there is none.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::{HttpError, HttpErrorKind};
use core::fmt;

use crate::json::lookup::{KEY_SEPARATOR, members, parse_with_ends};
use crate::json::scan::find;
use crate::json::validator::KnownEnds;
use crate::json::write::put;
use crate::json::{self, Value};
use crate::reply::{ToolError, join};
use crate::text::{Piece, Text};

/// The final hop's response.
#[derive(Clone)]
pub struct Response {
    /// The HTTP status code, from 100 to 999.
    pub status: u16,
    /// Each header's name and then its value, unescaped, as the worker
    /// sent them. One text rather than a `Vec` of string pairs: a module
    /// that never reads a header carries no code to build or free pairs.
    headers: Fields,
    /// The same with each name once, its values joined: made the first time
    /// the headers are read, so a module that never reads one links no
    /// joining.
    joined: core::cell::OnceCell<Fields>,
    /// The body: inline text, or where it was saved.
    pub body: ResponseBody,
}

/// What ends each name and value in a [`Request`](super::Request)'s
/// headers: the byte no UTF-8 text holds that also separates the keys
/// given to `members`.
pub(super) const END: u8 = KEY_SEPARATOR;

/// Headers' names and values, each a name and then its value: their text
/// one after another, and where each ends.
#[derive(Clone, Default, PartialEq, Eq)]
struct Fields {
    text: Text,
    /// Where each name and value ends in `text`, in order, a little-endian
    /// `u32` apiece.
    ends: Vec<u8>,
}

impl Fields {
    /// Appends `part`, a name or a value.
    fn push<P: Piece + ?Sized>(&mut self, part: &P) {
        self.text.push(part);
        self.end();
    }

    /// Ends the name or value whose text was pushed to `text` last.
    fn end(&mut self) {
        put(&mut self.ends, &(self.text.len() as u32).to_le_bytes());
    }

    /// How many names and values there are.
    fn len(&self) -> usize {
        self.ends.len() / 4
    }

    /// Name or value `k`: header `k / 2`'s name when `k` is even, else its
    /// value ("" past the end).
    #[inline(never)]
    fn get(&self, k: usize) -> &str {
        // The first starts at 0: `k - 1` wraps, past the end of `ends`,
        // where `word` reads 0 (no branch for it).
        let start = word(&self.ends, k.wrapping_sub(1));
        self.text.as_str().get(start..word(&self.ends, k)).unwrap_or("")
    }
}

/// Responses are equal when they hold the same status, headers and body.
impl PartialEq for Response {
    fn eq(&self, other: &Response) -> bool {
        self.status == other.status && self.headers == other.headers && self.body == other.body
    }
}

impl Eq for Response {}

impl fmt::Debug for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Response")
            .field("status", &self.status)
            .field("headers", &self.headers())
            .field("body", &self.body)
            .finish()
    }
}

/// The headers of a [`Response`], as `(name, value)` in the worker's
/// order: names are lowercase, and each comes once, a repeated header's
/// values joined with `, ` ([`parse_answer`] says how). Made by
/// [`Response::headers`].
#[derive(Clone)]
pub struct Headers<'a> {
    fields: &'a Fields,
    /// The next header's name's index in `fields`.
    at: usize,
}

impl<'a> Iterator for Headers<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        let k = self.at;
        if k + 1 >= self.fields.len() {
            return None;
        }
        self.at = k + 2;
        Some((self.fields.get(k), self.fields.get(k + 1)))
    }
}

impl fmt::Debug for Headers<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// Where the response body is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResponseBody {
    /// In the answer, as UTF-8 text (at most 256 KiB).
    Inline {
        /// The body's text.
        text: String,
    },
    /// Saved to the volume file at `path`, `bytes` long.
    File {
        /// The volume file the body was saved to, as the request named it.
        path: String,
        /// The body's length in bytes.
        bytes: u64,
    },
}

impl Response {
    /// A response with `status`, no headers and `text` as its inline body:
    /// what a test's HTTP hook answers with
    /// (`subako_tiny::testing::with_http`).
    ///
    /// ```
    /// use subako_tiny::http::Response;
    ///
    /// let response = Response::inline(200, "{}").with_header("Content-Type", "application/json");
    /// assert_eq!(response.header("content-type"), Some("application/json"));
    /// assert_eq!(response.text(), Some("{}"));
    /// ```
    pub fn inline(status: u16, text: impl Into<String>) -> Response {
        Response::new(status, ResponseBody::Inline { text: text.into() })
    }

    /// A response with `status`, no headers and `body`.
    ///
    /// ```
    /// use subako_tiny::http::{Response, ResponseBody};
    ///
    /// let saved = ResponseBody::File { path: "/volume/tmp/page.html".into(), bytes: 512 };
    /// let response = Response::new(200, saved);
    /// assert_eq!((response.status, response.text(), response.headers().count()), (200, None, 0));
    /// ```
    pub fn new(status: u16, body: ResponseBody) -> Response {
        Response { status, headers: Fields::default(), joined: core::cell::OnceCell::new(), body }
    }

    /// Adds a header after those the response holds.
    #[must_use]
    pub fn with_header(mut self, name: &str, value: &str) -> Response {
        self.headers.push(name);
        self.headers.push(value);
        self.joined = core::cell::OnceCell::new();
        self
    }

    /// The headers, as `(name, value)` in the worker's order, each name
    /// once: a repeated header's values joined with `, `.
    ///
    /// ```
    /// use subako_tiny::http::Response;
    ///
    /// let response = Response::inline(200, "").with_header("etag", "\"v2\"").with_header("vary", "accept");
    /// assert_eq!(response.headers().collect::<Vec<_>>(), [("etag", "\"v2\""), ("vary", "accept")]);
    /// ```
    pub fn headers(&self) -> Headers<'_> {
        Headers { fields: self.joined.get_or_init(|| join_repeated(&self.headers)), at: 0 }
    }

    /// The value of header `name`, which is compared ignoring ASCII case
    /// (the worker's names are lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
    }

    /// The inline body read as JSON: one validation, then the value's
    /// accessors ([`Value::at`] for a path).
    ///
    /// # Errors
    /// When the body was saved to a file, or is not JSON (saying where).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::http::Response;
    ///
    /// let response = Response::inline(200, r#"{"rates": {"USD": 1.08}}"#);
    /// assert_eq!(response.json().unwrap().at(&["rates", "USD"]).and_then(|v| v.as_f64()), Some(1.08));
    /// let broken = Response::inline(200, "<html><body>Service unavailable, try again in a minute</body></html>");
    /// assert_eq!(
    ///     broken.json().unwrap_err().message(),
    ///     "the response body (status 200) is not JSON (expected value at byte 0): <html><body>Service unavailable, try aga…"
    /// );
    /// assert_eq!(
    ///     Response::inline(204, "").json().unwrap_err().message(),
    ///     "the response body (status 204) is not JSON (EOF while parsing a value at byte 0): (an empty body)"
    /// );
    /// ```
    pub fn json(&self) -> Result<Value<'_>, ToolError> {
        match &self.body {
            // The status and the body's start say what came instead (an
            // error page, a login form): the model can tell the tool's
            // fault from the server's.
            ResponseBody::Inline { text } => json::parse(text.as_bytes()).map_err(|e| {
                ToolError::from(crate::text!(
                    "the response body (status ",
                    self.status,
                    ") is not JSON (",
                    e.kind.describe(),
                    " at byte ",
                    e.offset,
                    "): ",
                    // Something after the colon, whatever came.
                    crate::text::clip(if text.is_empty() { "(an empty body)" } else { text }, 40)
                ))
            }),
            ResponseBody::File { path, .. } => Err(ToolError::from(crate::text!(
                "the response body was saved to ",
                path,
                ", not read: read it with fs::read"
            ))),
        }
    }

    /// The body's text, when it came inline.
    pub fn text(&self) -> Option<&str> {
        match &self.body {
            ResponseBody::Inline { text } => Some(text),
            ResponseBody::File { .. } => None,
        }
    }
}

/// Reads the answer to a request that saved its body to `save_to` (`None`:
/// a request for an inline body): `{"ok": RESPONSE}` or `{"error": {"kind",
/// "message"}}`. Anything else is an error of kind `abi` saying what is
/// wrong with it, and so is a body saved anywhere but `save_to`: the
/// answer names the file the module then reads, and a host that named
/// another (`/etc/passwd`, another tool's file) is not believed.
///
/// A header named more than once (ASCII case ignored) is read as one, in
/// the place it first came, its values joined with `, ` in the order they
/// came: HTTP's rule for repeated fields (RFC 9110, section 5.3). The
/// worker joins repeated header lines so itself; `set-cookie`, whose
/// values may hold commas, is joined the same way (as the worker does), so
/// a tool that needs each cookie cannot tell them apart.
///
/// # Examples
/// ```
/// use subako_tiny::http::raw::parse_answer;
/// use subako_tiny::http::{HttpErrorKind, ResponseBody};
///
/// let answer = br#"{"ok":{"status":200,"headers":{"vary":"accept","Vary":"origin"},"body":{"type":"file","path":"/volume/tmp/a.bin","bytes":3}}}"#;
/// let response = parse_answer(answer, Some("/volume/tmp/a.bin")).unwrap();
/// assert_eq!(response.headers().collect::<Vec<_>>(), [("vary", "accept, origin")]);
/// assert_eq!(response.body, ResponseBody::File { path: "/volume/tmp/a.bin".into(), bytes: 3 });
///
/// let error = parse_answer(answer, Some("/volume/tmp/b.bin")).unwrap_err();
/// assert_eq!(error.kind, HttpErrorKind::Abi);
/// assert_eq!(
///     error.message,
///     "subako_http answered with a file body at /volume/tmp/a.bin, but the request saved its body to /volume/tmp/b.bin"
/// );
/// ```
pub fn parse_answer(answer: &[u8], save_to: Option<&str>) -> Result<Response, HttpError> {
    let response = read_answer(answer, save_to.is_some()).unwrap_or_else(|why| Err(HttpError::malformed(why)))?;
    match (&response.body, save_to) {
        (ResponseBody::File { path, .. }, Some(save_to))
            if !crate::bytes::same(path.as_bytes(), save_to.as_bytes()) =>
        {
            Err(HttpError::new(
                HttpErrorKind::Abi,
                join(&[
                    "subako_http answered with a file body at ",
                    path,
                    ", but the request saved its body to ",
                    save_to,
                ]),
            ))
        }
        _ => Ok(response),
    }
}

/// The response or the error the answer holds, or what is wrong with it.
/// A file body only when `saved`: a module that never saves one carries
/// no code to read one.
fn read_answer(answer: &[u8], saved: bool) -> Result<Result<Response, HttpError>, &'static str> {
    // Where validation saw the answer's longest string end (the body's
    // text, most often) and its `ok` and `body` objects: each lookup below
    // then skips them in one step, so the body is read twice in all, to
    // validate it and to unescape it, not once more by every lookup.
    let mut ends = KnownEnds::NONE;
    let value = parse_with_ends(answer, &mut ends).map_err(|e| e.kind.describe())?;
    if value.as_object().is_none() {
        return Err("not a JSON object");
    }
    let ends = Some(&ends);
    match members(Some(value), b"ok\xFFerror", ends) {
        [Some(ok), None, ..] => read_response(ok, saved, ends).map(Ok),
        [None, Some(error), ..] => read_error(error, ends).map(Err),
        _ => Err("it holds neither `ok` nor `error`, or both"),
    }
}

fn string(value: Option<Value<'_>>) -> Option<String> {
    Some(value?.as_str()?.into_string())
}

fn read_error(error: Value<'_>, ends: Option<&KnownEnds>) -> Result<HttpError, &'static str> {
    let [kind, message, ..] = members(Some(error), b"kind\xFFmessage", ends);
    let (kind, message) =
        string(kind).zip(string(message)).ok_or("`error` is not an object with a string `kind` and `message`")?;
    Ok(match HttpErrorKind::from_name(&kind) {
        Some(kind) => HttpError::new(kind, message),
        // A kind newer than this crate: keep its name for the model.
        None => HttpError::new(HttpErrorKind::Abi, join(&["error kind `", &kind, "` from subako_http: ", &message])),
    })
}

fn read_response(ok: Value<'_>, saved: bool, ends: Option<&KnownEnds>) -> Result<Response, &'static str> {
    if ok.as_object().is_none() {
        return Err("`ok` is not an object");
    }
    let [status, found, body, ..] = members(Some(ok), b"status\xFFheaders\xFFbody", ends);
    let status = status.and_then(|s| s.as_u64()).filter(|s| (100..=999).contains(s));
    let status = status.ok_or("`ok.status` is not an HTTP status code")?;
    let mut headers = Fields::default();
    if let Some(found) = found {
        let found = found.as_object().ok_or("`ok.headers` is not an object")?;
        for (name, value) in found.iter() {
            let value = value.as_str().ok_or("a header in `ok.headers` is not a string")?;
            headers.push(&name);
            headers.push(&value);
        }
    }
    let body = body
        .and_then(|body| read_body(body, saved, ends))
        .ok_or("`ok.body` is not the inline or file body the request asked for")?;
    Ok(Response { status: status as u16, headers, joined: core::cell::OnceCell::new(), body })
}

/// `None` for a value that is not an object, too: `members` finds nothing in one.
fn read_body(body: Value<'_>, saved: bool, ends: Option<&KnownEnds>) -> Option<ResponseBody> {
    let [kind, text, path, bytes, ..] = members(Some(body), b"type\xFFtext\xFFpath\xFFbytes", ends);
    let kind = kind?.as_str()?;
    if kind.eq_str("inline") {
        Some(ResponseBody::Inline { text: string(text)? })
    } else if saved && kind.eq_str("file") {
        Some(ResponseBody::File { path: string(path)?, bytes: bytes?.as_u64()? })
    } else {
        None
    }
}

/// `pairs` with each name once: where it first came, with the values of
/// every header of that name (ASCII case ignored) joined with `, `. Linear
/// in the headers, as a host may send any number: a hash table finds each
/// name's first header, and each header links to the next of its name.
#[inline(never)]
fn join_repeated(pairs: &Fields) -> Fields {
    let count = pairs.len() / 2;
    // One block of 32-bit words, zeroed: for each header, 1 + the index of
    // the next header of its name (0: none), and for a name's first header
    // 1 + the index of its last so far (0 for a later header); then the
    // hash table's slots, each 1 + the index of a name's first header (0:
    // free). Through the crate's own buffer growth, not `vec!`, whose
    // allocation links code of its own.
    let slots = count.saturating_mul(2).next_power_of_two();
    let mut words = Vec::new();
    crate::sys::resize_zeroed(&mut words, (2 * count + slots).saturating_mul(4));
    let (next, last, slot_at) = (0, count, 2 * count);
    for i in 0..count {
        let name = pairs.get(2 * i).as_bytes();
        // FNV-1a, each byte with bit 5 set: names that differ only in the
        // case of letters hash alike.
        let mut slot =
            name.iter().fold(0x811c_9dc5u32, |h, b| (h ^ u32::from(b | 0x20)).wrapping_mul(0x0100_0193)) as usize;
        loop {
            slot &= slots - 1;
            let first = word(&words, slot_at + slot);
            if first == 0 {
                set_word(&mut words, slot_at + slot, i + 1);
                set_word(&mut words, last + i, i + 1);
                break;
            }
            if same_name(pairs.get(2 * (first - 1)).as_bytes(), name) {
                let tail = word(&words, last + first - 1);
                set_word(&mut words, next + tail - 1, i + 1);
                set_word(&mut words, last + first - 1, i + 1);
                break;
            }
            slot += 1;
        }
    }
    let mut joined = Fields::default();
    for i in 0..count {
        if word(&words, last + i) == 0 {
            continue;
        }
        joined.push(pairs.get(2 * i));
        let mut j = i + 1;
        while j > 0 {
            if j != i + 1 {
                joined.text.push(", ");
            }
            joined.text.push(pairs.get(2 * j - 1));
            j = word(&words, next + j - 1);
        }
        joined.end();
    }
    joined
}

/// Word `i` of [`join_repeated`]'s block or of [`Fields`]' ends (0 past
/// the end, `usize::MAX` included).
#[inline(never)]
fn word(words: &[u8], i: usize) -> usize {
    match words.get(i.wrapping_mul(4)..).and_then(|w| w.first_chunk::<4>()) {
        Some(w) => u32::from_le_bytes(*w) as usize,
        None => 0,
    }
}

#[inline(never)]
fn set_word(words: &mut [u8], i: usize, value: usize) {
    if let Some(w) = words.get_mut(i * 4..).and_then(|w| w.first_chunk_mut::<4>()) {
        *w = (value as u32).to_le_bytes();
    }
}

/// Whether two header names are the same, ASCII case ignored: a loop of
/// its own, as [`crate::bytes::same`] is, and smaller than core's.
pub(super) fn same_name(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| lower(x) == lower(y))
}

/// `b` with an ASCII capital made small, without core's table.
fn lower(b: u8) -> u8 {
    b | (u8::from(b.wrapping_sub(b'A') < 26) << 5)
}

/// The bytes of a request's `pairs` from `at` up to the next [`END`].
pub(super) fn field(pairs: &[u8], at: usize) -> &[u8] {
    pairs.get(at..find(pairs, at, END)).unwrap_or(&[])
}
