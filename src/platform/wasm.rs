//! The wasm32-wasip1 back end: raw WASI preview 1 through `wasi` 0.11.
//!
//! Start-up: the target links wasi-libc's `crt1-command.o`, whose `_start`
//! calls `__main_void` (which `subako_tiny::main!` defines). Of the other
//! symbols it expects, `__wasi_proc_exit` comes from wasi-libc's archive
//! (linked by `build.rs`, as are `memcmp` and `bcmp`), and this module
//! defines the two whose libc versions would set up thread state and
//! stdio this module does not have. A symbol left undefined would become
//! an `env` import (rustc links with `--allow-undefined`) that no worker
//! provides; so a plain `cargo build --target wasm32-wasip1` gives a module
//! that imports only what it calls.

use core::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

use crate::args::Args;
use crate::json::num;
use crate::package::ToolFn;
use crate::protocol::{self, Io, IoError};
use crate::rendered::Rendered;
use crate::reply::{Reply, ToolError};

// The allocators (`heap`, `bump`) and the panic answer's state assume the
// one thread of a wasm32-wasip1 command: refuse a build with threads.
#[cfg(target_feature = "atomics")]
compile_error!("subako-tiny's wasm back end is single-threaded: build for wasm32-wasip1, not with wasm threads");

const STDIN: u32 = 0;
const STDOUT: u32 = 1;
const STDERR: u32 = 2;

fn errno(e: wasi::Errno) -> IoError {
    IoError { errno: e.raw() }
}

/// Writes all of `bytes` to `fd`, looping on partial writes.
pub fn write_all(fd: u32, mut bytes: &[u8]) -> Result<(), IoError> {
    while !bytes.is_empty() {
        let iov = wasi::Ciovec { buf: bytes.as_ptr(), buf_len: bytes.len() };
        // SAFETY: `iov` points into `bytes`, which outlives the call.
        match unsafe { wasi::fd_write(fd, &[iov]) } {
            Ok(0) => return Err(IoError { errno: wasi::ERRNO_IO.raw() }),
            Ok(n) => bytes = bytes.get(n..).unwrap_or(&[]),
            Err(wasi::ERRNO_INTR) => {}
            Err(e) => return Err(errno(e)),
        }
    }
    Ok(())
}

/// Writes `text` to stderr; free for logs.
pub fn log(text: &str) {
    let _ = write_all(STDERR, text.as_bytes());
}

/// The process's stdin and stdout.
pub struct Stdio;

impl Io for Stdio {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, IoError> {
        loop {
            let iov = wasi::Iovec { buf: buf.as_mut_ptr(), buf_len: buf.len() };
            // SAFETY: `iov` points into `buf`, which outlives the call.
            match unsafe { wasi::fd_read(STDIN, &[iov]) } {
                Ok(n) => return Ok(n.min(buf.len())),
                Err(wasi::ERRNO_INTR) => {}
                Err(e) => return Err(errno(e)),
            }
        }
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), IoError> {
        // fd_write has no buffer of ours to flush: written is sent.
        write_all(STDOUT, bytes)
    }
}

