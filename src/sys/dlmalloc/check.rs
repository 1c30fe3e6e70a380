//! dlmalloc's invariant walkers, the ones the `dlmalloc` crate runs under
//! its `debug` feature (`check_malloc_state`, `check_top_chunk`,
//! `check_free_chunk`, `check_inuse_chunk`, `check_malloced_chunk`,
//! `check_smallbin`, `check_treebin`, `check_tree`, `bin_find`), for the
//! port's one region. Built for tests and fuzzing only, never into a module.
//!
//! Two checks go further than the crate's: the region is walked chunk by
//! chunk (`malloc.c`'s `traverse_and_check`, which the crate leaves empty),
//! so every chunk between the region's start and the top chunk is either in
//! use and in no bin, or free, unmerged with no free neighbour, and in
//! exactly one place (a bin or the designated victim); and a map bit is set
//! exactly when its tree bin holds a tree. Each check panics naming the
//! invariant that does not hold, and reads a chunk only after checking that
//! it lies in the region.

use super::{
    ALIGNMENT, CINUSE, Chunk, HeapPtr, MAX_SMALL_REQUEST, MEM_OFFSET, MIN_CHUNK_SIZE, MIN_LARGE_SIZE, NSMALLBINS,
    NTREEBINS, PINUSE, TOP_FOOT_SIZE, TREEBIN_SHIFT, TreeChunk, compute_tree_index, is_small, leftshift_for_tree_index,
    mem, pad_request, ptr, request2size, small_index,
};

/// The memory the heap's source handed out: one region, `len` bytes at `base`.
#[derive(Clone, Copy)]
pub struct Region {
    /// Where the first region starts.
    pub base: *mut u8,
    /// Every byte handed out since, as one run.
    pub len: usize,
}

impl Region {
    fn start(self) -> usize {
        self.base as usize
    }

    fn end(self) -> usize {
        self.base as usize + self.len
    }

    /// The region's first chunk, where `init_top` put it.
    fn first_chunk(self) -> *mut Chunk {
        let mem = self.start() + MEM_OFFSET;
        let offset = mem.next_multiple_of(ALIGNMENT) - mem;
        self.base.wrapping_add(offset).cast()
    }
}

/// What [`HeapPtr::check_malloc_state`] counted.
#[derive(Debug, PartialEq, Eq)]
pub struct Census {
    /// Bytes in chunks in use.
    pub in_use: usize,
    /// Bytes in free chunks other than the top chunk.
    pub free: usize,
    /// Chunks in use.
    pub in_use_chunks: usize,
}

impl<S: super::Source> HeapPtr<S> {
    /// The heap's source, as a pointer: `malloc` makes a `&mut` to it when
    /// it asks for memory, which would end any reference kept across.
    pub fn source(self) -> *mut S {
        // SAFETY: `self.0` points to a heap (`HeapPtr::new`); no reference is made.
        unsafe { &raw mut (*self.0).source }
    }

    /// dlmalloc's `check_malloc_state`, with the walk of the region: every
    /// bin, the tree bins, the designated victim, the top chunk, and every
    /// chunk below it. `region` is every byte the source handed out.
    ///
    /// # Safety
    /// The heap's memory lies in `region`, and nothing else uses it now.
    pub unsafe fn check_malloc_state(self, region: Region) -> Census {
        // SAFETY: every chunk read is first checked to lie in `region`,
        // which is the heap's memory (the caller's contract).
        unsafe {
            let h = self.0;
            if (*h).top.is_null() {
                assert_eq!((*h).smallmap | (*h).treemap, 0, "a bin is marked before the first region");
                assert!((*h).dv.is_null() && (*h).dvsize == 0, "a designated victim before the first region");
                return Census { in_use: 0, free: 0, in_use_chunks: 0 };
            }
            let mut binned = 0;
            for i in 0..NSMALLBINS as u32 {
                binned += self.check_smallbin(i, region);
            }
            for i in 0..NTREEBINS as u32 {
                binned += self.check_treebin(i, region);
            }
            let dv = (*h).dv;
            assert_eq!(dv.is_null(), (*h).dvsize == 0, "the designated victim and its size disagree");
            if !dv.is_null() {
                self.check_any_chunk(dv, region);
                assert_eq!((*h).dvsize, Chunk::size(dv), "the designated victim's size is not dvsize");
                assert!((*h).dvsize >= MIN_CHUNK_SIZE, "the designated victim is smaller than a chunk");
                assert!(!self.bin_find(dv), "the designated victim is also in a bin");
            }
            self.check_top_chunk((*h).top, region);
            assert!(!self.bin_find((*h).top), "the top chunk is in a bin");
            self.traverse_and_check(region, binned)
        }
    }

