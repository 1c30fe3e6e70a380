//! dlmalloc, Doug Lea's allocator, as the `dlmalloc` crate 0.2.14 ports it,
//! cut to what a module uses: `malloc`, `free`, and a block that the top
//! chunk follows grown in place.
//!
//! The port this follows is Copyright (c) 2014 Alex Crichton, under the MIT
//! license or Apache-2.0 as this crate is (LICENSE-MIT, LICENSE-APACHE);
//! Doug Lea released the original `malloc.c` to the public domain.
//!
//! The bins, the tree of large chunks, the designated victim and the top
//! chunk are the crate's, line for line, but for two places where it
//! repeats itself, one here: `malloc`'s two small-bin paths (which take the
//! same chunks) and the two tree searches' endings. What is gone is what
//! wasm memory cannot use:
//! - **Segments.** Memory only grows, at its end, so the region the source
//!   hands out next always starts where the last one ended: there is one
//!   region, and the top chunk grows into each new one. The crate's code
//!   for regions elsewhere (a segment list, merging a region in front of
//!   another) is never run here, but every module carried it.
//!   Growing asks only for what the top chunk lacks, as C dlmalloc does
//!   for a contiguous `MORECORE`; the crate, which cannot know the next
//!   region adjoins, asks for all of a block and strands the top's free
//!   bytes below it. So near the end of memory the two may run out at
//!   different requests.
//! - **Giving memory back.** Wasm memory cannot shrink, so the trimming
//!   and segment-release passes that `free` runs never free anything.
//! - Most of `realloc`, and `memalign` and mmapped chunks: the global
//!   allocator (`super::heap`) resizes a block in place when it holds the
//!   size already or the top chunk follows it
//!   ([`HeapPtr::resize_in_place`], the case of a growing `Vec`), else with
//!   a new block and a copy; a block aligned above [`ALIGNMENT`] comes from
//!   [`HeapPtr::malloc_aligned`], which over-allocates.
//!
//! The crate's debug checks are in `check`, built for tests and fuzzing
//! only. The tests (`tests`) hold the port to "line for line": over equal
//! memory it hands out what the crate does, step for step, and its heap
//! passes the checks after every step.
//!
//! The state starts as all zeroes (the first `malloc` sets the bins up),
//! so a `static` of it lies in zeroed memory, which takes no bytes in the
//! module's file.
//!
//! Every function here is `unsafe` for one shared reason, stated once: the
//! chunk pointers it reads come from the bins, the tree, `dv` and `top`,
//! which hold only chunks inside the region, with headers and footers as
//! dlmalloc lays them out, and only blocks `malloc` gave reach `free`.

use core::mem;
use core::ptr;

/// Where the heap's memory comes from.
///
/// # Safety
/// Each region [`Source::grow`] returns is memory nothing else uses, and
/// starts where the one before it ended (the first may start anywhere).
pub unsafe trait Source {
    /// At least `size` more bytes: the start and the length, or `None`.
    fn grow(&mut self, size: usize) -> Option<(*mut u8, usize)>;
}

/// What `malloc` aligns every block to: two words.
pub const ALIGNMENT: usize = 2 * mem::size_of::<usize>();
/// The unit memory is asked for in: a host page, so that the first request
/// fits in what is left of a module's initial memory.
const GRANULARITY: usize = 4 << 10;

const NSMALLBINS: usize = 32;
const NTREEBINS: usize = 32;
const SMALLBIN_SHIFT: usize = 3;
const TREEBIN_SHIFT: usize = 8;

const PINUSE: usize = 1 << 0;
const CINUSE: usize = 1 << 1;
const FLAG4: usize = 1 << 2;
const INUSE: usize = PINUSE | CINUSE;
const FLAG_BITS: usize = PINUSE | CINUSE | FLAG4;

