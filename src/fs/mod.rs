//! Files by absolute path, without std: `/volume/tmp`, `/volume/data`,
//! `/package` and `/skills/…`, as the platform preopens them.
//!
//! A path is resolved against the preopened directory with the longest
//! matching prefix (`/skills/<name>` before `/skills`) and opened relative
//! to it. A relative path (there is no working directory), or one whose
//! `..` would climb out of its preopened directory, is refused before any
//! call is made. Every error names the operation, the path and what went
//! wrong, and `?` turns it into a [`ToolError`](crate::ToolError) the
//! model can act on: `write /volume/tmp/a.bin: disk quota exceeded
//! (EDQUOT): …`. A path given for a file that ends in `/` names a
//! directory, and is refused.
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

mod error;
mod file;
mod path;

pub use error::{FsError, Reason};
pub use file::File;

use file::OpenFile;
use path::{open, resolve, resolve_file, resolve_for};

use crate::json::scan::find;
use crate::json::write::{put, put_byte};
use crate::sys::fs_backend;

#[cfg(not(target_arch = "wasm32"))]
extern crate std;

#[cfg(not(target_arch = "wasm32"))]
pub use crate::sys::fs_host::unmount;

/// Mounts the host directory `host_dir` at `guest` for this thread (host
/// builds: tests and native runs), replacing a mount of the same name, as
/// the worker preopens its directories: `/volume/tmp`, `/volume/data`,
/// and, read-only as on the worker, `/package`, `/skills` and
/// `/skills/NAME` (a write there fails with EPERM).
///
/// # Panics
/// For a `guest` the worker never mounts (`/data`, `volume/tmp`): a tool
/// could not open a path under it on the worker, so a test that passes
/// with it would pass for nothing.
///
/// # Examples
/// ```
/// use subako_tiny::fs;
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-mount-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// fs::mount("/package", &dir);
/// std::fs::write(dir.join("words.txt"), "tea").unwrap();
/// assert_eq!(fs::read_to_string("/package/words.txt").unwrap(), "tea");
/// let refused = fs::write("/package/words.txt", b"coffee").unwrap_err();
/// assert_eq!(refused.message(), "write /package/words.txt: operation not permitted (EPERM)");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn mount(guest: &str, host_dir: impl Into<std::path::PathBuf>) {
    let skill =
        guest.strip_prefix("/skills/").is_some_and(|name| !matches!(name, "" | "." | "..") && !name.contains('/'));
    if !(matches!(guest, "/volume/tmp" | "/volume/data" | "/package" | "/skills") || skill) {
        panic!(
            "fs::mount({guest:?}): the worker mounts only /volume/tmp, /volume/data, /package, /skills and \
             /skills/NAME, so a tool cannot open a path under {guest:?}"
        );
    }
    crate::sys::fs_host::mount(guest, host_dir.into());
}

/// WASI errno values that callers may want to tell apart.
pub use crate::sys::errno;

use crate::sys::OpenMode;

/// The whole file at `path`.
///
/// # Errors
/// When the path is not under a preopened directory or names a directory
/// (it ends in `/`: [`Reason::NamesADirectory`]), or the file cannot be
/// opened or read; a missing file has errno [`errno::NOENT`], a directory
/// named without the `/` [`errno::ISDIR`] (on wasm32 as on the host).
///
/// # Memory
/// The file is held whole. One larger than a module can address is the
/// error [`errno::NOMEM`] (`too large to hold in memory: read it in
/// chunks with fs::File`); one within that but past the memory the
/// platform gives a call ends the call as any allocation that fails does
/// (`tool ran out of memory: send it less`, which the model cannot act
/// on): where a file may be large, read it in parts ([`File::read`] into
/// a buffer of your size), or check [`size`] first and answer the limit
/// yourself (review 83: a 300 MiB file under a 256 MiB limit).
///
/// # Examples
/// ```
/// use subako_tiny::fs::{self, errno};
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-read-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("sub")).unwrap();
/// fs::mount("/volume/tmp", &dir);
///
/// fs::write("/volume/tmp/data.bin", &[1, 2, 3]).unwrap();
/// assert_eq!(fs::read("/volume/tmp/data.bin").unwrap(), [1, 2, 3]);
/// assert_eq!(fs::read("/volume/tmp/missing.bin").unwrap_err().errno(), Some(errno::NOENT));
/// assert_eq!(fs::read("/volume/tmp/sub").unwrap_err().errno(), Some(errno::ISDIR));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn read(path: &str) -> Result<Vec<u8>, FsError> {
    let handle = open("read", path, OpenMode::Read)?;
    let mut out = Vec::new();
    OpenFile { handle: &handle, path }.read_to_end(&mut out)?;
    Ok(out)
}

