//! The `files` package: text files kept in the session volume, where they
//! outlive the call that wrote them (each call is a fresh instance), and
//! templates shipped with the package as assets, read from `/package`.
//!
//! Its assets are `examples/assets/files/`: bundle them with
//! `subako-tiny bundle --module files.wasm --assets examples/assets/files --out DIR`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

extern crate alloc;

use alloc::borrow::Cow;
use alloc::string::String;

use subako_tiny::fs::{self, errno};
use subako_tiny::{Args, Package, Reply, Tool, ToolError};

/// This package's own directory in the session volume (all tools of a
/// session share the volume).
const SESSION_DIR: &str = "/volume/tmp/files";
/// The same beneath `/volume/data`, which outlives the session when the
/// agent enables it.
const KEPT_DIR: &str = "/volume/data/files";

/// `name`, when it names a file inside one directory: not empty, no `/`,
/// no `..`.
fn file_name<'a>(args: &Args<'a>) -> Result<Cow<'a, str>, ToolError> {
    let name = args.str("name")?;
    let bytes = name.as_bytes();
    let refused = bytes.is_empty()
        || bytes == b"."
        || bytes.iter().any(|&b| b == b'/' || b == 0)
        || bytes.windows(2).any(|pair| pair == b"..");
    if refused {
        return Err(ToolError::invalid_input("`name` must be a file name: not empty, without `/` or `..`"));
    }
    Ok(name)
}

fn dir(args: &Args<'_>) -> Result<&'static str, ToolError> {
    Ok(if args.opt_bool("keep")?.unwrap_or(false) { KEPT_DIR } else { SESSION_DIR })
}

/// Written whole or not at all (`fs::write_atomic`): a save the volume
/// refuses part-way leaves the file's old text, where `fs::write` would
/// leave it emptied.
fn save(args: &Args<'_>) -> Result<Reply, ToolError> {
    let name = file_name(args)?;
    let text = args.str("text")?;
    let dir = dir(args)?;
    fs::create_dir_all(dir)?;
    let path = [dir, "/", &name].concat();
    fs::write_atomic(&path, text.as_bytes())?;
    Ok(Reply::object(|o| o.field("path", &path).field("bytes", text.len())))
}

fn load(args: &Args<'_>) -> Result<Reply, ToolError> {
    let name = file_name(args)?;
    let path = [dir(args)?, "/", &name].concat();
    let text = fs::read_to_string(&path)?;
    Ok(Reply::object(|o| o.field("text", &text)))
}

fn list(args: &Args<'_>) -> Result<Reply, ToolError> {
    let names = match fs::read_dir(dir(args)?) {
        Ok(names) => names,
        // Nothing saved yet.
        Err(e) if e.errno() == Some(errno::NOENT) => alloc::vec::Vec::new(),
        Err(e) => return Err(e.into()),
    };
    Ok(Reply::object(|o| o.field("names", &names)))
}

fn template(args: &Args<'_>) -> Result<Reply, ToolError> {
    let name = file_name(args)?;
    let path: String = ["/package/templates/", &name, ".txt"].concat();
    let text = fs::read_to_string(&path)?;
    Ok(Reply::object(|o| o.field("text", &text)))
}

pub const PACKAGE: Package = Package::new(
    "files",
    env!("CARGO_PKG_VERSION"),
    "Saves, loads and lists text files in the session volume.",
    &[
        Tool::new("save", "Save text as a file in the session volume, replacing a file of the same name.", r#"{
                "properties": {
                    "name": {"description": "A file name: no `/`, no `..`.", "type": "string"},
                    "text": {"description": "The file's contents.", "type": "string"},
                    "keep": {"description": "Save in /volume/data, which outlives the session (when the agent enables it).", "type": "boolean"}
                },
                "required": ["name", "text"],
                "type": "object"
            }"#, save).output_schema(
                r#"{"properties": {"path": {"type": "string"}, "bytes": {"type": "integer"}}, "required": ["path", "bytes"], "type": "object"}"#,
            ),
        Tool::new("load", "Load a text file saved with `save`.", r#"{
                "properties": {
                    "name": {"description": "A file name: no `/`, no `..`.", "type": "string"},
                    "keep": {"description": "Load from /volume/data instead of the session's files.", "type": "boolean"}
                },
                "required": ["name"],
                "type": "object"
            }"#, load).output_schema(
                r#"{"properties": {"text": {"type": "string"}}, "required": ["text"], "type": "object"}"#,
            ),
        Tool::new("list", "List the names of the saved files, sorted.", r#"{
                "properties": {
                    "keep": {"description": "List /volume/data instead of the session's files.", "type": "boolean"}
                },
                "type": "object"
            }"#, list).output_schema(
                r#"{"properties": {"names": {"items": {"type": "string"}, "type": "array"}}, "required": ["names"], "type": "object"}"#,
            ),
        Tool::new("template", "Read one of the package's templates (`greeting`, `report`).", r#"{
                "properties": {
                    "name": {"description": "The template's name, without `.txt`.", "type": "string"}
                },
                "required": ["name"],
                "type": "object"
            }"#, template).output_schema(
                r#"{"properties": {"text": {"type": "string"}}, "required": ["text"], "type": "object"}"#,
            ),
    ],
);

