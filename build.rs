//! Link settings on wasm32. The library one (`-lc`) travels with the crate
//! to every package that uses it; the link arguments apply to this crate's
//! own examples only, so a package that vendors the crate copies them into
//! its own `build.rs` (see the README): link arguments cannot travel from a
//! dependency.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        // wasi-libc, which the target ships (rustc already links its
        // `crt1-command.o`), for what that start-up code and LLVM call:
        // `__wasi_proc_exit`, and `memcmp`/`bcmp` for slice and string `==`.
        // Taken from the archive they stay internal to the module; defined
        // by this crate they would be exported (rustc exports every
        // `#[no_mangle]` function of a wasm executable), each export a
        // trampoline for wasmtime to compile. wasm-ld takes only the
        // members something calls (hello: `memcmp` and `__wasi_proc_exit`,
        // 80 bytes of code).
        if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("wasi") {
            println!("cargo:rustc-link-lib=c");
        }
        // The rest is for this crate's own examples. Cargo refuses an
        // `-examples` instruction from a package that has none, and a
        // vendored copy has none (the examples are not in `include`).
        if !std::path::Path::new("examples").is_dir() {
            return;
        }
        // A 64 KiB stack instead of rustc's 1 MiB: the reader never recurses,
        // so this is plenty, and the module starts at 2 pages instead of 17.
        println!("cargo:rustc-link-arg-examples=-zstack-size=65536");
        // wasm-ld leaves every call target and static address in the code
        // padded to five bytes, room to patch it in place; this writes each
        // at its real length. lld allows it
        // only without DWARF, so only for profiles without debug info, and
        // `--strip-debug` drops any that std's objects bring (names stay).
        if std::env::var("DEBUG").as_deref() == Ok("false") {
            println!("cargo:rustc-link-arg-examples=--strip-debug");
            println!("cargo:rustc-link-arg-examples=--compress-relocations");
        }
    }
}
