//! What the host asks for: targets, scope, namespace, variables, allowlists.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::bundle::{DEFAULT_MANIFEST_NAME, Generator, Scope};

/// One requested runtime, with an optional artifact kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct TargetRequest {
    // A string, not a `Runtime`: `all` asks for every runtime, and an
    // unknown id is refused by the build with `unsupported_runtime`.
    #[cfg_attr(feature = "typescript", ts(type = "RuntimeId | \"all\""))]
    pub runtime: String,
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<crate::registry::ArtifactKind>", optional = nullable))]
    pub kind: Option<String>,
}

impl TargetRequest {
    pub fn new(runtime: impl Into<String>) -> Self {
        TargetRequest { runtime: runtime.into(), kind: None }
    }
}

/// Build options. Every field has a default, so hosts pass only what they set.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct BuildOptions {
    /// Runtimes to build; empty = the enabled `targets` of the config, else claude-code.
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub targets: Vec<TargetRequest>,
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub scope: Scope,
    /// Overrides the plugin's namespace (`/namespace:command`).
    #[cfg_attr(feature = "typescript", ts(optional = nullable))]
    pub namespace: Option<String>,
    /// Template variables (`--var k=v`).
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub vars: BTreeMap<String, String>,
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub generator: Generator,
    /// URL prefixes generated content may contain, on top of the config's.
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub allow_urls: Vec<String>,
    /// Refuse every URL outside the allowlists, whatever the source's
    /// `"urls"` policy says (`--deny-urls`).
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub deny_urls: bool,
    /// The source folder's own name: a Claude Code plugin without a manifest
    /// is named after it, as Claude Code names it.
    #[cfg_attr(feature = "typescript", ts(optional = nullable))]
    pub source_name: Option<String>,
    /// Also produce marketplace entries for runtimes that have marketplaces.
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub marketplace: bool,
    /// File name of the generation manifest in each bundle root.
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub manifest_name: String,
    /// Bundle folder per runtime id below the output root (default: the id).
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub roots: BTreeMap<String, String>,
    /// Folder bundles go to `<runtime id>/<plugin namespace>` (several
    /// plugins in one output root) unless `roots` names their folder.
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub plugin_folders: bool,
    /// The marketplace every bundle is listed in, over the source's own
    /// (one name for all the plugins of a monorepo build).
    #[cfg_attr(feature = "typescript", ts(optional = nullable))]
    pub marketplace_name: Option<String>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            targets: Vec::new(),
            scope: Scope::Project,
            namespace: None,
            vars: BTreeMap::new(),
            generator: Generator::default(),
            allow_urls: Vec::new(),
            deny_urls: false,
            source_name: None,
            marketplace: true,
            manifest_name: DEFAULT_MANIFEST_NAME.into(),
            roots: BTreeMap::new(),
            plugin_folders: false,
            marketplace_name: None,
        }
    }
}
