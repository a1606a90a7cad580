//! The filesystem side of the host: read a source tree, observe an output
//! root, apply a plan with atomic writes (temp file + rename, manifests last).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use plugforge_core::{BundlePath, Observed, Op, Plan, SourceTree, sha256_hex};

/// Folders never read as plugin source.
const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

#[derive(Debug)]
pub struct IoError(pub String);

impl IoError {
    fn at(path: &Path, error: impl std::fmt::Display) -> Self {
        IoError(format!("{}: {error}", path.display()))
    }
}

pub type IoResult<T> = Result<T, IoError>;

/// Reads every file below `root` (skipping VCS, dependency and `exclude` folders).
pub fn read_tree(root: &Path, exclude: &[PathBuf]) -> IoResult<SourceTree> {
    let mut tree = SourceTree::new();
    let exclude: Vec<PathBuf> = exclude.iter().filter_map(|p| p.canonicalize().ok()).collect();
    for (rel, path) in walk(root, &|dir: &Path| {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        SKIPPED_DIRS.contains(&name) || dir.canonicalize().is_ok_and(|c| exclude.contains(&c))
    })? {
        let bytes = fs::read(&path).map_err(|e| IoError::at(&path, e))?;
        let executable = is_executable(&path);
        tree.insert(&rel, bytes, executable).map_err(|e| IoError::at(&path, e.message()))?;
    }
    Ok(tree)
}

/// Hashes every file below `root` and reads the bytes of `to_read`.
pub fn observe(root: &Path, to_read: &[BundlePath]) -> IoResult<Observed> {
    let mut observed = Observed::default();
    if !root.exists() {
        return Ok(observed);
    }
    for (rel, path) in walk(root, &|_: &Path| false)? {
        let bytes = fs::read(&path).map_err(|e| IoError::at(&path, e))?;
        observed.hashes.insert(rel.clone(), sha256_hex(&bytes));
        if to_read.iter().any(|p| p.as_str() == rel) {
            observed.contents.insert(rel, bytes.into());
        }
    }
    Ok(observed)
}

/// Applies a plan that is not refused. Each write lands whole or not at all.
pub fn apply(root: &Path, plan: &Plan) -> IoResult<()> {
    assert!(!plan.refused, "a refused plan is never applied");
    for action in &plan.actions {
        let target = root.join(action.path.as_str());
        match (action.op, &action.bytes) {
            (Op::Create | Op::Update, Some(bytes)) => write_atomic(&target, bytes, action.executable)?,
            (Op::Remove, _) => remove(root, &target)?,
            _ => {}
        }
    }
    Ok(())
}

/// Writes a new source tree below `dir` (`init`).
pub fn create_files(dir: &Path, tree: &SourceTree) -> IoResult<()> {
    for (path, file) in tree.iter() {
        write_atomic(&dir.join(path.as_str()), &file.bytes, file.executable)?;
    }
    Ok(())
}

fn write_atomic(target: &Path, bytes: &[u8], executable: bool) -> IoResult<()> {
    let dir = target.parent().expect("bundle paths have a parent");
    fs::create_dir_all(dir).map_err(|e| IoError::at(dir, e))?;
    let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temp = dir.join(format!(".{name}.plugforge-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        set_executable(&temp, executable)?;
        fs::rename(&temp, target)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&temp);
        IoError::at(target, e)
    })
}

fn remove(root: &Path, target: &Path) -> IoResult<()> {
    match fs::remove_file(target) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(IoError::at(target, e)),
    }
    // Folders emptied by the removal go too, up to the output root.
    let mut dir = target.parent();
    while let Some(current) = dir {
        if current == root || fs::remove_dir(current).is_err() {
            break;
        }
        dir = current.parent();
    }
    Ok(())
}

/// (relative path with `/`, absolute path) of every file below `root`, sorted.
fn walk(root: &Path, skip_dir: &dyn Fn(&Path) -> bool) -> IoResult<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| IoError::at(&dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| IoError::at(&dir, e))?;
            let path = entry.path();
            let kind = entry.file_type().map_err(|e| IoError::at(&path, e))?;
            if kind.is_dir() {
                if !skip_dir(&path) {
                    pending.push(path);
                }
            } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
                let rel = path.strip_prefix(root).expect("below root");
                let rel: Vec<&str> = rel.iter().map(|c| c.to_str().unwrap_or("\u{fffd}")).collect();
                out.push((rel.join("/"), path));
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    false
}

#[cfg(unix)]
fn set_executable(path: &Path, executable: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = if executable { 0o755 } else { 0o644 };
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_executable(_: &Path, _: bool) -> std::io::Result<()> {
    Ok(())
}
