//! The host side of `subako_http`: the worker makes each HTTP request on the
//! guest's behalf, under an allowlist, with redirects followed (and re-checked)
//! here, and file bodies moving between the socket and the volume directly.

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use ureq::http;
use url::Url;
use wasmtime::{Caller, Linker};

use crate::host::{HttpConfig, State, map_guest_path};

/// A request larger than this is refused.
const MAX_REQUEST: usize = 8 << 20;
/// Inline response bodies are at most this many bytes of UTF-8.
const MAX_INLINE: usize = 256 << 10;
const MAX_REDIRECTS: usize = 10;
/// Used when the request names no `timeout_ms` (the run's time limit still applies).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// What a request leaves of the run's time for the module to answer: a
/// request that would run past the rest fails with kind `timeout`, which the
/// module can still report, rather than the run ending in the middle of it.
const ANSWER_MARGIN: Duration = Duration::from_millis(500);

pub(crate) fn add_to_linker(linker: &mut Linker<State>) -> wasmtime::Result<()> {
    linker.func_wrap("subako_http", "request", |mut c: Caller<'_, State>, ptr: i32, len: i32| -> i32 {
        host_request(&mut c, ptr, len)
    })?;
    linker.func_wrap("subako_http", "read_response", |mut c: Caller<'_, State>, ptr: i32, len: i32| -> i32 {
        host_read_response(&mut c, ptr, len)
    })?;
    Ok(())
}

fn guest_range(c: &mut Caller<'_, State>, ptr: i32, len: i32) -> Option<(wasmtime::Memory, usize, usize)> {
    let mem = c.get_export("memory")?.into_memory()?;
    let (start, len) = (ptr as u32 as usize, len as u32 as usize);
    let end = start.checked_add(len)?;
    (end <= mem.data_size(&*c)).then_some((mem, start, end))
}

fn host_request(c: &mut Caller<'_, State>, ptr: i32, len: i32) -> i32 {
    if c.data().http.is_none() {
        return -1; // the platform stub
    }
    let Some((mem, start, end)) = guest_range(c, ptr, len) else { return -1 };
    let answer = if end - start > MAX_REQUEST {
        error("invalid_request", format!("the request is {} bytes; at most {MAX_REQUEST}", end - start))
    } else {
        let req = mem.data(&*c)[start..end].to_vec();
        match perform(c.data_mut(), &req) {
            Ok(v) => json!({ "ok": v }),
            Err(e) => e,
        }
    };
    let bytes = serde_json::to_vec(&answer).unwrap_or_default();
    let n = bytes.len() as i32;
    c.data_mut().http.as_mut().unwrap().held = Some(bytes);
    n
}

fn host_read_response(c: &mut Caller<'_, State>, ptr: i32, len: i32) -> i32 {
    let held_len = match c.data().http.as_ref().and_then(|h| h.held.as_ref()) {
        Some(h) => h.len(),
        None => return -2,
    };
    let Some((mem, start, _)) = guest_range(c, ptr, len) else { return -1 };
    if len as u32 as usize != held_len {
        return -3;
    }
    let held = c.data_mut().http.as_mut().unwrap().held.take().unwrap();
    mem.data_mut(&mut *c)[start..start + held_len].copy_from_slice(&held);
    0
}

fn error(kind: &str, message: impl Into<String>) -> Value {
    json!({"error": {"kind": kind, "message": message.into()}})
}

type Answer = Result<Value, Value>;

enum Output {
    Inline,
    File { guest: String, file: OutputFile },
}

/// An output file, opened before the request is sent (review 90: a path
/// the file system refused after the check, a dangling link, a file or
/// directory it may not write, a link another call made meanwhile, was
/// refused after the request, its effect done). Left as it was until the
/// answer comes: emptied then, not before; made by the open and removed
/// again when no answer is written to it.
struct OutputFile {
    host: VolumeFile,
    file: std::fs::File,
    made: bool,
    /// The directories made for it, outermost first.
    dirs: Vec<std::path::PathBuf>,
    written: bool,
}

impl Drop for OutputFile {
    /// No answer written: what the open made is removed, the directories
    /// too while empty (review 92: they stayed).
    fn drop(&mut self) {
        if self.made && !self.written {
            let _ = cap_primitives::fs::remove_file(&self.host.dir, &self.host.relative);
            for dir in self.dirs.iter().rev() {
                let _ = cap_primitives::fs::remove_dir(&self.host.dir, dir);
            }
        }
    }
}

