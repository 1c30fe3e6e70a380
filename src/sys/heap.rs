//! dlmalloc as the global allocator, over the module's linear memory: the
//! crate's own port (`super::dlmalloc`, feature `dlmalloc`), or the
//! `dlmalloc` crate itself (feature `dlmalloc-crate`).
//!
//! Its state starts as all zeroes, which the linker leaves out of the
//! file; the first allocation sets it up.
//!
//! Either takes its memory from [`WasmMemory`]: the part of the module's
//! initial memory above its static data comes first, so a call that
//! allocates less than that (hello: every call) never grows memory. That
//! keeps such a module at the 2 pages it starts with, and saves the grow and
//! the fresh page it touches, measurably faster per call
//! (`subako-tiny bench --vs`). The crate's own source for wasm, `System`,
//! would grow memory at the first allocation and leave the initial memory
//! unused.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::{Cell, UnsafeCell};

#[cfg(not(feature = "dlmalloc-crate"))]
use super::dlmalloc::{ALIGNMENT, Heap, HeapPtr, Source, aligned_block};

/// A wasm page.
const PAGE: usize = 64 << 10;

#[cfg(not(feature = "dlmalloc-crate"))]
pub struct Dlmalloc {
    heap: UnsafeCell<Heap<WasmMemory>>,
}

// SAFETY: a wasm32-wasip1 module runs one thread, and `heap` is reached
// only through the allocator's calls, one at a time.
#[cfg(not(feature = "dlmalloc-crate"))]
unsafe impl Sync for Dlmalloc {}

#[cfg(not(feature = "dlmalloc-crate"))]
impl Dlmalloc {
    pub const fn new() -> Dlmalloc {
        Dlmalloc { heap: UnsafeCell::new(Heap::new(WasmMemory { end: Cell::new(0) })) }
    }

    fn heap(&self) -> HeapPtr<WasmMemory> {
        // SAFETY: the allocator's calls are the heap's only way in, one at a
        // time (one thread), and each reaches it through this.
        unsafe { HeapPtr::new(self.heap.get()) }
    }
}

#[cfg(not(feature = "dlmalloc-crate"))]
impl Default for Dlmalloc {
    fn default() -> Dlmalloc {
        Dlmalloc::new()
    }
}

// SAFETY: every block comes from dlmalloc with at least the layout's size,
// aligned to the layout, and `dealloc` gives it back the way it came.
#[cfg(not(feature = "dlmalloc-crate"))]
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

    /// In place when the top chunk follows the block, or when it holds
    /// `new_size` with less than a chunk to spare (a growing `Vec`, the
    /// newest block, grows into the top,
    /// so that its old and new copies never stand side by side: loading a
    /// large file's records needed twice the memory the list did); else a
    /// new block and a copy. dlmalloc's whole `realloc`, which also grows
    /// into a free neighbour and cuts a block down where it stands, is far
    /// more code: a `Vec` grown by exact steps (`reserve_exact`) away from
    /// the top still moves at each step, and one cut down moves to a block
    /// of its new size, which gives the rest back.
    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: one thread; `ptr` is a live block of this heap, from
        // `malloc` when its alignment is at most ALIGNMENT.
        if layout.align() <= ALIGNMENT && unsafe { self.heap().resize_in_place(ptr, new_size) } {
            return ptr;
        }
        // SAFETY: `GlobalAlloc::realloc`'s contract makes the new layout
        // valid; the new block holds the smaller of the two sizes, and the
        // old one is live until it is given back.
        unsafe {
            let moved = self.alloc(Layout::from_size_align_unchecked(new_size, layout.align()));
            if !moved.is_null() {
                core::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            moved
        }
    }
    // `alloc_zeroed` is `GlobalAlloc`'s own: a block and a fill.
}

/// The `dlmalloc` crate, whole, as the global allocator: its `malloc`,
/// `free`, `calloc` and `realloc` (which grows a block in place when it
/// can), over [`WasmMemory`], with the port's granularity (a host page, not
/// the crate's wasm page) so that the first request fits in the initial
/// memory.
#[cfg(feature = "dlmalloc-crate")]
pub struct CrateDlmalloc {
    heap: UnsafeCell<dlmalloc_crate::Dlmalloc<WasmMemory>>,
}

