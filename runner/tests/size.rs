//! `subako-tiny size`: the figures it reads from a module, checked against a
//! module whose every byte is known (written in WAT here). An author's
//! package measured end to end: `tests/author.rs`.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use subako_tiny_runner::{demangle, owner, size};

/// One import, three functions under the names rustc and wasi-libc give
/// them, 3 initial pages (at most 5), 11 bytes of data. The bodies are 3, 6
/// and 5 bytes with their length prefixes: `end`; `i32.const 1; drop; end`;
/// `call 2; end`, each after a zero locals count.
const MODULE: &str = r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 3 5)
  (func $_ZN4core3fmt5write17h0123456789abcdefE)
  (func $__main_void (export "__main_void") i32.const 1 drop)
  (func $_start (export "_start") call $__main_void)
  (data (i32.const 1024) "hello world"))"#;

fn module_bytes() -> Vec<u8> {
    wat::parse_str(MODULE).unwrap()
}

#[test]
fn size_reads_the_figures_of_a_known_module() {
    let bytes = module_bytes();
    let r = size(&bytes).unwrap();
    assert_eq!(r.bytes, bytes.len());
    assert_eq!(r.imported_functions, 1);
    assert_eq!(r.funcs.len(), 3);
    assert_eq!(r.initial_pages, Some(3));
    assert_eq!(r.max_pages, Some(5));
    assert_eq!(r.data_bytes, 11);
    assert_eq!(r.imports, [("wasi_snapshot_preview1".to_string(), "fd_write".to_string(), "func")]);
    assert_eq!(
        r.exports,
        [("memory".to_string(), "memory"), ("__main_void".into(), "func"), ("_start".into(), "func")]
    );

    // Bodies with their length prefixes, in code order, at their real offsets.
    let sizes: Vec<usize> = r.funcs.iter().map(|f| f.size).collect();
    assert_eq!(sizes, [3, 6, 5]);
    for f in &r.funcs {
        assert_eq!(bytes[f.offset] as usize, f.size - 1, "{}: the length prefix opens the body", f.name);
    }
    assert_eq!(&bytes[r.funcs[1].offset..][..6], [5, 0, 0x41, 1, 0x1a, 0x0b]);
    // The code section: a one-byte count and the three bodies.
    assert_eq!(r.code_bytes, 1 + 3 + 6 + 5);
    let code = r.sections.iter().find(|s| s.id == 10).unwrap();
    assert_eq!(code.size, r.code_bytes);
    assert_eq!(bytes[code.offset], 3, "the code section's payload starts with its count");

    // Every section's payload lies in the file, one after another.
    let mut end = 8;
    for s in &r.sections {
        assert!(s.offset > end && s.offset + s.size <= bytes.len(), "{s:?}");
        end = s.offset + s.size;
    }
    assert_eq!(end, bytes.len());
    let names: Vec<&str> = r.sections.iter().map(|s| s.name.as_str()).collect();
    for want in ["type", "import", "function", "memory", "export", "code", "data", "name"] {
        assert!(names.contains(&want), "no {want} section in {names:?}");
    }

    assert!(r.has_names);
    let named: Vec<(&str, &str, &str)> =
        r.funcs.iter().map(|f| (f.symbol.as_deref().unwrap(), f.name.as_str(), f.owner.as_str())).collect();
    assert_eq!(
        named,
        [
            ("_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write", "core"),
            // No function of the crate: the start-up is wasi-libc's, as in a std module.
            ("__main_void", "__main_void", "wasi-libc (libc.a), calling std's main"),
            ("_start", "_start", "wasi-libc (crt1-command.o)"),
        ]
    );
    assert_eq!(r.funcs[0].func_index, 1, "function indices count the imported one first");
}

