//! The filesystem side of every plugforge host (the command line, the Node
//! and Python packages): read a source tree confined to its root, build its
//! targets on several threads, observe an output root, apply a plan with
//! crash-safe writes (temp file + rename, manifests last, leftovers of a
//! killed run swept by the next one).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use plugforge_core::{BundlePath, Observed, Op, Plan, Sha256Digest, Sha256Stream, SourceTree};

mod build;
mod clock;
mod journal;
mod lock;
mod stamps;

pub use build::build;
pub use clock::generated_at;
pub use journal::JOURNAL;
pub use lock::{LOCK_FILE, RootLock, lock_root};
pub use stamps::{Stamps, settled_before, stamps, unchanged};

/// Folders never read as plugin source, wherever they are: version control
/// and installed dependencies.
const SKIPPED_DIRS: [&str; 2] = [".git", "node_modules"];

/// Skipped only at the source's top level, where a build tool puts it
/// (cargo's `target/`): below, it is the author's (a skill named `target`).
const SKIPPED_TOP_DIRS: [&str; 1] = ["target"];

/// Whether a source read skips the folder at `rel` (relative to the source
/// root): `.git` and `node_modules` anywhere, `target` at the top level.
pub fn is_skipped_source_dir(rel: &Path) -> bool {
    let mut parts = rel.components().map(|c| c.as_os_str());
    let top = parts.next();
    top.is_some_and(|top| SKIPPED_TOP_DIRS.iter().chain(&SKIPPED_DIRS).any(|s| top == *s))
        || parts.any(|part| SKIPPED_DIRS.iter().any(|s| part == *s))
}

/// Every temp file starts with this, so a run killed between writing and
/// renaming leaves something the next run recognises and removes.
pub const TEMP_PREFIX: &str = ".plugforge-tmp-";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostError {
    /// Unreadable or unwritable files, and files a source may not hold.
    Io(String),
    /// A plan path that is not a clean relative path.
    InvalidPath(String),
    /// Files that changed after the plan saw them (an edit made while the
    /// run wrote): each was left as it is, the rest of the plan written.
    Changed(String),
}

impl HostError {
    fn at(path: &Path, error: impl std::fmt::Display) -> Self {
        HostError::Io(format!("{}: {error}", path.display()))
    }

    pub fn message(&self) -> &str {
        match self {
            HostError::Io(message) | HostError::InvalidPath(message) | HostError::Changed(message) => message,
        }
    }

    /// The error code string of the README's table.
    pub fn code(&self) -> &'static str {
        match self {
            HostError::Io(_) => "io",
            HostError::InvalidPath(_) => "invalid_path",
            HostError::Changed(_) => "conflict",
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
    // An output root that is the source itself: each build would read the
    // bundles the last one wrote as source, and grow.
    if exclude.iter().any(|out| out.canonicalize().is_ok_and(|out| out == real_root)) {
        return Err(HostError::Io(format!(
            "{}: the output folder is the source folder itself, so every build would read what the last \
             one wrote; choose another output folder (the default is a dist/ folder inside the source)",
            root.display()
        )));
    }
    let skip = skipped_in_source(root, exclude);
    // Counted before any name is kept: a source over the file-count bound is
    // refused for the cost of walking it, not of holding its names.
    if let Some(past) = file_past(root, &skip, plugforge_core::limits::MAX_SOURCE_FILES)? {
        let mut tree = SourceTree::new();
        let most = plugforge_core::limits::MAX_SOURCE_FILES;
        tree.refuse_over_limit(&past, format!("the source holds more than {most} files"));
        return Ok(tree);
    }
    let entries = walk(root, &skip)?;
    let mut to_read = Vec::with_capacity(entries.len());
    let mut refused = Vec::new();
    for entry in &entries {
        // Paths are text from here on (the engine, manifests, every
        // runtime's files): read as text, two names the filesystem tells
        // apart would become one, and one file would silently win.
        if !entry.utf8 {
            refused.push(format!(
                "{}: the name is not valid UTF-8 (shown here with \\x escapes for the bytes that are \
                 not), and a plugin's paths are text; rename it",
                entry.rel
            ));
            continue;
        }
        // Every run ignores and removes such names in an output root: a
        // bundle could never hold one.
        if entry.rel.split('/').any(is_temp_name) {
            refused.push(format!(
                "{}: named like plugforge's temp files ({TEMP_PREFIX}*), which every build ignores and removes \
                 in its output; rename it",
                entry.rel
            ));
            continue;
        }
        let path = match entry.kind {
            EntryKind::File => entry.path(root),
            EntryKind::Special => {
                refused.push(format!("{}: not a regular file (a FIFO, socket or device)", entry.rel));
                continue;
            }
            EntryKind::Symlink => match confined_link(&real_root, &entry.path(root)) {
                Ok(Some(target)) => Cow::Owned(target),
                Ok(None) => continue,
                Err(why) => {
                    refused.push(format!("{}: {why}", entry.rel));
                    continue;
                }
            },
        };
        to_read.push((entry, path));
    }
    if !refused.is_empty() {
        let root = root.display();
        let lines: Vec<String> = refused.into_iter().map(|why| format!("{root}: {why}")).collect();
        return Err(HostError::Io(lines.join("\n")));
    }
    let mut tree = SourceTree::new();
    // Over the engine's limits, no file is read at all: the engine refuses
    // the tree with a `limit` error naming the first file past them.
    let sizes = parallel_map(&to_read, |(_, path)| fs::metadata(path).map(|m| m.len()))
        .map_err(|(at, e)| HostError::at(&to_read[at].1, e))?;
    if let Some((at, why)) = tree.first_over_limit(&sizes) {
        tree.refuse_over_limit(&to_read[at].0.rel, why);
        // A refused tree is refused before anything looks at its files: no
        // file of it is read (100,000 of them would cost their bytes and names).
        to_read.clear();
    }
    let files = parallel_map(&to_read, |(_, path)| read_file(path))
        .map_err(|(at, e)| HostError::at(&to_read[at].1, e))?;
    for ((entry, path), (bytes, executable)) in to_read.iter().zip(files) {
        tree.insert(&entry.rel, bytes, executable).map_err(|e| HostError::at(path, e.message()))?;
    }
    Ok(tree)
}

/// Which folders a walk of `root` as a source skips: VCS and dependency
/// folders, and the `exclude` folders (the output root when it sits inside
/// the source).
fn skipped_in_source(root: &Path, exclude: &[PathBuf]) -> impl Fn(&Path) -> bool {
    // The walk enters no symbolic link to a folder, so a folder's real path
    // is the root's real path joined with its path below the root: one
    // lookup for the root instead of one per path segment of every folder
    // (9,000 `readlink` calls in a rerun of a 2,000-folder source).
    let real_root = root.canonicalize().ok();
    let exclude: Vec<PathBuf> = match &real_root {
        Some(real_root) => exclude
            .iter()
            .filter_map(|p| p.canonicalize().ok())
            .filter(|p| p.starts_with(real_root) && p != real_root)
            .collect(),
        None => Vec::new(),
    };
    let root = root.to_path_buf();
    move |dir: &Path| {
        dir.strip_prefix(&root).is_ok_and(is_skipped_source_dir)
            || (!exclude.is_empty()
                && real_root
                    .as_ref()
                    .zip(dir.strip_prefix(&root).ok())
                    .is_some_and(|(real_root, below)| exclude.contains(&real_root.join(below))))
    }
}

/// A file's bytes and whether it is executable, from one open: the mode
/// comes from the open file, not from a second lookup by name.
fn read_file(path: &Path) -> std::io::Result<(Vec<u8>, bool)> {
    use std::io::Read;
    let mut file = fs::File::open(path)?;
    let meta = file.metadata()?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0) + 1);
    // Through `Take`, not `File::read_to_end`, which asks the size and
    // position again (a statx and an lseek per file) though they are known.
    Read::by_ref(&mut file).take(u64::MAX).read_to_end(&mut bytes)?;
    Ok((bytes, is_executable(&meta)))
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

