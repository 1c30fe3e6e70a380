//! What a failed file operation says: the operation, the path and why.

use alloc::string::String;

use crate::json::scan::find;
use crate::reply::{ToolError, join};

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
    /// A path given for a file names a directory: it ends in `/`, `/.` or
    /// `/..`. Refused before any call, rather than taken as the file the
    /// path would name without its end.
    NamesADirectory,
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

    /// `OP PATH: WHAT HAPPENED`. A refusal by the platform says what its
    /// errno means and names it as POSIX does, then, for some, what to do:
    /// `read /volume/tmp/a.txt: no such file or directory (ENOENT)`,
    /// `write /volume/tmp/a.bin: disk quota exceeded (EDQUOT): the call's
    /// file write budget is spent`.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::fs;
    ///
    /// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-message-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// fs::mount("/volume/tmp", &dir);
    ///
    /// let error = fs::read("/volume/tmp/missing.txt").unwrap_err();
    /// assert_eq!(error.message(), "read /volume/tmp/missing.txt: no such file or directory (ENOENT)");
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn message(&self) -> String {
        self.worded(errno_words, ("an error WASI does not define (errno ", ")"))
    }

    /// [`message`](Self::message) without the words for every WASI errno:
    /// an errno is given as its number (`read /package/g.csv: WASI errno
    /// 44`; WASI's numbers are not Linux's),
    /// every other [`Reason`] worded as `message` words it. A module that
    /// calls this, never `message` (nor `?` from an `FsError` into a
    /// [`ToolError`], which calls it), carries none of those words: word
    /// the errnos a tool expects yourself ([`errno`](Self::errno)), and let
    /// this say the rest. The words `message` adds to some errnos are lost
    /// with the rest: say them yourself where they matter (errno
    /// [`DQUOT`](super::errno::DQUOT): the call's write budget is spent;
    /// [`ILSEQ`](super::errno::ILSEQ) from a listing: a name in the
    /// directory is not UTF-8).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::fs::{self, errno};
    ///
    /// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-short-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// fs::mount("/volume/tmp", &dir);
    ///
    /// let said = |path: &str| match fs::read(path) {
    ///     Ok(_) => "read".to_string(),
    ///     Err(e) if e.errno() == Some(errno::NOENT) => format!("{path} is not there: save it first"),
    ///     Err(e) => e.short_message(),
    /// };
    /// assert_eq!(said("/volume/tmp/missing.txt"), "/volume/tmp/missing.txt is not there: save it first");
    /// assert_eq!(said("/volume/tmp"), "read /volume/tmp: WASI errno 31");
    /// assert_eq!(said("/volume/data/notes.txt"), "read /volume/data/notes.txt: /volume/data is not mounted: the agent has not enabled it");
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn short_message(&self) -> String {
        self.worded(|_| None, ("WASI errno ", ""))
    }

    /// The message, with an errno's words from `words`, or else its
    /// number between the two texts of `number`.
    fn worded(&self, words: impl Fn(u16) -> Option<&'static str>, number: (&str, &str)) -> String {
        let digits;
        // What happened; for an errno without words, its number and
        // what closes it.
        let (what, number, close) = match self.reason {
            Reason::Errno(e) => match words(e) {
                Some(words) => (words, "", ""),
                None => {
                    digits = crate::text::Text::of(usize::from(e));
                    (number.0, digits.as_str(), number.1)
                }
            },
            Reason::NotMounted => (not_mounted_words(&self.path), "", ""),
            Reason::Relative => ("not an absolute path (there is no working directory)", "", ""),
            Reason::LeavesMount => ("`..` climbs out of the mounted directory", "", ""),
            Reason::NotUtf8 => ("not UTF-8 text", "", ""),
            Reason::NamesADirectory => {
                ("the path names a directory (it ends in `/`, `/.` or `/..`): end it with a file name", "", "")
            }
        };
        join(&[self.op, " ", &self.path, ": ", what, number, close])
    }
}

