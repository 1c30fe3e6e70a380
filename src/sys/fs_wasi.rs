//! Files on wasm32-wasip1: the raw WASI preview 1 calls `crate::fs` needs,
//! through `wasi` 0.11. Errors are raw WASI errno values; what they mean to
//! a reader is `crate::fs`'s business.

use alloc::string::String;
use alloc::vec::Vec;
use core::cell::{Cell, UnsafeCell};

use super::OpenMode;

/// A preopened directory: its file descriptor.
pub type Dir = u32;

/// An open file; closed when dropped.
pub struct Handle(u32);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: `self.0` came from `path_open` and is closed only here.
        let _ = unsafe { wasi::fd_close(self.0) };
    }
}

/// What `path_filestat_get` says about a path.
pub struct Stat {
    pub size: u64,
    pub is_dir: bool,
}

/// The preopened directories, found on first use, in one buffer: for
/// each, its descriptor and its name's length (4 bytes each, little-endian),
/// then the name. One buffer rather than a `Vec` of entries: the crate's own
/// growth (`super::append`) then serves, and none of `Vec`'s is linked.
struct PreopenTable {
    entries: UnsafeCell<Vec<u8>>,
    found: Cell<bool>,
}

// SAFETY: wasm32-wasip1 modules are single-threaded; nothing else can reach
// the table while it is being filled.
unsafe impl Sync for PreopenTable {}

static PREOPENS: PreopenTable = PreopenTable { entries: UnsafeCell::new(Vec::new()), found: Cell::new(false) };

/// Calls `f` with each preopened directory's name and descriptor, in the
/// order of the descriptors (from 3 up, until `fd_prestat_get` says there
/// are no more).
pub fn each_preopen(mut f: impl FnMut(&[u8], &Dir)) {
    if !PREOPENS.found.get() {
        // SAFETY: the only `&mut` to the table, taken before any `&` (the
        // table is filled once, before `found` is set) and dropped here.
        find_preopens(unsafe { &mut *PREOPENS.entries.get() });
        PREOPENS.found.set(true);
    }
    // SAFETY: filled above; from here on only shared borrows are taken.
    let mut rest: &[u8] = unsafe { &*PREOPENS.entries.get() };
    while let [a, b, c, d, l0, l1, l2, l3, tail @ ..] = rest {
        let len = u32::from_le_bytes([*l0, *l1, *l2, *l3]) as usize;
        let (mut name, next) = tail.split_at_checked(len).unwrap_or((tail, &[]));
        // Some runtimes count a trailing NUL in the length.
        while let [front @ .., 0] = name {
            name = front;
        }
        f(name, &u32::from_le_bytes([*a, *b, *c, *d]));
        rest = next;
    }
}

fn find_preopens(table: &mut Vec<u8>) {
    let mut fd = 3u32;
    loop {
        // SAFETY: a query that writes only its own return value.
        match unsafe { wasi::fd_prestat_get(fd) } {
            Ok(prestat) if prestat.tag == wasi::PREOPENTYPE_DIR.raw() => {
                // SAFETY: the tag says the union holds `dir`.
                let len = unsafe { prestat.u.dir.pr_name_len };
                let start = table.len();
                super::append(table, &fd.to_le_bytes());
                super::append(table, &(len as u32).to_le_bytes());
                super::reserve(table, len);
                let at = table.len();
                // SAFETY: `reserve` left room for `len` bytes after `at`;
                // the call writes the name there, and the length covers
                // them only once it has.
                unsafe {
                    if wasi::fd_prestat_dir_name(fd, table.as_mut_ptr().add(at), len).is_ok() {
                        table.set_len(at + len);
                    } else {
                        table.set_len(start);
                    }
                }
            }
            Err(wasi::ERRNO_BADF) => break,
            // Some other descriptor (not a preopened directory): skip it.
            _ => {}
        }
        fd += 1;
    }
}

/// `path` as WASI takes it, its address and length: `.` for the directory
/// itself. Bytes, not a `str`: the raw calls take any, and the runtime
/// refuses a path that is not UTF-8.
fn at(path: &[u8]) -> (i32, i32) {
    let path: &[u8] = if path.is_empty() { b"." } else { path };
    (path.as_ptr() as i32, path.len() as i32)
}

/// `path_open` in the directory `dir`: the new descriptor, or the errno.
fn path_open(dir: u32, path: &[u8], oflags: u16, rights: wasi::Rights, fdflags: u16) -> Result<u32, u16> {
    let (path, len) = at(path);
    let mut fd = core::mem::MaybeUninit::<u32>::uninit();
    // SAFETY: `path` is readable for `len` bytes and `fd` writable for the
    // call's duration; the descriptor is written when the call succeeds.
    unsafe {
        match wasi::wasi_snapshot_preview1::path_open(
            dir as i32,
            wasi::LOOKUPFLAGS_SYMLINK_FOLLOW as i32,
            path,
            len,
            oflags as i32,
            rights as i64,
            0,
            fdflags as i32,
            fd.as_mut_ptr() as i32,
        ) {
            0 => Ok(fd.assume_init()),
            e => Err(e as u16),
        }
    }
}