/// `O_NONBLOCK`: a FIFO opened with it answers at once rather than
/// waiting for its other end, past any time limit (review 92).
#[cfg(any(target_os = "linux", target_os = "android"))]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const O_NONBLOCK: i32 = 0x4;

/// A volume file is a regular file (a FIFO or a device the host put in a
/// volume would hang the call or never end).
fn regular(f: std::fs::File) -> std::io::Result<std::fs::File> {
    let m = f.metadata()?;
    if m.is_dir() {
        return Err(std::io::Error::from_raw_os_error(21));
    }
    if !m.is_file() {
        return Err(std::io::Error::other("is not a regular file (a FIFO, a socket or a device)"));
    }
    Ok(f)
}

/// A file on a volume: the volume's directory on the host, opened, and
/// the path beneath it. Opened through the directory as WASI opens a
/// module's paths (cap-primitives, as wasmtime-wasi does): a symbolic
/// link is followed while it stays in the volume and refused where it
/// leads out, whenever it was made (review 89: a link made by another
/// call after the path was checked was followed out by `std::fs`).
struct VolumeFile {
    dir: std::fs::File,
    relative: std::path::PathBuf,
}

impl VolumeFile {
    /// The file, to send as a body: streamed from it, never read whole
    /// into the host's memory (review 90: a 3 GiB file the module made took
    /// 3 GiB of the runner's).
    fn open(&self) -> std::io::Result<std::fs::File> {
        use cap_primitives::fs::OpenOptionsExt;
        regular(cap_primitives::fs::open(
            &self.dir,
            &self.relative,
            cap_primitives::fs::OpenOptions::new().read(true).custom_flags(O_NONBLOCK),
        )?)
    }

    #[cfg(test)]
    fn read(&self) -> std::io::Result<Vec<u8>> {
        let mut data = Vec::new();
        self.open()?.read_to_end(&mut data)?;
        Ok(data)
    }

    /// Creates the file's missing directories, then opens the file to
    /// write, as it is (made when missing); whether it was made.
    /// The directories made (outermost first) are given back with it;
    /// on an error, those made are removed again.
    fn create(&self) -> std::io::Result<(std::fs::File, bool, Vec<std::path::PathBuf>)> {
        use cap_primitives::fs::OpenOptionsExt;
        let mut dirs = Vec::new();
        let made = (|| {
            let mut at = std::path::PathBuf::new();
            for part in self.relative.parent().into_iter().flat_map(|p| p.components()) {
                at.push(part);
                match cap_primitives::fs::create_dir(&self.dir, &at, &cap_primitives::fs::DirOptions::new()) {
                    Ok(()) => dirs.push(at.clone()),
                    Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e),
                    Err(_) => {}
                }
            }
            let open = |options: &mut cap_primitives::fs::OpenOptions| {
                cap_primitives::fs::open(&self.dir, &self.relative, options.write(true).custom_flags(O_NONBLOCK))
            };
            match open(cap_primitives::fs::OpenOptions::new().create_new(true)) {
                Ok(f) => Ok((f, true)),
                // There already, or a link to a file not there yet (made
                // through it, as WASI makes it).
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    match open(cap_primitives::fs::OpenOptions::new().create(true)) {
                        // Review 94: "does not exist" said nothing of the link.
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                            Err(std::io::Error::other("is a symbolic link into a directory that does not exist"))
                        }
                        opened => opened.and_then(regular).map(|f| (f, false)),
                    }
                }
                Err(e) => Err(e),
            }
        })();
        match made {
            Ok((f, made)) => Ok((f, made, dirs)),
            Err(e) => {
                for dir in dirs.iter().rev() {
                    let _ = cap_primitives::fs::remove_dir(&self.dir, dir);
                }
                Err(e)
            }
        }
    }
}

/// Why the file system refused a volume path, in the words of the rule:
/// cap-primitives' own "a path led outside of the filesystem" said as the
/// check says it (review 90: the same refusal worded two ways, and every
/// error but "not found" called a link out).
fn refused(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        _ if e.kind() == std::io::ErrorKind::PermissionDenied
            && e.to_string().contains("outside of the filesystem") =>
        {
            "leads through a symbolic link out of its volume or to an absolute path, which a body or output path may not"
                .into()
        }
        Some(20) => "has a file where a directory should be".into(),
        Some(21) => "names a directory: end it with a file name".into(),
        Some(40) => "has a symbolic link that leads to itself in a loop".into(),
        // Review 92: a body file that is not there was told it was a link.
        Some(2) => "does not exist (nothing is there, or a symbolic link on the way leads to nothing)".into(),
        None if e.kind() == std::io::ErrorKind::Other => e.to_string(),
        // ENXIO: a FIFO with no reader, opened to write without waiting.
        Some(6) => "is not a regular file (a FIFO, a socket or a device)".into(),
        _ => format!("cannot be opened: {e}"),
    }
}

