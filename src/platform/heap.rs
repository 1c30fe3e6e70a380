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

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicBool, Ordering};

/// The granularity `Dlmalloc::new()` sets: one wasm page.
const GRANULARITY: usize = 64 << 10;

/// dlmalloc's state with every field zero. Checked at build time: const
/// evaluation refuses a value that is invalid for its type, so a dlmalloc
/// whose state could not be all zeroes fails the build here.
// SAFETY: see above; every field of dlmalloc 0.2's state (integers, raw
// pointers, arrays of them, a unit struct) is valid as zeroes.
const ZEROED: dlmalloc::Dlmalloc = unsafe { MaybeUninit::zeroed().assume_init() };

// What `ZEROED` and `start` were checked against: dlmalloc 0.2.14's state,
// whose only non-zero defaults are the two above. A release that adds a
// field changes the size and stops the build here, to be looked at first.
const _: () = assert!(
    core::mem::size_of::<dlmalloc::Dlmalloc>() == 460,
    "dlmalloc's state changed: check src/platform/heap.rs against its Dlmalloc::new()"
);

pub struct Dlmalloc {
    state: UnsafeCell<dlmalloc::Dlmalloc>,
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
    fn started(&self) -> *mut dlmalloc::Dlmalloc {
        if !self.started.load(Ordering::Relaxed) {
            self.start();
        }
        self.state.get()
    }

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
        // links a panic path into every module (78 bytes in hello).
        let _ = layout;
        // SAFETY: as in `alloc`; `ptr` is a block `alloc` gave.
        unsafe { (*self.state.get()).c_free(ptr) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as in `dealloc`.
        unsafe { (*self.state.get()).realloc(ptr, layout.size(), layout.align(), new_size) }
    }
}
