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

use alloc::vec::Vec;

use super::{Io, IoError};

// The allocators (`heap`, `bump`) and the panic answer's state assume the
// one thread of a wasm32-wasip1 command: refuse a build with threads.
#[cfg(target_feature = "atomics")]
compile_error!("subako-tiny's wasm back end is single-threaded: build for wasm32-wasip1, not with wasm threads");

/// Standard input's file descriptor.
pub const STDIN: u32 = 0;
/// Standard output's file descriptor.
pub const STDOUT: u32 = 1;
/// Standard error's file descriptor.
pub const STDERR: u32 = 2;

/// How many times in a row a read or write is tried while the platform
/// answers EINTR: an interruption is retried, a platform that interrupts
/// every try is a broken stream (and the call fails with EINTR), not a
/// loop until the time limit.
pub const INTERRUPTED_TRIES: u32 = 64;

/// The most bytes a file read or write hands the platform at once:
/// wasmtime's WASI refuses a buffer past 128 MiB with ENOMEM (its
/// "hostcall fuel"), which a file read whole passes at about 113 MiB (its
/// buffer an eighth larger). The loops around the calls take the rest.
pub const FILE_IO_MAX: usize = 1 << 24;

/// The most bytes one read of stdin asks for (see `Stdio::read`).
const STDIN_READ_MAX: usize = (8 << 10) - 1;

/// Reads from `fd` into the `len` bytes at `at`, retrying when
/// interrupted; how many it wrote there, 0 at the end.
///
/// # Safety
/// `at` must be valid for writes of `len` bytes (which need not be
/// initialized).
unsafe fn read_raw(fd: u32, at: *mut u8, len: usize) -> Result<usize, u16> {
    for _ in 0..INTERRUPTED_TRIES {
        let iov = wasi::Iovec { buf: at, buf_len: len };
        // SAFETY: `iov` is the caller's writable block, and outlives the call.
        match unsafe { wasi::fd_read(fd, &[iov]) } {
            Ok(n) => return Ok(n.min(len)),
            Err(wasi::ERRNO_INTR) => {}
            Err(e) => return Err(e.raw()),
        }
    }
    Err(wasi::ERRNO_INTR.raw())
}

/// The realtime clock: nanoseconds since 1970-01-01T00:00:00Z, or WASI's
/// errno.
pub fn realtime_nanos() -> Result<u64, u16> {
    // SAFETY: `clock_time_get` takes no pointer of ours (the `wasi`
    // wrapper gives it its own slot for the answer).
    unsafe { wasi::clock_time_get(wasi::CLOCKID_REALTIME, 1_000) }.map_err(|e| e.raw())
}

/// Waits `nanos` nanoseconds on the monotonic clock, or WASI's errno.
pub fn sleep_nanos(nanos: u64) -> Result<(), u16> {
    let clock = wasi::SubscriptionClock { id: wasi::CLOCKID_MONOTONIC, timeout: nanos, precision: 0, flags: 0 };
    let subscription = wasi::Subscription {
        userdata: 0,
        u: wasi::SubscriptionU { tag: wasi::EVENTTYPE_CLOCK.raw(), u: wasi::SubscriptionUU { clock } },
    };
    let mut event = core::mem::MaybeUninit::<wasi::Event>::uninit();
    // SAFETY: one subscription readable and room for one event writable
    // for the call's duration.
    let polled = unsafe { wasi::poll_oneoff(&subscription, event.as_mut_ptr(), 1) };
    match polled {
        Ok(1) => {
            // SAFETY: the call reported one event, which it wrote.
            let event = unsafe { event.assume_init() };
            match event.error.raw() {
                0 => Ok(()),
                e => Err(e),
            }
        }
        Ok(_) => Err(wasi::ERRNO_INTR.raw()),
        Err(e) => Err(e.raw()),
    }
}

/// Where [`random_bytes`] reads, for its errors.
pub const RANDOM_SOURCE: &str = "random_get";

/// Fills `buf` with the platform's random bytes, or WASI's errno.
pub fn random_bytes(buf: &mut [u8]) -> Result<(), u16> {
    // SAFETY: `buf` is writable for its whole length.
    unsafe { wasi::random_get(buf.as_mut_ptr(), buf.len()) }.map_err(|e| e.raw())
}