    /// `malloc.c`'s `traverse_and_check`: every chunk from the region's start
    /// up to the top chunk, which must be reached exactly.
    unsafe fn traverse_and_check(self, region: Region, binned: usize) -> Census {
        // SAFETY: as in `check_malloc_state`.
        unsafe {
            let top = (*self.0).top;
            let mut census = Census { in_use: 0, free: 0, in_use_chunks: 0 };
            let mut free_chunks = 0;
            let mut q = region.first_chunk();
            let mut last_free = false;
            self.check_any_chunk(q, region);
            assert!(Chunk::pinuse(q), "the region's first chunk has a free chunk before it");
            while q != top {
                assert!((q as usize) < (top as usize), "a chunk runs past the top chunk");
                self.check_any_chunk(q, region);
                let size = Chunk::size(q);
                assert!(size >= MIN_CHUNK_SIZE && size.is_multiple_of(ALIGNMENT), "a chunk of size {size}");
                if Chunk::cinuse(q) {
                    assert!(!self.bin_find(q), "a chunk in use is in a bin");
                    self.check_inuse_chunk(q, region);
                    census.in_use += size;
                    census.in_use_chunks += 1;
                    last_free = false;
                } else {
                    assert!(!last_free, "two free chunks side by side");
                    assert!(q == (*self.0).dv || self.bin_find(q), "a free chunk is in no bin");
                    self.check_free_chunk(q, region);
                    census.free += size;
                    free_chunks += 1;
                    last_free = true;
                }
                q = Chunk::plus_offset(q, size);
            }
            assert!(!last_free, "a free chunk before the top chunk");
            let victims = usize::from(!(*self.0).dv.is_null());
            assert_eq!(free_chunks, binned + victims, "the bins hold chunks the region does not");
            census
        }
    }

    unsafe fn check_any_chunk(self, p: *mut Chunk, region: Region) {
        let at = p as usize;
        assert!(at >= region.start() && at <= region.end() - TOP_FOOT_SIZE, "a chunk outside the region");
        assert!((at + MEM_OFFSET).is_multiple_of(ALIGNMENT), "a chunk's memory is not aligned");
    }

    /// dlmalloc's `check_top_chunk`: the top chunk ends the region, less the
    /// foot, and is marked as ending it.
    unsafe fn check_top_chunk(self, p: *mut Chunk, region: Region) {
        // SAFETY: `p` is checked to lie in the region before it is read.
        unsafe {
            self.check_any_chunk(p, region);
            let size = (*p).head & !(PINUSE | CINUSE);
            assert_eq!(size, (*self.0).topsize, "the top chunk's size is not topsize");
            assert!(size > 0, "an empty top chunk");
            assert_eq!(size, region.end() - p as usize - TOP_FOOT_SIZE, "the top chunk does not end the region");
            assert!(Chunk::pinuse(p), "a free chunk before the top chunk");
            let foot = Chunk::plus_offset(p, size);
            assert_eq!((*foot).head, TOP_FOOT_SIZE, "the top chunk's foot is overwritten");
        }
    }

    /// dlmalloc's `check_malloced_chunk` for the block `malloc(size)` returned.
    ///
    /// # Safety
    /// As for [`HeapPtr::check_malloc_state`].
    pub unsafe fn check_malloced_chunk(self, mem: *mut u8, size: usize, region: Region) {
        if mem.is_null() {
            return;
        }
        let nb = if size <= MAX_SMALL_REQUEST { request2size(size) } else { pad_request(size) };
        let p = Chunk::from_mem(mem);
        // SAFETY: as in `check_malloc_state`.
        unsafe {
            self.check_inuse_chunk(p, region);
            let chunk = Chunk::size(p);
            assert!(chunk.is_multiple_of(ALIGNMENT), "a block's chunk size is not aligned");
            assert!(chunk >= MIN_CHUNK_SIZE, "a block's chunk is smaller than a chunk");
            assert!(chunk >= nb, "a block's chunk is smaller than asked");
            assert!(chunk < nb + MIN_CHUNK_SIZE, "a block's chunk has a whole chunk to spare");
        }
    }

    unsafe fn check_inuse_chunk(self, p: *mut Chunk, region: Region) {
        // SAFETY: as in `check_malloc_state`; the neighbours are checked to
        // lie in the region before they are read.
        unsafe {
            self.check_any_chunk(p, region);
            assert!(Chunk::cinuse(p), "a chunk in use is marked free");
            let next = Chunk::plus_offset(p, Chunk::size(p));
            self.check_any_chunk(next, region);
            assert!(Chunk::pinuse(next), "the chunk after one in use says it is free");
            if !Chunk::pinuse(p) {
                let prev = Chunk::minus_offset(p, (*p).prev_foot);
                self.check_any_chunk(prev, region);
                assert_eq!(Chunk::plus_offset(prev, Chunk::size(prev)), p, "a free chunk's foot is wrong");
            }
        }
    }

