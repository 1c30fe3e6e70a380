//! `float::sin`, `exp`, `powf`… give std's answers bit for bit on wasm32:
//! the same inputs through each in a module on the crate and through
//! std's `f64` methods in a std program, both built for wasm32-wasip1 and
//! run in wasmtime. Both are wasi-libc's routines (std's methods call
//! them there), so any difference means the crate calls something else.

use subako_tiny_e2e::{build_unstripped, probe_package, request};
use subako_tiny_runner::{Exit, Module, RunOptions, run};

/// The inputs and the lines both programs write, as Rust source: `f64`
/// values from ordinary to extreme, each function's name and the bits of
/// its argument and answer in hex. `$call(name, x, y)` is the one thing
/// that differs between them.
const SHARED: &str = r#"
fn inputs() -> Vec<f64> {
    let mut xs = vec![
        0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 10.0, 100.0, 1e-300, -1e-300, 5e-324, 1e300, -1e300, 1e22, 710.0,
        -745.2, 0.7853981633974483, 1.5707963267948966, 3.141592653589793, 6.283185307179586, 1e6, 123456.789,
        f64::INFINITY, f64::NEG_INFINITY, f64::NAN, f64::MAX, f64::MIN_POSITIVE, 0.9999999999999999,
    ];
    // A fixed scatter over many magnitudes, either sign.
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..400 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let mantissa = (s >> 11) as f64 / (1u64 << 53) as f64;
        let exponent = ((s >> 3) % 64) as i32 - 32;
        let sign = if s & 1 == 1 { -1.0 } else { 1.0 };
        let mut scale = 1.0;
        for _ in 0..exponent.unsigned_abs() {
            scale = if exponent < 0 { scale / 2.0 } else { scale * 2.0 };
        }
        xs.push(sign * mantissa * scale);
    }
    xs
}

fn lines() -> String {
    let xs = inputs();
    let mut out = String::new();
    let mut line = |name: &str, x: f64, r: f64| {
        out.push_str(name);
        for v in [x, r] {
            out.push(' ');
            let bits = v.to_bits();
            for k in (0..16).rev() {
                out.push(b"0123456789abcdef"[(bits >> (4 * k) & 15) as usize] as char);
            }
        }
        out.push('\n');
    };
    for (i, &x) in xs.iter().enumerate() {
        let y = xs[(i * 7 + 3) % xs.len()];
        line("sin", x, $call(sin, x));
        line("cos", x, $call(cos, x));
        line("tan", x, $call(tan, x));
        line("asin", x, $call(asin, x));
        line("acos", x, $call(acos, x));
        line("atan", x, $call(atan, x));
        line("exp", x, $call(exp, x));
        line("exp2", x, $call(exp2, x));
        line("ln", x, $call(ln, x));
        line("log2", x, $call(log2, x));
        line("log10", x, $call(log10, x));
        line("atan2", x, $call2(atan2, x, y));
        line("powf", x, $call2(powf, x, y));
        line("hypot", x, $call2(hypot, x, y));
    }
    out
}
"#;

/// A std program for wasm32-wasip1 that prints [`SHARED`]'s lines with
/// std's methods.
fn std_lines() -> String {
    let dir = tempfile::Builder::new().prefix("subako-std-float").tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"stdfloat\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n",
    )
    .unwrap();
    let shared = SHARED.replace("$call(ln, x)", "x.ln()").replace("$call2(atan2, x, y)", "x.atan2(y)");
    let shared = shared.replace("$call2(powf, x, y)", "x.powf(y)").replace("$call2(hypot, x, y)", "x.hypot(y)");
    let mut shared = shared;
    for name in ["sin", "cos", "tan", "asin", "acos", "atan", "exp", "exp2", "log2", "log10"] {
        shared = shared.replace(&format!("$call({name}, x)"), &format!("x.{name}()"));
    }
    std::fs::write(dir.path().join("src/main.rs"), format!("{shared}\nfn main() {{ print!(\"{{}}\", lines()); }}\n"))
        .unwrap();
    let wasm = build_unstripped("std-float", dir.path(), &[]).join("stdfloat.wasm");
    let output = run(&Module::from_file(&wasm).unwrap(), &RunOptions::default()).unwrap();
    assert!(matches!(output.exit, Exit::Code(0)), "{:?}: {}", output.exit, String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// A package on the crate whose tool answers [`SHARED`]'s lines with
/// `float`'s functions. It takes `vec!` from the prelude alone, as an
/// author does (`extern crate alloc` brings no macros into a no_std
/// crate): without the prelude's it does not build for wasm32 (author
/// trial 38).
fn crate_lines() -> String {
    let shared = SHARED.replace("$call(", "call!(").replace("$call2(", "call2!(");
    let main_rs = format!(
        r##"#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
extern crate alloc;
use subako_tiny::prelude::*;
use subako_tiny::float;
macro_rules! call {{ ($f:ident, $x:expr) => {{ float::$f($x) }} }}
macro_rules! call2 {{ ($f:ident, $x:expr, $y:expr) => {{ float::$f($x, $y) }} }}
{shared}
fn calls(_: &Args<'_>) -> Result<Reply, ToolError> {{
    Ok(Reply::text(&lines()))
}}
const PACKAGE: Package = Package::new("probe", "0.1.0", "Float calls.", &[Tool::new(
    "calls",
    "The lines.",
    r#"{{"type": "object", "properties": {{}}}}"#,
    calls,
)]);
subako_tiny::main!(PACKAGE);
"##
    );
    let wasm = probe_package("probe-float-calls", &main_rs);
    let stdin = request(serde_json::json!(1), "tools/call", serde_json::json!({"name": "calls", "arguments": {}}));
    let output = run(
        &Module::from_file(&wasm).unwrap(),
        &RunOptions { argv: vec!["probe".into()], stdin: stdin.into_bytes(), ..RunOptions::default() },
    )
    .unwrap();
    assert!(matches!(output.exit, Exit::Code(0)), "{:?}: {}", output.exit, String::from_utf8_lossy(&output.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{answer}")).to_string()
}

#[test]
fn floats_functions_are_stds_bit_for_bit_in_wasm() {
    let (ours, std) = (crate_lines(), std_lines());
    assert_eq!(ours.lines().count(), std.lines().count());
    assert!(ours.lines().count() > 6_000, "{} lines", ours.lines().count());
    let differ: Vec<(&str, &str)> = ours.lines().zip(std.lines()).filter(|(a, b)| a != b).take(10).collect();
    assert!(differ.is_empty(), "float's answers differ from std's (ours, std):\n{differ:#?}");
}
