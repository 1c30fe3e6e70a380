//! The host back end: std I/O, so `cargo run --example hello` serves
//! requests with no WebAssembly runtime.

extern crate std;

use core::ptr::NonNull;
use std::cell::Cell;
use std::io::{Read as _, Write as _};

use crate::args::Args;
use crate::package::ToolFn;
use crate::protocol::{self, Io, IoError};
use crate::rendered::Rendered;
use crate::reply::{Reply, ToolError};

/// The process's stdin and stdout.
pub struct Stdio;

fn io_error(e: &std::io::Error) -> IoError {
    IoError { errno: e.raw_os_error().unwrap_or(0) as u16 }
}

impl Io for Stdio {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, IoError> {
        loop {
            match std::io::stdin().lock().read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => return other.map_err(|e| io_error(&e)),
            }
        }
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), IoError> {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes).and_then(|()| out.flush()).map_err(|e| io_error(&e))
    }
}

/// Runs a tool; a panic becomes an isError result and serving goes on.
fn run_tool(tool: ToolFn, args: &Args<'_>, _head: &[u8]) -> Result<Reply, ToolError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tool(args))) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<std::string::String>().map(|s| s.as_str()))
                .unwrap_or("a panic with no message");
            Err(ToolError::from_parts(&["tool panicked: ", message]))
        }
    }
}

/// The program's `main`: the manifest, or requests until stdin ends.
pub fn run(package: &'static Rendered<'static>) -> i32 {
    let manifest = std::env::args().nth(1).as_deref() == Some(protocol::MANIFEST_FLAG);
    protocol::serve_rendered(package, manifest, &mut Stdio, run_tool)
}

/// Writes `text` to stderr; free for logs on every back end.
pub fn log(text: &str) {
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// The allocator gave nothing back: std's own report and abort.
#[cold]
pub(crate) fn out_of_memory() -> ! {
    std::alloc::handle_alloc_error(core::alloc::Layout::new::<u8>())
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
