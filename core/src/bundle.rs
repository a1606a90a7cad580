//! What a build produces: per-runtime bundles as sorted in-memory file maps,
//! plus the marketplace entries they contribute.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, ErrorCode, Result};
use crate::hash::sha256_hex;
use crate::path::BundlePath;
use crate::report::{Diagnostic, Honesty};

/// One generated file. `template` names where its bytes came from: a source
/// path, or `plugforge:<runtime>/<name>` for the project's own templates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeneratedFile {
    #[serde(skip)]
    pub bytes: Arc<[u8]>,
    pub sha256: String,
    pub executable: bool,
    pub template: String,
}

impl GeneratedFile {
    pub fn new(bytes: impl Into<Arc<[u8]>>, executable: bool, template: impl Into<String>) -> Self {
        let bytes = bytes.into();
        GeneratedFile { sha256: sha256_hex(&bytes), bytes, executable, template: template.into() }
    }
}

/// The program that generated a bundle; a runner such as Striatum passes its
/// own name and version so its doctor can compare them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

/// One runtime's bundle, rooted at `root` below the output directory.
#[derive(Debug, Clone, Serialize)]
pub struct Bundle {
    pub runtime: &'static str,
    pub kind: &'static str,
    pub root: BundlePath,
    pub namespace: String,
    pub plugin_name: String,
    pub plugin_version: Option<String>,
    pub files: BTreeMap<BundlePath, GeneratedFile>,
    pub honesty: Vec<Honesty>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Bundle {
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
}

/// A marketplace file a bundle wants its entry in. The file is merged, not
/// owned: other entries and fields already there are kept.
#[derive(Debug, Clone, Serialize)]
pub struct MarketplaceEntry {
    pub runtime: &'static str,
    /// Path of the marketplace file below the output directory.
    pub path: BundlePath,
    /// The document to create when no marketplace file exists yet.
    pub document: Value,
    /// This plugin's entry, matched by `name` in an existing file.
    pub entry: Value,
}

/// Everything one build produced.
#[derive(Debug, Clone, Serialize)]
pub struct Output {
    pub generator: Generator,
    pub scope: Scope,
    pub manifest_name: String,
    pub bundles: Vec<Bundle>,
    pub marketplaces: Vec<MarketplaceEntry>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Output {
    /// Files the host must read (not just hash) before planning: the previous
    /// manifests and the marketplace files to merge into.
    pub fn paths_to_read(&self) -> Vec<BundlePath> {
        let manifests = self.bundles.iter().map(|b| manifest_path(&b.root, &self.manifest_name));
        manifests.chain(self.marketplaces.iter().map(|m| m.path.clone())).collect()
    }
}

pub const DEFAULT_MANIFEST_NAME: &str = ".plugforge-manifest.json";

/// The manifest's path in a bundle root. The name was checked by
/// [`check_manifest_name`] before anything is planned.
pub fn manifest_path(root: &BundlePath, manifest_name: &str) -> BundlePath {
    root.join(&BundlePath::new(manifest_name).expect("manifest names are validated"))
}

/// A manifest name is one plain file name: it may not climb out of, or
/// reach into, a folder of the bundle.
pub fn check_manifest_name(name: &str) -> Result<()> {
    let refusal = match BundlePath::new(name) {
        Err(e) => Some(e.message()),
        Ok(path) if path.as_str().contains('/') => Some("it must be a file name, not a path".to_string()),
        Ok(_) => None,
    };
    match refusal {
        None => Ok(()),
        Some(why) => {
            Err(Error::new(ErrorCode::InvalidOptions, format!("manifest name {name:?} refused: {why}")))
        }
    }
}
