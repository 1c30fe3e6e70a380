//! `subako-tiny size`: what a module is made of, read with `wasmparser`.
//! Sections and their sizes, code and data bytes, the function count, the
//! initial memory, imports and exports; with `explain`, every function by
//! size under its demangled name and the crate that owns it. `./size-report`
//! reads the JSON form instead of parsing modules itself.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use wasmparser::{BinaryReader, ExternalKind, KnownCustom, Name, Parser, Payload, TypeRef};

use crate::Error;
use crate::data::{self, Piece};
pub use crate::module::{DataSegment, Func, Section};
use crate::text::table;
pub use crate::text::thousands;

#[derive(Debug, Clone)]
pub struct SizeReport {
    pub bytes: usize,
    pub sections: Vec<Section>,
    /// The code section's payload.
    pub code_bytes: usize,
    /// The data segments' contents.
    pub data_bytes: usize,
    pub imported_functions: usize,
    pub initial_pages: Option<u64>,
    pub max_pages: Option<u64>,
    /// (module, name, kind)
    pub imports: Vec<(String, String, &'static str)>,
    /// (name, kind)
    pub exports: Vec<(String, &'static str)>,
    pub funcs: Vec<Func>,
    pub data: Vec<DataSegment>,
    /// Whether a `name` section named any function.
    pub has_names: bool,
    /// The data cut where the code refers to it, largest first: empty until
    /// [`SizeReport::cut_data`] fills it (only --explain prints it).
    pub pieces: Vec<Piece>,
}

const SECTION_NAMES: [&str; 14] = [
    "custom",
    "type",
    "import",
    "function",
    "table",
    "memory",
    "global",
    "export",
    "start",
    "element",
    "code",
    "data",
    "datacount",
    "tag",
];

fn kind_name(k: ExternalKind) -> &'static str {
    match k {
        ExternalKind::Func | ExternalKind::FuncExact => "func",
        ExternalKind::Table => "table",
        ExternalKind::Memory => "memory",
        ExternalKind::Global => "global",
        ExternalKind::Tag => "tag",
    }
}

fn type_ref_name(t: &TypeRef) -> &'static str {
    match t {
        TypeRef::Func(_) | TypeRef::FuncExact(_) => "func",
        TypeRef::Table(_) => "table",
        TypeRef::Memory(_) => "memory",
        TypeRef::Global(_) => "global",
        TypeRef::Tag(_) => "tag",
    }
}

fn bad(e: wasmparser::BinaryReaderError) -> Error {
    Error::NotAModule(format!("not a valid WebAssembly module: {e}"))
}

/// The data segments on one line: `.rodata 11,012, .data 16`.
pub fn segments_text(segments: &[DataSegment]) -> String {
    if segments.is_empty() {
        return String::new();
    }
    let list: Vec<String> = segments
        .iter()
        .map(|d| format!("{} {}", d.name.clone().unwrap_or_else(|| format!("segment {}", d.index)), thousands(d.size)))
        .collect();
    format!("\ndata segments (bytes; wasm-ld merges the constants into .rodata): {}\n", list.join(", "))
}