/// Hashes every file below `root` and reads the bytes of `to_read` (a path
/// `<folder>/*<end>` reads every file directly in that folder whose name
/// ends with `<end>`); temp
/// files of an interrupted write are not part of what is there. Each file
/// is hashed a block at a time, so memory stays bounded whatever the
/// folder holds; [`observe_for`] does not even read what no plan looks at.
pub fn observe(root: &Path, to_read: &[&str]) -> HostResult<Observed> {
    observe_files(root, to_read, None)
}

/// [`observe`], hashing only what a plan over the root can look at:
/// `to_read` (manifests and shared files, read whole), `to_hash` (the
/// paths a build writes) and the files each manifest `to_read` names by
/// its exact path tracks (the build's own: another plugin's manifests,
/// read through a `<folder>/*<end>` pattern, are read for what they claim
/// among these paths, so their files are not hashed). What else it lists
/// is the `listing`'s to say.
pub fn observe_for(
    root: &Path,
    to_read: &[&str],
    to_hash: &[&str],
    listing: Listing<'_>,
) -> HostResult<Observed> {
    observe_files(root, to_read, Some((to_hash, listing)))
}

/// Which files [`observe_for`] lists besides those it hashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing<'a> {
    /// Every file below the root, unhashed (`None`) where no plan looks:
    /// a report over the whole folder (`doctor`) needs them all.
    Every,
    /// Only the files a build's plan looks at, and every file whose name
    /// ends with `manifest_name` (where a monorepo build finds the bundles
    /// of a member removed since its last run). Another plugin's thousands
    /// of files in a project folder cost nothing to hold.
    ForBuild { manifest_name: &'a str },
}

fn observe_files(
    root: &Path,
    to_read: &[&str],
    looked: Option<(&[&str], Listing<'_>)>,
) -> HostResult<Observed> {
    let mut observed = Observed::default();
    if !root.exists() {
        return Ok(observed);
    }
    // A staged folder of an interrupted write is not part of it either.
    let staged = |dir: &Path| dir.file_name().and_then(|n| n.to_str()).is_some_and(is_temp_name);
    let entries: Vec<Entry> = walk(root, &staged)?
        .into_iter()
        .filter(|entry| {
            let readable = match entry.kind {
                EntryKind::File => true,
                EntryKind::Symlink => entry.path(root).is_file(),
                EntryKind::Special => false,
            };
            let name = entry.rel.rsplit('/').next().unwrap_or_default();
            // No plan names a path that is not text: such a file is the
            // user's, and no manifest can track it.
            readable && entry.utf8 && !is_temp_name(name)
        })
        .collect();
    let to_read = ToRead::new(to_read);
    let reads: Vec<&Entry> = entries.iter().filter(|e| to_read.names(&e.rel)).collect();
    let read = parallel_map(&reads, |entry| fs::read(entry.path(root)))
        .map_err(|(at, e)| HostError::at(&reads[at].path(root), e))?;
    let contents: HashMap<&str, Vec<u8>> = reads.iter().map(|e| e.rel.as_str()).zip(read).collect();
    // The paths to hash, borrowed: those asked for, and those a manifest
    // asked for by name tracks that are there to hash.
    let wanted = looked.map(|(to_hash, _)| {
        let mut wanted: HashSet<&str> = to_hash.iter().copied().collect();
        let present: HashSet<&str> = entries.iter().map(|e| e.rel.as_str()).collect();
        for (rel, bytes) in contents.iter().filter(|(rel, _)| to_read.paths.contains(*rel)) {
            for tracked in tracked_by(rel, bytes) {
                if !wanted.contains(tracked.as_str())
                    && let Some(entry) = present.get(tracked.as_str())
                {
                    wanted.insert(entry);
                }
            }
        }
        wanted
    });
    // What is listed: every file, or (for a build) what is hashed or read
    // and what is named like a manifest.
    let listed = |entry: &Entry| match (looked, &wanted) {
        (Some((_, Listing::ForBuild { manifest_name })), Some(wanted)) => {
            wanted.contains(entry.rel.as_str())
                || contents.contains_key(entry.rel.as_str())
                || entry.rel.ends_with(manifest_name)
        }
        _ => true,
    };
    let listed: Vec<bool> = entries.iter().map(listed).collect();
    // Reading and hashing are the whole cost of a rerun with nothing to
    // do: spread over the cores.
    let hashes = parallel_map(&entries, |entry| match contents.get(entry.rel.as_str()) {
        Some(bytes) => Ok(Some(Sha256Digest::of(bytes))),
        None if wanted.as_ref().is_none_or(|w| w.contains(entry.rel.as_str())) => {
            file_sha256(&entry.path(root)).map(Some)
        }
        None => Ok(None),
    })
    .map_err(|(at, e)| HostError::at(&entries[at].path(root), e))?;
    drop(wanted);
    let mut contents: HashMap<String, Vec<u8>> =
        contents.into_iter().map(|(rel, bytes)| (rel.to_string(), bytes)).collect();
    let mut read = Vec::with_capacity(contents.len());
    // Collected, not inserted one by one: a map built from sorted entries
    // has full nodes, one filled in order half-full ones (an output root of
    // 20,000 files: 0.9 MiB).
    observed.hashes = entries
        .into_iter()
        .zip(hashes)
        .zip(listed)
        .filter_map(|(found, listed)| listed.then_some(found))
        .map(|(entry, hash)| {
            if let Some(bytes) = contents.remove(&entry.rel) {
                read.push((entry.rel.clone(), bytes.into()));
            }
            (entry.rel, hash)
        })
        .collect();
    observed.contents = read.into_iter().collect();
    Ok(observed)
}

/// The paths a plan reads: each as it is, or `<folder>/*<end>`, every file
/// directly in that folder whose name ends with `<end>` (the manifests of
/// every bundle written into a project folder, whatever its namespace).
struct ToRead<'a> {
    paths: HashSet<&'a str>,
    patterns: Vec<(&'a str, &'a str)>,
}

impl<'a> ToRead<'a> {
    fn new(to_read: &[&'a str]) -> Self {
        let mut paths = HashSet::new();
        let mut patterns = Vec::new();
        for path in to_read {
            let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
            match name.strip_prefix('*') {
                Some(end) => patterns.push((folder, end)),
                None => {
                    paths.insert(*path);
                }
            }
        }
        ToRead { paths, patterns }
    }

    fn names(&self, rel: &str) -> bool {
        if self.paths.contains(rel) {
            return true;
        }
        let (folder, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        self.patterns.iter().any(|(f, end)| *f == folder && name.len() > end.len() && name.ends_with(end))
    }
}

/// The paths below the output root the manifest at `rel` may track, if it
/// is one: each file joined to the manifest's folder (a bundle's own
/// folder) and as it is (a bundle written into the root itself); a path
/// that is neither is hashed for nothing, never missed.
fn tracked_by(rel: &str, bytes: &[u8]) -> Vec<String> {
    let Ok(manifest) = plugforge_core::Manifest::parse(rel, bytes) else { return Vec::new() };
    let folder = parent_of(rel);
    manifest
        .files
        .into_iter()
        .flat_map(|file| {
            let joined =
                if folder.is_empty() { file.path.clone() } else { format!("{folder}/{}", file.path) };
            [joined, file.path]
        })
        .collect()
}

/// What a write or removal expects to find at its path: it checks right
/// before it replaces or removes the file, and leaves a file that is not
/// what it expects alone (see [`HostError::Changed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Whatever is there (a list of actions from no plan).
    Any,
    /// Nothing: the plan creates the file.
    Absent,
    /// A file with this sha256, the one the plan saw.
    Sha256(Sha256Digest),
}

impl Expect {
    /// What a plan saw at a path: the hash it observed there, if any.
    pub fn found(hash: Option<Sha256Digest>) -> Self {
        hash.map_or(Expect::Absent, Expect::Sha256)
    }

