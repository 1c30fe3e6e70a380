//! The program: the entry point [`main!`](crate::main) calls and the
//! panic policy (the allocator the features choose is `sys`'s). The one
//! module that sees both [`protocol`](crate::protocol) and
//! [`sys`](crate::sys).
//!
//! One panic policy, by target:
//! - wasm32: a panic (or running out of memory) ends the process. When a
//!   tool was running, its request is first answered with an isError result
//!   naming what panicked and where, and the process exits 0; otherwise
//!   the report goes to stderr and the exit code is 101.
//! - the host: a tool's panic is caught and becomes the same kind of
//!   isError result, and serving goes on (tests see every answer).

use crate::args::Args;
use crate::package::ToolFn;
use crate::protocol::{self, RunTool};
use crate::rendered::Rendered;
use crate::reply::{Reply, ToolError};
use crate::sys;

/// The program's `main`: the manifest, or requests until stdin ends.
pub fn run(package: &'static Rendered<'static>) -> i32 {
    let manifest = sys::arg1_is(protocol::MANIFEST_FLAG.as_bytes());
    protocol::serve(package, manifest, &mut sys::Stdio, &Guarded { result_prefix: package.result_prefix })
}

/// Runs tools under this target's failure policy (see the module's doc).
#[derive(Default)]
pub struct Guarded {
    /// What follows a result's id: the package's fixed `_meta`, which a
    /// failure's answer starts with as every result does.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    result_prefix: &'static [u8],
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::*;
    #[cfg(feature = "panic-handler")]
    use crate::json::num;

    impl RunTool for Guarded {
        /// Runs a tool, keeping which request it answers for the panic
        /// handler until the answer is written.
        fn run(&self, tool: ToolFn, args: &Args<'_>, id: &[u8]) -> Result<Reply, ToolError> {
            sys::pending::answering(id, self.result_prefix);
            tool(args)
        }

        fn answered(&self) {
            sys::pending::answered();
        }
    }

    /// The panic message's buffer: on the stack, since the heap may be what
    /// ran out.
    #[cfg(feature = "panic-handler")]
    type PanicText = heapless::Vec<u8, PANIC_TEXT>;

    /// [`PanicText`]'s capacity.
    #[cfg(feature = "panic-handler")]
    const PANIC_TEXT: usize = 512;

    /// Appends `part` to `text` as far as it fits, with the bytes a JSON
    /// string cannot hold as they are (quote, backslash, control
    /// characters) written as `/`: a Windows path still reads as one.
    #[cfg(feature = "panic-handler")]
    #[inline(never)]
    fn append_plain(text: &mut PanicText, part: &[u8]) {
        let mut taking = false;
        for &b in part {
            // A character goes in whole or not at all, so a message cut
            // short is still UTF-8: one starts only with room for four bytes.
            if b & 0xc0 != 0x80 {
                taking = text.len() + 4 <= text.capacity();
            }
            if taking {
                let _ = text.push(if b == b'"' || b == b'\\' || b < 0x20 { b'/' } else { b });
            }
        }
    }

    /// Ends the process after a failure: says what and where on stderr
    /// and, when a tool was running, answers its request with an isError
    /// result, so the model reads what happened instead of a bare crash.
    /// Allocates nothing (the heap may be what ran out): the message is
    /// built on the stack and cut short, on a character boundary, past
    /// [`PanicText`]'s capacity (a message, a little before it, so that
    /// the place still fits). Reads `panicked: WHAT (at FILE:LINE)`,
    /// or `panicked (at FILE:LINE)` when `what` is empty; with no `file`,
    /// `panicked: WHAT`.
    #[cfg(feature = "panic-handler")]
    fn fail(what: &str, file: &str, line: u32) -> ! {
        let mut text = PanicText::new();
        append_plain(&mut text, b"panicked");
        if !what.is_empty() {
            append_plain(&mut text, b": ");
            // A long message is cut short of the end, so that where the
            // panic happened still fits.
            let what = what.as_bytes();
            #[cfg(feature = "panic-message")]
            let what = {
                // Room for " (at FILE:LINE)" (a line of up to ten digits),
                // but at least a few words of the message when the path is
                // long, which is then cut instead. Back to a char's start,
                // by bytes: a `str` slice would link its panic's formatting.
                // (`append_plain` starts a char only with four bytes free:
                // the last three may go unused.)
                let place = file.len() + " (at :4294967295)".len() + 3;
                let mut end = what.len().min(PANIC_TEXT.saturating_sub(place + "panicked: ".len()).max(32));
                while what.get(end).is_some_and(|&b| b & 0xc0 == 0x80) {
                    end -= 1;
                }
                what.get(..end).unwrap_or(what)
            };
            append_plain(&mut text, what);
        }
        if !file.is_empty() {
            append_plain(&mut text, b" (at ");
            append_plain(&mut text, file.as_bytes());
            append_plain(&mut text, b":");
            append_plain(&mut text, num::usize_digits(line as usize, &mut [0; 20]));
            append_plain(&mut text, b")");
        }
        fail_with(text.as_slice())
    }

    /// Ends the process after a failure whose report is `text` (JSON string
    /// text, written as it is): on stderr and, when a tool was running, as
    /// its request's isError answer. A report known whole ahead (running
    /// out of memory) comes here directly, without the builder above.
    pub(super) fn fail_with(text: &[u8]) -> ! {
        let _ = sys::write_all(sys::STDERR, text);
        let _ = sys::write_all(sys::STDERR, b"\n");
        let code = if sys::pending::write_pending(b"{\"id\":") {
            let _ = sys::write_all(sys::STDOUT, protocol::PANIC_ANSWER_OPEN);
            let _ = sys::write_all(sys::STDOUT, text);
            let _ = sys::write_all(sys::STDOUT, protocol::PANIC_ANSWER_CLOSE);
            // The request is answered; the process ends cleanly.
            0
        } else {
            101
        };
        sys::exit(code)
    }

    /// Reports a panic by where it happened. Its message is left out unless
    /// the `panic-message` feature asks for it, and then only a message
    /// that is a plain string (`panic!("text")`, `Option::unwrap`'s), not
    /// `expect`'s, an index's, an overflow's or any formatted one: reading
    /// the message keeps every panic site's formatting arguments alive, and
    /// with them parts of `core::fmt`, which `./size-report
    /// --feature-costs` prices per module.
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
}

/// Memory ran out: on wasm32 the call is answered as a panic's is; on the
/// host, std's own report and abort.
impl sys::OutOfMemory for sys::Program {
    #[cold]
    #[inline(never)]
    fn out_of_memory() -> ! {
        // No location: it would be this hook's, not where the memory ran out.
        #[cfg(target_arch = "wasm32")]
        wasm::fail_with(b"ran out of memory: send it less");
        #[cfg(not(target_arch = "wasm32"))]
        alloc::alloc::handle_alloc_error(core::alloc::Layout::new::<u8>())
    }
}

/// Runs a tool; a panic becomes an isError result and serving goes on.
#[cfg(not(target_arch = "wasm32"))]
impl RunTool for Guarded {
    fn run(&self, tool: ToolFn, args: &Args<'_>, _id: &[u8]) -> Result<Reply, ToolError> {
        extern crate std;
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tool(args))) {
            Ok(result) => result,
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .copied()
                    .or_else(|| payload.downcast_ref::<std::string::String>().map(|s| s.as_str()))
                    .unwrap_or("a panic with no message");
                Err(ToolError::from(crate::text!("tool panicked: ", message)))
            }
        }
    }
}
