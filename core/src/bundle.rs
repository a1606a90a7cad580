//! What a build produces: per-runtime bundles as sorted in-memory file maps,
//! plus the marketplace entries they contribute.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode, Result};
use crate::hash::Sha256Digest;
use crate::merge::Merge;
use crate::path::BundlePath;
use crate::registry::{ArtifactKind, Runtime};
use crate::report::{Diagnostic, Honesty};
use crate::source::{Conflict, Requires};

/// One generated file. `template` names where its bytes came from: a source
/// path, or `plugforge:<runtime>/<name>` for the project's own templates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeneratedFile {
    #[serde(skip)]
    pub bytes: Arc<[u8]>,
    pub sha256: Sha256Digest,
    pub executable: bool,
    pub template: String,
}

impl GeneratedFile {
    pub fn new(bytes: impl Into<Arc<[u8]>>, executable: bool, template: impl Into<String>) -> Self {
        let bytes = bytes.into();
        GeneratedFile { sha256: Sha256Digest::of(&bytes), bytes, executable, template: template.into() }
    }
}

/// Generated files' bytes by sha256, across the bundles of one build: a
/// file several runtimes generate alike (a skill folded the same way, the
/// same README) is held once, not once per bundle.
#[derive(Default)]
pub(crate) struct SharedBytes(Mutex<BTreeMap<Sha256Digest, Arc<[u8]>>>);

impl SharedBytes {
    /// Points each file `bundle` generated at bytes another bundle holds
    /// alike, if one does. A copied file already shares the source's bytes.
    pub(crate) fn share(&self, bundle: &mut Bundle) {
        // A poisoned lock only means another target panicked; entries are
        // inserted whole, so the map is still sound.
        let mut shared = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        for file in bundle.files.values_mut().filter(|file| Arc::strong_count(&file.bytes) == 1) {
            match shared.entry(file.sha256) {
                Entry::Occupied(held) => file.bytes = held.get().clone(),
                Entry::Vacant(slot) => {
                    slot.insert(file.bytes.clone());
                }
            }
        }
    }
}

/// The program that generated a bundle; a runner such as Striatum passes its
/// own name and version so its doctor can compare them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Generator {
    pub name: String,
    pub version: String,
}

impl Default for Generator {
    fn default() -> Self {
        Generator { name: "plugforge".into(), version: env!("CARGO_PKG_VERSION").into() }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    #[default]
    Project,
    User,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
        }
    }
}

/// One runtime's bundle. Files are relative to `root` below the output
/// directory; an empty root means the files go straight into it (project
/// and workspace kinds).
#[derive(Debug, Clone, Serialize)]
pub struct Bundle {
    pub runtime: Runtime,
    pub kind: ArtifactKind,
    pub root: String,
    /// The generation manifest's path below the output directory.
    pub manifest: BundlePath,
    pub namespace: String,
    pub plugin_name: String,
    pub plugin_version: Option<String>,
    /// The source's `requires`, carried into the generation manifest so a
    /// marketplace of built bundles can be judged across plugins.
    #[serde(skip_serializing_if = "Requires::is_empty")]
    pub requires: Requires,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Conflict>,
    pub files: BTreeMap<BundlePath, GeneratedFile>,
    /// Parts of shared files (marketplaces, `.mcp.json`, context files).
    pub merges: Vec<Merge>,
    pub honesty: Vec<Honesty>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Bundle {
    /// Rebuilds the file map with full nodes. A map filled one file at a
    /// time, in path order, splits its nodes half full and holds nearly
    /// twice its entries' size; the bundle is held, unchanged, until its
    /// files are written (a 400-skill build: 1.5 MiB less).
    pub(crate) fn compact(&mut self) {
        self.files = std::mem::take(&mut self.files).into_iter().collect();
    }

    /// Adds a file, refusing a second file at the same path.
    pub fn add(&mut self, path: BundlePath, file: GeneratedFile) -> Result<()> {
        if let Some(previous) = self.files.get(&path) {
            return Err(Error::new(
                ErrorCode::InvalidSource,
                format!("{path} would be written twice (from {} and {})", previous.template, file.template),
            ));
        }
        self.files.insert(path, file);
        Ok(())
    }

    /// A bundle file's path below the output directory.
    pub fn out_path(&self, rel: &BundlePath) -> BundlePath {
        rel.under(&self.root)
    }
}

/// A URL the author wrote that the built bundles carry, with the source
/// files it is written in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct CarriedUrl {
    pub url: String,
    pub files: Vec<String>,
}