/// Up to `max` bytes from the start of the file at `path`, onto `out`
/// (one read: fewer when the platform hands over fewer); none when it
/// cannot be opened or read.
pub(crate) fn read_start(path: &str, out: &mut Vec<u8>, max: usize) {
    if let Ok(handle) = open("read", path, OpenMode::Read) {
        let start = out.len();
        crate::sys::reserve(out, max);
        let _ = fs_backend::read_spare(&handle, out);
        out.truncate(start + max);
    }
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
/// When the path is not under a preopened directory or names a directory
/// (it ends in `/`: [`Reason::NamesADirectory`], never taken for the file
/// it would name without the slash), or the platform refuses the write
/// (errno [`errno::DQUOT`] once the call's write budget is spent,
/// [`errno::NOSPC`] when the volume is full). The file is emptied first
/// and written in parts of up to 16 MiB, so a write refused part-way
/// leaves the parts before it, not what the file held.
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
    OpenFile { handle: &open("write", path, OpenMode::Create)?, path }.write_all(bytes)
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
    OpenFile { handle: &open("append", path, OpenMode::Append)?, path }.write_all(bytes)
}

/// Adds `line` and a newline at the end of the file at `path`, creating
/// it if needed: one entry of a JSON Lines file, written with its newline
/// in one write of the platform's (in parts of 16 MiB past that, so a
/// write refused part-way, by the call's write budget, leaves the parts
/// before it: the next entry then starts a line of its own, as below).
/// When the file does not end in a newline (its last line
/// was cut short, as by a full volume), the entry starts a line of its
/// own: the fragment stays a line of its own, which
/// [`json::lines`](crate::json::lines) skips, and the entry is whole.
///
/// Each call opens the file, reads its last byte, writes and closes it:
/// host work that fuel does not count. To add many entries, pass them in
/// one call, joined by newlines: one open and one write for all of them
/// (the second example).
///
/// # Errors
/// As [`write()`]; and when the file's last byte cannot be read.
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
///
/// Many entries in one write:
/// ```
/// use subako_tiny::{fs, json};
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-append-lines-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// fs::mount("/volume/tmp", &dir);
///
/// let mut entries = Vec::new();
/// for (id, text) in ["first", "second", "third"].iter().enumerate() {
///     if !entries.is_empty() {
///         entries.push(b'\n');
///     }
///     entries.extend_from_slice(&json::object(|o| o.field("id", id).field("text", *text)));
/// }
/// fs::append_line("/volume/tmp/log.jsonl", &entries).unwrap();
/// assert_eq!(json::lines(&fs::read("/volume/tmp/log.jsonl").unwrap()).count(), 3);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn append_line(path: &str, line: &[u8]) -> Result<(), FsError> {
    let handle = open("append", path, OpenMode::ReadAppend)?;
    let file = OpenFile { handle: &handle, path };
    let mut bytes = Vec::new();
    crate::sys::reserve(&mut bytes, line.len() + 2);
    if file.ends_mid_line()? {
        put_byte(&mut bytes, b'\n');
    }
    put(&mut bytes, line);
    put_byte(&mut bytes, b'\n');
    file.write_all(&bytes)
}

