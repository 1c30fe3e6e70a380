//! The platform's crash rules: which one a finished run broke, if any.

use std::fmt;

use serde_json::Value;

use crate::exec::{Exit, RunOutput};
use crate::rpc::{Line, lines, parse_line};

/// Why Subako would tell the model "the function crashed". Rules are checked in
/// the order the worker meets them: stdout lines as they arrive, then the exit.
#[derive(Clone, Debug, PartialEq)]
pub enum Crash {
    /// Answered with a JSON-RPC `error` (id null: to a request line the
    /// module could not read, e.g. one over its line limit).
    ErrorResponse {
        id: Value,
        error: Value,
    },
    /// A result whose `resultType` is not `complete`.
    NotComplete {
        id: Value,
        result_type: Value,
    },
    /// A stdout line that is no JSON-RPC message.
    NotJsonRpc {
        line: String,
    },
    /// A response to an id that was never asked (or was already answered).
    UnaskedId {
        id: Value,
    },
    /// The module sent a request of its own.
    SentRequest {
        id: Value,
        method: String,
    },
    /// Exited (with 0) before answering every request.
    ExitBeforeAnswer,
    NonzeroExit(i32),
    /// Still running 1 s after stdin closed (here: after answering).
    NoExitAfterStdinClosed,
    Trap(String),
    OutOfMemory,
    TimeLimit,
}

impl fmt::Display for Crash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Id null: the answer to a line the module could not read as a request (not JSON, too long).
            Crash::ErrorResponse { id: Value::Null, error } => write!(
                f,
                "answered with a JSON-RPC error with id null (it could not read the request line): {error}{}",
                if error["message"].as_str().is_some_and(|m| m.starts_with("line too long")) {
                    "; send shorter arguments (large data can go in a file on /volume/tmp or /volume/data), or \
                     raise the module's line limit (a subako-tiny package: Package::max_line)"
                } else {
                    ""
                }
            ),
            Crash::ErrorResponse { id, error } => write!(f, "answered request {id} with a JSON-RPC error: {error}"),
            Crash::NotComplete { id, result_type } => {
                write!(f, "answered request {id} with resultType {result_type}, not \"complete\"")
            }
            Crash::NotJsonRpc { line } => write!(f, "printed a stdout line that is no JSON-RPC message: {line:?}"),
            Crash::UnaskedId { id } => write!(f, "answered id {id}, which was never asked"),
            Crash::SentRequest { id, method } => write!(f, "sent a request of its own ({method}, id {id})"),
            Crash::ExitBeforeAnswer => f.write_str("exited before answering"),
            Crash::NonzeroExit(n) => write!(f, "exited with code {n}"),
            Crash::NoExitAfterStdinClosed => f.write_str("did not exit within 1 s of stdin closing"),
            Crash::Trap(m) => write!(f, "trapped: {m}"),
            Crash::OutOfMemory => f.write_str("ran out of memory"),
            Crash::TimeLimit => f.write_str("ran out of time"),
        }
    }
}

impl std::error::Error for Crash {}

/// Applies the crash rules to a run that was sent the requests with ids `asked`.
/// On success, the result of each answered request, in the order answered.
pub(crate) fn judge(asked: &[Value], out: &RunOutput) -> Result<Vec<(Value, Value)>, Crash> {
    let mut pending = asked.to_vec();
    let mut answers = Vec::new();
    for line in lines(&out.stdout) {
        match parse_line(line) {
            Line::Invalid(line) => return Err(Crash::NotJsonRpc { line }),
            Line::Request { id, method } => return Err(Crash::SentRequest { id, method }),
            Line::Notification => {}
            Line::Response { id, result, error } => {
                let Some(pos) = pending.iter().position(|p| *p == id) else {
                    // An error with id null answers a line the module could
                    // not read as a request: the request's answer, not a stray id.
                    if let (Value::Null, Some(error)) = (&id, error) {
                        return Err(Crash::ErrorResponse { id, error });
                    }
                    return Err(Crash::UnaskedId { id });
                };
                pending.remove(pos);
                if let Some(error) = error {
                    return Err(Crash::ErrorResponse { id, error });
                }
                let result = result.unwrap_or(Value::Null);
                if let Some(rt) = result.get("resultType")
                    && rt != "complete"
                {
                    return Err(Crash::NotComplete { id, result_type: rt.clone() });
                }
                answers.push((id, result));
            }
        }
    }
    match &out.exit {
        Exit::Trap(m) => Err(Crash::Trap(m.clone())),
        Exit::OutOfMemory => Err(Crash::OutOfMemory),
        Exit::Timeout => Err(Crash::TimeLimit),
        Exit::Lingered => Err(Crash::NoExitAfterStdinClosed),
        Exit::Code(n) if *n != 0 => Err(Crash::NonzeroExit(*n)),
        Exit::Code(_) if !pending.is_empty() => Err(Crash::ExitBeforeAnswer),
        Exit::Code(_) => Ok(answers),
    }
}

/// The last 4 KiB of stderr, as the model is shown it.
pub(crate) fn stderr_tail(stderr: &[u8]) -> String {
    let start = stderr.len().saturating_sub(4096);
    let s = String::from_utf8_lossy(&stderr[start..]);
    s.trim_start_matches('\u{FFFD}').to_string()
}
