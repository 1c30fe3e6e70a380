//! Numbers: integers written by the crate read back through `as_i64` and
//! `as_u64`; floats written by `JsonWriter::float` read back to the same
//! `f64` and match serde_json's text; number text reads as serde_json reads it,
//! and every JSON number as core's `str::parse::<f64>` reads it, bit for bit.
#![no_main]

use subako_tiny::__test::json_num as num;
use subako_tiny::JsonWriter;

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
    if let (Ok(ours), Ok(theirs)) = (subako_tiny::json::parse(rest), serde_json::from_slice::<serde_json::Value>(rest))
        && let serde_json::Value::Number(_) = theirs
    {
        subako_tiny_fuzz::same(ours, &theirs, &mut String::from("$"));
    }
    // Any JSON number, in range or not, reads as core's parser reads it,
    // bit for bit: as text, and spelled out of the same bytes as digits
    // (which reaches long mantissas and far exponents sooner).
    if let Ok(ours) = subako_tiny::json::parse(rest)
        && ours.kind() == subako_tiny::json::Kind::Number
    {
        same_as_core(ours.raw());
    }
    same_as_core(&spelled(rest));
});

/// Asserts that JSON number `text` reads as `str::parse::<f64>` reads it:
/// `num::parse_f64` bit for bit, infinities included; `Value::as_f64` the
/// same where that is finite, and `None` past f64's range (as serde_json
/// refuses such a number).
fn same_as_core(text: &[u8]) {
    let text = std::str::from_utf8(text).expect("number text is ASCII");
    let theirs: f64 = text.parse().expect("core reads every JSON number");
    let ours = subako_tiny::num::parse_f64(text).expect("a JSON number reads as f64");
    assert_eq!(ours.to_bits(), theirs.to_bits(), "{text}: ours {ours:e}, core {theirs:e}");
    let value = subako_tiny::json::parse(text.as_bytes()).expect("number text is JSON");
    match value.as_f64() {
        Some(x) => assert_eq!(x.to_bits(), theirs.to_bits(), "{text}: as_f64 {x:e}, core {theirs:e}"),
        None => assert!(theirs.is_infinite(), "{text}: as_f64 refused a finite {theirs:e}"),
    }
    assert_eq!(value.as_f64().is_some(), theirs.is_finite(), "{text}");
}

/// A JSON number spelled from arbitrary bytes: the first picks a sign, where
/// the point goes and an exponent (−400 to 400, or none); every other byte
/// is a digit (its value mod 10), runs of a repeated byte standing for many
/// digits so that short inputs reach the 800 digits that decide halfway
/// cases.
fn spelled(bytes: &[u8]) -> Vec<u8> {
    let Some((&control, rest)) = bytes.split_first() else {
        return b"0".to_vec();
    };
    let mut digits = Vec::new();
    for pair in rest.chunks(2) {
        let digit = b'0' + pair[0] % 10;
        // A byte with its top bit set repeats the digit (up to 64 times).
        let times = match pair.get(1) {
            Some(&r) if r >= 0x80 => (r & 0x3F) as usize + 1,
            Some(&r) => {
                digits.push(digit);
                digits.push(b'0' + r % 10);
                continue;
            }
            None => 1,
        };
        digits.extend(std::iter::repeat_n(digit, times));
    }
    // JSON: no leading zeros in the integer part.
    let first = digits.iter().position(|&d| d != b'0').unwrap_or(digits.len());
    let digits = &digits[first..];
    let mut text = Vec::new();
    if control & 1 == 1 {
        text.push(b'-');
    }
    if digits.is_empty() {
        text.push(b'0');
    } else {
        // The point after `point` digits, or none.
        let point = (control as usize >> 1 & 7) * digits.len() / 8;
        if point == 0 {
            text.extend_from_slice(digits);
        } else {
            text.extend_from_slice(&digits[..point]);
            text.push(b'.');
            text.extend_from_slice(&digits[point..]);
        }
    }
    if control >> 4 != 0 {
        // An exponent: from the control byte and the count of digits, so
        // that long mantissas land near both ends of f64's range.
        let exp = ((control >> 4) as i64 - 8) * 50 - digits.len() as i64 / 2;
        text.extend_from_slice(format!("e{exp}").as_bytes());
    }
    text
}
