//! The rerun shortcut of `build`: a run that changed nothing on disk leaves
//! a record (the stamps of every source and output file and folder, and
//! what the run printed); the next run with the same arguments, the same
//! plugforge and the same stamps prints that again without reading,
//! building or hashing. It looks up each stamped path, lists no folder: a
//! folder that gained, lost or renamed an entry has a new stamp itself.
//!
//! Why stamps may stand for bytes: a stamp is device, inode, size, mode,
//! modification and status-change time to the nanosecond. Editors, `cp`,
//! `git checkout` and renames all change the inode or the status-change
//! time, which `touch`, `cp -p` and `rsync -t` cannot set back. What a stamp
//! cannot show is a second write in the same timestamp tick as the one
//! stamped, so a record is kept only when every file and folder last changed
//! more than [`SETTLE_NANOS`] before the run began (git's rule for "racy" files,
//! with a margin for filesystems that keep whole or even seconds). The
//! record also holds the stamps taken after the run: a file changed while
//! the run read it makes them differ, and no record is kept.
//!
//! Records live in the user's cache folder (`$PLUGFORGE_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/plugforge/reruns`, else `~/.cache/plugforge/reruns`),
//! one per command line and working folder, never in the output root.
//!
//! A record is one line of JSON ([`Header`]: the key, the stamps, the exit
//! code and how many bytes were printed) followed by the printed bytes
//! themselves, stdout then stderr. What a run prints goes to a spool file as
//! it is printed and is copied into the record, and a replay prints it back a
//! block at a time: the `--json` report of a large build (16 MiB for 18,000
//! files) is never held whole in memory.

use std::ffi::OsString;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use plugforge_core::{BundlePath, Observed, Plan, Sha256Digest, Sha256Stream, SourceTree, sha256_hex};
use plugforge_host_fs::{self as host_fs, Durability, Stamps};
use serde::{Deserialize, Serialize};

use crate::Failure;
use crate::args::BuildArgs;
use crate::host::{Host, Listing};
use crate::{render, verbs};

/// How long before a run a file must have last changed for its stamp to
/// stand for its bytes.
const SETTLE_NANOS: i128 = 2_000_000_000;

/// At most this many records are kept; writing one more removes the least
/// recently used (a replay marks its record used).
const MAX_RECORDS: usize = 256;

/// A record (or a temp file a killed run left) unused for this long is
/// removed when the next record is written.
const RECORD_MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// Set, the shortcut is off (and no record is written).
pub(crate) const NO_RERUN_ENV: &str = "PLUGFORGE_NO_RERUN_RECORD";

/// The first line of a record; the `stdout` and then `stderr` bytes it
/// counts follow it.
#[derive(Serialize, Deserialize)]
struct Header {
    key: String,
    stamps: Vec<Option<Stamps>>,
    exit: u8,
    stdout: u64,
    stderr: u64,
}

/// `build`, with the shortcut when its record holds.
pub(crate) fn build(
    host: &mut dyn Host,
    argv: &[OsString],
    args: &BuildArgs,
    json: bool,
) -> Result<u8, Failure> {
    let Some(rerun) = Rerun::prepare(host, argv, args) else { return verbs::build(host, args) };
    if let Some(exit) = rerun.replay(host) {
        return Ok(exit);
    }
    // Only their digest is kept through the build: the stamps of a large
    // output are megabytes, and equal stamps after the run are the record's.
    let Some(before) = stamp_all(&rerun.roots).map(|stamps| digest(&stamps)) else {
        return verbs::build(host, args);
    };
    let Some(spool) = Spool::create(&rerun.file) else { return verbs::build(host, args) };
    let mut recorder = Recorder { inner: host, spool: Some(spool), stderr: String::new(), wrote: false };
    let exit =
        verbs::build(&mut recorder, args).unwrap_or_else(|failure| failure.report(&mut recorder, json));
    let Recorder { spool, stderr, wrote, .. } = recorder;
    match spool {
        Some(spool) if !wrote => rerun.keep(before, spool, &stderr, exit),
        spool => {
            if let Some(spool) = spool {
                spool.discard();
            }
            rerun.forget();
        }
    }
    Ok(exit)
}

