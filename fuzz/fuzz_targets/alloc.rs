//! The allocator: arbitrary sequences of `malloc`, `free` and realloc on
//! the crate's dlmalloc port over a model of wasm memory, checked for
//! alignment, disjointness and kept bytes, with dlmalloc's invariant
//! walkers after every step. The sequence runs twice: once beside the
//! `dlmalloc` crate 0.2.14 over equal memory, which must hand out the same
//! offsets, with realloc as a new block, the bytes copied and the old one
//! freed (the crate resizes in place in other cases than the port); once
//! on the port alone, with realloc as the global allocator does it (in
//! place where `resize_in_place` can) and some blocks aligned above 16
//! bytes, which the crate would place otherwise (its `memalign`). The
//! two ask for memory differently (the crate for all of a block, the port
//! for what its top chunk lacks), so near the end of memory one may run
//! out where the other does not; the port then goes on alone.
#![no_main]

use std::collections::BTreeMap;

use subako_tiny::__dlmalloc::{ALIGNMENT, Heap, HeapPtr, Memory, aligned_block};

/// Wasm's memory, as the port's tests model it: a heap base, two pages at
/// the start, pages of 64 KiB.
const HEAP_BASE: usize = 1040;
const INITIAL: usize = 2 << 16;
const PAGE: usize = 1 << 16;
const CAPACITY: usize = 1 << 20;
/// What the port asks its source for at least (its GRANULARITY).
const GRANULARITY: usize = 4 << 10;

/// The crate's view of the model.
struct Theirs(Memory);

// SAFETY: each region is fresh memory of the model, handed out once.
unsafe impl dlmalloc::Allocator for Theirs {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        self.0.take(size).map_or((std::ptr::null_mut(), 0, 0), |(p, n)| (p, n, 0))
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        std::ptr::null_mut()
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

    fn allocates_zeros(&self) -> bool {
        false
    }

    fn page_size(&self) -> usize {
        self.0.page
    }
}

enum Step {
    Malloc { size: usize, align: usize },
    Free(usize),
    Realloc(usize, usize),
}

/// Steps past this are not run: with the walkers after every step, longer
/// sequences cost more than the states they reach.
const MAX_STEPS: usize = 512;

/// Four bytes a step: what, then a size from 0 to past the initial memory
/// (the top two bits of the last byte pick the range), or which live block.
fn steps(data: &[u8]) -> impl Iterator<Item = Step> + '_ {
    data.chunks_exact(4).take(MAX_STEPS).map(|b| {
        let word = u16::from_le_bytes([b[1], b[2]]) as usize;
        let size = match b[3] >> 6 {
            0 => word % 240,
            1 => word % 4096,
            2 => word,
            _ => word * 2,
        };
        let at = word ^ b[3] as usize;
        match b[0] % 8 {
            0..=3 => Step::Malloc { size, align: if b[0] & 0x80 != 0 { 32 << (b[3] & 3) } else { ALIGNMENT } },
            4..=5 => Step::Free(at),
            _ => Step::Realloc(at, size),
        }
    })
}

struct Block {
    size: usize,
    align: usize,
    fill: u8,
}

