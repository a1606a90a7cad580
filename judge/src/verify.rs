//! `plugforge verify`: every bundle below an output root, judged by each real
//! client its runtime's spec names, each from a copy of the output root in a
//! scratch folder of its own, the clients in parallel.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use plugforge_core::{Built, Check, Judge, Layout, Manifest, Reading, Runtime};
use serde::Serialize;

use crate::driver::{self, Outcome, Scratch};
use crate::find;

/// What to verify, and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The output root a build wrote.
    pub root: PathBuf,
    /// Runtime ids to verify (empty: every bundle found).
    pub targets: Vec<String>,
    /// Clients named on the command line, by client id.
    pub clients: BTreeMap<String, PathBuf>,
    /// The file name of each bundle's manifest.
    pub manifest_name: String,
    /// How long one client may take over one bundle.
    pub timeout: Duration,
    /// How many clients run at once.
    pub jobs: usize,
    /// Where scratch folders go (the system's temp folder when `None`).
    pub scratch: Option<PathBuf>,
}

/// A runtime's or a client's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Every client that ran loaded everything built and said nothing went wrong.
    Passed,
    /// A client did not load something built, or said something went wrong.
    Failed,
    /// No client could run here.
    Skipped,
    /// The runtime has no client that runs offline.
    NotJudged,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
            Status::NotJudged => "not judged",
        }
    }
}

/// One client's verdict on one bundle.
#[derive(Debug, Clone, Serialize)]
pub struct ClientVerdict {
    /// Its id (`claude`), as `--client` and `verify --install` name it.
    pub client: String,
    /// Its name in messages.
    pub name: String,
    /// The version the suite pins (and `--install` installs).
    pub pinned: String,
    pub status: Status,
    /// The binary that ran, when one was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<String>,
    /// Why it was skipped or could not judge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What it made of the bundle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<Reading>,
    /// How long it took, in milliseconds.
    pub millis: u64,
}

/// One bundle's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct BundleVerdict {
    pub runtime: String,
    pub kind: String,
    pub plugin: String,
    /// The bundle folder, relative to the output root (`.` for a kind written in place).
    pub bundle: String,
    /// Its manifest, relative to the output root.
    pub manifest: String,
    pub status: Status,
    /// Why it is not judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub clients: Vec<ClientVerdict>,
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// No client failed (and, with `--require-clients`, none was skipped).
    pub ok: bool,
    pub root: String,
    pub bundles: Vec<BundleVerdict>,
    /// Wall time of the run, in milliseconds.
    pub millis: u64,
}

impl Report {
    /// Clients that were skipped (not found, or nothing to run them with).
    pub fn skipped(&self) -> usize {
        self.bundles.iter().flat_map(|b| &b.clients).filter(|c| c.status == Status::Skipped).count()
    }
}

/// A bundle found below the root: its manifest and where it is.
struct Bundle {
    runtime: Runtime,
    manifest: Manifest,
    /// Relative to the root, `/`-separated.
    manifest_path: String,
    bundle: String,
}

/// A manifest that a build's file name and place say is one, but that does
/// not parse: its runtime, path and what is wrong.
struct Unreadable {
    runtime: Runtime,
    manifest_path: String,
    message: String,
}

