//! Paths: an absolute path resolved against the preopened directory with
//! the longest matching prefix, `.` and `..` taken out.

use alloc::vec::Vec;

use super::error::{FsError, Reason};
use crate::bytes::same;
use crate::json::write::put;
use crate::sys::OpenMode;
use crate::sys::fs_backend::{self, Dir, Handle};

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
/// path relative to it, with `.` and `..` resolved (empty for the
/// directory itself): bytes, as the back end takes a path.
pub(super) fn resolve(path: &str) -> Result<(Dir, Vec<u8>), Reason> {
    if path.as_bytes().first() != Some(&b'/') {
        return Err(Reason::Relative);
    }
    let mut best: Option<(usize, Dir)> = None;
    fs_backend::each_preopen(|name, dir| {
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
    Ok((dir, relative))
}

pub(super) fn resolve_for(op: &'static str, path: &str) -> Result<(Dir, Vec<u8>), FsError> {
    resolve(path).map_err(|reason| FsError::new(op, path, reason))
}

/// [`resolve_for`] for a path that must name a file: one that ends in
/// `/`, `/.` or `/..` names a directory, and is refused rather than taken
/// for the file it would name without its end.
pub(super) fn resolve_file(op: &'static str, path: &str) -> Result<(Dir, Vec<u8>), FsError> {
    if let [.., b'/'] | [.., b'/', b'.'] | [.., b'/', b'.', b'.'] = path.as_bytes() {
        return Err(FsError::new(op, path, Reason::NamesADirectory));
    }
    resolve_for(op, path)
}

/// Opens the file at `path`; `op` names the operation in an error.
pub(super) fn open(op: &'static str, path: &str, mode: OpenMode) -> Result<Handle, FsError> {
    let (dir, relative) = resolve_file(op, path)?;
    match fs_backend::open(&dir, &relative, mode) {
        Ok(handle) => Ok(handle),
        Err(e) => Err(FsError::new(op, path, Reason::Errno(e))),
    }
}
