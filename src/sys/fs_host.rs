//! Files on the host: std::fs, with the guest's absolute paths mapped onto
//! directories the host names, so packages unit-test natively.
//!
//! The mounts play the part of WASI's preopens. They are per thread, so
//! tests running in parallel each see their own; every thread starts from
//! `SUBAKO_TINY_MOUNTS` (`/volume/tmp=/some/dir`, entries joined like
//! `PATH`), and [`mount`] adds more. Errors are WASI errno values, as on
//! wasm32, so `crate::fs` words them the same way everywhere.

extern crate std;

use alloc::string::String;
use alloc::vec::Vec;
use std::cell::RefCell;
use std::io::{ErrorKind, Read as _, Seek as _, SeekFrom, Write as _};
use std::path::PathBuf;

use super::OpenMode;
use super::errno;

/// A mounted directory, by its guest name.
pub struct Preopen {
    pub name: String,
    pub dir: Dir,
}

/// The host directory behind a mount, and whether the guest may only read
/// it.
#[derive(Clone)]
pub struct Dir {
    path: PathBuf,
    read_only: bool,
}

/// The worker's preopens that a tool may only read: the package's assets
/// and its skills. (Writes to them fail with EPERM on wasm32.)
pub fn read_only_mount(guest: &str) -> bool {
    // `/package/` names what `/package` does (paths are matched by part).
    let guest = guest.trim_end_matches('/');
    guest == "/package" || guest == "/skills" || guest.starts_with("/skills/")
}

/// An open file; closed when dropped.
pub struct Handle(std::fs::File);

pub struct Stat {
    pub size: u64,
    pub is_dir: bool,
}

std::thread_local! {
    static MOUNTS: RefCell<Option<Vec<Preopen>>> = const { RefCell::new(None) };
}

fn from_env() -> Vec<Preopen> {
    let mut mounts = Vec::new();
    if let Some(list) = std::env::var_os("SUBAKO_TINY_MOUNTS") {
        for entry in std::env::split_paths(&list) {
            let entry = entry.to_string_lossy().into_owned();
            if let Some((guest, host)) = entry.split_once('=') {
                let dir = Dir { path: PathBuf::from(host), read_only: read_only_mount(guest) };
                mounts.push(Preopen { name: guest.into(), dir });
            }
        }
    }
    mounts
}

/// Mounts `host_dir` at `guest` for this thread, replacing a mount of the
/// same name; read-only as [`read_only_mount`] says.
pub fn mount(guest: &str, host_dir: PathBuf) {
    let dir = Dir { path: host_dir, read_only: read_only_mount(guest) };
    MOUNTS.with(|m| {
        let mut m = m.borrow_mut();
        let mounts = m.get_or_insert_with(from_env);
        mounts.retain(|p| p.name != guest);
        mounts.push(Preopen { name: guest.into(), dir });
    });
}

/// Removes this thread's mount at `guest`, if there is one.
pub fn unmount(guest: &str) {
    MOUNTS.with(|m| m.borrow_mut().get_or_insert_with(from_env).retain(|p| p.name != guest));
}

/// Calls `f` with each mount's guest name and host directory.
pub fn each_preopen(mut f: impl FnMut(&[u8], &Dir)) {
    MOUNTS.with(|m| {
        for mount in m.borrow_mut().get_or_insert_with(from_env).iter() {
            f(mount.name.as_bytes(), &mount.dir);
        }
    })
}

/// `path`, relative to `dir`, on the host. The crate's paths are UTF-8
/// (cut from `str`s at `/`), so nothing is lost.
fn host_path(dir: &Dir, path: &[u8]) -> PathBuf {
    if path.is_empty() { dir.path.clone() } else { dir.path.join(&*String::from_utf8_lossy(path)) }
}

/// EPERM for a change under a read-only mount, as wasm32 answers it.
fn writable(dir: &Dir) -> Result<(), u16> {
    if dir.read_only { Err(errno::PERM) } else { Ok(()) }
}

/// The WASI errno for a host error.
fn errno(e: &std::io::Error) -> u16 {
    match e.kind() {
        ErrorKind::NotFound => errno::NOENT,
        ErrorKind::PermissionDenied => errno::ACCES,
        ErrorKind::AlreadyExists => errno::EXIST,
        ErrorKind::IsADirectory => errno::ISDIR,
        ErrorKind::NotADirectory => errno::NOTDIR,
        ErrorKind::DirectoryNotEmpty => errno::NOTEMPTY,
        ErrorKind::StorageFull => errno::NOSPC,
        ErrorKind::QuotaExceeded => errno::DQUOT,
        ErrorKind::ReadOnlyFilesystem => errno::ROFS,
        ErrorKind::Unsupported => errno::NOTSUP,
        ErrorKind::InvalidFilename => errno::NAMETOOLONG,
        ErrorKind::InvalidInput => errno::INVAL,
        ErrorKind::Interrupted => errno::INTR,
        _ => errno::IO,
    }
}

