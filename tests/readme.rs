//! The README and the guide's pointers agree with the files: the quick
//! start is `examples/hello.rs` whole, every relative link names a file or
//! directory that exists, and every chapter in `src/guide/` is in the
//! rustdoc module that shows it.

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The targets of the Markdown links `[text](target)` in `text`, without
/// their `#anchor`, that are neither absolute URLs nor anchors alone.
fn relative_links(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split('#').next().unwrap_or(""))
        .filter(|target| !target.is_empty() && !target.contains("://"))
        .collect()
}

#[test]
fn the_quick_start_is_examples_hello_rs() {
    let readme = read("README.md");
    let start = readme.find("\n## Quick start\n").expect("the README has a quick start");
    let block = &readme[start..];
    let open = block.find("```rust\n").expect("the quick start opens with a ```rust block") + "```rust\n".len();
    let close = open + block[open..].find("\n```\n").expect("the block closes") + 1;
    let shown = block[open..close].strip_prefix("// examples/hello.rs\n").expect("the block names its file first");
    assert_eq!(shown, read("examples/hello.rs"), "the README's quick start is not examples/hello.rs: copy the file in");
}

#[test]
fn the_readme_links_name_files_that_exist() {
    for (doc, dir) in [("README.md", ""), ("docs/GUIDE.md", "docs"), ("DEVELOPING.md", "")] {
        for target in relative_links(&read(doc)) {
            let path = Path::new(ROOT).join(dir).join(target);
            assert!(path.exists(), "{doc} links to {target}, which does not exist");
        }
    }
}

#[test]
fn every_guide_chapter_is_in_the_guide_module() {
    let module = read("src/guide/mod.rs");
    let pointer = read("docs/GUIDE.md");
    let mut chapters = 0;
    for entry in std::fs::read_dir(Path::new(ROOT).join("src/guide")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = name.strip_suffix(".md") {
            chapters += 1;
            assert!(module.contains(&format!("include_str!(\"{name}\")")), "src/guide/mod.rs does not include {name}");
            if stem != "README" {
                assert!(pointer.contains(&format!("(../src/guide/{name})")), "docs/GUIDE.md does not list {name}");
            }
        }
    }
    assert!(chapters > 1, "src/guide/ holds no chapters");
}
