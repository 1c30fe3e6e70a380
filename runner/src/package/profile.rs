//! Whether a package is built with the size profile: `[profile.release]` of
//! its workspace root (Cargo reads profiles there only), read with the
//! `toml` crate, and the `CARGO_PROFILE_RELEASE_*` variables that override it.

use std::path::Path;

use crate::Error;

/// The size profile: each key, the values that count as it, and what to write.
const SIZE_PROFILE: [(&str, &[&str], &str); 5] = [
    ("opt-level", &["\"z\"", "\"s\""], "\"z\""),
    ("lto", &["true", "\"fat\""], "true"),
    ("codegen-units", &["1"], "1"),
    ("panic", &["\"abort\""], "\"abort\""),
    ("strip", &["true", "\"symbols\""], "true"),
];

/// A profile value as TOML writes it (`"z"`, `true`, `1`).
fn written(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("{s:?}"),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Float(f) => f.to_string(),
        _ => "(a table or an array)".to_string(),
    }
}

/// What `[profile.release]` lacks of the size profile, as a warning with
/// the fix; `None` when the package is built with it.
pub fn warning(workspace_root: &Path, package_manifest: &Path) -> Result<Option<String>, Error> {
    let root = workspace_root.join("Cargo.toml");
    let text = std::fs::read_to_string(&root).map_err(|e| Error::file(&root, e))?;
    let doc: toml::Table =
        text.parse().map_err(|e| Error::Input(format!("{}: not TOML Cargo can read: {e}", root.display())))?;
    let release = doc.get("profile").and_then(|p| p.get("release")).and_then(toml::Value::as_table);
    let mut diffs = Vec::new();
    for (key, allowed, want) in SIZE_PROFILE {
        let env = format!("CARGO_PROFILE_RELEASE_{}", key.to_uppercase().replace('-', "_"));
        if let Ok(v) = std::env::var(&env) {
            diffs.push(format!("{env}={v} overrides {key} (want {key} = {want})"));
            continue;
        }
        match release.and_then(|r| r.get(key)).map(written) {
            None => diffs.push(format!("{key} is not set (want {key} = {want})")),
            // Type-aware: TOML's `true` is not the integer 1, nor the string "true".
            Some(v) if !allowed.contains(&v.as_str()) => diffs.push(format!("{key} = {v} (want {key} = {want})")),
            Some(_) => {}
        }
    }
    if diffs.is_empty() {
        return Ok(None);
    }
    let same = root.canonicalize().ok() == package_manifest.canonicalize().ok();
    let where_ = if same {
        root.display().to_string()
    } else {
        format!("{}, the workspace root (cargo reads profiles there only)", root.display())
    };
    Ok(Some(format!(
        "built without the size profile: [profile.release] in {where_}: {}; copy [profile.release] from the \
         README's \"Use it in your package\" (opt-level = \"z\", lto = true, codegen-units = 1, panic = \"abort\", \
         strip = true)",
        diffs.join("; ")
    )))
}