    /// dlmalloc's `check_free_chunk`.
    unsafe fn check_free_chunk(self, p: *mut Chunk, region: Region) {
        // SAFETY: as in `check_inuse_chunk`.
        unsafe {
            self.check_any_chunk(p, region);
            let size = Chunk::size(p);
            let next = Chunk::plus_offset(p, size);
            assert!(!Chunk::cinuse(p), "a free chunk is marked in use");
            self.check_any_chunk(next, region);
            assert!(!Chunk::pinuse(next), "the chunk after a free one says it is in use");
            if p != (*self.0).dv && p != (*self.0).top {
                assert!(size >= MIN_CHUNK_SIZE, "a free chunk smaller than a chunk");
                assert!(size.is_multiple_of(ALIGNMENT), "a free chunk's size is not aligned");
                assert_eq!((*next).prev_foot, size, "a free chunk's foot is not its size");
                assert!(Chunk::pinuse(p), "two free chunks side by side");
                assert!(next == (*self.0).top || Chunk::cinuse(next), "two free chunks side by side");
                let (next, prev) = ((*p).next, (*p).prev);
                assert!(self.is_link(next, region) && self.is_link(prev, region), "a free chunk links out of the heap");
                assert_eq!((*next).prev, p, "a free chunk's next does not point back");
                assert_eq!((*prev).next, p, "a free chunk's prev does not point back");
            }
        }
    }

    /// Whether a free chunk's link may point at `p`: a chunk in the region,
    /// or a small bin's head (in the state's `smallbins`).
    fn is_link(self, p: *mut Chunk, region: Region) -> bool {
        let at = p as usize;
        // SAFETY: `self.0` points to a heap; only the field's address is taken.
        let bins = unsafe { &raw const (*self.0).smallbins } as usize;
        (at >= region.start() && at <= region.end() - TOP_FOOT_SIZE)
            || (at >= bins && at < bins + mem::size_of::<[*mut Chunk; (NSMALLBINS + 1) * 2]>())
    }

    /// dlmalloc's `check_smallbin`, and the count of chunks in the bin. A
    /// bin whose bit is clear is empty, whatever its head still points to
    /// (the last chunk taken leaves the links).
    unsafe fn check_smallbin(self, idx: u32, region: Region) -> usize {
        let b = self.smallbin_at(idx);
        // SAFETY: as in `check_malloc_state`.
        unsafe {
            if (*self.0).smallmap & (1 << idx) == 0 {
                return 0;
            }
            let mut p = (*b).next;
            assert!(p != b, "small bin {idx} is marked but empty");
            let mut count = 0;
            while p != b {
                count += 1;
                assert!(count <= region.len / MIN_CHUNK_SIZE, "small bin {idx} loops");
                self.check_free_chunk(p, region);
                let size = Chunk::size(p);
                assert_eq!(small_index(size), idx, "a chunk of {size} bytes in small bin {idx}");
                assert!(is_small(size), "a large chunk in small bin {idx}");
                let next = (*p).next;
                assert!(next == b || Chunk::size(next) == size, "small bin {idx} mixes sizes");
                self.check_inuse_chunk(Chunk::plus_offset(p, size), region);
                p = next;
            }
            count
        }
    }

    /// dlmalloc's `check_treebin`, and the count of chunks in the tree.
    unsafe fn check_treebin(self, idx: u32, region: Region) -> usize {
        // SAFETY: as in `check_malloc_state`.
        unsafe {
            let t = *self.treebin_at(idx);
            let marked = (*self.0).treemap & (1 << idx) != 0;
            assert_eq!(t.is_null(), !marked, "tree bin {idx} and its bit in the map disagree");
            if t.is_null() {
                return 0;
            }
            assert_eq!((*t).parent, self.treebin_at(idx).cast(), "tree bin {idx}'s root has another parent");
            self.check_tree(t, region)
        }
    }

