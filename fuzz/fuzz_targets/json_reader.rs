//! The JSON reader agrees with serde_json on which documents are JSON and on
//! the values it reads from them (see the crate docs for the deliberate
//! differences).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    subako_tiny_fuzz::check_document(data);
});
