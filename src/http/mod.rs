//! HTTP from a guest, through the worker's `subako_http` imports.
//!
//! The worker makes each request on the module's behalf, under the call's
//! network grant (which hosts, which credentials), following redirects and
//! moving file bodies between the socket and the volume itself. This module
//! writes the request JSON with [`JsonWriter`](crate::JsonWriter), reads the
//! answer with [`json::parse`](crate::json::parse) — no serde — and turns
//! every failure into an [`HttpError`] that converts into a
//! [`ToolError`](crate::ToolError) the model can read:
//!
//! ```
//! use subako_tiny::http::Request;
//! use subako_tiny::{Args, Reply, ToolError};
//!
//! fn status(args: &Args<'_>) -> Result<Reply, ToolError> {
//!     let url = args.str("url")?;
//!     let response = Request::get(&url).header("accept", "text/plain").send()?;
//!     Ok(Reply::text(response.text().unwrap_or("")))
//! }
//! ```
//!
//! Only a module that sends a request imports anything from `subako_http`.
//! Off the worker (a native build, a unit test) a test answers the
//! requests (`testing::with_http`,
//! `testing::call_with_http`, host builds only); where none
//! does, every request fails with kind `abi` and a message saying so.

use alloc::vec::Vec;

mod error;
mod request;
mod response;

pub use error::{HttpError, HttpErrorKind};
pub use request::{JsonBody, Method, Request};
pub use response::{Headers, Response, ResponseBody};

/// The raw `subako_http` imports (wasm32 only), their ABI codes, the one
/// safe [`exchange`](raw::exchange) of request JSON for answer JSON, and
/// [`parse_answer`](raw::parse_answer), which reads the answer as
/// [`Request::send`] does.
pub mod raw {
    pub use super::response::parse_answer;
    #[cfg(not(target_arch = "wasm32"))]
    pub use crate::sys::http_raw::NO_HTTP_ON_THE_HOST;
    pub use crate::sys::http_raw::{ABI_LENGTH_MISMATCH, ABI_NOTHING_HELD, ABI_OUT_OF_BOUNDS, exchange};
    #[cfg(any(target_arch = "wasm32", doc))]
    pub use crate::sys::http_raw::{read_response, request};
}

/// Moved to [`raw::parse_answer`], beside the exchange whose answer it reads.
#[deprecated(since = "0.1.0", note = "use `http::raw::parse_answer`")]
#[doc(hidden)]
pub fn parse_answer(answer: &[u8], save_to: Option<&str>) -> Result<Response, HttpError> {
    response::parse_answer(answer, save_to)
}

/// `s` as one component of a URL (a query value, a path segment), as a
/// [`Piece`](crate::text::Piece) of [`text!`](crate::text!):
/// percent-encoded as UTF-8 but for the unreserved `A-Za-z0-9-._~`, so
/// that a value holding `&`, `=`, `+`, `#`, `/`, `?` or `%` stays one
/// value (`encodeURIComponent` in JavaScript, less its `!'()*`). The
/// worker encodes what a URL cannot hold (`東京`, a space) but not these:
/// `?city=A&B` asks for the city `A`.
///
/// ```
/// use subako_tiny::http::url_component;
/// use subako_tiny::text;
///
/// let city = "São Paulo & 東京";
/// let url = text!("https://api.example.com/v1/forecast?city=", url_component(city), "&days=", 3);
/// assert_eq!(url.as_str(), "https://api.example.com/v1/forecast?city=S%C3%A3o%20Paulo%20%26%20%E6%9D%B1%E4%BA%AC&days=3");
/// ```
#[must_use]
pub fn url_component(s: &str) -> UrlComponent<'_> {
    UrlComponent(s)
}

/// Text to be written percent-encoded: made by [`url_component`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UrlComponent<'a>(pub &'a str);

impl crate::text::sealed::Sealed for UrlComponent<'_> {}

impl crate::text::Piece for UrlComponent<'_> {
    fn write_to(&self, out: &mut Vec<u8>) {
        crate::text::percent_encode(out, self.0.as_bytes(), 0);
    }
}

/// The largest request JSON the worker reads, in bytes: a larger body goes
/// as a volume file ([`Request::body_file`]).
pub const REQUEST_MAX_BYTES: usize = 8 * 1024 * 1024;

/// The largest response body returned inline, in bytes; a larger one fails
/// with `too_large` unless saved to a file ([`Request::save_to`]).
pub const INLINE_MAX_BYTES: usize = 256 * 1024;
