//! The heap over a model of wasm memory on the host (and under Miri):
//! random blocks allocated, filled, checked and freed in random order, with
//! dlmalloc's invariant walkers (`super::check`) run after every step; and
//! the same seeded sequences driven through the `dlmalloc` crate 0.2.14,
//! which must hand out the same blocks.
//!
//! `DLMALLOC_CASES=N` sets how many seeded sequences the differential test
//! runs, `DLMALLOC_SEED=S` the first seed.

extern crate std;
use std::vec::Vec;

use super::{ALIGNMENT, GRANULARITY, Heap, HeapPtr, Memory, aligned_block};

/// The crate's view of the same model.
struct Theirs(Memory);

// SAFETY: as for `Source`; nothing is ever given back.
unsafe impl dlmalloc_crate::Allocator for Theirs {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        self.0.take(size).map_or((core::ptr::null_mut(), 0, 0), |(p, n)| (p, n, 0))
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

    fn allocates_zeros(&self) -> bool {
        false
    }

    fn page_size(&self) -> usize {
        self.0.page
    }
}

/// Wasm's memory as the tests model it: a heap base, two pages at the
/// start, pages of 64 KiB.
const HEAP_BASE: usize = 1040;
const INITIAL: usize = 2 << 16;
const PAGE: usize = 1 << 16;

/// `capacity` bytes of wasm-like memory.
fn wasm_memory(capacity: usize) -> Memory {
    Memory::new(capacity, HEAP_BASE, INITIAL, PAGE)
}

/// A xorshift generator: the same cases on every run.
pub(super) fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The walkers over `heap`.
fn check(heap: HeapPtr<Memory>) {
    // SAFETY: the heap's memory is its source's, unused by anyone now.
    unsafe {
        let region = (*heap.source()).region();
        heap.check_malloc_state(region);
    }
}

#[test]
fn blocks_are_aligned_disjoint_and_keep_their_bytes() {
    let rounds = if cfg!(miri) { 300 } else { 20_000 };
    let mut state = Heap::new(Memory::new(1 << 20, 0, 0, 1));
    // SAFETY: `state` is reached only through `heap` from here on.
    let heap = unsafe { HeapPtr::new(&raw mut state) };
    let mut live: Vec<(*mut u8, usize, u8)> = Vec::new();
    let mut state = 0x9e37_79b9_7f4a_7c15;
    for round in 0..rounds {
        let r = next(&mut state);
        if live.len() < 64 && (!r.is_multiple_of(3) || live.is_empty()) {
            // Mostly small blocks, some past the small bins, a few large.
            let size = match r >> 60 {
                0 => (r >> 8) as usize % 8000,
                1..=4 => (r >> 8) as usize % 600,
                _ => (r >> 8) as usize % 120,
            };
            // SAFETY: one caller; the heap's memory is the model's.
            let p = unsafe { heap.malloc(size) };
            assert!(!p.is_null(), "round {round}: {size} bytes");
            assert_eq!(p as usize % ALIGNMENT, 0);
            // SAFETY: as above.
            unsafe { heap.check_malloced_chunk(p, size, (*heap.source()).region()) };
            let fill = round as u8;
            // SAFETY: the block is `size` bytes and ours.
            unsafe { p.write_bytes(fill, size) };
            for &(q, n, _) in &live {
                assert!(p as usize + size <= q as usize || q as usize + n <= p as usize, "overlap");
            }
            live.push((p, size, fill));
        } else {
            let (p, size, fill) = live.swap_remove((r >> 8) as usize % live.len());
            // SAFETY: the block is live and `size` bytes.
            let bytes = unsafe { core::slice::from_raw_parts(p, size) };
            assert!(bytes.iter().all(|&b| b == fill), "a block's bytes changed");
            // SAFETY: `p` came from this heap and is not used after.
            unsafe { heap.free(p) };
        }
        check(heap);
    }
    for (p, _, _) in live {
        // SAFETY: as above.
        unsafe { heap.free(p) };
        check(heap);
    }
    // Everything given back merges into the top chunk again: a block of
    // nearly all that was handed out fits without growing.
    // SAFETY: as above.
    let used = unsafe { (*heap.source()).region().len };
    // SAFETY: as above.
    let census = unsafe { heap.check_malloc_state((*heap.source()).region()) };
    assert_eq!((census.in_use, census.free), (0, 0));
    // SAFETY: as above.
    let p = unsafe { heap.malloc(used - 4096) };
    assert!(!p.is_null());
    // SAFETY: as above.
    assert_eq!(unsafe { (*heap.source()).region().len }, used);
    check(heap);
}