/// The request's object, or what was wrong with it (review 90: a lone
/// surrogate escape in a path was told the request is not a JSON object).
fn request_object(raw: &[u8]) -> Result<Map<String, Value>, Value> {
    match serde_json::from_slice::<Value>(raw) {
        Ok(Value::Object(req)) => Ok(req),
        Ok(_) => Err(error("invalid_request", "the request is not a JSON object")),
        Err(e) => Err(error("invalid_request", format!("the request is not JSON the worker reads: {e}"))),
    }
}

fn perform(state: &mut State, raw: &[u8]) -> Answer {
    let req = request_object(raw)?;
    const FIELDS: [&str; 7] = ["method", "url", "headers", "body", "output", "follow_redirects", "timeout_ms"];
    if let Some(k) = req.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(error("invalid_request", format!("unknown request field {k:?}")));
    }
    let method = req.get("method").and_then(Value::as_str).unwrap_or("GET");
    if !["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].contains(&method) {
        return Err(error(
            "invalid_request",
            format!("method {method:?} is not one of GET HEAD POST PUT PATCH DELETE OPTIONS"),
        ));
    }
    let url = req.get("url").and_then(Value::as_str).ok_or_else(|| error("invalid_request", "url is missing"))?;
    let url = Url::parse(url).map_err(|e| error("invalid_request", format!("url {url:?}: {e}")))?;
    let mut headers: Vec<(String, String)> = Vec::new();
    match req.get("headers") {
        None | Some(Value::Null) => {}
        Some(Value::Object(h)) => {
            for (k, v) in h {
                let v = v.as_str().ok_or_else(|| error("invalid_request", format!("header {k:?} is not a string")))?;
                if http::HeaderName::from_bytes(k.as_bytes()).is_err() || http::HeaderValue::from_str(v).is_err() {
                    return Err(error("invalid_request", format!("header {k:?} is not a valid header")));
                }
                let k = k.to_ascii_lowercase();
                // The connection's own, which the worker sets (the crate's
                // `Request::header` says so): a guest's are left out.
                if !CONNECTION_HEADERS.contains(&k.as_str()) {
                    headers.push((k, v.to_string()));
                }
            }
        }
        Some(_) => return Err(error("invalid_request", "headers must be an object of strings")),
    }
    // The destination before any file is opened or made for it (review
    // 90: a body file was read whole for a host the run does not allow).
    let config = state.http.as_ref().map(|h| h.config.clone()).unwrap_or_default();
    check_destination(&url, &config)?;
    let (body, content_type) = read_body(state, req.get("body"))?;
    if let Some(ct) = content_type
        && !headers.iter().any(|(k, _)| k == "content-type")
    {
        headers.push(("content-type".into(), ct.into()));
    }
    let output = match req.get("output") {
        None | Some(Value::Null) => Output::Inline,
        Some(o) => match o.get("type").and_then(Value::as_str) {
            Some("inline") => Output::Inline,
            Some("file") => {
                let guest = o.get("path").and_then(Value::as_str).ok_or_else(|| {
                    error("invalid_request", "output.path is missing: a file output names its /volume path")
                })?;
                let host = volume_path(state, guest)?;
                let (file, made, dirs) =
                    host.create().map_err(|e| error("bad_path", format!("{guest:?} {}", refused(&e))))?;
                Output::File { guest: guest.to_string(), file: OutputFile { host, file, made, dirs, written: false } }
            }
            _ => return Err(error("invalid_request", "output.type must be \"inline\" or \"file\"")),
        },
    };
    let follow = match req.get("follow_redirects") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(error("invalid_request", "follow_redirects must be a boolean")),
    };
    let timeout = match req.get("timeout_ms") {
        None | Some(Value::Null) => DEFAULT_TIMEOUT,
        Some(v) => Duration::from_millis(
            v.as_u64().ok_or_else(|| error("invalid_request", "timeout_ms must be a non-negative integer"))?,
        ),
    };
    let deadline = Instant::now() + timeout.min(state.time_left().saturating_sub(ANSWER_MARGIN));

    let mut method = method.to_string();
    let mut body = body;
    let mut url = url;
    let mut hops = 0;
    let resp = loop {
        check_destination(&url, &config)?;
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(error("timeout", "the request timed out"));
        }
        let resp = send(&method, &url, &headers, body.as_mut(), left)?;
        let status = resp.status().as_u16();
        let location = resp.headers().get("location").and_then(|v| v.to_str().ok()).map(str::to_string);
        match location {
            Some(loc) if follow && matches!(status, 301 | 302 | 303 | 307 | 308) => {
                hops += 1;
                if hops > MAX_REDIRECTS {
                    return Err(error("too_many_redirects", format!("more than {MAX_REDIRECTS} redirects")));
                }
                let next =
                    url.join(&loc).map_err(|e| error("connection", format!("bad redirect location {loc:?}: {e}")))?;
                if next.origin() != url.origin() {
                    headers.retain(|(k, _)| !matches!(k.as_str(), "authorization" | "cookie" | "proxy-authorization"));
                }
                if status == 303 || (matches!(status, 301 | 302) && method == "POST") {
                    if method != "HEAD" {
                        method = "GET".into();
                    }
                    body = None;
                    headers.retain(|(k, _)| k != "content-type" && k != "content-length");
                }
                url = next;
            }
            _ => break resp,
        }
    };
    let status = resp.status().as_u16();
    let mut out_headers = Map::new();
    for (k, v) in resp.headers() {
        let v = String::from_utf8_lossy(v.as_bytes()).into_owned();
        match out_headers.get_mut(k.as_str()) {
            Some(Value::String(s)) => {
                s.push_str(", ");
                s.push_str(&v);
            }
            _ => {
                out_headers.insert(k.as_str().to_ascii_lowercase(), Value::String(v));
            }
        }
    }
    let mut reader = resp.into_body().into_reader();
    let body = match output {
        Output::Inline => {
            let mut buf = Vec::new();
            (&mut reader).take(MAX_INLINE as u64 + 1).read_to_end(&mut buf).map_err(io_error)?;
            if buf.len() > MAX_INLINE {
                return Err(error(
                    "too_large",
                    format!("the body is over {MAX_INLINE} bytes, more than comes inline: save it to a file"),
                ));
            }
            let text = String::from_utf8(buf).map_err(|_| {
                error("not_text", "the body is not UTF-8 text, which cannot come inline: save it to a file")
            })?;
            json!({"type": "inline", "text": text})
        }
        Output::File { guest, mut file } => {
            // The platform creates the file's missing directories (the SDK's
            // `ResponseOutput::File`: "overwritten, parents created"): made
            // and opened before the request. The body is read whole into a
            // file of the host's first, and only then written over the
            // file, so that a body cut short (a timeout, a closed
            // connection, the write budget) leaves it as it was (review
            // 92: it was emptied, or held the part that came).
            let left = state.budget_left();
            let over_budget = |n: u64| {
                error(
                    "write_budget",
                    format!(
                        "the body ({n} bytes{}) would go past this call's file write budget ({left} bytes left)",
                        if n == u64::MAX { " or more" } else { "" }
                    ),
                )
            };
            // Its length as announced, where a body comes at all (review 94:
            // a HEAD's, a 204's or a 304's was refused).
            let announced = out_headers
                .get("content-length")
                .and_then(Value::as_str)
                .and_then(|n| n.parse::<u64>().ok())
                .filter(|_| method != "HEAD" && !matches!(status, 100..=199 | 204 | 304));
            if let Some(n) = announced.filter(|&n| n > left) {
                return Err(over_budget(n));
            }
            let host_error = |e: std::io::Error| error("connection", format!("keeping the body on the host: {e}"));
            let mut kept = tempfile::tempfile().map_err(host_error)?;
            let mut n: u64 = 0;
            let mut chunk = vec![0u8; 64 << 10];
            loop {
                let k = reader.read(&mut chunk).map_err(io_error)?;
                if k == 0 {
                    break;
                }
                if n + k as u64 > left {
                    return Err(over_budget(n + k as u64));
                }
                kept.write_all(&chunk[..k]).map_err(host_error)?;
                n += k as u64;
            }
            // Written over the file only now. A file system that fails the
            // copy (full: review 94) leaves a file that was there emptied or
            // partial, which a copy beside it renamed over would not; but a
            // rename replaces a link the module made within the volume,
            // which WASI writes through. A file this call made is removed.
            let written = (|| {
                std::io::Seek::rewind(&mut kept)?;
                file.file.set_len(0)?;
                std::io::copy(&mut kept, &mut file.file)
            })();
            let copied = written.map_err(|e| error("bad_path", format!("{guest}: writing the body failed: {e}")))?;
            file.written = true;
            state.written += copied;
            json!({"type": "file", "path": guest, "bytes": n})
        }
    };
    Ok(json!({"status": status, "headers": out_headers, "body": body}))
}

