//! Packaging what Subako takes: `subako-package.json`, `module.wasm` and an
//! optional `assets/`, as a directory and a `.tar.gz` of the same tree.

use std::path::{Path, PathBuf};

use crate::Error;
use crate::check::{Tool, check};
use crate::error::read;
use crate::exec::Module;
use crate::manifest::{Manifest, manifest};

pub const MAX_ASSET_FILES: usize = 10_000;
pub const MAX_ASSET_BYTES: u64 = 64 << 20;

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
    let mut files = Vec::new();
    let mut total = 0u64;
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for e in std::fs::read_dir(dir.join(&rel))? {
            let e = e?;
            let rel = rel.join(e.file_name());
            let ty = e.file_type()?;
            if ty.is_dir() {
                stack.push(rel);
            } else if ty.is_file() {
                total += e.metadata()?.len();
                files.push(rel);
                if files.len() > MAX_ASSET_FILES {
                    return Err(Error::Input(format!("assets: more than {MAX_ASSET_FILES} files")));
                }
            } else {
                return Err(Error::Input(format!("assets: {} is neither a file nor a directory", rel.display())));
            }
        }
    }
    if total > MAX_ASSET_BYTES {
        return Err(Error::Input(format!("assets: {total} bytes in all; at most {MAX_ASSET_BYTES} (64 MiB)")));
    }
    files.sort();
    Ok((files, total))
}

/// Builds `out/` and `out.tar.gz`. Refuses (with the reasons) what upload would refuse.
pub fn bundle(module_path: &Path, assets: Option<&Path>, out: &Path) -> Result<BundleReport, Error> {
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
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    std::fs::create_dir_all(out)?;
    let mut pkg = serde_json::to_string_pretty(&manifest.to_json())?;
    pkg.push('\n');
    std::fs::write(out.join("subako-package.json"), &pkg)?;
    std::fs::write(out.join("module.wasm"), &bytes)?;
    if let Some(a) = assets {
        for f in &files {
            let dst = out.join("assets").join(f);
            std::fs::create_dir_all(dst.parent().unwrap())?;
            std::fs::copy(a.join(f), &dst)?;
        }
    }
    let mut archive = out.as_os_str().to_owned();
    archive.push(".tar.gz");
    let archive = PathBuf::from(archive);
    let gz = flate2::write::GzEncoder::new(std::fs::File::create(&archive)?, flate2::Compression::default());
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
