//! An open file: [`File`], and the borrowed view the whole-file functions
//! share its loops through.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::{FsError, Reason};
use super::path::resolve_file;
use crate::reply::join;
use crate::sys::OpenMode;
use crate::sys::errno;
use crate::sys::fs_backend::{self, Handle};

/// An open file and the path it was opened by, borrowed: what [`File`]'s
/// methods work on, and the whole-file functions too, which need no copy
/// of a path they hold already. Its methods are inlined into theirs, so an
/// `OpenFile` is never made in memory.
pub(super) struct OpenFile<'a> {
    pub(super) handle: &'a Handle,
    pub(super) path: &'a str,
}

impl OpenFile<'_> {
    fn fail(path: &str, op: &'static str, errno: u16) -> FsError {
        FsError::new(op, path, Reason::Errno(errno))
    }

    #[inline(always)]
    pub(super) fn read_to_end(&self, out: &mut Vec<u8>) -> Result<usize, FsError> {
        let start = out.len();
        let expected = self.size().unwrap_or(0);
        // A size no buffer can hold is an error to read, not a failed call.
        let Some(expected) = usize::try_from(expected).ok().filter(|&n| n < isize::MAX as usize) else {
            return Err(OpenFile::fail(self.path, "read", errno::NOMEM));
        };
        // One more byte than the file holds, so the read that finds the
        // end needs no second allocation.
        crate::sys::reserve(out, expected + 1);
        loop {
            crate::sys::reserve(out, 1);
            // Into the spare capacity, which is not zeroed first.
            match fs_backend::read_spare(self.handle, out) {
                Ok(0) => return Ok(out.len() - start),
                Ok(_) => {}
                Err(e) => return Err(OpenFile::fail(self.path, "read", e)),
            }
        }
    }

    #[inline(always)]
    pub(super) fn write_all(&self, bytes: &[u8]) -> Result<(), FsError> {
        fs_backend::write_all(self.handle, bytes).map_err(|e| OpenFile::fail(self.path, "write", e))
    }

    /// Whether the file has bytes and its last is not a newline: a last
    /// line a full volume cut short.
    #[inline(always)]
    pub(super) fn ends_mid_line(&self) -> Result<bool, FsError> {
        let Some(last) = self.size()?.checked_sub(1) else { return Ok(false) };
        match fs_backend::byte_at(self.handle, last) {
            Ok(byte) => Ok(byte.is_some_and(|b| b != b'\n')),
            Err(e) => Err(OpenFile::fail(self.path, "read", e)),
        }
    }

    #[inline(always)]
    pub(super) fn size(&self) -> Result<u64, FsError> {
        fs_backend::size(self.handle).map_err(|e| OpenFile::fail(self.path, "size", e))
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
        let (dir, relative) = resolve_file(op, path)?;
        match fs_backend::open(&dir, &relative, mode) {
            Ok(handle) => Ok(File { handle, path: join(&[path]) }),
            Err(e) => Err(FsError::new(op, path, Reason::Errno(e))),
        }
    }

    fn open_file(&self) -> OpenFile<'_> {
        OpenFile { handle: &self.handle, path: &self.path }
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
        fs_backend::read(&self.handle, buf).map_err(|e| OpenFile::fail(&self.path, "read", e))
    }

    /// Reads the rest of the file onto the end of `out`; how many bytes.
    pub fn read_to_end(&mut self, out: &mut Vec<u8>) -> Result<usize, FsError> {
        self.open_file().read_to_end(out)
    }

    /// Writes all of `bytes`.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), FsError> {
        self.open_file().write_all(bytes)
    }

    /// The file's size in bytes now.
    pub fn size(&self) -> Result<u64, FsError> {
        self.open_file().size()
    }
}