fn io_error(e: std::io::Error) -> Value {
    let timed_out = e.kind() == std::io::ErrorKind::TimedOut
        || e.get_ref()
            .and_then(|i| i.downcast_ref::<ureq::Error>())
            .is_some_and(|u| matches!(u, ureq::Error::Timeout(_)));
    if timed_out {
        error("timeout", "the request timed out")
    } else {
        error("connection", format!("reading the body: {e}"))
    }
}

/// The request body and the content type it implies.
/// A request body: bytes, or a volume file sent from the file.
enum Body {
    Bytes(Vec<u8>),
    File(std::fs::File),
}

fn read_body(state: &State, body: Option<&Value>) -> Result<(Option<Body>, Option<&'static str>), Value> {
    let Some(b) = body.filter(|b| !b.is_null()) else { return Ok((None, None)) };
    match b.get("type").and_then(Value::as_str) {
        Some("json") => {
            let j = b.get("json").ok_or_else(|| error("invalid_request", "body.json is missing"))?;
            Ok((Some(Body::Bytes(serde_json::to_vec(j).unwrap())), Some("application/json")))
        }
        Some("text") => {
            let t = b
                .get("text")
                .and_then(Value::as_str)
                .ok_or_else(|| error("invalid_request", "body.text is not a string"))?;
            Ok((Some(Body::Bytes(t.as_bytes().to_vec())), Some("text/plain; charset=utf-8")))
        }
        Some("file") => {
            let guest = b
                .get("path")
                .and_then(Value::as_str)
                .ok_or_else(|| error("invalid_request", "body.path is missing: a file body names its /volume path"))?;
            let host = volume_path(state, guest)?;
            let file = host.open().map_err(|e| error("bad_path", format!("{guest:?} {}", refused(&e))))?;
            Ok((Some(Body::File(file)), Some("application/octet-stream")))
        }
        _ => Err(error("invalid_request", "body.type must be \"json\", \"text\" or \"file\"")),
    }
}