struct Rerun {
    file: PathBuf,
    key: String,
    roots: Vec<(PathBuf, bool, Vec<PathBuf>)>,
    /// Nanoseconds since the epoch, when the run began.
    started: i128,
}

impl Rerun {
    /// The record's place and key; `None` when the shortcut cannot apply
    /// (no cache folder, `--watch`, a test hook set).
    fn prepare(host: &mut dyn Host, argv: &[OsString], args: &BuildArgs) -> Option<Rerun> {
        if args.watch || env_set(NO_RERUN_ENV) || env_set("PLUGFORGE_FAIL_AFTER_WRITES") {
            return None;
        }
        let dir = cache_dir()?;
        let source = args.sources.first().map_or(".", String::as_str);
        let out = verbs::out_dir(host, &args.output, source).ok()?;
        let out = PathBuf::from(out);
        let sources: Vec<&str> = if args.sources.is_empty() {
            vec!["."]
        } else {
            args.sources.iter().map(String::as_str).collect()
        };
        let mut roots: Vec<(PathBuf, bool, Vec<PathBuf>)> =
            sources.iter().map(|s| (PathBuf::from(s), true, vec![out.clone()])).collect();
        roots.push((out, false, Vec::new()));

        let started = i128::try_from(SystemTime::now().duration_since(UNIX_EPOCH).ok()?.as_nanos()).ok()?;
        let mut identity = vec![
            format!("build {}", env!("PLUGFORGE_BUILD_ID")),
            format!("cwd {}", std::env::current_dir().ok()?.display()),
            format!("color {}", host.color()),
        ];
        for var in ["HOME", "SOURCE_DATE_EPOCH", "NO_COLOR"] {
            identity.push(format!("{var} {:?}", std::env::var_os(var)));
        }
        identity.extend(argv.iter().map(|arg| format!("arg {arg:?}")));
        let key = sha256_hex(identity.join("\n").as_bytes());
        Some(Rerun { file: dir.join(format!("{key}.json")), key, roots, started })
    }

    /// Prints the record and gives its exit code, when it was made with
    /// these arguments and every stamp is still the same; prints nothing
    /// otherwise.
    fn replay(&self, host: &mut dyn Host) -> Option<u8> {
        let file = File::open(&self.file).ok()?;
        let length = file.metadata().ok()?.len();
        let mut reader = BufReader::new(file);
        let mut line = Vec::new();
        reader.read_until(b'\n', &mut line).ok()?;
        let header: Header = serde_json::from_slice(&line).ok()?;
        let whole = (line.len() as u64).checked_add(header.stdout)?.checked_add(header.stderr)?;
        if header.key != self.key || header.stamps.len() != self.roots.len() || whole != length {
            return None;
        }
        let same = self.roots.iter().zip(&header.stamps).all(|((root, _, _), recorded)| {
            recorded.as_ref().is_some_and(|recorded| host_fs::unchanged(root, recorded))
        });
        if !same {
            return None;
        }
        // Marked used, so pruning keeps the records people rerun.
        if let Ok(file) = File::options().write(true).open(&self.file) {
            let _ = file.set_modified(SystemTime::now());
        }
        // Checked whole above: what follows the header is exactly the printed bytes.
        render::copy_to_stdout(host, (&mut reader).take(header.stdout)).ok()?;
        let mut stderr = Vec::new();
        reader.take(header.stderr).read_to_end(&mut stderr).ok()?;
        host.stderr(&String::from_utf8_lossy(&stderr));
        Some(header.exit)
    }

    /// Removes the record of a run that wrote files: their stamps are new,
    /// so it can no longer match, and stamping the output again to learn
    /// that would walk every file just written (on a fresh build, a tenth
    /// of the whole command's time).
    fn forget(self) {
        let _ = std::fs::remove_file(&self.file);
    }

