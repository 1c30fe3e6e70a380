//! One row of the size table: a built module's bytes (as built, after
//! `wasm-opt -Oz`, gzipped), its initial pages, the upload check, and (unless
//! quick) its compile and call times and fuel, with the advisor's lines.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::call::IntoArgs;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::builds::Measure;
use crate::advisor::{Advice, advise};
use crate::bench::{BenchOptions, bench};
use crate::check::check;
use crate::error::read;
use crate::{Error, size};

/// binaryen 108 reads no features section (strip removed it): name them all.
const WASM_OPT_FEATURES: [&str; 7] = [
    "--enable-bulk-memory",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-reference-types",
    "--enable-multivalue",
    "--enable-extended-const",
];

/// One measured module. The JSON keys are those of `size --json`'s rows.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Row {
    /// The binary's or example's name.
    pub example: String,
    /// The allocator its build got (`dlmalloc`, `lean`, `own allocator`,
    /// `-` without the crate), or what the caller labels it.
    pub allocator: String,
    /// The module, relative to the workspace root when inside it.
    pub module: String,
    pub bytes: u64,
    pub wasm_opt_bytes: Option<u64>,
    pub gzip_bytes: Option<u64>,
    pub pages: Option<u64>,
    pub compile_ms: Option<f64>,
    pub call_us: Option<f64>,
    pub call_us_p10: Option<f64>,
    pub call_us_p90: Option<f64>,
    pub call_fuel: Option<u64>,
    pub list_fuel: Option<u64>,
    /// The measured call: its tool and arguments.
    pub tool: Option<String>,
    pub args: Option<Value>,
    /// `None` when the measured call answered; else `isError: …` or `crashed: …`.
    #[serde(default)]
    pub call_problem: Option<String>,
    pub accepted: bool,
    pub failures: Vec<String>,
    pub warnings: Vec<String>,
    #[serde(default)]
    pub budget: Option<u64>,
    /// std routines in the module with a cheaper equivalent.
    #[serde(default)]
    pub advice: Vec<Advice>,
    /// The crate's optional layers in the module (`validated!`'s checker,
    /// the typed layer), read with the advice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<LayerCost>,
}

/// A [`Row`]'s optional layer: its code's bytes and its data's, and the
/// tools behind it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct LayerCost {
    pub layer: String,
    pub bytes: u64,
    #[serde(default)]
    pub data: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
}

impl Row {
    /// Whether the module is over its budget.
    pub fn over_budget(&self) -> bool {
        self.budget.is_some_and(|b| self.bytes > b)
    }
}

