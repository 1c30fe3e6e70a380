//! The recipe a package follows to build small modules: the `build.rs` of
//! the README's "Use it in your package", embedded from the README when the
//! runner is built (`build.rs`), so its text exists once.

/// The `build.rs` a package copies (the README's block, verbatim).
pub const BUILD_RS: &str = include_str!(concat!(env!("OUT_DIR"), "/package_build.rs"));

/// The wasmtime the runner is built on.
pub const WASMTIME_VERSION: &str = wasmtime_environ::VERSION;

/// The link arguments [`BUILD_RS`] gives a wasm32 build (`debug`: a
/// profile with debug info, which gets only those outside its `DEBUG` test).
pub fn link_args(debug: bool) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut in_release_only = false;
    for line in BUILD_RS.lines() {
        if line.contains("\"DEBUG\"") {
            in_release_only = true;
        }
        if let Some(rest) = line.split("cargo:rustc-link-arg=").nth(1)
            && let Some(arg) = rest.split('"').next()
            && !(debug && in_release_only)
        {
            out.push(arg);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_arguments_are_read_from_the_recipe() {
        assert_eq!(link_args(false), ["-zstack-size=65536", "--strip-debug", "--compress-relocations"]);
        assert_eq!(link_args(true), ["-zstack-size=65536"]);
    }
}