/// A `/volume/…` guest path on the host, through the run's preopens,
/// checked before the request is sent as far as what is there allows.
fn volume_path(state: &State, guest: &str) -> Result<VolumeFile, Value> {
    let bad = |why: &str| error("bad_path", format!("{guest:?} {why}"));
    // The segments `map_guest_path` goes by: `//` and `/./` are nothing,
    // before `volume` as after it (review 89: `//volume/tmp/x` was told it
    // is not under /volume, while `/volume//tmp/x` was taken).
    let segments: Vec<&str> = guest.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
    // Each refusal says which rule (reviews 83 and 87: one message for all).
    if !guest.starts_with('/') || segments.first() != Some(&"volume") {
        return Err(bad("is not under /volume: a body or output file is on /volume/tmp or /volume/data"));
    }
    if guest.split('/').any(|s| s == "..") {
        return Err(bad("holds `..`, which a body or output path may not: give it without"));
    }
    let names_a_directory = guest.ends_with('/') || guest.ends_with("/.");
    if guest.contains('\0') {
        return Err(bad("holds a NUL byte, which no file name may"));
    }
    if segments.iter().any(|s| s.len() > 255) {
        return Err(bad("has a name longer than 255 bytes, the most a file system takes"));
    }
    // The path beneath the volume (review 89: past 4,095 bytes the host
    // refused it after the request).
    // The names and the `/`s between them (review 90: one byte short).
    if segments.iter().skip(2).map(|s| s.len() + 1).sum::<usize>() > 4095 + 1 {
        return Err(bad("is longer than 4,095 bytes beneath its volume, the most a path may be"));
    }
    match (segments.get(1), map_guest_path(&state.preopens, guest)) {
        _ if names_a_directory => Err(bad("names a directory (it ends in `/` or `/.`): end it with a file name")),
        (_, Some(_)) if segments.len() < 3 => Err(bad("names a directory: end it with a file name")),
        (_, Some((p, _))) => {
            let root = p.ancestors().nth(segments.len() - 2).unwrap_or(&p);
            let dir = cap_primitives::fs::open_ambient_dir(root, cap_primitives::ambient_authority())
                .map_err(|e| bad(&format!("cannot be reached: its volume's directory: {e}")))?;
            let relative: std::path::PathBuf = segments[2..].iter().collect();
            // What is there, from the top, as the module's own WASI calls
            // would find it: links followed within the volume, none out of
            // it (reviews 88, 89: a module's link out read and wrote host
            // files, and told it whether a host directory existed), a
            // directory above the file, not the file (review 87: refused
            // after the request, a POST's effect done).
            let mut at = std::path::PathBuf::new();
            for (i, part) in segments[2..].iter().enumerate() {
                at.push(part);
                let last = i + 3 == segments.len();
                match cap_primitives::fs::stat(&dir, &at, cap_primitives::fs::FollowSymlinks::Yes) {
                    Ok(m) if !last && !m.is_dir() => return Err(bad("has a file where a directory should be")),
                    Ok(m) if last && m.is_dir() => return Err(bad("names a directory: end it with a file name")),
                    Ok(_) => {}
                    // A link to nothing where a directory should be (review
                    // 90: let through, the request was sent, then the open
                    // failed); the file itself may be one, made through it.
                    Err(e)
                        if e.kind() == std::io::ErrorKind::NotFound
                            && !last
                            && cap_primitives::fs::stat(&dir, &at, cap_primitives::fs::FollowSymlinks::No).is_ok() =>
                    {
                        return Err(bad("has a symbolic link to nothing where a directory should be"));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                    Err(e) => return Err(bad(&refused(&e))),
                }
            }
            Ok(VolumeFile { dir, relative })
        }
        (Some(&"data"), None) if segments.len() > 2 => {
            Err(bad("is not under a mounted volume (/volume/data is not mounted: the agent has not enabled it)"))
        }
        (Some(volume), None) if segments.len() > 2 => Err(bad(&format!(
            "is not under a mounted volume (/volume/{volume} is no volume: they are /volume/tmp and /volume/data)"
        ))),
        _ => Err(bad("is not a file in a volume: a body or output file is on /volume/tmp or /volume/data")),
    }
}

/// An allowlist entry: a host (or `*.` and a domain), with a port or any.
fn allow_entry(entry: &str) -> (String, Option<u16>) {
    let a = entry.to_ascii_lowercase();
    // `[v6]:port`: the host is in the brackets.
    if let Some((v6, port)) = a.strip_prefix('[').and_then(|rest| rest.split_once("]:"))
        && let Ok(port) = port.parse::<u16>()
    {
        return (v6.to_string(), Some(port));
    }
    match a.rsplit_once(':') {
        Some((h, p)) if !h.is_empty() && !h.contains(':') && p.parse::<u16>().is_ok() => {
            (h.to_string(), p.parse::<u16>().ok())
        }
        _ => (a.trim_start_matches('[').trim_end_matches(']').to_string(), None),
    }
}

/// Whether an entry's host (already lowercase) names `host` (lowercase).
fn entry_names_host(entry_host: &str, host: &str) -> bool {
    match entry_host.strip_prefix("*.") {
        Some(suffix) => host.ends_with(&format!(".{suffix}")),
        None => entry_host == host,
    }
}

fn host_allowed(host: &str, port: u16, allow: &[String]) -> bool {
    let host = host.to_ascii_lowercase();
    allow.iter().any(|a| {
        let (entry_host, entry_port) = allow_entry(a);
        entry_port.is_none_or(|p| p == port) && entry_names_host(&entry_host, &host)
    })
}

fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v) => {
            let o = v.octets();
            v.is_private()
                || v.is_link_local()
                || v.is_unspecified()
                || v.is_broadcast()
                || v.is_multicast()
                || v.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (o[1] & 0xc0) == 64) // carrier-grade NAT
                || (o[0] == 198 && (o[1] & 0xfe) == 18) // benchmarking
                || o[0] >= 240
        }
        IpAddr::V6(v) => {
            if let Some(v4) = v.to_ipv4_mapped() {
                return v4.is_loopback() || is_private(IpAddr::V4(v4));
            }
            let s = v.segments();
            v.is_unspecified() || v.is_multicast() || (s[0] & 0xfe00) == 0xfc00 || (s[0] & 0xffc0) == 0xfe80
        }
    }
}

fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V6(v) => v.is_loopback() || v.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
        IpAddr::V4(v) => v.is_loopback(),
    }
}

/// The answer to every request of a run whose grant names no host at all:
/// `call` and `serve` without `--allow-host` or `--allow-loopback`.
pub(crate) const NO_NETWORK: &str =
    "this call has no network: pass --allow-host HOST (and --allow-loopback for 127.0.0.1)";

/// The grant and the destination rules, checked for every hop. Each refusal
/// of the runner's own policy names the flag that would allow the request.
fn check_destination(url: &Url, config: &HttpConfig) -> Result<(), Value> {
    let scheme = url.scheme();
    if scheme != "http" && scheme != "https" {
        return Err(error("invalid_request", format!("scheme {scheme:?} is not http or https")));
    }
    let host = url.host_str().ok_or_else(|| error("invalid_request", "the url has no host"))?;
    let port = url.port_or_known_default().unwrap_or(443);
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if config.allow_hosts.is_empty() && !config.allow_loopback {
        return Err(error("host_not_allowed", NO_NETWORK));
    }
    if !host_allowed(bare, port, &config.allow_hosts) {
        // Entries that name the host with another port.
        let lower = bare.to_ascii_lowercase();
        let other_ports: Vec<&str> = config
            .allow_hosts
            .iter()
            .filter(|a| {
                let (entry_host, entry_port) = allow_entry(a);
                entry_port.is_some() && entry_names_host(&entry_host, &lower)
            })
            .map(String::as_str)
            .collect();
        let message = if other_ports.is_empty() {
            format!("{bare} is not in this function's network allowlist: pass --allow-host {bare}")
        } else {
            format!(
                "{bare}:{port} is not in this function's network allowlist, which allows {bare} only as {}: pass \
                 --allow-host {bare}:{port} (or {bare} for any port)",
                other_ports.join(", ")
            )
        };
        return Err(error("host_not_allowed", message));
    }
    let addrs: Vec<SocketAddr> = match bare.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => (bare, port)
            .to_socket_addrs()
            .map_err(|e| error("connection", format!("cannot resolve {bare}: {e}")))?
            .collect(),
    };
    for a in &addrs {
        let ip = a.ip();
        if is_loopback(ip) {
            if !config.allow_loopback {
                return Err(error(
                    "forbidden_destination",
                    format!("{bare} is a loopback address: pass --allow-loopback"),
                ));
            }
        } else if is_private(ip) {
            return Err(error(
                "forbidden_destination",
                format!(
                    "{bare} resolves to a private address ({ip}), which no flag allows \
                     (only loopback, with --allow-loopback)"
                ),
            ));
        }
    }
    if scheme == "http" && !(config.allow_loopback && !addrs.is_empty() && addrs.iter().all(|a| is_loopback(a.ip()))) {
        // A loopback address without --allow-loopback was refused above.
        return Err(error(
            "forbidden_destination",
            format!(
                "plain http:// to {bare}: use https (plain http is allowed to loopback addresses only, with --allow-loopback)"
            ),
        ));
    }
    Ok(())
}

