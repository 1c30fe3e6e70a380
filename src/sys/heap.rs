//! dlmalloc (the crate's own port, `super::dlmalloc`) as the global
//! allocator, over the module's linear memory.
//!
//! Its state starts as all zeroes, which the linker leaves out of the
//! file; the first allocation sets it up.
//!
//! dlmalloc takes its memory from [`WasmMemory`]: the part of the module's
//! initial memory above its static data comes first, so a call that
//! allocates less than that (hello: every call) never grows memory. That
//! keeps such a module at the 2 pages it starts with, and saves the grow and
//! the fresh page it touches, measurably faster per call
//! (`subako-tiny bench --vs`).

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;

use super::dlmalloc::{ALIGNMENT, Heap, HeapPtr, Source, aligned_block};

/// A wasm page.
const PAGE: usize = 64 << 10;

pub struct Dlmalloc {
    heap: UnsafeCell<Heap<WasmMemory>>,
}

// SAFETY: a wasm32-wasip1 module runs one thread, and `heap` is reached
// only through the allocator's calls, one at a time.
unsafe impl Sync for Dlmalloc {}

impl Dlmalloc {
    pub const fn new() -> Dlmalloc {
        Dlmalloc { heap: UnsafeCell::new(Heap::new(WasmMemory { end: 0 })) }
    }

    fn heap(&self) -> HeapPtr<WasmMemory> {
        // SAFETY: the allocator's calls are the heap's only way in, one at a
        // time (one thread), and each reaches it through this.
        unsafe { HeapPtr::new(self.heap.get()) }
    }
}

impl Default for Dlmalloc {
    fn default() -> Dlmalloc {
        Dlmalloc::new()
    }
}

// SAFETY: every block comes from dlmalloc with at least the layout's size,
// aligned to the layout, and `dealloc` gives it back the way it came.
unsafe impl GlobalAlloc for Dlmalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= ALIGNMENT {
            // SAFETY: one thread; this call alone reaches the heap.
            unsafe { self.heap().malloc(layout.size()) }
        } else {
            // SAFETY: as above; `align` is a power of two above ALIGNMENT.
            unsafe { self.heap().malloc_aligned(layout.size(), layout.align()) }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: one thread; `ptr` came from this heap's `malloc`, or from
        // `malloc_aligned` when the layout asked for more than ALIGNMENT.
        unsafe {
            let block = if layout.align() <= ALIGNMENT { ptr } else { aligned_block(ptr) };
            self.heap().free(block)
        }
    }

    // `alloc_zeroed` and `realloc` are `GlobalAlloc`'s own: a block and a
    // fill, a new block and a copy. dlmalloc's `realloc`, which can grow a
    // block in place, is far more code, and every module that grows a `Vec`
    // would carry it; wasm memory never shrinks, so giving the old block back
    // is what matters, and the copy costs one `memory.copy`.
}

/// Where dlmalloc gets memory: first the rest of the memory the module
/// starts with, above its static data (most calls need no more, so their
/// memory never grows), then whole pages grown at the end, each region
/// starting where the last ended, as dlmalloc's port needs.
pub struct WasmMemory {
    /// The end of what has been handed out; 0 before the first region.
    end: usize,
}

unsafe extern "C" {
    /// Where the linker put the end of static data (above the stack).
    static __heap_base: u8;
}

// SAFETY: every region handed out lies in linear memory, above static data
// and the stack, and is handed out once: the first starts at the heap base
// and ends at the memory's end, each later one is memory just grown at the
// end of the one before. When memory grew by someone else's hand the next
// region would not adjoin, and none is given.
unsafe impl Source for WasmMemory {
    fn grow(&mut self, size: usize) -> Option<(*mut u8, usize)> {
        let end = core::arch::wasm32::memory_size(0).wrapping_mul(PAGE);
        let start = if self.end == 0 {
            // Only the address of the linker's symbol is taken, which is safe.
            core::ptr::addr_of!(__heap_base) as usize
        } else if self.end == end {
            end
        } else {
            return None;
        };
        // Saturating: a size past the address space asks for more pages
        // than memory can grow by, and growing fails.
        let pages = start.saturating_add(size).saturating_sub(end).div_ceil(PAGE);
        // Growing by 0 pages is a no-op that succeeds: no test for it.
        if core::arch::wasm32::memory_grow(0, pages) == usize::MAX {
            return None;
        }
        let new_end = end.wrapping_add(pages * PAGE);
        // At a full 4 GiB the end wraps to 0: leave the last bytes out so
        // that no pointer reaches it.
        let len = new_end.wrapping_sub(start) - if new_end == 0 { 16 } else { 0 };
        self.end = start + len;
        Some((start as *mut u8, len))
    }
}
