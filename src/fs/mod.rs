//! Files by absolute path, without std: `/volume/tmp`, `/volume/data`,
//! `/package` and `/skills/…`, as the platform preopens them.
//!
//! A path is resolved against the preopened directory with the longest
//! matching prefix (`/skills/<name>` before `/skills`) and opened relative
//! to it. A relative path (there is no working directory), or one whose
//! `..` would climb out of its preopened directory, is refused before any
//! call is made. Every error names the operation, the path and what went
//! wrong, and `?` turns it into a [`ToolError`] the model can act on:
//! `write /volume/tmp/a.bin: disk quota exceeded (…)`.
//!
//! On the host the same paths map onto directories named by
//! `SUBAKO_TINY_MOUNTS` or `fs::mount` (host builds), so a package's tools unit-test
//! natively.
//!
//! ```no_run
//! # fn tool() -> Result<(), subako_tiny::ToolError> {
//! use subako_tiny::fs;
//! fs::create_dir_all("/volume/tmp/report")?;
//! let template = fs::read_to_string("/package/templates/report.txt")?;
//! fs::write("/volume/tmp/report/out.txt", template.as_bytes())?;
//! # Ok(()) }
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::scan::find;
use crate::json::write::{put, put_byte};
use crate::reply::{ToolError, join};
use crate::sys::fs_sys::{self, Dir, Handle};
use crate::sys::same;

#[cfg(not(target_arch = "wasm32"))]
pub use crate::sys::fs_host::{mount, unmount};

/// WASI errno values that callers may want to tell apart.
pub use crate::sys::errno;

use crate::sys::OpenMode;

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
    /// The file is not UTF-8 text (from [`read_to_string`]).
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
    fn new(op: &'static str, path: &str, reason: Reason) -> FsError {
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

/// The components of an absolute path, without empty ones and `.`: byte
/// slices of a `str` cut at `/`, so each is UTF-8.
#[derive(Clone)]
struct Parts<'a>(&'a [u8]);

impl<'a> Iterator for Parts<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        loop {
            if self.0.is_empty() {
                return None;
            }
            let end = self.0.iter().position(|&b| b == b'/').unwrap_or(self.0.len());
            let (part, rest) = self.0.split_at_checked(end).unwrap_or((self.0, &[]));
            self.0 = rest.get(1..).unwrap_or(&[]);
            if !part.is_empty() && !same(part, b".") {
                return Some(part);
            }
        }
    }
}

fn parts(path: &str) -> Parts<'_> {
    Parts(path.as_bytes())
}

/// The preopened directory holding `path` (longest prefix wins) and the
/// path relative to it, with `.` and `..` resolved ("" for the directory
/// itself).
fn resolve(path: &str) -> Result<(Dir, String), Reason> {
    if path.as_bytes().first() != Some(&b'/') {
        return Err(Reason::Relative);
    }
    let mut best: Option<(usize, Dir)> = None;
    fs_sys::each_preopen(|name, dir| {
        let mut ours = parts(path);
        let mut depth = 0;
        let matches = Parts(name).all(|want| {
            depth += 1;
            ours.next().is_some_and(|c| same(c, want))
        });
        if matches && best.as_ref().is_none_or(|(longest, _)| depth > *longest) {
            // A u32 on wasm32, a PathBuf on the host.
            #[allow(clippy::clone_on_copy)]
            let dir = dir.clone();
            best = Some((depth, dir));
        }
    });
    let Some((depth, dir)) = best else {
        return Err(if parts(path).any(|c| same(c, b"..")) { Reason::LeavesMount } else { Reason::NotMounted });
    };
    let mut relative = Vec::new();
    let mut rest = parts(path);
    for _ in 0..depth {
        rest.next();
    }
    for c in rest {
        if same(c, b"..") {
            // Back to the previous `/`; at the top there is none to go to.
            if relative.is_empty() {
                return Err(Reason::LeavesMount);
            }
            relative.truncate(relative.iter().rposition(|&b| b == b'/').unwrap_or(0));
        } else {
            if !relative.is_empty() {
                put(&mut relative, b"/");
            }
            put(&mut relative, c);
        }
    }
    // SAFETY: whole components of `path` (a `str` cut at the ASCII `/`)
    // joined with `/`.
    Ok((dir, unsafe { crate::sys::validated_string(relative) }))
}