#[test]
fn aligned_blocks_are_aligned_and_given_back() {
    let mut state = Heap::new(Memory::new(1 << 17, 0, 0, 1));
    // SAFETY: one caller; the heap's memory is the model's, and `state` is
    // reached only through `heap`.
    unsafe {
        let heap = HeapPtr::new(&raw mut state);
        for round in 0..200 {
            let align = 16 << (round % 5);
            let size = round * 7 % 300;
            let small = heap.malloc(round % 40);
            let p = heap.malloc_aligned(size, align);
            assert!(!p.is_null() && !small.is_null());
            assert_eq!(p as usize % align, 0, "{size} bytes at {align}");
            p.write_bytes(0xA5, size);
            small.write_bytes(0x5A, round % 40);
            check(heap);
            heap.free(aligned_block(p));
            check(heap);
            heap.free(small);
            check(heap);
        }
        assert!(heap.malloc_aligned(usize::MAX - 8, 64).is_null());
        // Every block came back: one page of the source was ever needed.
        assert_eq!((*heap.source()).region().len, GRANULARITY);
    }
}

#[test]
fn a_request_past_the_source_is_null() {
    let mut state = Heap::new(Memory::new(8192, 0, 0, 1));
    // SAFETY: one caller; the heap's memory is the model's, and `state` is
    // reached only through `heap`.
    unsafe {
        let heap = HeapPtr::new(&raw mut state);
        assert!(heap.malloc(1 << 20).is_null());
        assert!(heap.malloc(usize::MAX - 8).is_null());
        check(heap);
        let p = heap.malloc(100);
        assert!(!p.is_null());
        check(heap);
        heap.free(p);
        check(heap);
    }
}

/// What one step of a sequence does.
#[derive(Debug, Clone, Copy)]
pub(super) enum Step {
    Malloc(usize),
    /// The live block at this index (modulo their count).
    Free(usize),
    /// The live block at this index to this many bytes, as
    /// `GlobalAlloc::realloc` does it (`super::heap`'s path) for a block it
    /// cannot resize in place: a new block, the bytes copied, the old one
    /// freed. (The crate resizes in place in other cases than the port's
    /// `resize_in_place`, so that path is tested on the port alone.)
    Realloc(usize, usize),
}

/// A seeded sequence's next step: sizes in the small bins, the tree bins,
/// and past the memory a module starts with (which makes memory grow).
fn step(state: &mut u64, large: usize) -> Step {
    let r = next(state);
    let size = match r >> 59 {
        0 => large / 8 + (r >> 8) as usize % large,
        1..=6 => 233 + (r >> 8) as usize % 20_000,
        7..=14 => (r >> 8) as usize % 1024,
        _ => (r >> 8) as usize % 233,
    };
    let at = (r >> 32) as usize;
    match r % 8 {
        0..=3 => Step::Malloc(size),
        4..=6 => Step::Free(at),
        _ => Step::Realloc(at, size),
    }
}

/// A live block: where it is (an offset from the memory's start), its size,
/// and the byte it is filled with.
struct Block {
    offset: usize,
    size: usize,
    fill: u8,
}