/// Every bundle below `root` whose manifest a build wrote, in registry
/// order, and the manifests that do not parse (each is a failed bundle; the
/// others are still judged).
fn bundles(root: &Path, targets: &[String], manifest_name: &str) -> (Vec<Bundle>, Vec<Unreadable>) {
    let mut found = Vec::new();
    let mut unreadable = Vec::new();
    for runtime in Runtime::ALL.iter().copied() {
        if !targets.is_empty() && !targets.iter().any(|t| t == runtime.id()) {
            continue;
        }
        let mut candidates: Vec<String> = Vec::new();
        for kind in runtime.kinds() {
            match kind.layout {
                Layout::Folder => {
                    candidates.push(format!("{}/{manifest_name}", runtime.id()));
                    let dir = root.join(runtime.id());
                    for entry in read_dir_sorted(&dir) {
                        candidates.push(format!("{}/{entry}/{manifest_name}", runtime.id()));
                    }
                }
                Layout::InPlace { state_dir } => {
                    let suffix = format!(".{}", manifest_name.trim_start_matches('.'));
                    for entry in read_dir_sorted(&root.join(state_dir)) {
                        if entry.ends_with(&suffix) {
                            candidates.push(format!("{state_dir}/{entry}"));
                        }
                    }
                }
            }
        }
        candidates.dedup();
        for rel in candidates {
            let path = root.join(&rel);
            let Ok(bytes) = std::fs::read(&path) else { continue };
            let manifest = match Manifest::parse(&rel, &bytes) {
                Ok(manifest) => manifest.sorted(),
                Err(e) => {
                    if !unreadable.iter().any(|u: &Unreadable| u.manifest_path == rel) {
                        unreadable.push(Unreadable { runtime, manifest_path: rel, message: e.message() });
                    }
                    continue;
                }
            };
            if manifest.runtime != runtime.id() || found.iter().any(|f: &Bundle| f.manifest_path == rel) {
                continue;
            }
            let in_place = runtime
                .kinds()
                .iter()
                .find(|k| k.name == manifest.kind)
                .is_some_and(|k| matches!(k.layout, Layout::InPlace { .. }));
            let bundle = if in_place {
                ".".to_string()
            } else {
                rel.rsplit_once('/').map_or(".".to_string(), |(dir, _)| dir.to_string())
            };
            found.push(Bundle { runtime, manifest, manifest_path: rel, bundle });
        }
    }
    (found, unreadable)
}

fn read_dir_sorted(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut names: Vec<String> =
        entries.filter_map(|e| e.ok()).filter_map(|e| e.file_name().into_string().ok()).collect();
    names.sort();
    names
}

/// The bundle's files as on disk: the ones its manifest lists, and the
/// shared files its kind holds parts of.
fn files_on_disk(folder: &Path, found: &Bundle) -> BTreeMap<String, Vec<u8>> {
    let shared = found
        .runtime
        .kinds()
        .iter()
        .find(|k| k.name == found.manifest.kind)
        .map(|k| k.shared)
        .unwrap_or_default();
    let paths = found.manifest.files.iter().map(|f| f.path.as_str()).chain(shared.iter().copied());
    // A manifest's path that leaves the bundle (`..`, absolute) is not read:
    // nothing outside the output root is.
    paths
        .filter(|p| plugforge_core::BundlePath::new(*p).is_ok())
        .filter_map(|p| std::fs::read(folder.join(p)).ok().map(|bytes| (p.to_string(), bytes)))
        .collect()
}

/// The install hint of a client that is not found.
pub fn install_hint(client: &plugforge_core::Client) -> String {
    let (package, registry) =
        client.package.strip_prefix("pypi:").map_or((client.package, ""), |p| (p, " (PyPI)"));
    format!(
        "{} not found; `plugforge verify --install` installs {package}@{}{registry}",
        client.commands.first().copied().unwrap_or(client.id),
        client.version
    )
}

/// A check to run: which bundle, which client, where.
struct Task {
    bundle: usize,
    check: &'static Check,
    binary: PathBuf,
}