/// Headers of the connection, not the request: the client sets them.
const CONNECTION_HEADERS: [&str; 9] = [
    "host",
    "content-length",
    "connection",
    "transfer-encoding",
    "keep-alive",
    "upgrade",
    "te",
    "trailer",
    "proxy-connection",
];

fn send(
    method: &str,
    url: &Url,
    headers: &[(String, String)],
    body: Option<&mut Body>,
    timeout: Duration,
) -> Result<http::Response<ureq::Body>, Value> {
    let agent = ureq::Agent::config_builder()
        .max_redirects(0)
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .proxy(None)
        .user_agent("subako-tiny-runner")
        .build()
        .new_agent();
    let mut b = http::Request::builder().method(method).uri(url.as_str());
    for (k, v) in headers {
        b = b.header(k.as_str(), v.as_str());
    }
    let result = match body {
        Some(Body::Bytes(bytes)) => b.body(&bytes[..]).map(|r| agent.run(r)),
        Some(Body::File(file)) => {
            // From its start, again after a redirect that keeps the body.
            std::io::Seek::rewind(file).map_err(|e| error("bad_path", format!("reading the body file: {e}")))?;
            b.body(&*file).map(|r| agent.run(r))
        }
        None => b.body(()).map(|r| agent.run(r)),
    };
    match result {
        Err(e) => Err(error("invalid_request", e.to_string())),
        Ok(Ok(r)) => Ok(r),
        Ok(Err(ureq::Error::Timeout(_))) => Err(error("timeout", "the request timed out")),
        Ok(Err(ureq::Error::Io(e))) if e.kind() == std::io::ErrorKind::TimedOut => {
            Err(error("timeout", "the request timed out"))
        }
        Ok(Err(e)) => Err(error("connection", e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file is opened through the volume's directory whenever a link
    /// was made (review 89: a link another call made after the path was
    /// checked was followed out): one out of the volume is refused at the
    /// open itself, one within it followed.
    #[test]
    fn a_volume_file_is_opened_within_its_volume_whatever_links_are_there() {
        let (root, outside) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        std::fs::write(outside.path().join("secret"), "host file").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.path().join("out")).unwrap();
        std::os::unix::fs::symlink(
            "../../../../../../../../../../..".to_string() + &outside.path().display().to_string(),
            root.path().join("rel"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root.path().join("secret")).unwrap();
        std::fs::create_dir(root.path().join("inside")).unwrap();
        std::os::unix::fs::symlink("inside", root.path().join("alias")).unwrap();
        let file = |relative: &str| super::VolumeFile {
            dir: cap_primitives::fs::open_ambient_dir(root.path(), cap_primitives::ambient_authority()).unwrap(),
            relative: relative.into(),
        };
        for relative in ["out/planted", "out/new/planted", "rel/planted", "secret"] {
            assert!(file(relative).create().is_err(), "{relative}");
            assert!(file(relative).read().is_err(), "{relative}");
        }
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1, "nothing made outside");
        assert_eq!(std::fs::read_to_string(outside.path().join("secret")).unwrap(), "host file");
        let (mut kept, made, dirs) = file("alias/deep/kept").create().unwrap();
        assert!(made);
        assert_eq!(dirs, [std::path::PathBuf::from("alias/deep")], "the directory made, through the link");
        std::io::Write::write_all(&mut kept, b"kept").unwrap();
        assert_eq!(file("inside/deep/kept").read().unwrap(), b"kept");
        // Opened as it is, not emptied: the answer empties it.
        assert!(!file("inside/deep/kept").create().unwrap().1);
        assert_eq!(file("alias/deep/kept").read().unwrap(), b"kept");
        // The refusals, in the check's words.
        std::os::unix::fs::symlink("loop", root.path().join("loop")).unwrap();
        let why = |relative: &str| refused(&file(relative).create().unwrap_err());
        assert_eq!(why("loop/x"), "has a symbolic link that leads to itself in a loop");
        assert_eq!(
            why("secret"),
            "leads through a symbolic link out of its volume or to an absolute path, which a body or output path may not"
        );
        assert_eq!(refused(&file("inside").open().unwrap_err()), "names a directory: end it with a file name");
    }

    #[test]
    fn a_request_that_is_not_json_is_told_why() {
        let said = |raw: &str| request_object(raw.as_bytes()).unwrap_err()["error"]["message"].clone();
        assert_eq!(said("[1]"), "the request is not a JSON object");
        let surrogate = said(r#"{"url": "http://x/", "output": {"type": "file", "path": "/volume/tmp/\ud800"}}"#);
        assert!(
            surrogate
                .as_str()
                .unwrap()
                .starts_with("the request is not JSON the worker reads: unexpected end of hex escape"),
            "{surrogate}"
        );
    }

    #[test]
    fn allowlist() {
        let a = vec!["api.example.com".to_string(), "*.github.io".into(), "127.0.0.1:8080".into()];
        assert!(host_allowed("API.example.com", 443, &a));
        assert!(host_allowed("x.github.io", 443, &a));
        assert!(!host_allowed("github.io", 443, &a));
        assert!(host_allowed("127.0.0.1", 8080, &a));
        assert!(!host_allowed("127.0.0.1", 8081, &a));
        assert!(!host_allowed("example.com", 443, &a));
        // IPv6, bare or in brackets, with a port or not (`[::1]:8080` never matched).
        let v6 = vec!["[::1]:8080".to_string(), "::2".into(), "[::3]".into()];
        assert!(host_allowed("::1", 8080, &v6));
        assert!(!host_allowed("::1", 8081, &v6));
        assert!(host_allowed("::2", 443, &v6));
        assert!(host_allowed("::3", 443, &v6));
    }

    #[test]
    fn private() {
        for ip in ["10.0.0.1", "192.168.1.1", "172.16.0.1", "169.254.169.254", "0.0.0.0", "::", "fd00::1", "fe80::1"] {
            assert!(is_private(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["8.8.8.8", "2606:4700::1111"] {
            assert!(!is_private(ip.parse().unwrap()), "{ip}");
        }
        assert!(is_loopback("::1".parse().unwrap()));
    }
}