/// Runs `steps` on the port and on the `dlmalloc` crate over equal memory,
/// asserting after each that both handed out the same offset (or both
/// failed), that every block kept its bytes, and that the port's
/// invariants hold. Both models of memory are wasm's: a heap base, an
/// initial memory, pages of 64 KiB. The two ask for memory differently
/// (the crate for all of a block, the port for what its top chunk lacks),
/// so near the end of memory one may run out where the other does not:
/// from there the port goes on alone.
///
/// Under Miri the port runs alone: the crate breaks both of Miri's
/// aliasing models (its methods take `&mut self` while its chunks point at
/// the bin heads inside it; Miri stops at the first `free` that bins a
/// chunk), which the port's `HeapPtr` exists to avoid.
pub(super) fn differential(steps: impl IntoIterator<Item = Step>, capacity: usize, what: &dyn core::fmt::Display) {
    let mut ours = Heap::new(wasm_memory(capacity));
    // SAFETY: `ours` is reached only through `heap` from here on.
    let heap = unsafe { HeapPtr::new(&raw mut ours) };
    let mut theirs = dlmalloc_crate::Dlmalloc::new_with_allocator(Theirs(wasm_memory(capacity)));
    // The port asks its source for GRANULARITY-rounded sizes; the crate's
    // default is a wasm page, set to the port's so that both ask for the same.
    assert!(theirs.set_granularity(GRANULARITY));
    let our_memory = heap.source();
    let their_base = theirs.allocator().0.base;
    let mut live: Vec<Block> = Vec::new();
    let mut fills = 0u8;
    let mut failed = 0;
    let mut with_the_crate = WITH_THE_CRATE;

    for (n, step) in steps.into_iter().enumerate() {
        // SAFETY: one caller for each heap; every pointer freed is a live
        // block of that heap, at the same offset in both, `size` bytes long.
        unsafe {
            let (size, old) = match step {
                Step::Malloc(size) => (size, None),
                Step::Free(_) | Step::Realloc(..) if live.is_empty() => continue,
                Step::Free(at) => {
                    let block = live.swap_remove(at % live.len());
                    let (a, b) = ((*our_memory).base.add(block.offset), their_base.add(block.offset));
                    assert_kept(a, &block, what, n);
                    assert_kept(b, &block, what, n);
                    heap.free(a);
                    if with_the_crate {
                        theirs.free(b, block.size, 1);
                    }
                    check(heap);
                    continue;
                }
                Step::Realloc(at, size) => (size, Some(live.swap_remove(at % live.len()))),
            };
            let a = heap.malloc(size);
            let offset_a = (*our_memory).offset(a);
            if with_the_crate {
                let b = theirs.malloc(size, 1);
                let offset_b = theirs.allocator().0.offset(b);
                if offset_b.is_none() != offset_a.is_none() {
                    with_the_crate = false;
                } else {
                    assert_eq!(offset_a, offset_b, "{what}, step {n} ({step:?}): the port's block, then the crate's");
                }
            }
            // The crate's block is at the port's offset in its own memory
            // (without the crate, under Miri or once one ran out, a copy of
            // the port's bytes stands there).
            let b = their_base.wrapping_add(offset_a.unwrap_or(0));
            heap.check_malloced_chunk(a, size, (*our_memory).region());
            fills = fills.wrapping_add(1);
            if let Some(offset) = offset_a {
                let keep = old.as_ref().map_or(0, |old| old.size.min(size));
                if let Some(old) = &old {
                    core::ptr::copy_nonoverlapping((*our_memory).base.add(old.offset), a, keep);
                    core::ptr::copy_nonoverlapping(their_base.add(old.offset), b, keep);
                }
                a.add(keep).write_bytes(fills, size - keep);
                b.add(keep).write_bytes(fills, size - keep);
                if let Some(old) = old {
                    let block = Block { offset, size: keep, fill: old.fill };
                    assert_kept(a, &block, what, n);
                    assert_kept(b, &block, what, n);
                    heap.free((*our_memory).base.add(old.offset));
                    if with_the_crate {
                        theirs.free(their_base.add(old.offset), old.size, 1);
                    }
                    // The rest of the block is filled anew; one fill for
                    // the whole block keeps the check simple.
                    a.write_bytes(fills, size);
                    b.write_bytes(fills, size);
                }
                live.push(Block { offset, size, fill: fills });
            } else {
                // Both failed: an old block stays, as realloc leaves it.
                failed += 1;
                live.extend(old);
            }
            check(heap);
        }
    }
    if std::env::var("DLMALLOC_STATS").is_ok() {
        // SAFETY: the heap and its source live on.
        let size = unsafe { (*our_memory).size.get() };
        std::eprintln!("{what}: {} live, {failed} failed, memory {size} bytes", live.len());
    }
}

