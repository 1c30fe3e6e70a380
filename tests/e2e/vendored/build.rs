fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg=-zstack-size=65536");
        if std::env::var("DEBUG").as_deref() == Ok("false") {
            println!("cargo:rustc-link-arg=--strip-debug");
            println!("cargo:rustc-link-arg=--compress-relocations");
        }
    }
}