const CHUNK_OVERHEAD: usize = mem::size_of::<usize>();
const MIN_LARGE_SIZE: usize = 1 << TREEBIN_SHIFT;
const MAX_SMALL_SIZE: usize = MIN_LARGE_SIZE - 1;
const MAX_SMALL_REQUEST: usize = MAX_SMALL_SIZE - (ALIGNMENT - 1) - CHUNK_OVERHEAD;
const MIN_CHUNK_SIZE: usize = align_up(mem::size_of::<Chunk>(), ALIGNMENT);
const MIN_REQUEST: usize = MIN_CHUNK_SIZE - CHUNK_OVERHEAD - 1;
/// Room kept past the top chunk, as the crate keeps it (there it holds a
/// segment record; here it only ends the region).
const TOP_FOOT_SIZE: usize =
    align_up(MEM_OFFSET, ALIGNMENT) - MEM_OFFSET + pad_request(4 * mem::size_of::<usize>()) + MIN_CHUNK_SIZE;
const MEM_OFFSET: usize = 2 * mem::size_of::<usize>();
/// The largest request served; larger ones fail (the crate's bound).
const MAX_REQUEST: usize = {
    let min_sys_alloc_space = ((!0 - (GRANULARITY + TOP_FOOT_SIZE + ALIGNMENT) + 1) & !ALIGNMENT) - CHUNK_OVERHEAD + 1;
    let bound = (!MIN_CHUNK_SIZE + 1) << 2;
    if bound < min_sys_alloc_space { bound } else { min_sys_alloc_space }
};

/// The allocator's state.
pub struct Heap<S> {
    smallmap: u32,
    treemap: u32,
    smallbins: [*mut Chunk; (NSMALLBINS + 1) * 2],
    treebins: [*mut TreeChunk; NTREEBINS],
    dvsize: usize,
    topsize: usize,
    dv: *mut Chunk,
    top: *mut Chunk,
    source: S,
}

#[repr(C)]
struct Chunk {
    prev_foot: usize,
    head: usize,
    prev: *mut Chunk,
    next: *mut Chunk,
}

#[repr(C)]
struct TreeChunk {
    chunk: Chunk,
    child: [*mut TreeChunk; 2],
    parent: *mut TreeChunk,
    index: u32,
}

const fn align_up(a: usize, alignment: usize) -> usize {
    (a + (alignment - 1)) & !(alignment - 1)
}

const fn pad_request(amt: usize) -> usize {
    align_up(amt + CHUNK_OVERHEAD, ALIGNMENT)
}

fn request2size(req: usize) -> usize {
    if req < MIN_REQUEST { MIN_CHUNK_SIZE } else { pad_request(req) }
}

fn left_bits(x: u32) -> u32 {
    (x << 1) | (!(x << 1)).wrapping_add(1)
}

fn least_bit(x: u32) -> u32 {
    x & (!x + 1)
}

fn leftshift_for_tree_index(x: u32) -> u32 {
    let x = x as usize;
    if x == NTREEBINS - 1 { 0 } else { (mem::size_of::<usize>() * 8 - 1 - ((x >> 1) + TREEBIN_SHIFT - 2)) as u32 }
}

fn small_index(size: usize) -> u32 {
    (size >> SMALLBIN_SHIFT) as u32
}

fn small_index2size(idx: u32) -> usize {
    (idx as usize) << SMALLBIN_SHIFT
}

fn is_small(s: usize) -> bool {
    s >> SMALLBIN_SHIFT < NSMALLBINS
}

fn compute_tree_index(size: usize) -> u32 {
    let x = size >> TREEBIN_SHIFT;
    if x == 0 {
        0
    } else if x > 0xffff {
        NTREEBINS as u32 - 1
    } else {
        let k = mem::size_of_val(&x) * 8 - 1 - (x.leading_zeros() as usize);
        ((k << 1) + (size >> (k + TREEBIN_SHIFT - 1) & 1)) as u32
    }
}

/// A heap reached through a raw pointer, as every call reaches it: the bins
/// keep pointers into the state itself (each bin's head is in it), and a
/// `&mut` to the state would, under Rust's aliasing rules, make them
/// invalid.
pub struct HeapPtr<S>(*mut Heap<S>);

impl<S> HeapPtr<S> {
    /// # Safety
    /// `heap` points to a heap that is reached only through `HeapPtr`s, one
    /// call at a time, for as long as any of them is used.
    pub const unsafe fn new(heap: *mut Heap<S>) -> HeapPtr<S> {
        HeapPtr(heap)
    }
}

impl<S> Clone for HeapPtr<S> {
    fn clone(&self) -> HeapPtr<S> {
        *self
    }
}

