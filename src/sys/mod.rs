//! The system layer: target I/O, the allocators and the buffer helpers,
//! and the crate's `unsafe` code but for the two places that vouch for the
//! UTF-8 of bytes they hold through [`assume_utf8`]: the reader's
//! `json::Str` and the text builder, `text::Text`. It imports nothing from the rest of the
//! crate but the leaf `bytes`; what a program does with it (serving, the
//! panic answer, what running out of memory does) is [`crate::rt`]'s.
//!
//! - `wasi`: wasm32 (WASI preview 1) through the raw `wasi` 0.11 calls.
//! - `host`: any other target, through std, so packages run and unit-test
//!   natively.

#[cfg(target_arch = "wasm32")]
mod wasi;
#[cfg(target_arch = "wasm32")]
pub use self::wasi::*;

#[cfg(not(target_arch = "wasm32"))]
mod host;
#[cfg(not(target_arch = "wasm32"))]
pub use host::*;

#[cfg(all(target_arch = "wasm32", feature = "lean-alloc"))]
pub mod bump;
#[cfg(any(
    test,
    fuzzing,
    all(target_arch = "wasm32", feature = "dlmalloc", not(any(feature = "lean-alloc", feature = "dlmalloc-crate")))
))]
pub mod dlmalloc;
#[cfg(all(target_arch = "wasm32", any(feature = "dlmalloc", feature = "dlmalloc-crate"), not(feature = "lean-alloc")))]
pub mod heap;
// The request the panic handler answers.
#[cfg(target_arch = "wasm32")]
pub mod pending;

// Files: raw WASI calls on wasm32, std::fs over named mounts elsewhere.
#[cfg(target_arch = "wasm32")]
pub mod fs_wasi;
#[cfg(target_arch = "wasm32")]
pub use fs_wasi as fs_backend;
#[cfg(not(target_arch = "wasm32"))]
pub mod fs_host;
#[cfg(not(target_arch = "wasm32"))]
pub use fs_host as fs_backend;

pub mod float;
pub mod http_raw;
mod words;
pub(crate) use words::counting_words;

/// The program this layer serves. What the layer needs from it is a trait
/// implemented on it by the entry point (`crate::rt`): the layer names
/// only its own items, and the call is resolved when the crate builds (no
/// symbol, no export, nothing to set at run time).
pub struct Program;

/// What the program does when memory runs out.
pub trait OutOfMemory {
    /// Ends the call; on wasm32 after answering it.
    fn out_of_memory() -> !;
}

// Inlined into its callers: a function fewer for wasmtime to compile in
// every module, and smaller.
#[inline(always)]
fn out_of_memory() -> ! {
    <Program as OutOfMemory>::out_of_memory()
}

/// WASI errno values, the one table: the host back end maps its errors
/// onto them, so a package reads the same numbers on every target.
pub mod errno {
    macro_rules! errnos {
        ($($name:ident = $wasi:ident,)*) => {
            $(#[doc = concat!("WASI's `", stringify!($wasi), "`.")]
            pub const $name: u16 = ::wasi::$wasi.raw();)*
        };
    }
    errnos! {
        ACCES = ERRNO_ACCES,
        BUSY = ERRNO_BUSY,
        DQUOT = ERRNO_DQUOT,
        EXIST = ERRNO_EXIST,
        NAMETOOLONG = ERRNO_NAMETOOLONG,
        INTR = ERRNO_INTR,
        INVAL = ERRNO_INVAL,
        IO = ERRNO_IO,
        ILSEQ = ERRNO_ILSEQ,
        ISDIR = ERRNO_ISDIR,
        NOENT = ERRNO_NOENT,
        NOMEM = ERRNO_NOMEM,
        NOSPC = ERRNO_NOSPC,
        NOTDIR = ERRNO_NOTDIR,
        NOTEMPTY = ERRNO_NOTEMPTY,
        NOTSUP = ERRNO_NOTSUP,
        PERM = ERRNO_PERM,
        ROFS = ERRNO_ROFS,
        NOTCAPABLE = ERRNO_NOTCAPABLE,
        OVERFLOW = ERRNO_OVERFLOW,
    }
}

use alloc::vec::Vec;

/// Where a conversation's bytes come from and go to.
pub trait Io {
    /// Reads into `buf`'s spare capacity (past its length, up to its
    /// capacity) and lengthens it by what came: how many bytes, `Ok(0)` at
    /// the end of input. The room is not zeroed first; a reader writes it.
    fn read(&mut self, buf: &mut Vec<u8>) -> Result<usize, IoError>;
    /// Writes all of `bytes` (whole lines) and flushes them.
    fn write(&mut self, bytes: &[u8]) -> Result<(), IoError>;
}

