//! One tool call as the worker makes it: a fresh instance, `argv = [package]`,
//! the platform's preopens, one `tools/call` on stdin, then the crash rules.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::Error;
use crate::crash::{Crash, judge, stderr_tail};
use crate::exec::{Module, RunOptions, RunOutput, run};
use crate::host::{HttpConfig, map_guest_path};

#[derive(Clone, Debug)]
pub struct CallOptions {
    /// argv[0]; `None`: ask the module (`--subako-manifest`), else "module".
    pub package: Option<String>,
    /// Host dir behind `/volume/tmp`; `None`: a fresh temporary one, kept in the outcome.
    pub tmp_dir: Option<PathBuf>,
    /// Host dir behind `/volume/data`, when the agent enables it.
    pub data_dir: Option<PathBuf>,
    /// A bundle's `assets/`, mounted read-only at `/package`.
    pub assets_dir: Option<PathBuf>,
    /// `None`: the platform stub (every request fails).
    pub http: Option<HttpConfig>,
    pub time_limit: Duration,
    pub memory_limit_bytes: usize,
    pub write_budget: Option<u64>,
    /// The realtime clock's reading at the start (since the Unix epoch);
    /// `None`: the host's.
    pub clock: Option<Duration>,
    /// The request id (opaque to the module).
    pub id: Value,
}

impl Default for CallOptions {
    fn default() -> Self {
        let r = RunOptions::default();
        CallOptions {
            package: None,
            tmp_dir: None,
            data_dir: None,
            assets_dir: None,
            http: None,
            time_limit: r.time_limit,
            memory_limit_bytes: r.memory_limit_bytes,
            write_budget: r.write_budget,
            clock: r.clock,
            id: json!("call-1"),
        }
    }
}

/// A file a `resource_link` with a `volume:///` uri points to.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkedFile {
    pub uri: String,
    /// `/volume/…`, percent-decoded.
    pub guest_path: String,
    /// Where it is on this machine; `None` when no preopen covers it.
    pub host_path: Option<PathBuf>,
    /// `None` when the file does not exist.
    pub size: Option<u64>,
    pub mime_type: Option<String>,
}

#[derive(Debug)]
pub struct CallOutcome {
    /// The `CallToolResult`, or the crash rule that fired.
    pub result: Result<Value, Crash>,
    /// On success, the `CallToolResult` exactly as the module wrote it (its
    /// key order, its spacing): what `subako-tiny call` prints. `result`
    /// above is parsed, and serde_json's map sorts keys.
    pub result_text: Option<String>,
    /// The last 4 KiB of stderr (what the model sees on a crash).
    pub stderr_tail: String,
    pub links: Vec<LinkedFile>,
    pub output: RunOutput,
    /// The host dir behind `/volume/tmp`.
    pub tmp_dir: PathBuf,
    tmp: Option<tempfile::TempDir>,
}

impl CallOutcome {
    pub fn crash(&self) -> Option<&Crash> {
        self.result.as_ref().err()
    }
    /// The result, or a panic naming the crash and stderr: for tests.
    pub fn expect_ok(&self) -> &Value {
        match &self.result {
            Ok(v) => v,
            Err(c) => panic!("call crashed: {c}\nstderr:\n{}", self.stderr_tail),
        }
    }
    /// Whether the tool answered with `isError: true`.
    pub fn is_error(&self) -> bool {
        self.result.as_ref().is_ok_and(|r| r.get("isError") == Some(&Value::Bool(true)))
    }
    /// Keeps the fresh `/volume/tmp` this call made (it is deleted with the
    /// outcome otherwise) and returns its path; `None` when the caller gave
    /// the directory, which is never deleted.
    pub fn keep_tmp(&mut self) -> Option<PathBuf> {
        self.tmp.take().map(tempfile::TempDir::keep)
    }
    /// What `subako-tiny call` prints on stdout: the `CallToolResult` as the
    /// module wrote it, or the crash rule and the last 4 KiB of stderr.
    pub fn to_text(&self) -> String {
        match (&self.result, &self.result_text) {
            (Ok(_), Some(raw)) => format!("{raw}\n"),
            (Ok(v), None) => format!("{v}\n"),
            // The platform's word: an error answer is a crash to Subako,
            // and the model reads "the function crashed".
            (Err(c), _) => format!(
                "crashed (Subako's rule: the model reads \"the function crashed\"): {c}\nstderr (last 4 KiB):\n{}\n",
                self.stderr_tail
            ),
        }
    }
    /// One line per `volume:///` file the result links: its host path and size.
    pub fn links_text(&self) -> String {
        let mut s = String::new();
        for l in &self.links {
            let host = l.host_path.as_ref().map_or("(no preopen covers it)".into(), |p| p.display().to_string());
            let size = l.size.map_or("missing".into(), |s| format!("{s} bytes"));
            s += &format!("linked file {} -> {host} ({size})\n", l.guest_path);
        }
        s
    }
}