    /// Keeps the record of a run that changed nothing, when its stamps are
    /// settled; removes a stale one otherwise. Best effort: a record that
    /// cannot be written only means the next run does the work.
    fn keep(self, before: Sha256Digest, spool: Spool, stderr: &str, exit: u8) {
        let after = stamp_all(&self.roots).filter(|after| digest(after) == before);
        let unchanged = after.is_some();
        let stamps = after.unwrap_or_default();
        // A root without stamps (no inode numbers) cannot vouch for its bytes.
        let settled = stamps
            .iter()
            .all(|s| s.as_ref().is_some_and(|s| host_fs::settled_before(s, self.started - SETTLE_NANOS)));
        let Some(dir) = self.file.parent() else { return spool.discard() };
        let Some((mut printed, length)) = spool.finish().filter(|_| unchanged && settled) else {
            let _ = std::fs::remove_file(&self.file);
            return;
        };
        let header = Header { key: self.key, stamps, exit, stdout: length, stderr: stderr.len() as u64 };
        // Written aside and renamed: a reader never sees half a record.
        let temp = dir.join(format!("{}{}.{}", host_fs::TEMP_PREFIX, header.key, host_fs::process_tag()));
        let written = File::create(&temp).and_then(|file| {
            let mut out = BufWriter::new(file);
            serde_json::to_writer(&mut out, &header)?;
            out.write_all(b"\n")?;
            let copied = std::io::copy(&mut printed, &mut out)?;
            if copied != length {
                return Err(std::io::Error::other("the spool changed while it was copied"));
            }
            out.write_all(stderr.as_bytes())?;
            out.flush()
        });
        drop(printed);
        if written.is_err() || std::fs::rename(&temp, &self.file).is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        prune(dir, &self.file);
    }
}

/// A temp file beside the records, holding what a run prints to stdout as
/// it prints it.
struct Spool {
    path: PathBuf,
    out: BufWriter<File>,
}

impl Spool {
    fn create(record: &Path) -> Option<Spool> {
        let dir = record.parent()?;
        std::fs::create_dir_all(dir).ok()?;
        let name = record.file_stem()?.to_string_lossy();
        let path = dir.join(format!("{}{name}.{}.stdout", host_fs::TEMP_PREFIX, host_fs::process_tag()));
        let file = File::options().read(true).write(true).create(true).truncate(true).open(&path).ok()?;
        Some(Spool { path, out: BufWriter::new(file) })
    }

    /// What was printed, rewound for reading, and its length; the spool file
    /// is gone either way.
    fn finish(self) -> Option<(File, u64)> {
        let Spool { path, out } = self;
        let ready = out.into_inner().map_err(|e| e.into_error()).and_then(|mut file| {
            let length = file.stream_position()?;
            file.rewind()?;
            Ok((file, length))
        });
        // An open file reads on once its name is gone (on Windows, the name goes when it is closed).
        let _ = std::fs::remove_file(&path);
        ready.ok()
    }

    fn discard(self) {
        drop(self.out);
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Keeps the record folder small: removes what has gone unused for
/// [`RECORD_MAX_AGE`], then the least recently used past [`MAX_RECORDS`].
/// Only names plugforge writes there are touched; `keep` (the record just
/// written) always stays.
fn prune(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let now = SystemTime::now();
    let mut records: Vec<(SystemTime, PathBuf)> = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ours = name.starts_with(host_fs::TEMP_PREFIX)
            || name
                .strip_suffix(".json")
                .is_some_and(|key| key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit()));
        if !ours || path == keep {
            continue;
        }
        let Ok(used) = entry.metadata().and_then(|m| m.modified()) else { continue };
        if now.duration_since(used).is_ok_and(|age| age > RECORD_MAX_AGE) {
            let _ = std::fs::remove_file(&path);
        } else if !name.starts_with(host_fs::TEMP_PREFIX) {
            records.push((used, path));
        }
    }
    // The newest first; the record just written counts as one of those kept.
    records.sort_by(|a, b| b.cmp(a));
    for (_, path) in records.into_iter().skip(MAX_RECORDS - 1) {
        let _ = std::fs::remove_file(path);
    }
}

