//! The crate's promise of no `core::fmt` and no formatted panic on its
//! default paths, checked in the module itself: hello, built as the README
//! builds it but with its name section kept (`CARGO_PROFILE_RELEASE_STRIP=
//! false`), with each allocator, holds no function of `core::fmt` and not
//! `core::panicking::panic_fmt`, by the runner's `size` explain (demangled
//! names); every other example holds no function of `core::fmt`. A probe
//! package that formats a number shows the check finds `core::fmt` where
//! it is.

use std::path::{Path, PathBuf};

use subako_tiny_e2e::{build_unstripped, crate_root, examples, probe_package_with};

/// The functions of the module at `path` that break the promise, by name.
fn formatting(path: &Path) -> Vec<String> {
    let report = subako_tiny_runner::size(&std::fs::read(path).unwrap()).unwrap();
    assert!(report.has_names, "{} has no name section: the check would see nothing", path.display());
    assert!(report.funcs.len() > 20, "{}: {} functions", path.display(), report.funcs.len());
    report
        .funcs
        .iter()
        .map(|f| f.name.clone())
        .filter(|name| {
            name.starts_with("core::fmt::")
                || name.contains(" as core::fmt::")
                || name.starts_with("<core::fmt::")
                || name == "core::panicking::panic_fmt"
        })
        .collect()
}

#[test]
fn hello_holds_no_core_fmt_and_no_panic_fmt_with_either_allocator() {
    let root = crate_root();
    for (dir, features) in [
        ("default", &["-p", "subako-tiny", "--example", "hello"][..]),
        (
            "lean",
            &[
                "-p",
                "subako-tiny",
                "--example",
                "hello",
                "--no-default-features",
                "--features",
                "lean-alloc,panic-handler",
            ],
        ),
    ] {
        let module = build_unstripped(dir, &root, features).join("examples/hello.wasm");
        let found = formatting(&module);
        assert!(found.is_empty(), "hello ({dir}) links core::fmt or panic_fmt: {found:#?}");
    }
}

/// Every example (each API it calls: files, HTTP, PNG, case mapping,
/// sorting, the typed layers) holds no function of `core::fmt` (review 99:
/// the check held hello alone). A panic path the compiler could not rule
/// out (an `expect`, a `Vec` past `isize::MAX`) enters the panic handler
/// through `panic_fmt`, with a message the handler does not format unless
/// `panic-message` is on; that entry is allowed here, its formatting is not.
#[test]
fn every_example_holds_no_core_fmt() {
    let root = crate_root();
    let features: Vec<&str> = examples().iter().flat_map(|(_, f)| f.iter().copied()).collect();
    let mut args = vec!["-p", "subako-tiny", "--examples"];
    let joined = features.join(",");
    if !features.is_empty() {
        args.extend(["--features", &joined]);
    }
    let dir = build_unstripped("every-example", &root, &args).join("examples");
    let mut found = Vec::new();
    for (example, _) in examples() {
        let names: Vec<String> = formatting(&dir.join(format!("{example}.wasm")))
            .into_iter()
            .filter(|name| name != "core::panicking::panic_fmt")
            .map(|name| format!("{example}: {name}"))
            .collect();
        found.extend(names);
    }
    assert!(found.is_empty(), "examples link core::fmt: {found:#?}");
}

/// Builds a one-tool probe package (`half`, reading the float `x`) whose
/// tool returns `reply` (an expression of `x`), the name section kept.
fn probe(dir_name: &str, reply: &str) -> PathBuf {
    probe_with(dir_name, reply, &[])
}