/// Creates the directory at `path` and any missing parents; one that
/// already exists is fine.
///
/// # Errors
/// When the path is not under a preopened directory, or a part of it
/// cannot be created: errno [`errno::NOTDIR`] when that part is a file
/// (or anything but a directory), [`errno::EXIST`] when something is
/// there that cannot be looked at (a link out of the mounted directory).
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
        end = find(&relative, end + 1, b'/');
        let Some(partial) = relative.get(..end) else { break };
        match fs_backend::create_dir(&dir, partial) {
            Ok(()) => {}
            // A file where a directory should be: not "file exists"
            // (review 66), which reads as if the directory were there.
            // What is there cannot always be known (a link out of the
            // mount): then the platform's own answer (review 68).
            Err(errno::EXIST) => match fs_backend::stat(&dir, partial) {
                Ok(found) if found.is_dir => {}
                Ok(_) => return Err(FsError::new(OP, path, Reason::Errno(errno::NOTDIR))),
                Err(_) => return Err(FsError::new(OP, path, Reason::Errno(errno::EXIST))),
            },
            Err(e) => return Err(FsError::new(OP, path, Reason::Errno(e))),
        }
    }
    Ok(())
}

/// Removes the file at `path`.
///
/// # Errors
/// When the path is not under a preopened directory, names a directory
/// ([`Reason::NamesADirectory`]), or the file cannot be removed (errno
/// [`errno::NOENT`] when there is none).
pub fn remove_file(path: &str) -> Result<(), FsError> {
    let (dir, relative) = resolve_file("remove", path)?;
    fs_backend::remove_file(&dir, &relative).map_err(|e| FsError::new("remove", path, Reason::Errno(e)))
}

/// Renames the file at `from` to `to`, replacing a file already at `to`,
/// in one step: a reader of `to` finds the old file or the new one, whole.
/// As std's `rename`, `from` may be a directory (named without a final
/// `/`), which replaces an empty one at `to`.
///
/// # Errors
/// When either path is not under a preopened directory or ends in `/`,
/// `/.` or `/..` ([`Reason::NamesADirectory`]; the error names that
/// path), or the platform refuses the rename: then the error's
/// [`path`](FsError::path) is `FROM to TO`, since the errno does not say
/// which side it is about (`ENOENT` when `from` is missing or `to`'s
/// directory is; `EBUSY` for a preopened directory itself, which cannot
/// move; `EXDEV` where the platform keeps two preopened directories
/// apart).
///
/// # Examples
/// ```
/// use subako_tiny::fs;
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-rename-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// fs::mount("/volume/tmp", &dir);
///
/// fs::write("/volume/tmp/draft.txt", b"final").unwrap();
/// fs::write("/volume/tmp/report.txt", b"old").unwrap();
/// fs::rename("/volume/tmp/draft.txt", "/volume/tmp/report.txt").unwrap();
/// assert_eq!(fs::read_to_string("/volume/tmp/report.txt").unwrap(), "final");
/// assert!(!fs::exists("/volume/tmp/draft.txt"));
///
/// let missing = fs::rename("/volume/tmp/draft.txt", "/volume/tmp/report.txt").unwrap_err();
/// assert_eq!(
///     missing.message(),
///     "rename /volume/tmp/draft.txt to /volume/tmp/report.txt: no such file or directory (ENOENT)"
/// );
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn rename(from: &str, to: &str) -> Result<(), FsError> {
    const OP: &str = "rename";
    let (from_dir, from_relative) = resolve_file(OP, from)?;
    let (to_dir, to_relative) = resolve_file(OP, to)?;
    let both = || crate::reply::join(&[from, " to ", to]);
    // A preopened directory itself cannot move (wasm32 answers EBUSY); on
    // the host it would move the whole mounted directory.
    if from_relative.is_empty() || to_relative.is_empty() {
        return Err(FsError::new(OP, &both(), Reason::Errno(errno::BUSY)));
    }
    fs_backend::rename(&from_dir, &from_relative, &to_dir, &to_relative)
        .map_err(|e| FsError::new(OP, &both(), Reason::Errno(e)))
}

