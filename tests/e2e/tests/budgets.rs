//! The sizes CI enforces, over the real release builds of every example
//! (both allocators): each is the size `docs/report.json` records for it,
//! to within a few bytes, and hello and rates stay within their targets;
//! plus the shape Subako accepts: imports only from
//! `wasi_snapshot_preview1` and `subako_http`, exports `_start` and
//! `memory` (and only the start-up's other three), and a start at no more
//! than 2 memory pages.
//!
//! Sizes are deterministic for the pinned toolchain, so a change that moves
//! a module's size fails here with both numbers, until the record says the
//! new size (`./size-report --vs-official --feature-costs`, then
//! `./size-report --record`): no change grows a module unnoticed.
//! `./size-report --explain NAME` says what takes the room.

use serde_json::Value;
use subako_tiny_e2e::{Shape, Variant, crate_root, example_dev_profile, example_variant, examples, idiom_probes};

const KIB: u64 = 1024;

/// How far a module may be from its recorded size, in bytes: builds are
/// deterministic, so this is room for nothing but a toolchain's whim.
const TOLERANCE: u64 = 32;

/// What to run when a size moved on purpose.
const REFRESH: &str = "./size-report --vs-official --feature-costs, then ./size-report --record";

/// Sizes a module must stay within whatever the record says: (example,
/// allocator, bytes). hello's with dlmalloc and the lean allocator, and
/// rates', the realistic package, with dlmalloc: rates checks what it
/// copies to stdout strictly, words every file error, reads and writes its
/// floats at any exponent in one 128-bit product each (trial 17: a file of
/// p-values near 1e-300 ran out of time on the exact arithmetic alone,
/// which added 1.2 KB to read past), reads a number its short path
/// leaves without clearing an 800-digit buffer for it (about 1,000 fuel a
/// number less: author trial 24's CSV of long values read at more fuel
/// than std's parse) and a run of digits eight at a time (a 17-digit
/// value at 30 % to 60 % of the fuel it took: benches/floats.sh), and
/// skips a long argument once validated, and writes the JSON it copies
/// compact (+169 B, from 43.5 KiB: a pretty-printed file's or body's
/// newlines split the answer's line, author trial 63), and counts how deep
/// its closures nest a reply (+411 B, from 43.75 KiB: review 76's 126
/// levels went out as a line serde_json refuses), and names the fields a
/// tool takes beside one it does not, in serde's words (+242 B, from
/// 44.25 KiB: author trial 93's model was told `unknown field `name``
/// and left to guess `station`), and finds a member named twice in what
/// it copies in time linear in the members whatever their names (+164 B,
/// from 44.5 KiB: review 99's 32,768 names `item-00000`… ran out of
/// time), and, as a module that parses documents, skips over their
/// containers' numbers and punctuation eight bytes a turn (+244 B, from
/// 44.75 KiB: author trial 98's GeoJSON, five levels deep, took 2.6 times
/// the official module's work; 22 % less now), and passes their strings
/// and brackets at about the cost a module that parses nothing does
/// (+126 B, from 45 KiB: review 101's `[[[[]]]]` took three times that,
/// review 102's `[1,1,1]` one and a half), so its budget holds those and
/// no more.
const TARGETS: [(&str, Allocator, u64); 3] = [
    ("hello", Allocator::Dlmalloc, 16 * KIB),
    ("hello", Allocator::Lean, 12 * KIB),
    ("rates", Allocator::Dlmalloc, 45 * KIB + 256),
];

/// Initial memory pages a module may start at (64 KiB each): the 64 KiB
/// stack from build.rs plus the data, instead of rustc's 1 MiB stack (17).
const MAX_INITIAL_PAGES: u64 = 2;

const ALLOWED_IMPORT_MODULES: [&str; 2] = ["wasi_snapshot_preview1", "subako_http"];

/// Everything a module exports: what Subako calls, and the three functions
/// wasi-libc's `_start` calls that the crate defines (rustc exports every
/// `#[no_mangle]` function of a wasm executable). Nothing else: wasmtime
/// compiles a trampoline for each exported function, so an export that
/// slips in (say `memcmp` defined by the crate instead of taken from libc)
/// costs every module compile time.
const EXPORTS: [&str; 5] = ["memory", "_start", "__main_void", "__wasi_init_tp", "__wasm_call_dtors"];