/// [`probe`], built with `cargo_args` added.
fn probe_with(dir_name: &str, reply: &str, cargo_args: &[&str]) -> PathBuf {
    probe_package_with(
        dir_name,
        &r##"#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
extern crate alloc;
use subako_tiny::{Args, Package, Reply, Tool, ToolError};
fn half(args: &Args<'_>) -> Result<Reply, ToolError> {
    let x = args.float("x")? / 2.0;
    Ok(REPLY)
}
const PACKAGE: Package = Package::new("probe", "0.1.0", "Formats.", &[Tool::new(
    "half",
    "Halves.",
    r#"{"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}"#,
    half,
)]);
subako_tiny::main!(PACKAGE);
"##
        .replace("REPLY", reply),
        cargo_args,
    )
}

#[test]
fn the_check_finds_core_fmt_in_a_tool_that_formats() {
    let module = probe("probe", "Reply::text(&alloc::format!(\"{}\", x))");
    let found = formatting(&module);
    assert!(found.iter().any(|name| name.starts_with("core::fmt::")), "the probe's format! was not found: {found:#?}");
}

/// With `panic-message`, the panic handler reads a plain message and cuts
/// it without `core::fmt` (review 56's fix cut it with a `str` slice at
/// first, whose panic formats: +7.5 KB in files): a tool that panics with
/// a literal holds no `core::fmt` function.
#[test]
fn the_panic_message_handler_links_no_core_fmt() {
    let module = probe_with(
        "probe-panic-message",
        "if x > 1.0 { panic!(\"too large\") } else { Reply::text(\"fine\") }",
        &["--features", "subako-tiny/panic-message"],
    );
    let found: Vec<String> =
        formatting(&module).into_iter().filter(|name| name != "core::panicking::panic_fmt").collect();
    assert!(found.is_empty(), "the panic-message handler links core::fmt: {found:#?}");
}

/// `text::fixed`, the crate's `{:.2}`, links neither `core::fmt` nor a
/// panic path of its own: the probe that writes `fixed(x, 2)` holds no
/// `core::panicking` function that its twin writing `x` plainly lacks.
#[test]
fn fixed_decimals_link_no_core_fmt_and_no_panic_path() {
    let panics = |module: &Path| -> Vec<String> {
        let report = subako_tiny_runner::size(&std::fs::read(module).unwrap()).unwrap();
        report.funcs.iter().map(|f| f.name.clone()).filter(|name| name.starts_with("core::panicking::")).collect()
    };
    let fixed = probe("probe-fixed", "Reply::text(subako_tiny::text!(subako_tiny::text::fixed(x, 2)).as_str())");
    let plain = probe("probe-plain", "Reply::text(subako_tiny::text!(x).as_str())");
    let found = formatting(&fixed);
    assert!(found.is_empty(), "text::fixed links core::fmt or panic_fmt: {found:#?}");
    let (with, without) = (panics(&fixed), panics(&plain));
    let more: Vec<_> = with.iter().filter(|name| !without.contains(name)).collect();
    assert!(more.is_empty(), "text::fixed links panic paths: {more:#?}");
}

/// `text::clip` links no panic path: its cut is at a byte it found inside
/// the text, which the compiler sees. The twin writes the whole text and a
/// number, so only what the cut adds is counted.
#[test]
fn a_clipped_piece_links_no_panic_path() {
    let panics = |module: &Path| -> Vec<String> {
        let report = subako_tiny_runner::size(&std::fs::read(module).unwrap()).unwrap();
        report.funcs.iter().map(|f| f.name.clone()).filter(|name| name.starts_with("core::panicking::")).collect()
    };
    let clipped = probe(
        "probe-clip",
        "Reply::text(subako_tiny::text!(subako_tiny::text::clip(\"日本語のテキスト\", x as usize)).as_str())",
    );
    let whole = probe("probe-whole", "Reply::text(subako_tiny::text!(\"日本語のテキスト\", x as usize).as_str())");
    assert!(formatting(&clipped).is_empty(), "text::clip links core::fmt or panic_fmt");
    let (with, without) = (panics(&clipped), panics(&whole));
    let more: Vec<_> = with.iter().filter(|name| !without.contains(name)).collect();
    assert!(more.is_empty(), "text::clip links panic paths: {more:#?}");
}
