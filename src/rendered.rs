//! A package's fixed answers, rendered once: at build time by
//! [`main!`](crate::main), at run time only by host conveniences.
//!
//! Everything a module says that depends only on its package (the
//! `serverInfo` that opens every result, the `server/discover` and
//! `tools/list` results, the manifest) is a `const` byte array in the
//! module's data. So a module carries no code to escape its name, compact
//! its schemas or lay out its tool list, and no pretty schema text.

use crate::args::Args;
use crate::json::write::escape_byte;
use crate::package::{Package, ToolFn};
use crate::reply::{Reply, ToolError};

/// The MCP revision this crate speaks.
pub const PROTOCOL_VERSION: &str = "2026-07-28";
/// The function ABI, as `subako-package.json` names it.
pub const ABI: u32 = 1;

/// What a module serves from: the fixed answers, and of each tool only
/// what a call needs (its schemas are in the answers).
#[derive(Clone, Copy)]
pub struct Rendered<'a> {
    /// What follows a result's id, up to its first own member:
    /// `,"jsonrpc":"2.0","result":{"_meta":{…serverInfo…}},`.
    pub result_prefix: &'a [u8],
    /// The rest of the `server/discover` result, after the prefix.
    pub discover: &'a [u8],
    /// The rest of the `tools/list` result, after the prefix.
    pub tools_list: &'a [u8],
    /// `subako-package.json`, as serde_json writes it pretty.
    pub manifest: &'a [u8],
    /// Each tool's name, in the package's order.
    pub tool_names: &'a [&'static str],
    /// Each tool's function, in the same order. Apart from the names: a
    /// module with one tool then calls it directly, and keeps no table of
    /// function pointers (the optimizer sees the only index a name can have).
    pub tool_fns: &'a [ToolFn],
    /// The package's [`Package::max_line`].
    pub max_line: usize,
}

impl<'a> Rendered<'a> {
    /// `text` must be what [`render`] wrote for `package`, and `tool_names`
    /// and `tool_fns` what [`tool_names`] and [`tool_fns`] made of it; the
    /// parts are found by rendering again without writing.
    pub const fn new(
        package: &Package,
        text: &'a [u8],
        tool_names: &'a [&'static str],
        tool_fns: &'a [ToolFn],
    ) -> Rendered<'a> {
        let ends = render(package, &mut []);
        let (result_prefix, rest) = split(text, ends[0]);
        let (discover, rest) = split(rest, ends[1] - ends[0]);
        let (tools_list, manifest) = split(rest, ends[2] - ends[1]);
        Rendered { result_prefix, discover, tools_list, manifest, tool_names, tool_fns, max_line: package.max_line }
    }
}

/// `text` cut at `at`, or all of it and nothing when it is shorter.
const fn split(text: &[u8], at: usize) -> (&[u8], &[u8]) {
    match text.split_at_checked(at) {
        Some(parts) => parts,
        None => (text, &[]),
    }
}

/// The package's tool names, for a `static`; `N` must be the number of
/// tools (a build error otherwise).
pub const fn tool_names<const N: usize>(package: &Package) -> [&'static str; N] {
    assert!(N == package.tools.len(), "tool_names: N must be the package's number of tools");
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = package.tools[i].name;
        i += 1;
    }
    names
}

/// The package's tool functions, for a `static`; `N` as for [`tool_names`].
pub const fn tool_fns<const N: usize>(package: &Package) -> [ToolFn; N] {
    assert!(N == package.tools.len(), "tool_fns: N must be the package's number of tools");
    let mut runs: [ToolFn; N] = [placeholder; N];
    let mut i = 0;
    while i < N {
        runs[i] = package.tools[i].run;
        i += 1;
    }
    runs
}

/// Fills [`tool_fns`]' array until each slot is written; never called.
fn placeholder(_: &Args<'_>) -> Result<Reply, ToolError> {
    Err(ToolError::from(crate::text::Text::new()))
}

/// The bytes `render` writes for `package`.
pub const fn len(package: &Package) -> usize {
    render(package, &mut [])[3]
}

/// The fixed answers as an array of exactly [`len`] bytes, for a `static`.
pub const fn array<const N: usize>(package: &Package) -> [u8; N] {
    let mut text = [0; N];
    render(package, &mut text);
    text
}

/// The length of [`validator_array`]'s text for `schema`.
pub const fn validator_len(schema: &str) -> usize {
    let mut out = Out { buf: &mut [], len: 0 };
    out.schema(schema.as_bytes(), crate::json::scan::skip_ws(schema.as_bytes(), 0));
    out.len
}

