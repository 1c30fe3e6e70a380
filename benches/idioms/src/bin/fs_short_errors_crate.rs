//! A file's error worded by `FsError::short_message()`: an errno by its
//! number, so none of the errno words.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> String {
        match subako_tiny::fs::read(name) {
            Ok(bytes) => String::from(if bytes.is_empty() { "empty" } else { "read" }),
            Err(e) => e.short_message(),
        }
    }
}