/// Runs every client over every bundle below `options.root`.
pub fn verify(options: &Options) -> Result<Report, String> {
    let started = Instant::now();
    let root = options.root.canonicalize().map_err(|e| format!("{}: {e}", options.root.display()))?;
    if !root.is_dir() {
        return Err(format!("{}: not a folder", options.root.display()));
    }
    for target in &options.targets {
        Runtime::parse(target).map_err(|e| e.message())?;
    }
    let (found, unreadable) = bundles(&root, &options.targets, &options.manifest_name);
    let python = find::on_path(driver::PYTHON).is_some();
    let mut verdicts = Vec::new();
    let mut tasks = VecDeque::new();
    for (index, bundle) in found.iter().enumerate() {
        let spec = bundle.runtime.spec();
        let mut verdict = BundleVerdict {
            runtime: spec.id.into(),
            kind: bundle.manifest.kind.clone(),
            plugin: bundle.manifest.plugin.name.clone(),
            bundle: bundle.bundle.clone(),
            manifest: bundle.manifest_path.clone(),
            status: Status::NotJudged,
            reason: None,
            clients: Vec::new(),
        };
        match &spec.judge {
            Judge::Clients(checks) => {
                let checks: Vec<&'static Check> =
                    checks.iter().filter(|c| c.kinds.contains(&bundle.manifest.kind.as_str())).collect();
                if checks.is_empty() {
                    verdict.reason =
                        Some(format!("no client here loads the {} kind offline", bundle.manifest.kind));
                }
                for check in checks {
                    let client = check.client;
                    let mut result = ClientVerdict {
                        client: client.id.into(),
                        name: client.name.into(),
                        pinned: client.version.into(),
                        status: Status::Skipped,
                        binary: None,
                        reason: None,
                        reading: None,
                        millis: 0,
                    };
                    match find::find(client, &options.clients) {
                        None => result.reason = Some(install_hint(client)),
                        Some(_) if !python => {
                            result.reason = Some(format!(
                                "{} not found; each client is driven by a Python script, so verify needs {}",
                                driver::PYTHON,
                                driver::PYTHON
                            ))
                        }
                        Some(found) => {
                            result.binary = Some(found.path().display().to_string());
                            tasks.push_back((
                                verdict.clients.len(),
                                Task { bundle: index, check, binary: found.path().to_path_buf() },
                            ));
                        }
                    }
                    verdict.clients.push(result);
                }
            }
            Judge::Schemas { why, .. } => verdict.reason = Some(why.to_string()),
            Judge::Nothing(why) => verdict.reason = Some(why.to_string()),
        }
        verdicts.push(verdict);
    }

    // The slowest first, so the longest run is not the last to start.
    let mut tasks: Vec<(usize, Task)> = tasks.into_iter().collect();
    tasks.sort_by_key(|(_, task)| std::cmp::Reverse(task.check.client.typical_seconds));
    let queue = Mutex::new(VecDeque::from(tasks));
    let results = Mutex::new(Vec::new());
    let jobs = options.jobs.max(1);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().expect("queue").pop_front();
                    let Some((slot, task)) = next else { break };
                    let outcome = run_task(&root, &found[task.bundle], &task, options);
                    results.lock().expect("results").push((task.bundle, slot, outcome));
                }
            });
        }
    });
    for (bundle, slot, (status, reason, reading, millis)) in results.into_inner().expect("results") {
        let client = &mut verdicts[bundle].clients[slot];
        client.status = status;
        client.reason = reason;
        client.reading = reading;
        client.millis = millis;
    }
    for verdict in &mut verdicts {
        if verdict.clients.is_empty() {
            continue;
        }
        let statuses: Vec<Status> = verdict.clients.iter().map(|c| c.status).collect();
        verdict.status = if statuses.contains(&Status::Failed) {
            Status::Failed
        } else if statuses.contains(&Status::Passed) {
            Status::Passed
        } else {
            Status::Skipped
        };
    }
    for broken in unreadable {
        let bundle = broken.manifest_path.rsplit_once('/').map_or(".", |(dir, _)| dir).to_string();
        verdicts.push(BundleVerdict {
            runtime: broken.runtime.id().into(),
            kind: String::new(),
            plugin: String::new(),
            bundle,
            manifest: broken.manifest_path,
            status: Status::Failed,
            reason: Some(format!(
                "its generation manifest does not parse, so nothing in it is judged: {}",
                broken.message
            )),
            clients: Vec::new(),
        });
    }
    // In registry order, as the bundles found are.
    verdicts.sort_by_key(|v| Runtime::ALL.iter().position(|r| r.id() == v.runtime));
    let ok = !verdicts.iter().any(|v| v.status == Status::Failed);
    Ok(Report {
        ok,
        root: options.root.display().to_string(),
        bundles: verdicts,
        millis: started.elapsed().as_millis() as u64,
    })
}

type TaskOutcome = (Status, Option<String>, Option<Reading>, u64);