/// Measures the module at `path`; `names` is an unstripped build of the same
/// code (for the advisor) and `authors` the crates whose code is the author's.
pub fn measure_row(path: &Path, names: Option<&Path>, authors: &[&str], m: &Measure) -> Result<Row, Error> {
    let data = read(path)?;
    let info = size(&data)?;
    let report = check(&data, m.call.assets_dir.as_deref());
    let mut row = Row {
        bytes: data.len() as u64,
        wasm_opt_bytes: wasm_opt_size(path),
        gzip_bytes: Some(gzip_size(&data)?),
        pages: info.initial_pages,
        accepted: report.accepted(),
        failures: report.failures.clone(),
        warnings: report.warnings.clone(),
        ..Row::default()
    };
    // The tool named, or the first listed (also where the settings name a
    // tool this module does not list: one settings table for every
    // module); arguments given, or made from that tool's input schema
    // (review 80: a named tool was called with {}).
    let listed = |name: &str| report.tools.iter().find(|t| t.name == name);
    let named = m.tool.as_deref().filter(|t| !m.tool_from_settings || listed(t).is_some());
    let args_for = |t: Option<&crate::check::Tool>, given: Option<&Value>| match (given, t) {
        (Some(args), _) => args.clone(),
        (None, Some(t)) => sample_args(&t.input_schema),
        (None, None) => json!({}),
    };
    let (tool, args) = match (named, report.tools.first()) {
        (Some(t), _) => (Some(t.to_string()), args_for(listed(t), m.args.as_ref())),
        (None, Some(first)) => {
            let given = if m.tool.is_some() { None } else { m.args.as_ref() };
            (Some(first.name.clone()), args_for(Some(first), given))
        }
        (None, None) => (None, json!({})),
    };
    // Said, so that a misspelt tool in the settings is not passed over
    // unseen (review 81).
    if let (Some(wanted), None, Some(measured)) = (&m.tool, named, &tool) {
        row.warnings.push(format!(
            "the settings' tool {wanted:?} (package.metadata.subako-tiny.tool) is not one of this module's tools \
             ({}): measured {measured} instead",
            report.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
        ));
    }
    row.tool = tool.clone();
    row.args = tool.as_ref().map(|_| args.clone());
    if let Some(names) = names {
        let bytes = read(names)?;
        let mut named = size(&bytes)?;
        named.cut_data(&bytes);
        row.advice = advise(&bytes, &named, authors);
        row.layers = super::explain::layers(&named.funcs, &named.pieces)
            .into_iter()
            .map(|l| LayerCost {
                layer: l.name.to_string(),
                bytes: l.bytes as u64,
                data: l.data as u64,
                tools: l.tools,
            })
            .collect();
    }
    if !m.quick && row.accepted && tool.is_some() {
        let opts = BenchOptions {
            calls: m.calls,
            compiles: m.compiles,
            tool: tool.clone(),
            args: Some(args.into_args()?),
            then: m.then.iter().map(|(t, a)| Ok((t.clone(), a.into_args()?))).collect::<Result<_, Error>>()?,
            call: m.call.clone(),
            compile_instructions: None,
        };
        let b = bench(path, None, &opts)?.a;
        row.compile_ms = Some(round(b.compile_ms, 2));
        row.call_us = Some(round(b.call_us_median, 1));
        row.call_us_p10 = Some(round(b.call_us_p10, 1));
        row.call_us_p90 = Some(round(b.call_us_p90, 1));
        row.call_fuel = Some(b.call_fuel);
        row.list_fuel = Some(b.list_fuel);
        // The figures are the first call's: only its failure is theirs. A
        // `--then` call that fails is said as its own (review 81: it was
        // told as the measured call's).
        row.call_problem = b.calls.first().and_then(|c| c.problem());
        for (i, c) in b.calls.iter().enumerate().skip(1) {
            if let Some(p) = c.problem() {
                row.warnings.push(then_failed(i, &c.tool, &p));
            }
        }
    }
    Ok(row)
}

/// A `--then` call's failure, named by its place in the sequence as
/// `bench` names it (call 1 is the measured one).
fn then_failed(i: usize, tool: &str, problem: &str) -> String {
    let fix = crate::bench::missing_grant(problem).unwrap_or("see it with subako-tiny call and its --then");
    format!(
        "call {} (--then {tool}), after the measured call, answered {problem}: the measured call's figures are its own, \
         but the sequence did not run as written ({fix})",
        i + 1
    )
}

fn round(x: f64, digits: i32) -> f64 {
    let p = 10f64.powi(digits);
    (x * p).round() / p
}

/// The module after `wasm-opt -Oz`, when binaryen is on the PATH.
fn wasm_opt_size(path: &Path) -> Option<u64> {
    let tool = which("wasm-opt")?;
    let out: PathBuf = path.with_extension("opt.wasm");
    let ok = Command::new(tool)
        .arg("-Oz")
        .args(WASM_OPT_FEATURES)
        .arg(path)
        .arg("-o")
        .arg(&out)
        .output()
        .is_ok_and(|o| o.status.success());
    let size = std::fs::metadata(&out).ok().filter(|_| ok).map(|m| m.len());
    let _ = std::fs::remove_file(&out);
    size
}

/// `wasm-opt --version`, when binaryen is on the PATH.
pub fn wasm_opt_version() -> Option<String> {
    let out = Command::new(which("wasm-opt")?).arg("--version").output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|s| !s.is_empty())
}

/// A program on the PATH.
pub(crate) fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// The module gzipped at level 9 (no name, no time: the bytes alone).
fn gzip_size(data: &[u8]) -> Result<u64, Error> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(data)?;
    Ok(gz.finish()?.len() as u64)
}

