//! dlmalloc as the global allocator, its state kept out of the module's data.
//!
//! `dlmalloc::Dlmalloc::new()` has two fields that are not zero (the
//! granularity and the release-check rate), so a `static` holding it, as
//! dlmalloc's own `GlobalDlmalloc` does, puts the whole 460-byte state into
//! the module's data section. Here the state starts as all zeroes, which
//! the linker leaves out of the file, and the first allocation sets the
//! granularity. The release-check rate stays 0, which turns off dlmalloc's
//! periodic pass for giving segments back: wasm memory cannot shrink, so on
//! wasm32 that pass never frees anything.
//!
//! dlmalloc takes its memory from [`WasmMemory`] rather than from its own
//! wasm `System`, which only grows memory: the part of the module's initial
//! memory above its static data comes first, so a call that allocates less
//! than that (hello: every call) never grows memory. That keeps such a
//! module at the 2 pages it starts with, and saves the grow and the fresh
//! page it touches, measurably faster per call (`subako-tiny bench --vs`).

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicBool, Ordering};

/// A wasm page.
const PAGE: usize = 64 << 10;

/// The unit dlmalloc asks [`WasmMemory`] for: one host page rather than
/// `Dlmalloc::new()`'s wasm page, so that its first request fits in what is
/// left of the module's initial memory (see [`WasmMemory::alloc`]).
const GRANULARITY: usize = 4 << 10;

type State = dlmalloc::Dlmalloc<WasmMemory>;

/// dlmalloc's state with every field zero. Checked at build time: const
/// evaluation refuses a value that is invalid for its type, so a dlmalloc
/// whose state could not be all zeroes fails the build here.
// SAFETY: see above; every field of dlmalloc 0.2's state (integers, raw
// pointers, arrays of them, a unit struct) is valid as zeroes.
const ZEROED: State = unsafe { MaybeUninit::zeroed().assume_init() };

// What `ZEROED` and `start` were checked against: dlmalloc 0.2.14's state,
// whose only non-zero defaults are the two above. A release that adds a
// field changes the size and stops the build here, to be looked at first.
const _: () = assert!(
    core::mem::size_of::<State>() == 460,
    "dlmalloc's state changed: check src/sys/heap.rs against its Dlmalloc::new()"
);

pub struct Dlmalloc {
    state: UnsafeCell<State>,
    started: AtomicBool,
}

// SAFETY: a wasm32-wasip1 module runs one thread, and `state` is reached
// only through the allocator's calls, one at a time.
unsafe impl Sync for Dlmalloc {}

impl Dlmalloc {
    pub const fn new() -> Dlmalloc {
        Dlmalloc { state: UnsafeCell::new(ZEROED), started: AtomicBool::new(false) }
    }

    /// The state, started first if this is the first allocation.
    #[inline]
    fn started(&self) -> *mut State {
        if !self.started.load(Ordering::Relaxed) {
            self.start();
        }
        self.state.get()
    }

    // Inlined into the allocator's entry point, its one caller: a function
    // fewer to compile, 6 bytes smaller.
    #[inline(always)]
    fn start(&self) {
        // SAFETY: nothing else holds a reference into the state (one thread,
        // and no allocator call is running while this one starts it).
        let state = unsafe { &mut *self.state.get() };
        state.set_granularity(GRANULARITY);
        self.started.store(true, Ordering::Relaxed);
    }
}

impl Default for Dlmalloc {
    fn default() -> Dlmalloc {
        Dlmalloc::new()
    }
}

// SAFETY: every call goes to dlmalloc with the caller's layout; `dealloc`
// and `realloc` get blocks that `alloc` handed out, so the state is started.
unsafe impl GlobalAlloc for Dlmalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: one thread; this call alone reaches the state.
        unsafe { (*self.started()).malloc(layout.size(), layout.align()) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe { (*self.started()).calloc(layout.size(), layout.align()) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // `c_free` rather than `free`: `free` first asserts that `layout`
        // fits the block, a check of the caller's side of the contract that
        // would cost every module its code and its panics.
        let _ = layout;
        // SAFETY: as in `alloc`; `ptr` is a block `alloc` gave.
        unsafe { (*self.state.get()).c_free(ptr) }
    }

    // `realloc` is left to `GlobalAlloc`'s own: a new block, a copy, and
    // the old block freed. dlmalloc's, which can grow a block in place, is
    // far more code, and every module that grows a `Vec` would carry it;
    // wasm memory never shrinks, so giving the old block back is what
    // matters, and the copy costs one `memory.copy`.
}

/// Where dlmalloc gets memory: first the rest of the memory the module
/// starts with, above its static data (most calls need no more, so their
/// memory never grows), then whole pages grown at the end. dlmalloc's own
/// wasm `System` only grows, so a module that starts at 2 pages was at 3
/// after its first allocation.
pub struct WasmMemory;

/// Set once the initial memory's rest has been handed out.
static REST_GIVEN: AtomicBool = AtomicBool::new(false);

unsafe extern "C" {
    /// Where the linker put the end of static data (above the stack).
    static __heap_base: u8;
}

// SAFETY: every region handed out lies in linear memory, above static data
// and the stack, and is handed out once: the first starts at the heap base
// and ends at the memory's end, each later one is memory just grown.
unsafe impl dlmalloc::Allocator for WasmMemory {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let end = core::arch::wasm32::memory_size(0) * PAGE;
        let start = if REST_GIVEN.swap(true, Ordering::Relaxed) {
            end
        } else {
            // Only the address of the linker's symbol is taken, which is safe.
            core::ptr::addr_of!(__heap_base) as usize
        };
        // Saturating: a size past the address space asks for more pages
        // than memory can grow by, and growing fails.
        let pages = start.saturating_add(size).saturating_sub(end).div_ceil(PAGE);
        if pages > 0 && core::arch::wasm32::memory_grow(0, pages) == usize::MAX {
            return (core::ptr::null_mut(), 0, 0);
        }
        let new_end = end.wrapping_add(pages * PAGE);
        // At a full 4 GiB the end wraps to 0; like dlmalloc's own `System`,
        // leave the last bytes out so that no pointer reaches it.
        let len = new_end.wrapping_sub(start) - if new_end == 0 { 16 } else { 0 };
        (start as *mut u8, len, 0)
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

    /// Fresh wasm memory is zero, and nothing writes above the heap base
    /// before dlmalloc.
    fn allocates_zeros(&self) -> bool {
        true
    }

    fn page_size(&self) -> usize {
        PAGE
    }
}
