//! The host back end: std I/O, so `cargo run --example hello` serves
//! requests with no WebAssembly runtime.

extern crate std;

use core::ptr::NonNull;
use std::cell::Cell;
use std::io::{Read as _, Write as _};

use alloc::vec::Vec;

use super::{Io, IoError};

/// The process's stdin and stdout.
pub struct Stdio;

fn io_error(e: &std::io::Error) -> IoError {
    IoError { errno: e.raw_os_error().unwrap_or(0) as u16 }
}

impl Io for Stdio {
    fn read(&mut self, buf: &mut Vec<u8>) -> Result<usize, IoError> {
        super::fs_host::into_spare(buf, |room| super::fs_host::retrying(|| std::io::stdin().lock().read(room)))
            .map_err(|e| io_error(&e))
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), IoError> {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes).and_then(|()| out.flush()).map_err(|e| io_error(&e))
    }
}

std::thread_local! {
    /// This thread's clock when a test set it: its reading at an instant.
    static CLOCK: Cell<Option<(u64, std::time::Instant)>> = const { Cell::new(None) };
}

/// Runs `f` with this thread's realtime clock reading `nanos` now and
/// running on from there, then puts back the clock it had (also when `f`
/// panics). Other threads keep theirs.
pub fn with_clock<R>(nanos: u64, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<(u64, std::time::Instant)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CLOCK.set(self.0);
        }
    }
    let _restore = Restore(CLOCK.replace(Some((nanos, std::time::Instant::now()))));
    f()
}

/// The realtime clock: nanoseconds since 1970-01-01T00:00:00Z, or WASI's
/// errno (`INVAL` for a system clock set before 1970; `OVERFLOW` past
/// 64 bits of nanoseconds, in 2554, as the platform's clock answers there).
pub fn realtime_nanos() -> Result<u64, u16> {
    if let Some((nanos, at)) = CLOCK.get() {
        let elapsed = u64::try_from(at.elapsed().as_nanos()).unwrap_or(u64::MAX);
        return nanos.checked_add(elapsed).ok_or(super::errno::OVERFLOW);
    }
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    since.map(|d| d.as_nanos() as u64).map_err(|_| super::errno::INVAL)
}

/// Waits `nanos` nanoseconds.
pub fn sleep_nanos(nanos: u64) -> Result<(), u16> {
    std::thread::sleep(std::time::Duration::from_nanos(nanos));
    Ok(())
}

/// Where [`random_bytes`] reads, for its errors.
pub const RANDOM_SOURCE: &str = "/dev/urandom";

/// Fills `buf` with random bytes from the system (`/dev/urandom`), or the
/// WASI errno its failure maps to (`NOTSUP` where there is none).
pub fn random_bytes(buf: &mut [u8]) -> Result<(), u16> {
    if buf.is_empty() {
        return Ok(());
    }
    let mut source = std::fs::File::open(RANDOM_SOURCE).map_err(|_| super::errno::NOTSUP)?;
    source.read_exact(buf).map_err(|_| super::errno::IO)
}

/// Writes `text` to stderr; free for logs on every back end.
pub fn log(text: &str) {
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// True when the program's `argv[1]` is `flag`.
pub fn arg1_is(flag: &[u8]) -> bool {
    std::env::args_os().nth(1).is_some_and(|arg| arg.as_encoded_bytes() == flag)
}

/// What answers this thread's HTTP requests on the host: request JSON in,
/// answer JSON out, exactly as the worker's `subako_http` trades them.
pub type HttpHook<'h> = dyn FnMut(&[u8]) -> alloc::vec::Vec<u8> + 'h;

std::thread_local! {
    /// The hook of the innermost [`with_http_hook`] running on this thread.
    static HTTP_HOOK: Cell<Option<NonNull<HttpHook<'static>>>> = const { Cell::new(None) };
}

/// Runs `f` with `hook` answering the HTTP requests this thread makes, then
/// puts back whatever answered them before (also when `f` panics). Other
/// threads never see it, so parallel tests do not interfere.
pub fn with_http_hook<R>(hook: &mut HttpHook<'_>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<NonNull<HttpHook<'static>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            HTTP_HOOK.set(self.0);
        }
    }
    let hook = NonNull::from(hook);
    // SAFETY: only the lifetime bound changes (the pointer's layout is the
    // same). The pointer leaves the thread-local when `Restore` drops, at the
    // end of this function, before the borrow of `hook` ends, unwinding
    // included; `hook` itself is not touched in between.
    let hook: NonNull<HttpHook<'static>> = unsafe { core::mem::transmute(hook) };
    let _restore = Restore(HTTP_HOOK.replace(Some(hook)));
    f()
}

/// The answer of this thread's HTTP hook to `request_json`, or `None` when
/// no hook is set. The hook is taken out while it runs: a request it makes
/// itself finds none.
pub fn http_hook_answer(request_json: &[u8]) -> Option<alloc::vec::Vec<u8>> {
    struct PutBack(NonNull<HttpHook<'static>>);
    impl Drop for PutBack {
        fn drop(&mut self) {
            HTTP_HOOK.set(Some(self.0));
        }
    }
    let hook = PutBack(HTTP_HOOK.take()?);
    // SAFETY: the pointer came from a live `&mut` in `with_http_hook`, whose
    // call is still running (it removes the pointer before returning), and
    // no other reference to the hook is in use: it was taken out of the
    // thread-local, so a nested request cannot reach it.
    Some(unsafe { (*hook.0.as_ptr())(request_json) })
}