    /// What an action a host holds as plain data (Node, Python) expects:
    /// from a plan (`planned`), the file it saw (`found`, as hex; none:
    /// no file); from no plan, whatever is there. A `found` that is not a
    /// sha256 is refused, naming the action's path.
    pub fn of_action(path: &str, found: Option<&str>, planned: bool) -> Result<Self, String> {
        match (found, planned) {
            (_, false) => Ok(Expect::Any),
            (None, true) => Ok(Expect::Absent),
            (Some(found), true) => Sha256Digest::from_hex(found)
                .map(Expect::Sha256)
                .ok_or_else(|| format!("{path}: found {found:?} is not a sha256")),
        }
    }
}

/// One file operation of a plan, below the output root.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    Write(FileWrite<'a>),
    Remove {
        path: &'a str,
        expect: Expect,
    },
    /// A path the plan leaves alone (unchanged, kept, conflicting): its
    /// folder is still swept of temp files.
    Keep {
        path: &'a str,
    },
    /// Every step before it lands, flushed as the writer's [`Durability`]
    /// asks, before any step after it starts. Between two barriers, steps
    /// are applied in parallel and in no particular order.
    Barrier,
}

/// A file a [`Step::Write`] puts at `path` (below the output root) with
/// `bytes`, if what is there is what `expect` says.
#[derive(Debug, Clone, Copy)]
pub struct FileWrite<'a> {
    pub path: &'a str,
    pub bytes: &'a [u8],
    pub executable: bool,
    pub expect: Expect,
}

impl<'a> Step<'a> {
    /// The path the step touches; none for a barrier.
    pub fn path(&self) -> Option<&'a str> {
        match *self {
            Step::Write(FileWrite { path, .. }) | Step::Remove { path, .. } | Step::Keep { path } => {
                Some(path)
            }
            Step::Barrier => None,
        }
    }
}

/// The steps of a core plan, in its order, with a barrier before its
/// manifests: they land only once every file they name has.
pub fn plan_steps(plan: &Plan) -> Vec<Step<'_>> {
    let steps = plan.actions.iter().map(|action| {
        let path = action.path.as_str();
        let expect = Expect::found(action.found);
        match (action.op, &action.bytes) {
            (Op::Create | Op::Update, Some(bytes)) => {
                Step::Write(FileWrite { path, bytes, executable: action.executable, expect })
            }
            (Op::Remove, _) => Step::Remove { path, expect },
            _ => Step::Keep { path },
        }
    });
    // Room for the barrier: a list of tens of thousands of steps is not
    // grown to twice its length to take it.
    let mut all = Vec::with_capacity(plan.actions.len() + 1);
    all.extend(steps);
    manifests_last(all, plan.manifests)
}

/// `steps` of a plan (in its order) with a barrier before the last
/// `manifests` of them, the bundle manifests: the other steps land together
/// (in parallel, flushed once), and the manifests only after all of them.
/// What a host that holds a plan as plain data (Node, Python) applies.
pub fn manifests_last(mut steps: Vec<Step<'_>>, manifests: usize) -> Vec<Step<'_>> {
    let body = steps.len() - manifests.min(steps.len());
    steps.reserve_exact(1);
    steps.insert(body, Step::Barrier);
    steps
}

/// How sure a write is that its bytes reached the disk, and not only the
/// operating system's cache, before the next group of steps (the manifests)
/// starts and before [`Writer::apply`] returns. Every level keeps what a
/// killed process leaves the same: each file whole, old or new (temp file
/// and rename), manifests last, leftovers swept by the next run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Durability {
    /// Each file is flushed (`fsync`) before it is renamed into place, and
    /// each folder that gained or lost a name is flushed after the renames.
    /// Survives a power loss at any point like `batch`, with one flush per
    /// file and folder (and no staged folder: every file has its own temp
    /// file and rename): the slowest level, for disks that reorder writes
    /// across files or filesystems where `syncfs` is unavailable or weak.
    Full,
    /// The way git's `core.fsyncMethod=batch` does it: all temp files (and
    /// the files of folders staged whole, see `apply_group`) are written, the filesystem is flushed once (`syncfs`), the files are
    /// renamed into place (while the files are written a helper thread
    /// flushes too, so most bytes are on the disk before that flush starts) and the filesystem is flushed once more; then the
    /// manifests, each flushed with its folder. After a power loss at any
    /// point every file is whole (old or new bytes) and a manifest on disk
    /// names only bytes that are on disk. A group of a few files (the
    /// manifests) flushes those files alone, leaving the rest of the disk
    /// alone. Where `syncfs` does not exist (not Linux) this is `full`.
    #[default]
    Batch,
    /// No flushes: the operating system writes the files back when it
    /// chooses. A killed process is as safe as with the other levels, but
    /// after a power loss or an operating-system crash files written in the
    /// last seconds may be empty or missing and a manifest may name them
    /// (the next build then reports them as edited). For output that is
    /// cheap to rebuild: CI, scratch folders, benchmarks.
    None,
}

impl Durability {
    /// The names a command line accepts, in order of strength.
    pub const NAMES: [&'static str; 3] = ["full", "batch", "none"];

    pub fn name(self) -> &'static str {
        match self {
            Durability::Full => "full",
            Durability::Batch => "batch",
            Durability::None => "none",
        }
    }
}

impl std::str::FromStr for Durability {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "full" => Ok(Durability::Full),
            "batch" => Ok(Durability::Batch),
            "none" => Ok(Durability::None),
            other => Err(format!("durability {other:?} is not one of full, batch, none")),
        }
    }
}

/// A group this small is flushed file by file: cheaper than flushing the
/// whole filesystem, which may hold other programs' unwritten data.
const SMALL_GROUP: usize = 8;

/// This process's id, which keeps two processes' temp files apart (here and in the
/// command line's rerun records).
#[cfg(not(target_os = "wasi"))]
pub fn process_tag() -> u32 {
    std::process::id()
}

/// WASI (the Node package's WebAssembly fallback) has no process ids: the
/// clock's nanoseconds when the writer is made keep two processes' temp files apart.
#[cfg(target_os = "wasi")]
pub fn process_tag() -> u32 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |since| since.subsec_nanos())
}

/// Performs file operations, counting them. `abort_at` makes the operation
/// of that number (from 1) kill the process halfway, the way a crash or
/// `kill -9` would: a test hook the command line sets from its environment.
#[derive(Debug)]
pub struct Writer {
    abort_at: Option<u64>,
    done: AtomicU64,
    durability: Durability,
    /// Part of every temp file name, looked up once.
    pid: u32,
    /// The output root this writer holds the lock of, from before the
    /// caller observed it (see [`Writer::lock`]).
    held: Option<RootLock>,
    /// Paths of the run being applied that changed after the plan saw them,
    /// left as they are.
    changed: Mutex<Vec<String>>,
}

impl Default for Writer {
    fn default() -> Self {
        Writer::new()
    }
}

impl Writer {
    pub fn new() -> Self {
        Writer {
            abort_at: None,
            done: AtomicU64::new(0),
            durability: Durability::default(),
            pid: process_tag(),
            held: None,
            changed: Mutex::new(Vec::new()),
        }
    }

    /// Takes the lock of the output root `root` and keeps it until
    /// [`Writer::unlock`] (or the writer is dropped): a host calls it before
    /// it observes the root, so no other run changes the files it plans
    /// over. Waits for a run that holds it; `waiting` gets a message naming
    /// the lock before the wait.
    pub fn lock(&mut self, root: &Path, waiting: &mut dyn FnMut(&str)) -> HostResult<()> {
        self.held = None;
        self.held = Some(lock_root(root, waiting)?);
        // What the caller observes next is a tree some manifest describes.
        self.recover(root)
    }

    /// Lets go of the lock [`Writer::lock`] took.
    pub fn unlock(&mut self) {
        self.held = None;
    }

    pub fn aborting_at(operation: u64) -> Self {
        Writer { abort_at: Some(operation), ..Writer::new() }
    }

    pub fn with_durability(self, durability: Durability) -> Self {
        Writer { durability, ..self }
    }

    pub fn set_durability(&mut self, durability: Durability) {
        self.durability = durability;
    }

    pub fn durability(&self) -> Durability {
        self.durability
    }

    /// Counts one operation; true when this one is to be cut short. Atomic:
    /// writes run on several threads, and the hook must still hit exactly
    /// one operation of a deterministic total.
    fn next_is_fatal(&self) -> bool {
        let done = self.done.fetch_add(1, Ordering::SeqCst) + 1;
        self.abort_at == Some(done)
    }

    fn checkpoint(&self) {
        if self.next_is_fatal() {
            std::process::abort();
        }
    }