/// The same words as [`FsError::message`].
impl core::fmt::Display for FsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message())
    }
}

impl core::error::Error for FsError {}

impl From<FsError> for ToolError {
    fn from(e: FsError) -> ToolError {
        ToolError::new(e.message())
    }
}

/// What each WASI errno means, its name as POSIX spells it and, for some,
/// what to do, in the order of their numbers from 0, one a line; the
/// errnos of sockets and processes, which no file operation meets, by
/// their names alone, and EBADF too (the crate reads only descriptors it
/// opened, and reports a directory read as one, EISDIR). One text and a walk over
/// its lines rather than a `match` or a table of `&str`s: those cost a
/// pointer and a length per errno in every module that does files, the
/// text only its bytes.
const ERRNO_TEXT: &str = "ESUCCESS
argument list too long (E2BIG)
permission denied (EACCES)
EADDRINUSE
EADDRNOTAVAIL
EAFNOSUPPORT
resource unavailable, try again (EAGAIN)
EALREADY
EBADF
EBADMSG
device or resource busy (EBUSY)
ECANCELED
ECHILD
ECONNABORTED
ECONNREFUSED
ECONNRESET
EDEADLK
EDESTADDRREQ
EDOM
disk quota exceeded (EDQUOT): the call's file write budget is spent
file exists (EEXIST)
bad address (EFAULT)
file too large (EFBIG)
EHOSTUNREACH
EIDRM
illegal byte sequence (EILSEQ): a name is not UTF-8
EINPROGRESS
interrupted (EINTR): the platform interrupted every retry
invalid argument (EINVAL)
input/output error (EIO)
EISCONN
is a directory (EISDIR)
too many levels of symbolic links (ELOOP)
too many open files (EMFILE)
too many links (EMLINK)
EMSGSIZE
EMULTIHOP
file name too long (ENAMETOOLONG): a name in a path may be at most 255 bytes
ENETDOWN
ENETRESET
ENETUNREACH
too many files open in the system (ENFILE)
ENOBUFS
no such device (ENODEV)
no such file or directory (ENOENT)
ENOEXEC
ENOLCK
ENOLINK
not enough memory (ENOMEM): too large to hold in memory: read it in chunks with fs::File
ENOMSG
ENOPROTOOPT
no space left on device (ENOSPC): the session volume is full: delete files to write again
function not supported (ENOSYS)
ENOTCONN
not a directory (ENOTDIR)
directory not empty (ENOTEMPTY)
ENOTRECOVERABLE
ENOTSOCK
not supported (ENOTSUP)
inappropriate input/output control operation (ENOTTY)
no such device or address (ENXIO)
value too large for its data type (EOVERFLOW)
EOWNERDEAD
operation not permitted (EPERM)
broken pipe (EPIPE)
EPROTO
EPROTONOSUPPORT
EPROTOTYPE
ERANGE
read-only file system (EROFS)
invalid seek (ESPIPE)
ESRCH
stale file handle (ESTALE)
ETIMEDOUT
text file busy (ETXTBSY)
cross-device link (EXDEV)
not allowed by the directory's rights (ENOTCAPABLE)";

/// The line of [`ERRNO_TEXT`] for errno `e`; `None` for a number WASI
/// does not define.
fn errno_words(e: u16) -> Option<&'static str> {
    let text = ERRNO_TEXT.as_bytes();
    let mut start = 0;
    for _ in 0..e {
        start = find(text, start, b'\n') + 1;
    }
    ERRNO_TEXT.get(start..find(text, start, b'\n'))
}

/// True when `path` is `dir` or beneath it.
fn is_under(path: &str, dir: &str) -> bool {
    match path.as_bytes().strip_prefix(dir.as_bytes()) {
        Some(rest) => matches!(rest.first(), None | Some(b'/')),
        None => false,
    }
}

/// What a path that no preopen holds is missing. `subako-tiny size` reads
/// the first two answers in a failed measured call to name its option
/// that mounts the volume.
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