/// Arguments that satisfy an input schema's required members: its `const`,
/// its `enum`'s first value or its `default` where it gives one, else a
/// small value of the type within the schema's bounds (`"world"` for a
/// string, repeated or cut to its length bounds; 1, or the least number the
/// bounds allow; `true`; a `minItems`-long array).
pub fn sample_args(schema: &Value) -> Value {
    let ty = match &schema["type"] {
        Value::Array(types) => types.iter().find(|t| *t != "null").cloned().unwrap_or(Value::Null),
        t => t.clone(),
    };
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    if let Some(d) = schema.get("default") {
        return d.clone();
    }
    match ty.as_str() {
        Some("object") => {
            let props = &schema["properties"];
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            Value::Object(
                required.iter().filter_map(|k| k.as_str()).map(|k| (k.to_string(), sample_args(&props[k]))).collect(),
            )
        }
        Some("array") => {
            let n = schema["minItems"].as_u64().unwrap_or(0);
            Value::Array((0..n).map(|_| sample_args(&schema["items"])).collect())
        }
        Some(t @ ("integer" | "number")) => {
            // The first of a few candidates the bounds hold: 1, the lower
            // bound or the whole numbers beside it, the middle (review 87:
            // an exclusive bound passed by one left `exclusiveMinimum 0,
            // maximum 0.5` with 1), the upper bound or those beside it.
            let f = |k: &str| schema[k].as_f64();
            let (min, xmin, max, xmax) = (f("minimum"), f("exclusiveMinimum"), f("maximum"), f("exclusiveMaximum"));
            let inside = |v: f64| {
                min.is_none_or(|m| v >= m)
                    && xmin.is_none_or(|m| v > m)
                    && max.is_none_or(|m| v <= m)
                    && xmax.is_none_or(|m| v < m)
                    && (t == "number" || v.fract() == 0.0 && v.abs() < 9.2e18)
            };
            let low = min.into_iter().chain(xmin).fold(f64::NEG_INFINITY, f64::max);
            let high = max.into_iter().chain(xmax).fold(f64::INFINITY, f64::min);
            // Past 2^53 a step of one is no step: the next float is
            // (review 88: `exclusiveMinimum 1e16` gave 1); an exclusive
            // upper bound alone steps down (`exclusiveMaximum 0` gave 1).
            let candidates = [
                1.0,
                low,
                low.ceil(),
                low.floor() + 1.0,
                (low + high) / 2.0,
                high,
                high.floor(),
                high.ceil() - 1.0,
                low.next_up(),
                high.next_down(),
            ];
            let v = candidates.into_iter().filter(|v| v.is_finite()).find(|&v| inside(v)).unwrap_or(1.0);
            // An integer's, and a small whole number's, written as an integer.
            if t == "integer" || v.fract() == 0.0 && v.abs() < 1e15 { json!(v as i64) } else { json!(v) }
        }
        Some("boolean") => json!(true),
        Some("string") => {
            let min = schema["minLength"].as_u64().unwrap_or(0) as usize;
            let max = schema["maxLength"].as_u64().map_or(usize::MAX, |m| m as usize).max(min);
            // A string the pattern matches, when it is of the plain kind
            // a schema holds; else "world" (the call may then answer isError).
            if let Some(text) = schema["pattern"].as_str().and_then(sample_of_pattern)
                && (min..=max).contains(&text.chars().count())
            {
                return json!(text);
            }
            let mut text = String::from("world");
            while text.chars().count() < min {
                text.push_str(" world");
            }
            json!(text.chars().take(max).collect::<String>())
        }
        _ => Value::Null,
    }
}

/// A string that `pattern` (ECMA-262, as JSON Schema has it) matches, for
/// the kinds a schema holds: literal chars and escapes, `.`, classes
/// (`[A-Z0-9_]`, `[^,]`), `\\d` `\\w` `\\s`, groups with alternatives (the first
/// is taken), and the quantifiers `?` `*` `+` `{n}` `{n,}` `{n,m}` (each
/// repeated its least). None for what it does not read (lookarounds,
/// backreferences, a class it cannot meet).
fn sample_of_pattern(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut at = 0;
    let text = sample_alternatives(&chars, &mut at)?;
    (at == chars.len()).then_some(text)
}

/// The first alternative of `a|b|…` up to a `)` or the end.
fn sample_alternatives(p: &[char], at: &mut usize) -> Option<String> {
    let mut first = None;
    loop {
        let branch = sample_sequence(p, at)?;
        first.get_or_insert(branch);
        if p.get(*at) != Some(&'|') {
            return first;
        }
        *at += 1;
    }
}