    /// Applies `steps` below `root`: every path is checked first (a clean
    /// relative path, no symbolic link on the way to a write or removal,
    /// which could lead outside the root), so a refusal writes nothing; then
    /// the folders the plan touches are swept of temp files an interrupted
    /// run left; then the groups between [`Step::Barrier`]s, one after the
    /// other, each write landing whole or not at all.
    ///
    /// The output root is locked while the steps are applied, unless this
    /// writer already holds its lock ([`Writer::lock`]).
    pub fn apply(&mut self, root: &Path, steps: &[Step<'_>]) -> HostResult<()> {
        let own_lock = match &self.held {
            Some(held) if held.root() == root => None,
            // A host with no channel for the message of its own (the Node
            // and Python packages' `applyPlan`) still says why it waits.
            _ => Some(lock_root(root, &mut |message| eprintln!("plugforge: {message}"))?),
        };
        let applied = self.apply_locked(root, steps);
        drop(own_lock);
        applied?;
        let mut changed = std::mem::take(&mut *self.changed.lock().unwrap_or_else(|p| p.into_inner()));
        if changed.is_empty() {
            return Ok(());
        }
        changed.sort();
        Err(HostError::Changed(format!(
            "{}: changed while this run was writing, so left as they are (everything else was written): {}; \
             the next build shows each as a conflict (--force overwrites)",
            root.display(),
            changed.join(", ")
        )))
    }

    /// Notes a file left alone because it changed after the plan saw it.
    fn left_alone(&self, rel: &str) {
        self.changed.lock().unwrap_or_else(|p| p.into_inner()).push(rel.to_string());
    }

    fn apply_locked<'s>(&mut self, root: &Path, steps: &'s [Step<'s>]) -> HostResult<()> {
        // Before the sweep below, which would take the temp files an
        // interrupted run's journal still names.
        self.recover(root)?;
        self.changed.lock().unwrap_or_else(|p| p.into_inner()).clear();
        let mut folders = Folders::new(root);
        for step in steps {
            let Some(rel) = step.path() else { continue };
            BundlePath::new(rel).map_err(|e| HostError::InvalidPath(e.message()))?;
            match folders.check(rel) {
                Err(_) if matches!(step, Step::Keep { .. }) => continue,
                Err(link) => {
                    return Err(HostError::Io(format!(
                        "{}: {link}/ is a symbolic link leading outside the output root; plugforge writes only \
                         below the output root (nothing was written; remove the link or choose another output folder)",
                        root.display()
                    )));
                }
                Ok(_) => {}
            }
        }
        let mut made = folders.into_existing();
        // A missing folder is staged beside its place (see `stage`), and the
        // manifests of a journaled plan in the root itself: every existing
        // folder on the way to a path may hold what an interrupted run
        // staged, for a plan of another source than this one's (a skill
        // folder that run added is staged in `skills/`, which this plan may
        // only pass through). Those are the folders the check above found:
        // it looks at each folder on the way to each path, down to the
        // first that is missing.
        let mut to_sweep: Vec<&str> = if steps.iter().any(|s| s.path().is_some()) {
            made.iter().copied().collect()
        } else {
            Vec::new()
        };
        to_sweep.sort_unstable();
        for folder in to_sweep {
            self.sweep(&root.join(folder))?;
        }
        let mut start = 0;
        let groups: Vec<(usize, &[Step<'_>])> = steps
            .split(|s| matches!(s, Step::Barrier))
            .map(|g| {
                let at = start;
                start += g.len() + 1;
                (at, g)
            })
            .collect();
        let changes =
            |group: &[Step<'_>]| group.iter().any(|s| matches!(s, Step::Write(_) | Step::Remove { .. }));
        match groups[..] {
            // A plan's files, then its manifests: journaled (see [`journal`]).
            [(body_at, body), (last_at, last)] if changes(body) && changes(last) => {
                let body = self.stage(root, body_at, body, &mut made, false)?;
                let last = match self.stage(root, last_at, last, &mut made, true) {
                    Ok(last) => last,
                    Err(e) => return Err(self.abandon(root, &body.writes, &body.stages, e)),
                };
                if let Err(e) = self.write_journal(root, &body, &last) {
                    let e = self.abandon(root, &body.writes, &body.stages, e);
                    return Err(self.abandon(root, &last.writes, &last.stages, e));
                }
                let committed = self
                    .commit(root, body, &mut made, true)
                    .and_then(|()| self.commit(root, last, &mut made, true));
                if let Err(e) = committed {
                    // Not a kill but a step that failed (a file where a
                    // folder belongs): what can still land does, as the next
                    // run would do it, so no temp file or journal outlives
                    // this run; the error names the file that failed.
                    let _ = self.recover(root);
                    return Err(e);
                }
                self.end_journal(root)
            }
            _ => {
                for (at, group) in groups {
                    self.apply_group(root, at, group, &mut made)?;
                }
                Ok(())
            }
        }
    }

    /// One group of steps: its temp files written ([`Writer::stage`]), then
    /// put in place ([`Writer::commit`]).
    fn apply_group<'s>(
        &self,
        root: &Path,
        first: usize,
        group: &'s [Step<'s>],
        made: &mut HashSet<&'s str>,
    ) -> HostResult<()> {
        let staged = self.stage(root, first, group, made, false)?;
        self.commit(root, staged, made, false)
    }

    /// Writes the temp files of one group of steps; `first` is the index of
    /// its first step, which makes temp file names unique within the run.
    ///
    /// A folder that does not exist yet (a bundle's root on a first build)
    /// is staged: its files are written under their own names into a temp
    /// folder beside it, which is renamed into place once. That spares a
    /// temp name and a rename per file (on a fresh build, most of the
    /// kernel's work after creating the files), and the folder appears
    /// whole or not at all. Under `full` durability every file keeps its
    /// own temp file and rename, flushed one by one. `in_root`: every temp
    /// file goes into the output root itself, whose folder exists before
    /// any other group lands (the manifests, staged before the files they
    /// name are in place).
    fn stage<'s>(
        &self,
        root: &Path,
        first: usize,
        group: &'s [Step<'s>],
        made: &mut HashSet<&'s str>,
        in_root: bool,
    ) -> HostResult<Staged<'s>> {
        let write_count = group.iter().filter(|s| matches!(s, Step::Write(_))).count();
        let durability = match self.durability {
            Durability::Batch if write_count <= SMALL_GROUP || !cfg!(target_os = "linux") => Durability::Full,
            other => other,
        };
        if write_count > 0 {
            make_folder(root, "", made)?;
        }
        let mut stages: Vec<Stage> = Vec::new();
        let mut stage_of: HashMap<&str, usize> = HashMap::new();
        // The folders made inside the staged ones: one set for all of them
        // (their paths differ), not one a folder (a first build stages
        // thousands).
        let mut claimed: HashSet<&str> = HashSet::new();
        let mut writes: Vec<Pending<'_>> = Vec::with_capacity(write_count);
        for (i, step) in group.iter().enumerate() {
            let Step::Write(write) = step else { continue };
            let folder = parent_of(write.path);
            let number = first + i + 1;
            let fresh =
                (durability != Durability::Full && !in_root).then(|| first_missing(folder, made)).flatten();
            let (place, make) = match fresh {
                Some(fresh) => {
                    let at = *stage_of.entry(fresh).or_insert_with(|| {
                        stages.push(Stage { rel: fresh, number });
                        stages.len() - 1
                    });
                    // Made by the writer thread, not here: on a first build
                    // the folders are most of the kernel's work, and the
                    // threads share it as they share the files.
                    let make = claim_folder(fresh, folder, &mut claimed);
                    (Place::InStage { stage: at }, make)
                }
                None if in_root => (Place::RootTemp(number), false),
                None => {
                    if let Err(e) = make_folder(root, folder, made) {
                        return Err(self.abandon(root, &writes, &stages, e));
                    }
                    (Place::Temp(number), false)
                }
            };
            writes.push(Pending { write, place, make });
        }
        // A write that waits for its flush leaves the core idle: one thread
        // per file (up to a few), so the flushes share journal commits.
        let threads =
            if durability == Durability::Full { flush_workers(writes.len()) } else { workers(writes.len()) };
        let written = if durability == Durability::Batch {
            flushing_meanwhile(root, || {
                parallel(&writes, threads, |w| self.write_temp(root, &stages, w, false))
            })
        } else {
            parallel(&writes, threads, |w| self.write_temp(root, &stages, w, durability == Durability::Full))
        };
        if let Err((at, error)) = written {
            return Err(self.abandon_io(root, &writes, &stages, at, error));
        }
        if durability == Durability::Batch {
            flush_filesystem(root).map_err(|e| self.abandon_io(root, &writes, &stages, usize::MAX, e))?;
        }
        let removes = group
            .iter()
            .filter_map(|step| match *step {
                Step::Remove { path, expect } => Some((path, expect)),
                _ => None,
            })
            .collect();
        Ok(Staged { durability, writes, stages, claimed, removes })
    }

    /// Puts a staged group in place: each temp file renamed over its target
    /// (if that is still what the plan saw), each staged folder renamed into
    /// place, the removals, then the flush its durability asks. `journaled`:
    /// a journal names these temp files, so a failure leaves them for the
    /// next run to finish with (see [`journal`]) instead of removing them.
    fn commit<'s>(
        &self,
        root: &Path,
        staged: Staged<'s>,
        made: &mut HashSet<&'s str>,
        journaled: bool,
    ) -> HostResult<()> {
        let Staged { durability, writes, stages, claimed, removes } = staged;
        let fail = |at: usize, error: std::io::Error| {
            if journaled {
                writes.get(at).map_or_else(
                    || HostError::Io(error.to_string()),
                    |w| HostError::at(&w.target(root), &error),
                )
            } else {
                self.abandon_io(root, &writes, &stages, at, error)
            }
        };
        // Temp files staged in the root land in folders the groups before
        // them made.
        for (at, w) in writes.iter().enumerate() {
            if matches!(w.place, Place::RootTemp(_)) && !parent_of(w.rel()).is_empty() {
                make_folder(root, parent_of(w.rel()), made)
                    .map_err(|e| fail(at, std::io::Error::other(e.to_string())))?;
            }
        }
        let renamed = parallel(&writes, workers(writes.len()), |w| {
            if !w.renamed() {
                return Ok(());
            }
            self.checkpoint();
            self.put_in_place(&w.write_to(root, &stages, self.pid), &w.target(root), w.rel(), w.write.expect)
        });
        if let Err((at, error)) = renamed {
            return Err(fail(at, error));
        }
        for stage in &stages {
            self.checkpoint();
            let target = root.join(stage.rel);
            let temp = stage.temp(root, self.pid);
            fs::rename(&temp, &target).map_err(|e| {
                if !journaled {
                    let _ = fs::remove_dir_all(&temp);
                }
                HostError::at(&target, e)
            })?;
        }
        if journaled {
            // The manifests' group after a journaled one stages nothing
            // (its temp files are in the root) and makes a missing folder
            // idempotently: the staged folders are all it needs noted, not
            // every folder inside them (as many as the files).
            made.extend(stages.iter().map(|stage| stage.rel));
        } else {
            made.extend(claimed);
        }
        let mut emptied = Vec::new();
        for (path, expect) in removes {
            self.remove(root, path, expect, &mut emptied)?;
        }
        match durability {
            Durability::Batch => flush_filesystem(root).map_err(|e| HostError::at(root, e)),
            Durability::Full => {
                let mut changed: Vec<PathBuf> =
                    writes.iter().map(|w| root.join(parent_of(w.rel()))).chain(emptied).collect();
                changed.sort();
                changed.dedup();
                // A folder a later removal emptied is gone; its parent, which
                // lost its name, is in the list too.
                parallel(&changed, flush_workers(changed.len()), |dir| {
                    flush_folder(dir).or_else(ignore_missing)
                })
                .map_err(|(at, e)| HostError::at(&changed[at], e))
            }
            Durability::None => Ok(()),
        }
    }

    /// Renames the temp file `temp` over `target` if that is still what
    /// `expect` says; otherwise notes `rel` as left alone and drops the temp.
    fn put_in_place(&self, temp: &Path, target: &Path, rel: &str, expect: Expect) -> std::io::Result<()> {
        let replaced = match expect {
            Expect::Absent => rename_new(temp, target)?,
            expect => checked(target, expect, || fs::rename(temp, target))?,
        };
        if !replaced {
            self.left_alone(rel);
            fs::remove_file(temp).or_else(ignore_missing)?;
        }
        Ok(())
    }

    /// Writes one temp file with its final mode; `flush` makes it durable
    /// before it may be renamed.
    fn write_temp(
        &self,
        root: &Path,
        stages: &[Stage],
        pending: &Pending<'_>,
        flush: bool,
    ) -> std::io::Result<()> {
        let fatal = self.next_is_fatal();
        let write_to = pending.write_to(root, stages, self.pid);
        if pending.make
            && let Some(folder) = write_to.parent()
        {
            make_folders(folder)?;
        }
        let mut file = match create_with_mode(&write_to, pending.write.executable) {
            // In a staged folder, the write that makes this file's folder
            // may be another thread's, not done yet: make it here too.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !pending.renamed() => {
                write_to.parent().map_or(Ok(()), make_folders)?;
                create_with_mode(&write_to, pending.write.executable)?
            }
            opened => opened?,
        };
        if fatal {
            // Half the bytes reach the disk, then the process dies.
            file.write_all(&pending.write.bytes[..pending.write.bytes.len() / 2])?;
            file.sync_all()?;
            std::process::abort();
        }
        file.write_all(pending.write.bytes)?;
        if flush {
            file.sync_data()?;
        }
        Ok(())
    }

    /// Removes the temp files and staged folders of a failed group (best
    /// effort: some were never created, some files already renamed) and
    /// names the file that failed.
    fn abandon_io(
        &self,
        root: &Path,
        writes: &[Pending<'_>],
        stages: &[Stage],
        at: usize,
        error: std::io::Error,
    ) -> HostError {
        let named = match writes.get(at) {
            Some(pending) => HostError::at(&pending.target(root), error),
            None => HostError::Io(error.to_string()),
        };
        self.abandon(root, writes, stages, named)
    }

    fn abandon(&self, root: &Path, writes: &[Pending<'_>], stages: &[Stage], error: HostError) -> HostError {
        for pending in writes.iter().filter(|w| w.renamed()) {
            let _ = fs::remove_file(pending.write_to(root, stages, self.pid));
        }
        for stage in stages {
            let _ = fs::remove_dir_all(stage.temp(root, self.pid));
        }
        error
    }

    /// Writes a new source tree below `dir` (`init`).
    pub fn create_files(&mut self, dir: &Path, tree: &SourceTree) -> HostResult<()> {
        let steps: Vec<Step<'_>> = tree
            .iter()
            .map(|(path, file)| {
                Step::Write(FileWrite {
                    path: path.as_str(),
                    bytes: &file.bytes,
                    executable: file.executable,
                    expect: Expect::Any,
                })
            })
            .collect();
        self.apply(dir, &steps)
    }

    /// Removes the temp files and staged folders of interrupted writes in `folder`.
    fn sweep(&self, folder: &Path) -> HostResult<()> {
        let entries = match fs::read_dir(folder) {
            Ok(entries) => entries,
            // Gone, or a file where a folder belongs: nothing to sweep.
            Err(e)
                if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) =>
            {
                return Ok(());
            }
            Err(e) => return Err(HostError::at(folder, e)),
        };
        for entry in entries {
            let entry = entry.map_err(|e| HostError::at(folder, e))?;
            if !entry.file_name().to_str().is_some_and(is_temp_name) {
                continue;
            }
            let path = entry.path();
            match entry.file_type() {
                Ok(kind) if kind.is_file() => {
                    self.checkpoint();
                    fs::remove_file(&path).or_else(ignore_missing).map_err(|e| HostError::at(&path, e))?;
                }
                // A staged folder (never a link: `file_type` does not follow one).
                Ok(kind) if kind.is_dir() => {
                    self.checkpoint();
                    fs::remove_dir_all(&path).or_else(ignore_missing).map_err(|e| HostError::at(&path, e))?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Removes `rel` (unless it is not what `expect` says: then it is left
    /// alone), then the folders the removal emptied, up to the output root;
    /// the folders that lost a name go to `changed`.
    fn remove(&self, root: &Path, rel: &str, expect: Expect, changed: &mut Vec<PathBuf>) -> HostResult<()> {
        let target = &root.join(rel);
        self.checkpoint();
        let removed = checked(target, expect, || fs::remove_file(target).or_else(ignore_missing))
            .map_err(|e| HostError::at(target, e))?;
        // Gone already is what a removal wants; anything else is an edit.
        if !removed && fs::symlink_metadata(target).is_ok() {
            self.left_alone(rel);
        }
        let mut dir = target.parent();
        while let Some(current) = dir {
            if current == root || fs::remove_dir(current).is_err() {
                changed.push(current.to_path_buf());
                break;
            }
            dir = current.parent();
        }
        Ok(())
    }
}

/// A group of steps with its temp files written, not yet in place.
struct Staged<'a> {
    durability: Durability,
    writes: Vec<Pending<'a>>,
    stages: Vec<Stage<'a>>,
    /// The folders made inside `stages` (each stage's own too), relative
    /// to the output root.
    claimed: HashSet<&'a str>,
    removes: Vec<(&'a str, Expect)>,
}

/// A write of a group: its place, and where its bytes go first (a temp file
/// renamed into place, or its place inside a staged folder). Paths are made
/// when they are used, not kept: a group may hold tens of thousands.
struct Pending<'a> {
    /// The step's write (its place relative to the output root, bytes,
    /// mode and expectation): borrowed, not copied per file.
    write: &'a FileWrite<'a>,
    place: Place,
    /// The first write into a folder inside a staged one (in path order)
    /// makes that folder, with those above it.
    make: bool,
}

/// Where a [`Pending`] write's bytes go first.
#[derive(Clone, Copy)]
enum Place {
    /// A temp file of its own beside its place, numbered within the run.
    Temp(usize),
    /// A temp file of its own in the output root (a manifest, staged before
    /// the files it names are in place).
    RootTemp(usize),
    /// Its own name inside the staged folder `stage`, which holds what of
    /// its path follows that folder and a slash.
    InStage { stage: usize },
}

impl<'a> Pending<'a> {
    fn rel(&self) -> &'a str {
        self.write.path
    }

    fn target(&self, root: &Path) -> PathBuf {
        root.join(self.rel())
    }

    /// Whether the bytes go to a temp file of their own, renamed into place.
    fn renamed(&self) -> bool {
        !matches!(self.place, Place::InStage { .. })
    }

    fn write_to(&self, root: &Path, stages: &[Stage], pid: u32) -> PathBuf {
        match self.place {
            Place::Temp(number) => {
                root.join(parent_of(self.rel())).join(format!("{TEMP_PREFIX}{pid}-{number}"))
            }
            Place::RootTemp(number) => root.join(format!("{TEMP_PREFIX}{pid}-{number}")),
            Place::InStage { stage } => {
                let stage = &stages[stage];
                stage.temp(root, pid).join(&self.rel()[stage.rel.len() + 1..])
            }
        }
    }
}

/// Does `act` (the rename or removal that replaces or takes away the file
/// at `path`) only if the file is still what `expect` says; false, with
/// nothing done, when it is not.
///
/// What is left of the race with an edit: a file saved by renaming another
/// over it (as many editors save) in the moment between the last look at
/// `path` and the system call of `act` is replaced all the same; no portable
/// call replaces a file only if it is still some file. A file written in
/// place instead (`echo >`, most programs) is safe at any moment: its
/// handle is kept, hashed again once `act` is done, and if the bytes under
/// it changed they are put back at `path`, where the edit was made, and the
/// file counts as left alone. A file the plan creates is put in place with
/// `RENAME_NOREPLACE` where the filesystem has it (Linux), so nothing that
/// appeared meanwhile is replaced.
fn checked(path: &Path, expect: Expect, act: impl FnOnce() -> std::io::Result<()>) -> std::io::Result<bool> {
    let sha = match expect {
        Expect::Any => return act().map(|()| true),
        Expect::Absent => {
            return match fs::symlink_metadata(path) {
                Ok(_) => Ok(false),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => act().map(|()| true),
                Err(e) => Err(e),
            };
        }
        Expect::Sha256(sha) => sha,
    };
    let mut file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    if hash_from_start(&mut file)? != sha || !names(path, &file) {
        return Ok(false);
    }
    act()?;
    if hash_from_start(&mut file)? == sha {
        return Ok(true);
    }
    // Written in place after the look: those bytes are the user's.
    put_back(&mut file, path)?;
    Ok(false)
}

/// Whether `path` still names the open `file` (not another file renamed
/// over it since it was opened).
#[cfg(unix)]
fn names(path: &Path, file: &fs::File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::symlink_metadata(path), file.metadata()) {
        // A symbolic link is followed by the open: compare what it leads to.
        (Ok(at), Ok(open)) if at.file_type().is_symlink() => {
            fs::metadata(path).is_ok_and(|at| at.dev() == open.dev() && at.ino() == open.ino())
        }
        (Ok(at), Ok(open)) => at.dev() == open.dev() && at.ino() == open.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn names(path: &Path, _: &fs::File) -> bool {
    path.exists()
}

fn hash_from_start(file: &mut fs::File) -> std::io::Result<Sha256Digest> {
    use std::io::Seek;
    file.seek(std::io::SeekFrom::Start(0))?;
    hash_reader(file)
}

/// Writes what `file` holds back at `path` (temp file and rename beside it).
fn put_back(file: &mut fs::File, path: &Path) -> std::io::Result<()> {
    use std::io::Seek;
    file.seek(std::io::SeekFrom::Start(0))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temp = path.with_file_name(format!("{TEMP_PREFIX}{}-kept-{name}", process_tag()));
    let restored = fs::File::create(&temp).and_then(|mut out| std::io::copy(file, &mut out).map(drop));
    match restored.and_then(|()| fs::rename(&temp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = fs::remove_file(&temp);
            Err(e)
        }
    }
}

/// Renames `from` to `to` unless `to` exists: atomically where the kernel
/// can (`RENAME_NOREPLACE`), else after a look.
#[cfg(target_os = "linux")]
fn rename_new(from: &Path, to: &Path) -> std::io::Result<bool> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::EXIST) => Ok(false),
        // A filesystem without the flag.
        Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {
            checked(to, Expect::Absent, || fs::rename(from, to))
        }
        Err(e) => Err(e.into()),
    }
}

#[cfg(not(target_os = "linux"))]
fn rename_new(from: &Path, to: &Path) -> std::io::Result<bool> {
    checked(to, Expect::Absent, || fs::rename(from, to))
}

/// sha256 of the file at `path`, read a block at a time: a large file
/// costs one block of memory, not its size.
pub fn file_sha256(path: &Path) -> std::io::Result<Sha256Digest> {
    hash_reader(&mut fs::File::open(path)?)
}

fn hash_reader(file: &mut impl std::io::Read) -> std::io::Result<Sha256Digest> {
    let mut hasher = Sha256Stream::new();
    let mut block = vec![0; 64 * 1024];
    loop {
        match file.read(&mut block) {
            Ok(0) => return Ok(hasher.finish()),
            Ok(n) => hasher.update(&block[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// A folder missing before the group, written as a temp folder beside its
/// place and renamed there once its files are written.
struct Stage<'a> {
    /// Relative to the output root.
    rel: &'a str,
    /// The number of the first write staged in it, which names its temp
    /// folder.
    number: usize,
}

impl Stage<'_> {
    /// The temp folder it is built in, beside where it goes.
    fn temp(&self, root: &Path, pid: u32) -> PathBuf {
        root.join(parent_of(self.rel)).join(format!("{TEMP_PREFIX}{pid}-{}-folder", self.number))
    }
}

/// The shallowest folder on the way to `folder` (itself included) that the
/// run has not seen or made, if any: everything below it is new.
fn first_missing<'p>(folder: &'p str, made: &HashSet<&str>) -> Option<&'p str> {
    if folder.is_empty() || made.contains(folder) {
        return None;
    }
    folder
        .match_indices('/')
        .map(|(at, _)| &folder[..at])
        .chain(std::iter::once(folder))
        .find(|prefix| !made.contains(*prefix))
}

/// The folder of a bundle path, `""` for the root.
fn parent_of(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Notes `folder` and the folders above it up to `stage` (a folder on its
/// way) as made (they are, by the time anything is written into them); true
/// when `folder` itself is new.
fn claim_folder<'a>(stage: &str, folder: &'a str, made: &mut HashSet<&'a str>) -> bool {
    if made.contains(folder) {
        return false;
    }
    let mut at = folder;
    while made.insert(at) && at.len() > stage.len() {
        at = parent_of(at);
    }
    true
}

/// Makes `dir`, and the folders above it when they are missing too; a
/// folder that is already there (another thread made it) is fine.
fn make_folders(dir: &Path) -> std::io::Result<()> {
    match fs::create_dir(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => fs::create_dir_all(dir),
        Err(e) => Err(e),
    }
}

/// Creates the folder `rel` below `root` and the ones above it, each with a
/// single `mkdir` the first time the run needs it.
fn make_folder<'a>(root: &Path, rel: &'a str, made: &mut HashSet<&'a str>) -> HostResult<()> {
    if made.contains(rel) {
        return Ok(());
    }
    if rel.is_empty() {
        fs::create_dir_all(root).map_err(|e| HostError::at(root, e))?;
    } else {
        make_folder(root, parent_of(rel), made)?;
        let dir = root.join(rel);
        match fs::create_dir(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(HostError::at(&dir, e)),
        }
    }
    made.insert(rel);
    Ok(())
}

/// How many threads share a group's writes: the disk queue gains from a
/// few, and a group of a few dozen files is not worth a thread.
fn workers(jobs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    cores.clamp(1, THREADS_ALLOWED).min(jobs / 32 + 1)
}

/// WASI threads (the Node package's WebAssembly fallback) run in workers
/// that resolve relative paths against their own preopened folders, not
/// the calling thread's: a path the main thread can open is "not found"
/// there. Every file operation stays on the calling thread.
const THREADS_ALLOWED: usize = if cfg!(target_os = "wasi") { 1 } else { 8 };

/// How many threads flush `jobs` files or folders one by one: a flush
/// waits for the disk, not the core, and flushes in flight together
/// share the filesystem's journal commits (the manifests of a build:
/// 8 flushes in the time of about 2).
fn flush_workers(jobs: usize) -> usize {
    jobs.clamp(1, THREADS_ALLOWED)
}

/// Runs `job` on every item, on `threads` threads each taking one
/// contiguous share: items come sorted by path, so two threads rarely
/// write into the same folder at once, where they would wait on its lock.
/// Stops at the first failure; the failed item's index (the lowest, when
/// several threads failed).
fn parallel<T: Sync>(
    items: &[T],
    threads: usize,
    job: impl Fn(&T) -> std::io::Result<()> + Sync,
) -> Result<(), (usize, std::io::Error)> {
    if threads <= 1 || items.len() <= 1 {
        return items.iter().enumerate().try_for_each(|(i, item)| job(item).map_err(|e| (i, e)));
    }
    let share = items.len().div_ceil(threads);
    let stop = AtomicBool::new(false);
    let run = |n: usize, chunk: &[T]| {
        for (i, item) in chunk.iter().enumerate() {
            // No new items once one failed; the ones in flight finish.
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Err(e) = job(item) {
                stop.store(true, Ordering::Relaxed);
                return Some((n * share + i, e));
            }
        }
        None
    };
    let failures: Vec<Option<(usize, std::io::Error)>> = on_this_and_more_threads(items, share, &run);
    match failures.into_iter().flatten().min_by_key(|(at, _)| *at) {
        Some(failure) => Err(failure),
        None => Ok(()),
    }
}

/// `run(n, chunk)` of each `share`-long chunk `n` of `items`, in order: the
/// first on this thread, each other on a thread of its own. This thread
/// works rather than waits, which also spares a thread and its allocator
/// arena (glibc keeps one a thread, and what it frees stays with it).
fn on_this_and_more_threads<T: Sync, R: Send>(
    items: &[T],
    share: usize,
    run: &(impl Fn(usize, &[T]) -> R + Sync),
) -> Vec<R> {
    let mut chunks = items.chunks(share).enumerate();
    let Some((_, first)) = chunks.next() else { return Vec::new() };
    std::thread::scope(|scope| {
        let handles: Vec<_> = chunks.map(|(n, chunk)| scope.spawn(move || run(n, chunk))).collect();
        let mut results = vec![run(0, first)];
        results.extend(
            handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))),
        );
        results
    })
}