const READ_RIGHTS: wasi::Rights = wasi::RIGHTS_FD_READ
    | wasi::RIGHTS_FD_SEEK
    | wasi::RIGHTS_FD_TELL
    | wasi::RIGHTS_FD_FILESTAT_GET
    | wasi::RIGHTS_FD_READDIR;
const WRITE_RIGHTS: wasi::Rights = wasi::RIGHTS_FD_WRITE
    | wasi::RIGHTS_FD_SEEK
    | wasi::RIGHTS_FD_TELL
    | wasi::RIGHTS_FD_FILESTAT_GET
    | wasi::RIGHTS_FD_FILESTAT_SET_SIZE;

/// Opens `path` (relative to `dir`, no `..` left in it) as `mode` asks.
pub fn open(dir: &Dir, path: &[u8], mode: OpenMode) -> Result<Handle, u16> {
    let (oflags, rights, fdflags) = match mode {
        OpenMode::Read => (0, READ_RIGHTS, 0),
        OpenMode::Create => (wasi::OFLAGS_CREAT | wasi::OFLAGS_TRUNC, WRITE_RIGHTS, 0),
        OpenMode::CreateNew => (wasi::OFLAGS_CREAT | wasi::OFLAGS_EXCL, WRITE_RIGHTS, 0),
        OpenMode::Append => (wasi::OFLAGS_CREAT, WRITE_RIGHTS, wasi::FDFLAGS_APPEND),
        OpenMode::ReadAppend => (wasi::OFLAGS_CREAT, WRITE_RIGHTS | wasi::RIGHTS_FD_READ, wasi::FDFLAGS_APPEND),
    };
    path_open(*dir, path, oflags, rights, fdflags).map(Handle)
}

/// Reads into `buf` (at most [`super::FILE_IO_MAX`] bytes of it); 0 at
/// the end of the file.
pub fn read(file: &Handle, buf: &mut [u8]) -> Result<usize, u16> {
    let end = buf.len().min(super::FILE_IO_MAX);
    super::read(file.0, buf.get_mut(..end).unwrap_or_default()).map_err(directory)
}

/// Reads into `out`'s spare capacity (at most [`super::FILE_IO_MAX`] bytes
/// of it) and lengthens it by what came; 0 at the end of the file.
pub fn read_spare(file: &Handle, out: &mut Vec<u8>) -> Result<usize, u16> {
    super::read_spare(file.0, out, super::FILE_IO_MAX).map_err(directory)
}

/// A read's errno, with EBADF as EISDIR: the descriptor is one this back
/// end opened for reading, and WASI opens a directory so without
/// complaint, then refuses to read it. The host back end refuses it at
/// open, with EISDIR.
fn directory(e: u16) -> u16 {
    if e == wasi::ERRNO_BADF.raw() { super::errno::ISDIR } else { e }
}

/// The byte at `offset`, read without moving the file's position (an
/// appending write goes to the end wherever it is), retrying when
/// interrupted; `None` at or past the end.
pub fn byte_at(file: &Handle, offset: u64) -> Result<Option<u8>, u16> {
    let mut byte = 0u8;
    for _ in 0..super::INTERRUPTED_TRIES {
        let iov = wasi::Iovec { buf: &mut byte, buf_len: 1 };
        // SAFETY: `iov` is `byte`, writable for its one byte, and outlives the call.
        match unsafe { wasi::fd_pread(file.0, &[iov], offset) } {
            Ok(0) => return Ok(None),
            Ok(_) => return Ok(Some(byte)),
            Err(wasi::ERRNO_INTR) => {}
            Err(e) => return Err(e.raw()),
        }
    }
    Err(wasi::ERRNO_INTR.raw())
}

/// Writes all of `bytes`: stdout's loop, shared, [`super::FILE_IO_MAX`]
/// bytes at a time.
pub fn write_all(file: &Handle, bytes: &[u8]) -> Result<(), u16> {
    let mut rest = bytes;
    while !rest.is_empty() {
        let (now, later) = rest.split_at(rest.len().min(super::FILE_IO_MAX));
        super::write_all(file.0, now).map_err(|e| e.errno)?;
        rest = later;
    }
    Ok(())
}

/// The open file's size in bytes.
pub fn size(file: &Handle) -> Result<u64, u16> {
    // SAFETY: a query that writes only its own return value.
    match unsafe { wasi::fd_filestat_get(file.0) } {
        Ok(stat) => Ok(stat.size),
        Err(e) => Err(e.raw()),
    }
}