fn drive(data: &[u8], mut beside_the_crate: bool) {
    let in_place = !beside_the_crate;
    let mut ours = Heap::new(Memory::new(CAPACITY, HEAP_BASE, INITIAL, PAGE));
    // SAFETY: `ours` is reached only through `heap` from here on.
    let heap = unsafe { HeapPtr::new(&raw mut ours) };
    let mut theirs = dlmalloc::Dlmalloc::new_with_allocator(Theirs(Memory::new(CAPACITY, HEAP_BASE, INITIAL, PAGE)));
    assert!(theirs.set_granularity(GRANULARITY));
    let memory = heap.source();
    let their_base = theirs.allocator().0.base;
    // Live blocks by offset from the memory's start.
    let mut live: BTreeMap<usize, Block> = BTreeMap::new();
    let mut fills = 0u8;

    for step in steps(data) {
        // SAFETY: one caller for each heap; every block freed is live, at the
        // same offset in both, with the size and alignment it was made with.
        unsafe {
            let (size, align, old) = match step {
                Step::Malloc { size, align } => (size, if beside_the_crate { ALIGNMENT } else { align }, None),
                Step::Free(_) | Step::Realloc(..) if live.is_empty() => continue,
                Step::Free(at) => {
                    let offset = *live.keys().nth(at % live.len()).unwrap();
                    let block = live.remove(&offset).unwrap();
                    kept((*memory).base.add(offset), &block);
                    free(heap, (*memory).base.add(offset), block.align);
                    if beside_the_crate {
                        kept(their_base.add(offset), &block);
                        theirs.free(their_base.add(offset), block.size, 1);
                    }
                    heap.check_malloc_state((*memory).region());
                    continue;
                }
                Step::Realloc(at, size) => {
                    let offset = *live.keys().nth(at % live.len()).unwrap();
                    let block = live.remove(&offset).unwrap();
                    if in_place && block.align <= ALIGNMENT && heap.resize_in_place((*memory).base.add(offset), size) {
                        let p = (*memory).base.add(offset);
                        kept(p, &Block { size: block.size.min(size), ..block });
                        if let Some((&next, _)) = live.range(offset..).next() {
                            assert!(offset + size <= next, "a block resized in place overlaps the next");
                        }
                        fills = fills.wrapping_add(1);
                        p.write_bytes(fills, size);
                        live.insert(offset, Block { size, align: block.align, fill: fills });
                        heap.check_malloc_state((*memory).region());
                        continue;
                    }
                    (size, block.align, Some((offset, block)))
                }
            };
            let a = if align <= ALIGNMENT { heap.malloc(size) } else { heap.malloc_aligned(size, align) };
            if beside_the_crate {
                let b = theirs.malloc(size, 1);
                let (ours, theirs) = ((*memory).offset(a), theirs.allocator().0.offset(b));
                if theirs.is_none() != ours.is_none() {
                    beside_the_crate = false;
                } else {
                    assert_eq!(ours, theirs, "the port's block, then the crate's");
                }
            }
            if align <= ALIGNMENT {
                heap.check_malloced_chunk(a, size, (*memory).region());
            }
            let Some(offset) = (*memory).offset(a) else {
                // Out of memory: an old block stays, as realloc leaves it.
                if let Some((offset, block)) = old {
                    live.insert(offset, block);
                }
                heap.check_malloc_state((*memory).region());
                continue;
            };
            assert_eq!(a as usize % align, 0, "a block is not aligned to {align}");
            let end = offset + size;
            if let Some((&next, _)) = live.range(offset..).next() {
                assert!(end <= next, "a block overlaps the next");
            }
            if let Some((&prev, block)) = live.range(..offset).next_back() {
                assert!(prev + block.size <= offset, "a block overlaps the one before");
            }
            fills = fills.wrapping_add(1);
            let keep = old.as_ref().map_or(0, |(_, old)| old.size.min(size));
            if let Some((from, old)) = &old {
                kept((*memory).base.add(*from), old);
                a.copy_from_nonoverlapping((*memory).base.add(*from), keep);
                kept(a, &Block { size: keep, align, fill: old.fill });
                free(heap, (*memory).base.add(*from), old.align);
                if beside_the_crate {
                    let b = their_base.add(offset);
                    b.copy_from_nonoverlapping(their_base.add(*from), keep);
                    theirs.free(their_base.add(*from), old.size, 1);
                }
            }
            a.write_bytes(fills, size);
            if beside_the_crate {
                their_base.add(offset).write_bytes(fills, size);
            }
            live.insert(offset, Block { size, align, fill: fills });
            heap.check_malloc_state((*memory).region());
        }
    }
    // Everything given back leaves no chunk in use.
    for (offset, block) in std::mem::take(&mut live) {
        // SAFETY: as above.
        unsafe { free(heap, (*memory).base.add(offset), block.align) };
    }
    // SAFETY: as above.
    let census = unsafe { heap.check_malloc_state((*memory).region()) };
    assert_eq!((census.in_use, census.free), (0, 0), "memory left in use or in bins after every block was freed");
}

/// Frees a block the port made with `align`.
///
/// # Safety
/// `p` is a live block of `heap`.
unsafe fn free(heap: HeapPtr<Memory>, p: *mut u8, align: usize) {
    // SAFETY: the caller's contract; aligned blocks go back by their start.
    unsafe { heap.free(if align <= ALIGNMENT { p } else { aligned_block(p) }) }
}

/// Asserts that `block`, at `p`, kept its bytes: all of a small block, the
/// first and last KiB of a large one (where a chunk header written over
/// it would land; a block handed out over it is an overlap, checked apart).
fn kept(p: *const u8, block: &Block) {
    // SAFETY: `p` is a live block of `block.size` bytes.
    let bytes = unsafe { std::slice::from_raw_parts(p, block.size) };
    let ends = bytes.len().min(1024);
    let (head, tail) = (&bytes[..ends], &bytes[bytes.len() - ends..]);
    assert!(head.iter().chain(tail).all(|&b| b == block.fill), "a block's bytes changed");
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    drive(data, true);
    drive(data, false);
});