    /// dlmalloc's `check_tree`: every chunk of the tree at `t` (a node and
    /// the chunks of its size on its ring), and the count of them.
    unsafe fn check_tree(self, t: *mut TreeChunk, region: Region) -> usize {
        // SAFETY: as in `check_malloc_state`.
        unsafe {
            let tc = TreeChunk::chunk(t);
            self.check_any_chunk(tc, region);
            let tindex = (*t).index;
            let tsize = Chunk::size(tc);
            let idx = compute_tree_index(tsize);
            assert_eq!(tindex, idx, "a tree chunk of {tsize} bytes says it is in bin {tindex}");
            assert!(tsize >= MIN_LARGE_SIZE, "a small chunk in a tree");
            assert!(tsize >= min_size_for_tree_index(idx), "a tree chunk below its bin");
            assert!(
                idx == NTREEBINS as u32 - 1 || tsize < min_size_for_tree_index(idx + 1),
                "a tree chunk above its bin"
            );

            let mut count = 0;
            let mut u = t;
            let mut head = ptr::null_mut::<TreeChunk>();
            loop {
                count += 1;
                assert!(count <= region.len / MIN_CHUNK_SIZE, "a tree ring loops");
                let uc = TreeChunk::chunk(u);
                self.check_any_chunk(uc, region);
                assert_eq!((*u).index, tindex, "a ring mixes tree bins");
                assert_eq!(Chunk::size(uc), tsize, "a ring mixes sizes");
                assert!(!Chunk::cinuse(uc), "a chunk in use is in a tree");
                assert!(
                    !Chunk::pinuse(Chunk::plus_offset(uc, tsize)),
                    "the chunk after a tree chunk says it is in use"
                );
                assert_eq!((*(*uc).next).prev, uc, "a tree chunk's next does not point back");
                assert_eq!((*(*uc).prev).next, uc, "a tree chunk's prev does not point back");
                let left = (*u).child[0];
                let right = (*u).child[1];
                if (*u).parent.is_null() {
                    assert!(left.is_null() && right.is_null(), "a chunk on a ring has children");
                } else {
                    assert!(head.is_null(), "a ring has two nodes in the tree");
                    head = u;
                    assert!((*u).parent != u, "a tree chunk is its own parent");
                    // The root's parent is its bin (checked by
                    // `check_treebin`); compared, never read as a chunk.
                    let parent = (*u).parent;
                    if parent != self.treebin_at(tindex).cast() {
                        self.check_any_chunk(TreeChunk::chunk(parent), region);
                        assert!(
                            (*parent).child[0] == u || (*parent).child[1] == u,
                            "a tree chunk is not its parent's child"
                        );
                    }
                    if !left.is_null() {
                        assert_eq!((*left).parent, u, "a left child has another parent");
                        assert!(left != u, "a tree chunk is its own child");
                        count += self.check_tree(left, region);
                    }
                    if !right.is_null() {
                        assert_eq!((*right).parent, u, "a right child has another parent");
                        assert!(right != u, "a tree chunk is its own child");
                        count += self.check_tree(right, region);
                    }
                    if !left.is_null() && !right.is_null() {
                        assert!(
                            Chunk::size(TreeChunk::chunk(left)) < Chunk::size(TreeChunk::chunk(right)),
                            "a tree's children are out of order"
                        );
                    }
                }
                u = TreeChunk::prev(u);
                if u == t {
                    break;
                }
            }
            assert!(!head.is_null(), "a ring has no node in the tree");
            count
        }
    }

    /// dlmalloc's `bin_find`: whether `chunk` is in the bin for its size.
    unsafe fn bin_find(self, chunk: *mut Chunk) -> bool {
        // SAFETY: as in `check_malloc_state`: the bins were checked first.
        unsafe {
            let size = Chunk::size(chunk);
            if is_small(size) {
                let idx = small_index(size);
                let b = self.smallbin_at(idx);
                if (*self.0).smallmap & (1 << idx) == 0 {
                    return false;
                }
                let mut p = b;
                loop {
                    if p == chunk {
                        return true;
                    }
                    p = (*p).prev;
                    if p == b {
                        return false;
                    }
                }
            } else {
                let idx = compute_tree_index(size);
                if (*self.0).treemap & (1 << idx) == 0 {
                    return false;
                }
                let mut t = *self.treebin_at(idx);
                let mut sizebits = size << leftshift_for_tree_index(idx);
                while !t.is_null() && Chunk::size(TreeChunk::chunk(t)) != size {
                    t = (*t).child[(sizebits >> (mem::size_of::<usize>() * 8 - 1)) & 1];
                    sizebits <<= 1;
                }
                if t.is_null() {
                    return false;
                }
                let mut u = t;
                loop {
                    if TreeChunk::chunk(u) == chunk {
                        return true;
                    }
                    u = TreeChunk::prev(u);
                    if u == t {
                        return false;
                    }
                }
            }
        }
    }
}

fn min_size_for_tree_index(idx: u32) -> usize {
    let idx = idx as usize;
    (1 << ((idx >> 1) + TREEBIN_SHIFT)) | ((idx & 1) << ((idx >> 1) + TREEBIN_SHIFT - 1))
}
