//! Stamps: what a file's metadata says of its identity and last change,
//! for the command line's rerun record (a stamp stands for the bytes only
//! when it is settled: see [`settled_before`]).

use std::path::{Path, PathBuf};

use super::HostResult;
#[cfg(unix)]
use super::{HostError, parallel_map, skipped_in_source, walk};

/// A file's identity and last change as its metadata gives them (device,
/// inode, size, mode, modification and status-change times to the
/// nanosecond), by path below the root; `None` where the platform gives no
/// inode numbers (the rerun shortcut is then off).
pub type Stamps = Vec<(String, [i64; 8])>;

/// The stamps of every file below `root`, walked as [`read_tree`] walks a
/// source (`source: true`: VCS, dependency and `exclude` folders skipped) or
/// as [`observe`] walks an output root (everything, temp files included, so
/// a leftover is a change). Symbolic links are stamped by what they lead to.
/// A missing root has no stamps.
#[cfg(unix)]
pub fn stamps(root: &Path, source: bool, exclude: &[PathBuf]) -> HostResult<Option<Stamps>> {
    use std::os::unix::fs::MetadataExt;
    if !source && !root.exists() {
        return Ok(Some(Vec::new()));
    }
    let entries =
        if source { walk(root, &skipped_in_source(root, exclude))? } else { walk(root, &|_: &Path| false)? };
    let stamped = parallel_map(&entries, |entry| std::fs::metadata(&entry.path))
        .map_err(|(at, e)| HostError::at(&entries[at].path, e))?;
    let stamps = entries
        .into_iter()
        .zip(stamped)
        .map(|(entry, m)| {
            // Every field fits an i64 on Linux and macOS; a wrap would only
            // make two stamps differ, never two different files equal.
            #[allow(clippy::cast_possible_wrap)]
            let fields = [
                m.dev() as i64,
                m.ino() as i64,
                m.size() as i64,
                i64::from(m.mode()),
                m.mtime(),
                m.mtime_nsec(),
                m.ctime(),
                m.ctime_nsec(),
            ];
            (entry.rel, fields)
        })
        .collect();
    Ok(Some(stamps))
}

#[cfg(not(unix))]
pub fn stamps(_: &Path, _: bool, _: &[PathBuf]) -> HostResult<Option<Stamps>> {
    Ok(None)
}

/// Whether every stamp's last change (modification and status change) lies
/// before `nanos` nanoseconds since the epoch: a file changed within the
/// timestamp tick of a look may change again with the same stamp (git's
/// "racy" files), so only settled stamps may stand for the bytes.
pub fn settled_before(stamps: &Stamps, nanos: i128) -> bool {
    let at = |seconds: i64, nanos: i64| i128::from(seconds) * 1_000_000_000 + i128::from(nanos);
    stamps.iter().all(|(_, f)| at(f[4], f[5]) < nanos && at(f[6], f[7]) < nanos)
}