/// Reads into `buf` from `fd`, retrying when interrupted; 0 at the end.
pub fn read(fd: u32, buf: &mut [u8]) -> Result<usize, u16> {
    // SAFETY: `buf` is writable for its whole length.
    unsafe { read_raw(fd, buf.as_mut_ptr(), buf.len()) }
}

/// Reads from `fd` into `out`'s spare capacity, at most `max` bytes of it,
/// retrying when interrupted, and lengthens `out` by what came; 0 at the
/// end. The room is not zeroed first: the read writes it.
pub fn read_spare(fd: u32, out: &mut Vec<u8>, max: usize) -> Result<usize, u16> {
    let len = out.len();
    let room = (out.capacity() - len).min(max);
    // SAFETY: `len` is within `out`'s block (at most its end), and the
    // `room` bytes after it are the block's, writable if uninitialized.
    let n = unsafe { read_raw(fd, out.as_mut_ptr().add(len), room) }?;
    // SAFETY: the read initialized `n` (at most `room`) bytes after `len`.
    unsafe { out.set_len(len + n) };
    Ok(n)
}

/// Writes some of `bytes` to `fd`, retrying when interrupted; how many.
pub fn write(fd: u32, bytes: &[u8]) -> Result<usize, u16> {
    for _ in 0..INTERRUPTED_TRIES {
        let iov = wasi::Ciovec { buf: bytes.as_ptr(), buf_len: bytes.len() };
        // SAFETY: `iov` points into `bytes`, which outlives the call.
        match unsafe { wasi::fd_write(fd, &[iov]) } {
            Ok(n) => return Ok(n.min(bytes.len())),
            Err(wasi::ERRNO_INTR) => {}
            Err(e) => return Err(e.raw()),
        }
    }
    Err(wasi::ERRNO_INTR.raw())
}

/// Writes all of `bytes` to `fd`, looping on partial writes.
pub fn write_all(fd: u32, mut bytes: &[u8]) -> Result<(), IoError> {
    while !bytes.is_empty() {
        match write(fd, bytes) {
            Ok(0) => return Err(IoError { errno: wasi::ERRNO_IO.raw() }),
            Ok(n) => bytes = bytes.get(n..).unwrap_or(&[]),
            Err(errno) => return Err(IoError { errno }),
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
    fn read(&mut self, buf: &mut Vec<u8>) -> Result<usize, IoError> {
        // In parts, as a file is: one read past the platform's limit (128
        // MiB) fails, and a raised `Package::max_line` grows the buffer
        // past it. Parts this small cost a few bytes less (the bound is
        // one of wasm's shortest constants) and, even for a long line,
        // little time beside reading it.
        read_spare(STDIN, buf, STDIN_READ_MAX).map_err(|errno| IoError { errno })
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), IoError> {
        // fd_write has no buffer of ours to flush: written is sent.
        write_all(STDOUT, bytes)
    }
}

/// True when the program's `argv[1]` is `flag`.
pub fn arg1_is(flag: &[u8]) -> bool {
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
        let arg = text.get(at..).unwrap_or(&[]);
        crate::bytes::same(arg.get(..flag.len()).unwrap_or(&[]), flag) && arg.get(flag.len()).is_none_or(|&b| b == 0)
    };
    // SAFETY: allocated above with this layout, and no longer borrowed.
    unsafe { alloc::alloc::dealloc(block, layout) };
    asked
}

// --- What wasi-libc's `crt1-command.o` calls that is not taken from libc:
// libc's versions set up thread state and run stdio's exit, code a module
// does not need. Defined here, both are exported, as one function.

/// Thread-pointer set-up for libc's TLS; this module has no TLS.
#[unsafe(no_mangle)]
extern "C" fn __wasi_init_tp() {}

/// Static destructors; a module built with this crate has none.
#[unsafe(no_mangle)]
extern "C" fn __wasm_call_dtors() {}

/// Ends the process with `code`; nothing runs after it.
#[inline(always)]
pub fn exit(code: i32) -> ! {
    // The raw import: `wasi::proc_exit` returns `()`, so its wrapper stays
    // a function of its own with a trap after the call.
    // SAFETY: ends the process; nothing runs after it.
    unsafe { wasi::wasi_snapshot_preview1::proc_exit(code) }
}