/// Tool arguments: a JSON value, or JSON text.
/// A call's arguments: a JSON value, or JSON text, which is sent as it is
/// written (`-0`, `1e2`, `1e400` and the order of keys kept: a module reads
/// the text, not serde_json's idea of it).
pub trait IntoArgs {
    fn into_args(self) -> Result<Box<RawValue>, Error>;
}
impl IntoArgs for Value {
    fn into_args(self) -> Result<Box<RawValue>, Error> {
        (&self).into_args()
    }
}
impl IntoArgs for &Value {
    fn into_args(self) -> Result<Box<RawValue>, Error> {
        serde_json::value::to_raw_value(self).map_err(|e| Error::Input(format!("arguments are not JSON: {e}")))
    }
}
impl IntoArgs for Box<RawValue> {
    fn into_args(self) -> Result<Box<RawValue>, Error> {
        Ok(self)
    }
}
impl IntoArgs for &str {
    fn into_args(self) -> Result<Box<RawValue>, Error> {
        let raw: Box<RawValue> =
            serde_json::from_str(self).map_err(|e| Error::Input(format!("arguments are not JSON: {e}")))?;
        // RawValue passes a lone surrogate (`"\ud800"`), which the module's
        // reader refuses with the whole request, as the official SDK's does
        // (review 71): refused here, where it can be named.
        if let Some(at) = lone_surrogate(raw.get()) {
            return Err(Error::Input(format!(
                "arguments are not JSON a tool reads: {} at byte {at} is a lone surrogate; a \\uD800 to \\uDFFF \
                 escape must be one of a pair (the platform refuses the whole request, and the model reads \"the \
                 function crashed\")",
                &raw.get()[at..at + 6]
            )));
        }
        Ok(raw)
    }
}

/// Where valid JSON `text` has a `\u` escape of a surrogate that is not
/// one of a pair (a leading one, then a trailing one).
fn lone_surrogate(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let unit = |i: usize| -> Option<u16> {
        let hex = text.get(i + 2..i + 6)?;
        if b.get(i + 1) == Some(&b'u') { u16::from_str_radix(hex, 16).ok() } else { None }
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        match unit(i) {
            Some(0xD800..=0xDBFF) if b.get(i + 6) == Some(&b'\\') && matches!(unit(i + 6), Some(0xDC00..=0xDFFF)) => {
                i += 12
            }
            Some(0xD800..=0xDFFF) => return Some(i),
            Some(_) => i += 6,
            // Every other escape is two bytes, `\\` among them.
            None => i += 2,
        }
    }
    None
}
impl IntoArgs for String {
    fn into_args(self) -> Result<Box<RawValue>, Error> {
        self.as_str().into_args()
    }
}

