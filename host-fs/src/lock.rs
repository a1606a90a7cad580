//! One run at a time per output root: a build or uninstall holds an
//! exclusive advisory lock from before it observes the root until its last
//! write, so a second run (another terminal, the Node or Python package,
//! CI) waits instead of planning over files the first is replacing or
//! sweeping the first's temp files.
//!
//! The lock is the operating system's (`flock` on Unix, `LockFileEx` on
//! Windows, through `fs4`): it goes with the process that holds it, so a
//! run killed with `kill -9` never leaves a stale lock behind. On Unix the
//! output folder itself is locked, so no file appears in it (a project
//! folder stays as the user keeps it, and a rerun that writes nothing
//! leaves every stamp alone); where a folder cannot be locked (Windows,
//! filesystems that refuse it) a `.plugforge.lock` file in the root is,
//! and removed when the run ends. WASI has no locks at all: there a run
//! goes unlocked.

use std::fs;
use std::path::{Path, PathBuf};

use crate::{HostError, HostResult};

/// The lock file where the output folder itself cannot be locked.
pub const LOCK_FILE: &str = ".plugforge.lock";

/// An exclusive lock on an output root, released when dropped (or when the
/// process ends, however it ends).
#[derive(Debug)]
pub struct RootLock {
    root: PathBuf,
    /// The open folder or lock file the lock is held on.
    #[cfg_attr(target_os = "wasi", allow(dead_code))]
    held: Option<fs::File>,
    /// The lock file to remove on release (none when the folder is locked).
    file: Option<PathBuf>,
    /// The root did not exist and was made to be locked: removed again on
    /// release if nothing was written into it.
    made_root: bool,
}

impl RootLock {
    /// The folder locked.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// What is locked, as a message names it: the lock file, or the folder.
    pub fn what(&self) -> String {
        match &self.file {
            Some(file) => file.display().to_string(),
            None => format!("{}/ (the folder itself)", self.root.display()),
        }
    }
}

impl Drop for RootLock {
    fn drop(&mut self) {
        // The lock file goes while the lock is still held: a run waiting on
        // it then finds the name gone and starts over on a new file.
        if let Some(file) = &self.file {
            let _ = fs::remove_file(file);
        }
        if self.made_root {
            // Fails, as it should, when anything was written into it.
            let _ = fs::remove_dir(&self.root);
        }
        drop(self.held.take());
    }
}

/// Takes the lock on `root` (made if missing), waiting for the run that
/// holds it: `waiting` gets a message naming the lock once, before the wait.
pub fn lock_root(root: &Path, waiting: &mut dyn FnMut(&str)) -> HostResult<RootLock> {
    let mut told = false;
    let mut made_root = false;
    loop {
        // Again on every try: the run waited for may have removed the root
        // it made and left empty.
        made_root |= make_root(root)?;
        let lock = take(root, made_root, &mut |what| {
            if !told {
                told = true;
                waiting(&format!(
                    "waiting: another plugforge run is writing below {} and holds {what}; this run goes on \
                     when that one ends (a killed run's lock goes with it)",
                    root.display()
                ));
            }
        })?;
        if let Some(lock) = lock {
            return Ok(lock);
        }
    }
}

/// Makes `root` when it is missing; whether it was.
fn make_root(root: &Path) -> HostResult<bool> {
    match fs::metadata(root) {
        Ok(_) => Ok(false),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::create_dir_all(root).map_err(|e| HostError::at(root, e))?;
            Ok(true)
        }
        Err(e) => Err(HostError::at(root, e)),
    }
}

/// One try: the lock, or `None` when what was locked is no longer what the
/// path names (the holder removed it on release), so the caller tries again.
#[cfg(not(target_os = "wasi"))]
fn take(root: &Path, made_root: bool, busy: &mut dyn FnMut(&str)) -> HostResult<Option<RootLock>> {
    let (held, file) = match open_folder(root) {
        Some(folder) => (folder, None),
        None => {
            let path = root.join(LOCK_FILE);
            let file = fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| HostError::at(&path, e))?;
            (file, Some(path))
        }
    };
    let named = file.as_ref().map_or_else(|| root.to_path_buf(), Clone::clone);
    match fs4::FileExt::try_lock(&held) {
        Ok(()) => {}
        Err(fs4::TryLockError::WouldBlock) => {
            let what = match &file {
                Some(path) => format!("the lock file {}", path.display()),
                None => format!("a lock on the folder {}/ itself", root.display()),
            };
            busy(&what);
            fs4::FileExt::lock(&held).map_err(|e| HostError::at(&named, format!("cannot lock: {e}")))?;
        }
        Err(fs4::TryLockError::Error(e)) => {
            return Err(HostError::at(&named, format!("cannot lock: {e}")));
        }
    }
    if !same_file(&held, &named) {
        return Ok(None);
    }
    Ok(Some(RootLock { root: root.to_path_buf(), held: Some(held), file, made_root }))
}

/// WASI has no advisory locks: the run goes unlocked.
#[cfg(target_os = "wasi")]
fn take(root: &Path, made_root: bool, _: &mut dyn FnMut(&str)) -> HostResult<Option<RootLock>> {
    Ok(Some(RootLock { root: root.to_path_buf(), held: None, file: None, made_root }))
}

/// The output folder opened to be locked, where a folder can be: Unix
/// locks a folder like a file, Windows opens none as a file.
#[cfg(unix)]
fn open_folder(root: &Path) -> Option<fs::File> {
    let folder = fs::File::open(root).ok()?;
    // A filesystem that cannot lock a folder (some network filesystems)
    // says so here, not on the real try: the lock file serves instead.
    match fs4::FileExt::try_lock_shared(&folder) {
        Ok(()) => {
            let _ = fs4::FileExt::unlock(&folder);
            Some(folder)
        }
        Err(fs4::TryLockError::WouldBlock) => Some(folder),
        Err(fs4::TryLockError::Error(_)) => None,
    }
}

#[cfg(all(not(unix), not(target_os = "wasi")))]
fn open_folder(_: &Path) -> Option<fs::File> {
    None
}

/// Whether the locked handle is still what `path` names: a holder removes
/// its lock file (or the root it made and left empty) before it lets go,
/// and a waiter that then wins the lock on the old one must start over.
#[cfg(unix)]
fn same_file(held: &fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (held.metadata(), fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(all(not(unix), not(target_os = "wasi")))]
fn same_file(_: &fs::File, path: &Path) -> bool {
    path.exists()
}