/// Whether the differential tests drive the crate (see `differential`).
const WITH_THE_CRATE: bool = !cfg!(miri);

/// Asserts that the block at `p` still holds its fill.
fn assert_kept(p: *const u8, block: &Block, what: &dyn core::fmt::Display, n: usize) {
    // SAFETY: `p` is a live block of `block.size` bytes.
    let bytes = unsafe { core::slice::from_raw_parts(p, block.size) };
    assert!(bytes.iter().all(|&b| b == block.fill), "{what}, step {n}: a block's bytes changed");
}

struct Seed(u64);

impl core::fmt::Display for Seed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "seed {}", self.0)
    }
}

/// The port takes dlmalloc's chunks line for line: over equal memory, the
/// same sequence of `malloc`, `free` and realloc-as-a-new-block hands out
/// the same offsets. What the crate does otherwise (its `realloc`, which
/// resizes in place in more cases than the port's, and `memalign`) is not
/// driven.
#[test]
fn the_port_hands_out_what_the_dlmalloc_crate_does() {
    let (cases, steps, large, capacity) =
        if cfg!(miri) { (1, 60, 8_000, 1 << 19) } else { (env("DLMALLOC_CASES", 24), 1500, 200_000, 6 << 20) };
    let first = env("DLMALLOC_SEED", 1);
    for seed in first..first + cases {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let sequence = (0..steps).map(|_| step(&mut state, large));
        // One sequence in three in a memory too small for it: both run out
        // at the same step, and go on with what they have.
        let capacity = if seed % 3 == 0 { capacity / 4 } else { capacity };
        differential(sequence, capacity, &Seed(seed));
    }
}

/// Many blocks of one size free at once fill one small bin, then a tree
/// bin's ring, and freeing every other one keeps them apart; the same
/// offsets again.
#[test]
fn the_port_and_the_crate_agree_on_full_bins_and_rings() {
    let (count, sizes) = if cfg!(miri) { (6, &[24, 1000][..]) } else { (200, &[24, 100, 232, 300, 1000, 5000][..]) };
    for &size in sizes {
        let mut steps = Vec::new();
        steps.extend((0..count).map(|_| Step::Malloc(size)));
        // Every other block (from the end, as `swap_remove` reorders).
        steps.extend((0..count / 2).map(Step::Free));
        steps.extend((0..count).map(|i| Step::Malloc(size / 2 + i % 3)));
        steps.extend((0..count * 2).map(|i| Step::Free(i * 7)));
        differential(steps, 8 << 20, &Seed(size as u64));
    }
}

/// `super::heap`'s `realloc`: in place when the block holds the size
/// already or the top chunk follows it, else a new block and a copy.
///
/// # Safety
/// `p` is a live block of `heap` of `old` bytes; one caller.
unsafe fn realloc(heap: HeapPtr<Memory>, p: *mut u8, old: usize, size: usize) -> *mut u8 {
    // SAFETY: the caller's contract.
    unsafe {
        if heap.resize_in_place(p, size) {
            return p;
        }
        let moved = heap.malloc(size);
        if !moved.is_null() {
            core::ptr::copy_nonoverlapping(p, moved, old.min(size));
            heap.free(p);
        }
        moved
    }
}

