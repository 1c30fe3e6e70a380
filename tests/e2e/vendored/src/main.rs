//! A package built as a vendoring user builds one, with a tool that has a
//! bug: `bug` unwraps a `None`, to show what the model reads then;
//! `heap`, `grown`, `grow` and `shrink`, the allocator's tests inside a module; `write`,
//! which writes at any path it is given; `now`, the clock's answer; and
//! `greet`. Without the crate's
//! allocators or panic handler (its features off) it brings its own.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

extern crate alloc;

use alloc::boxed::Box;
use alloc::vec::Vec;

use subako_tiny::{Args, Package, Reply, Tool, ToolError};

fn bug(args: &Args<'_>) -> Result<Reply, ToolError> {
    let missing: Option<&str> = args.value("nothing").and(None);
    Ok(Reply::text(missing.unwrap())) // the line the answer names
}

/// The time now, as the clock gives it.
fn now(_: &Args<'_>) -> Result<Reply, ToolError> {
    let now = subako_tiny::clock::now()?;
    Ok(Reply::object(|o| o.text("utc", now).field("seconds", now.unix_seconds())))
}

/// Sixteen of the platform's random bytes, and a shuffle of 1 to 10 by a
/// generator it seeds.
fn draw(_: &Args<'_>) -> Result<Reply, ToolError> {
    let mut bytes = [0u8; 16];
    subako_tiny::random::fill(&mut bytes)?;
    let mut order = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    subako_tiny::random::Rng::from_platform()?.shuffle(&mut order);
    Ok(Reply::object(|o| o.field("bytes", bytes.map(u64::from)).field("order", order)))
}

fn fine(_: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text("fine"))
}

fn greet(args: &Args<'_>) -> Result<Reply, ToolError> {
    Ok(Reply::text(&["Hello, ", &args.str("name")?, "!"].concat()))
}

/// Writes `text` at `path`, as given: what the crate does with any path.
fn write(args: &Args<'_>) -> Result<Reply, ToolError> {
    subako_tiny::fs::write(&args.str("path")?, args.str("text")?.as_bytes())?;
    Ok(Reply::text("written"))
}

/// Allocates, fills, checks and frees blocks of many sizes in a fixed
/// pseudo-random order: small and large ones, some past the initial memory,
/// some aligned to 64 bytes.
fn heap(_: &Args<'_>) -> Result<Reply, ToolError> {
    #[repr(C, align(64))]
    struct Aligned([u8; 64]);
    let mut live: Vec<(Vec<u8>, u8)> = Vec::new();
    let mut aligned: Vec<Box<Aligned>> = Vec::new();
    let mut state: u32 = 0x9e37_79b9;
    for round in 0..4000u32 {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let r = state;
        let fill = round as u8;
        if live.len() < 48 && r % 3 != 0 {
            let size = match r >> 28 {
                0 => (r >> 8) as usize % 300_000,
                1..=5 => (r >> 8) as usize % 2000,
                _ => (r >> 8) as usize % 200,
            };
            live.push((alloc::vec![fill; size], fill));
        } else if !live.is_empty() {
            let (block, fill) = live.swap_remove(r as usize % live.len());
            if !block.iter().all(|&b| b == fill) {
                return Err(ToolError::new("a block's bytes changed"));
            }
        }
        if r & 0x100 != 0 {
            let block = Box::new(Aligned([fill; 64]));
            // Through `black_box`: the compiler may take a `Box`'s alignment
            // as given and fold the check away.
            if core::hint::black_box((&raw const *block) as usize) % 64 != 0 {
                return Err(ToolError::new("a block is not aligned to 64 bytes"));
            }
            aligned.push(block);
        }
        if aligned.len() > 8 {
            let block = aligned.swap_remove(0);
            if !block.0.iter().all(|&b| b == block.0[0]) {
                return Err(ToolError::new("an aligned block's bytes changed"));
            }
        }
    }
    Ok(Reply::text("every block kept its bytes"))
}

/// Grows memory by hand, then allocates more than is left: dlmalloc's heap
/// can no longer grow at its end, so the allocation fails, and the call is
/// answered as out of memory.
fn grown(_: &Args<'_>) -> Result<Reply, ToolError> {
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::memory_grow(0, 1);
    let block = alloc::vec![1u8; 1 << 20];
    Ok(Reply::text(if block[12345] == 1 { "allocated" } else { "wrong bytes" }))
}

/// Grows one `Vec` to 32 MiB a chunk at a time, as a tool loading a
/// large file's records does: in place, the newest block needs about that
/// much memory; moved at each doubling, it stood beside its old copy
/// above the freed ones, twice that.
fn grow(_: &Args<'_>) -> Result<Reply, ToolError> {
    let mut bytes: Vec<u8> = Vec::new();
    for chunk in 0..512u32 {
        bytes.resize(bytes.len() + (1 << 16), chunk as u8);
    }
    let kept = bytes.chunks(1 << 16).enumerate().all(|(i, chunk)| chunk.iter().all(|&b| b == i as u8));
    Ok(Reply::text(if kept && bytes.len() == 32 << 20 { "grown" } else { "wrong bytes" }))
}

/// Five times: a 20 MiB `Vec` cut down to 1 KiB (`shrink_to_fit`) and
/// kept, with a small block after it. Each cut gives the rest back, so 64
/// MiB hold them all.
fn shrink(_: &Args<'_>) -> Result<Reply, ToolError> {
    let mut kept: Vec<Vec<u8>> = Vec::new();
    for round in 0..5u8 {
        let mut bytes = alloc::vec![round; 20 << 20];
        bytes.truncate(1024);
        bytes.shrink_to_fit();
        kept.push(bytes);
        kept.push(alloc::vec![round; 100]);
    }
    let whole = kept.chunks(2).enumerate().all(|(i, pair)| pair.iter().all(|v| v.iter().all(|&b| b == i as u8)));
    Ok(Reply::text(if whole { "cut down" } else { "wrong bytes" }))
}

