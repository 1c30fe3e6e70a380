//! An HTTP fetch written with the official SDK, for size comparison with
//! subako-tiny's own fetch example.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use subako_function_sdk::http::{self, Method, Request, RequestBody, ResponseBody, ResponseOutput};
use subako_function_sdk::{ToolError, function, package};

#[derive(Deserialize, JsonSchema)]
struct FetchInput {
    /// An https URL; the host must be one the function's network setting allows.
    url: String,
    /// HTTP method: GET (the default), HEAD, POST, PUT, PATCH, DELETE or OPTIONS.
    method: Option<String>,
    /// Request headers by name.
    headers: Option<BTreeMap<String, String>>,
    /// A text body to send.
    body: Option<String>,
    /// Save the body to this absolute volume path (under /volume/tmp) instead of returning it inline; use it for large or binary bodies.
    save_to: Option<String>,
}

#[derive(Serialize, JsonSchema)]
struct Fetched {
    /// The final response's status code.
    status: u16,
    /// Response headers, lowercase names.
    headers: BTreeMap<String, String>,
    /// The body as text, when returned inline.
    body: Option<String>,
    /// Where the body was saved, when `save_to` was given.
    path: Option<String>,
    /// The saved body's size in bytes.
    bytes: Option<u64>,
}

fn method(name: Option<&str>) -> Result<Method, ToolError> {
    let Some(name) = name else { return Ok(Method::Get) };
    Ok(match name.to_ascii_uppercase().as_str() {
        "GET" => Method::Get,
        "HEAD" => Method::Head,
        "POST" => Method::Post,
        "PUT" => Method::Put,
        "PATCH" => Method::Patch,
        "DELETE" => Method::Delete,
        "OPTIONS" => Method::Options,
        other => return Err(ToolError::new(format!("invalid input: unsupported method {other}"))),
    })
}

/// Fetch a URL over HTTP and return its status, headers and body.
#[function]
fn fetch(input: FetchInput) -> Result<Fetched, ToolError> {
    let mut request = Request::get(input.url);
    request.method = method(input.method.as_deref())?;
    request.headers = input.headers.unwrap_or_default();
    request.body = input.body.map(|text| RequestBody::Text { text });
    if let Some(path) = input.save_to {
        request.output = ResponseOutput::File { path };
    }
    let response = match http::request(&request) {
        Ok(response) => response,
        Err(e) if matches!(e.kind, http::HttpErrorKind::TooLarge | http::HttpErrorKind::NotText) => {
            return Err(ToolError::new(format!(
                "{}; call again with save_to set to a path under /volume/tmp",
                e.message
            )));
        }
        Err(e) => return Err(e.into()),
    };
    let (body, path, bytes) = match response.body {
        ResponseBody::Inline { text } => (Some(text), None, None),
        ResponseBody::File { path, bytes } => (None, Some(path), Some(bytes)),
    };
    Ok(Fetched { status: response.status, headers: response.headers, body, path, bytes })
}

package! {
    name: "fetch",
    description: "Fetches URLs over HTTP.",
    functions: [fetch],
}