impl<S> Copy for HeapPtr<S> {}

impl<S> Heap<S> {
    /// A heap that has handed out nothing yet; all zeroes but `source`.
    pub const fn new(source: S) -> Heap<S> {
        Heap {
            smallmap: 0,
            treemap: 0,
            smallbins: [ptr::null_mut(); (NSMALLBINS + 1) * 2],
            treebins: [ptr::null_mut(); NTREEBINS],
            dvsize: 0,
            topsize: 0,
            dv: ptr::null_mut(),
            top: ptr::null_mut(),
            source,
        }
    }
}

impl<S: Source> HeapPtr<S> {
    /// A block of at least `size` bytes aligned to [`ALIGNMENT`], or null.
    ///
    /// # Safety
    /// The heap's invariant (module doc); one caller at a time.
    pub unsafe fn malloc(self, size: usize) -> *mut u8 {
        // SAFETY: the module's invariant: every chunk reached is in the region.
        unsafe {
            let nb;
            if size <= MAX_SMALL_REQUEST {
                nb = request2size(size);
                let idx = small_index(nb);
                let smallbits = (*self.0).smallmap >> idx;

                // A chunk from the bin for `idx` or the next one up, taken
                // whole; or, when the designated victim is too small, from
                // the smallest bin above with one, split, the rest becoming
                // the victim. (The crate's two paths for these in one: a
                // chunk one bin up is too small to split, and one further up
                // always splits.)
                if smallbits & 0b11 != 0 || (smallbits != 0 && nb > (*self.0).dvsize) {
                    let i = idx + smallbits.trailing_zeros();
                    let b = self.smallbin_at(i);
                    let p = (*b).prev;
                    self.unlink_first_small_chunk(b, p, i);
                    let smallsize = small_index2size(i);
                    let rsize = smallsize - nb;
                    if rsize < MIN_CHUNK_SIZE {
                        Chunk::set_inuse_and_pinuse(p, smallsize);
                    } else {
                        Chunk::set_size_and_pinuse_of_inuse_chunk(p, nb);
                        let r = Chunk::plus_offset(p, nb);
                        Chunk::set_size_and_pinuse_of_free_chunk(r, rsize);
                        self.replace_dv(r, rsize);
                    }
                    return Chunk::to_mem(p);
                }

                if nb > (*self.0).dvsize && (*self.0).treemap != 0 {
                    let mem = self.tmalloc_small(nb);
                    if !mem.is_null() {
                        return mem;
                    }
                }
            } else if size >= MAX_REQUEST {
                return ptr::null_mut();
            } else {
                nb = pad_request(size);
                if (*self.0).treemap != 0 {
                    let mem = self.tmalloc_large(nb);
                    if !mem.is_null() {
                        return mem;
                    }
                }
            }

            // The designated victim, split if it is large enough.
            if nb <= (*self.0).dvsize {
                let rsize = (*self.0).dvsize - nb;
                let p = (*self.0).dv;
                if rsize >= MIN_CHUNK_SIZE {
                    (*self.0).dv = Chunk::plus_offset(p, nb);
                    (*self.0).dvsize = rsize;
                    Chunk::set_size_and_pinuse_of_free_chunk((*self.0).dv, rsize);
                    Chunk::set_size_and_pinuse_of_inuse_chunk(p, nb);
                } else {
                    let dvs = (*self.0).dvsize;
                    (*self.0).dvsize = 0;
                    (*self.0).dv = ptr::null_mut();
                    Chunk::set_inuse_and_pinuse(p, dvs);
                }
                return Chunk::to_mem(p);
            }

            if nb >= (*self.0).topsize && !self.grow(nb) {
                return ptr::null_mut();
            }
            // Split the top chunk.
            (*self.0).topsize -= nb;
            let p = (*self.0).top;
            (*self.0).top = Chunk::plus_offset(p, nb);
            (*(*self.0).top).head = (*self.0).topsize | PINUSE;
            Chunk::set_size_and_pinuse_of_inuse_chunk(p, nb);
            Chunk::to_mem(p)
        }
    }