/// `job` of every item, in order, on [`workers`] threads each taking one
/// contiguous share. The first failure by index, with that index.
fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    job: impl Fn(&T) -> std::io::Result<R> + Sync,
) -> Result<Vec<R>, (usize, std::io::Error)> {
    let threads = workers(items.len());
    let share = items.len().div_ceil(threads.max(1)).max(1);
    let run = |first: usize, chunk: &[T]| -> Result<Vec<R>, (usize, std::io::Error)> {
        chunk.iter().enumerate().map(|(i, item)| job(item).map_err(|e| (first + i, e))).collect()
    };
    if threads <= 1 {
        return run(0, items);
    }
    let results: Vec<Result<Vec<R>, (usize, std::io::Error)>> =
        on_this_and_more_threads(items, share, &|n, chunk| run(n * share, chunk));
    let mut out = Vec::with_capacity(items.len());
    for result in results {
        out.extend(result?);
    }
    Ok(out)
}

#[cfg(unix)]
fn create_with_mode(path: &Path, executable: bool) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Opened with its final mode (less the umask, as every program's
    // files), so no separate chmod follows.
    let mode = if executable { 0o755 } else { 0o644 };
    fs::OpenOptions::new().write(true).create(true).truncate(true).mode(mode).open(path)
}

#[cfg(not(unix))]
fn create_with_mode(path: &Path, _: bool) -> std::io::Result<fs::File> {
    fs::File::create(path)
}