/// The start-up names are the crate's where it is linked, and wasi-libc's
/// and std's in a module without it (an official twin's `size --explain`
/// put them under subako_tiny).
#[test]
fn start_up_names_are_the_crate_s_only_where_it_is_linked() {
    let owners = |wat: &str| -> Vec<(String, String)> {
        size(&wat::parse_str(wat).unwrap()).unwrap().funcs.into_iter().map(|f| (f.name, f.owner)).collect()
    };
    let start =
        r#"(func $__main_void) (func $__wasi_init_tp) (func $__wasm_call_dtors) (func $__rustc::rust_begin_unwind)"#;
    let ours = owners(&format!("(module {start} (func $_ZN11subako_tiny8protocol10serve_line17h1a2b3c4d5e6f7a8bE))"));
    let theirs = owners(&format!("(module {start} (func $_ZN3std2rt10lang_start17h1a2b3c4d5e6f7a8bE))"));
    let owner_of = |list: &[(String, String)], name: &str| list.iter().find(|(n, _)| n == name).unwrap().1.clone();
    assert_eq!(owner_of(&ours, "__main_void"), "subako_tiny (main!: the serve loop)");
    assert_eq!(owner_of(&theirs, "__main_void"), "wasi-libc (libc.a), calling std's main");
    for name in ["__wasi_init_tp", "__wasm_call_dtors", "__rustc::rust_begin_unwind"] {
        assert_eq!(owner_of(&ours, name), "subako_tiny", "{name}");
        assert_ne!(owner_of(&theirs, name), "subako_tiny", "{name}");
    }
    assert_eq!(owner_of(&theirs, "__rustc::rust_begin_unwind"), "std");
}

#[test]
fn owners_follow_the_first_path_and_the_fixed_names() {
    assert_eq!(owner("<subako_tiny::platform::heap::Heap as core::alloc::global::GlobalAlloc>::alloc"), "subako_tiny");
    assert_eq!(owner("dlmalloc::dlmalloc::Dlmalloc<A>::free"), "dlmalloc");
    assert_eq!(owner("__rustc::__rust_alloc"), "global allocator (inlined into its entry points)");
    assert_eq!(owner("alloc::alloc::realloc"), "global allocator (inlined into its entry points)");
    assert_eq!(owner("alloc::alloc::handle_alloc_error"), "alloc");
    assert_eq!(owner("__rustc::rust_begin_unwind"), "subako_tiny");
    assert_eq!(owner("memcmp"), "wasi-libc (libc.a)");
    assert_eq!(owner("strlen"), "C (wasi-libc, compiler-rt)");
    // Legacy and v0 manglings, hashes and crate disambiguators dropped.
    assert_eq!(
        demangle("_ZN11subako_tiny8protocol10serve_line17h1a2b3c4d5e6f7a8bE"),
        "subako_tiny::protocol::serve_line"
    );
    assert_eq!(demangle("_RNvCs1234_7mycrate3foo"), "mycrate::foo");
    assert_eq!(demangle("memcmp"), "memcmp");
}

#[test]
fn size_refuses_what_is_not_a_module() {
    assert!(size(b"hello").unwrap_err().to_string().contains("not a WebAssembly module"));
    let mut cut = module_bytes();
    cut.truncate(cut.len() - 3);
    assert!(size(&cut).unwrap_err().to_string().contains("not a valid WebAssembly module"));
}

/// A package's flags given with a module alone are refused, naming them
/// (review 71: passed over, exit 0).
#[test]
fn size_of_a_module_refuses_the_flags_of_a_package() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("known.wasm");
    std::fs::write(&path, module_bytes()).unwrap();
    let out = run_size(&path, &["--check", "--tool", "greet", "--then", "greet", "{}", "--json-out", "o.json"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("build, call or report on a package: --check, --json-out, --tool, --then; give --manifest-path"),
        "{err}"
    );
    assert!(run_size(&path, &["--json"]).status.success());
}

fn run_size(path: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_subako-tiny")).arg("size").arg(path).args(args).output().unwrap()
}

