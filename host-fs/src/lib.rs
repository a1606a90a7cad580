//! The filesystem side of every plugforge host (the command line, the Node
//! and Python packages): read a source tree confined to its root, observe an
//! output root, apply a plan with crash-safe writes (temp file + rename,
//! manifests last, leftovers of a killed run swept by the next one).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use plugforge_core::{BundlePath, Observed, Op, Plan, SourceTree, sha256_hex};

mod clock;

pub use clock::generated_at;

/// Folders never read as plugin source.
const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

/// Every temp file starts with this, so a run killed between writing and
/// renaming leaves something the next run recognises and removes.
pub const TEMP_PREFIX: &str = ".plugforge-tmp-";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostError {
    /// Unreadable or unwritable files, and files a source may not hold.
    Io(String),
    /// A plan path that is not a clean relative path.
    InvalidPath(String),
}

impl HostError {
    fn at(path: &Path, error: impl std::fmt::Display) -> Self {
        HostError::Io(format!("{}: {error}", path.display()))
    }

    pub fn message(&self) -> &str {
        match self {
            HostError::Io(message) | HostError::InvalidPath(message) => message,
        }
    }

    /// The error code string of the README's table.
    pub fn code(&self) -> &'static str {
        match self {
            HostError::Io(_) => "io",
            HostError::InvalidPath(_) => "invalid_path",
        }
    }
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

pub type HostResult<T> = Result<T, HostError>;

/// Whether `name` is a temp file of an interrupted write: this version's
/// `.plugforge-tmp-*`, or the `.<name>.plugforge-<pid>.tmp` earlier versions left.
pub fn is_temp_name(name: &str) -> bool {
    if name.starts_with(TEMP_PREFIX) {
        return true;
    }
    let Some(stem) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else { return false };
    stem.rsplit_once(".plugforge-")
        .is_some_and(|(_, pid)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
}

/// Reads every file below `root` (skipping VCS, dependency and `exclude`
/// folders) without ever leaving it: a symbolic link to a file inside the
/// root reads as that file; one that leads outside, nowhere or in a loop,
/// and FIFOs, sockets and devices, are an error naming each such path
/// relative to the root. Symlinked folders inside the root are not followed.
pub fn read_tree(root: &Path, exclude: &[PathBuf]) -> HostResult<SourceTree> {
    let real_root = root.canonicalize().map_err(|e| HostError::at(root, e))?;
    let exclude: Vec<PathBuf> = exclude.iter().filter_map(|p| p.canonicalize().ok()).collect();
    let entries = walk(root, &|dir: &Path| {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        SKIPPED_DIRS.contains(&name) || dir.canonicalize().is_ok_and(|c| exclude.contains(&c))
    })?;
    let mut tree = SourceTree::new();
    let mut refused = Vec::new();
    for entry in entries {
        let path = match entry.kind {
            EntryKind::File => entry.path.clone(),
            EntryKind::Special => {
                refused.push(format!("{}: not a regular file (a FIFO, socket or device)", entry.rel));
                continue;
            }
            EntryKind::Symlink => match confined_link(&real_root, &entry.path) {
                Ok(Some(target)) => target,
                Ok(None) => continue,
                Err(why) => {
                    refused.push(format!("{}: {why}", entry.rel));
                    continue;
                }
            },
        };
        // A file over the engine's limits is not read at all: the engine
        // refuses the tree with a `limit` error naming it.
        let len = fs::metadata(&path).map_err(|e| HostError::at(&entry.path, e))?.len();
        if let Some(why) = tree.admits(len) {
            tree.refuse_over_limit(&entry.rel, why);
            break;
        }
        let bytes = fs::read(&path).map_err(|e| HostError::at(&entry.path, e))?;
        let executable = is_executable(&path);
        tree.insert(&entry.rel, bytes, executable).map_err(|e| HostError::at(&entry.path, e.message()))?;
    }
    if !refused.is_empty() {
        let root = root.display();
        let lines: Vec<String> = refused.into_iter().map(|why| format!("{root}: {why}")).collect();
        return Err(HostError::Io(lines.join("\n")));
    }
    Ok(tree)
}

/// Where the symbolic link `link` leads, if that is a regular file inside
/// `real_root` (`None` for a folder inside it, which is not followed); why
/// it may not be read otherwise.
fn confined_link(real_root: &Path, link: &Path) -> Result<Option<PathBuf>, String> {
    let written = fs::read_link(link).map_err(|e| format!("symbolic link cannot be read: {e}"))?;
    let shown = written.display();
    let target =
        link.canonicalize().map_err(|e| format!("symbolic link to {shown} cannot be followed: {e}"))?;
    if !target.starts_with(real_root) {
        return Err(format!("symbolic link to {shown} leads outside the folder being read"));
    }
    let meta = fs::metadata(&target).map_err(|e| format!("symbolic link to {shown}: {e}"))?;
    if meta.is_dir() {
        Ok(None)
    } else if meta.is_file() {
        Ok(Some(target))
    } else {
        Err(format!("symbolic link to {shown}, not a regular file (a FIFO, socket or device)"))
    }
}

/// Hashes every file below `root` and reads the bytes of `to_read`; temp
/// files of an interrupted write are not part of what is there.
pub fn observe(root: &Path, to_read: &[&str]) -> HostResult<Observed> {
    let mut observed = Observed::default();
    if !root.exists() {
        return Ok(observed);
    }
    for entry in walk(root, &|_: &Path| false)? {
        let readable = match entry.kind {
            EntryKind::File => true,
            EntryKind::Symlink => entry.path.is_file(),
            EntryKind::Special => false,
        };
        let name = entry.rel.rsplit('/').next().unwrap_or_default();
        if !readable || is_temp_name(name) {
            continue;
        }
        let bytes = fs::read(&entry.path).map_err(|e| HostError::at(&entry.path, e))?;
        observed.hashes.insert(entry.rel.clone(), sha256_hex(&bytes));
        if to_read.contains(&entry.rel.as_str()) {
            observed.contents.insert(entry.rel, bytes.into());
        }
    }
    Ok(observed)
}

/// One file operation of a plan, below the output root.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    Write {
        path: &'a str,
        bytes: &'a [u8],
        executable: bool,
    },
    Remove {
        path: &'a str,
    },
    /// A path the plan leaves alone (unchanged, kept, conflicting): its
    /// folder is still swept of temp files.
    Keep {
        path: &'a str,
    },
}

