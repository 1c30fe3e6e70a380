//! Packaging what Subako takes: `subako-package.json`, `module.wasm` and an
//! optional `assets/`, as a directory and a `.tar.gz` of the same tree.

use std::path::{Path, PathBuf};

use crate::Error;
use crate::check::{Tool, check};
use crate::error::read;
use crate::exec::Module;
use crate::manifest::{Manifest, manifest};

pub const MAX_ASSET_FILES: usize = 10_000;
/// The whole bundle's limit: manifest, module and assets together.
pub const MAX_BUNDLE_BYTES: u64 = 64 << 20;

/// What a bundle directory holds: an existing `--out` is replaced only
/// when it holds both files and nothing but these.
const BUNDLE_ENTRIES: [&str; 3] = ["subako-package.json", "module.wasm", "assets"];

/// `p` with its symbolic links resolved, for a path that may not exist
/// yet: its nearest existing ancestor resolved, and the rest as given.
fn resolved(p: &Path) -> PathBuf {
    let absolute = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut rest = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(real) = at.canonicalize() {
            return rest.iter().rev().fold(real, |path, part| path.join(part));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return absolute,
        }
    }
}

#[derive(Clone, Debug)]
pub struct BundleReport {
    pub dir: PathBuf,
    pub archive: PathBuf,
    pub manifest: Manifest,
    pub tools: Vec<Tool>,
    pub asset_files: usize,
    pub asset_bytes: u64,
}

impl BundleReport {
    /// What was bundled and where.
    pub fn to_text(&self) -> String {
        format!(
            "bundled {} ({} tool(s), {} asset file(s), {} asset bytes)\n  {}\n  {}\n",
            self.manifest.name,
            self.tools.len(),
            self.asset_files,
            self.asset_bytes,
            self.dir.display(),
            self.archive.display()
        )
    }
}

/// Regular files under `dir` (relative paths, sorted), refusing what upload refuses.
fn asset_files(dir: &Path) -> Result<(Vec<PathBuf>, u64), Error> {
    if !dir.is_dir() {
        let what = if dir.exists() { "not a directory" } else { "no such directory" };
        return Err(Error::Input(format!(
            "--assets {}: {what}: give the directory whose files the module reads under /package",
            dir.display()
        )));
    }
    let mut files = Vec::new();
    let mut total = 0u64;
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let at = dir.join(&rel);
        for e in std::fs::read_dir(&at).map_err(|e| Error::file(&at, e))? {
            let e = e.map_err(|e| Error::file(&at, e))?;
            let rel = rel.join(e.file_name());
            let ty = e.file_type().map_err(|e| Error::file(dir.join(&rel), e))?;
            if ty.is_dir() {
                stack.push(rel);
            } else if ty.is_file() {
                total += e.metadata().map_err(|e| Error::file(dir.join(&rel), e))?.len();
                files.push(rel);
                if files.len() > MAX_ASSET_FILES {
                    return Err(Error::Input(format!(
                        "--assets {}: more than {MAX_ASSET_FILES} files, the most a bundle holds: pack small files \
                         into fewer (one JSON Lines file, say)",
                        dir.display()
                    )));
                }
            } else {
                return Err(Error::Input(format!(
                    "--assets {}: {} is neither a file nor a directory (a link, say), which upload refuses: copy \
                     what it points to in its place",
                    dir.display(),
                    rel.display()
                )));
            }
        }
    }
    files.sort();
    Ok((files, total))
}

/// `out` without trailing separators (so the archive is `out.tar.gz`
/// beside it, not `out/.tar.gz` in it), refused when it names no
/// directory of its own (`.`, `/`).
fn bundle_dir(out: &Path) -> Result<PathBuf, Error> {
    let dir: PathBuf = out.components().collect();
    if dir.file_name().is_none() {
        return Err(Error::Input(format!(
            "--out {}: names no directory of its own; give one for the bundle, such as --out bundle",
            out.display()
        )));
    }
    Ok(dir)
}

