//! The fetch package: one tool, `fetch`, over `subako_tiny::http`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

extern crate alloc;

use alloc::borrow::Cow;
use alloc::vec::Vec;

use subako_tiny::http::{HttpError, Method, Request, ResponseBody};
use subako_tiny::{Args, Package, Reply, Tool, ToolError, text};

/// Where `save_to` may point: the call's scratch space.
const SAVE_DIR: &str = "/volume/tmp/";

fn fetch(args: &Args<'_>) -> Result<Reply, ToolError> {
    let url = args.str("url")?;
    let method = match args.opt_str("method")? {
        None => Method::Get,
        Some(name) => Method::from_name(&name).ok_or_else(|| {
            ToolError::invalid_input(("`method` must be GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS, not ", &name))
        })?,
    };
    let headers = headers(args)?;
    let body = args.opt_str("body")?;
    let save_to = args.opt_str("save_to")?;
    if let Some(path) = &save_to {
        check_save_to(path)?;
    }
    let timeout_ms = args.opt_int("timeout_ms", 1, 600_000)?;

    let mut request = Request::new(method, &url);
    for (name, value) in &headers {
        request = request.header(name, value);
    }
    if let Some(body) = &body {
        request = request.body_text(body);
    }
    if let Some(path) = &save_to {
        request = request.save_to(path);
    }
    if let Some(ms) = timeout_ms {
        request = request.timeout_ms(ms as u64);
    }
    let response = request.send().map_err(with_hint)?;

    Ok(Reply::object(|o| {
        o.field("status", response.status).object("headers", |h| {
            for (name, value) in response.headers() {
                h.field(name, value);
            }
            h
        });
        match &response.body {
            ResponseBody::Inline { text } => o.field("body", text),
            ResponseBody::File { path, bytes } => o.field("path", path).field("bytes", *bytes),
        }
    }))
}

/// A header's name and value, borrowed from the request line when unescaped.
type Header<'a> = (Cow<'a, str>, Cow<'a, str>);

/// The `headers` argument as pairs; every value must be a string.
fn headers<'a>(args: &Args<'a>) -> Result<Vec<Header<'a>>, ToolError> {
    let mut pairs = Vec::new();
    let Some(object) = args.opt_nested("headers")?.and_then(|h| h.object()) else {
        return Ok(pairs);
    };
    for (name, value) in object.iter() {
        let name = name.to_str();
        let Some(value) = value.as_str() else {
            return Err(ToolError::invalid_input(("`headers.", &name, "` must be a string")));
        };
        pairs.push((name, value.to_str()));
    }
    Ok(pairs)
}

/// A file path under /volume/tmp that stays there (no `.` or `..`).
fn check_save_to(path: &str) -> Result<(), ToolError> {
    let inside = path.strip_prefix(SAVE_DIR).unwrap_or("");
    let stays = !inside.is_empty() && inside.split('/').all(|segment| !matches!(segment, "" | "." | ".."));
    if stays {
        Ok(())
    } else {
        Err(ToolError::invalid_input((
            "`save_to` must be a file path under /volume/tmp, such as /volume/tmp/page.bin, not ",
            path,
        )))
    }
}

/// The error as the model reads it; a body that cannot come inline says
/// how to get it.
fn with_hint(error: HttpError) -> ToolError {
    let needs_file = error.kind.needs_file();
    let error = ToolError::from(error);
    if !needs_file {
        return error;
    }
    ToolError::from(text!(error.message(), "; call again with save_to set to a path under /volume/tmp"))
}

pub const PACKAGE: Package = Package::new(
    "fetch",
    env!("CARGO_PKG_VERSION"),
    "Fetches URLs over HTTP.",
    &[Tool::new("fetch", "Fetch a URL over HTTP and return its status, headers and body.", r#"{
            "properties": {
                "url": {"description": "An https URL; the host must be one the function's network setting allows.", "type": "string"},
                "method": {"description": "HTTP method: GET (the default), HEAD, POST, PUT, PATCH, DELETE or OPTIONS.", "type": "string"},
                "headers": {"description": "Request headers by name.", "type": "object", "additionalProperties": {"type": "string"}},
                "body": {"description": "A text body to send.", "type": "string"},
                "save_to": {"description": "Save the body to this absolute volume path (under /volume/tmp) instead of returning it inline; use it for large or binary bodies.", "type": "string"},
                "timeout_ms": {"description": "Give up after this many milliseconds (the call's own time limit applies regardless).", "type": "integer", "minimum": 1, "maximum": 600000}
            },
            "required": ["url"],
            "type": "object"
        }"#, fetch).output_schema(
            r#"{
            "properties": {
                "status": {"description": "The final response's status code.", "type": "integer"},
                "headers": {"description": "Response headers, lowercase names.", "type": "object", "additionalProperties": {"type": "string"}},
                "body": {"description": "The body as text, when returned inline.", "type": "string"},
                "path": {"description": "Where the body was saved, when `save_to` was given.", "type": "string"},
                "bytes": {"description": "The saved body's size in bytes.", "type": "integer", "minimum": 0}
            },
            "required": ["status", "headers"],
            "type": "object"
        }"#,
        )],
);