/// Reads `bytes` as a core module. Names are demangled and owned (see
/// [`owner`]) whether or not the caller prints them.
pub fn size(bytes: &[u8]) -> Result<SizeReport, Error> {
    if bytes.len() < 8 || &bytes[..4] != b"\0asm" {
        return Err(Error::NotAModule("not a WebAssembly module (no \\0asm header)".into()));
    }
    let mut r = SizeReport {
        bytes: bytes.len(),
        sections: Vec::new(),
        code_bytes: 0,
        data_bytes: 0,
        imported_functions: 0,
        initial_pages: None,
        max_pages: None,
        imports: Vec::new(),
        exports: Vec::new(),
        funcs: Vec::new(),
        data: Vec::new(),
        has_names: false,
        pieces: Vec::new(),
    };
    let mut func_names: BTreeMap<u32, String> = BTreeMap::new();
    let mut data_names: BTreeMap<u32, String> = BTreeMap::new();
    let mut next_body = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(bad)?;
        if let Some((id, range)) = payload.as_section() {
            let (name, custom) = match &payload {
                Payload::CustomSection(c) => (c.name().to_string(), true),
                _ => (SECTION_NAMES.get(id as usize).map_or_else(|| format!("section {id}"), |s| s.to_string()), false),
            };
            r.sections.push(Section { id, name, custom, offset: range.start, size: range.len() });
        }
        match payload {
            Payload::Version { encoding: wasmparser::Encoding::Component, .. } => {
                return Err(Error::NotAModule(
                    "a component, not a core module: Subako runs WASI preview 1 core modules".into(),
                ));
            }
            Payload::ImportSection(s) => {
                for i in s.into_imports() {
                    let i = i.map_err(bad)?;
                    match i.ty {
                        TypeRef::Func(_) | TypeRef::FuncExact(_) => r.imported_functions += 1,
                        TypeRef::Memory(m) => {
                            r.initial_pages = Some(m.initial);
                            r.max_pages = m.maximum;
                        }
                        _ => {}
                    }
                    r.imports.push((i.module.to_string(), i.name.to_string(), type_ref_name(&i.ty)));
                }
            }
            Payload::MemorySection(s) => {
                if let Some(m) = s.into_iter().next() {
                    let m = m.map_err(bad)?;
                    r.initial_pages = Some(m.initial);
                    r.max_pages = m.maximum;
                }
            }
            Payload::ExportSection(s) => {
                for e in s {
                    let e = e.map_err(bad)?;
                    r.exports.push((e.name.to_string(), kind_name(e.kind)));
                }
            }
            Payload::CodeSectionStart { range, .. } => {
                r.code_bytes = range.len();
                let mut rd = BinaryReader::new(&bytes[range.clone()], range.start);
                rd.read_var_u32().map_err(bad)?;
                next_body = rd.original_position();
            }
            Payload::CodeSectionEntry(body) => {
                let end = body.range().end;
                let index = r.funcs.len();
                r.funcs.push(Func {
                    index,
                    func_index: 0,
                    offset: next_body,
                    size: end - next_body,
                    symbol: None,
                    name: String::new(),
                    owner: String::new(),
                });
                next_body = end;
            }
            Payload::DataSection(s) => {
                for d in s {
                    let d = d.map_err(bad)?;
                    r.data_bytes += d.data.len();
                    r.data.push(DataSegment { index: r.data.len(), size: d.data.len(), name: None });
                }
            }
            Payload::CustomSection(c) => {
                if let KnownCustom::Name(names) = c.as_known() {
                    // A malformed name section only costs the names.
                    for sub in names.into_iter().flatten() {
                        let (map, target) = match sub {
                            Name::Function(m) => (m, &mut func_names),
                            Name::Data(m) => (m, &mut data_names),
                            _ => continue,
                        };
                        for n in map.into_iter().flatten() {
                            target.insert(n.index, n.name.to_string());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    r.has_names = !func_names.is_empty();
    for f in &mut r.funcs {
        f.func_index = r.imported_functions + f.index;
        f.symbol = func_names.get(&(f.func_index as u32)).cloned();
        f.name = match &f.symbol {
            Some(s) => demangle(s),
            None => format!("func[{}]", f.func_index),
        };
        f.owner = if f.symbol.is_some() { owner(&f.name).to_string() } else { "(no name section)".to_string() };
    }
    // The start-up names are the crate's only in a module that links it:
    // in a std module (an official twin) they are wasi-libc's and std's.
    if !r.funcs.iter().any(|f| f.symbol.is_some() && f.name.contains("subako_tiny::")) {
        for f in &mut r.funcs {
            if let Some((_, o)) = UNMANGLED_STD.iter().find(|(n, _)| *n == f.name) {
                f.owner = o.to_string();
            }
        }
    }
    for d in &mut r.data {
        d.name = data_names.get(&(d.index as u32)).cloned();
    }
    Ok(r)
}

impl SizeReport {
    /// Cuts the data of `bytes`, the module this report was read from, into
    /// [`SizeReport::pieces`]: a second walk over its code, so only the
    /// paths that print the pieces pay for it.
    pub fn cut_data(&mut self, bytes: &[u8]) {
        self.pieces = data::pieces(bytes, &self.funcs);
    }
}

/// A Rust symbol (legacy or v0 mangling) demangled without its hash; any
/// other name as it is.
pub fn demangle(symbol: &str) -> String {
    match rustc_demangle::try_demangle(symbol) {
        Ok(d) => format!("{d:#}"),
        Err(_) => symbol.to_string(),
    }
}

/// Unmangled functions in a module, and who they belong to.
const UNMANGLED: [(&str, &str); 9] = [
    ("__main_void", "subako_tiny (main!: the serve loop)"),
    ("__wasi_init_tp", "subako_tiny"),
    ("__wasm_call_dtors", "subako_tiny"),
    // What the crate's build.rs links from wasi-libc's archive.
    ("memcmp", "wasi-libc (libc.a)"),
    ("bcmp", "wasi-libc (libc.a)"),
    ("__wasi_proc_exit", "wasi-libc (libc.a)"),
    ("_start", "wasi-libc (crt1-command.o)"),
    ("__wasm_call_ctors", "wasm-ld"),
    // The `#[panic_handler]`, under the name rustc gives it.
    ("__rustc::rust_begin_unwind", "subako_tiny"),
];

/// [`UNMANGLED`]'s names that are the crate's, in a module without it.
const UNMANGLED_STD: [(&str, &str); 4] = [
    ("__main_void", "wasi-libc (libc.a), calling std's main"),
    ("__wasi_init_tp", "wasi-libc (libc.a)"),
    ("__wasm_call_dtors", "wasm-ld"),
    ("__rustc::rust_begin_unwind", "std"),
];

/// Who a demangled function belongs to, for per-crate totals: the first
/// path's crate (the first identifier followed by `::`); the global
/// allocator's entry points (into which the allocator is inlined) by that
/// name; the unmangled start-up and libc functions from a fixed list; any
/// other name without a path is C (wasi-libc, compiler-rt).
pub fn owner(name: &str) -> &str {
    if let Some((_, o)) = UNMANGLED.iter().find(|(n, _)| *n == name) {
        return o;
    }
    if let Some(o) = primitive_method_owner(name) {
        return o;
    }
    let entry = ["alloc", "dealloc", "realloc", "alloc_zeroed"];
    for prefix in ["__rustc::__rust_", "alloc::alloc::"] {
        if name.strip_prefix(prefix).is_some_and(|rest| entry.contains(&rest)) {
            return "global allocator (inlined into its entry points)";
        }
    }
    let b = name.as_bytes();
    let is_start = |c: u8| c.is_ascii_alphabetic() || c == b'_';
    let is_cont = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if is_start(b[i]) {
            let mut j = i + 1;
            while j < b.len() && is_cont(b[j]) {
                j += 1;
            }
            if b[j..].starts_with(b"::") {
                return &name[i..j];
            }
            i = j;
        } else {
            i += 1;
        }
    }
    "C (wasi-libc, compiler-rt)"
}

/// Primitive types' inherent methods that live in `alloc` (they return a
/// `String` or a `Vec`, or sort in place with a buffer); the others are core's.
const ALLOC_METHODS: [&str; 17] = [
    "to_lowercase",
    "to_uppercase",
    "repeat",
    "replace",
    "replacen",
    "to_ascii_lowercase",
    "to_ascii_uppercase",
    "into_string",
    "into_boxed_bytes",
    "to_vec",
    "into_vec",
    "sort",
    "sort_by",
    "sort_by_key",
    "sort_by_cached_key",
    "concat",
    "join",
];

/// The owner of a primitive type's inherent method as v0 mangling names it
/// (`<str>::to_lowercase`, `<[T]>::sort`, `<f64>::…`): alloc or core.
fn primitive_method_owner(name: &str) -> Option<&'static str> {
    let (ty, rest) = name.strip_prefix('<')?.split_once(">::")?;
    const PRIMITIVES: [&str; 17] = [
        "str", "char", "bool", "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
        "u128", "usize",
    ];
    let primitive = PRIMITIVES.contains(&ty) || ty.starts_with('[') || ty.starts_with('*') || ty.starts_with('&');
    if !primitive {
        return None;
    }
    let method = rest.split([':', '<']).next().unwrap_or(rest);
    Some(if ALLOC_METHODS.contains(&method) { "alloc" } else { "core" })
}

/// (owner, bytes, functions), largest first.
pub fn by_owner(funcs: &[Func]) -> Vec<(String, usize, usize)> {
    let mut m: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for f in funcs {
        let e = m.entry(&f.owner).or_default();
        e.0 += f.size;
        e.1 += 1;
    }
    let mut v: Vec<_> = m.into_iter().map(|(o, (b, n))| (o.to_string(), b, n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

impl SizeReport {
    /// Functions largest first (ties in code order).
    pub fn funcs_by_size(&self) -> Vec<&Func> {
        let mut v: Vec<&Func> = self.funcs.iter().collect();
        v.sort_by(|a, b| b.size.cmp(&a.size).then(a.index.cmp(&b.index)));
        v
    }

    pub fn to_json(&self, explain: bool) -> Value {
        let mut v = json!({
            "bytes": self.bytes,
            "sections": self.sections.iter().map(|s| json!({
                "id": s.id, "name": s.name, "custom": s.custom, "offset": s.offset, "size": s.size,
            })).collect::<Vec<_>>(),
            "code_bytes": self.code_bytes,
            "data_bytes": self.data_bytes,
            "functions": self.funcs.len(),
            "imported_functions": self.imported_functions,
            "initial_pages": self.initial_pages,
            "max_pages": self.max_pages,
            "imports": self.imports.iter().map(|(m, n, k)| json!({"module": m, "name": n, "kind": k})).collect::<Vec<_>>(),
            "exports": self.exports.iter().map(|(n, k)| json!({"name": n, "kind": k})).collect::<Vec<_>>(),
            "has_names": self.has_names,
        });
        if explain {
            let o = v.as_object_mut().unwrap();
            o.insert(
                "owners".into(),
                by_owner(&self.funcs)
                    .into_iter()
                    .map(|(owner, bytes, functions)| json!({"owner": owner, "bytes": bytes, "functions": functions}))
                    .collect(),
            );
            o.insert(
                "funcs".into(),
                self.funcs_by_size()
                    .into_iter()
                    .map(|f| {
                        json!({"index": f.index, "func_index": f.func_index, "offset": f.offset, "size": f.size,
                               "symbol": f.symbol, "name": f.name, "owner": f.owner})
                    })
                    .collect(),
            );
            let mut data: Vec<&DataSegment> = self.data.iter().collect();
            data.sort_by(|a, b| b.size.cmp(&a.size).then(a.index.cmp(&b.index)));
            o.insert(
                "data".into(),
                data.into_iter().map(|d| json!({"index": d.index, "size": d.size, "name": d.name})).collect(),
            );
            o.insert("data_pieces".into(), data::to_json(&self.pieces, &self.funcs));
        }
        v
    }

    /// The text `subako-tiny size` prints; `top` bounds the function and
    /// data lists of `explain`.
    pub fn to_text(&self, explain: bool, top: usize) -> String {
        let mut out = String::new();
        let pages = match self.initial_pages {
            Some(p) => format!(
                "starts at {p} page(s) of 64 KiB{}",
                self.max_pages.map_or(String::new(), |m| format!(", at most {m}"))
            ),
            None => "no memory".into(),
        };
        out += &format!(
            "{} bytes: code {} bytes in {} functions ({} imported), data {} bytes; {pages}\n",
            thousands(self.bytes),
            thousands(self.code_bytes),
            self.funcs.len(),
            self.imported_functions,
            thousands(self.data_bytes),
        );
        out += "\nsections:\n";
        let rows: Vec<Vec<String>> = self
            .sections
            .iter()
            .map(|s| vec![if s.custom { format!("custom {:?}", s.name) } else { s.name.clone() }, thousands(s.size)])
            .collect();
        out += &table(&["section", "bytes"], &rows, &[0], "  ");
        out += &format!("\nimports ({}):\n", self.imports.len());
        for (m, n, k) in &self.imports {
            out += &format!("  {m}.{n} ({k})\n");
        }
        out += &format!("\nexports ({}):\n", self.exports.len());
        for (n, k) in &self.exports {
            out += &format!("  {n} ({k})\n");
        }
        if !explain {
            return out;
        }
        if !self.has_names {
            out += "\nno name section: functions are shown by index (build with CARGO_PROFILE_RELEASE_STRIP=false for names)\n";
        }
        let code: usize = self.funcs.iter().map(|f| f.size).sum();
        out += &format!(
            "\ncode by crate ({} bytes of function bodies in {} functions):\n",
            thousands(code),
            self.funcs.len()
        );
        let rows: Vec<Vec<String>> = by_owner(&self.funcs)
            .into_iter()
            .map(|(o, b, n)| {
                vec![o, thousands(b), n.to_string(), format!("{:.1}%", b as f64 * 100.0 / code.max(1) as f64)]
            })
            .collect();
        out += &table(&["crate", "bytes", "functions", "share"], &rows, &[0], "  ");
        let funcs = self.funcs_by_size();
        out += &format!("\nlargest {} functions:\n", top.min(funcs.len()));
        let rows: Vec<Vec<String>> =
            funcs.iter().take(top).map(|f| vec![thousands(f.size), f.name.clone(), f.owner.clone()]).collect();
        out += &table(&["bytes", "function", "crate"], &rows, &[1, 2], "  ");
        out += &segments_text(&self.data);
        out += &data::to_text(&self.pieces, &self.funcs, top);
        out
    }
}