/// Calls `tool` once. `Err` only when the runner cannot run the module at all.
pub fn call(module: &Module, tool: &str, args: impl IntoArgs, opts: &CallOptions) -> Result<CallOutcome, Error> {
    let args = args.into_args()?;
    let package = crate::manifest::package_name(module, opts.package.as_deref(), opts.time_limit);
    let (tmp_dir, tmp) = match &opts.tmp_dir {
        Some(d) => {
            std::fs::create_dir_all(d)?;
            (d.clone(), None)
        }
        None => {
            let t = tempfile::Builder::new().prefix("subako-volume-tmp").tempdir()?;
            (t.path().to_path_buf(), Some(t))
        }
    };
    let mut preopens = vec![("/volume/tmp".to_string(), tmp_dir.clone(), false)];
    if let Some(d) = &opts.data_dir {
        std::fs::create_dir_all(d)?;
        preopens.push(("/volume/data".into(), d.clone(), false));
    }
    if let Some(d) = &opts.assets_dir
        && has_assets(d)
    {
        preopens.push(("/package".into(), d.clone(), true));
    }
    let stdin = crate::rpc::request_line_with(opts.id.clone(), "tools/call", json!({"name": tool}), "arguments", &args);
    let run_opts = RunOptions {
        argv: vec![package],
        stdin: stdin.into_bytes(),
        preopens: preopens.clone(),
        time_limit: opts.time_limit,
        memory_limit_bytes: opts.memory_limit_bytes,
        http: opts.http.clone(),
        write_budget: opts.write_budget,
        exit_grace: Some(Duration::from_secs(1)),
        clock: opts.clock,
    };
    let output = run(module, &run_opts)?;
    let result = judge(std::slice::from_ref(&opts.id), &output).map(|mut a| a.remove(0).1);
    let links = match &result {
        Ok(v) => volume_links(v, &preopens),
        Err(_) => Vec::new(),
    };
    let result_text = result.as_ref().ok().and_then(|_| raw_result(&output.stdout, &opts.id));
    Ok(CallOutcome { result, result_text, stderr_tail: stderr_tail(&output.stderr), links, output, tmp_dir, tmp })
}

/// The text of the `result` member of the stdout line that answers `id`,
/// as the module wrote it (serde_json's `RawValue` keeps it verbatim).
fn raw_result(stdout: &[u8], id: &Value) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Answer<'a> {
        id: Option<Value>,
        #[serde(borrow)]
        result: Option<&'a serde_json::value::RawValue>,
    }
    let text = std::str::from_utf8(stdout).ok()?;
    text.lines()
        .filter_map(|l| serde_json::from_str::<Answer<'_>>(l).ok())
        .find(|a| a.id.as_ref() == Some(id) && a.result.is_some())
        .and_then(|a| a.result)
        .map(|r| r.get().to_string())
}

fn volume_links(result: &Value, preopens: &[(String, PathBuf, bool)]) -> Vec<LinkedFile> {
    let mut out = Vec::new();
    let Some(blocks) = result.get("content").and_then(Value::as_array) else { return out };
    for b in blocks {
        if b.get("type").and_then(Value::as_str) != Some("resource_link") {
            continue;
        }
        let Some(uri) = b.get("uri").and_then(Value::as_str) else { continue };
        let Some(rest) = uri.strip_prefix("volume:///") else { continue };
        let Some(segs) = rest.split('/').map(percent_decode).collect::<Option<Vec<_>>>() else { continue };
        let guest_path = format!("/volume/{}", segs.join("/"));
        let host_path = map_guest_path(preopens, &guest_path).map(|(p, _)| p);
        let size = host_path.as_ref().and_then(|p| std::fs::metadata(p).ok()).filter(|m| m.is_file()).map(|m| m.len());
        let mime_type = b.get("mimeType").and_then(Value::as_str).map(str::to_string);
        out.push(LinkedFile { uri: uri.to_string(), guest_path, host_path, size, mime_type });
    }
    out
}

/// Decodes one uri segment; `None` when it is malformed or would leave the
/// segment (an encoded `/`).
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let h = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(h, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    let s = String::from_utf8(out).ok()?;
    (!s.contains('/')).then_some(s)
}