fn resolve_for(op: &'static str, path: &str) -> Result<(Dir, String), FsError> {
    resolve(path).map_err(|reason| FsError::new(op, path, reason))
}

/// Opens the file at `path`; `op` names the operation in an error.
fn open(op: &'static str, path: &str, mode: OpenMode) -> Result<Handle, FsError> {
    let (dir, relative) = resolve_for(op, path)?;
    match fs_sys::open(&dir, &relative, mode) {
        Ok(handle) => Ok(handle),
        Err(e) => Err(FsError::new(op, path, Reason::Errno(e))),
    }
}

/// An open file and the path it was opened by, borrowed: what [`File`]'s
/// methods work on, and the whole-file functions too, which need no copy
/// of a path they hold already. Its methods are inlined into theirs, so an
/// `At` is never made in memory.
struct At<'a> {
    handle: &'a Handle,
    path: &'a str,
}

impl At<'_> {
    fn fail(path: &str, op: &'static str, errno: u16) -> FsError {
        FsError::new(op, path, Reason::Errno(errno))
    }

    #[inline(always)]
    fn read_to_end(&self, out: &mut Vec<u8>) -> Result<usize, FsError> {
        let start = out.len();
        let expected = self.size().unwrap_or(0);
        // A size no buffer can hold is an error to read, not a failed call.
        let Some(expected) = usize::try_from(expected).ok().filter(|&n| n < isize::MAX as usize) else {
            return Err(At::fail(self.path, "read", errno::NOMEM));
        };
        // One more byte than the file holds, so the read that finds the
        // end needs no second allocation.
        crate::sys::reserve(out, expected + 1);
        loop {
            crate::sys::reserve(out, 1);
            // Into the spare capacity, which is not zeroed first.
            match fs_sys::read_spare(self.handle, out) {
                Ok(0) => return Ok(out.len() - start),
                Ok(_) => {}
                Err(e) => return Err(At::fail(self.path, "read", e)),
            }
        }
    }

    #[inline(always)]
    fn write_all(&self, bytes: &[u8]) -> Result<(), FsError> {
        fs_sys::write_all(self.handle, bytes).map_err(|e| At::fail(self.path, "write", e))
    }

    #[inline(always)]
    fn size(&self) -> Result<u64, FsError> {
        fs_sys::size(self.handle).map_err(|e| At::fail(self.path, "size", e))
    }
}

/// An open file that reads or writes in chunks, so a large file never has
/// to sit in memory. Closed when dropped.
pub struct File {
    handle: Handle,
    path: String,
}

impl File {
    fn open_as(op: &'static str, path: &str, mode: OpenMode) -> Result<File, FsError> {
        // `open`'s steps, not a call of it: its `Result` then passed on
        // made every module that opens a `File` larger.
        let (dir, relative) = resolve_for(op, path)?;
        match fs_sys::open(&dir, &relative, mode) {
            Ok(handle) => Ok(File { handle, path: join(&[path]) }),
            Err(e) => Err(FsError::new(op, path, Reason::Errno(e))),
        }
    }

    fn at(&self) -> At<'_> {
        At { handle: &self.handle, path: &self.path }
    }

    /// Opens an existing file for reading.
    pub fn open(path: &str) -> Result<File, FsError> {
        File::open_as("open", path, OpenMode::Read)
    }

    /// Creates a file for writing, or empties an existing one.
    pub fn create(path: &str) -> Result<File, FsError> {
        File::open_as("create", path, OpenMode::Create)
    }

    /// Creates a file that must not exist yet (errno `EXIST` if it does).
    pub fn create_new(path: &str) -> Result<File, FsError> {
        File::open_as("create", path, OpenMode::CreateNew)
    }

    /// Opens a file for writing at its end, creating it if needed.
    pub fn append(path: &str) -> Result<File, FsError> {
        File::open_as("append", path, OpenMode::Append)
    }

    /// The path it was opened by.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Reads up to `buf.len()` bytes; 0 at the end of the file.
    pub fn read(&mut self, buf: &mut [u8]) -> Result<usize, FsError> {
        fs_sys::read(&self.handle, buf).map_err(|e| At::fail(&self.path, "read", e))
    }

    /// Reads the rest of the file onto the end of `out`; how many bytes.
    pub fn read_to_end(&mut self, out: &mut Vec<u8>) -> Result<usize, FsError> {
        self.at().read_to_end(out)
    }

    /// Writes all of `bytes`.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), FsError> {
        self.at().write_all(bytes)
    }

    /// The file's size in bytes now.
    pub fn size(&self) -> Result<u64, FsError> {
        self.at().size()
    }
}