    /// A block of at least `size` bytes aligned to `align`, a power of two
    /// above [`ALIGNMENT`], or null: one `align` larger, handed out from its
    /// first `align`-aligned address past its first word, with the block's
    /// start in the word before. The crate asks for no such alignment, so
    /// this stays out of its modules; dlmalloc's `memalign` is more code.
    ///
    /// # Safety
    /// As for [`HeapPtr::malloc`], and `align` is as above.
    #[cold]
    #[inline(never)]
    pub unsafe fn malloc_aligned(self, size: usize, align: usize) -> *mut u8 {
        let Some(padded) = size.checked_add(align) else {
            return ptr::null_mut();
        };
        // SAFETY: the caller's contract.
        let block = unsafe { self.malloc(padded) };
        if block.is_null() {
            return block;
        }
        // `block` is ALIGNMENT-aligned and `align` a larger power of two, so
        // this is at least a word and at most `align`.
        let at = block.wrapping_add(align - (block as usize & (align - 1)));
        // SAFETY: the word before `at` lies in the block (see above), and is
        // aligned, as `at` is.
        unsafe { at.cast::<*mut u8>().sub(1).write(block) };
        at
    }

    /// Makes the top chunk larger than `nb`: the crate's `sys_alloc` for one
    /// region that grows at its end.
    #[cold]
    unsafe fn grow(self, nb: usize) -> bool {
        // The new region adjoins the top (`Source`'s contract): only what
        // the top lacks is asked for, as C dlmalloc's `sys_alloc` does for a
        // contiguous MORECORE (`topsize` is 0 before there is a top). Asking
        // for all of `nb` left the top's free bytes stranded below each
        // large block, a growing `Vec`'s included.
        // SAFETY: the module's invariant.
        let lacking = nb.saturating_sub(unsafe { (*self.0).topsize });
        let asize = align_up(lacking + TOP_FOOT_SIZE + ALIGNMENT, GRANULARITY);
        // SAFETY: `base..base + size` is fresh memory (`Source`'s contract),
        // and when there is a top chunk it ends at `base` less the foot. The
        // `&mut` made to call `grow` covers the source alone, not the bins.
        unsafe {
            let Some((base, size)) = (*self.0).source.grow(asize) else {
                return false;
            };
            if (*self.0).top.is_null() {
                self.init_bins();
                self.init_top(base.cast(), size - TOP_FOOT_SIZE);
            } else {
                self.init_top((*self.0).top, (*self.0).topsize + size);
            }
            nb < (*self.0).topsize
        }
    }

    unsafe fn tmalloc_small(self, size: usize) -> *mut u8 {
        // SAFETY: the module's invariant.
        unsafe {
            let i = least_bit((*self.0).treemap).trailing_zeros();
            let mut v = *self.treebin_at(i);
            let mut t = v;
            let mut rsize = Chunk::size(TreeChunk::chunk(t)) - size;
            loop {
                t = TreeChunk::leftmost_child(t);
                if t.is_null() {
                    break;
                }
                let trem = Chunk::size(TreeChunk::chunk(t)) - size;
                if trem < rsize {
                    rsize = trem;
                    v = t;
                }
            }
            self.take_tree_chunk(v, size, rsize, true)
        }
    }

    unsafe fn tmalloc_large(self, size: usize) -> *mut u8 {
        // SAFETY: the module's invariant.
        unsafe {
            let mut v = ptr::null_mut();
            let mut rsize = !size + 1;
            let idx = compute_tree_index(size);
            let mut t = *self.treebin_at(idx);
            if !t.is_null() {
                // Down this bin's tree for a chunk of `size`, keeping the
                // deepest untaken right subtree.
                let mut sizebits = size << leftshift_for_tree_index(idx);
                let mut rst = ptr::null_mut();
                loop {
                    let csize = Chunk::size(TreeChunk::chunk(t));
                    if csize >= size && csize - size < rsize {
                        v = t;
                        rsize = csize - size;
                        if rsize == 0 {
                            break;
                        }
                    }
                    let rt = (*t).child[1];
                    t = (*t).child[(sizebits >> (mem::size_of::<usize>() * 8 - 1)) & 1];
                    if !rt.is_null() && rt != t {
                        rst = rt;
                    }
                    if t.is_null() {
                        t = rst;
                        break;
                    }
                    sizebits <<= 1;
                }
            }

            // Else the root of the next bin that holds any.
            if t.is_null() && v.is_null() {
                let leftbits = left_bits(1 << idx) & (*self.0).treemap;
                if leftbits != 0 {
                    t = *self.treebin_at(least_bit(leftbits).trailing_zeros());
                }
            }

            // The smallest of that tree or subtree.
            while !t.is_null() {
                let csize = Chunk::size(TreeChunk::chunk(t));
                if csize >= size && csize - size < rsize {
                    rsize = csize - size;
                    v = t;
                }
                t = TreeChunk::leftmost_child(t);
            }

            // The designated victim fits better: `malloc` uses it.
            if v.is_null() || ((*self.0).dvsize >= size && rsize >= (*self.0).dvsize - size) {
                return ptr::null_mut();
            }

            self.take_tree_chunk(v, size, rsize, false)
        }
    }

