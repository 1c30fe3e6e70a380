//! The link arguments of the repository's build.rs (and the README's), for
//! the probes: a 64 KiB stack, and call targets at their real length.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bins=-zstack-size=65536");
        if std::env::var("DEBUG").as_deref() == Ok("false") {
            println!("cargo:rustc-link-arg-bins=--strip-debug");
            println!("cargo:rustc-link-arg-bins=--compress-relocations");
        }
    }
}