/// Whether the assets directory `dir` holds anything: the worker mounts
/// `/package` only for a package with assets, so an empty one is not
/// mounted either (nor is one that cannot be read, which upload refuses).
pub fn has_assets(dir: &std::path::Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lone surrogate escape is refused with where it is (review 71: the
    /// module answered the whole request with a parse error); pairs, an
    /// escaped backslash before `u`, and other escapes pass.
    #[test]
    fn a_lone_surrogate_in_the_arguments_is_refused_and_named() {
        for (args, at) in [
            (r#"{"name":"\ud800"}"#, 9),
            (r#"{"name":"\udc00\ud83d"}"#, 9),
            (r#"{"a":"\ud83d\ude00","b":"x\ud83dy"}"#, 26),
            (r#"["\ud83d\u0041"]"#, 2),
        ] {
            let e = args.into_args().unwrap_err().to_string();
            assert!(e.contains(&format!("{} at byte {at} is a lone surrogate", &args[at..at + 6])), "{args}: {e}");
        }
        for args in [r#"{"a":"\ud83d\ude00"}"#, r#"{"a":"\\ud800"}"#, r#"{"a":"\n\u00e9\"\\"}"#, "[1e400]"] {
            assert_eq!(args.into_args().unwrap().get(), args);
        }
    }

    /// Pretty arguments go on the request's one line without their white
    /// space, and otherwise as written (numbers, escapes, key order).
    #[test]
    fn arguments_as_text_are_sent_compact_and_as_written() {
        let pretty = "{\n  \"z\" : [ 1e2 ,\t-0 ],\r\n  \"s\": \"a  b\\\" \\\\\",\n  \"a\": { } }";
        let line = crate::rpc::request_line_with(
            1,
            "tools/call",
            json!({"name": "t"}),
            "arguments",
            &pretty.into_args().unwrap(),
        );
        assert_eq!(line.lines().count(), 1, "{line:?}");
        let request: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(request["params"]["arguments"], serde_json::from_str::<Value>(pretty).unwrap());
        assert!(line.contains(r#""arguments":{"z":[1e2,-0],"s":"a  b\" \\","a":{}}"#), "{line}");
        assert!("{\"a\": 1 2}".into_args().is_err());
    }

    #[test]
    fn raw_result_keeps_the_module_s_text() {
        let line = r#"{"jsonrpc":"2.0","id":"call-1","result":{"z":1,"a":{"s":"}\",]","b":[1,{"c":2}]}} ,"x":3}"#;
        let out = format!("{{\"jsonrpc\":\"2.0\",\"id\":\"other\",\"result\":{{}}}}\nnot json\n{line}\n");
        let raw = raw_result(out.as_bytes(), &json!("call-1")).unwrap();
        assert_eq!(raw, r#"{"z":1,"a":{"s":"}\",]","b":[1,{"c":2}]}}"#);
        assert_eq!(raw_result(out.as_bytes(), &json!("nope")), None);
    }

    #[test]
    fn decode() {
        assert_eq!(percent_decode("a%20b.png").as_deref(), Some("a b.png"));
        assert_eq!(percent_decode("%E3%81%82").as_deref(), Some("あ"));
        assert_eq!(percent_decode("a%2Fb"), None);
        assert_eq!(percent_decode("%zz"), None);
    }

    #[test]
    fn links() {
        let pre = vec![("/volume/tmp".to_string(), PathBuf::from("/h/t"), false)];
        let v = json!({"content":[{"type":"text","text":"x"},{"type":"resource_link","uri":"volume:///tmp/my%20chart.png","name":"my chart.png","mimeType":"image/png"}]});
        let l = volume_links(&v, &pre);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].guest_path, "/volume/tmp/my chart.png");
        assert_eq!(l[0].host_path, Some(PathBuf::from("/h/t/my chart.png")));
        assert_eq!(l[0].size, None);
    }
}
