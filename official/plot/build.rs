//! The chart is drawn by subako-tiny's own `examples/plot.rs`: this copies
//! its drawing and file-naming items (everything but the tool function and
//! the package table, which are the SDK's part) into `$OUT_DIR/chart.rs`, so
//! the two modules differ only in the SDK around the same code.

use std::path::Path;

/// The items of examples/plot.rs that talk to subako-tiny's API; main.rs
/// writes them again with the official SDK.
const SDK_ITEMS: [&str; 5] = ["values", "new_plot_file", "write_png", "plot", "PACKAGE"];

fn main() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plot.rs");
    println!("cargo:rerun-if-changed={}", example.display());
    let source = std::fs::read_to_string(&example).expect("examples/plot.rs");
    let mut out = String::new();
    let mut kept = Vec::new();
    for item in items(&source) {
        let Some(name) = item_name(&item) else { continue };
        if SDK_ITEMS.contains(&name.as_str()) {
            continue;
        }
        kept.push(name);
        out.push_str(&item);
        out.push('\n');
    }
    for needed in ["Chart", "PALETTE", "BACKGROUND", "file_stem", "file_number", "DIR"] {
        assert!(kept.iter().any(|k| k == needed), "examples/plot.rs no longer defines {needed}: update official/plot");
    }
    std::fs::write(Path::new(&std::env::var("OUT_DIR").unwrap()).join("chart.rs"), out).unwrap();
}

/// Top-level items of rustfmt-formatted source, each with its doc comments
/// and attributes: from a column-0 line to the `}`/`];`/`;` closing it.
fn items(source: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut current = String::new();
    let mut open = false;
    for line in source.lines() {
        let starts_item = !line.starts_with(' ') && !line.is_empty() && !line.starts_with("//!") && !line.starts_with("#![");
        if !open && !starts_item {
            current.clear();
            continue;
        }
        current.push_str(line);
        current.push('\n');
        let is_prefix = line.starts_with("///") || line.starts_with("#[") || line.starts_with("//");
        if !open && is_prefix {
            continue;
        }
        open = true;
        let top = !line.starts_with(' ');
        let closes = matches!(line, "}" | "};" | "];" | ");") || (top && (line.ends_with(';') || line.ends_with('}')));
        if closes {
            items.push(std::mem::take(&mut current));
            open = false;
        }
    }
    items
}

/// The name an item declares (`impl X` counts as `X`); None for `use` and macros.
fn item_name(item: &str) -> Option<String> {
    let decl = item.lines().find(|l| !l.starts_with("///") && !l.starts_with("#[") && !l.starts_with("//"))?;
    let decl = decl.strip_prefix("pub ").unwrap_or(decl);
    let rest = ["const ", "static ", "fn ", "struct ", "enum ", "impl "].iter().find_map(|k| decl.strip_prefix(k))?;
    let rest = rest.strip_prefix('<').map_or(rest, |r| r.split_once("> ").map_or(r, |(_, x)| x));
    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}