// SAFETY: as for the port's `Dlmalloc`: one thread, one call at a time.
#[cfg(feature = "dlmalloc-crate")]
unsafe impl Sync for CrateDlmalloc {}

#[cfg(feature = "dlmalloc-crate")]
impl CrateDlmalloc {
    pub const fn new() -> CrateDlmalloc {
        let mut heap = dlmalloc_crate::Dlmalloc::new_with_allocator(WasmMemory { end: Cell::new(0) });
        // A power of two above the alignment: always accepted.
        heap.set_granularity(4 << 10);
        CrateDlmalloc { heap: UnsafeCell::new(heap) }
    }

    #[allow(clippy::mut_from_ref)]
    fn heap(&self) -> &mut dlmalloc_crate::Dlmalloc<WasmMemory> {
        // SAFETY: one thread, and the allocator's calls are the heap's only
        // way in, one at a time; none keeps the reference past its call.
        unsafe { &mut *self.heap.get() }
    }
}

// SAFETY: the crate's `Dlmalloc` keeps `GlobalAlloc`'s contract when given
// each block's layout, as its own `GlobalDlmalloc` does.
#[cfg(feature = "dlmalloc-crate")]
unsafe impl GlobalAlloc for CrateDlmalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.heap().malloc(layout.size(), layout.align()) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { self.heap().free(ptr, layout.size(), layout.align()) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        unsafe { self.heap().calloc(layout.size(), layout.align()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        unsafe { self.heap().realloc(ptr, layout.size(), layout.align(), new_size) }
    }
}

/// Where dlmalloc gets memory: first the rest of the memory the module
/// starts with, above its static data (most calls need no more, so their
/// memory never grows), then whole pages grown at the end, each region
/// starting where the last ended, as dlmalloc's port needs (the crate would
/// take regions anywhere, and merges these).
pub struct WasmMemory {
    /// The end of what has been handed out; 0 before the first region. A
    /// cell: the crate asks through a shared reference.
    end: Cell<usize>,
}

unsafe extern "C" {
    /// Where the linker put the end of static data (above the stack).
    static __heap_base: u8;
}

impl WasmMemory {
    /// At least `size` more bytes: the start and the length, or `None`.
    ///
    /// Every region handed out lies in linear memory, above static data
    /// and the stack, and is handed out once: the first starts at the heap
    /// base and ends at the memory's end, each later one is memory just
    /// grown at the end of the one before. When memory grew by someone
    /// else's hand the next region would not adjoin, and none is given.
    fn take(&self, size: usize) -> Option<(*mut u8, usize)> {
        let end = core::arch::wasm32::memory_size(0).wrapping_mul(PAGE);
        let start = if self.end.get() == 0 {
            // Only the address of the linker's symbol is taken, which is safe.
            core::ptr::addr_of!(__heap_base) as usize
        } else if self.end.get() == end {
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
        self.end.set(start + len);
        Some((start as *mut u8, len))
    }
}

// SAFETY: `take`'s regions (see there).
#[cfg(not(feature = "dlmalloc-crate"))]
unsafe impl Source for WasmMemory {
    fn grow(&mut self, size: usize) -> Option<(*mut u8, usize)> {
        self.take(size)
    }
}

// SAFETY: `take`'s regions (see there), fresh memory nothing else uses;
// wasm memory is never given back, so nothing is freed or remapped.
#[cfg(feature = "dlmalloc-crate")]
unsafe impl dlmalloc_crate::Allocator for WasmMemory {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        self.take(size).map_or((core::ptr::null_mut(), 0, 0), |(base, len)| (base, len, 0))
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        core::ptr::null_mut()
    }

    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }

    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }

    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }

    /// Memory fresh from the module's start or from a grow is zeroes.
    fn allocates_zeros(&self) -> bool {
        true
    }

    fn page_size(&self) -> usize {
        PAGE
    }
}
