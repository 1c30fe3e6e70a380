//! The whole exchange on arbitrary stdin: every output line is a JSON-RPC
//! 2.0 message, every request with a usable id is answered exactly once
//! with that id, lines are independent, and nothing panics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    subako_tiny_fuzz::check_exchange(&subako_tiny_fuzz::PACKAGE, data);
});
