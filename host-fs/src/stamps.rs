//! Stamps: what a file's metadata says of its identity and last change,
//! for the command line's rerun record (a stamp stands for the bytes only
//! when it is settled: see [`settled_before`]).
//!
//! Folders are stamped too. Adding, removing or renaming an entry changes
//! its folder's modification and status-change times, so while every
//! folder a walk entered keeps its stamp, the walk would find the same
//! entries: [`unchanged`] checks a record by looking up each stamped path,
//! with no folder listed again (a rerun of a 10,000-file output: 12,800
//! lookups instead of 10,000 folders opened, listed and closed as well).

use std::path::{Path, PathBuf};

use super::HostResult;
#[cfg(unix)]
use super::{HostError, file_past, name_text, parallel_map, skipped_in_source, walk_noting_folders};

/// A file's or folder's identity and last change as its metadata gives
/// them (device, inode, size, mode, modification and status-change times to
/// the nanosecond), by path below the root: a folder's path ends in `/`,
/// the root's is empty.
pub type Stamps = Vec<(String, [i64; 8])>;

/// The stamps of every file and folder below `root`, walked as
/// [`read_tree`](crate::read_tree) walks a source (`source: true`: VCS,
/// dependency and `exclude` folders skipped) or as
/// [`observe`](crate::observe) walks an output root (everything, temp files
/// included, so a leftover is a change). Symbolic links are stamped by what
/// they lead to. A missing output root has no stamps. `None` where the
/// platform gives no inode numbers, or for a source over the file-count
/// bound: the rerun shortcut is then off.
#[cfg(unix)]
pub fn stamps(root: &Path, source: bool, exclude: &[PathBuf]) -> HostResult<Option<Stamps>> {
    if !source && !root.exists() {
        return Ok(Some(Vec::new()));
    }
    let mut folders = Vec::new();
    // A source over the file-count bound is refused by every build: its
    // stamps would only hold its names in memory for nothing.
    if source
        && file_past(root, &skipped_in_source(root, exclude), plugforge_core::limits::MAX_SOURCE_FILES)?
            .is_some()
    {
        return Ok(None);
    }
    let entries = if source {
        walk_noting_folders(root, &skipped_in_source(root, exclude), Some(&mut folders))?
    } else {
        walk_noting_folders(root, &|_: &Path| false, Some(&mut folders))?
    };
    let mut paths: Vec<(String, PathBuf)> = entries
        .into_iter()
        .map(|entry| {
            let path = entry.path(root).into_owned();
            (entry.rel, path)
        })
        .collect();
    for folder in folders {
        let below = folder.strip_prefix(root).expect("below root");
        let mut rel: String = below.iter().map(name_text).collect::<Vec<_>>().join("/");
        if !rel.is_empty() {
            rel.push('/');
        }
        paths.push((rel, folder));
    }
    paths.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // Each stamp as it is taken, not the whole metadata first: for 100,000
    // files that is 7 MiB instead of 17.
    let stamped = parallel_map(&paths, |(_, path)| std::fs::metadata(path).map(|meta| fields(&meta)))
        .map_err(|(at, e)| HostError::at(&paths[at].1, e))?;
    Ok(Some(paths.into_iter().zip(stamped).map(|((rel, _), stamp)| (rel, stamp)).collect()))
}

#[cfg(not(unix))]
pub fn stamps(_: &Path, _: bool, _: &[PathBuf]) -> HostResult<Option<Stamps>> {
    Ok(None)
}

/// Whether every path `recorded` stamps below `root` still has that stamp
/// (and a root recorded as missing is still missing): then a walk of
/// `root` with the same skips would give the same stamps, since a folder
/// whose entries changed has a new stamp itself.
#[cfg(unix)]
pub fn unchanged(root: &Path, recorded: &Stamps) -> bool {
    if recorded.is_empty() {
        return !root.exists();
    }
    match parallel_map(recorded, |(rel, _)| std::fs::metadata(root.join(rel)).map(|meta| fields(&meta))) {
        Ok(now) => now.iter().zip(recorded).all(|(now, (_, stamp))| now == stamp),
        Err(_) => false,
    }
}

#[cfg(not(unix))]
pub fn unchanged(_: &Path, _: &Stamps) -> bool {
    false
}

#[cfg(unix)]
fn fields(meta: &std::fs::Metadata) -> [i64; 8] {
    use std::os::unix::fs::MetadataExt;
    // Every field fits an i64 on Linux and macOS; a wrap would only make
    // two stamps differ, never two different files equal.
    #[allow(clippy::cast_possible_wrap)]
    [
        meta.dev() as i64,
        meta.ino() as i64,
        meta.size() as i64,
        i64::from(meta.mode()),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
    ]
}

/// Whether every stamp's last change (modification and status change) lies
/// before `nanos` nanoseconds since the epoch: a file changed within the
/// timestamp tick of a look may change again with the same stamp (git's
/// "racy" files), so only settled stamps may stand for the bytes.
pub fn settled_before(stamps: &Stamps, nanos: i128) -> bool {
    let at = |seconds: i64, nanos: i64| i128::from(seconds) * 1_000_000_000 + i128::from(nanos);
    stamps.iter().all(|(_, f)| at(f[4], f[5]) < nanos && at(f[6], f[7]) < nanos)
}
