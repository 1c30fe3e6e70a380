//! [`real_http`]: a tool's request made for real from the test's process,
//! over plain HTTP/1.1 on a TCP connection, and [`response_with_bytes`]:
//! the worker's rules for a body of any bytes.

extern crate std;

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use super::{HttpBody, HttpRequest};
use crate::http::{HttpError, HttpErrorKind, INLINE_MAX_BYTES, Method, Response, ResponseBody};

/// As on the worker: redirects followed at most, and the wait for a
/// request that names no `timeout_ms`.
const MAX_REDIRECTS: usize = 10;
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Answers `request` by making it: a handler for
/// [`call_with_http`](super::call_with_http) and
/// [`with_http`](super::with_http) that sends it to a real server, such as
/// one the test starts on 127.0.0.1, and hands the tool what the worker
/// would: headers as the server sent them (the worker's rules then
/// lowercase and join them), redirects followed as the request asks (up to
/// 10; a 303, or a 301 or 302 to a POST, goes on as a GET without a body),
/// the body inline when it is UTF-8 of at most 256 KiB or saved to the
/// request's `save_to` file, else the worker's error
/// ([`response_with_bytes`]). A `body_file` is read through the test's
/// mounts ([`crate::fs::mount`]). The URL goes out as the worker's URL
/// parser sends it: without its `#` fragment, and percent-encoded where
/// it must be (`?city=東京` as `?city=%E6%9D%B1%E4%BA%AC`, a space as
/// `%20`); a value holding `&`, `=`, `+` or `#` still needs
/// [`http::url_component`](crate::http::url_component) first.
///
/// It speaks plain `http://` only (no TLS, no proxy) and checks no
/// allowlist: requests to `https://` URLs fail with kind
/// `invalid_request`, saying so. A refused connection fails with kind
/// `connection`, a server that does not answer within the request's
/// `timeout_ms` (30 s without one) with kind `timeout`.
///
/// # Examples
/// ```
/// use std::io::{Read, Write};
/// use subako_tiny::http::Request;
/// use subako_tiny::testing;
///
/// // A server that answers one request with 404 and a text body.
/// let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
/// let url = format!("http://{}/missing", listener.local_addr().unwrap());
/// std::thread::spawn(move || {
///     let (mut stream, _) = listener.accept().unwrap();
///     let mut head = [0; 1024];
///     let _ = stream.read(&mut head);
///     let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 12\r\n\r\nno such page");
/// });
///
/// let error = testing::with_http(testing::real_http, || Request::get(&url).send_ok()).unwrap_err();
/// assert_eq!(error.message(), format!("GET {url} answered 404: no such page"));
/// ```
pub fn real_http(request: &HttpRequest) -> Result<Response, HttpError> {
    let timeout = request.timeout_ms.map_or(DEFAULT_TIMEOUT, Duration::from_millis);
    let (mut body, content_type) = match &request.body {
        HttpBody::None => (None, None),
        HttpBody::Text(text) => (Some(text.as_bytes().to_vec()), Some("text/plain; charset=utf-8")),
        HttpBody::Json(json) => (Some(json.as_bytes().to_vec()), Some("application/json")),
        HttpBody::File(path) => {
            let bytes = crate::fs::read(path).map_err(|e| HttpError::new(HttpErrorKind::BadPath, e.message()))?;
            (Some(bytes), Some("application/octet-stream"))
        }
    };
    let mut headers = request.headers.clone();
    if let Some(content_type) = content_type
        && !headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("content-type"))
    {
        headers.push(("content-type".to_owned(), content_type.to_owned()));
    }
    let mut method = request.method;
    let mut url = request.url.clone();
    for _ in 0..=MAX_REDIRECTS {
        let answer = exchange(method, &url, &headers, body.as_deref(), timeout)?;
        let location = answer.header("location").map(ToOwned::to_owned);
        match location {
            Some(location) if request.follow_redirects && matches!(answer.status, 301 | 302 | 303 | 307 | 308) => {
                let next = join_url(&url, &location);
                if origin(&next) != origin(&url) {
                    headers.retain(|(name, _)| {
                        !["authorization", "cookie", "proxy-authorization"].iter().any(|h| name.eq_ignore_ascii_case(h))
                    });
                }
                if answer.status == 303 || (matches!(answer.status, 301 | 302) && method == Method::Post) {
                    if method != Method::Head {
                        method = Method::Get;
                    }
                    body = None;
                    headers.retain(|(name, _)| {
                        !name.eq_ignore_ascii_case("content-type") && !name.eq_ignore_ascii_case("content-length")
                    });
                }
                url = next;
            }
            _ => {
                let mut response = response_with_bytes(request, answer.status, &answer.body)?;
                for (name, value) in &answer.headers {
                    response = response.with_header(name, value);
                }
                return Ok(response);
            }
        }
    }
    Err(HttpError::new(HttpErrorKind::TooManyRedirects, format!("more than {MAX_REDIRECTS} redirects")))
}

