//! Link settings for this crate's own examples on wasm32. A package that
//! vendors the crate copies the same lines into its own `build.rs` (see the
//! README): link arguments cannot travel from a dependency.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        // A 64 KiB stack instead of rustc's 1 MiB: the reader never recurses,
        // so this is plenty, and the module starts at 2 pages instead of 17.
        println!("cargo:rustc-link-arg-examples=-zstack-size=65536");
        // wasm-ld leaves every call target and static address in the code
        // padded to five bytes, room to patch it in place; this writes each
        // at its real length (hello: 16,969 → 15,406 bytes). lld allows it
        // only without DWARF, so only for profiles without debug info, and
        // `--strip-debug` drops any that std's objects bring (names stay).
        if std::env::var("DEBUG").as_deref() == Ok("false") {
            println!("cargo:rustc-link-arg-examples=--strip-debug");
            println!("cargo:rustc-link-arg-examples=--compress-relocations");
        }
    }
}