/// Runs `write` while a helper thread flushes the filesystem again and
/// again, so the bytes written so far travel to the disk while the rest are
/// still being written: the batch's one flush that must wait then finds
/// little left. A flush here only makes data durable sooner; the flush the
/// renames wait for still follows.
fn flushing_meanwhile<R>(root: &Path, write: impl FnOnce() -> R) -> R {
    if !FLUSH_MEANWHILE {
        return write();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                // An error here is the final flush's to report.
                let _ = flush_filesystem(root);
                std::thread::sleep(std::time::Duration::from_millis(FLUSH_PAUSE_MS));
            }
        });
        let result = write();
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// Only where a helper thread may run and `syncfs` exists (elsewhere
/// `batch` falls back to `full`).
const FLUSH_MEANWHILE: bool = THREADS_ALLOWED > 1 && cfg!(target_os = "linux");
/// Between two flushes of the helper: each flush already waits for the disk,
/// so the pause only keeps an idle filesystem from being asked in a spin.
/// 5 ms beat 20 ms in pairwise runs (BENCHMARKS.md).
const FLUSH_PAUSE_MS: u64 = 5;

/// One flush of the whole filesystem holding `root` (Linux `syncfs`).
#[cfg(target_os = "linux")]
fn flush_filesystem(root: &Path) -> std::io::Result<()> {
    let handle = fs::File::open(root)?;
    rustix::fs::syncfs(&handle).map_err(std::io::Error::from)
}