/// A failed read or write: the platform's error number (WASI's on wasm32,
/// the OS's on the host). A number, not a name, so modules carry no table
/// of names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoError {
    /// The error number.
    pub errno: u16,
}

/// How a file is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// Read an existing file.
    Read,
    /// Write, creating the file or emptying it.
    Create,
    /// Write a file that must not exist yet.
    CreateNew,
    /// Write at the end, creating the file if needed.
    Append,
    /// As `Append`, and read too: to see how the file ends before adding
    /// to it.
    ReadAppend,
}

/// `b` as a `str`, without checking it again. Skipping the re-check keeps
/// `core::str::from_utf8` out of modules; debug builds still check.
///
/// # Safety
/// `b` must be UTF-8: bytes of JSON text the reader has validated (its
/// strings are proven UTF-8, escapes decode to whole code points), or text
/// joined from `str`s and ASCII.
pub(crate) unsafe fn assume_utf8(b: &[u8]) -> &str {
    debug_assert!(core::str::from_utf8(b).is_ok());
    // SAFETY: the caller's promise, above.
    unsafe { core::str::from_utf8_unchecked(b) }
}

/// As [`assume_utf8`], for an owned buffer.
///
/// # Safety
/// As [`assume_utf8`]: `b` must be UTF-8.
pub(crate) unsafe fn assume_utf8_string(b: alloc::vec::Vec<u8>) -> alloc::string::String {
    debug_assert!(core::str::from_utf8(&b).is_ok());
    // SAFETY: the caller's promise, above.
    unsafe { alloc::string::String::from_utf8_unchecked(b) }
}

/// Makes room for at least `more` bytes after `out`'s contents.
pub(crate) fn reserve(out: &mut Vec<u8>, more: usize) {
    if out.capacity() - out.len() < more {
        grow(out, more);
    }
}

/// Drops the first `n` bytes of `out` (all of them, if it holds fewer),
/// moving the rest to the front.
pub(crate) fn drop_front(out: &mut Vec<u8>, n: usize) {
    if n == 0 {
        return;
    }
    let n = n.min(out.len());
    let kept = out.len() - n;
    let at = out.as_mut_ptr();
    // SAFETY: both ranges lie in `out` (`n + kept` is its length); `copy`
    // allows them to overlap, and the new length covers only moved bytes.
    // Not `copy_within` and `truncate`: they link panic paths.
    unsafe {
        core::ptr::copy(at.add(n), at, kept);
        out.set_len(kept);
    }
}

/// Appends `bytes` to `out`: the one way the crate grows a buffer.
///
/// `Vec`'s own growth (`reserve`, `extend_from_slice`, `push`) links
/// alloc's `RawVec` routines and their overflow and error paths, ~600
/// bytes in hello; this asks the allocator directly and links none of them.
pub(crate) fn append(out: &mut Vec<u8>, bytes: &[u8]) {
    reserve(out, bytes.len());
    let len = out.len();
    // SAFETY: `grow` left room for `bytes` after `len`; a `&mut Vec` cannot
    // overlap the borrowed `bytes`, and the new length covers only bytes
    // just written.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().add(len), bytes.len());
        out.set_len(len + bytes.len());
    }
}

/// Appends one byte, written in place: [`append`] copies a slice, and
/// written JSON puts many bytes on their own (each digit of a number).
pub(crate) fn append_byte(out: &mut Vec<u8>, byte: u8) {
    reserve(out, 1);
    let len = out.len();
    // SAFETY: `reserve` left room for a byte after `len`, and the new length
    // covers only the byte just written.
    unsafe {
        out.as_mut_ptr().add(len).write(byte);
        out.set_len(len + 1);
    }
}

/// An empty buffer with room for exactly `len` bytes: for a string that
/// will hold no more (a JSON string's unescaped text is never longer than
/// its raw text), where [`reserve`]'s floor of 64 bytes and an eighth
/// more would waste most of a short string's block (author trial 40: a
/// file's entries made into owned strings took more memory than the
/// official module's).
pub(crate) fn exact_capacity(len: usize) -> Vec<u8> {
    with_room(len)
}