/// The whole file at `path`.
///
/// # Errors
/// When the path is not under a preopened directory, or the file cannot be
/// opened or read; a missing file has errno [`errno::NOENT`].
///
/// # Examples
/// ```
/// use subako_tiny::fs::{self, errno};
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-read-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// fs::mount("/volume/tmp", &dir);
///
/// fs::write("/volume/tmp/data.bin", &[1, 2, 3]).unwrap();
/// assert_eq!(fs::read("/volume/tmp/data.bin").unwrap(), [1, 2, 3]);
/// assert_eq!(fs::read("/volume/tmp/missing.bin").unwrap_err().errno(), Some(errno::NOENT));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn read(path: &str) -> Result<Vec<u8>, FsError> {
    let handle = open("read", path, OpenMode::Read)?;
    let mut out = Vec::new();
    At { handle: &handle, path }.read_to_end(&mut out)?;
    Ok(out)
}

/// The whole file at `path`, which must be UTF-8 text.
///
/// # Errors
/// As [`read`], and [`Reason::NotUtf8`] when the file is not UTF-8.
pub fn read_to_string(path: &str) -> Result<String, FsError> {
    String::from_utf8(read(path)?).map_err(|_| FsError::new("read", path, Reason::NotUtf8))
}

/// Writes `bytes` as the whole file at `path`, creating it or replacing
/// what it held. The directory it is in must exist.
///
/// # Errors
/// When the path is not under a preopened directory, or the platform
/// refuses the write (errno [`errno::DQUOT`] once the call's write budget
/// is spent, [`errno::NOSPC`] when the volume is full).
///
/// # Examples
/// ```
/// use subako_tiny::fs;
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-write-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// fs::mount("/volume/tmp", &dir);
///
/// fs::write("/volume/tmp/note.txt", b"first").unwrap();
/// fs::write("/volume/tmp/note.txt", b"second").unwrap();
/// assert_eq!(fs::read_to_string("/volume/tmp/note.txt").unwrap(), "second");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write(path: &str, bytes: &[u8]) -> Result<(), FsError> {
    At { handle: &open("write", path, OpenMode::Create)?, path }.write_all(bytes)
}

/// Adds `bytes` at the end of the file at `path`, creating it if needed.
///
/// # Errors
/// As [`write()`].
///
/// # Examples
/// ```
/// use subako_tiny::fs;
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-append-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// fs::mount("/volume/tmp", &dir);
/// # let _ = fs::remove_file("/volume/tmp/log.jsonl");
///
/// fs::append("/volume/tmp/log.jsonl", b"{\"n\":1}\n").unwrap();
/// fs::append("/volume/tmp/log.jsonl", b"{\"n\":2}\n").unwrap();
/// assert_eq!(fs::read_to_string("/volume/tmp/log.jsonl").unwrap(), "{\"n\":1}\n{\"n\":2}\n");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn append(path: &str, bytes: &[u8]) -> Result<(), FsError> {
    At { handle: &open("append", path, OpenMode::Append)?, path }.write_all(bytes)
}

/// Adds `line` and a newline at the end of the file at `path`, creating
/// it if needed: one entry of a JSON Lines file, written in one piece with
/// its newline.
///
/// # Errors
/// As [`write()`].
///
/// # Examples
/// ```
/// use subako_tiny::{JsonWriter, fs};
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-append-line-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// fs::mount("/volume/tmp", &dir);
/// # let _ = fs::remove_file("/volume/tmp/log.jsonl");
///
/// for n in 1..=2 {
///     let mut entry = JsonWriter::new();
///     entry.begin_object().key("n").int(n).end_object();
///     fs::append_line("/volume/tmp/log.jsonl", entry.as_bytes()).unwrap();
/// }
/// assert_eq!(fs::read_to_string("/volume/tmp/log.jsonl").unwrap(), "{\"n\":1}\n{\"n\":2}\n");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn append_line(path: &str, line: &[u8]) -> Result<(), FsError> {
    let mut bytes = Vec::new();
    crate::sys::reserve(&mut bytes, line.len() + 1);
    put(&mut bytes, line);
    put_byte(&mut bytes, b'\n');
    append(path, &bytes)
}