/// What `validated!` keeps of an input schema for the validator: the text
/// without white space, and without the members of its schema objects the
/// validator does not read (`description`, `title`, `default`, `examples`
/// and the other annotations, and `x-` extensions), which the model reads
/// in `tools/list` and a call would otherwise walk past at every object it
/// checks. An array of exactly [`validator_len`] bytes, for a `static`.
///
/// `schema` is one [`CheckedSchema::new`](crate::schema::CheckedSchema::new)
/// accepts; for any other text this ends, with some text, and that
/// constant's error fails the build.
pub const fn validator_array<const N: usize>(schema: &str) -> [u8; N] {
    let mut text = [0; N];
    let mut out = Out { buf: &mut text, len: 0 };
    out.schema(schema.as_bytes(), crate::json::scan::skip_ws(schema.as_bytes(), 0));
    text
}

/// The bytes `from..to` of `b`, as many of them as it has: text that is
/// not a schema gets some text, never a panic in the compiler.
const fn part(b: &[u8], from: usize, to: usize) -> &[u8] {
    let to = if to < b.len() { to } else { b.len() };
    let from = if from < to { from } else { to };
    b.split_at(to).0.split_at(from).1
}

/// The keywords the validator reads (`schema::validate`); any other member
/// of a schema object is left out of its copy.
const VALIDATOR_KEYWORDS: [&[u8]; 15] = [
    b"type",
    b"properties",
    b"required",
    b"additionalProperties",
    b"items",
    b"enum",
    b"const",
    b"minimum",
    b"maximum",
    b"exclusiveMinimum",
    b"exclusiveMaximum",
    b"minLength",
    b"maxLength",
    b"minItems",
    b"maxItems",
];

/// Writes the fixed answers into `buf` as far as it has room, and returns
/// where each part ends (the last is the whole length).
pub const fn render(package: &Package, buf: &mut [u8]) -> [usize; 4] {
    let mut out = Out { buf, len: 0 };
    out.bytes(b",\"jsonrpc\":\"2.0\",\"result\":{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":");
    out.string(package.name.as_bytes());
    out.bytes(b",\"version\":");
    out.string(package.version.as_bytes());
    out.bytes(b"}},");
    let prefix = out.len;
    out.bytes(b"\"capabilities\":{\"tools\":{}},\"resultType\":\"complete\",\"supportedVersions\":[\"");
    out.bytes(PROTOCOL_VERSION.as_bytes());
    out.bytes(b"\"]}}\n");
    let discover = out.len;
    out.bytes(b"\"cacheScope\":\"public\",\"resultType\":\"complete\",\"tools\":[");
    let mut i = 0;
    while i < package.tools.len() {
        let tool = &package.tools[i];
        if i > 0 {
            out.byte(b',');
        }
        // Members in serde_json's order: sorted, as the official SDK sends them.
        out.bytes(b"{\"description\":");
        out.string(tool.description.as_bytes());
        out.bytes(b",\"inputSchema\":");
        out.compact(tool.input_schema.as_bytes());
        out.bytes(b",\"name\":");
        out.string(tool.name.as_bytes());
        if let Some(schema) = tool.output_schema {
            out.bytes(b",\"outputSchema\":");
            out.compact(schema.as_bytes());
        }
        out.byte(b'}');
        i += 1;
    }
    // A module's tools never change: a client may keep them for a day.
    out.bytes(b"],\"ttlMs\":86400000}}\n");
    let tools = out.len;
    out.bytes(b"{\n  \"abi\": ");
    out.byte(b'0' + ABI as u8);
    out.bytes(b",\n  \"name\": ");
    out.string(package.name.as_bytes());
    out.bytes(b",\n  \"description\": ");
    out.string(package.description.as_bytes());
    out.bytes(b"\n}\n");
    [prefix, discover, tools, out.len]
}

/// Counts every byte, and writes those that fit.
struct Out<'b> {
    buf: &'b mut [u8],
    len: usize,
}