fn sample_sequence(p: &[char], at: &mut usize) -> Option<String> {
    let mut out = String::new();
    while let Some(&c) = p.get(*at) {
        let atom = match c {
            '|' | ')' => break,
            '^' | '$' => {
                *at += 1;
                continue;
            }
            '(' => {
                *at += 1;
                if p.get(*at) == Some(&'?') {
                    // `(?:…)` only: lookarounds need the text around them.
                    if p.get(*at + 1) != Some(&':') {
                        return None;
                    }
                    *at += 2;
                }
                let inner = sample_alternatives(p, at)?;
                if p.get(*at) != Some(&')') {
                    return None;
                }
                *at += 1;
                inner
            }
            '[' => {
                *at += 1;
                sample_class(p, at)?.to_string()
            }
            '.' => {
                *at += 1;
                "a".to_string()
            }
            '\\' => {
                let e = *p.get(*at + 1)?;
                *at += 2;
                escape_sample(e)?.to_string()
            }
            '*' | '+' | '?' | '{' | ']' | '}' => return None,
            c => {
                *at += 1;
                c.to_string()
            }
        };
        // The least number of repeats its quantifier allows.
        let quantifier = matches!(p.get(*at), Some('*' | '?' | '+' | '{'));
        let times = match p.get(*at) {
            Some('*' | '?') => {
                *at += 1;
                0
            }
            Some('+') => {
                *at += 1;
                1
            }
            Some('{') => {
                let close = *at + p[*at..].iter().position(|&c| c == '}')?;
                let inside: String = p[*at + 1..close].iter().collect();
                let least = inside.split(',').next()?.trim().parse::<usize>().ok()?;
                *at = close + 1;
                least
            }
            _ => 1,
        };
        // A lazy or possessive mark changes nothing here.
        if quantifier && p.get(*at) == Some(&'?') {
            *at += 1;
        }
        out.push_str(&atom.repeat(times.min(1000)));
    }
    Some(out)
}

/// A char of `\\e`'s class, or `e` itself when it is a plain escape.
fn escape_sample(e: char) -> Option<char> {
    match e {
        'd' => Some('0'),
        'w' => Some('a'),
        's' => Some(' '),
        'D' | 'S' => Some('a'),
        'W' => Some('-'),
        'b' | 'B' | '1'..='9' | 'p' | 'P' | 'u' | 'x' | 'c' => None,
        'n' => Some('\n'),
        't' => Some('\t'),
        e => Some(e),
    }
}

