//! Strings: `Str::to_str` and `Str::eq_str` give serde_json's string, and
//! the writer's escaping is serde_json's, reading back to the same text.
#![no_main]

use subako_tiny::__test::write_escaped;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // The input as the body of a string literal.
    let mut literal = Vec::with_capacity(data.len() + 2);
    literal.push(b'"');
    literal.extend_from_slice(data);
    literal.push(b'"');
    let ours = subako_tiny::json::parse(&literal);
    match serde_json::from_slice::<String>(&literal) {
        Ok(theirs) => {
            let ours = ours.expect("serde_json reads it, so must we");
            let str = ours.as_str().expect("a string");
            assert_eq!(str.raw(), data);
            assert_eq!(str.to_str(), theirs.as_str());
            assert!(str.eq_str(&theirs));
            // Any other text is not equal: one character more, or one less.
            assert!(!str.eq_str(&(theirs.clone() + "x")));
            if let Some(last) = theirs.chars().last() {
                assert!(!str.eq_str(&theirs[..theirs.len() - last.len_utf8()]));
            }
            escapes_as_serde(&theirs);
        }
        Err(e) => assert!(ours.is_err(), "serde_json refuses ({e}) what we read"),
    }
    // Any UTF-8 at all is escaped as serde_json escapes it.
    if let Ok(text) = std::str::from_utf8(data) {
        escapes_as_serde(text);
    }
});

fn escapes_as_serde(text: &str) {
    let mut written = Vec::new();
    write_escaped(&mut written, text.as_bytes());
    assert_eq!(written, serde_json::to_vec(text).unwrap());
    let back = subako_tiny::json::parse(&written).expect("what we write, we read");
    assert_eq!(back.as_str().expect("a string").to_str(), text);
}
