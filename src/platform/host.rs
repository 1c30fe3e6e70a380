//! The host back end: std I/O, so `cargo run --example hello` serves
//! requests with no WebAssembly runtime.

extern crate std;

use std::io::{Read as _, Write as _};

use crate::args::Args;
use crate::package::ToolFn;
use crate::rendered::Rendered;
use crate::protocol::{self, Io, IoError};
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
