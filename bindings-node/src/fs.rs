//! The filesystem side of `lib/host.js`, in Rust: the very reader, writer and clock the
//! `plugforge` binary uses (plugforge-host-fs), so every host
//! confines reads to the source root, refuses symlinked output folders and
//! sweeps the temp files of an interrupted run the same way.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use napi::bindgen_prelude::{Buffer, Function, JsObjectValue, Uint8Array, Unknown};
use napi::{Env, JsValue, Result, Status};
use napi_derive::napi;
use plugforge_host_fs::{self as host_fs, Expect, FileWrite, HostError, Step, Writer};

use crate::convert::{self, SourceFile, TreeFile};

/// What `hostObserve` found below an output root.
#[napi(object, object_from_js = false)]
pub struct HostObserved {
    pub hashes: BTreeMap<String, String>,
    pub contents: BTreeMap<String, Buffer>,
}

/// The part of a plan action `hostApply` reads.
#[napi(object, object_to_js = false)]
pub struct HostAction {
    pub path: String,
    #[napi(ts_type = "Op")]
    pub op: String,
    pub bytes: Option<Uint8Array>,
    pub executable: Option<bool>,
    /// The sha256 the plan saw at `path` (absent: nothing was there).
    pub found: Option<String>,
}

thread_local! {
    /// The writers of the output roots this thread holds the lock of
    /// (`hostLocked`), so `hostApply` below one writes under that lock
    /// instead of waiting for it.
    static HELD: std::cell::RefCell<Vec<(PathBuf, Writer)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `withLock` of lib/host.js: takes the output root's lock (waiting for
/// another run that holds it, saying so on stderr, as the binary does),
/// finishes what an interrupted run's journal names, runs `run` (observe,
/// plan, apply) and lets go: no other run plans over or writes the root
/// between what this one observes and what it writes.
#[napi]
pub fn host_locked<'env>(
    env: &'env Env,
    root: String,
    run: Function<'env, (), Unknown<'env>>,
) -> Result<Unknown<'env>> {
    let mut writer = Writer::new();
    writer
        .lock(Path::new(&root), &mut |message| eprintln!("plugforge: {message}"))
        .map_err(|e| to_js(env, e))?;
    HELD.with(|held| held.borrow_mut().push((PathBuf::from(&root), writer)));
    let result = run.call(());
    HELD.with(|held| {
        let mut held = held.borrow_mut();
        if let Some(at) = held.iter().rposition(|(locked, _)| locked == Path::new(&root)) {
            held.remove(at);
        }
    });
    result
}

/// A thrown `Error` with `code` `io` or `invalid_path`.
fn to_js(env: &Env, error: HostError) -> napi::Error {
    let thrown = env.create_error(napi::Error::from_reason(error.message())).and_then(|mut js| {
        js.set_named_property("code", error.code())?;
        Ok(napi::Error::from(js.to_unknown()))
    });
    thrown.unwrap_or_else(|failed| failed)
}

/// Makes `dir` (Node's `process.cwd()`) the folder relative paths start
/// from; lib/index.js and lib/host.js call it before each run or read. A
/// native addon shares the Node process's working folder, so there it does
/// nothing; the WebAssembly (WASI) module keeps one of its own, which starts at `/`.
#[napi]
pub fn host_set_cwd(dir: String) -> Result<()> {
    #[cfg(target_os = "wasi")]
    std::env::set_current_dir(&dir)
        .map_err(|e| napi::Error::from_reason(format!("cannot make {dir} the working folder: {e}")))?;
    #[cfg(not(target_os = "wasi"))]
    let _ = dir;
    Ok(())
}

/// `readTree` of lib/host.js: every file below `dir`, never leaving it.
#[napi]
pub fn host_read_tree(env: &Env, dir: String, exclude: Vec<String>) -> Result<Vec<TreeFile>> {
    let exclude: Vec<PathBuf> = exclude.into_iter().map(PathBuf::from).collect();
    let tree = host_fs::read_tree(Path::new(&dir), &exclude).map_err(|e| to_js(env, e))?;
    Ok(convert::tree_files(&tree))
}

/// `observe` of lib/host.js: sha256 of every file below `root`, bytes of `pathsToRead`.
#[napi]
pub fn host_observe(env: &Env, root: String, paths_to_read: Vec<String>) -> Result<HostObserved> {
    let to_read: Vec<&str> = paths_to_read.iter().map(String::as_str).collect();
    let observed = host_fs::observe(Path::new(&root), &to_read).map_err(|e| to_js(env, e))?;
    let contents = observed.contents.into_iter().map(|(path, bytes)| (path, bytes.to_vec().into()));
    let hashes = observed
        .hashes
        .into_iter()
        .map(|(path, sha)| (path, sha.map(|sha| sha.to_string()).unwrap_or_default()));
    Ok(HostObserved { hashes: hashes.collect(), contents: contents.collect() })
}

/// `applyPlan` of lib/host.js once the plan is known not to be refused:
/// `manifests` is the plan's count of manifests at the end of `actions`.
/// Without one (a plan not made by `plan`), each action lands, flushed, before
/// the next starts: slower, and as safe.
#[napi]
pub fn host_apply(env: &Env, root: String, actions: Vec<HostAction>, manifests: Option<u32>) -> Result<()> {
    // A plan's actions carry what it saw: each file is replaced or removed
    // only if it still holds that (an edit made meanwhile is left alone and
    // named). Actions from no plan take whatever is there.
    let planned = manifests.is_some();
    let expects = actions
        .iter()
        .map(|action| {
            Expect::of_action(&action.path, action.found.as_deref(), planned)
                .map_err(|message| napi::Error::new(Status::InvalidArg, message))
        })
        .collect::<Result<Vec<_>>>()?;
    let steps =
        actions.iter().zip(expects).map(|(action, expect)| match (action.op.as_str(), &action.bytes) {
            ("create" | "update", Some(bytes)) => {
                let executable = action.executable.unwrap_or(false);
                Step::Write(FileWrite { path: &action.path, bytes, executable, expect })
            }
            ("remove", _) => Step::Remove { path: &action.path, expect },
            _ => Step::Keep { path: &action.path },
        });
    let steps = match manifests {
        Some(manifests) => host_fs::manifests_last(steps.collect(), manifests as usize),
        None => steps.flat_map(|step| [step, Step::Barrier]).collect(),
    };
    let root = Path::new(&root);
    let applied = HELD.with(|held| {
        let mut held = held.borrow_mut();
        match held.iter_mut().rev().find(|(locked, _)| locked == root) {
            Some((_, writer)) => writer.apply(root, &steps),
            None => Writer::new().apply(root, &steps),
        }
    });
    applied.map_err(|e| to_js(env, e))
}

/// `createFiles` of lib/host.js: new files below `dir` (a starter source).
#[napi]
pub fn host_create_files(env: &Env, dir: String, files: Vec<SourceFile>) -> Result<()> {
    let tree = convert::tree(files).map_err(|e| crate::error::to_js(env, e))?;
    Writer::new().create_files(Path::new(&dir), &tree).map_err(|e| to_js(env, e))
}

/// `generatedAt` of lib/host.js: the clock the `plugforge` binary stamps new
/// manifests with (`SOURCE_DATE_EPOCH` when set, else now; RFC 3339 UTC).
#[napi]
pub fn host_generated_at() -> String {
    host_fs::generated_at()
}
