//! A local stand-in for the Subako worker: runs Subako function modules (WASI
//! preview 1 command modules speaking MCP over stdio) in real wasmtime, with the
//! platform's limits, crash rules, upload checks and `subako_http` host.
//!
//! The crate's own end-to-end tests and the `subako-tiny` CLI both sit on this
//! library, so what a test asserts is what an author sees locally.

mod advisor;
mod bench;
mod bundle;
mod call;
mod check;
mod crash;
mod data;
mod error;
mod exec;
mod host;
mod http;
mod manifest;
mod module;
mod package;
mod recipe;
mod rpc;
mod size;
mod text;

pub use advisor::{Advice, RULES, Rule, advise, direct_calls};
pub use bench::{
    BenchFigures, BenchOptions, BenchReport, CallFigures, CompileTimes, GROWTH_SIZES, GrowthFigures, GrowthKind,
    GrowthOptions, GrowthProbe, GrowthReport, JSONL_SIZES, JsonlProbe, JsonlWorkload, KIB, MIB, bench,
    callgrind_compile_child, compile_times, growth,
};
pub use bundle::{BundleReport, bundle};
pub use call::{CallOptions, CallOutcome, IntoArgs, LinkedFile, call, has_assets};
pub use check::{CheckReport, Tool, check};
pub use crash::Crash;
pub use data::Piece;
pub use exec::{Exit, Module, RunOptions, RunOutput, Served, run, serve};
pub use host::HttpConfig;
pub use manifest::{Manifest, manifest, package_name};
pub use package::{
    CostRow, Explained, FeatureCosts, Measure, Meta, Package, PackageOptions, PackageReport, Part, Row, Selection,
    Variant, advice_text, compare, explain, feature_costs, measure_package, sample_args,
};
pub use recipe::{BUILD_RS, WASMTIME_VERSION, link_args};
pub use rpc::{PROTOCOL_VERSION, meta, request_line};
pub use size::{DataSegment, Func, Section, SizeReport, demangle, owner, size};
pub use text::thousands;

pub use error::Error;

/// Writes to stdout as `print!` does, except that a reader which has gone
/// (a pipe closed early, as `subako-tiny call … | head` leaves it) ends
/// the program quietly and successfully rather than with a panic.
#[doc(hidden)]
pub fn print_out(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("subako-tiny: writing to stdout: {e}");
        std::process::exit(1);
    }
}

/// `print!` through [`print_out`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::print_out(format_args!($($arg)*))
    };
}

/// `println!` through [`print_out`].
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::print_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}
