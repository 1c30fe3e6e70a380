//! Link settings for this crate's own examples on wasm32. A package that
//! vendors the crate copies the same line into its own `build.rs` (see the
//! README): link arguments cannot travel from a dependency.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        // A 64 KiB stack instead of rustc's 1 MiB: the reader never recurses,
        // so this is plenty, and the module starts at 2 pages instead of 17.
        println!("cargo:rustc-link-arg-examples=-zstack-size=65536");
    }
}
