//! The probes' common part: examples/hello.rs, with the greeting passed
//! through one statement.
#![no_std]

extern crate alloc;

pub use subako_tiny;

/// A hello module whose greeting says `said(args, name)` (anything that is
/// `AsRef<str>`) in place of the name, `said` being the function the macro
/// is given: the statement whose price is measured.
#[macro_export]
macro_rules! probe {
    ($($said:tt)*) => {
        extern crate alloc;
        #[allow(unused_imports)]
        use alloc::{borrow::ToOwned, string::String, vec, vec::Vec};
        use $crate::subako_tiny::{Args, Package, Reply, Tool, ToolError};

        $($said)*

        fn greet(args: &Args<'_>) -> Result<Reply, ToolError> {
            let name = args.str("name")?;
            let said = said(args, &name);
            Ok(Reply::object(|o| o.text("message", ("Hello, ", AsRef::<str>::as_ref(&said), "!"))))
        }

        pub const PACKAGE: Package = Package::new(
            "hello",
            "0.1.0",
            "Says hello.",
            &[Tool::new(
                "greet",
                "Greet someone by name.",
                r#"{
                    "properties": {"name": {"description": "Who to greet.", "type": "string"}},
                    "required": ["name"],
                    "type": "object"
                }"#,
                greet,
            )
            .output_schema(r#"{"properties": {"message": {"type": "string"}}, "required": ["message"], "type": "object"}"#)],
        );

        $crate::subako_tiny::main!(PACKAGE);
    };
}

/// The `i`th number of a kind a tool writes, for the float-writing probes
/// (benches/floats.sh): `p` prices (two decimals), `c` computed values
/// (17 significant digits, as a mean or a ratio is), anything else whole
/// numbers.
pub fn float_value(kind: u8, i: usize) -> f64 {
    let i = i as f64;
    match kind {
        b'p' => (i * 37.0 % 100_000.0) / 100.0,
        b'c' => (i + 1.0) / 7.0 * 1.1,
        _ => (i + 1.0) * 3.0,
    }
}

/// `n` pseudo-random numbers (a linear congruential generator), for the
/// sorting probes (benches/sort.sh).
pub fn numbers(n: usize) -> alloc::vec::Vec<u64> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            x >> 16
        })
        .collect()
}