fn stamp_all(roots: &[(PathBuf, bool, Vec<PathBuf>)]) -> Option<Vec<Option<Stamps>>> {
    roots.iter().map(|(root, source, exclude)| host_fs::stamps(root, *source, exclude).ok()).collect()
}

/// The sha256 of stamps as the record would hold them.
fn digest(stamps: &[Option<Stamps>]) -> Sha256Digest {
    struct Hashing(Sha256Stream);
    impl Write for Hashing {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.update(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut hashing = Hashing(Sha256Stream::new());
    serde_json::to_writer(&mut hashing, stamps).expect("stamps always serialize");
    hashing.0.finish()
}

fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// Where records are kept; `None` without a cache folder or a home.
fn cache_dir() -> Option<PathBuf> {
    let from = |var: &str| std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = from("PLUGFORGE_CACHE_DIR") {
        return Some(dir.join("reruns"));
    }
    let cache = from("XDG_CACHE_HOME")
        .filter(|d| d.is_absolute())
        .or_else(|| from("HOME").map(|h| h.join(".cache")))?;
    Some(cache.join("plugforge").join("reruns"))
}

/// A host that passes everything through, keeps a copy of what is printed
/// (stdout in a spool file) and notes whether anything was written: a run
/// that wrote leaves no record, so from then on nothing is kept.
struct Recorder<'a> {
    inner: &'a mut dyn Host,
    spool: Option<Spool>,
    stderr: String,
    wrote: bool,
}

impl Recorder<'_> {
    fn stop_keeping(&mut self) {
        if let Some(spool) = self.spool.take() {
            spool.discard();
        }
        self.stderr = String::new();
    }
}

impl Host for Recorder<'_> {
    fn read_tree(&mut self, dir: &str, exclude: &[String]) -> Result<SourceTree, String> {
        self.inner.read_tree(dir, exclude)
    }
    fn observe(
        &mut self,
        root: &str,
        to_read: &[BundlePath],
        to_hash: &[BundlePath],
        listing: Listing<'_>,
    ) -> Result<Observed, String> {
        self.inner.observe(root, to_read, to_hash, listing)
    }
    fn lock(&mut self, root: &str) -> Result<(), String> {
        self.inner.lock(root)
    }
    fn unlock(&mut self) {
        self.inner.unlock();
    }
    fn apply(&mut self, root: &str, plan: &Plan, durability: Durability) -> Result<(), Failure> {
        // Noted before the call: a write that failed half-way changed files too.
        if plan.writes() > 0 {
            self.wrote = true;
            self.stop_keeping();
        }
        self.inner.apply(root, plan, durability)
    }
    fn create_files(&mut self, dir: &str, tree: &SourceTree) -> Result<(), String> {
        if !tree.is_empty() {
            self.wrote = true;
            self.stop_keeping();
        }
        self.inner.create_files(dir, tree)
    }
    fn exists(&mut self, path: &str) -> bool {
        self.inner.exists(path)
    }
    fn generated_at(&mut self) -> String {
        self.inner.generated_at()
    }
    fn home_dir(&mut self) -> Option<String> {
        self.inner.home_dir()
    }
    fn folder_name(&mut self, dir: &str) -> Option<String> {
        self.inner.folder_name(dir)
    }
    fn stdout(&mut self, text: &str) {
        // A spool that cannot be written means no record, not a failed run.
        if let Some(spool) = &mut self.spool
            && spool.out.write_all(text.as_bytes()).is_err()
        {
            self.stop_keeping();
        }
        self.inner.stdout(text);
    }
    fn stderr(&mut self, text: &str) {
        if !self.wrote {
            self.stderr.push_str(text);
        }
        self.inner.stderr(text);
    }
    fn color(&mut self) -> bool {
        self.inner.color()
    }
    fn show_progress(&mut self, wanted: bool) {
        self.inner.show_progress(wanted);
    }
}