/// The response the worker hands over for a body of any `bytes` with
/// `status`: saved to the request's `save_to` file when it names one
/// (through the test's mounts), else inline when it is UTF-8 text of at
/// most 256 KiB, else the worker's error, `too_large` or `not_text`. For a
/// test's handler that answers with bytes, binary or not UTF-8, as a server
/// may.
///
/// # Examples
/// ```
/// use subako_tiny::http::{HttpErrorKind, Request};
/// use subako_tiny::testing;
///
/// let png = [0x89, b'P', b'N', b'G'];
/// let error = testing::with_http(|request| testing::response_with_bytes(request, 200, &png), || {
///     Request::get("https://example.com/logo.png").send()
/// })
/// .unwrap_err();
/// assert_eq!(error.kind, HttpErrorKind::NotText);
/// assert_eq!(error.message, "the body is not UTF-8 text, which cannot come inline: save it to a file");
///
/// // Saved, into directories made for it, as the worker makes them.
/// let dir = std::env::temp_dir().join(format!("subako-save-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// subako_tiny::fs::mount("/volume/tmp", &dir);
/// let saved = testing::with_http(|request| testing::response_with_bytes(request, 200, &png), || {
///     Request::get("https://example.com/logo.png").save_to("/volume/tmp/img/2026/logo.png").send()
/// })
/// .unwrap();
/// assert_eq!(std::fs::read(dir.join("img/2026/logo.png")).unwrap(), png);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn response_with_bytes(request: &HttpRequest, status: u16, bytes: &[u8]) -> Result<Response, HttpError> {
    if let Some(path) = &request.save_to {
        save(path, bytes)?;
        return Ok(Response::new(status, ResponseBody::File { path: path.clone(), bytes: bytes.len() as u64 }));
    }
    if bytes.len() > INLINE_MAX_BYTES {
        return Err(HttpError::new(
            HttpErrorKind::TooLarge,
            "the body is over 262144 bytes, more than comes inline: save it to a file",
        ));
    }
    match core::str::from_utf8(bytes) {
        Ok(text) => Ok(Response::inline(status, text)),
        Err(_) => Err(HttpError::new(
            HttpErrorKind::NotText,
            "the body is not UTF-8 text, which cannot come inline: save it to a file",
        )),
    }
}