#[test]
fn the_newest_block_grows_in_place_and_memory_by_what_the_top_lacks() {
    let most = if cfg!(miri) { 1 << 20 } else { 32 << 20 };
    let mut state = Heap::new(wasm_memory(2 * most));
    // SAFETY: one caller; `state` is reached only through `heap`.
    unsafe {
        let heap = HeapPtr::new(&raw mut state);
        let small = heap.malloc(100);
        // A Vec's growth: each size twice the last, past `most`.
        let mut size = 1000;
        let block = heap.malloc(size);
        block.write_bytes(7, size);
        while size < most {
            let grown = realloc(heap, block, size, size * 2);
            assert_eq!(grown, block, "{size} → {}: moved", size * 2);
            block.add(size).write_bytes(7, size);
            size *= 2;
            check(heap);
        }
        assert!(core::slice::from_raw_parts(block, size).iter().step_by(251).all(|&b| b == 7));
        // Memory holds the block and little more: a copy at each doubling
        // needed half as much again beside it.
        let used = (*heap.source()).region().len;
        assert!(used < size + (128 << 10), "{used} bytes of memory for a block of {size}");
        // Smaller by less than a chunk stays; by more, it moves, so that
        // the rest is free again.
        assert!(heap.resize_in_place(block, size - 8));
        assert!(!heap.resize_in_place(block, 10));
        // A block with another after it moves.
        assert!(!heap.resize_in_place(small, 5000));
        let moved = realloc(heap, small, 100, 5000);
        assert!(!moved.is_null() && moved != small);
        check(heap);
        heap.free(block);
        heap.free(moved);
        let census = heap.check_malloc_state((*heap.source()).region());
        assert_eq!((census.in_use, census.free), (0, 0));
    }
}

/// A block cut down gives back what it no longer holds (review 53: cut
/// down in place, a 20 MiB `Vec` truncated and shrunk to fit kept all of
/// it, and five of them ran out of 64 MiB).
#[test]
fn a_block_cut_down_gives_the_rest_back() {
    let big = if cfg!(miri) { 64 << 10 } else { 4 << 20 };
    let mut state = Heap::new(wasm_memory(3 * big));
    // SAFETY: one caller; `state` is reached only through `heap`.
    unsafe {
        let heap = HeapPtr::new(&raw mut state);
        let mut kept = Vec::new();
        for round in 0..8u8 {
            let block = heap.malloc(big);
            assert!(!block.is_null(), "round {round}: memory ran out");
            block.write_bytes(round, 1024);
            let small = realloc(heap, block, big, 1024);
            assert!(core::slice::from_raw_parts(small, 1024).iter().all(|&b| b == round));
            kept.push(small);
            kept.push(heap.malloc(100));
            check(heap);
        }
        for p in kept {
            heap.free(p);
        }
        check(heap);
    }
}

#[test]
fn a_block_that_cannot_grow_in_place_past_memory_stays_as_it_was() {
    let mut state = Heap::new(wasm_memory(1 << 20));
    // SAFETY: one caller; `state` is reached only through `heap`.
    unsafe {
        let heap = HeapPtr::new(&raw mut state);
        let block = heap.malloc(1000);
        block.write_bytes(3, 1000);
        assert!(!heap.resize_in_place(block, 2 << 20));
        assert!(!heap.resize_in_place(block, isize::MAX as usize));
        assert!(realloc(heap, block, 1000, 2 << 20).is_null());
        check(heap);
        assert!(core::slice::from_raw_parts(block, 1000).iter().all(|&b| b == 3));
        // All the memory there is, less the heap's own, is still one block's.
        let grown = realloc(heap, block, 1000, (1 << 20) - 1040 - 4096);
        assert_eq!(grown, block);
        check(heap);
    }
}

