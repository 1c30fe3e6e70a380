//! hello as a real `.wasm` in real wasmtime answers every request of the
//! golden transcript exactly as the same code answers on the host (which
//! `tests/golden.rs` compares with the official SDK), for both allocators.

use std::path::Path;

use subako_tiny_e2e::{Variant, example_variant};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

#[path = "../../../examples/hello.rs"]
mod hello;

/// Each block's stdin, from `tests/golden/hello.transcript`.
fn transcript_stdins() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden/hello.transcript");
    let text = std::fs::read_to_string(path).unwrap();
    text.split("\n\n")
        .map(|block| block.lines().filter_map(|l| l.strip_prefix("> ")).map(|r| format!("{r}\n")).collect::<String>())
        .filter(|stdin| !stdin.is_empty())
        .collect()
}

fn serve(module: &Module, argv: &[&str], stdin: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let options = RunOptions {
        argv: argv.iter().map(|a| a.to_string()).collect(),
        stdin: stdin.to_vec(),
        ..RunOptions::default()
    };
    let output = run(module, &options).unwrap();
    assert!(
        matches!(output.exit, Exit::Code(0)),
        "{:?}\nstderr: {}",
        output.exit,
        String::from_utf8_lossy(&output.stderr)
    );
    (output.stdout, output.stderr)
}

fn answers_like_the_host(variant: Variant) {
    let module = Module::from_file(example_variant("hello", &variant)).unwrap();
    let stdins = transcript_stdins();
    assert!(stdins.len() > 100);
    for stdin in &stdins {
        let (wasm, stderr) = serve(&module, &["hello"], stdin.as_bytes());
        let (host, _) = subako_tiny::execute(&hello::PACKAGE, &["hello"], stdin.as_bytes());
        assert_eq!(String::from_utf8_lossy(&wasm), String::from_utf8_lossy(&host), "for {stdin}");
        assert!(stderr.is_empty(), "{}", String::from_utf8_lossy(&stderr));
    }
    // All of them on one stdin, in one instance.
    let all: String = stdins.concat();
    let (wasm, _) = serve(&module, &["hello"], all.as_bytes());
    let (host, _) = subako_tiny::execute(&hello::PACKAGE, &["hello"], all.as_bytes());
    assert_eq!(wasm, host);
    // The manifest, without reading stdin.
    let (manifest, _) = serve(&module, &["hello", "--subako-manifest"], b"ignored\n");
    assert_eq!(
        String::from_utf8(manifest).unwrap(),
        "{\n  \"abi\": 1,\n  \"name\": \"hello\",\n  \"description\": \"Says hello.\"\n}\n"
    );
}

#[test]
fn hello_wasm_with_dlmalloc_answers_the_transcript() {
    answers_like_the_host(Variant::default());
}

#[test]
fn hello_wasm_with_the_lean_allocator_answers_the_transcript() {
    answers_like_the_host(Variant::lean());
}

#[test]
fn hello_passes_the_upload_check() {
    let bytes = std::fs::read(example_variant("hello", &Variant::default())).unwrap();
    let report = subako_tiny_runner::check(&bytes, None);
    assert!(report.accepted(), "{:?}", report.failures);
    assert_eq!(report.tools.len(), 1);
    assert_eq!(report.tools[0].name, "greet");
}
