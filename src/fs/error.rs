//! What a failed file operation says: the operation, the path and why.

use alloc::string::String;

use crate::reply::{ToolError, join};
use crate::sys::errno;

/// Why a file operation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The platform refused it with this WASI errno.
    Errno(u16),
    /// No preopened directory holds the path.
    NotMounted,
    /// The path does not start with `/`.
    Relative,
    /// A `..` in the path climbs out of its preopened directory.
    LeavesMount,
    /// The file is not UTF-8 text (from [`read_to_string`](super::read_to_string)).
    NotUtf8,
}

/// A failed file operation: what was tried, on which path, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FsError {
    op: &'static str,
    path: String,
    reason: Reason,
}

impl FsError {
    pub(super) fn new(op: &'static str, path: &str, reason: Reason) -> FsError {
        FsError { op, path: join(&[path]), reason }
    }

    /// The operation: `read`, `write`, `open`, `list`, …
    pub fn op(&self) -> &'static str {
        self.op
    }

    /// The path the operation was given, as the caller wrote it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Why the operation failed.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::fs::{self, Reason};
    ///
    /// let error = fs::read("notes.txt").unwrap_err();
    /// assert_eq!((error.op(), error.path(), error.reason()), ("read", "notes.txt", Reason::Relative));
    /// assert_eq!(error.message(), "read notes.txt: not an absolute path (there is no working directory)");
    /// ```
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// The WASI errno, when the platform refused the operation.
    pub fn errno(&self) -> Option<u16> {
        match self.reason {
            Reason::Errno(e) => Some(e),
            _ => None,
        }
    }

    /// `OP PATH: WHAT HAPPENED`, e.g. `read /volume/tmp/a.txt: no such
    /// file or directory`.
    pub fn message(&self) -> String {
        let mut digits = [0u8; 20];
        let (colon, what) = match self.reason {
            Reason::Errno(e) => match errno_words(e) {
                Some(words) => (": ", words),
                // SAFETY: decimal digits are ASCII.
                None => (": errno ", unsafe {
                    crate::sys::validated_str(crate::json::num::usize_digits(usize::from(e), &mut digits))
                }),
            },
            Reason::NotMounted => (": ", not_mounted_words(&self.path)),
            Reason::Relative => (": ", "not an absolute path (there is no working directory)"),
            Reason::LeavesMount => (": ", "`..` climbs out of the mounted directory"),
            Reason::NotUtf8 => (": ", "not UTF-8 text"),
        };
        join(&[self.op, " ", &self.path, colon, what])
    }
}

impl From<FsError> for ToolError {
    fn from(e: FsError) -> ToolError {
        ToolError::new(e.message())
    }
}

/// The errno values a tool is likely to meet, and at the same index in
/// [`ERRNO_WORDS`] their words. A table and a search rather than a `match`:
/// smaller in every module that does files. Two arrays, not one of pairs:
/// a pair is padded to 12 bytes.
const ERRNOS: [u16; 13] = [
    errno::DQUOT,
    errno::NOTSUP,
    errno::NOENT,
    errno::ACCES,
    errno::PERM,
    errno::NOTCAPABLE,
    errno::ROFS,
    errno::EXIST,
    errno::ISDIR,
    errno::NOTDIR,
    errno::NOTEMPTY,
    errno::NOSPC,
    errno::NOMEM,
];

const ERRNO_WORDS: [&str; 13] = [
    "disk quota exceeded (the call's file write budget is spent)",
    "not supported",
    "no such file or directory",
    "permission denied",
    "permission denied",
    "permission denied",
    "read-only file system",
    "file exists",
    "is a directory",
    "not a directory",
    "directory not empty",
    "no space left (the session volume is full: delete files to write again)",
    "too large to hold in memory (read it in chunks with fs::File)",
];

fn errno_words(e: u16) -> Option<&'static str> {
    ERRNO_WORDS.get(ERRNOS.iter().position(|&n| n == e)?).copied()
}

/// True when `path` is `dir` or beneath it.
fn is_under(path: &str, dir: &str) -> bool {
    match path.as_bytes().strip_prefix(dir.as_bytes()) {
        Some(rest) => matches!(rest.first(), None | Some(b'/')),
        None => false,
    }
}

fn not_mounted_words(path: &str) -> &'static str {
    if is_under(path, "/volume/data") {
        "/volume/data is not mounted: the agent has not enabled it"
    } else if is_under(path, "/package") {
        "/package is not mounted: the package has no assets"
    } else if is_under(path, "/skills") {
        "no skill is mounted there"
    } else {
        "not mounted: no preopened directory holds this path"
    }
}
