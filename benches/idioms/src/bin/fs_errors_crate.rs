//! A file's error worded by `FsError::message()`, as `?` into a
//! `ToolError` words it: the words for every WASI errno.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        match subako_tiny::fs::read(name) {
            Ok(bytes) => String::from(if bytes.is_empty() { "empty" } else { "read" }),
            Err(e) => e.message(),
        }
    }
}
