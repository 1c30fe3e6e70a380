//! A file of more than 128 MiB is written whole and read whole in real
//! wasmtime, on a real directory preopened as `/volume/tmp`. wasmtime's
//! WASI refuses one read or write of a buffer past 128 MiB with ENOMEM
//! (its "hostcall fuel"), so the crate hands the platform a file's bytes
//! a part at a time: before it did, `fs::read` of a 113 MiB file and
//! `fs::write` of 128 MiB answered "not enough memory" (review 41).

use serde_json::json;
use subako_tiny_e2e::probe_package;
use subako_tiny_runner::{CallOptions, Module, call};

/// Larger than 128 MiB, and a read's buffer (an eighth more) larger still.
const MIB: usize = 130;

const PROBE: &str = r##"#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
extern crate alloc;
use subako_tiny::fs;
use subako_tiny::prelude::*;

const PATH: &str = "/volume/tmp/big.txt";

/// `mib` MiB of lines of 64 bytes, each ending in a newline.
fn write_big(args: &Args<'_>) -> Result<Reply, ToolError> {
    let mib = args.int("mib", 1, 200)? as usize;
    let mut bytes = alloc::vec![b'x'; mib << 20];
    for line in bytes.chunks_mut(64) {
        if let Some(last) = line.last_mut() {
            *last = b'\n';
        }
    }
    fs::write(PATH, &bytes)?;
    Ok(Reply::object(|o| o.field("bytes", bytes.len() as u64)))
}

/// The file's length and its newlines.
fn read_big(_: &Args<'_>) -> Result<Reply, ToolError> {
    let bytes = fs::read(PATH)?;
    let lines = bytes.iter().filter(|&&b| b == b'\n').count();
    Ok(Reply::object(|o| o.field("bytes", bytes.len() as u64).field("lines", lines as u64)))
}

const PACKAGE: Package = Package::new("probe", "0.1.0", "A large file.", &[
    Tool::new("write_big", "Writes the file.", r#"{"type": "object", "properties": {"mib": {"type": "integer"}}, "required": ["mib"]}"#, write_big),
    Tool::new("read_big", "Reads the file.", r#"{"type": "object", "properties": {}}"#, read_big),
]);
subako_tiny::main!(PACKAGE);
"##;

#[test]
fn a_file_past_128_mib_is_written_and_read_whole() {
    let module = Module::from_file(probe_package("probe-large-files", PROBE)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let opts = CallOptions { tmp_dir: Some(tmp.path().to_path_buf()), ..CallOptions::default() };
    let bytes = (MIB << 20) as u64;

    let written = call(&module, "write_big", json!({"mib": MIB}), &opts).unwrap().expect_ok().clone();
    assert_eq!(written.get("isError"), None, "{written}");
    assert_eq!(written["structuredContent"]["bytes"], json!(bytes));
    let on_disk = std::fs::read(tmp.path().join("big.txt")).unwrap();
    assert_eq!(on_disk.len() as u64, bytes);
    assert!(on_disk.chunks(64).all(|line| line[..63].iter().all(|&b| b == b'x') && line[63] == b'\n'));
    drop(on_disk);

    let read = call(&module, "read_big", json!({}), &opts).unwrap().expect_ok().clone();
    assert_eq!(read.get("isError"), None, "{read}");
    assert_eq!(read["structuredContent"], json!({"bytes": bytes, "lines": bytes / 64}));
}