/// Writes `bytes` as the whole file at `path`, all or nothing: into a
/// partial file beside it, `NAME.XXXXXXXX.partial` (eight random hex
/// digits, the name cut to fit 255 bytes), then [renamed](rename) over
/// it. A write the platform refuses part-way (the call's write budget
/// spent, a full volume) leaves the file as it was, where [`write()`]
/// leaves it emptied or in part; and two calls writing the same file at
/// once each rename a whole file of their own. The way to rewrite a file
/// a tool keeps, such as a JSON Lines store with one entry changed.
///
/// The price: room for both files until the rename, and the bytes count
/// once against the call's write budget, as with [`write()`]. A call cut
/// short before the rename (out of time, a trap) leaves its partial file
/// behind, beside the file as it was.
///
/// # Errors
/// As [`write()`], naming `path` (a preopened directory itself is
/// errno [`errno::ISDIR`]); the partial file is removed.
///
/// # Examples
/// ```
/// use subako_tiny::fs;
///
/// let dir = std::env::temp_dir().join(format!("subako-tiny-doc-fs-write-atomic-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// fs::mount("/volume/tmp", &dir);
///
/// fs::write_atomic("/volume/tmp/ledger.jsonl", b"{\"n\":1}\n").unwrap();
/// fs::write_atomic("/volume/tmp/ledger.jsonl", b"{\"n\":2}\n").unwrap();
/// assert_eq!(fs::read_to_string("/volume/tmp/ledger.jsonl").unwrap(), "{\"n\":2}\n");
/// assert_eq!(fs::read_dir("/volume/tmp").unwrap(), ["ledger.jsonl"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write_atomic(path: &str, bytes: &[u8]) -> Result<(), FsError> {
    const OP: &str = "write";
    // Refused as `write` refuses it, before a partial file is named.
    let (_, relative) = resolve_file(OP, path)?;
    if relative.is_empty() {
        return Err(FsError::new(OP, path, Reason::Errno(errno::ISDIR)));
    }
    // A name of its own for each call: two calls writing one file at once,
    // or a file an author named `NAME.partial`, are not each other's. When
    // the platform gives no random bytes, the digits are zeros.
    let mut suffix = *b".00000000.partial";
    let mut random = [0u8; 4];
    let _ = crate::sys::random_bytes(&mut random);
    for (digits, byte) in suffix[1..9].chunks_exact_mut(2).zip(random) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        digits.copy_from_slice(&[HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 15)]]);
    }
    // A name may be 255 bytes: one too long to take the suffix is cut
    // first, on a char's boundary.
    let name = path.as_bytes().iter().rposition(|&b| b == b'/').map_or(0, |slash| slash + 1);
    let mut keep = path.len().min(name + 255 - suffix.len());
    while !path.is_char_boundary(keep) {
        keep -= 1;
    }
    let suffix = core::str::from_utf8(&suffix).unwrap_or(".partial");
    let partial = crate::reply::join(&[path.get(..keep).unwrap_or(path), suffix]);
    let written = write(&partial, bytes).and_then(|()| rename(&partial, path));
    written.map_err(|e| {
        let _ = remove_file(&partial);
        FsError::new(OP, path, e.reason())
    })
}

/// The names in the directory at `path` (not `.` and `..`), sorted by
/// their bytes. A directory that holds a name that is not UTF-8 is not
/// listed: wasmtime refuses the whole listing (errno [`errno::ILSEQ`]),
/// and so does every back end here, the host's included.
pub fn read_dir(path: &str) -> Result<Vec<String>, FsError> {
    let (dir, relative) = resolve_for("list", path)?;
    let mut names = fs_backend::read_dir(&dir, &relative).map_err(|e| FsError::new("list", path, Reason::Errno(e)))?;
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
            // `get`, so that no bounds check links a panic path.
            while let Some(k) = j.checked_sub(gap)
                && let (Some(a), Some(b)) = (names.get(k), names.get(j))
                && a > b
            {
                names.swap(k, j);
                j = k;
            }
        }
    }
}

/// The size in bytes of the file at `path`.
pub fn size(path: &str) -> Result<u64, FsError> {
    let (dir, relative) = resolve_for("size", path)?;
    match fs_backend::stat(&dir, &relative) {
        Ok(stat) => Ok(stat.size),
        Err(e) => Err(FsError::new("size", path, Reason::Errno(e))),
    }
}

/// Whether anything (file or directory) is at `path`.
pub fn exists(path: &str) -> bool {
    match resolve(path) {
        Ok((dir, relative)) => fs_backend::stat(&dir, &relative).is_ok(),
        Err(_) => false,
    }
}

/// Whether `path` is a directory.
pub fn is_dir(path: &str) -> bool {
    match resolve(path) {
        Ok((dir, relative)) => fs_backend::stat(&dir, &relative).is_ok_and(|s| s.is_dir),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests;