/// Creates the directory at `path` and any missing parents; one that
/// already exists is fine.
///
/// # Errors
/// When the path is not under a preopened directory, or a part of it
/// cannot be created (errno [`errno::EXIST`] when that part is a file).
///
/// # Examples
/// ```
/// use subako_tiny::fs;
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-dirs-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// fs::mount("/volume/tmp", &dir);
///
/// fs::create_dir_all("/volume/tmp/reports/2026").unwrap();
/// fs::create_dir_all("/volume/tmp/reports/2026").unwrap();
/// fs::write("/volume/tmp/reports/b.txt", b"").unwrap();
/// fs::write("/volume/tmp/reports/a.txt", b"").unwrap();
/// assert!(fs::is_dir("/volume/tmp/reports/2026"));
/// assert_eq!(fs::read_dir("/volume/tmp/reports").unwrap(), ["2026", "a.txt", "b.txt"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn create_dir_all(path: &str) -> Result<(), FsError> {
    const OP: &str = "create directory";
    let (dir, relative) = resolve_for(OP, path)?;
    // Each directory from the top: the path up to each `/`, then the whole.
    let mut end = 0;
    while end < relative.len() {
        end = find(relative.as_bytes(), end + 1, b'/');
        let Some(partial) = relative.get(..end) else { break };
        match fs_sys::create_dir(&dir, partial) {
            Ok(()) => {}
            Err(errno::EXIST) if fs_sys::stat(&dir, partial).is_ok_and(|s| s.is_dir) => {}
            Err(e) => return Err(FsError::new(OP, path, Reason::Errno(e))),
        }
    }
    Ok(())
}

/// Removes the file at `path`.
pub fn remove_file(path: &str) -> Result<(), FsError> {
    let (dir, relative) = resolve_for("remove", path)?;
    fs_sys::remove_file(&dir, &relative).map_err(|e| FsError::new("remove", path, Reason::Errno(e)))
}

/// The names in the directory at `path` (not `.` and `..`), sorted by
/// their bytes.
pub fn read_dir(path: &str) -> Result<Vec<String>, FsError> {
    let (dir, relative) = resolve_for("list", path)?;
    let mut names = fs_sys::read_dir(&dir, &relative).map_err(|e| FsError::new("list", path, Reason::Errno(e)))?;
    sort(&mut names);
    Ok(names)
}

/// Shell sort (Ciura's gaps, then ×2.25): a few hundred bytes of code
/// instead of core's sort, and quick enough for any directory listing.
fn sort(names: &mut [String]) {
    let mut gaps: [usize; 16] =
        [1, 4, 10, 23, 57, 132, 301, 701, 1577, 3548, 7983, 17961, 40412, 90927, 204585, 460316];
    let top = gaps.iter().position(|&g| g >= names.len()).unwrap_or(gaps.len());
    let gaps = &mut gaps[..top];
    gaps.reverse();
    for &gap in gaps.iter() {
        for i in gap..names.len() {
            let mut j = i;
            while j >= gap && names[j - gap] > names[j] {
                names.swap(j - gap, j);
                j -= gap;
            }
        }
    }
}

/// The size in bytes of the file at `path`.
pub fn size(path: &str) -> Result<u64, FsError> {
    let (dir, relative) = resolve_for("size", path)?;
    match fs_sys::stat(&dir, &relative) {
        Ok(stat) => Ok(stat.size),
        Err(e) => Err(FsError::new("size", path, Reason::Errno(e))),
    }
}

/// Whether anything (file or directory) is at `path`.
pub fn exists(path: &str) -> bool {
    match resolve(path) {
        Ok((dir, relative)) => fs_sys::stat(&dir, &relative).is_ok(),
        Err(_) => false,
    }
}

/// Whether `path` is a directory.
pub fn is_dir(path: &str) -> bool {
    match resolve(path) {
        Ok((dir, relative)) => fs_sys::stat(&dir, &relative).is_ok_and(|s| s.is_dir),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests;
