//! Buffers of `u32`s, asked of the allocator directly: what `crate::sort`
//! keeps its indices in. `(0..n).collect::<Vec<u32>>()` would link alloc's
//! capacity and allocation error paths into the module.

use alloc::vec::Vec;

/// `0, 1, 2, …, len - 1`.
pub(crate) fn counting_words(len: usize) -> Vec<u32> {
    if len == 0 {
        return Vec::new();
    }
    // Past `u32`, the numbers would repeat (only on a 64-bit host: a
    // wasm32 `usize` is a `u32`); refused as running out.
    if len - 1 > u32::MAX as usize {
        super::out_of_memory();
    }
    // More than `isize::MAX` bytes is refused, as running out.
    let Ok(layout) = core::alloc::Layout::array::<u32>(len) else { super::out_of_memory() };
    // SAFETY: `layout` is not zero-sized (`len` > 0).
    let ptr = unsafe { alloc::alloc::alloc(layout) } as *mut u32;
    if ptr.is_null() {
        super::out_of_memory();
    }
    for i in 0..len {
        // SAFETY: `i < len`: inside the block, which is aligned for `u32`.
        unsafe { ptr.add(i).write(i as u32) };
    }
    // SAFETY: `ptr` holds `len` written `u32`s from the global allocator
    // with `u32`'s layout for `len` of them, which is what the `Vec` frees
    // it with.
    unsafe { Vec::from_raw_parts(ptr, len, len) }
}
