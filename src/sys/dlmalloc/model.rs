//! A model of wasm linear memory on the host, for the tests and the fuzz
//! target: the port's source there, and the `dlmalloc` crate's (through its
//! `Allocator` trait, which takes `&self`: hence the cells).

extern crate std;
use core::cell::Cell;
use std::vec::Vec;

use super::{Region, Source};

/// A model of a module's linear memory as `sys::heap::WasmMemory` hands
/// it out: the heap starts at `heap_base`, the first region runs to the end
/// of the memory the module starts with (grown if that is too little), and
/// each later region is whole pages grown at the end. `page` 1, `heap_base`
/// and `initial` 0 hand out exactly what each call asks.
pub struct Memory {
    /// The first byte of the model's memory.
    pub base: *mut u8,
    /// Keeps `base` alive.
    _bytes: Vec<u64>,
    capacity: usize,
    heap_base: usize,
    /// The unit memory grows by.
    pub page: usize,
    /// The memory's size in bytes.
    pub size: Cell<usize>,
    /// The end of what has been handed out; 0 before the first region.
    end: Cell<usize>,
}

// SAFETY: `base` points into `_bytes`, owned by the model and moved with it.
unsafe impl Send for Memory {}

impl Memory {
    /// `capacity` bytes of memory, `initial` of them there at the start.
    pub fn new(capacity: usize, heap_base: usize, initial: usize, page: usize) -> Memory {
        let mut bytes = std::vec![0u64; capacity.div_ceil(8)];
        let base = bytes.as_mut_ptr().cast();
        Memory { base, _bytes: bytes, capacity, heap_base, page, size: Cell::new(initial), end: Cell::new(0) }
    }

    /// WasmMemory's `grow`, with `memory_size` and `memory_grow` modelled.
    pub fn take(&self, size: usize) -> Option<(*mut u8, usize)> {
        let end = self.size.get();
        let start = if self.end.get() == 0 { self.heap_base } else { end };
        let pages = start.saturating_add(size).saturating_sub(end).div_ceil(self.page);
        let new_end = end.checked_add(pages.checked_mul(self.page)?)?;
        if new_end > self.capacity {
            return None;
        }
        self.size.set(new_end);
        self.end.set(new_end);
        Some((self.base.wrapping_add(start), new_end - start))
    }

    /// Everything handed out so far.
    pub fn region(&self) -> Region {
        Region { base: self.base.wrapping_add(self.heap_base), len: self.end.get().saturating_sub(self.heap_base) }
    }

    /// Where `p` is, from the memory's start; `None` for null.
    pub fn offset(&self, p: *mut u8) -> Option<usize> {
        (!p.is_null()).then(|| p as usize - self.base as usize)
    }
}

// SAFETY: each region is memory of the model not handed out before, and
// starts where the last one ended.
unsafe impl Source for Memory {
    fn grow(&mut self, size: usize) -> Option<(*mut u8, usize)> {
        self.take(size)
    }
}