    /// Takes tree chunk `v` (`size + rsize` bytes) out of the tree for a
    /// block of `size`: whole when the rest is too small to be a chunk, else
    /// split, the rest becoming the designated victim (`to_dv`) or binned.
    unsafe fn take_tree_chunk(self, v: *mut TreeChunk, size: usize, rsize: usize, to_dv: bool) -> *mut u8 {
        // SAFETY: the module's invariant; `v` is in the tree.
        unsafe {
            let vc = TreeChunk::chunk(v);
            let r = Chunk::plus_offset(vc, size);
            self.unlink_large_chunk(v);
            if rsize < MIN_CHUNK_SIZE {
                Chunk::set_inuse_and_pinuse(vc, rsize + size);
            } else {
                Chunk::set_size_and_pinuse_of_inuse_chunk(vc, size);
                Chunk::set_size_and_pinuse_of_free_chunk(r, rsize);
                if to_dv {
                    self.replace_dv(r, rsize);
                } else {
                    self.insert_chunk(r, rsize);
                }
            }
            Chunk::to_mem(vc)
        }
    }

    /// Makes the block `mem` hold at least `size` bytes where it stands,
    /// when the top chunk follows it (memory grown if need be), or when it
    /// holds them already and no chunk's worth would be left over: C
    /// dlmalloc's `try_realloc_chunk` for the block a growing `Vec` usually
    /// is, the newest, which then neither moves nor stands beside its copy.
    /// False, and the block as it was, otherwise.
    ///
    /// # Safety
    /// `mem` came from this heap's `malloc` and is live, and `size` is at
    /// most `isize::MAX` (a `Layout`'s); one caller at a time.
    pub unsafe fn resize_in_place(self, mem: *mut u8, size: usize) -> bool {
        // SAFETY: the module's invariant, and `mem` is a live block.
        unsafe {
            let p = Chunk::from_mem(mem);
            let have = Chunk::size(p);
            let nb = request2size(size);
            if nb <= have {
                // Smaller: kept only when what it would give back is too
                // small to be a chunk. Else the caller moves it to a new
                // block, so that the rest is free again (a block cut down
                // by `shrink_to_fit` held all its memory till freed).
                return have - nb < MIN_CHUNK_SIZE;
            }
            if Chunk::plus_offset(p, have) != (*self.0).top {
                return false;
            }
            let more = nb - have;
            if more >= (*self.0).topsize && !self.grow(more) {
                return false;
            }
            // The top chunk's first `more` bytes join the block.
            (*self.0).topsize -= more;
            (*self.0).top = Chunk::plus_offset(p, nb);
            (*(*self.0).top).head = (*self.0).topsize | PINUSE;
            (*p).head = nb | ((*p).head & PINUSE) | CINUSE;
            true
        }
    }