impl<'a> Step<'a> {
    pub fn path(&self) -> &'a str {
        match *self {
            Step::Write { path, .. } | Step::Remove { path } | Step::Keep { path } => path,
        }
    }
}

/// The steps of a core plan, in its order (manifests last).
pub fn plan_steps(plan: &Plan) -> Vec<Step<'_>> {
    fn step(action: &plugforge_core::Action) -> Step<'_> {
        let path = action.path.as_str();
        match (action.op, &action.bytes) {
            (Op::Create | Op::Update, Some(bytes)) => {
                Step::Write { path, bytes, executable: action.executable }
            }
            (Op::Remove, _) => Step::Remove { path },
            _ => Step::Keep { path },
        }
    }
    plan.actions.iter().map(step).collect()
}

/// Performs file operations, counting them. `abort_at` makes the operation
/// of that number (from 1) kill the process halfway, the way a crash or
/// `kill -9` would: a test hook the command line sets from its environment.
#[derive(Debug, Default)]
pub struct Writer {
    abort_at: Option<u64>,
    done: u64,
}

impl Writer {
    pub fn new() -> Self {
        Writer::default()
    }

    pub fn aborting_at(operation: u64) -> Self {
        Writer { abort_at: Some(operation), done: 0 }
    }

    /// Counts one operation; true when this one is to be cut short.
    fn next_is_fatal(&mut self) -> bool {
        self.done += 1;
        self.abort_at == Some(self.done)
    }

    fn checkpoint(&mut self) {
        if self.next_is_fatal() {
            std::process::abort();
        }
    }