/// An empty `Vec` with room for exactly `len` elements, asked of the
/// allocator directly: `Vec::with_capacity` would link alloc's capacity
/// and allocation error paths into the module.
pub(crate) fn with_room<T>(len: usize) -> Vec<T> {
    if len == 0 {
        return Vec::new();
    }
    // More than `isize::MAX` bytes is refused, as running out.
    let Ok(layout) = core::alloc::Layout::array::<T>(len) else { out_of_memory() };
    // SAFETY: `layout` is not zero-sized (`len` > 0; the callers' `T`s are
    // not zero-sized).
    let ptr = unsafe { alloc::alloc::alloc(layout) } as *mut T;
    if ptr.is_null() {
        out_of_memory();
    }
    // SAFETY: `ptr` holds room for `len` `T`s from the global allocator
    // with `T`'s layout for `len` of them, which is what the `Vec` frees
    // it with; none is initialized, and the length is 0.
    unsafe { Vec::from_raw_parts(ptr, 0, len) }
}

/// Lengthens `out` to `len` with zero bytes (never shortens it).
pub(crate) fn resize_zeroed(out: &mut Vec<u8>, len: usize) {
    let old = out.len();
    if len <= old {
        return;
    }
    if out.capacity() < len {
        grow(out, len - old);
    }
    // SAFETY: there is room for `len` bytes; those past `old` are zeroed
    // before the length covers them.
    unsafe {
        core::ptr::write_bytes(out.as_mut_ptr().add(old), 0, len - old);
        out.set_len(len);
    }
}

/// Makes room for `more` bytes after `out`'s contents: at least double the
/// capacity, so appending byte by byte stays linear.
///
/// With the dlmalloc port (or an allocator of the author's), a fresh block
/// and a copy rather than `realloc`. The port's `realloc` grows a block at
/// the top in place, but it costs a module that links no other `realloc`
/// a few hundred bytes, and measured on a 4 MB echo it left memory larger
/// at the end (the freed blocks below were not reused); an author's
/// `realloc` may be much more code. The lean
/// allocator's `realloc` is a few lines and grows its newest block in
/// place, which is where a module's one request line lives, and the
/// `dlmalloc` crate's, which a module of feature `dlmalloc-crate` carries
/// anyway, grows a block in place when it can: with those it is used.
#[inline(never)]
fn grow(out: &mut Vec<u8>, more: usize) {
    let old = core::mem::ManuallyDrop::new(core::mem::take(out));
    let needed = old.len().saturating_add(more);
    // Doubling keeps appends linear; one append larger than that gets an
    // eighth more than it needs instead, so the few bytes written after it
    // (a closing quote, a brace) do not double it again.
    let doubled = old.capacity() * 2;
    let cap = if needed > doubled { needed.saturating_add(needed / 8) } else { doubled }.max(64);
    // A capacity past `isize::MAX` is refused, as running out.
    let Ok(layout) = core::alloc::Layout::array::<u8>(cap) else { out_of_memory() };
    // `old`'s own layout: a `Vec<u8>`'s block, this function's or the
    // caller's own (`read_to_end` takes any), is `u8`'s array of its
    // capacity, which `Vec` keeps within `isize::MAX`: so it is valid.
    let old_layout = core::alloc::Layout::array::<u8>(old.capacity()).unwrap_or(layout);
    let ptr = if old.capacity() == 0 {
        // SAFETY: `layout` is non-zero in size (at least 64 bytes).
        unsafe { alloc::alloc::alloc(layout) }
    } else if cfg!(all(target_arch = "wasm32", any(feature = "lean-alloc", feature = "dlmalloc-crate"))) {
        // SAFETY: `old`'s block was allocated by the global allocator with
        // `u8`'s alignment and `old.capacity()` bytes; `cap` fits `isize`.
        unsafe { alloc::alloc::realloc(old.as_ptr() as *mut u8, old_layout, cap) }
    } else {
        // SAFETY: as above; the fresh block is `cap` bytes, more than
        // `old`'s length, and `old`'s block is not used again.
        unsafe {
            let ptr = alloc::alloc::alloc(layout);
            if !ptr.is_null() {
                core::ptr::copy_nonoverlapping(old.as_ptr(), ptr, old.len());
                alloc::alloc::dealloc(old.as_ptr() as *mut u8, old_layout);
            }
            ptr
        }
    };
    if ptr.is_null() {
        out_of_memory();
    }
    // SAFETY: `ptr` holds `cap` bytes from the global allocator with `u8`'s
    // alignment, the first `old.len()` of them `old`'s contents. `out` holds
    // the empty vector `take` left, which owns nothing: written over, not dropped.
    unsafe { core::ptr::write(out, Vec::from_raw_parts(ptr, old.len(), cap)) };
}

// The global allocator the features pick. Declared last: where its code
// lands in the crate moves what LLVM inlines (beside `heap`, a dlmalloc
// module grew by 341 bytes).
#[cfg(all(target_arch = "wasm32", any(feature = "dlmalloc", feature = "dlmalloc-crate", feature = "lean-alloc")))]
mod global;