    /// Gives back a block `malloc` returned.
    ///
    /// # Safety
    /// `mem` came from this heap's `malloc` and is not used after; one caller
    /// at a time.
    pub unsafe fn free(self, mem: *mut u8) {
        // SAFETY: the module's invariant, and `mem` is a live block.
        unsafe {
            let mut p = Chunk::from_mem(mem);
            let mut psize = Chunk::size(p);
            let next = Chunk::plus_offset(p, psize);
            // Merge with the chunk before, if free.
            if !Chunk::pinuse(p) {
                let prevsize = (*p).prev_foot;
                let prev = Chunk::minus_offset(p, prevsize);
                psize += prevsize;
                p = prev;
                if p != (*self.0).dv {
                    self.unlink_chunk(p, prevsize);
                } else if (*next).head & INUSE == INUSE {
                    (*self.0).dvsize = psize;
                    Chunk::set_free_with_pinuse(p, psize, next);
                    return;
                }
            }

            // And with the one after.
            if !Chunk::cinuse(next) {
                if next == (*self.0).top {
                    (*self.0).topsize += psize;
                    (*self.0).top = p;
                    (*p).head = (*self.0).topsize | PINUSE;
                    if p == (*self.0).dv {
                        (*self.0).dv = ptr::null_mut();
                        (*self.0).dvsize = 0;
                    }
                    return;
                } else if next == (*self.0).dv {
                    (*self.0).dvsize += psize;
                    (*self.0).dv = p;
                    Chunk::set_size_and_pinuse_of_free_chunk(p, (*self.0).dvsize);
                    return;
                } else {
                    let nsize = Chunk::size(next);
                    psize += nsize;
                    self.unlink_chunk(next, nsize);
                    Chunk::set_size_and_pinuse_of_free_chunk(p, psize);
                    if p == (*self.0).dv {
                        (*self.0).dvsize = psize;
                        return;
                    }
                }
            } else {
                Chunk::set_free_with_pinuse(p, psize, next);
            }
            self.insert_chunk(p, psize);
        }
    }

    unsafe fn init_top(self, ptr: *mut Chunk, size: usize) {
        // SAFETY: `ptr..ptr + size + TOP_FOOT_SIZE` is the region's end.
        unsafe {
            let offset = Chunk::to_mem(ptr).align_offset(ALIGNMENT);
            let p = Chunk::plus_offset(ptr, offset);
            let size = size - offset;
            (*self.0).top = p;
            (*self.0).topsize = size;
            (*p).head = size | PINUSE;
            (*Chunk::plus_offset(p, size)).head = TOP_FOOT_SIZE;
        }
    }

    fn init_bins(self) {
        for i in 0..NSMALLBINS as u32 {
            let bin = self.smallbin_at(i);
            // SAFETY: `bin` points into the state's `smallbins` (see `smallbin_at`).
            unsafe {
                (*bin).next = bin;
                (*bin).prev = bin;
            }
        }
    }

    /// Small bin `idx`'s head: a fake chunk whose `prev` and `next` are
    /// `smallbins[2 * idx + 2]` and `[2 * idx + 3]` (its first two fields
    /// lie before them and are never read).
    fn smallbin_at(self, idx: u32) -> *mut Chunk {
        // SAFETY: `self.0` points to a heap (`HeapPtr::new`); no reference
        // is made, so the pointers the bins keep to their heads stay valid.
        let bins = unsafe { &raw mut (*self.0).smallbins };
        bins.cast::<*mut Chunk>().wrapping_add(idx as usize * 2).cast()
    }

    fn treebin_at(self, idx: u32) -> *mut *mut TreeChunk {
        // SAFETY: as in `smallbin_at`.
        let bins = unsafe { &raw mut (*self.0).treebins };
        bins.cast::<*mut TreeChunk>().wrapping_add(idx as usize)
    }

    unsafe fn unlink_first_small_chunk(self, head: *mut Chunk, next: *mut Chunk, idx: u32) {
        // SAFETY: the module's invariant.
        unsafe {
            let ptr = (*next).prev;
            if head == ptr {
                (*self.0).smallmap &= !(1 << idx);
            } else {
                (*ptr).next = head;
                (*head).prev = ptr;
            }
        }
    }

    unsafe fn replace_dv(self, chunk: *mut Chunk, size: usize) {
        // SAFETY: the module's invariant.
        unsafe {
            let dvs = (*self.0).dvsize;
            if dvs != 0 {
                self.insert_small_chunk((*self.0).dv, dvs);
            }
            (*self.0).dvsize = size;
            (*self.0).dv = chunk;
        }
    }

    unsafe fn insert_chunk(self, chunk: *mut Chunk, size: usize) {
        // SAFETY: the module's invariant.
        unsafe {
            if is_small(size) {
                self.insert_small_chunk(chunk, size);
            } else {
                self.insert_large_chunk(chunk.cast(), size);
            }
        }
    }