/// What one exchange brought back.
struct Answer {
    status: u16,
    /// As the server wrote them.
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Writes a saved body as the worker does: the file overwritten, its
/// missing directories created (the official SDK's `ResponseOutput::File`).
pub(super) fn save(path: &str, bytes: &[u8]) -> Result<(), HttpError> {
    let failed = |e: crate::fs::FsError| HttpError::new(HttpErrorKind::BadPath, e.message());
    if let Some((parent, _)) = path.rsplit_once('/')
        && !parent.is_empty()
    {
        crate::fs::create_dir_all(parent).map_err(failed)?;
    }
    crate::fs::write(path, bytes).map_err(failed)
}

/// `http://HOST[:PORT]PATH` split into the address to connect to, the
/// `host` header and the request target.
fn split_url(url: &str) -> Result<(String, String, String), HttpError> {
    // The fragment stays with the client, as the worker's URL parser keeps it.
    let url = url.split('#').next().unwrap_or_default();
    let Some(rest) = url.strip_prefix("http://") else {
        return Err(HttpError::new(
            HttpErrorKind::InvalidRequest,
            format!(
                "testing::real_http makes plain http:// requests only (to a server the test starts, such as on \
                 127.0.0.1), not {url}: answer it with a closure of the test's instead"
            ),
        ));
    };
    let (authority, target) = match rest.find(['/', '?']) {
        Some(at) => (&rest[..at], &rest[at..]),
        None => (rest, "/"),
    };
    let target = worker_target(target);
    // An IPv6 literal's colons are inside its brackets.
    let has_port = authority.rfind(':').is_some_and(|colon| !authority[colon..].contains(']'));
    let address = if has_port { authority.to_owned() } else { format!("{authority}:80") };
    Ok((address, authority.to_owned(), target))
}

/// A URL's path and query as the worker sends them: its URL parser (the
/// WHATWG rules) drops tabs and line breaks, reads `\\` in the path as
/// `/`, and percent-encodes UTF-8 beyond ASCII, controls, space, `"`, `<`
/// and `>` everywhere, `` ` ``, `{` and `}` in the path and `'` in the
/// query; a `%` already there is sent as it is. `東京` is sent as
/// `%E6%9D%B1%E4%BA%AC`, as on the worker, rather than as raw bytes.
fn worker_target(target: &str) -> String {
    let mut out = String::from(if target.starts_with('?') { "/" } else { "" });
    let mut in_query = false;
    for &b in target.as_bytes() {
        match b {
            b'\t' | b'\n' | b'\r' => {}
            b'?' if !in_query => {
                in_query = true;
                out.push('?');
            }
            b'\\' if !in_query => out.push('/'),
            _ if !(0x20..0x7F).contains(&b)
                || b" \"<>".contains(&b)
                || (if in_query { &b"'"[..] } else { b"`{}" }).contains(&b) =>
            {
                out.push_str(&format!("%{b:02X}"));
            }
            _ => out.push(b as char),
        }
    }
    out
}

/// `http://HOST[:PORT]` of `url`.
fn origin(url: &str) -> &str {
    let after = url.find("://").map_or(0, |at| at + 3);
    url.get(after..).and_then(|rest| rest.find('/')).map_or(url, |end| &url[..after + end])
}

/// A redirect's `location` resolved against the URL it came from.
fn join_url(base: &str, location: &str) -> String {
    if location.contains("://") {
        location.to_owned()
    } else if location.starts_with('/') {
        format!("{}{location}", origin(base))
    } else {
        // Relative to the base's directory (its path up to the last `/`).
        let path_end = base.find('?').unwrap_or(base.len());
        let directory =
            base[..path_end].rfind('/').filter(|&at| at >= origin(base).len()).map_or(base, |at| &base[..=at]);
        if directory == base { format!("{base}/{location}") } else { format!("{directory}{location}") }
    }
}

/// One request on one connection, answered to its end (`connection:
/// close`).
fn exchange(
    method: Method,
    url: &str,
    headers: &[(String, String)],
    body: Option<&[u8]>,
    timeout: Duration,
) -> Result<Answer, HttpError> {
    let (address, host, target) = split_url(url)?;
    let connection = |e: std::io::Error| match e.kind() {
        ErrorKind::TimedOut | ErrorKind::WouldBlock => HttpError::new(HttpErrorKind::Timeout, "the request timed out"),
        // The worker names no URL either: `send_ok` names the request.
        _ => HttpError::new(HttpErrorKind::Connection, format!("io: {e}")),
    };
    let addresses: Vec<_> = address.to_socket_addrs().map_err(connection)?.collect();
    let first = addresses.first().ok_or_else(|| connection(ErrorKind::NotFound.into()))?;
    let mut stream = TcpStream::connect_timeout(first, timeout).map_err(connection)?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(connection)?;
    let mut head = format!("{} {target} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n", method.as_str());
    for (name, value) in headers {
        if !name.eq_ignore_ascii_case("host") && !name.eq_ignore_ascii_case("connection") {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    if let Some(body) = body {
        head.push_str(&format!("content-length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body.unwrap_or_default())).map_err(connection)?;
    let mut answer = Vec::new();
    // A server may close once it has answered, before reading all we sent.
    if let Err(e) = stream.read_to_end(&mut answer)
        && (answer.is_empty() || e.kind() != ErrorKind::ConnectionReset)
    {
        return Err(connection(e));
    }
    read_answer(&answer, method == Method::Head).map_err(|why| {
        HttpError::new(HttpErrorKind::Connection, format!("{url} answered with a malformed HTTP response: {why}"))
    })
}

/// A whole HTTP/1.x response: its status, headers and body (none to a
/// HEAD), the body by `transfer-encoding: chunked`, `content-length`, or
/// up to the end.
fn read_answer(bytes: &[u8], head_only: bool) -> Result<Answer, String> {
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n").ok_or("it ends before its headers do")?;
    let head = core::str::from_utf8(&bytes[..end]).map_err(|_| "its headers are not UTF-8")?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .strip_prefix("HTTP/1.")
        .and_then(|rest| rest.get(2..5))
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or_else(|| format!("no status in {status_line:?}"))?;
    let mut headers = Vec::new();
    for line in lines {
        let (name, value) = line.split_once(':').ok_or_else(|| format!("header line {line:?} has no colon"))?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let mut answer = Answer { status, headers, body: Vec::new() };
    let rest = &bytes[end + 4..];
    if head_only || status == 204 || status == 304 {
        return Ok(answer);
    }
    answer.body = if answer.header("transfer-encoding").is_some_and(|te| te.eq_ignore_ascii_case("chunked")) {
        dechunk(rest)?
    } else if let Some(length) = answer.header("content-length") {
        let length: usize = length.parse().map_err(|_| format!("content-length {length:?} is not a number"))?;
        rest.get(..length).ok_or_else(|| format!("its body ends before its {length} bytes"))?.to_vec()
    } else {
        rest.to_vec()
    };
    Ok(answer)
}

/// A chunked body's bytes.
fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let line_end = rest.windows(2).position(|w| w == b"\r\n").ok_or("a chunk has no size line")?;
        let size = core::str::from_utf8(&rest[..line_end]).unwrap_or_default();
        let size = size.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size, 16).map_err(|_| format!("chunk size {size:?} is not hexadecimal"))?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        body.extend_from_slice(rest.get(..size).ok_or("a chunk ends early")?);
        rest = rest.get(size + 2..).ok_or("a chunk ends early")?;
    }
}
