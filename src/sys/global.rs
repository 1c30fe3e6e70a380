//! The global allocator: the one the features pick (lean-alloc, then
//! dlmalloc-crate, then the dlmalloc port), wrapped so that running out of
//! memory ends the call through [`OutOfMemory`](super::OutOfMemory) rather
//! than returning null.

use core::alloc::{GlobalAlloc, Layout};

/// Ends the call with "out of memory" when the inner allocator has no
/// more to give. Failing here rather than returning null lets the
/// optimizer see that allocation never fails, which drops alloc's own
/// handler and the `core::fmt` code it formats its message with. The
/// price: a `try_reserve` cannot recover either.
pub struct AbortOnNull<A>(pub A);

// SAFETY: delegates to `A`; a null from it never returns.
unsafe impl<A: GlobalAlloc> GlobalAlloc for AbortOnNull<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on unchanged.
        let p = unsafe { self.0.alloc(layout) };
        if p.is_null() {
            super::out_of_memory();
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is passed on unchanged.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if p.is_null() {
            super::out_of_memory();
        }
        p
    }
}

#[cfg(all(feature = "dlmalloc", not(any(feature = "lean-alloc", feature = "dlmalloc-crate"))))]
#[global_allocator]
static ALLOCATOR: AbortOnNull<super::heap::Dlmalloc> = AbortOnNull(super::heap::Dlmalloc::new());

#[cfg(all(feature = "dlmalloc-crate", not(feature = "lean-alloc")))]
#[global_allocator]
static ALLOCATOR: AbortOnNull<super::heap::CrateDlmalloc> = AbortOnNull(super::heap::CrateDlmalloc::new());

#[cfg(feature = "lean-alloc")]
#[global_allocator]
static ALLOCATOR: AbortOnNull<super::bump::Bump> = AbortOnNull(super::bump::Bump);
