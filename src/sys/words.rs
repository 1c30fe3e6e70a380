//! Buffers of `u32`s: what `crate::sort` keeps its indices in.
//! `(0..n).collect::<Vec<u32>>()` would link alloc's capacity and
//! allocation error paths into the module.

use alloc::vec::Vec;

/// `0, 1, 2, …, len - 1`.
pub(crate) fn counting_words(len: usize) -> Vec<u32> {
    // Past `u32`, the numbers would repeat (only on a 64-bit host: a
    // wasm32 `usize` is a `u32`); refused as running out.
    if len == 0 {
        return Vec::new();
    }
    if len - 1 > u32::MAX as usize {
        super::out_of_memory();
    }
    let mut words = super::with_room::<u32>(len);
    let ptr = words.as_mut_ptr();
    for i in 0..len {
        // SAFETY: `i < len`, the block's room, which is aligned for `u32`.
        unsafe { ptr.add(i).write(i as u32) };
    }
    // SAFETY: the loop wrote the first `len` elements.
    unsafe { words.set_len(len) };
    words
}