    unsafe fn insert_small_chunk(self, chunk: *mut Chunk, size: usize) {
        let idx = small_index(size);
        let head = self.smallbin_at(idx);
        // SAFETY: the module's invariant.
        unsafe {
            let f = if (*self.0).smallmap & (1 << idx) == 0 {
                (*self.0).smallmap |= 1 << idx;
                head
            } else {
                (*head).prev
            };
            (*head).prev = chunk;
            (*f).next = chunk;
            (*chunk).prev = f;
            (*chunk).next = head;
        }
    }

    unsafe fn insert_large_chunk(self, chunk: *mut TreeChunk, size: usize) {
        let idx = compute_tree_index(size);
        let h = self.treebin_at(idx);
        // SAFETY: the module's invariant.
        unsafe {
            (*chunk).index = idx;
            (*chunk).child[0] = ptr::null_mut();
            (*chunk).child[1] = ptr::null_mut();
            let chunkc = TreeChunk::chunk(chunk);
            if (*self.0).treemap & (1 << idx) == 0 {
                *h = chunk;
                (*chunk).parent = h.cast();
                (*chunkc).next = chunkc;
                (*chunkc).prev = chunkc;
                (*self.0).treemap |= 1 << idx;
            } else {
                let mut t = *h;
                let mut k = size << leftshift_for_tree_index(idx);
                loop {
                    if Chunk::size(TreeChunk::chunk(t)) != size {
                        let c = &mut (*t).child[(k >> (mem::size_of::<usize>() * 8 - 1)) & 1];
                        k <<= 1;
                        if !c.is_null() {
                            t = *c;
                        } else {
                            *c = chunk;
                            (*chunk).parent = t;
                            (*chunkc).next = chunkc;
                            (*chunkc).prev = chunkc;
                            break;
                        }
                    } else {
                        let tc = TreeChunk::chunk(t);
                        let f = (*tc).prev;
                        (*f).next = chunkc;
                        (*tc).prev = chunkc;
                        (*chunkc).prev = f;
                        (*chunkc).next = tc;
                        (*chunk).parent = ptr::null_mut();
                        break;
                    }
                }
            }
        }
    }

    unsafe fn unlink_chunk(self, chunk: *mut Chunk, size: usize) {
        // SAFETY: the module's invariant.
        unsafe {
            if is_small(size) {
                let f = (*chunk).prev;
                let b = (*chunk).next;
                if b == f {
                    (*self.0).smallmap &= !(1 << small_index(size));
                } else {
                    (*f).next = b;
                    (*b).prev = f;
                }
            } else {
                self.unlink_large_chunk(chunk.cast());
            }
        }
    }

    unsafe fn unlink_large_chunk(self, chunk: *mut TreeChunk) {
        // SAFETY: the module's invariant.
        unsafe {
            let xp = (*chunk).parent;
            let mut r;
            if TreeChunk::next(chunk) != chunk {
                let f = TreeChunk::prev(chunk);
                r = TreeChunk::next(chunk);
                (*f).chunk.next = TreeChunk::chunk(r);
                (*r).chunk.prev = TreeChunk::chunk(f);
            } else {
                let mut rp = &mut (*chunk).child[1];
                if rp.is_null() {
                    rp = &mut (*chunk).child[0];
                }
                r = *rp;
                if !rp.is_null() {
                    loop {
                        let mut cp = &mut (**rp).child[1];
                        if cp.is_null() {
                            cp = &mut (**rp).child[0];
                        }
                        if cp.is_null() {
                            break;
                        }
                        rp = cp;
                    }
                    r = *rp;
                    *rp = ptr::null_mut();
                }
            }

            if xp.is_null() {
                return;
            }

            let h = self.treebin_at((*chunk).index);
            if chunk == *h {
                *h = r;
                if r.is_null() {
                    (*self.0).treemap &= !(1 << (*chunk).index);
                }
            } else if (*xp).child[0] == chunk {
                (*xp).child[0] = r;
            } else {
                (*xp).child[1] = r;
            }

            if !r.is_null() {
                (*r).parent = xp;
                let c0 = (*chunk).child[0];
                if !c0.is_null() {
                    (*r).child[0] = c0;
                    (*c0).parent = r;
                }
                let c1 = (*chunk).child[1];
                if !c1.is_null() {
                    (*r).child[1] = c1;
                    (*c1).parent = r;
                }
            }
        }
    }
}