/// Random `malloc`, `free` and `realloc` (the global allocator's, which
/// resizes in place where it can) with the walkers after every step: some
/// resizes in place, some moves, every block's bytes kept.
#[test]
fn resized_blocks_keep_their_bytes_and_the_invariants() {
    let (rounds, large) = if cfg!(miri) { (300, 6000) } else { (20_000, 60_000) };
    let mut state = Heap::new(wasm_memory(16 << 20));
    // SAFETY: `state` is reached only through `heap` from here on.
    let heap = unsafe { HeapPtr::new(&raw mut state) };
    let mut live: Vec<(*mut u8, usize, u8)> = Vec::new();
    let (mut in_place, mut moved) = (0, 0);
    let mut state = 0x2545_f491_4f6c_dd1d;
    for round in 0..rounds {
        let r = next(&mut state);
        let size = match r >> 61 {
            0 => (r >> 8) as usize % large,
            1..=3 => (r >> 8) as usize % 2000,
            _ => (r >> 8) as usize % 200,
        };
        let fill = round as u8;
        match r % 4 {
            _ if live.is_empty() => {}
            0 | 1 => {
                let at = (r >> 32) as usize % live.len();
                let (p, old, old_fill) = live[at];
                // SAFETY: `p` is a live block of `old` bytes.
                let q = unsafe { realloc(heap, p, old, size) };
                assert!(!q.is_null(), "round {round}");
                if q == p {
                    in_place += 1
                } else {
                    moved += 1
                }
                // SAFETY: `q` holds `size` bytes, the first `old` of them kept.
                unsafe {
                    let kept = core::slice::from_raw_parts(q, old.min(size));
                    assert!(kept.iter().all(|&b| b == old_fill), "round {round}: bytes lost in a resize");
                    q.write_bytes(fill, size);
                }
                live[at] = (q, size, fill);
                check(heap);
                continue;
            }
            2 => {
                let (p, size, fill) = live.swap_remove((r >> 32) as usize % live.len());
                // SAFETY: `p` is a live block of `size` bytes.
                unsafe {
                    assert!(core::slice::from_raw_parts(p, size).iter().all(|&b| b == fill));
                    heap.free(p);
                }
                check(heap);
                continue;
            }
            _ => {}
        }
        // SAFETY: one caller.
        let p = unsafe { heap.malloc(size) };
        assert!(!p.is_null());
        // SAFETY: the block is `size` bytes and ours.
        unsafe { p.write_bytes(fill, size) };
        live.push((p, size, fill));
        check(heap);
    }
    for (i, &(p, size, _)) in live.iter().enumerate() {
        for &(q, n, _) in &live[i + 1..] {
            assert!(p as usize + size <= q as usize || q as usize + n <= p as usize, "overlap");
        }
    }
    assert!(in_place > rounds / 50 && moved > rounds / 50, "{in_place} in place, {moved} moved");
}

/// The walkers fail: each case breaks one invariant in a heap the walkers
/// passed, and expects the walker that catches it to say which.
mod the_walkers_catch {
    use super::*;
    use crate::sys::dlmalloc::{CINUSE, Chunk, PINUSE, TreeChunk};

    /// A heap with blocks in use, free small chunks in a bin, free large
    /// chunks in a tree and a designated victim; then `corrupt` on it.
    fn broken(corrupt: impl FnOnce(HeapPtr<Memory>, &[*mut u8])) {
        let mut state = Heap::new(Memory::new(1 << 18, 0, 0, 1));
        // SAFETY: one caller; `state` is reached only through `heap`.
        unsafe {
            let heap = HeapPtr::new(&raw mut state);
            let blocks: Vec<*mut u8> =
                [40, 40, 40, 40, 600, 40, 600, 40, 2000, 40, 72, 40, 40].iter().map(|&n| heap.malloc(n)).collect();
            for i in [0, 2, 4, 6, 8] {
                heap.free(blocks[i]);
            }
            // A victim: the rest of a 600-byte chunk a small block split.
            let split = heap.malloc(100);
            assert!(!split.is_null());
            heap.free(blocks[10]);
            check(heap);
            assert!((*heap.0).smallmap != 0 && (*heap.0).treemap != 0 && !(*heap.0).dv.is_null());
            corrupt(heap, &blocks);
            check(heap);
        }
    }

