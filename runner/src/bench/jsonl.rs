//! The growth benchmark's JSON Lines workload: a tool reading a file of
//! records in `/volume/data`, measured in fuel as the file grows.

use std::time::Duration;

use serde_json::{Value, json};

use super::fuel::fuel_of;
use crate::Error;
use crate::crash::judge;
use crate::exec::{Module, RunOptions};
use crate::text::{KIB, MIB};

/// The JSON Lines workload: `tool` called with `args`, reading a file of
/// records (`record`, one per line, its `id` member numbered when it has
/// one) at `path` under `/volume/data`, as the file grows to each of `sizes`.
#[derive(Clone, Debug)]
pub struct JsonlWorkload {
    pub tool: String,
    pub args: Value,
    pub record: Value,
    /// Relative to `/volume/data`.
    pub path: String,
    /// File sizes (bytes; each file is the whole records that fill it at least).
    pub sizes: Vec<usize>,
}

/// The JSON Lines workload's sizes: about 64 KiB, 1 MiB and 8 MiB.
pub const JSONL_SIZES: [usize; 3] = [64 * KIB, MIB, 8 * MIB];

impl JsonlWorkload {
    /// The file of whole records at least `size` bytes long (one record for 0), and its line count.
    fn file(&self, size: usize) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        let mut lines = 0;
        let mut record = self.record.clone();
        while lines == 0 || out.len() < size {
            if let Some(id) = record.get_mut("id") {
                *id = json!(lines + 1);
            }
            out.extend_from_slice(record.to_string().as_bytes());
            out.push(b'\n');
            lines += 1;
        }
        (out, lines)
    }
}

/// One measured call of the JSON Lines workload.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonlProbe {
    pub file_bytes: usize,
    pub lines: usize,
    pub fuel: u64,
    pub pages: u64,
    /// `None`: the tool answered a result; else the crash or isError.
    pub problem: Option<String>,
    /// (fuel − the one-record file's fuel) / (file bytes − its bytes); not for that file.
    pub fuel_per_byte: Option<f64>,
}

impl JsonlProbe {
    pub(super) fn to_json(&self) -> Value {
        json!({"file_bytes": self.file_bytes, "lines": self.lines, "fuel": self.fuel, "pages": self.pages,
               "ok": self.problem.is_none(), "problem": self.problem, "fuel_per_byte": self.fuel_per_byte})
    }
}

/// The JSON Lines workload on `m`: the one-record file, then each size.
pub(super) fn jsonl_probes(m: &Module, package: &str, w: &JsonlWorkload) -> Result<Vec<JsonlProbe>, Error> {
    let line = crate::rpc::request_line("call-1", "tools/call", json!({"name": w.tool, "arguments": w.args}));
    let mut out: Vec<JsonlProbe> = Vec::new();
    for size in std::iter::once(0).chain(w.sizes.iter().copied()) {
        let (file, lines) = w.file(size);
        let data = tempfile::Builder::new().prefix("subako-growth-data").tempdir()?;
        let tmp = tempfile::tempdir()?;
        let path = data.path().join(&w.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::file(dir, e))?;
        }
        std::fs::write(&path, &file).map_err(|e| Error::file(&path, e))?;
        let opts = RunOptions {
            argv: vec![package.to_string()],
            stdin: line.clone().into_bytes(),
            preopens: vec![
                ("/volume/tmp".into(), tmp.path().to_path_buf(), false),
                ("/volume/data".into(), data.path().to_path_buf(), false),
            ],
            time_limit: Duration::from_secs(300),
            exit_grace: Some(Duration::from_secs(1)),
            ..RunOptions::default()
        };
        let (fuel, run) = fuel_of(m, &opts)?;
        let problem = match judge(&[json!("call-1")], &run) {
            Err(c) => Some(format!("crashed: {c}")),
            Ok(answers) => (answers[0].1.get("isError") == Some(&Value::Bool(true))).then(|| {
                let text = answers[0].1.pointer("/content/0/text").and_then(Value::as_str).unwrap_or("");
                format!("isError: {}", text.chars().take(200).collect::<String>())
            }),
        };
        let mut p =
            JsonlProbe { file_bytes: file.len(), lines, fuel, pages: run.pages_at_exit, problem, fuel_per_byte: None };
        if let Some(base) = out.first()
            && p.problem.is_none()
            && base.problem.is_none()
        {
            p.fuel_per_byte = Some((p.fuel as f64 - base.fuel as f64) / (p.file_bytes as f64 - base.file_bytes as f64));
        }
        out.push(p);
    }
    Ok(out)
}
