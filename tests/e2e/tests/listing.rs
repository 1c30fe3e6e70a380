//! Listing a directory costs the same per entry however many there are,
//! counted, not timed: the files example's `list` over 1,000 to 8,000
//! files, in wasmtime.
//!
//! wasmtime-wasi answers each `fd_readdir` by reading the whole directory
//! (every entry, each with a stat) and then skipping to the cookie
//! (`wasmtime-wasi` 48, `p1.rs`, `fd_readdir`): a listing costs the host the
//! number of calls times the directory's entries. So the figure here is the
//! entries the host reads per entry listed, from the calls counted: with
//! a fixed 4 KiB buffer it was the number of entries over a hundred, 10 for
//! 1,000 files and 75 for 8,000. And beside it the module's own fuel per
//! entry, which grows only as the sort's comparisons do (n log n).

mod scripted;

use scripted::{Script, call_line, compile, run};
use serde_json::json;
use subako_tiny_e2e::{Variant, example_variant};

/// What one listing of `files` files cost.
#[derive(Debug)]
struct Cost {
    files: usize,
    calls: usize,
    /// Entries the host read per file listed: the calls times the entries
    /// (with `.` and `..`), over the files.
    host_reads_per_entry: f64,
    fuel_per_entry: f64,
}

fn list(module: &wasmtime::Module, files: usize) -> Cost {
    let volume = tempfile::tempdir().unwrap();
    let dir = volume.path().join("files");
    std::fs::create_dir(&dir).unwrap();
    let mut names: Vec<String> = (0..files).map(|i| format!("note-{i:05}.txt")).collect();
    for name in &names {
        std::fs::write(dir.join(name), "").unwrap();
    }
    names.sort();
    let ran =
        run(module, &["files"], &call_line("list", json!({})), &[("/volume/tmp", volume.path())], Script::default());
    assert_eq!(ran.exit, Ok(0), "{}", ran.stderr_text());
    let answer = ran.answer();
    assert_eq!(answer["result"]["structuredContent"], json!({"names": names}), "{files} files");
    let calls = ran.counts.fd_readdir.len();
    Cost {
        files,
        calls,
        host_reads_per_entry: (calls * (files + 2)) as f64 / files as f64,
        fuel_per_entry: ran.fuel as f64 / files as f64,
    }
}

#[test]
fn listing_costs_the_same_per_entry_from_1000_to_8000_entries() {
    for variant in [Variant::default(), Variant::lean()] {
        let module = compile(&example_variant("files", &variant));
        let costs: Vec<Cost> = [1000, 2000, 4000, 8000].into_iter().map(|n| list(&module, n)).collect();
        eprintln!("{variant:?}: {costs:#?}");
        let (first, last) = (&costs[0], &costs[costs.len() - 1]);
        for cost in &costs {
            assert!(
                cost.host_reads_per_entry <= 3.5,
                "{variant:?}: the host read each entry {:.1} times to list {} files: {costs:?}",
                cost.host_reads_per_entry,
                cost.files
            );
        }
        assert!(last.calls <= first.calls + 1, "{variant:?}: {costs:?}");
        // log(8000) / log(1000) is 1.3: the sort's share grows so, the rest not at all.
        assert!(
            last.fuel_per_entry <= first.fuel_per_entry * 1.3,
            "{variant:?}: fuel per entry grew from {:.0} to {:.0}: {costs:?}",
            first.fuel_per_entry,
            last.fuel_per_entry
        );
    }
}