    #[test]
    #[should_panic(expected = "a free chunk is in no bin")]
    fn a_block_marked_free() {
        // SAFETY: the block's header is in the model's memory.
        broken(|_, blocks| unsafe { (*Chunk::from_mem(blocks[12])).head &= !CINUSE });
    }

    #[test]
    #[should_panic(expected = "the chunk after one in use says it is free")]
    fn a_lost_in_use_bit() {
        // SAFETY: as above: blocks 11 and 12 are both in use.
        broken(|_, blocks| unsafe { (*Chunk::from_mem(blocks[12])).head &= !PINUSE });
    }

    #[test]
    #[should_panic(expected = "a free chunk before the top chunk")]
    fn a_top_chunk_that_says_the_one_before_is_free() {
        // SAFETY: the top chunk is the heap's.
        broken(|heap, _| unsafe { (*(*heap.0).top).head &= !PINUSE });
    }

    #[test]
    #[should_panic(expected = "small bin 3 is marked but empty")]
    fn a_marked_empty_bin() {
        // SAFETY: the map is the heap's.
        broken(|heap, _| unsafe { (*heap.0).smallmap |= 1 << 3 });
    }

    #[test]
    #[should_panic(expected = "a free chunk is in no bin")]
    fn a_bin_unmarked() {
        // SAFETY: as above; blocks of 40 bytes are chunks of 48: bin 6.
        broken(|heap, _| unsafe { (*heap.0).smallmap &= !(1 << 6) });
    }

    #[test]
    #[should_panic(expected = "a free chunk's next does not point back")]
    fn a_broken_bin_link() {
        // SAFETY: block 0 is free, in small bin 6 with block 2.
        broken(|_, blocks| unsafe {
            let p = Chunk::from_mem(blocks[0]);
            (*p).next = p;
        });
    }

    #[test]
    #[should_panic(expected = "tree bin")]
    fn a_tree_bin_unmarked() {
        // SAFETY: the map is the heap's; the 600-byte chunks are in a tree.
        broken(|heap, _| unsafe { (*heap.0).treemap = 0 });
    }

    #[test]
    #[should_panic(expected = "a tree chunk of")]
    fn a_tree_chunk_in_the_wrong_bin() {
        // SAFETY: block 8 is free, in a tree (the small block split one
        // of the smaller 600-byte chunks).
        broken(|_, blocks| unsafe { (*Chunk::from_mem(blocks[8]).cast::<TreeChunk>()).index += 1 });
    }

    #[test]
    #[should_panic(expected = "the designated victim's size is not dvsize")]
    fn a_victim_of_the_wrong_size() {
        // SAFETY: the state is the heap's.
        broken(|heap, _| unsafe { (*heap.0).dvsize += ALIGNMENT });
    }

    #[test]
    #[should_panic(expected = "the top chunk's foot is overwritten")]
    fn an_overwritten_foot() {
        // SAFETY: the foot lies in the model's memory.
        broken(|heap, _| unsafe {
            let top = (*heap.0).top;
            (*Chunk::plus_offset(top, (*heap.0).topsize)).head = 0;
        });
    }

    #[test]
    #[should_panic(expected = "the top chunk's size is not topsize")]
    fn a_top_of_the_wrong_size() {
        // SAFETY: the state is the heap's.
        broken(|heap, _| unsafe { (*heap.0).topsize -= ALIGNMENT });
    }

    #[test]
    #[should_panic(expected = "two free chunks side by side")]
    fn a_block_freed_without_merging() {
        // SAFETY: block 1 is in use between free blocks 0 and 2; marked
        // free by hand, with no bin, the walk finds it first.
        broken(|_, blocks| unsafe {
            let p = Chunk::from_mem(blocks[1]);
            let size = Chunk::size(p);
            (*p).head &= !CINUSE;
            let next = Chunk::plus_offset(p, size);
            (*next).head &= !PINUSE;
            (*next).prev_foot = size;
        });
    }
}
