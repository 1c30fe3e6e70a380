//! The manifest a module answers `--subako-manifest` with
//! (`subako-package.json`): what `check`, `bundle`, `call` and `bench` ask
//! every module for.

use std::time::Duration;

use serde_json::{Value, json};

use crate::Error;
use crate::exec::{Exit, Module, RunOptions, run};

pub const MANIFEST_FLAG: &str = "--subako-manifest";

/// `subako-package.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    pub abi: u64,
    pub name: String,
    pub description: String,
}

impl Manifest {
    pub fn to_json(&self) -> Value {
        json!({"abi": self.abi, "name": self.name, "description": self.description})
    }
}

/// Asks the module for its manifest (`argv = [_, "--subako-manifest"]`, no stdin)
/// and checks it is ABI 1 with a non-empty name and description.
/// Within the upload check's 10 s, as the platform asks it.
pub fn manifest(module: &Module) -> Result<Manifest, Error> {
    manifest_within(module, UPLOAD_CHECK)
}

/// The time the platform's upload check gives a module.
pub const UPLOAD_CHECK: Duration = Duration::from_secs(10);

/// [`manifest`], given at most `time_limit` (and never more than the
/// upload check's).
pub fn manifest_within(module: &Module, time_limit: Duration) -> Result<Manifest, Error> {
    let opts = RunOptions {
        argv: vec!["module".into(), MANIFEST_FLAG.into()],
        time_limit: time_limit.min(UPLOAD_CHECK),
        ..RunOptions::default()
    };
    let out = run(module, &opts)?;
    if out.exit != Exit::Code(0) {
        return Err(Error::Module(format!("`module {MANIFEST_FLAG}` ended with {}", out.exit)));
    }
    let v: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| Error::Module(format!("`module {MANIFEST_FLAG}` did not print one JSON object: {e}")))?;
    let abi = v.get("abi").and_then(Value::as_u64);
    if abi != Some(1) {
        return Err(Error::Module(format!("the manifest's abi is {}, not 1", v.get("abi").unwrap_or(&Value::Null))));
    }
    let field = |k: &str| -> Result<String, Error> {
        match v.get(k).and_then(Value::as_str) {
            Some(s) if !s.trim().is_empty() => Ok(s.to_string()),
            _ => Err(Error::Module(format!("the manifest has no non-empty {k:?}"))),
        }
    };
    Ok(Manifest { abi: 1, name: field("name")?, description: field("description")? })
}

/// The package name a call passes as `argv[0]`: `given` (`--package`), else
/// the module's manifest's, asked within `time_limit`; a module that does
/// not answer it gets `module`, and stderr says why.
pub fn package_name(module: &Module, given: Option<&str>, time_limit: Duration) -> String {
    if let Some(name) = given {
        return name.to_string();
    }
    match manifest_within(module, time_limit) {
        Ok(m) => m.name,
        Err(e) => {
            eprintln!(
                "subako-tiny: the package's name could not be read ({e}); argv[0] is \"module\" (--package NAME sets it)"
            );
            "module".into()
        }
    }
}