/// A loop of 10,000 turns, each with two 64 KiB temporaries that drop at
/// its end, newest first, as locals do: 1.25 GiB in all, which fits in
/// 16 MiB only if each turn gives its blocks back (review 61: the lean
/// allocator kept the older one of each pair).
fn temporaries(_: &Args<'_>) -> Result<Reply, ToolError> {
    let mut sum = 0u64;
    for turn in 0..10_000u32 {
        let first = alloc::vec![turn as u8; 1 << 16];
        let second = alloc::vec![first[7].wrapping_add(1); 1 << 16];
        sum += u64::from(first[turn as usize % first.len()]) + u64::from(second[9]);
    }
    Ok(Reply::text(if sum > 0 { "all given back" } else { "wrong bytes" }))
}

/// Writes `text` at `path` all or nothing (`fs::write_atomic`).
fn replace(args: &Args<'_>) -> Result<Reply, ToolError> {
    subako_tiny::fs::write_atomic(&args.str("path")?, args.str("text")?.as_bytes())?;
    Ok(Reply::text("replaced"))
}

/// Waits `ms` milliseconds (`clock::sleep`), and says how long the
/// realtime clock saw it take.
fn wait(args: &Args<'_>) -> Result<Reply, ToolError> {
    let ms = args.int("ms", 0, 60_000)? as u64;
    let before = subako_tiny::clock::now()?;
    subako_tiny::clock::sleep(core::time::Duration::from_millis(ms))?;
    let waited = subako_tiny::clock::now()?.unix_nanos() - before.unix_nanos();
    Ok(Reply::object(|o| o.field("waited_ms", waited / 1_000_000)))
}

/// Renames the file at `from` to `to` (`fs::rename`).
fn rename(args: &Args<'_>) -> Result<Reply, ToolError> {
    subako_tiny::fs::rename(&args.str("from")?, &args.str("to")?)?;
    Ok(Reply::text("renamed"))
}

const EMPTY: &str = r#"{"type": "object", "properties": {}}"#;

const PACKAGE: Package = Package::new(
    "vendored",
    "0.1.0",
    "Has a bug.",
    &[
        Tool::new("bug", "Panics.", EMPTY, bug),
        Tool::new("fine", "Answers.", EMPTY, fine),
        Tool::new("now", "The time now.", EMPTY, now),
        Tool::new("draw", "Random bytes and a shuffle.", EMPTY, draw),
        Tool::new(
            "greet",
            "Greets.",
            r#"{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}"#,
            greet,
        ),
        Tool::new("heap", "Tests the allocator.", EMPTY, heap),
        Tool::new("grown", "Grows memory, then allocates.", EMPTY, grown),
        Tool::new("grow", "Grows a Vec to 32 MiB.", EMPTY, grow),
        Tool::new("shrink", "Cuts Vecs down.", EMPTY, shrink),
        Tool::new("wait", "Waits.", r#"{"type": "object", "properties": {"ms": {"type": "integer"}}, "required": ["ms"]}"#, wait),
        Tool::new("rename", "Renames a file.", r#"{"type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"}}, "required": ["from", "to"]}"#, rename),
        Tool::new("temporaries", "Drops temporaries in a loop.", EMPTY, temporaries),
        Tool::new("replace", "Writes text at a path, all or nothing.", r#"{"type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}}, "required": ["path", "text"]}"#, replace),
        Tool::new("write", "Writes text at a path.", r#"{"type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}}, "required": ["path", "text"]}"#, write),
    ],
);

subako_tiny::main!(PACKAGE);

/// What an author brings when the crate's features are off: the
/// configurations the crate's docs offer, built and run by the e2e tests.
#[cfg(target_arch = "wasm32")]
mod own {
    /// A bump allocator from the end of memory, a page at a time, that
    /// never gives anything back (every call is a fresh instance): with
    /// neither `dlmalloc` nor `lean-alloc`.
    #[cfg(not(any(feature = "dlmalloc", feature = "lean-alloc")))]
    mod allocator {
        use core::alloc::{GlobalAlloc, Layout};
        use core::arch::wasm32::{memory_grow, memory_size};
        use core::cell::Cell;

        const PAGE: usize = 64 << 10;

        struct Bump(Cell<usize>);

        // SAFETY: a wasm32-wasip1 command has one thread.
        unsafe impl Sync for Bump {}

        // SAFETY: each block is aligned as asked, lies in memory the module
        // owns (grown for it) and is never handed out again.
        unsafe impl GlobalAlloc for Bump {
            unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
                let next = match self.0.get() {
                    0 => memory_size(0) * PAGE,
                    next => next,
                };
                let start = next.next_multiple_of(layout.align());
                let Some(end) = start.checked_add(layout.size()) else { return core::ptr::null_mut() };
                let have = memory_size(0) * PAGE;
                if end > have && memory_grow(0, (end - have).div_ceil(PAGE)) == usize::MAX {
                    return core::ptr::null_mut();
                }
                self.0.set(end);
                start as *mut u8
            }

            unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}
        }

        #[global_allocator]
        static ALLOCATOR: Bump = Bump(Cell::new(0));
    }

    /// Without `panic-handler`: says so on stderr, then traps.
    #[cfg(not(feature = "panic-handler"))]
    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
        subako_tiny::log("the package's own panic handler ran\n");
        core::arch::wasm32::unreachable()
    }
}
