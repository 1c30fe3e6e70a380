//! `csv::records` beside Python's own reader (`csv.reader`, the `excel`
//! dialect), the reference its docs name: 20,000 random texts of the
//! chars that matter (delimiters, quotes, both line breaks, spaces,
//! Japanese and accented letters), each record and field compared; and
//! the same reader built for wasm32 (the idioms' `csv_crate` probe), run
//! in wasmtime.

mod required;

use std::io::Write as _;
use std::process::{Command, Stdio};

use serde_json::json;
use subako_tiny::csv;
use subako_tiny_e2e::idiom_probes;
use subako_tiny_runner::{CallOptions, Module, call};

const PYTHON: &str = r#"
import csv, io, json, sys
texts = json.load(sys.stdin)
json.dump([[list(csv.reader(io.StringIO(t, newline=""), delimiter=d)) for t in texts] for d in ",;"], sys.stdout)
"#;

#[test]
fn records_are_python_s_on_random_texts() {
    let alphabet = ["a", ",", "\"", "\n", "\r", " ", "東", ";", "é", "\"\""];
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let texts: Vec<String> =
        (0..20_000).map(|_| (0..next(24)).map(|_| alphabet[next(alphabet.len() as u64) as usize]).collect()).collect();
    let child = Command::new("python3").args(["-c", PYTHON]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn();
    let Ok(mut child) = child else {
        required::skip("python", "the reference is Python's csv module, and there is no python3 on the PATH");
        return;
    };
    child.stdin.take().unwrap().write_all(serde_json::to_string(&texts).unwrap().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let python: Vec<Vec<Vec<Vec<String>>>> = serde_json::from_slice(&out.stdout).unwrap();
    for (delimiter, expected) in [b',', b';'].into_iter().zip(python) {
        for (text, expected) in texts.iter().zip(expected) {
            let ours: Vec<Vec<String>> =
                csv::records(text).delimited_by(delimiter).map(|r| r.map(|f| f.into_owned()).collect()).collect();
            assert_eq!(ours, expected, "{text:?} delimited by {:?}", delimiter as char);
        }
    }
}

/// The probe answers `Hello, FIELD!` with the longest field of the name
/// read as CSV: in wasmtime, the field the host reads.
#[test]
fn the_module_reads_the_fields_the_host_reads() {
    let path = idiom_probes(true).into_iter().find(|(name, _)| name == "csv_crate").unwrap().1;
    let module = Module::from_file(&path).unwrap();
    for text in [
        "\u{feff}term,note\r\n\"Tokyo, Japan\",\"say \"\"hi\"\"\"\r\n",
        "a;\"東京\nと大阪\",b",
        "\"unclosed, to the end\r\nof the text",
        "x\"y\"z,\"\"",
    ] {
        let longest = csv::records(text)
            .flatten()
            .fold(String::new(), |longest, f| if f.len() > longest.len() { f.into_owned() } else { longest });
        let outcome = call(&module, "greet", json!({ "name": text }), &CallOptions::default()).unwrap();
        let answer = outcome.expect_ok();
        assert_eq!(answer["structuredContent"]["message"], format!("Hello, {longest}!"), "{text:?}");
    }
}