subako_tiny::main!(PACKAGE);

/// The tool on the host, its requests answered by the test
/// (`subako_tiny::testing::call_with_http`): the request the tool builds, and
/// what it makes of each kind of answer, through the crate's real parsing.
#[cfg(test)]
mod tests {
    use subako_tiny::http::{HttpErrorKind, Method, Response};
    use subako_tiny::testing::{self, HttpBody};

    use super::PACKAGE;

    #[test]
    fn fetch_sends_the_request_asked_for_and_returns_the_response() {
        let arguments = r#"{"url": "https://api.example.com/orders?id=7", "method": "post",
                            "headers": {"accept": "application/json", "x-note": "caf\u00e9"},
                            "body": "one \"order\"", "timeout_ms": 5000}"#;
        let mut requests = 0;
        let called = testing::call_with_http(&PACKAGE, "fetch", arguments, |request| {
            requests += 1;
            assert_eq!(request.method, Method::Post);
            assert_eq!(request.url, "https://api.example.com/orders?id=7");
            assert_eq!(request.header("accept"), Some("application/json"));
            assert_eq!(request.header("x-note"), Some("café"));
            assert_eq!(request.body, HttpBody::Text("one \"order\"".into()));
            assert_eq!(
                (request.save_to.as_deref(), request.timeout_ms, request.follow_redirects),
                (None, Some(5000), true)
            );
            Ok(Response::inline(201, r#"{"id":7}"#).with_header("Content-Type", "application/json"))
        });
        assert_eq!(requests, 1);
        assert!(!called.is_error(), "{}", called.line());
        assert_eq!(
            called.structured(),
            Some(r#"{"status":201,"headers":{"content-type":"application/json"},"body":"{\"id\":7}"}"#)
        );
        assert_eq!(called.text(), called.structured().unwrap());
    }

    #[test]
    fn a_body_too_large_to_come_inline_says_to_use_save_to() {
        let called = testing::call_with_http(&PACKAGE, "fetch", r#"{"url": "https://h/big"}"#, |_| {
            Ok(Response::inline(200, "x".repeat(300 << 10)))
        });
        assert!(called.is_error());
        assert_eq!(
            called.text(),
            "HTTP request failed (too_large): the body is over 262144 bytes, more than comes inline: save it to a file; \
             call again with save_to set to a path under /volume/tmp"
        );
        // Other kinds come without the hint.
        let called = testing::call_with_http(&PACKAGE, "fetch", r#"{"url": "https://h/"}"#, |_| {
            Err(HttpErrorKind::HostNotAllowed.into())
        });
        assert_eq!(called.text(), "HTTP request failed (host_not_allowed): the HTTP hook answered host_not_allowed");
    }

    #[test]
    fn save_to_returns_the_path_and_size() {
        let dir = std::env::temp_dir().join(["subako-tiny-fetch-", &std::process::id().to_string()].concat());
        std::fs::create_dir_all(&dir).unwrap();
        subako_tiny::fs::mount("/volume/tmp", &dir);
        let arguments = r#"{"url": "https://h/page", "save_to": "/volume/tmp/page.html"}"#;
        let called = testing::call_with_http(&PACKAGE, "fetch", arguments, |request| {
            assert_eq!(request.save_to.as_deref(), Some("/volume/tmp/page.html"));
            Ok(Response::inline(200, "<p>hi</p>"))
        });
        assert_eq!(
            called.structured(),
            Some(r#"{"status":200,"headers":{},"path":"/volume/tmp/page.html","bytes":9}"#)
        );
        assert_eq!(std::fs::read_to_string(dir.join("page.html")).unwrap(), "<p>hi</p>");
        subako_tiny::fs::unmount("/volume/tmp");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