pub fn stat(dir: &Dir, path: &[u8]) -> Result<Stat, u16> {
    let (path, len) = at(path);
    let mut stat = core::mem::MaybeUninit::<wasi::Filestat>::uninit();
    // SAFETY: `path` is readable for `len` bytes and `stat` writable for
    // the call's duration; it is written when the call succeeds.
    unsafe {
        match wasi::wasi_snapshot_preview1::path_filestat_get(
            *dir as i32,
            wasi::LOOKUPFLAGS_SYMLINK_FOLLOW as i32,
            path,
            len,
            stat.as_mut_ptr() as i32,
        ) {
            0 => {
                let s = stat.assume_init();
                Ok(Stat { size: s.size, is_dir: s.filetype == wasi::FILETYPE_DIRECTORY })
            }
            e => Err(e as u16),
        }
    }
}

pub fn create_dir(dir: &Dir, path: &[u8]) -> Result<(), u16> {
    let (path, len) = at(path);
    // SAFETY: `path` is readable for `len` bytes for the call's duration.
    match unsafe { wasi::wasi_snapshot_preview1::path_create_directory(*dir as i32, path, len) } {
        0 => Ok(()),
        e => Err(e as u16),
    }
}

pub fn remove_file(dir: &Dir, path: &[u8]) -> Result<(), u16> {
    let (path, len) = at(path);
    // SAFETY: `path` is readable for `len` bytes for the call's duration.
    match unsafe { wasi::wasi_snapshot_preview1::path_unlink_file(*dir as i32, path, len) } {
        0 => Ok(()),
        e => Err(e as u16),
    }
}

/// Renames `from` (in `from_dir`) to `to` (in `to_dir`), replacing a file
/// already there.
pub fn rename(from_dir: &Dir, from: &[u8], to_dir: &Dir, to: &[u8]) -> Result<(), u16> {
    let ((from, from_len), (to, to_len)) = (at(from), at(to));
    // SAFETY: both paths are readable for their lengths for the call's duration.
    match unsafe {
        wasi::wasi_snapshot_preview1::path_rename(*from_dir as i32, from, from_len, *to_dir as i32, to, to_len)
    } {
        0 => Ok(()),
        e => Err(e as u16),
    }
}

/// The UTF-8 names in the directory at `path`, without `.` and `..`, in
/// the order the runtime gives them.
pub fn read_dir(dir: &Dir, path: &[u8]) -> Result<Vec<String>, u16> {
    let fd = Handle(path_open(*dir, path, wasi::OFLAGS_DIRECTORY, READ_RIGHTS, 0)?);
    // Each entry: d_next u64, d_ino u64, d_namlen u32, d_type u8, 3 pad, name.
    const HEADER: usize = 24;
    let mut names = Vec::new();
    let mut buf = alloc::vec![0u8; FIRST_READDIR_BYTES];
    let mut cookie: wasi::Dircookie = 0;
    loop {
        // SAFETY: `buf` is writable for its whole length.
        let filled = match unsafe { wasi::fd_readdir(fd.0, buf.as_mut_ptr(), buf.len(), cookie) } {
            Ok(n) => n.min(buf.len()),
            Err(e) => return Err(e.raw()),
        };
        let listed = buf.get(..filled).unwrap_or_default();
        let mut at = 0;
        // Read through `get` and fixed-size headers, so that a short or
        // lying buffer ends the listing, with no panic path.
        while let Some(head) = listed.get(at..).and_then(<[u8]>::first_chunk::<HEADER>) {
            let next = u64::from_le_bytes([head[0], head[1], head[2], head[3], head[4], head[5], head[6], head[7]]);
            let len = u32::from_le_bytes([head[16], head[17], head[18], head[19]]) as usize;
            let Some(name) = listed.get(at + HEADER..).and_then(|rest| rest.get(..len)) else {
                break;
            };
            // A name that is not UTF-8 refuses the listing, as wasmtime
            // (the platform's runtime) refuses it itself: the same answer on
            // every runtime (review 83).
            if name != b"." && name != b".." {
                let Ok(name) = core::str::from_utf8(name) else { return Err(super::errno::ILSEQ) };
                names.push(String::from(name));
            }
            cookie = next;
            at += HEADER + len;
        }
        if filled < buf.len() {
            return Ok(names);
        }
        // More to come. Runtimes may read the whole directory again for
        // each call (wasmtime does, to find the cookie), so each call asks
        // for several times more than the last: a few calls for any
        // directory, not one per few kilobytes. This also makes room for
        // an entry larger than the buffer.
        buf = alloc::vec![0u8; buf.len().saturating_mul(READDIR_GROWTH)];
    }
}

/// What the first `fd_readdir` of a listing asks for: a small directory's
/// whole listing, within a module's first pages.
const FIRST_READDIR_BYTES: usize = 8 << 10;
/// How many times larger each further `fd_readdir` buffer is than the one before.
const READDIR_GROWTH: usize = 8;
