//! The allocators inside a module, in wasmtime: `heap` (tests/e2e/vendored)
//! allocates, fills, checks and frees blocks of many sizes, some larger
//! than the memory a module starts with and some aligned to 64 bytes.

use subako_tiny_e2e::{request, vendored};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

/// The `result` of calling `tool` in the vendored package built with
/// `features`; the module must exit 0.
fn call(features: &[&str], tool: &str) -> serde_json::Value {
    call_within(features, tool, RunOptions::default().memory_limit_bytes)
}

/// [`call`] with memory limited to `memory_limit_bytes`.
fn call_within(features: &[&str], tool: &str, memory_limit_bytes: usize) -> serde_json::Value {
    let module = Module::from_file(vendored(features)).unwrap();
    let stdin = request(serde_json::json!(1), "tools/call", serde_json::json!({"name": tool, "arguments": {}}));
    let options = RunOptions {
        argv: vec!["vendored".into()],
        stdin: stdin.into_bytes(),
        memory_limit_bytes,
        ..RunOptions::default()
    };
    let output = run(&module, &options).unwrap();
    assert!(matches!(output.exit, Exit::Code(0)), "{:?}: {}", output.exit, String::from_utf8_lossy(&output.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    answer["result"].clone()
}

/// Calls `tool` with each allocator, memory limited to `memory_limit_bytes`:
/// it must answer `text`, not an error.
fn answers_within_with_both_allocators(tool: &str, memory_limit_bytes: usize, text: &str) {
    for features in [&["lean-alloc"][..], &[]] {
        let result = call_within(features, tool, memory_limit_bytes);
        assert!(result.get("isError").is_none(), "{features:?}: {result}");
        assert_eq!(result["content"][0]["text"], text, "{features:?}: {result}");
    }
}

fn heap(features: &[&str]) {
    let result = call(features, "heap");
    assert!(result.get("isError").is_none(), "{result}");
    assert_eq!(result["content"][0]["text"], "every block kept its bytes", "{result}");
}

#[test]
fn dlmalloc_keeps_every_block_in_a_module() {
    heap(&[]);
}

#[test]
fn the_lean_allocator_keeps_every_block_in_a_module() {
    heap(&["lean-alloc"]);
}

/// dlmalloc's heap is one region that grows at its end: once a module grew
/// memory by hand, an allocation that needs new memory fails cleanly (the
/// call answered as out of memory), rather than take pages that are not
/// the heap's.
#[test]
fn dlmalloc_refuses_memory_grown_by_hand() {
    let result = call(&[], "grown");
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("tool ran out of memory: send it less"), "{text}");
}

/// A `Vec` grown to 32 MiB fits in 40 MiB of memory with either allocator:
/// the newest block grows in place, and dlmalloc asks for only what its
/// top chunk lacks. Moved at each doubling, it needed twice that (author
/// trial 51: a 60 MB file's records ran out of memory at 256 MiB where
/// the official SDK's module did not).
#[test]
fn a_growing_vec_needs_about_its_own_size_of_memory() {
    answers_within_with_both_allocators("grow", 40 << 20, "grown");
}

/// A `Vec` cut down gives the rest back: five 20 MiB `Vec`s cut to 1 KiB
/// and kept fit in 64 MiB (review 53: cut down in place, each kept all
/// its memory).
#[test]
fn a_vec_cut_down_gives_the_rest_back() {
    answers_within_with_both_allocators("shrink", 64 << 20, "cut down");
}

/// Temporaries dropped newest first, as locals drop, go back each turn: a
/// loop of 10,000 pairs of 64 KiB blocks fits in 16 MiB with either
/// allocator (review 61: the lean one kept the older block of each pair,
/// and ran out of memory).
#[test]
fn temporaries_dropped_newest_first_are_given_back() {
    answers_within_with_both_allocators("temporaries", 16 << 20, "all given back");
}