#[derive(Clone, Copy, Debug)]
enum Allocator {
    Dlmalloc,
    Lean,
}

impl Allocator {
    const ALL: [Allocator; 2] = [Allocator::Dlmalloc, Allocator::Lean];

    fn name(self) -> &'static str {
        match self {
            Allocator::Dlmalloc => "dlmalloc",
            Allocator::Lean => "lean",
        }
    }

    /// The build `./size-report` measures: the allocator's features plus
    /// what the example requires.
    fn variant(self, required: &[&'static str]) -> Variant {
        let mut v = match self {
            Allocator::Dlmalloc => Variant::default(),
            Allocator::Lean => Variant::lean(),
        };
        for f in required {
            if !v.features.contains(f) {
                v.features.push(f);
            }
        }
        v
    }
}

/// `docs/report.json`'s bytes for each (example, allocator name).
fn record() -> Vec<(String, String, u64)> {
    let path = crate_root().join("docs/report.json");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).expect("docs/report.json is JSON");
    let rows = record["rows"].as_array().expect("docs/report.json has rows");
    rows.iter()
        .map(|r| {
            let field = |k: &str| r[k].as_str().unwrap_or_else(|| panic!("a row of docs/report.json has no {k}: {r}"));
            (field("example").to_string(), field("allocator").to_string(), r["bytes"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn every_example_is_in_the_record_and_every_row_an_example() {
    let names: Vec<String> = examples().into_iter().map(|(n, _)| n).collect();
    let record = record();
    let mut problems = Vec::new();
    for n in &names {
        for allocator in Allocator::ALL {
            if !record.iter().any(|(e, a, _)| e == n && a == allocator.name()) {
                problems.push(format!("examples/{n}.rs ({}) has no row in docs/report.json", allocator.name()));
            }
        }
    }
    for (e, a, _) in &record {
        if !names.contains(e) {
            problems.push(format!("docs/report.json records {e} ({a}), but there is no examples/{e}.rs"));
        }
    }
    assert!(
        problems.is_empty(),
        "{}
(to refresh the record: {REFRESH})",
        problems.join("\n")
    );
}

#[test]
fn every_example_is_its_recorded_size_to_the_byte() {
    let record = record();
    let mut off = Vec::new();
    let mut report = String::new();
    for (name, required) in examples() {
        for allocator in Allocator::ALL {
            let Some(&(_, _, recorded)) = record.iter().find(|(e, a, _)| *e == name && a == allocator.name()) else {
                continue;
            };
            let path = example_variant(&name, &allocator.variant(&required));
            let bytes = std::fs::metadata(&path).unwrap().len();
            let line = format!(
                "{name} ({}): {bytes} bytes, recorded {recorded} ({:+})",
                allocator.name(),
                bytes as i64 - recorded as i64
            );
            report.push_str(&line);
            report.push('\n');
            if bytes.abs_diff(recorded) > TOLERANCE {
                off.push(line);
            }
        }
    }
    eprint!("{report}");
    assert!(
        off.is_empty(),
        "modules not at their recorded size (within {TOLERANCE} bytes):\n  {}\nIf the change is meant, record it: \
         {REFRESH}. `./size-report --explain NAME` lists what takes the room.",
        off.join("\n  ")
    );
}

#[test]
fn hello_and_rates_stay_within_their_targets() {
    let mut over = Vec::new();
    for (name, allocator, target) in TARGETS {
        let required = examples().into_iter().find(|(n, _)| n == name).map(|(_, r)| r).unwrap();
        let bytes = std::fs::metadata(example_variant(name, &allocator.variant(&required))).unwrap().len();
        if bytes > target {
            over.push(format!(
                "{name} ({}): {bytes} bytes, over its target of {target} ({} KiB) by {}",
                allocator.name(),
                target / KIB,
                bytes - target
            ));
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

#[test]
fn every_example_has_the_shape_subako_accepts() {
    let mut problems = Vec::new();
    for (name, required) in examples() {
        for allocator in Allocator::ALL {
            let path = example_variant(&name, &allocator.variant(&required));
            let label = format!("{name} ({})", allocator.name());
            let bytes = std::fs::read(&path).unwrap();
            let shape = Shape::read(&bytes);
            for (module, field) in &shape.imports {
                if !ALLOWED_IMPORT_MODULES.contains(&module.as_str()) {
                    problems.push(format!("{label} imports {module}::{field}"));
                }
            }
            for export in ["_start", "memory"] {
                if !shape.exports.iter().any(|e| e == export) {
                    problems.push(format!("{label} does not export {export}"));
                }
            }
            for export in &shape.exports {
                if !EXPORTS.contains(&export.as_str()) {
                    problems.push(format!("{label} exports {export}, beyond {EXPORTS:?}"));
                }
            }
            match shape.initial_pages {
                Some(p) if p <= MAX_INITIAL_PAGES => {}
                Some(p) => problems.push(format!("{label} starts at {p} memory pages (at most {MAX_INITIAL_PAGES})")),
                None => problems.push(format!("{label} declares no memory")),
            }
            // The upload checks as the runner implements them: import signatures,
            // `_start`'s type, then a real discover + tools/list in wasmtime.
            let check = subako_tiny_runner::check(&bytes, None);
            for f in &check.failures {
                problems.push(format!("{label}: runner check: {f}"));
            }
        }
    }
    assert!(problems.is_empty(), "modules Subako would refuse:\n  {}", problems.join("\n  "));
}

/// A call that allocates less than the rest of the initial memory (hello's
/// every call) ends at the pages it started with, with either allocator:
/// dlmalloc takes that rest before it grows memory (`platform::heap`).
#[test]
fn a_hello_call_does_not_grow_memory() {
    for allocator in Allocator::ALL {
        let path = example_variant("hello", &allocator.variant(&[]));
        let opts = subako_tiny_runner::BenchOptions {
            calls: 1,
            compiles: 1,
            tool: Some("greet".into()),
            args: Some(serde_json::value::RawValue::from_string(r#"{"name":"Ada"}"#.into()).unwrap()),
            ..Default::default()
        };
        let report = subako_tiny_runner::bench(&path, None, &opts).unwrap();
        let figures = report.a;
        assert_eq!(
            (figures.pages_start, figures.pages_exit),
            (2, 2),
            "hello ({}) grew its memory during a call",
            allocator.name()
        );
    }
}

/// build.rs compresses relocations only for profiles without debug info:
/// lld refuses `--compress-relocations` when DWARF is kept, so passing it
/// to a dev build would break `cargo build --target wasm32-wasip1`.
#[test]
fn the_dev_profile_builds_with_its_debug_info_and_runs() {
    let dev = std::fs::read(example_dev_profile("hello")).unwrap();
    let release = std::fs::read(example_variant("hello", &Variant::default())).unwrap();
    let dev_shape = Shape::read(&dev);
    assert!(
        dev_shape.custom.iter().any(|c| c == ".debug_info"),
        "the dev build lost its DWARF: {:?}",
        dev_shape.custom
    );
    assert!(Shape::read(&release).custom.is_empty(), "the release build keeps custom sections");
    let check = subako_tiny_runner::check(&dev, None);
    assert!(check.failures.is_empty(), "the dev build is refused: {:?}", check.failures);
}

/// The crate's own source files (and its examples') named in `bytes`: the
/// file of a panic location, which a bounds check, an `unwrap` or a
/// division links. Relative paths only: std's (`/rustc/…`) and a
/// dependency's (a registry path) start with `/`.
fn own_source_files(bytes: &[u8]) -> Vec<String> {
    let path_byte = |b: u8| b.is_ascii_alphanumeric() || b"_/.-".contains(&b);
    let mut found = Vec::new();
    for start in 0..bytes.len() {
        let rest = &bytes[start..];
        if !(rest.starts_with(b"src/") || rest.starts_with(b"examples/")) {
            continue;
        }
        // Inside an absolute path; constants abut, so any other byte may
        // come before.
        if start > 0 && bytes[start - 1] == b'/' {
            continue;
        }
        let len = rest.iter().take_while(|&&b| path_byte(b)).count();
        let name = String::from_utf8_lossy(&rest[..len]);
        // Locations are not NUL-terminated: the name ends where `.rs` does.
        if let Some(end) = name.find(".rs") {
            found.push(name[..end + 3].to_string());
        }
    }
    found.sort();
    found.dedup();
    found
}

/// No example links a panic path in the crate's own code (or its own): a
/// bounds check that cannot fail is written with `get`, a division with
/// `checked_div`. `subako-tiny size --explain` lists each location's file
/// under "panic locations", and the function that reads the location
/// beside it.
#[test]
fn no_example_links_a_panic_location_in_the_crates_own_source() {
    let mut found = Vec::new();
    for (name, required) in examples() {
        for allocator in Allocator::ALL {
            let bytes = std::fs::read(example_variant(&name, &allocator.variant(&required))).unwrap();
            for file in own_source_files(&bytes) {
                found.push(format!("{name} ({}): {file}", allocator.name()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "panic locations in the crate's own source:\n  {}\n(`subako-tiny size --manifest-path . --examples --explain NAME` \
         shows which function reads each)",
        found.join("\n  ")
    );
    // The scan finds what it looks for: locations as the data holds them,
    // abutting other constants, and not std's.
    let data = b"\x01src/json/value.rsNaNexamples/hello.rs/rustc/x/library/core/src/str/mod.rs";
    assert_eq!(own_source_files(data), ["examples/hello.rs", "src/json/value.rs"]);
}

/// Nor does any of the crate's equivalents of std's idioms (`chars::words`,
/// `chars::find`, `case`, `sort`, `tally`, `num`, `text::fixed`…), each in
/// its probe in `benches/idioms`, which reach code no example does (trial
/// 16 found `chars::is_alphanumeric`'s and `chars::find`'s). The probes
/// name the crate's files by its absolute path (it is a path dependency
/// outside their directory): it is taken off before the scan.
#[test]
fn no_idiom_probe_links_a_panic_location_in_the_crates_own_source() {
    let root = format!("{}/", crate_root().display());
    let mut found = Vec::new();
    for lean in [true, false] {
        for (name, path) in idiom_probes(lean) {
            let bytes = std::fs::read(&path).unwrap();
            let text = String::from_utf8_lossy(&bytes).replace(&root, "");
            for file in own_source_files(text.as_bytes()) {
                found.push(format!("{name} ({}): {file}", if lean { "lean" } else { "dlmalloc" }));
            }
        }
    }
    assert!(
        found.is_empty(),
        "panic locations in the crate's own source:\n  {}\n(`subako-tiny size --explain` on the probe's .wasm \
         shows which function reads each)",
        found.join("\n  ")
    );
}

/// What `size --explain` advises for file errors holds: a module that
/// words them with `FsError::short_message` carries none of the words for
/// every errno, which one that uses `message` (as `?` does) carries
/// (trial 84 followed the advice and lost the words for text not UTF-8).
#[test]
fn short_file_messages_carry_no_errno_words() {
    let probes = idiom_probes(true);
    let bytes = |name: &str| std::fs::read(&probes.iter().find(|(n, _)| n == name).unwrap().1).unwrap();
    let holds = |haystack: &[u8], words: &str| haystack.windows(words.len()).any(|w| w == words.as_bytes());
    let (full, short) = (bytes("fs_errors_crate"), bytes("fs_short_errors_crate"));
    for words in ["no such file or directory (ENOENT)", "permission denied (EACCES)"] {
        assert!(holds(&full, words), "message() words {words:?}");
        assert!(!holds(&short, words), "short_message() links {words:?}");
    }
    // The reasons that are not an errno keep their words.
    for words in ["/volume/data is not mounted: the agent has not enabled it", "not UTF-8 text"] {
        assert!(holds(&short, words), "short_message() lost {words:?}");
    }
    assert!(short.len() + 1500 < full.len(), "{} and {} bytes", short.len(), full.len());
}

/// Turning the typed layer on costs a module with no typed tool nothing.
/// miniserde is built at opt-level 2 (the profile in Cargo.toml and the
/// README's): at "z", rustc shares miniserde's copies of alloc's generic
/// functions with the crate, which then calls them rather than inline its
/// own, and every example came out 93 to 149 bytes larger.
#[test]
fn the_typed_layer_costs_a_module_without_typed_tools_nothing() {
    let typed = Variant { features: vec!["miniserde"], default_features: true };
    for name in ["hello", "notes"] {
        let without = std::fs::metadata(example_variant(name, &Variant::default())).unwrap().len();
        let with = std::fs::metadata(example_variant(name, &typed)).unwrap().len();
        assert_eq!(with, without, "{name}: {with} bytes with the miniserde feature, {without} without");
    }
}
