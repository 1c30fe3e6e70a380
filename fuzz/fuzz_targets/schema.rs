//! The schema validator: `rules::check_supported` and `check_tool_schema`
//! never panic on any JSON schema text, and `check_args` never panics on any
//! arguments under a schema `validated!` would accept; a refusal is an
//! `invalid input: /…` message.
//!
//! Input: schema bytes, a 0xFF byte (never in JSON), argument bytes.
#![no_main]

use subako_tiny::__test::{self as rules, check_args};
use subako_tiny::Args;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let (schema, args) = match data.iter().position(|&b| b == 0xff) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &b"{}"[..]),
    };
    // The rules read schemas already known to be JSON, as `Package::new` does.
    if subako_tiny::json::validate(schema).is_err() {
        return;
    }
    let tool = rules::check_tool_schema(schema);
    let supported = rules::check_supported(schema).is_ok();
    if let (Err(fault), Ok(text)) = (tool, std::str::from_utf8(schema)) {
        let _ = fault.explain(text, subako_tiny::__test::BuildMessage::new());
    }
    let tool_ok = tool.is_ok();
    if supported {
        assert!(tool_ok, "a schema validated! takes is one every tool may have");
    }
    let (Ok(schema), true) = (std::str::from_utf8(schema), supported) else { return };
    let Ok(args) = subako_tiny::json::parse(args) else { return };
    let Some(object) = args.as_object() else { return };
    let first = check_args(schema, &Args::new(object));
    if let Err(e) = &first {
        assert!(e.message().starts_with("invalid input: /"), "{}", e.message());
    }
    // Deterministic: the same call, the same answer.
    assert_eq!(first, check_args(schema, &Args::new(object)));
});