    /// Applies `steps` below `root`: every path is checked first (a clean
    /// relative path, no symbolic link on the way to a write or removal,
    /// which could lead outside the root), so a refusal writes nothing; then
    /// the folders the plan touches are swept of temp files an interrupted
    /// run left; then each write lands whole or not at all, in order.
    pub fn apply(&mut self, root: &Path, steps: &[Step<'_>]) -> HostResult<()> {
        let mut folders = Vec::new();
        for step in steps {
            let path = BundlePath::new(step.path()).map_err(|e| HostError::InvalidPath(e.message()))?;
            if let Some(link) = symlinked_folder(root, path.as_str()) {
                if matches!(step, Step::Keep { .. }) {
                    continue;
                }
                return Err(HostError::Io(format!(
                    "{}: {link}/ is a symbolic link leading outside the output root; plugforge writes only \
                     below the output root (nothing was written; remove the link or choose another output folder)",
                    root.display()
                )));
            }
            let folder = root.join(path.as_str()).parent().map(Path::to_path_buf);
            if let Some(folder) = folder.filter(|f| !folders.contains(f)) {
                folders.push(folder);
            }
        }
        for folder in &folders {
            self.sweep(folder)?;
        }
        for step in steps {
            let target = root.join(step.path());
            match *step {
                Step::Write { bytes, executable, .. } => self.write_atomic(&target, bytes, executable)?,
                Step::Remove { .. } => self.remove(root, &target)?,
                Step::Keep { .. } => {}
            }
        }
        Ok(())
    }

    /// Writes a new source tree below `dir` (`init`).
    pub fn create_files(&mut self, dir: &Path, tree: &SourceTree) -> HostResult<()> {
        let steps: Vec<Step<'_>> = tree
            .iter()
            .map(|(path, file)| Step::Write {
                path: path.as_str(),
                bytes: &file.bytes,
                executable: file.executable,
            })
            .collect();
        self.apply(dir, &steps)
    }

    /// Removes the temp files of interrupted writes in `folder`.
    fn sweep(&mut self, folder: &Path) -> HostResult<()> {
        if fs::symlink_metadata(folder).map_or(true, |m| !m.is_dir()) {
            return Ok(());
        }
        let entries = fs::read_dir(folder).map_err(|e| HostError::at(folder, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| HostError::at(folder, e))?;
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if is_file && entry.file_name().to_str().is_some_and(is_temp_name) {
                self.checkpoint();
                let path = entry.path();
                fs::remove_file(&path).or_else(ignore_missing).map_err(|e| HostError::at(&path, e))?;
            }
        }
        Ok(())
    }

    fn write_atomic(&mut self, target: &Path, bytes: &[u8], executable: bool) -> HostResult<()> {
        let dir = target.parent().expect("bundle paths have a parent");
        fs::create_dir_all(dir).map_err(|e| HostError::at(dir, e))?;
        let temp = dir.join(format!("{TEMP_PREFIX}{}-{}", std::process::id(), self.done + 1));
        let fatal = self.next_is_fatal();
        let result = (|| {
            let mut file = fs::File::create(&temp)?;
            if fatal {
                // Half the bytes reach the disk, then the process dies.
                file.write_all(&bytes[..bytes.len() / 2])?;
                file.sync_all()?;
                std::process::abort();
            }
            file.write_all(bytes)?;
            file.sync_all()?;
            set_executable(&temp, executable)?;
            self.checkpoint();
            fs::rename(&temp, target)
        })();
        result.map_err(|e| {
            let _ = fs::remove_file(&temp);
            HostError::at(target, e)
        })
    }

    fn remove(&mut self, root: &Path, target: &Path) -> HostResult<()> {
        self.checkpoint();
        fs::remove_file(target).or_else(ignore_missing).map_err(|e| HostError::at(target, e))?;
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
}

fn ignore_missing(error: std::io::Error) -> std::io::Result<()> {
    if error.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(error) }
}

/// The first folder of `rel` below `root` that is a symbolic link leading
/// outside the output root (or nowhere), so that writing or removing
/// through it could touch files outside the root. A link that stays inside
/// the root (a dotfiles `~/.claude` kept elsewhere in the home folder) is
/// written through.
fn symlinked_folder(root: &Path, rel: &str) -> Option<String> {
    let segments: Vec<&str> = rel.split('/').collect();
    let mut folder = root.to_path_buf();
    let real_root = root.canonicalize().ok();
    for (depth, segment) in segments[..segments.len() - 1].iter().enumerate() {
        folder.push(segment);
        match fs::symlink_metadata(&folder) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let inside = match (folder.canonicalize(), &real_root) {
                    (Ok(target), Some(real_root)) => target.starts_with(real_root) && target.is_dir(),
                    _ => false,
                };
                if !inside {
                    return Some(segments[..=depth].join("/"));
                }
            }
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EntryKind {
    File,
    Symlink,
    /// A FIFO, socket or device.
    Special,
}

struct Entry {
    /// Relative to the walked root, `/`-separated.
    rel: String,
    path: PathBuf,
    kind: EntryKind,
}

/// Every non-folder entry below `root`, sorted by relative path; folders
/// are entered unless `skip_dir`, symbolic links to folders never.
fn walk(root: &Path, skip_dir: &dyn Fn(&Path) -> bool) -> HostResult<Vec<Entry>> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| HostError::at(&dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| HostError::at(&dir, e))?;
            let path = entry.path();
            let kind = entry.file_type().map_err(|e| HostError::at(&path, e))?;
            let kind = if kind.is_dir() {
                if !skip_dir(&path) {
                    pending.push(path);
                }
                continue;
            } else if kind.is_file() {
                EntryKind::File
            } else if kind.is_symlink() {
                EntryKind::Symlink
            } else {
                EntryKind::Special
            };
            let rel = path.strip_prefix(root).expect("below root");
            let rel: Vec<&str> = rel.iter().map(|c| c.to_str().unwrap_or("\u{fffd}")).collect();
            out.push(Entry { rel: rel.join("/"), path, kind });
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
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

#[cfg(test)]
mod tests {
    use super::is_temp_name;

    #[test]
    fn recognises_temp_files_of_this_and_earlier_versions() {
        assert!(is_temp_name(".plugforge-tmp-123-4"));
        assert!(is_temp_name(".plugin.json.plugforge-4242.tmp"));
        assert!(!is_temp_name("plugin.json"));
        assert!(!is_temp_name(".plugforge-manifest.json"));
        assert!(!is_temp_name(".notes.plugforge-x.tmp"));
    }
}