impl Out<'_> {
    const fn byte(&mut self, b: u8) {
        if self.len < self.buf.len() {
            self.buf[self.len] = b;
        }
        self.len += 1;
    }

    // The loops below write bytes themselves instead of calling `byte`:
    // rustc's const evaluation counts every call, and stops one constant
    // at 2,000,000 steps, so a byte costs one step here, not three (a
    // package of a thousand tools renders well inside the limit).

    const fn bytes(&mut self, b: &[u8]) {
        // Lengths taken once: a call to `len` is a step too.
        let (n, cap) = (b.len(), self.buf.len());
        let mut i = 0;
        while i < n {
            if self.len < cap {
                self.buf[self.len] = b[i];
            }
            self.len += 1;
            i += 1;
        }
    }

    /// `s` quoted and escaped as serde_json escapes it.
    const fn string(&mut self, s: &[u8]) {
        self.byte(b'"');
        let (n, cap) = (s.len(), self.buf.len());
        let mut i = 0;
        while i < n {
            let c = s[i];
            if c >= 0x20 && c != b'"' && c != b'\\' {
                if self.len < cap {
                    self.buf[self.len] = c;
                }
                self.len += 1;
            } else {
                let mut esc = [0; 6];
                match escape_byte(c, &mut esc) {
                    0 => self.byte(c),
                    n => self.bytes(esc.split_at(n).0),
                }
            }
            i += 1;
        }
        self.byte(b'"');
    }

    /// The schema at `i` in `b` for the validator (see [`validator_array`]):
    /// a schema object's members other than the keywords it reads are left
    /// out; anything else is copied without white space. Past its end.
    const fn schema(&mut self, b: &[u8], i: usize) -> usize {
        use crate::bytes::{at, same_at};
        use crate::json::scan::skip_ws;
        use crate::json::validator::{skip, skip_string};
        if at(b, i) != b'{' {
            let end = skip(b, i);
            self.compact(part(b, i, end));
            return end;
        }
        self.byte(b'{');
        let mut i = skip_ws(b, i + 1);
        let mut first = true;
        // Each member: its name's opening quote at `i`. Text that is not
        // a schema ends the loop at its first byte out of place.
        while at(b, i) == b'"' {
            let name_end = skip_string(b, i);
            let v = skip_ws(b, skip_ws(b, name_end) + 1);
            let mut k = 0;
            while k < VALIDATOR_KEYWORDS.len() && !same_at(b, i + 1, name_end - 1, VALIDATOR_KEYWORDS[k]) {
                k += 1;
            }
            let end = if k == VALIDATOR_KEYWORDS.len() {
                skip(b, v)
            } else {
                if !first {
                    self.byte(b',');
                }
                first = false;
                self.bytes(part(b, i, name_end));
                self.byte(b':');
                // `properties`: names, each with a schema; `items` and
                // `additionalProperties`: a schema; the rest: data.
                if k == 1 && at(b, v) == b'{' {
                    self.byte(b'{');
                    let mut p = skip_ws(b, v + 1);
                    let mut first = true;
                    while at(b, p) == b'"' {
                        let p_end = skip_string(b, p);
                        if !first {
                            self.byte(b',');
                        }
                        first = false;
                        self.bytes(part(b, p, p_end));
                        self.byte(b':');
                        p = skip_ws(b, self.schema(b, skip_ws(b, skip_ws(b, p_end) + 1)));
                        if at(b, p) == b',' {
                            p = skip_ws(b, p + 1);
                        }
                    }
                    self.byte(b'}');
                    p + (at(b, p) == b'}') as usize
                } else if k == 3 || k == 4 {
                    self.schema(b, v)
                } else {
                    let end = skip(b, v);
                    self.compact(part(b, v, end));
                    end
                }
            };
            i = skip_ws(b, end);
            if at(b, i) == b',' {
                i = skip_ws(b, i + 1);
            }
        }
        self.byte(b'}');
        i + (at(b, i) == b'}') as usize
    }

    /// Valid JSON text without the white space outside its strings, as
    /// `json::write::compact_into` writes it, in a `const fn`.
    const fn compact(&mut self, json: &[u8]) {
        let (mut in_string, mut escaped) = (false, false);
        let (n, cap) = (json.len(), self.buf.len());
        let mut i = 0;
        while i < n {
            let c = json[i];
            let keep = if escaped {
                escaped = false;
                true
            } else if in_string && c == b'\\' {
                escaped = true;
                true
            } else if c == b'"' {
                in_string = !in_string;
                true
            } else {
                in_string || !matches!(c, b' ' | b'\n' | b'\r' | b'\t')
            };
            if keep {
                if self.len < cap {
                    self.buf[self.len] = c;
                }
                self.len += 1;
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::package::Tool;
    use alloc::vec;

    fn ok(_: &Args<'_>) -> Result<Reply, ToolError> {
        Ok(Reply::text("ok"))
    }

    const PACKAGE: Package = Package::new(
        "quote\"and\\back",
        "1.0.0-β",
        "Line\nbreak and \u{1} control.",
        &[
            Tool::new(
                "first",
                "Pretty schema, \"quoted\".",
                "{\n  \"type\": \"object\",\n  \"properties\": {\"a b\": {\"type\": \"string\", \"description\": \"keeps  its\\t spaces\"}}\n}",
                ok,
            ),
            Tool::new("second", "Two.", r#"{"type":"object"}"#, ok).output_schema(" { \"type\" : \"object\" } "),
        ],
    );

    static TEXT: [u8; len(&PACKAGE)] = array(&PACKAGE);

    fn json(bytes: &[u8]) -> serde_json::Value {
        serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{e}: {}", std::string::String::from_utf8_lossy(bytes)))
    }

    #[test]
    fn counting_and_writing_agree() {
        let ends = render(&PACKAGE, &mut []);
        assert_eq!(ends[3], TEXT.len());
        let mut exact = vec![0; TEXT.len()];
        assert_eq!(render(&PACKAGE, &mut exact), ends);
        assert_eq!(exact, TEXT);
        // A short buffer gets a prefix and the same count.
        let mut short = vec![0; 10];
        assert_eq!(render(&PACKAGE, &mut short), ends);
        assert_eq!(short, TEXT[..10]);
    }

    #[test]
    fn every_part_is_what_serde_json_writes() {
        let (names, runs) = (tool_names::<2>(&PACKAGE), tool_fns::<2>(&PACKAGE));
        let r = Rendered::new(&PACKAGE, &TEXT, &names, &runs);
        let answer = |rest: &[u8]| json(&[b"{\"id\":1".as_slice(), r.result_prefix, rest].concat());
        let server_info = serde_json::json!({"name": PACKAGE.name, "version": PACKAGE.version});
        let discover = answer(r.discover);
        assert_eq!(discover["result"]["_meta"]["io.modelcontextprotocol/serverInfo"], server_info);
        assert_eq!(discover["result"]["supportedVersions"], serde_json::json!(["2026-07-28"]));
        let list = answer(r.tools_list);
        let listed = &list["result"]["tools"];
        for (k, tool) in PACKAGE.tools.iter().enumerate() {
            assert_eq!(listed[k]["name"], tool.name);
            assert_eq!(listed[k]["description"], tool.description);
            let schema = json(tool.input_schema.as_bytes());
            assert_eq!(listed[k]["inputSchema"], schema);
        }
        // Compacted in the author's order: white space between tokens goes,
        // white space and escapes inside strings stay.
        let compact = br#""inputSchema":{"type":"object","properties":{"a b":{"type":"string","description":"keeps  its\t spaces"}}},"name":"first""#;
        assert!(
            r.tools_list.windows(compact.len()).any(|w| w == compact),
            "{}",
            std::string::String::from_utf8_lossy(r.tools_list)
        );
        assert_eq!(listed[1]["outputSchema"], serde_json::json!({"type": "object"}));
        assert!(r.tools_list.ends_with(b"],\"ttlMs\":86400000}}\n"));
        // The manifest as serde_json writes the official SDK's struct pretty:
        // its fields in their order, two spaces, the same escapes.
        let manifest = "{\n  \"abi\": 1,\n  \"name\": \"quote\\\"and\\\\back\",\n  \"description\": \"Line\\nbreak and \\u0001 control.\"\n}\n";
        assert_eq!(std::str::from_utf8(r.manifest).unwrap(), manifest);
        assert_eq!(
            json(r.manifest),
            serde_json::json!({"abi": 1, "name": PACKAGE.name, "description": PACKAGE.description})
        );
        assert_eq!(r.tool_names, ["first", "second"]);
        assert_eq!(r.tool_fns.len(), 2);
    }

    /// Any text, not only a schema, gets some text of the length
    /// `validator_len` says, without a panic (in the compiler, that would
    /// be a second error beside the schema's own): every prefix of a
    /// schema, and bytes out of place.
    #[test]
    fn the_validator_copy_of_any_text_ends_without_a_panic() {
        let schema = r#"{"type":"object","description":"d","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b":{"enum":[1,{"c":"}"}]}}}}},"x-y":[1],"required":["a"]}"#;
        let mut texts: vec::Vec<std::string::String> = (0..=schema.len()).map(|n| schema[..n].into()).collect();
        texts.extend(
            [
                "",
                "{",
                "{\"",
                "{\"properties\":{\"",
                "{\"properties\":[",
                "}",
                "]]]",
                "{\"type\":}",
                "\"",
                "{\"a\":\"\\",
            ]
            .map(std::string::String::from),
        );
        for text in &texts {
            let len = validator_len(text);
            let copy = validator_array::<512>(text);
            assert!(len <= 512 && copy[len..].iter().all(|&b| b == 0), "{text}: {len}");
        }
        let whole = validator_array::<512>(schema);
        let kept = std::str::from_utf8(&whole[..validator_len(schema)]).unwrap();
        assert_eq!(
            kept,
            r#"{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b":{"enum":[1,{"c":"}"}]}}}}},"required":["a"]}"#
        );
    }
}