/// One client over one bundle: a scratch folder with a copy of the root,
/// the driver, and its report read.
fn run_task(root: &Path, found: &Bundle, task: &Task, options: &Options) -> TaskOutcome {
    let started = Instant::now();
    let millis = || started.elapsed().as_millis() as u64;
    let scratch = match Scratch::new(options.scratch.as_deref()) {
        Ok(scratch) => scratch,
        Err(e) => return (Status::Failed, Some(e), None, millis()),
    };
    let copy = scratch.path().join("root");
    if let Err(e) = copy_tree(root, &copy) {
        return (Status::Failed, Some(format!("cannot copy the output root: {e}")), None, millis());
    }
    let folder = if found.bundle == "." { copy.clone() } else { copy.join(&found.bundle) };
    let args: Vec<String> = task
        .check
        .args
        .iter()
        .map(|arg| {
            let fill = |word: &str| match word {
                "BIN" => Some(task.binary.display().to_string()),
                "ROOT" => Some(copy.display().to_string()),
                "DIR" => Some(folder.display().to_string()),
                "NAME" => Some(found.manifest.plugin.name.clone()),
                "SCOPE" => Some(found.manifest.scope.clone()),
                _ => None,
            };
            match arg.split_once('/') {
                Some((head, tail)) => fill(head).map_or(arg.to_string(), |v| format!("{v}/{tail}")),
                None => fill(arg).unwrap_or_else(|| arg.to_string()),
            }
        })
        .collect();
    let outcome = driver::run(&scratch, task.check.driver, &args, options.timeout);
    match outcome {
        Outcome::Failed(said) => (
            Status::Failed,
            Some(format!("{} could not judge the bundle: {said}", task.check.client.name)),
            None,
            millis(),
        ),
        Outcome::Report(report) => {
            let files = files_on_disk(&root.join(&found.bundle), found);
            let dir = folder.display().to_string();
            let built = Built { dir: &dir, manifest: &found.manifest, files: &files };
            let reading = (task.check.read)(&report, &built);
            let status = if reading.passed() { Status::Passed } else { Status::Failed };
            (status, None, Some(reading), millis())
        }
    }
}

/// Copies `from` into the new folder `to`, keeping symbolic links that stay
/// inside `from` as links (a `.git` folder is left out).
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    let top = from.canonicalize()?;
    copy_below(&top, from, to)
}

fn copy_below(top: &Path, from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == ".git" {
            continue;
        }
        let kind = entry.file_type()?;
        let target = to.join(&name);
        if kind.is_symlink() {
            // A link out of the copied tree is left out: a client never
            // reads through the copy what lies outside the output root.
            let inside = entry.path().canonicalize().is_ok_and(|target| target.starts_with(top));
            if !inside {
                continue;
            }
            let link = std::fs::read_link(entry.path())?;
            #[cfg(unix)]
            std::os::unix::fs::symlink(link, &target)?;
            #[cfg(not(unix))]
            {
                let _ = link;
                std::fs::copy(entry.path(), &target)?;
            }
        } else if kind.is_dir() {
            copy_below(top, &entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn the_copy_keeps_links_inside_the_root_and_leaves_out_the_rest() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "not yours").unwrap();
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("b/.git")).unwrap();
        std::fs::write(root.path().join("b/file.md"), "x").unwrap();
        std::fs::write(root.path().join("b/.git/HEAD"), "ref").unwrap();
        std::os::unix::fs::symlink("file.md", root.path().join("b/inside")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root.path().join("b/outside")).unwrap();
        let to = tempfile::tempdir().unwrap();
        copy_tree(root.path(), &to.path().join("copy")).unwrap();
        let copy = to.path().join("copy/b");
        assert_eq!(std::fs::read_to_string(copy.join("file.md")).unwrap(), "x");
        assert_eq!(std::fs::read_link(copy.join("inside")).unwrap(), Path::new("file.md"));
        assert!(!copy.join("outside").exists() && std::fs::symlink_metadata(copy.join("outside")).is_err());
        assert!(!copy.join(".git").exists());
    }
}