/// A char the class after `[` holds (or, for `[^…]`, does not), leaving
/// `at` past its `]`.
fn sample_class(p: &[char], at: &mut usize) -> Option<char> {
    let negated = p.get(*at) == Some(&'^');
    if negated {
        *at += 1;
    }
    // Each member as a range of chars; an escape class as its sample.
    let mut ranges: Vec<(char, char)> = Vec::new();
    let mut first = true;
    loop {
        let c = *p.get(*at)?;
        if c == ']' && !first {
            *at += 1;
            break;
        }
        first = false;
        let lo = if c == '\\' {
            *at += 1;
            let e = *p.get(*at)?;
            if "dwsDWS".contains(e) {
                // In a negated class it would take the class's complement.
                if negated {
                    return None;
                }
                *at += 1;
                ranges.push((escape_sample(e)?, escape_sample(e)?));
                continue;
            }
            escape_sample(e)?
        } else {
            c
        };
        *at += 1;
        if p.get(*at) == Some(&'-') && p.get(*at + 1).is_some_and(|&n| n != ']') {
            let hi = *p.get(*at + 1)?;
            if hi == '\\' {
                return None;
            }
            *at += 2;
            ranges.push((lo, hi));
        } else {
            ranges.push((lo, lo));
        }
    }
    if negated {
        return "aA0 _-.x".chars().find(|c| !ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(c)));
    }
    ranges.first().map(|&(lo, _)| lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_args_keep_within_the_schema_s_bounds() {
        let schema = json!({"type": "object", "required": ["url", "code", "n", "x", "lo", "tags", "mode", "k", "neg"],
            "properties": {
                "url": {"type": "string", "minLength": 8, "maxLength": 10},
                "code": {"type": "string", "maxLength": 3},
                "n": {"type": "integer", "exclusiveMinimum": 4},
                "x": {"type": "number", "minimum": 0.25, "maximum": 0.5},
                "lo": {"type": "integer", "maximum": 0},
                "tags": {"type": "array", "minItems": 2, "items": {"type": "string", "minLength": 1}},
                "mode": {"type": "string", "enum": ["fast", "slow"]},
                "k": {"const": 7},
                "neg": {"type": "number", "minimum": -5, "exclusiveMaximum": -2},
                "optional": {"type": "string"}}});
        assert_eq!(
            sample_args(&schema),
            json!({"url": "world worl", "code": "wor", "n": 5, "x": 0.25, "lo": 0, "tags": ["world", "world"],
                   "mode": "fast", "k": 7, "neg": -5})
        );
        // A range narrower than a step of one, open at an end (review 87:
        // `{"p": 1}`, outside both).
        let number = |bounds: Value| {
            let mut schema = json!({"type": "number"});
            schema.as_object_mut().unwrap().extend(bounds.as_object().unwrap().clone());
            sample_args(&schema)
        };
        assert_eq!(number(json!({"exclusiveMinimum": 0, "maximum": 0.5})), json!(0.25));
        assert_eq!(number(json!({"exclusiveMinimum": 0, "exclusiveMaximum": 1})), json!(0.5));
        assert_eq!(number(json!({"exclusiveMinimum": 1.5})), json!(2));
        assert_eq!(number(json!({"maximum": -7.5})), json!(-7.5));
        // An exclusive upper bound alone, and bounds past 2^53 (review 88).
        assert_eq!(number(json!({"exclusiveMaximum": 0})), json!(-1));
        assert_eq!(number(json!({"exclusiveMaximum": 1})), json!(0));
        assert_eq!(number(json!({"maximum": 3, "exclusiveMaximum": 1})), json!(0));
        assert_eq!(number(json!({"exclusiveMinimum": 1e16})), json!(1.0000000000000002e16));
        let integer = |bounds: Value| {
            let mut schema = json!({"type": "integer"});
            schema.as_object_mut().unwrap().extend(bounds.as_object().unwrap().clone());
            sample_args(&schema)
        };
        assert_eq!(integer(json!({"exclusiveMaximum": 0})), json!(-1));
        assert_eq!(integer(json!({"exclusiveMinimum": 1e16})), json!(10000000000000002u64));
        assert_eq!(sample_args(&json!({"type": "string", "minLength": 12})), json!("world world world"));
        assert_eq!(sample_args(&json!({"type": ["integer", "null"], "minimum": 3})), json!(3));
    }

    #[test]
    fn sample_strings_match_their_pattern() {
        for (pattern, sample) in [
            ("^[A-Z]{3}$", "AAA"),
            ("^[a-z0-9_-]{2,8}$", "aa"),
            ("^\\d+(\\.\\d{1,2})?$", "0"),
            ("^(?:https?|ftp)://.+$", "http://a"),
            ("^[^,]+$", "a"),
            ("^[^a-z]*x$", "x"),
            ("ab*c", "ac"),
            ("^#[0-9a-fA-F]{6}$", "#000000"),
            ("^\\w+@\\w+\\.\\w{2,}$", "a@a.aa"),
            ("^[\\s\\S]{1,3}$", " "),
            ("^a+?b$", "ab"),
        ] {
            assert_eq!(sample_of_pattern(pattern).as_deref(), Some(sample), "{pattern}");
        }
        // What it does not read: no sample, and "world" is sent instead.
        for pattern in ["[^\\w]", "^(?=a)b$", "(a)\\1", "[", "a{", "\\p{L}", "*"] {
            assert_eq!(sample_of_pattern(pattern), None, "{pattern}");
        }
        let schema = json!({"type": "string", "pattern": "^[A-Z]{3}$"});
        assert_eq!(sample_args(&schema), json!("AAA"));
        // A sample outside the length bounds is not sent.
        let schema = json!({"type": "string", "pattern": "^[A-Z]+$", "minLength": 2, "maxLength": 4});
        assert_eq!(sample_args(&schema), json!("worl"));
    }
}