/// Runs `op` again while it is interrupted, up to as many tries in all as
/// on wasm32 (`INTERRUPTED_TRIES`): the one retry loop of the host's reads
/// and writes.
pub(super) fn retrying<T>(mut op: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    let mut tries = INTERRUPTED_TRIES;
    loop {
        match op() {
            Err(e) if e.kind() == ErrorKind::Interrupted && tries > 1 => tries -= 1,
            other => return other,
        }
    }
}

/// How many times in a row a read or write is tried while it is
/// interrupted, as on wasm32: a stream interrupted every time is broken.
pub const INTERRUPTED_TRIES: u32 = 64;

pub fn open(dir: &Dir, path: &[u8], mode: OpenMode) -> Result<Handle, u16> {
    if !matches!(mode, OpenMode::Read) {
        writable(dir)?;
    }
    let mut options = std::fs::OpenOptions::new();
    match mode {
        OpenMode::Read => options.read(true),
        OpenMode::Create => options.write(true).create(true).truncate(true),
        OpenMode::CreateNew => options.write(true).create_new(true),
        OpenMode::Append => options.append(true).create(true),
        OpenMode::ReadAppend => options.read(true).append(true).create(true),
    };
    let path = host_path(dir, path);
    let file = options.open(&path).map_err(|e| errno(&e))?;
    // std opens a directory for reading without complaint; WASI would not
    // let it be read as a file either.
    if file.metadata().map_err(|e| errno(&e))?.is_dir() {
        return Err(errno::ISDIR);
    }
    Ok(Handle(file))
}

pub fn read(file: &Handle, buf: &mut [u8]) -> Result<usize, u16> {
    retrying(|| (&file.0).read(buf)).map_err(|e| errno(&e))
}

pub fn read_spare(file: &Handle, out: &mut Vec<u8>) -> Result<usize, u16> {
    into_spare(out, |room| read(file, room))
}

/// Runs `read` on `out`'s spare capacity and keeps what it read: std's
/// readers want initialized room, so on the host it is zeroed first.
pub(crate) fn into_spare<E>(out: &mut Vec<u8>, read: impl FnOnce(&mut [u8]) -> Result<usize, E>) -> Result<usize, E> {
    let len = out.len();
    out.resize(out.capacity(), 0);
    let result = read(&mut out[len..]);
    out.truncate(len + *result.as_ref().unwrap_or(&0));
    result
}

/// The byte at `offset`; `None` at or past the end. (The position it
/// leaves does not matter to an appending write, which goes to the end.)
pub fn byte_at(file: &Handle, offset: u64) -> Result<Option<u8>, u16> {
    let mut byte = [0u8];
    let n = retrying(|| {
        (&file.0).seek(SeekFrom::Start(offset))?;
        (&file.0).read(&mut byte)
    })
    .map_err(|e| errno(&e))?;
    Ok((n > 0).then_some(byte[0]))
}

/// Writes all of `bytes`; a write that takes none is `IO`, as on wasm32.
pub fn write_all(file: &Handle, mut bytes: &[u8]) -> Result<(), u16> {
    while !bytes.is_empty() {
        match retrying(|| (&file.0).write(bytes)).map_err(|e| errno(&e))? {
            0 => return Err(errno::IO),
            n => bytes = &bytes[n..],
        }
    }
    Ok(())
}

pub fn size(file: &Handle) -> Result<u64, u16> {
    file.0.metadata().map(|m| m.len()).map_err(|e| errno(&e))
}

pub fn stat(dir: &Dir, path: &[u8]) -> Result<Stat, u16> {
    let meta = std::fs::metadata(host_path(dir, path)).map_err(|e| errno(&e))?;
    Ok(Stat { size: meta.len(), is_dir: meta.is_dir() })
}

pub fn create_dir(dir: &Dir, path: &[u8]) -> Result<(), u16> {
    writable(dir)?;
    std::fs::create_dir(host_path(dir, path)).map_err(|e| errno(&e))
}

pub fn remove_file(dir: &Dir, path: &[u8]) -> Result<(), u16> {
    writable(dir)?;
    std::fs::remove_file(host_path(dir, path)).map_err(|e| errno(&e))
}

pub fn rename(from_dir: &Dir, from: &[u8], to_dir: &Dir, to: &[u8]) -> Result<(), u16> {
    writable(from_dir)?;
    writable(to_dir)?;
    std::fs::rename(host_path(from_dir, from), host_path(to_dir, to)).map_err(|e| errno(&e))
}

pub fn read_dir(dir: &Dir, path: &[u8]) -> Result<Vec<String>, u16> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(host_path(dir, path)).map_err(|e| errno(&e))? {
        let entry = entry.map_err(|e| errno(&e))?;
        // As on wasm32 (and in wasmtime): a name that is not UTF-8 refuses the listing.
        names.push(entry.file_name().into_string().map_err(|_| super::errno::ILSEQ)?);
    }
    Ok(names)
}
