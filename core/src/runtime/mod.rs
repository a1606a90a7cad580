//! Runtime writers: one module per runtime, each a table of artifact kinds
//! and a writer turning the canonical [`Plugin`] into that runtime's native
//! files plus honesty rows. No runtime module knows another, except that
//! OpenClaw's compatible bundle reuses the Claude Code and Codex writers.

mod local_root;
mod skill_fold;
mod spec;
pub mod verdict;
mod writer;

/// The registry's lines (`core/src/registry.rs`), each runtime's folder
/// declared as a module whose `SPEC` is its runtime's [`Spec`]; nothing else
/// in the engine names a runtime.
macro_rules! folders {
    ($($variant:ident => $folder:ident as $id:literal $({ $($rule:ident = $code:literal,)* })?,)*) => {
        $(pub(crate) mod $folder;)*

        impl Runtime {
            /// Everything the engine knows of the runtime.
            pub fn spec(self) -> &'static Spec {
                match self {
                    $(Runtime::$variant => &$folder::SPEC,)*
                }
            }
        }
    };
}

crate::registry::registry!(folders);

pub use crate::registry::{ArtifactKind, Runtime};

use std::collections::BTreeMap;

pub use spec::{
    Agents, Check, Client, CommandDescription, Commands, Foreign, HookEvents, HookShape, HookTrust, Hooks,
    Judge, Keys, Launch, Manifestless, Marketplace, Mcp, McpProblem, Reader, Reads, SchemaCheck,
    SchemaReport, Skills, Spec,
};
pub use writer::{Writer, left_out, marketplace_owner};

use crate::bundle::{Bundle, Scope};
use crate::error::{Error, ErrorCode, Result};
use crate::model::Plugin;
use crate::options::BuildOptions;
use crate::path::BundlePath;
use crate::report::{Component, Level};

/// Where a kind's files go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Its own folder below the output root (plugins, extensions, bundles).
    Folder,
    /// Straight into a project (or, for user scope, home) folder; the
    /// manifest lives in `state_dir`, named after the namespace.
    InPlace { state_dir: &'static str },
}

/// One artifact kind of a runtime.
#[derive(Debug)]
pub struct Kind {
    pub name: ArtifactKind,
    pub layout: Layout,
    /// Scopes this kind can be written for.
    pub scopes: &'static [Scope],
    /// The marketplace file (below the output root) its entries go to.
    pub marketplace: Option<&'static str>,
    /// Shared files it may hold parts of (read by the host before planning).
    pub shared: &'static [&'static str],
}

/// Project and user scope.
pub(crate) const BOTH_SCOPES: &[Scope] = &[Scope::Project, Scope::User];

impl Runtime {
    /// The target of a source that names none.
    pub const DEFAULT: Runtime = Runtime::ClaudeCode;

    /// The runtime whose format the canonical source follows (its hook
    /// events, tool names and plugin layout).
    pub const CANONICAL: Runtime = Runtime::ClaudeCode;
    /// Every runtime's spec, in registry order.
    pub fn specs() -> impl Iterator<Item = &'static Spec> {
        Runtime::ALL.iter().map(|r| r.spec())
    }

    /// Artifact kinds, default first.
    pub fn kinds(self) -> &'static [Kind] {
        self.spec().kinds
    }

    /// URLs the runtime's format itself requires in generated files (a
    /// `$schema` constant), allowed without the user's allowlist.
    pub fn required_urls(self) -> &'static [&'static str] {
        self.spec().required_urls
    }

    /// The runtime's name in messages ("Gemini CLI").
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The requested kind, else the runtime's default for that scope (the
    /// first kind that serves it); an unknown kind or a scope the kind cannot
    /// serve fails before anything is generated.
    pub fn kind(self, requested: Option<&str>, scope: Scope) -> Result<&'static Kind> {
        let kinds = self.kinds();
        let kind = match requested {
            None => kinds.iter().find(|k| k.scopes.contains(&scope)).unwrap_or(&kinds[0]),
            Some(name) => kinds.iter().find(|k| k.name.as_str() == name).ok_or_else(|| {
                let names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
                Error::new(
                    ErrorCode::UnsupportedKind,
                    format!("{} has no artifact kind {name:?}; it supports: {}", self.id(), names.join(", ")),
                )
            })?,
        };
        if !kind.scopes.contains(&scope) {
            return Err(Error::new(
                ErrorCode::UnsupportedKind,
                format!("{} {} cannot be written for {} scope", self.id(), kind.name, scope.as_str()),
            ));
        }
        Ok(kind)
    }

    /// The bundle's root and manifest path below the output root.
    pub fn place(
        self,
        kind: &Kind,
        roots: &BTreeMap<String, String>,
        namespace: &str,
        manifest_name: &str,
        plugin_folders: bool,
    ) -> Result<(String, BundlePath)> {
        match kind.layout {
            Layout::Folder => {
                let folder = match roots.get(self.id()) {
                    Some(root) => root.clone(),
                    None if plugin_folders => format!("{}/{namespace}", self.id()),
                    None => self.id().to_string(),
                };
                let root = BundlePath::new(folder)?;
                let manifest = root.join(&BundlePath::new(manifest_name)?);
                Ok((root.to_string(), manifest))
            }
            Layout::InPlace { state_dir } => {
                let manifest = BundlePath::new(format!("{state_dir}/{namespace}{manifest_name}"))?;
                Ok((String::new(), manifest))
            }
        }
    }
}