subako_tiny::main!(PACKAGE);

/// Natively, through the host back end: `cargo test --example files`.
#[cfg(test)]
mod tests {
    use subako_tiny::testing;

    use super::PACKAGE;

    /// The answer of a call that succeeded: its `structuredContent`.
    #[track_caller]
    fn structured(tool: &str, arguments: &str) -> String {
        let called = testing::call(&PACKAGE, tool, arguments);
        assert!(!called.is_error(), "{}", called.line());
        assert_eq!(called.text(), called.structured().unwrap(), "the text block is the JSON");
        called.structured().unwrap().to_string()
    }

    /// The message of a call that failed.
    #[track_caller]
    fn error(tool: &str, arguments: &str) -> String {
        let called = testing::call(&PACKAGE, tool, arguments);
        assert!(called.is_error(), "{}", called.line());
        called.text().to_string()
    }

    #[test]
    fn save_list_load_and_templates() {
        let volume = std::env::temp_dir().join(format!("subako-tiny-files-example-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&volume);
        std::fs::create_dir_all(&volume).unwrap();
        let assets = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/assets/files");
        subako_tiny::fs::mount("/volume/tmp", &volume);
        subako_tiny::fs::mount("/package", assets);

        assert_eq!(structured("list", "{}"), r#"{"names":[]}"#, "nothing saved yet");
        assert_eq!(
            structured("save", r#"{"name":"b.txt","text":"bee"}"#),
            r#"{"path":"/volume/tmp/files/b.txt","bytes":3}"#
        );
        assert_eq!(structured("list", "{}"), r#"{"names":["b.txt"]}"#);
        assert_eq!(
            structured("save", r#"{"name":"a.txt","text":"ay"}"#),
            r#"{"path":"/volume/tmp/files/a.txt","bytes":2}"#
        );
        assert_eq!(std::fs::read_to_string(volume.join("files/b.txt")).unwrap(), "bee");
        assert_eq!(structured("list", "{}"), r#"{"names":["a.txt","b.txt"]}"#);
        assert_eq!(structured("load", r#"{"name":"b.txt"}"#), r#"{"text":"bee"}"#);
        assert_eq!(
            error("load", r#"{"name":"c.txt"}"#),
            "read /volume/tmp/files/c.txt: no such file or directory (ENOENT)"
        );
        assert_eq!(
            error("load", r#"{"name":"../x"}"#),
            "invalid input: `name` must be a file name: not empty, without `/` or `..`"
        );
        let greeting = std::fs::read_to_string(format!("{assets}/templates/greeting.txt")).unwrap();
        let expected = serde_json::json!({"text": greeting}).to_string();
        assert_eq!(structured("template", r#"{"name":"greeting"}"#), expected);
        assert_eq!(
            error("save", r#"{"name":"k","text":"x","keep":true}"#),
            "create directory /volume/data/files: /volume/data is not mounted: the agent has not enabled it"
        );
        subako_tiny::fs::unmount("/volume/tmp");
        subako_tiny::fs::unmount("/package");
        let _ = std::fs::remove_dir_all(&volume);
    }
}