/// The block [`HeapPtr::malloc_aligned`] handed out as `mem`, for
/// [`HeapPtr::free`].
///
/// # Safety
/// `mem` came from a heap's `malloc_aligned`.
pub unsafe fn aligned_block(mem: *mut u8) -> *mut u8 {
    // SAFETY: `malloc_aligned` wrote its block's start before `mem`.
    unsafe { mem.cast::<*mut u8>().sub(1).read() }
}

// Each takes a chunk inside the region (the module's invariant); the
// arithmetic wraps rather than asserting, as the crate's does.
impl Chunk {
    unsafe fn size(me: *mut Chunk) -> usize {
        // SAFETY: `me` is a chunk (the caller's contract).
        unsafe { (*me).head & !FLAG_BITS }
    }

    unsafe fn cinuse(me: *mut Chunk) -> bool {
        // SAFETY: as in `size`.
        unsafe { (*me).head & CINUSE != 0 }
    }

    unsafe fn pinuse(me: *mut Chunk) -> bool {
        // SAFETY: as in `size`.
        unsafe { (*me).head & PINUSE != 0 }
    }

    unsafe fn set_inuse_and_pinuse(me: *mut Chunk, size: usize) {
        // SAFETY: `me` and the chunk `size` past it are chunks.
        unsafe {
            (*me).head = PINUSE | size | CINUSE;
            (*Chunk::plus_offset(me, size)).head |= PINUSE;
        }
    }

    unsafe fn set_size_and_pinuse_of_inuse_chunk(me: *mut Chunk, size: usize) {
        // SAFETY: as in `size`.
        unsafe { (*me).head = size | PINUSE | CINUSE };
    }

    unsafe fn set_size_and_pinuse_of_free_chunk(me: *mut Chunk, size: usize) {
        // SAFETY: `me` and the chunk `size` past it are chunks.
        unsafe {
            (*me).head = size | PINUSE;
            (*Chunk::plus_offset(me, size)).prev_foot = size;
        }
    }

    unsafe fn set_free_with_pinuse(p: *mut Chunk, size: usize, n: *mut Chunk) {
        // SAFETY: `p` and `n` are chunks, `n` the one `size` past `p`.
        unsafe {
            (*n).head &= !PINUSE;
            Chunk::set_size_and_pinuse_of_free_chunk(p, size);
        }
    }

    fn plus_offset(me: *mut Chunk, offset: usize) -> *mut Chunk {
        me.cast::<u8>().wrapping_add(offset).cast()
    }

    fn minus_offset(me: *mut Chunk, offset: usize) -> *mut Chunk {
        me.cast::<u8>().wrapping_sub(offset).cast()
    }

    fn to_mem(me: *mut Chunk) -> *mut u8 {
        me.cast::<u8>().wrapping_add(MEM_OFFSET)
    }

    fn from_mem(mem: *mut u8) -> *mut Chunk {
        mem.wrapping_sub(MEM_OFFSET).cast()
    }
}

impl TreeChunk {
    unsafe fn leftmost_child(me: *mut TreeChunk) -> *mut TreeChunk {
        // SAFETY: `me` is a tree chunk (the caller's contract).
        unsafe {
            let left = (*me).child[0];
            if left.is_null() { (*me).child[1] } else { left }
        }
    }

    fn chunk(me: *mut TreeChunk) -> *mut Chunk {
        me.cast()
    }

    unsafe fn next(me: *mut TreeChunk) -> *mut TreeChunk {
        // SAFETY: as in `leftmost_child`.
        unsafe { (*me).chunk.next.cast() }
    }

    unsafe fn prev(me: *mut TreeChunk) -> *mut TreeChunk {
        // SAFETY: as in `leftmost_child`.
        unsafe { (*me).chunk.prev.cast() }
    }
}

#[cfg(any(test, fuzzing))]
mod check;
#[cfg(any(test, fuzzing))]
mod model;
#[cfg(any(test, fuzzing))]
pub use check::Region;
#[cfg(any(test, fuzzing))]
pub use model::Memory;

#[cfg(test)]
mod tests;