/// Every folder a kind written into a project (or home) folder keeps its
/// manifests in, once each: bundles of several plugins, and of several
/// runtimes, meet in one such root and may write the same file or part.
fn in_place_state_dirs() -> Vec<&'static str> {
    let mut dirs: Vec<&'static str> = Runtime::ALL
        .iter()
        .flat_map(|runtime| runtime.kinds())
        .filter_map(|kind| match kind.layout {
            Layout::InPlace { state_dir } => Some(state_dir),
            Layout::Folder => None,
        })
        .collect();
    dirs.sort_unstable();
    dirs.dedup();
    dirs
}

/// What a host reads to see every bundle written into the same project
/// (or home) folder: one pattern per state folder, `<folder>/*<manifest
/// name>`, which a host expands to each file of that folder whose name
/// ends with the manifest name (a manifest name holds no `*`).
pub(crate) fn in_place_manifest_patterns(manifest_name: &str) -> Vec<BundlePath> {
    in_place_state_dirs()
        .into_iter()
        .filter_map(|dir| BundlePath::new(format!("{dir}/*{manifest_name}")).ok())
        .collect()
}

/// Whether `path` is where a kind written into a project folder keeps a
/// bundle's manifest (`<state folder>/<namespace><manifest name>`).
pub(crate) fn is_in_place_manifest(path: &str, manifest_name: &str) -> bool {
    let Some((folder, name)) = path.rsplit_once('/') else { return false };
    name.len() > manifest_name.len()
        && name.ends_with(manifest_name)
        && in_place_state_dirs().contains(&folder)
}

/// A runtime as the hosts list it (`runtimes()` in every binding): what a
/// page or a tool needs to offer it as a target, and the files that mark a
/// folder as its plugin or marketplace.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RuntimeInfo {
    /// The id `--target` takes and reports carry.
    pub id: Runtime,
    /// Its name in messages and documentation.
    pub name: &'static str,
    /// Its artifact kinds, default first.
    pub kinds: Vec<ArtifactKind>,
    /// Whether `--target all` builds it.
    pub in_target_all: bool,
    /// The file that marks a folder as its plugin (`validate` looks for it).
    pub marker: Option<&'static str>,
    /// Its marketplace file (`validate` looks for it too).
    pub marketplace: Option<&'static str>,
}

/// Every runtime, in registry order (the order of `--target all`).
pub fn runtimes() -> Vec<RuntimeInfo> {
    Runtime::ALL
        .iter()
        .map(|&runtime| (runtime, runtime.spec()))
        .map(|(runtime, spec)| RuntimeInfo {
            id: runtime,
            name: spec.name,
            kinds: spec.kinds.iter().map(|k| k.name).collect(),
            in_target_all: spec.in_target_all,
            marker: spec.reads.marker,
            marketplace: spec.marketplace.as_ref().map(|m| m.file),
        })
        .collect()
}

/// Writes one runtime's bundle of one kind.
pub fn write(
    runtime: Runtime,
    kind: &'static Kind,
    plugin: &Plugin,
    options: &BuildOptions,
) -> Result<Bundle> {
    let mut writer = Writer::new(runtime, kind, plugin, options)?;
    (runtime.spec().write)(&mut writer)?;
    unserved_apps(&mut writer);
    Ok(writer.finish())
}

/// An app connector the runtime's writer did not carry gets its row: the
/// runtime has no app connectors. Another runtime could reach the same
/// service only through an MCP server the source itself declares (carried
/// as any other); a connector id names no endpoint, so none is made up.
fn unserved_apps(w: &mut Writer<'_>) {
    for name in w.plugin.app_names() {
        let carried = w.bundle.honesty.iter().any(|row| row.component == Component::App && row.name == name);
        if !carried {
            let id = w.plugin.app_id(&name).unwrap_or("no id given").to_string();
            let detail = format!(
                "{} has no app connectors: this app is a hosted connector ({id}) served by its vendor, \
                 and the source names no MCP endpoint for it",
                w.runtime.spec().name
            );
            w.honest(Component::App, &name, Level::Unsupported, detail);
        }
    }
}

/// `--target RUNTIME[:KIND]` strings -> (runtime, kind name), kind optional.
pub fn split_target(target: &str) -> (&str, Option<&str>) {
    match target.split_once(':') {
        Some((runtime, kind)) => (runtime, Some(kind)),
        None => (target, None),
    }
}