#[cfg(not(target_os = "linux"))]
fn flush_filesystem(_: &Path) -> std::io::Result<()> {
    // Never called: batch durability is full durability here.
    Ok(())
}

/// Makes the names in `dir` durable (its entries, not the files' bytes).
#[cfg(unix)]
fn flush_folder(dir: &Path) -> std::io::Result<()> {
    fs::File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn flush_folder(_: &Path) -> std::io::Result<()> {
    // Folders cannot be opened for a flush here; renames are durable once
    // the filesystem commits them.
    Ok(())
}

fn ignore_missing(error: std::io::Error) -> std::io::Result<()> {
    if error.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(error) }
}

/// What the walk towards each path found, folder by folder, so a plan of
/// ten thousand files in two thousand folders looks at each folder once.
struct Folders<'a, 's> {
    root: &'a Path,
    /// The output root with links resolved, looked up once.
    real_root: Option<PathBuf>,
    /// Borrowed from the steps' paths.
    seen: HashMap<&'s str, Found>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Found {
    Missing,
    Folder,
    /// A symbolic link leading outside the output root (or nowhere).
    Outside,
}

impl<'a, 's> Folders<'a, 's> {
    fn new(root: &'a Path) -> Self {
        Folders { root, real_root: root.canonicalize().ok(), seen: HashMap::new() }
    }

