// The README's one line for a vendoring package: a 64 KiB stack.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg=-zstack-size=65536");
    }
}