/// Everything one build produced.
#[derive(Debug, Clone, Serialize)]
pub struct Output {
    pub generator: Generator,
    pub scope: Scope,
    pub manifest_name: String,
    pub bundles: Vec<Bundle>,
    /// Shared files each bundle's kind may hold parts of, read before planning.
    pub shared: Vec<BundlePath>,
    /// Where the manifests of other bundles written into the same project
    /// folder are, as `<folder>/*<manifest name>` patterns (a host reads
    /// every file of the folder whose name ends so): a file or part one of
    /// them also records is never taken from it. Empty unless a bundle is
    /// written into the project folder itself.
    pub neighbours: Vec<BundlePath>,
    pub diagnostics: Vec<Diagnostic>,
    /// URLs the author wrote that the bundles carry (the `carry` policy).
    pub urls: Vec<CarriedUrl>,
    /// Requested runtimes that could not be built; nothing is generated for them.
    pub failures: Vec<TargetFailure>,
    /// Several plugins built into one root ([`crate::build_members`]): a
    /// bundle found there that no member owns any more is retired.
    pub members: bool,
    /// Manifests of bundles to retire (a member removed since the last
    /// build): their tracked, unedited files and shared parts are removed.
    /// Set by the host from [`Output::retired_manifests`].
    pub retired: Vec<BundlePath>,
}

/// A requested runtime that could not be built, and every reason why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct TargetFailure {
    pub runtime: Runtime,
    pub kind: ArtifactKind,
    #[cfg_attr(feature = "typescript", ts(inline))]
    pub error: Error,
    /// Listed, not a failure of the build: `all` asked for the runtime and
    /// its bundle would load nothing (`nothing_to_load`). A runtime named
    /// on its own that builds nothing is a failure like any other.
    pub skipped: bool,
}

impl Output {
    /// Whether a requested runtime failed the build: one that could not be
    /// built, not one `all` brought in that has nothing to load.
    pub fn failed(&self) -> bool {
        self.failures.iter().any(|failure| !failure.skipped)
    }
}

impl Output {
    /// The paths the bundles write, below the output root: with
    /// [`Output::paths_to_read`] and the files tracked by the manifests it
    /// names by their exact path, all a plan looks at (a host need not hash
    /// any other file).
    pub fn paths_to_hash(&self) -> Vec<BundlePath> {
        self.bundles.iter().flat_map(|b| b.files.keys().map(|rel| b.out_path(rel))).collect()
    }

    /// Files the host must read (not just hash) before planning: the previous
    /// manifests and the shared files parts are merged into.
    pub fn paths_to_read(&self) -> Vec<BundlePath> {
        let mut paths: Vec<BundlePath> = self.bundles.iter().map(|b| b.manifest.clone()).collect();
        paths.extend(self.bundles.iter().flat_map(|b| b.merges.iter().map(|m| m.path.clone())));
        paths.extend(self.shared.iter().cloned());
        paths.extend(self.neighbours.iter().cloned());
        paths.sort();
        paths.dedup();
        paths
    }
}

pub const DEFAULT_MANIFEST_NAME: &str = ".plugforge-manifest.json";

/// A manifest name is one plain file name: it may not climb out of, or
/// reach into, a folder of the bundle.
pub fn check_manifest_name(name: &str) -> Result<()> {
    let refusal = match BundlePath::new(name) {
        Err(e) => Some(e.message()),
        Ok(path) if path.as_str().contains('/') => Some("it must be a file name, not a path".to_string()),
        // A host reads `<folder>/*<name>` as every manifest in a folder.
        Ok(path) if path.as_str().contains('*') => Some("it may not hold a '*'".to_string()),
        Ok(_) => None,
    };
    match refusal {
        None => Ok(()),
        Some(why) => {
            Err(Error::new(ErrorCode::InvalidOptions, format!("manifest name {name:?} refused: {why}")))
        }
    }
}
