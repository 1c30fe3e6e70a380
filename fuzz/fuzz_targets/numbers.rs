//! Numbers: integers written by `json::num` read back through `as_i64` and
//! `as_u64`; floats written by `JsonWriter::float` read back to the same
//! `f64` and match serde_json's text; number text reads as serde_json reads it.
#![no_main]

use subako_tiny::JsonWriter;
use subako_tiny::json::num;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut word = [0u8; 8];
    let n = data.len().min(8);
    word[..n].copy_from_slice(&data[..n]);
    let bits = u64::from_le_bytes(word);

    let mut text = Vec::new();
    num::write_u64(&mut text, bits);
    assert_eq!(text, serde_json::to_vec(&bits).unwrap());
    let mut digits = [0u8; 20];
    assert_eq!(num::u64_digits(bits, &mut digits), &text[..]);
    let value = subako_tiny::json::parse(&text).expect("a u64 is JSON");
    assert_eq!(value.as_u64(), Some(bits));
    assert_eq!(value.as_i64(), i64::try_from(bits).ok());

    let signed = bits as i64;
    text.clear();
    num::write_i64(&mut text, signed);
    assert_eq!(text, serde_json::to_vec(&signed).unwrap());
    let value = subako_tiny::json::parse(&text).expect("an i64 is JSON");
    assert_eq!(value.as_i64(), Some(signed));
    assert_eq!(value.as_u64(), u64::try_from(signed).ok());

    let float = f64::from_bits(bits);
    let mut out = JsonWriter::new();
    out.float(float);
    let written = out.as_bytes();
    assert_eq!(written, serde_json::to_vec(&float).unwrap());
    let value = subako_tiny::json::parse(written).expect("a float is JSON");
    if float.is_finite() {
        assert_eq!(value.as_f64().map(f64::to_bits), Some(bits), "{float}");
    } else {
        assert!(value.is_null());
    }

    // The rest of the input as number text.
    let rest = &data[n..];
    if let (Ok(ours), Ok(theirs)) = (subako_tiny::json::parse(rest), serde_json::from_slice::<serde_json::Value>(rest)) {
        if let serde_json::Value::Number(_) = theirs {
            subako_tiny_fuzz::same(ours, &theirs, &mut String::from("$"));
        }
    }
});
