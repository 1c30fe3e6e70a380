//! Reading the worker's answer: a response, or why there is none.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::{HttpError, HttpErrorKind};
use crate::json::{self, Object, Value};

/// The final hop's response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The HTTP status code, from 100 to 999.
    pub status: u16,
    /// `(name, value)` in the worker's order; names are lowercase, repeated
    /// headers joined with `, `.
    pub headers: Vec<(String, String)>,
    /// The body: inline text, or where it was saved.
    pub body: ResponseBody,
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
        Response { status, headers: Vec::new(), body: ResponseBody::Inline { text: text.into() } }
    }

    /// Adds a header after those the response holds.
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Response {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The value of header `name`, which is compared ignoring ASCII case
    /// (the worker's names are lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body's text, when it came inline.
    pub fn text(&self) -> Option<&str> {
        match &self.body {
            ResponseBody::Inline { text } => Some(text),
            ResponseBody::File { .. } => None,
        }
    }
}

/// Reads an answer: `{"ok": RESPONSE}` or `{"error": {"kind", "message"}}`.
/// Anything else is an error of kind `abi` saying what is wrong with it.
pub fn parse_answer(answer: &[u8]) -> Result<Response, HttpError> {
    let value = json::parse(answer).map_err(|e| HttpError::malformed(e.kind.describe()))?;
    let Some(answer) = value.as_object() else {
        return Err(HttpError::malformed("not a JSON object"));
    };
    match (answer.get("ok"), answer.get("error")) {
        (Some(ok), None) => read_response(ok),
        (None, Some(error)) => Err(read_error(error)?),
        _ => Err(HttpError::malformed("it holds neither `ok` nor `error`, or both")),
    }
}

fn string(object: &Object<'_>, key: &str) -> Option<String> {
    Some(object.get(key)?.as_str()?.to_str().into_owned())
}

fn read_error(error: Value<'_>) -> Result<HttpError, HttpError> {
    let fields = error.as_object().and_then(|e| Some((string(&e, "kind")?, string(&e, "message")?)));
    let Some((kind, message)) = fields else {
        return Err(HttpError::malformed("`error` is not an object with a string `kind` and `message`"));
    };
    Ok(match HttpErrorKind::from_name(&kind) {
        Some(kind) => HttpError::new(kind, message),
        // A kind newer than this crate: keep its name for the model.
        None => HttpError::new(HttpErrorKind::Abi, ["error kind `", &kind, "` from subako_http: ", &message].concat()),
    })
}

fn read_response(ok: Value<'_>) -> Result<Response, HttpError> {
    let Some(ok) = ok.as_object() else {
        return Err(HttpError::malformed("`ok` is not an object"));
    };
    let status = ok.get("status").and_then(|s| s.as_u64()).filter(|s| (100..=999).contains(s));
    let Some(status) = status else {
        return Err(HttpError::malformed("`ok.status` is not an HTTP status code"));
    };
    let mut headers = Vec::new();
    if let Some(found) = ok.get("headers") {
        let Some(found) = found.as_object() else {
            return Err(HttpError::malformed("`ok.headers` is not an object"));
        };
        for (name, value) in found.iter() {
            let Some(value) = value.as_str() else {
                return Err(HttpError::malformed("a header in `ok.headers` is not a string"));
            };
            headers.push((name.to_str().into_owned(), value.to_str().into_owned()));
        }
    }
    let body = ok.get("body").and_then(|b| b.as_object()).and_then(|b| read_body(&b));
    let Some(body) = body else {
        return Err(HttpError::malformed("`ok.body` is not an inline or a file body"));
    };
    Ok(Response { status: status as u16, headers, body })
}

fn read_body(body: &Object<'_>) -> Option<ResponseBody> {
    let kind = body.get("type")?.as_str()?;
    if kind.eq_str("inline") {
        Some(ResponseBody::Inline { text: string(body, "text")? })
    } else if kind.eq_str("file") {
        Some(ResponseBody::File { path: string(body, "path")?, bytes: body.get("bytes")?.as_u64()? })
    } else {
        None
    }
}
