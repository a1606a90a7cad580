//! The canonical source: a file map handed over by the host, its config,
//! documents and templates; `model::load` reads it into the
//! [`Plugin`](crate::model::Plugin) model.

mod claude_manifest;
mod config;
mod frontmatter;
mod json_positions;
mod json_text;
mod render;
mod summary;
mod yaml_read;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

pub(crate) use claude_manifest::{ComponentPaths, METADATA_KEYS, read_claude_manifest};
pub use config::{
    Author, BindingRequirement, Config, Conflict, CredentialAllowance, CredentialPolicy, MarketplaceConfig,
    PluginRequirement, Requires, ServiceRequirement, TargetConfig, UrlPolicy, VariableDoc, is_kebab,
    is_namespace, namespace_problem,
};
pub use frontmatter::{Document, parse_document};
pub(crate) use frontmatter::{frontmatter_key_line, yaml_key_lines, yaml_value};
pub use json_positions::JsonPositions;
pub use json_text::{line_of_key, parse_json};
pub(crate) use render::{TemplateContext, environment, has_templates, render_config_file, render_tree};
pub(crate) use summary::summary;

use crate::error::{Error, ErrorCode, Location, Result};
use crate::limits;
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
    /// All files' bytes together, against [`limits::MAX_SOURCE_BYTES`].
    bytes: u64,
    /// The first file that broke a limit. Every entry point refuses such a
    /// tree, so a host that stopped reading there still gets a `limit` error.
    over_limit: Option<Error>,
    /// Key positions of the JSON files asked about, each found once.
    json_positions: PositionCache,
}

/// Derived from the files' bytes, so a clone starts empty and finds them
/// again; a file replaced by `insert` drops its entry.
#[derive(Default)]
struct PositionCache(Mutex<BTreeMap<BundlePath, Arc<JsonPositions>>>);

impl Clone for PositionCache {
    fn clone(&self) -> Self {
        PositionCache::default()
    }
}

impl std::fmt::Debug for PositionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PositionCache")
    }
}

impl SourceTree {
    pub fn new() -> Self {
        SourceTree::default()
    }

    /// Adds a file; the path must be a clean relative path, and the tree
    /// stays within the source limits (`limit` error otherwise).
    pub fn insert(&mut self, path: &str, bytes: impl Into<Arc<[u8]>>, executable: bool) -> Result<()> {
        let path = BundlePath::new(path)?;
        let bytes = bytes.into();
        let replaced = self.files.get(&path).map(|f| f.bytes.len() as u64);
        let len = bytes.len() as u64;
        let growth = len.saturating_sub(replaced.unwrap_or(0));
        if let Some(why) = self.over(len, growth, replaced.is_none()) {
            let error = Error::at(ErrorCode::Limit, Location::file(path.as_str()), why);
            self.refuse(error.clone());
            return Err(error);
        }
        self.bytes = self.bytes - replaced.unwrap_or(0) + len;
        let positions = self.json_positions.0.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner());
        positions.remove(&path);
        self.files.insert(path, SourceFile { bytes, executable });
        Ok(())
    }

    /// Why one more file of `len` bytes would break a limit, if it would: a
    /// host asks before it reads the file at all.
    pub fn admits(&self, len: u64) -> Option<String> {
        self.over(len, len, true)
    }

    /// The first of `sizes` (new files about to be added, in order) that
    /// would break a limit, and why: a host that reads files in parallel
    /// asks before it reads any of them.
    pub fn first_over_limit(&self, sizes: &[u64]) -> Option<(usize, String)> {
        let (mut files, mut bytes) = (self.files.len(), self.bytes);
        for (index, &len) in sizes.iter().enumerate() {
            if let Some(why) = over_limits(files, bytes, len, len, true) {
                return Some((index, why));
            }
            files += 1;
            bytes = bytes.saturating_add(len);
        }
        None
    }

    fn over(&self, len: u64, growth: u64, new_file: bool) -> Option<String> {
        over_limits(self.files.len(), self.bytes, len, growth, new_file)
    }

    /// Records that `path` was left out for breaking a limit (`why`, from
    /// [`SourceTree::admits`]) without being read; the tree is refused
    /// from then on.
    pub fn refuse_over_limit(&mut self, path: &str, why: String) {
        self.refuse(Error::at(ErrorCode::Limit, Location::file(path), why));
    }

    fn refuse(&mut self, error: Error) {
        self.over_limit.get_or_insert(error);
    }

    /// The `limit` error of a tree a file of which broke a limit.
    pub fn check_limits(&self) -> Result<()> {
        match &self.over_limit {
            Some(error) => Err(error.clone()),
            None => Ok(()),
        }
    }

    pub fn get(&self, path: &str) -> Option<&SourceFile> {
        BundlePath::new(path).ok().and_then(|p| self.files.get(&p))
    }

    /// Where each key of JSON file `path` sits; `None` when there is no such
    /// file or it is not UTF-8.
    pub fn json_positions(&self, path: &str) -> Option<Arc<JsonPositions>> {
        let path = BundlePath::new(path).ok()?;
        let text = std::str::from_utf8(&self.files.get(&path)?.bytes).ok()?;
        // A poisoned lock only means another lookup panicked; the map holds
        // finished entries alone, so it is still sound to use.
        let mut cache = self.json_positions.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        Some(cache.entry(path).or_insert_with(|| Arc::new(JsonPositions::of(text))).clone())
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

/// Why a tree of `files` files and `bytes` bytes would break a limit by
/// taking a file of `len` bytes that grows it by `growth`.
fn over_limits(files: usize, bytes: u64, len: u64, growth: u64, new_file: bool) -> Option<String> {
    if new_file && files >= limits::MAX_SOURCE_FILES {
        return Some(format!("the source holds more than {} files", limits::MAX_SOURCE_FILES));
    }
    if len > limits::MAX_FILE_BYTES {
        let most = limits::MAX_FILE_BYTES >> 20;
        return Some(format!("{len} bytes, over the {most} MiB one source file may hold"));
    }
    if bytes.saturating_add(growth) > limits::MAX_SOURCE_BYTES {
        let most = limits::MAX_SOURCE_BYTES >> 20;
        return Some(format!("the source's files hold more than {most} MiB together"));
    }
    None
}