    /// Whether the folder of `rel` exists; the first folder on the way
    /// that is a symbolic link leading outside the output root, so that
    /// writing or removing through it could touch files outside the root.
    /// A link that stays inside the root (a dotfiles `~/.claude` kept
    /// elsewhere in the home folder) is written through.
    fn check(&mut self, rel: &'s str) -> Result<bool, String> {
        if self.real_root.is_none() {
            return Ok(false);
        }
        for (at, _) in rel.match_indices('/') {
            let prefix = &rel[..at];
            let found = match self.seen.get(prefix) {
                Some(found) => found.clone(),
                None => {
                    let found = self.look(prefix);
                    self.seen.insert(prefix, found.clone());
                    found
                }
            };
            match found {
                Found::Missing => return Ok(false),
                Found::Outside => return Err(prefix.to_string()),
                Found::Folder => {}
            }
        }
        Ok(true)
    }

    fn look(&self, prefix: &str) -> Found {
        let folder = self.root.join(prefix);
        match fs::symlink_metadata(&folder) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let inside = match (folder.canonicalize(), &self.real_root) {
                    (Ok(target), Some(real_root)) => target.starts_with(real_root) && target.is_dir(),
                    _ => false,
                };
                if inside { Found::Folder } else { Found::Outside }
            }
            Ok(meta) if meta.is_dir() => Found::Folder,
            // Nothing, or a file where a folder belongs (the write then
            // fails with its own error): nothing below to look at or sweep.
            _ => Found::Missing,
        }
    }

    /// The folders found to exist, relative to the root (`""` for the root).
    fn into_existing(self) -> HashSet<&'s str> {
        let mut existing: HashSet<&'s str> =
            self.seen.into_iter().filter(|(_, found)| *found == Found::Folder).map(|(rel, _)| rel).collect();
        if self.real_root.is_some() {
            existing.insert("");
        }
        existing
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EntryKind {
    File,
    Symlink,
    /// A FIFO, socket or device.
    Special,
}

struct Entry {
    /// Relative to the walked root, `/`-separated; a name that is not
    /// Unicode is shown with escapes ([`name_text`]).
    rel: String,
    /// The path itself when `rel` only shows it (a name that is not
    /// Unicode); otherwise the root joined with `rel` is the path, made when
    /// it is used (a walk of a large output holds tens of thousands).
    not_utf8: Option<PathBuf>,
    kind: EntryKind,
    /// Whether every name on the path is Unicode, so `rel` is the path
    /// itself and not only a way to show it: two names the operating system
    /// tells apart (`caf\xe9.md`, `caf\xe8.md`) must never become one.
    utf8: bool,
}

impl Entry {
    /// The entry's path, below the walked `root`.
    fn path(&self, root: &Path) -> Cow<'_, Path> {
        match &self.not_utf8 {
            Some(path) => Cow::Borrowed(path),
            None => Cow::Owned(root.join(&self.rel)),
        }
    }
}

/// A file or folder name as text: the name itself when it is Unicode, else
/// each byte (on Windows, each unpaired surrogate) that is not shown as an
/// escape (`caf\xe9.md`), so two such names stay apart in a message.
pub fn name_text(name: &std::ffi::OsStr) -> String {
    if let Some(text) = name.to_str() {
        return text.to_string();
    }
    escaped(name)
}

#[cfg(unix)]
fn escaped(name: &std::ffi::OsStr) -> String {
    use std::fmt::Write as _;
    use std::os::unix::ffi::OsStrExt;
    let mut text = String::new();
    for chunk in name.as_bytes().utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(text, "\\x{byte:02x}");
        }
    }
    text
}

#[cfg(windows)]
fn escaped(name: &std::ffi::OsStr) -> String {
    use std::fmt::Write as _;
    use std::os::windows::ffi::OsStrExt;
    let mut text = String::new();
    for unit in char::decode_utf16(name.encode_wide()) {
        match unit {
            Ok(c) => text.push(c),
            Err(e) => {
                let _ = write!(text, "\\u{{{:04x}}}", e.unpaired_surrogate());
            }
        }
    }
    text
}

#[cfg(not(any(unix, windows)))]
fn escaped(name: &std::ffi::OsStr) -> String {
    name.to_string_lossy().into_owned()
}

/// The file (any entry that is not a folder) past the first `most` below
/// `root`, walked as [`walk`] walks it, each folder's names in order, so the
/// one named is the same on every run; `None` when there are no more than
/// `most`. Keeps one folder's names at a time.
fn file_past(root: &Path, skip_dir: &dyn Fn(&Path) -> bool, most: usize) -> HostResult<Option<String>> {
    let mut seen = 0usize;
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let mut names = Vec::new();
        for entry in fs::read_dir(&dir).map_err(|e| HostError::at(&dir, e))? {
            let entry = entry.map_err(|e| HostError::at(&dir, e))?;
            let folder = entry.file_type().map_err(|e| HostError::at(&entry.path(), e))?.is_dir();
            names.push((entry.file_name(), folder));
        }
        names.sort();
        let mut folders = Vec::new();
        for (name, folder) in names {
            let path = dir.join(&name);
            if folder {
                if !skip_dir(&path) {
                    folders.push(path);
                }
                continue;
            }
            seen += 1;
            if seen > most {
                let rel = path.strip_prefix(root).expect("below root");
                return Ok(Some(rel.iter().map(name_text).collect::<Vec<_>>().join("/")));
            }
        }
        // Popped in name order.
        pending.extend(folders.into_iter().rev());
    }
    Ok(None)
}

/// Every non-folder entry below `root`, sorted by relative path; folders
/// are entered unless `skip_dir`, symbolic links to folders never.
fn walk(root: &Path, skip_dir: &dyn Fn(&Path) -> bool) -> HostResult<Vec<Entry>> {
    walk_noting_folders(root, skip_dir, None)
}

/// [`walk`], noting each folder it entered in `entered` (the root too), in
/// no particular order.
fn walk_noting_folders(
    root: &Path,
    skip_dir: &dyn Fn(&Path) -> bool,
    mut entered: Option<&mut Vec<PathBuf>>,
) -> HostResult<Vec<Entry>> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| HostError::at(&dir, e))?;
        if let Some(entered) = entered.as_deref_mut() {
            entered.push(dir.clone());
        }
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
            let utf8 = rel.to_str().is_some();
            let rel: Vec<String> = rel.iter().map(name_text).collect();
            out.push(Entry { rel: rel.join("/"), not_utf8: (!utf8).then_some(path), kind, utf8 });
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(out)
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::{Expect, is_temp_name};
    use plugforge_core::Sha256Digest;

    #[test]
    fn an_action_held_as_data_expects_what_its_plan_saw_and_a_bad_hash_is_refused() {
        let sha = Sha256Digest::of(b"x");
        let hex = sha.to_string();
        assert_eq!(Expect::of_action("a", Some(&hex), true), Ok(Expect::Sha256(sha)));
        assert_eq!(Expect::of_action("a", None, true), Ok(Expect::Absent));
        assert_eq!(Expect::of_action("a", Some("bad"), false), Ok(Expect::Any));
        assert_eq!(
            Expect::of_action("skills/s/SKILL.md", Some("bad"), true),
            Err("skills/s/SKILL.md: found \"bad\" is not a sha256".to_string())
        );
    }

    #[test]
    fn recognises_temp_files_of_this_and_earlier_versions() {
        assert!(is_temp_name(".plugforge-tmp-123-4"));
        assert!(is_temp_name(".plugin.json.plugforge-4242.tmp"));
        assert!(!is_temp_name("plugin.json"));
        assert!(!is_temp_name(".plugforge-manifest.json"));
        assert!(!is_temp_name(".notes.plugforge-x.tmp"));
    }
}
