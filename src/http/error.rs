//! Why a request produced no response, in the platform's words.

use alloc::string::String;

use super::raw::{ABI_LENGTH_MISMATCH, ABI_NOTHING_HELD, ABI_OUT_OF_BOUNDS};
use crate::reply::{ToolError, join};

/// The kinds of failure the platform names, plus `abi` for the import
/// itself misbehaving (or missing, off the worker).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpErrorKind {
    /// The request does not parse, or names a method, URL or header no
    /// request can carry; also a request over 8 MiB.
    InvalidRequest,
    /// The function's network grant does not admit the host.
    HostNotAllowed,
    /// Plain http, or an address in a private or reserved range.
    ForbiddenDestination,
    /// A header the request sets is one a credential sets for that origin.
    CredentialHeader,
    /// No single usable credential for an origin the grant lists.
    CredentialUnavailable,
    /// More redirects than a request may follow
    /// ([`Request::follow_redirects`](super::Request::follow_redirects)).
    TooManyRedirects,
    /// The request ran past its time limit
    /// ([`Request::timeout_ms`](super::Request::timeout_ms), or the worker's
    /// default) or past what is left of the call's.
    Timeout,
    /// The response body is over 256 KiB: save it to a file.
    TooLarge,
    /// The response body is not UTF-8: save it to a file.
    NotText,
    /// Saving the response would pass the call's write budget.
    WriteBudget,
    /// A body or output path is not a usable volume file.
    BadPath,
    /// The connection failed or the server broke the exchange.
    Connection,
    /// The import misbehaved or is absent, or its answer is not one.
    Abi,
}

impl HttpErrorKind {
    /// Every kind, in the platform's order.
    pub const ALL: [HttpErrorKind; 13] = [
        HttpErrorKind::InvalidRequest,
        HttpErrorKind::HostNotAllowed,
        HttpErrorKind::ForbiddenDestination,
        HttpErrorKind::CredentialHeader,
        HttpErrorKind::CredentialUnavailable,
        HttpErrorKind::TooManyRedirects,
        HttpErrorKind::Timeout,
        HttpErrorKind::TooLarge,
        HttpErrorKind::NotText,
        HttpErrorKind::WriteBudget,
        HttpErrorKind::BadPath,
        HttpErrorKind::Connection,
        HttpErrorKind::Abi,
    ];

    /// The kind's name on the wire (`host_not_allowed`).
    pub const fn as_str(self) -> &'static str {
        match self {
            HttpErrorKind::InvalidRequest => "invalid_request",
            HttpErrorKind::HostNotAllowed => "host_not_allowed",
            HttpErrorKind::ForbiddenDestination => "forbidden_destination",
            HttpErrorKind::CredentialHeader => "credential_header",
            HttpErrorKind::CredentialUnavailable => "credential_unavailable",
            HttpErrorKind::TooManyRedirects => "too_many_redirects",
            HttpErrorKind::Timeout => "timeout",
            HttpErrorKind::TooLarge => "too_large",
            HttpErrorKind::NotText => "not_text",
            HttpErrorKind::WriteBudget => "write_budget",
            HttpErrorKind::BadPath => "bad_path",
            HttpErrorKind::Connection => "connection",
            HttpErrorKind::Abi => "abi",
        }
    }

    /// The kind named `name` on the wire, if the platform lists it.
    pub fn from_name(name: &str) -> Option<HttpErrorKind> {
        HttpErrorKind::ALL.iter().copied().find(|kind| crate::bytes::same(kind.as_str().as_bytes(), name.as_bytes()))
    }

    /// True for a body that could not come inline (`too_large`,
    /// `not_text`): the same request saved to a file would succeed.
    pub const fn needs_file(self) -> bool {
        matches!(self, HttpErrorKind::TooLarge | HttpErrorKind::NotText)
    }
}

/// A failed request: its kind and the platform's (or our) message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpError {
    /// What kind of failure it is, for code that handles some differently.
    pub kind: HttpErrorKind,
    /// What happened, in words for the model.
    pub message: String,
}

impl HttpError {
    /// An error of `kind` saying `message`.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::ToolError;
    /// use subako_tiny::http::{HttpError, HttpErrorKind};
    ///
    /// let error = HttpError::new(HttpErrorKind::HostNotAllowed, "api.example.com is not in the grant");
    /// assert_eq!(error.kind.as_str(), "host_not_allowed");
    /// assert_eq!(
    ///     ToolError::from(error).message(),
    ///     "HTTP request failed (host_not_allowed): api.example.com is not in the grant"
    /// );
    /// ```
    pub fn new(kind: HttpErrorKind, message: impl Into<String>) -> HttpError {
        HttpError { kind, message: message.into() }
    }

    /// Kind `abi`, for an import that returned `code` instead of a length
    /// or 0; the message names the code and what it means.
    pub fn abi_code(code: i32) -> HttpError {
        let meaning = match code {
            // The worker's answer for a call granted no network (and the
            // runner's, measuring one), far likelier than a bad range.
            ABI_OUT_OF_BOUNDS => {
                ": no network for this call (none granted; locally: subako-tiny --allow-host), or a range outside memory"
            }
            ABI_NOTHING_HELD => ": nothing held: read_response ran with no answer waiting",
            ABI_LENGTH_MISMATCH => ": length mismatch: read_response's length is not the answer's",
            _ => ": a code the subako_http ABI does not define",
        };
        HttpError::new(HttpErrorKind::Abi, crate::text!("subako_http returned ", code, meaning))
    }

    /// Kind `abi`, for an answer that is not one: `why` says what is wrong.
    pub(crate) fn malformed(why: &str) -> HttpError {
        HttpError::new(HttpErrorKind::Abi, join(&["subako_http answered with something that is not an answer: ", why]))
    }
}

/// An error of `kind` with a message saying only that: for a test's HTTP
/// hook that answers with a kind (`Err(HttpErrorKind::Timeout.into())`).
impl From<HttpErrorKind> for HttpError {
    fn from(kind: HttpErrorKind) -> HttpError {
        HttpError::new(kind, join(&["the HTTP hook answered ", kind.as_str()]))
    }
}

/// `KIND: MESSAGE`, as the model would read it after "HTTP request failed".
impl core::fmt::Display for HttpError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.kind.as_str())?;
        f.write_str(": ")?;
        f.write_str(&self.message)
    }
}

impl core::error::Error for HttpError {}

/// `HTTP request failed (KIND): MESSAGE`, which the model reads.
impl From<HttpError> for ToolError {
    fn from(error: HttpError) -> ToolError {
        ToolError::from(crate::text::concat("HTTP request failed (", error.kind.as_str(), "): ", &error.message))
    }
}
