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
//! would leave those bytes behind for good.

use core::alloc::{GlobalAlloc, Layout};
use core::sync::atomic::{AtomicUsize, Ordering};

const PAGE: usize = 64 << 10;

/// Next free byte, end of memory, and start of the newest block with the
/// freed blocks just below it; 0 until the first allocation. Only the
/// newest block starts at or above `NEWEST`, and it ends at `NEXT`.
static NEXT: AtomicUsize = AtomicUsize::new(0);
static END: AtomicUsize = AtomicUsize::new(0);
static NEWEST: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" {
    /// Where the linker put the end of static data and stack.
    static __heap_base: u8;
}

pub struct Bump;

/// Makes memory reach `end`, growing it by whole pages; false when it cannot.
fn reach(end: usize) -> bool {
    let have = END.load(Ordering::Relaxed);
    if end <= have {
        return true;
    }
    let pages = (end - have).div_ceil(PAGE);
    if core::arch::wasm32::memory_grow(0, pages) == usize::MAX {
        return false;
    }
    END.store(have + pages * PAGE, Ordering::Relaxed);
    true
}

fn start() -> usize {
    let next = NEXT.load(Ordering::Relaxed);
    if next != 0 {
        return next;
    }
    // Only the address of the linker's symbol is taken, which is safe.
    let base = core::ptr::addr_of!(__heap_base) as usize;
    END.store(core::arch::wasm32::memory_size(0) * PAGE, Ordering::Relaxed);
    base
}

// SAFETY: single-threaded wasm; every block handed out lies between the heap
// base and the end of memory and is never handed out twice while live.
unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let at = (start() + layout.align() - 1) & !(layout.align() - 1);
        let Some(end) = at.checked_add(layout.size()) else {
            return core::ptr::null_mut();
        };
        if !reach(end) {
            return core::ptr::null_mut();
        }
        NEXT.store(end, Ordering::Relaxed);
        NEWEST.store(at, Ordering::Relaxed);
        at as *mut u8
    }

    // Out of line: a call costs less than a copy of this at each caller.
    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let at = ptr as usize;
        let newest = NEWEST.load(Ordering::Relaxed);
        if at >= newest {
            // The newest block: it and the freed blocks below it go back.
            NEXT.store(newest, Ordering::Relaxed);
        } else if at + layout.size() == newest {
            // Just below: it goes back with the newest.
            NEWEST.store(at, Ordering::Relaxed);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let at = ptr as usize;
        if at >= NEWEST.load(Ordering::Relaxed) {
            // The newest block grows or shrinks where it is.
            let Some(end) = at.checked_add(new_size) else {
                return core::ptr::null_mut();
            };
            if !reach(end) {
                return core::ptr::null_mut();
            }
            NEXT.store(end, Ordering::Relaxed);
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