/// True when `argv[1]` is `--subako-manifest`.
fn manifest_asked() -> bool {
    // SAFETY: a plain query of two sizes.
    let Ok((argc, size)) = (unsafe { wasi::args_sizes_get() }) else {
        return false;
    };
    if argc < 2 {
        return false;
    }
    // One block of words holds both: argv's pointers, then its text.
    // Saturating: a sum past memory fails in the allocation, never wraps to a short block.
    let words = argc.saturating_add(size.div_ceil(core::mem::size_of::<usize>()));
    let Ok(layout) = core::alloc::Layout::array::<usize>(words) else {
        return false;
    };
    // SAFETY: `layout` is non-zero in size (`argc` ≥ 2).
    let block = unsafe { alloc::alloc::alloc(layout) };
    if block.is_null() {
        return false;
    }
    let pointers = block.cast::<*mut u8>();
    // SAFETY: the text starts after `argc` pointers, inside the block.
    let text = unsafe { block.add(argc * core::mem::size_of::<usize>()) };
    // SAFETY: the block has room for `argc` pointers and then `size` bytes,
    // as `args_sizes_get` asked, and is aligned for pointers.
    let asked = unsafe { wasi::args_get(pointers, text) }.is_ok() && {
        // SAFETY: `args_get` wrote `argc` pointers and `size` bytes of text.
        let (second, text) = unsafe { (*pointers.add(1) as usize, core::slice::from_raw_parts(text, size)) };
        // argv[1] points into `text`; find it there rather than trust the pointer.
        let at = second.wrapping_sub(text.as_ptr() as usize);
        // argv[1] ends at a NUL (or the end of the text): it is the flag when
        // the flag's bytes stand there and then that end.
        let flag = protocol::MANIFEST_FLAG.as_bytes();
        let arg = text.get(at..).unwrap_or(&[]);
        arg.get(..flag.len()) == Some(flag) && arg.get(flag.len()).is_none_or(|&b| b == 0)
    };
    // SAFETY: allocated above with this layout, and no longer borrowed.
    unsafe { alloc::alloc::dealloc(block, layout) };
    asked
}

/// The program's `main`: the manifest, or requests until stdin ends.
pub fn run(package: &'static Rendered<'static>) -> i32 {
    protocol::serve_rendered(package, manifest_asked(), &mut Stdio, run_tool)
}

// What the panic handler needs to answer the request whose tool panicked:
// the output not yet sent, up to the answer's content, as pointer and
// length; null when no tool is running.
static CALL_HEAD: AtomicPtr<u8> = AtomicPtr::new(core::ptr::null_mut());
static CALL_HEAD_LEN: AtomicUsize = AtomicUsize::new(0);

fn run_tool(tool: ToolFn, args: &Args<'_>, head: &[u8]) -> Result<Reply, ToolError> {
    CALL_HEAD_LEN.store(head.len(), Ordering::Relaxed);
    CALL_HEAD.store(head.as_ptr() as *mut u8, Ordering::Relaxed);
    let result = tool(args);
    CALL_HEAD.store(core::ptr::null_mut(), Ordering::Relaxed);
    result
}

/// The panic message's buffer: on the stack, since the heap may be what
/// ran out.
type PanicText = heapless::Vec<u8, 512>;

/// Appends `part` to `text` as far as it fits, with the bytes a JSON string
/// cannot hold as they are (quote, backslash, control characters) written
/// as `/`: a Windows path still reads as one.
#[inline(never)]
fn append_plain(text: &mut PanicText, part: &[u8]) {
    let mut taking = false;
    for &b in part {
        // A character goes in whole or not at all, so a message cut short
        // is still UTF-8: one starts only with room for four bytes.
        if b & 0xc0 != 0x80 {
            taking = text.len() + 4 <= text.capacity();
        }
        if taking {
            let _ = text.push(if b == b'"' || b == b'\\' || b < 0x20 { b'/' } else { b });
        }
    }
}