#[test]
fn the_cli_prints_the_same_as_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("known.wasm");
    std::fs::write(&path, module_bytes()).unwrap();

    let out = run_size(&path, &["--json", "--explain"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bytes"], module_bytes().len());
    assert_eq!(v["functions"], 3);
    assert_eq!(v["imported_functions"], 1);
    assert_eq!(v["initial_pages"], 3);
    assert_eq!(v["code_bytes"], 15);
    assert_eq!(v["data_bytes"], 11);
    assert_eq!(v["module"], path.display().to_string());
    // Largest first; owners summed.
    let funcs: Vec<(&str, u64)> = v["funcs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["name"].as_str().unwrap(), f["size"].as_u64().unwrap()))
        .collect();
    assert_eq!(funcs, [("__main_void", 6), ("_start", 5), ("core::fmt::write", 3)]);
    assert_eq!(v["owners"][0]["owner"], "wasi-libc (libc.a), calling std's main");
    assert_eq!(v["owners"][2]["owner"], "core");
    assert_eq!(v["owners"][2]["bytes"], 3);

    let out = run_size(&path, &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(": code 15 bytes in 3 functions (1 imported), data 11 bytes; starts at 3 page(s)"), "{text}");
    assert!(text.contains("wasi_snapshot_preview1.fd_write (func)"), "{text}");
    assert!(!text.contains("largest"), "the function list is for --explain: {text}");
    let text = String::from_utf8(run_size(&path, &["--explain", "--top", "1"]).stdout).unwrap();
    assert!(text.contains("largest 1 functions:"), "{text}");
    // --top bounds the list, not the crate totals.
    let list = &text[text.find("largest").unwrap()..text.find("std routines").unwrap()];
    assert!(list.contains("      6  __main_void") && !list.contains("core::fmt::write"), "{text}");
    // The advisor names the formatting routine, attributed to no crate of the
    // standard library's or the crate's: the module's own code calls it.
    assert!(text.contains("format! and core::fmt") && text.contains("instead: text!"), "{text}");
    assert!(text.contains("  core                                        3          1  21.4%"), "{text}");

    // The module after --explain, as an author types it: the same report.
    let cli = || Command::new(env!("CARGO_BIN_EXE_subako-tiny"));
    let after = cli().args(["size", "--explain", "--top", "1"]).arg(&path).output().unwrap();
    assert!(after.status.success(), "{}", String::from_utf8_lossy(&after.stderr));
    assert_eq!(String::from_utf8(after.stdout).unwrap(), text);
    let none = cli().args(["size", "--explain"]).output().unwrap();
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("give MODULE.wasm, or --manifest-path PATH"));

    let bad = dir.path().join("bad.wasm");
    std::fs::write(&bad, "not wasm").unwrap();
    let out = run_size(&bad, &["--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.wasm: not a WebAssembly module"));
    let out = run_size(&path, &["--bogus", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unexpected argument '--bogus'"));
}

#[test]
fn explain_on_a_stripped_module_says_the_advisor_could_not_look() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stripped.wasm");
    // No identifiers: no name section, as a stripped release build.
    std::fs::write(&path, wat::parse_str(r#"(module (memory (export "memory") 1) (func (export "_start")))"#).unwrap())
        .unwrap();
    let out = run_size(&path, &["--explain"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("cheaper equivalent: not looked for") && text.contains("CARGO_PROFILE_RELEASE_STRIP=false"),
        "{text}"
    );
    assert!(!text.contains("cheaper equivalent: none"), "{text}");
}

/// Data laid out as wasm-ld lays it (one `.rodata`, each constant's bytes
/// after the last), with every reference known: the package's answers
/// (read inside as well as at their start), an error text (and a char
/// compared with a number that happens to be an address in it), a table read
/// through a load's offset (holding an address in the error text, followed by
/// no length that fits: a char pair, not a `&str`), a panic location, and its
/// file name, which only that location points at.
const DATA_MODULE: &str = r#"(module
  (memory 1)
  (func $_ZN11subako_tiny8protocol10serve_line17h0123456789abcdefE (result i32)
    i32.const 1024 i32.const 1040 i32.add)
  (func $_ZN6mytool3add17h0123456789abcdefE (result i32)
    i32.const 1113)
  (func $_ZN11subako_tiny5table17h0123456789abcdefE (param i32) (result i32)
    local.get 0 i32.load8_u offset=1125)
  (func $_ZN4core9panicking5panic17h0123456789abcdefE (result i32)
    i32.const 1136)
  (func $_ZN4core7unicode6lookup17h0123456789abcdefE (param i32) (result i32)
    local.get 0 i32.const 1120 i32.lt_u)
  (data (i32.const 1024)
    ",\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/serverInfo\"}}"
    "{\n  \"abi\": 1\n}\n"
    "no such file"
    "\01\02\03" "\5d\04\00\00" "\f3\1e\01\00"
    "\78\04\00\00\05\00\00\00"
    "/r.rs"))"#;

#[test]
fn data_is_cut_where_code_and_data_refer_to_it() {
    let bytes = wat::parse_str(DATA_MODULE).unwrap();
    let mut r = size(&bytes).unwrap();
    assert!(r.pieces.is_empty(), "size cut the data before anything asked it to");
    r.cut_data(&bytes);
    let mut pieces: Vec<_> = r.pieces.iter().collect();
    pieces.sort_by_key(|p| p.address);
    let got: Vec<(u64, usize, &str, String, &str)> =
        pieces.iter().map(|p| (p.address, p.size, p.owner.as_str(), p.read_by(&r.funcs), p.preview.as_str())).collect();
    let answers = "the package (main!: its tools' names, descriptions and schemas)";
    assert_eq!(
        got,
        [
            // 74 bytes of answers and the 15 of the manifest that closes
            // them: one piece, though serve_line also reads inside it.
            (
                1024,
                89,
                answers,
                "main! (initialize, tools/list, the manifest)".into(),
                "\",\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcon\"…"
            ),
            (1113, 12, "mytool", "mytool::add".into(), r#""no such file""#),
            // The table, up to the next address named: the address inside it
            // has no length after it, so it does not cut the error text.
            (1125, 11, "subako_tiny", "subako_tiny::table".into(), "(table or numbers)"),
            (1136, 8, "core", "core::panicking::panic".into(), "(table or numbers)"),
            // Owned through the location that points at it.
            (1144, 5, "core", "a panic location's file name, for core::panicking::panic".into(), r#""/r.rs""#),
        ]
    );
    assert_eq!(r.pieces.iter().map(|p| p.size).sum::<usize>(), r.data_bytes);
    // Largest first, and the text of --explain names them.
    assert_eq!(r.pieces[0].address, 1024);
    let text = r.to_text(true, 10);
    assert!(text.contains("data by crate (125 bytes"), "{text}");
    let line = text.lines().find(|l| l.starts_with("   12  ")).unwrap_or_else(|| panic!("no 12-byte piece: {text}"));
    assert_eq!(line.split_whitespace().collect::<Vec<_>>(), ["12", "\"no", "such", "file\"", "mytool::add"]);
    // A panic location is named however small, past the largest pieces
    // too (review 56: the guide says to look for them here).
    let text = r.to_text(true, 2);
    assert!(!text.contains("a panic location's file name"), "{text}");
    let (_, places) =
        text.split_once("\npanic locations (1 file name, ").unwrap_or_else(|| panic!("no panic locations: {text}"));
    let line = places.lines().find(|l| l.contains("/r.rs")).unwrap_or_else(|| panic!("no /r.rs: {text}"));
    assert_eq!(line.split_whitespace().collect::<Vec<_>>(), ["\"/r.rs\"", "core::panicking::panic"]);
}