/// Makes room for the bundle at `out`: nothing there, or an earlier
/// bundle, which is removed. Anything else is refused rather than
/// removed, and so is a directory holding the module or the assets.
fn clear_out(out: &Path, module: &Path, assets: Option<&Path>) -> Result<(), Error> {
    // A bundle inside its own assets would copy itself in, one level
    // deeper each time.
    if let Some(assets) = assets
        && resolved(out).starts_with(resolved(assets))
    {
        return Err(Error::Input(format!(
            "--out {} is inside --assets {}, so the bundle would hold itself: give an --out outside the assets",
            out.display(),
            assets.display()
        )));
    }
    if !out.exists() {
        return Ok(());
    }
    if !out.is_dir() {
        return Err(Error::Input(format!(
            "--out {}: a file, not a directory; give a new directory for the bundle",
            out.display()
        )));
    }
    let inside = |p: &Path| {
        let (Ok(p), Ok(o)) = (p.canonicalize(), out.canonicalize()) else { return false };
        p.starts_with(o)
    };
    for (what, path) in [("the module", Some(module)), ("the assets", assets)] {
        if let Some(path) = path
            && inside(path)
        {
            return Err(Error::Input(format!(
                "--out {} holds {what} ({}), and bundle replaces the directory whole: give another --out",
                out.display(),
                path.display()
            )));
        }
    }
    let not_a_bundle = |why: String| {
        Error::Input(format!(
            "--out {}: {why}, so it is no earlier bundle, and bundle replaces the directory whole: give a new \
             directory",
            out.display()
        ))
    };
    for e in std::fs::read_dir(out).map_err(|e| Error::file(out, e))? {
        let name = e.map_err(|e| Error::file(out, e))?.file_name();
        if !BUNDLE_ENTRIES.iter().any(|n| name == *n) {
            return Err(not_a_bundle(format!("holds {}", name.to_string_lossy())));
        }
    }
    for file in &BUNDLE_ENTRIES[..2] {
        if !out.join(file).is_file() {
            return Err(not_a_bundle(format!("has no {file}")));
        }
    }
    std::fs::remove_dir_all(out).map_err(|e| Error::file(out, e))
}

/// Makes room for the archive `out.tar.gz`: nothing there, or an earlier
/// bundle's archive (its first entry `subako-package.json`), which is
/// replaced. Anything else is refused, before anything is written (review
/// 71: a file of the same name was overwritten).
fn clear_archive(archive: &Path, out: &Path) -> Result<(), Error> {
    let Ok(meta) = std::fs::symlink_metadata(archive) else { return Ok(()) };
    let earlier = meta.is_file()
        && std::fs::File::open(archive).ok().is_some_and(|f| {
            let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(f));
            tar.entries()
                .ok()
                .and_then(|mut e| e.next())
                .and_then(Result::ok)
                .is_some_and(|first| first.path().ok().is_some_and(|p| p.as_os_str() == BUNDLE_ENTRIES[0]))
        });
    if earlier {
        return Ok(());
    }
    let what = if meta.is_dir() {
        "a directory"
    } else if meta.file_type().is_symlink() {
        "a symbolic link, which bundle does not write through"
    } else {
        "no earlier bundle's archive"
    };
    Err(Error::Input(format!(
        "--out {}: {} is there, {what}, and bundle writes its archive there: give another --out, or move it",
        out.display(),
        archive.display()
    )))
}

/// Builds `out/` and `out.tar.gz`. Refuses (with the reasons) what upload would refuse.
pub fn bundle(module_path: &Path, assets: Option<&Path>, out: &Path) -> Result<BundleReport, Error> {
    let out = &bundle_dir(out)?;
    let bytes = read(module_path)?;
    let (files, total) = match assets {
        Some(a) => asset_files(a)?,
        None => (Vec::new(), 0),
    };
    let report = check(&bytes, assets);
    if !report.accepted() {
        return Err(Error::Module(format!("Subako would refuse this module:\n  {}", report.failures.join("\n  "))));
    }
    let module = Module::from_bytes(&bytes)?;
    let manifest = manifest(&module)?;
    let mut pkg = serde_json::to_string_pretty(&manifest.to_json())?;
    pkg.push('\n');
    let whole = pkg.len() as u64 + bytes.len() as u64 + total;
    if whole > MAX_BUNDLE_BYTES {
        return Err(Error::Input(format!(
            "the bundle would hold {whole} bytes (module {}, assets {total}), over the {MAX_BUNDLE_BYTES} (64 MiB) \
             a bundle may hold in all: keep large data out of the assets (the module can fetch it, or read it from \
             the volume)",
            bytes.len()
        )));
    }
    let mut archive = out.as_os_str().to_owned();
    archive.push(".tar.gz");
    let archive = PathBuf::from(archive);
    clear_archive(&archive, out)?;
    clear_out(out, module_path, assets)?;
    std::fs::create_dir_all(out).map_err(|e| Error::file(out, e))?;
    std::fs::write(out.join("subako-package.json"), &pkg)?;
    std::fs::write(out.join("module.wasm"), &bytes)?;
    if let Some(a) = assets {
        for f in &files {
            let dst = out.join("assets").join(f);
            std::fs::create_dir_all(dst.parent().unwrap())?;
            std::fs::copy(a.join(f), &dst)?;
        }
    }
    let file = std::fs::File::create(&archive).map_err(|e| Error::file(&archive, e))?;
    let gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    tar.mode(tar::HeaderMode::Deterministic);
    tar.append_path_with_name(out.join("subako-package.json"), "subako-package.json")?;
    tar.append_path_with_name(out.join("module.wasm"), "module.wasm")?;
    for f in &files {
        tar.append_path_with_name(out.join("assets").join(f), Path::new("assets").join(f))?;
    }
    tar.into_inner()?.finish()?;
    Ok(BundleReport {
        dir: out.to_path_buf(),
        archive,
        manifest,
        tools: report.tools,
        asset_files: files.len(),
        asset_bytes: total,
    })
}
