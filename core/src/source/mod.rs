//! The canonical source: a file map handed over by the host, rendered and
//! parsed into the [`Plugin`](crate::model::Plugin) model.

mod claude_manifest;
mod config;
mod frontmatter;
mod json_text;
mod load;
mod render;
mod summary;

use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) use claude_manifest::METADATA_KEYS;
pub use config::{
    Author, BindingRequirement, Config, Conflict, CredentialAllowance, MarketplaceConfig, PluginRequirement,
    Requires, ServiceRequirement, TargetConfig, VariableDoc,
};
pub(crate) use frontmatter::yaml_value;
pub use frontmatter::{Document, parse_document};
pub use json_text::{line_of_key, parse_json};
pub use load::{HOOK_EVENTS, LoadOptions, is_kebab, load_plugin, read_config};
pub(crate) use render::{environment, has_templates};
pub(crate) use summary::summary;

use crate::error::Result;
use crate::path::BundlePath;

/// One file of the source as the host read it. Bytes are shared, so a file
/// copied unchanged into many bundles is never duplicated in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub bytes: Arc<[u8]>,
    pub executable: bool,
}

/// The plugin source: relative path -> file, sorted.
#[derive(Debug, Clone, Default)]
pub struct SourceTree {
    files: BTreeMap<BundlePath, SourceFile>,
}

impl SourceTree {
    pub fn new() -> Self {
        SourceTree::default()
    }

    /// Adds a file; the path must be a clean relative path.
    pub fn insert(&mut self, path: &str, bytes: impl Into<Arc<[u8]>>, executable: bool) -> Result<()> {
        let path = BundlePath::new(path)?;
        self.files.insert(path, SourceFile { bytes: bytes.into(), executable });
        Ok(())
    }

    pub fn get(&self, path: &str) -> Option<&SourceFile> {
        BundlePath::new(path).ok().and_then(|p| self.files.get(&p))
    }

    pub fn iter(&self) -> impl Iterator<Item = (&BundlePath, &SourceFile)> {
        self.files.iter()
    }

    /// Files below folder `dir` ("" = all), in path order, without a scan
    /// of the whole tree.
    pub fn below<'a>(
        &'a self,
        dir: &str,
    ) -> impl Iterator<Item = (&'a BundlePath, &'a SourceFile)> + use<'a> {
        let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
        self.files
            .range(BundlePath::range_bound(&prefix)..)
            .take_while(move |(path, _)| path.as_str().starts_with(&prefix))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// A source file after template rendering, remembering where it came from.
#[derive(Debug, Clone)]
pub struct RenderedFile {
    pub bytes: Arc<[u8]>,
    pub executable: bool,
    /// The source path it was rendered or copied from (with `.j2` if templated).
    pub origin: BundlePath,
}

impl RenderedFile {
    pub fn text(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes).ok()
    }
}

/// Rendered source files by their output path (the `.j2` suffix dropped).
pub type RenderedTree = BTreeMap<BundlePath, RenderedFile>;