/// Ends the process after a failure: says what and where on stderr and,
/// when a tool was running, answers its request with an isError result, so
/// the model reads what happened instead of a bare crash. Allocates nothing
/// (the heap may be what ran out): the message is built on the stack and
/// cut short past 512 bytes.
/// Reads `panicked: WHAT (at FILE:LINE)`, or `panicked (at FILE:LINE)`
/// when `what` is empty.
fn fail(what: &str, file: &str, line: u32) -> ! {
    let mut text = PanicText::new();
    append_plain(&mut text, b"panicked");
    if !what.is_empty() {
        append_plain(&mut text, b": ");
        append_plain(&mut text, what.as_bytes());
    }
    append_plain(&mut text, b" (at ");
    append_plain(&mut text, file.as_bytes());
    append_plain(&mut text, b":");
    append_plain(&mut text, num::usize_digits(line as usize, &mut [0; 20]));
    append_plain(&mut text, b")");
    let text = text.as_slice();
    let _ = write_all(STDERR, text);
    let _ = write_all(STDERR, b"\n");
    let head = CALL_HEAD.swap(core::ptr::null_mut(), Ordering::Relaxed);
    let code = if head.is_null() {
        101
    } else {
        // SAFETY: `run_tool` stored the answer's head, which lies in the
        // serve loop's output buffer: the tool cannot reach that buffer,
        // and it outlives the tool's run (nothing unwinds on wasm32).
        let head = unsafe { core::slice::from_raw_parts(head, CALL_HEAD_LEN.load(Ordering::Relaxed)) };
        let _ = write_all(STDOUT, head);
        let _ = write_all(STDOUT, b"\"content\":[{\"text\":\"tool ");
        let _ = write_all(STDOUT, text);
        let _ = write_all(STDOUT, b"\",\"type\":\"text\"}],\"isError\":true,\"resultType\":\"complete\"}}\n");
        // The request is answered; the process ends cleanly.
        0
    };
    // The raw import: `wasi::proc_exit` returns `()`, so its wrapper stays
    // a function of its own with a trap after the call.
    // SAFETY: ends the process; nothing runs after it.
    unsafe { wasi::wasi_snapshot_preview1::proc_exit(code) }
}

/// Reports a panic by where it happened. Its message is left out unless the
/// `panic-message` feature asks for it, and then only a message that is a
/// plain string (`panic!("text")`, `Option::unwrap`'s), not `expect`'s, an
/// index's, an overflow's or any formatted one: reading the message keeps
/// every panic site's formatting arguments alive, and with them parts of
/// `core::fmt`, which `./size-report --feature-costs` prices per module.
#[cfg(feature = "panic-handler")]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let (file, line) = info.location().map_or(("?", 0), |at| (at.file(), at.line()));
    #[cfg(feature = "panic-message")]
    let what = info.message().as_str().unwrap_or("");
    #[cfg(not(feature = "panic-message"))]
    let what = "";
    fail(what, file, line)
}

// --- What wasi-libc's `crt1-command.o` calls that is not taken from libc:
// libc's versions set up thread state and run stdio's exit (170 bytes more
// in hello). Defined here, both are exported, as one function.

/// Thread-pointer set-up for libc's TLS; this module has no TLS.
#[unsafe(no_mangle)]
extern "C" fn __wasi_init_tp() {}

/// Static destructors; a module built with this crate has none.
#[unsafe(no_mangle)]
extern "C" fn __wasm_call_dtors() {}

/// Ends the call with "out of memory" when the inner allocator has no more
/// to give. Failing here rather than returning null lets the optimizer see
/// that allocation never fails, which drops alloc's own handler and the
/// `core::fmt` code it formats its message with (~1.3 KB). The price: a
/// `try_reserve` cannot recover either.
pub struct AbortOnNull<A>(pub A);

#[cold]
#[inline(never)]
pub(crate) fn out_of_memory() -> ! {
    fail("out of memory", file!(), line!())
}

// SAFETY: delegates to `A`; a null from it never returns.
unsafe impl<A: core::alloc::GlobalAlloc> core::alloc::GlobalAlloc for AbortOnNull<A> {
    #[inline]
    unsafe fn alloc(&self, layout: core::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on unchanged.
        let p = unsafe { self.0.alloc(layout) };
        if p.is_null() {
            out_of_memory();
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: core::alloc::Layout) {
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: core::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is passed on unchanged.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory();
        }
        p
    }
}

#[cfg(all(feature = "dlmalloc", not(feature = "lean-alloc")))]
#[global_allocator]
static ALLOCATOR: AbortOnNull<super::heap::Dlmalloc> = AbortOnNull(super::heap::Dlmalloc::new());

#[cfg(feature = "lean-alloc")]
#[global_allocator]
static ALLOCATOR: AbortOnNull<super::bump::Bump> = AbortOnNull(super::bump::Bump);
