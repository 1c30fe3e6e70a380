//! The lean allocator: a bump pointer over memory grown on demand.
//!
//! Every call is a fresh instance that lives for one request, so freeing
//! matters little. Only the newest block is given back or grown in place,
//! which is what a growing buffer needs: a call's request line is read into
//! the newest block and doubles where it is.
//!
//! A block freed while it lies just below the newest joins it: `NEWEST`
//! moves down to the freed block's start, and giving back the newest then
//! gives back both. A tool frees its arguments (an unescaped string) before
//! the reply it made after them; without this, each request on one stdin
//! would leave those bytes behind for good. A block freed just below the
//! newest after the newest went back goes back at once, so locals, which
//! drop newest first, give back a loop's temporaries each turn (not the
//! blocks a `Vec` grew out of while a newer block lay above it: those are
//! never adjacent to the newest again).

use core::alloc::{GlobalAlloc, Layout};
use core::sync::atomic::{AtomicPtr, Ordering};

const PAGE: usize = 64 << 10;

unsafe extern "C" {
    /// Where the linker put the end of static data and stack.
    static __heap_base: u8;
}

/// The next free byte, and the start of the newest block with the freed
/// blocks just below it: only the newest block starts at or above
/// `NEWEST`, and it ends at `NEXT`. Both start at the heap's base, so no
/// allocation asks whether it is the first.
static NEXT: AtomicPtr<u8> = AtomicPtr::new(&raw const __heap_base as *mut u8);
static NEWEST: AtomicPtr<u8> = AtomicPtr::new(&raw const __heap_base as *mut u8);

fn next() -> usize {
    NEXT.load(Ordering::Relaxed) as usize
}

fn newest() -> usize {
    NEWEST.load(Ordering::Relaxed) as usize
}

fn set_next(at: usize) {
    NEXT.store(at as *mut u8, Ordering::Relaxed);
}

fn set_newest(at: usize) {
    NEWEST.store(at as *mut u8, Ordering::Relaxed);
}

pub struct Bump;

/// Makes memory reach `end`, growing it by whole pages; false when it
/// cannot. The memory's size is asked each time (one instruction), not
/// kept.
fn reach(end: usize) -> bool {
    let have = core::arch::wasm32::memory_size(0) * PAGE;
    end <= have || core::arch::wasm32::memory_grow(0, (end - have).div_ceil(PAGE)) != usize::MAX
}

// SAFETY: single-threaded wasm; every block handed out lies between the heap
// base and the end of memory and is never handed out twice while live.
unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let at = (next() + layout.align() - 1) & !(layout.align() - 1);
        let Some(end) = at.checked_add(layout.size()) else {
            return core::ptr::null_mut();
        };
        if !reach(end) {
            return core::ptr::null_mut();
        }
        set_next(end);
        set_newest(at);
        at as *mut u8
    }

    // Out of line: a call costs less than a copy of this at each caller.
    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let at = ptr as usize;
        let end = at + layout.size();
        let newest = newest();
        if end == next() {
            // The top block: the newest, with the freed blocks below it, or
            // one just below a newest that has gone back already (locals
            // drop newest first). All of it goes back.
            let back = at.min(newest);
            set_next(back);
            set_newest(back);
        } else if end == newest {
            // Just below: it goes back with the newest.
            set_newest(at);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let at = ptr as usize;
        if at >= newest() {
            // The newest block grows or shrinks where it is.
            let Some(end) = at.checked_add(new_size) else {
                return core::ptr::null_mut();
            };
            if !reach(end) {
                return core::ptr::null_mut();
            }
            set_next(end);
            return ptr;
        }
        // SAFETY: `layout.align()` is a valid alignment; the size is the caller's.
        let new = unsafe { self.alloc(Layout::from_size_align_unchecked(new_size, layout.align())) };
        if !new.is_null() {
            // SAFETY: both blocks are live and at least this long; they do not overlap.
            unsafe { core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size)) };
        }
        new
    }
}
