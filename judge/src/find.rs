//! Finding a client on this machine: named on the command line, named by the
//! suite's `PLUGFORGE_<ID>_BIN`, installed by plugforge into its cache at the
//! pinned version, or on PATH under the names it installs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use plugforge_core::Client;

/// Where a client was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// `--client ID=PATH`.
    Named(PathBuf),
    /// `PLUGFORGE_<ID>_BIN`.
    Variable(PathBuf),
    /// plugforge's cache (`verify --install`).
    Cache(PathBuf),
    /// A folder of PATH.
    Path(PathBuf),
}

impl Found {
    pub fn path(&self) -> &Path {
        match self {
            Found::Named(p) | Found::Variable(p) | Found::Cache(p) | Found::Path(p) => p,
        }
    }
}

/// The suite's variable naming a client's binary: `PLUGFORGE_SKILLS_REF_BIN`.
pub fn variable(client: &Client) -> String {
    format!("PLUGFORGE_{}_BIN", client.id.to_ascii_uppercase().replace('-', "_"))
}

/// plugforge's cache folder: `PLUGFORGE_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/plugforge`, else `~/.cache/plugforge`.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PLUGFORGE_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("plugforge"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|home| PathBuf::from(home).join(".cache/plugforge"))
}

/// Where plugforge installs a client: `<cache>/clients/<id>` (a venv,
/// `<id>-venv`, for a PyPI package), as `scripts/install-clients` does.
pub fn install_prefix(cache: &Path, client: &Client) -> PathBuf {
    let clients = cache.join("clients");
    if client.package.starts_with("pypi:") {
        clients.join(format!("{}-venv", client.id))
    } else {
        clients.join(client.id)
    }
}

/// The first file matching `pattern` below `prefix` (`*` stands for one folder name).
pub fn glob(prefix: &Path, pattern: &str) -> Option<PathBuf> {
    let mut candidates = vec![prefix.to_path_buf()];
    for part in pattern.split('/') {
        let mut next = Vec::new();
        for dir in candidates {
            if part == "*" {
                let Ok(entries) = std::fs::read_dir(&dir) else { continue };
                let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
                names.sort();
                next.extend(names);
            } else {
                next.push(dir.join(part));
            }
        }
        candidates = next;
    }
    candidates.into_iter().find(|p| executable(p))
}

fn executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// `name` on PATH.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|candidate| executable(candidate))
}

/// Finds `client`: `named` (from `--client`) first, then its variable, the
/// cache, PATH. A path found on PATH is resolved (a link to a venv's script
/// or a package's binary is followed, so its siblings are found).
pub fn find(client: &Client, named: &BTreeMap<String, PathBuf>) -> Option<Found> {
    if let Some(path) = named.get(client.id) {
        return Some(Found::Named(path.clone()));
    }
    if let Some(path) = std::env::var_os(variable(client)).filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        if executable(&path) {
            return Some(Found::Variable(path));
        }
    }
    if let Some(path) = cache_dir().and_then(|cache| glob(&install_prefix(&cache, client), client.binary)) {
        return Some(Found::Cache(path));
    }
    client
        .commands
        .iter()
        .find_map(|name| on_path(name))
        .map(|path| Found::Path(path.canonicalize().unwrap_or(path)))
}
