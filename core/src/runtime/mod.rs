//! Runtime writers: one module per runtime, each a table of artifact kinds
//! and a writer turning the canonical [`Plugin`] into that runtime's native
//! files plus honesty rows. No runtime module knows another, except that
//! OpenClaw's compatible bundle reuses the Claude Code and Codex writers.

pub(crate) mod agent_plugins;
pub(crate) mod antigravity;
pub(crate) mod claude_code;
mod claude_project;
pub(crate) mod codex;
pub(crate) mod copilot;
pub(crate) mod cursor;
pub(crate) mod gemini;
mod generic;
pub(crate) mod hermes;
mod local_root;
pub(crate) mod openclaw;
pub(crate) mod opencode;
mod skill_fold;
mod universal;
mod writer;

use std::collections::BTreeMap;

pub use writer::{Writer, left_out, marketplace_owner};

use crate::bundle::{Bundle, Scope};
use crate::error::{Error, ErrorCode, Result};
use crate::model::Plugin;
use crate::options::BuildOptions;
use crate::path::BundlePath;

/// A runtime the core can write for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Runtime {
    ClaudeCode,
    Codex,
    Gemini,
    Cursor,
    OpenCode,
    AgentPlugins,
    OpenClaw,
    Hermes,
    Copilot,
    Antigravity,
    Generic,
    Universal,
}

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
    pub name: &'static str,
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
    pub const ALL: [Runtime; 12] = [
        Runtime::ClaudeCode,
        Runtime::Codex,
        Runtime::Gemini,
        Runtime::Cursor,
        Runtime::OpenCode,
        Runtime::AgentPlugins,
        Runtime::OpenClaw,
        Runtime::Hermes,
        Runtime::Copilot,
        Runtime::Antigravity,
        Runtime::Generic,
        Runtime::Universal,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Runtime::ClaudeCode => "claude-code",
            Runtime::Codex => "codex",
            Runtime::Gemini => "gemini",
            Runtime::Cursor => "cursor",
            Runtime::OpenCode => "opencode",
            Runtime::AgentPlugins => "agent-plugins",
            Runtime::OpenClaw => "openclaw",
            Runtime::Hermes => "hermes",
            Runtime::Copilot => "copilot",
            Runtime::Antigravity => "antigravity",
            Runtime::Generic => "generic",
            Runtime::Universal => "universal",
        }
    }

    /// Artifact kinds, default first.
    pub fn kinds(self) -> &'static [Kind] {
        match self {
            Runtime::ClaudeCode => claude_code::KINDS,
            Runtime::Codex => codex::KINDS,
            Runtime::Gemini => gemini::KINDS,
            Runtime::Cursor => cursor::KINDS,
            Runtime::OpenCode => opencode::KINDS,
            Runtime::AgentPlugins => agent_plugins::KINDS,
            Runtime::OpenClaw => openclaw::KINDS,
            Runtime::Hermes => hermes::KINDS,
            Runtime::Copilot => copilot::KINDS,
            Runtime::Antigravity => antigravity::KINDS,
            Runtime::Generic => generic::KINDS,
            Runtime::Universal => universal::KINDS,
        }
    }

    /// URLs the runtime's format itself requires in generated files (a
    /// `$schema` constant), allowed without the user's allowlist.
    pub fn required_urls(self) -> &'static [&'static str] {
        match self {
            Runtime::AgentPlugins | Runtime::Universal => agent_plugins::REQUIRED_URLS,
            _ => &[],
        }
    }

    pub fn parse(id: &str) -> Result<Runtime> {
        Runtime::ALL.into_iter().find(|r| r.id() == id).ok_or_else(|| {
            let known: Vec<&str> = Runtime::ALL.iter().map(|r| r.id()).collect();
            Error::new(
                ErrorCode::UnsupportedRuntime,
                format!("unknown runtime {id:?}; known: {}", known.join(", ")),
            )
        })
    }

    /// The requested kind, else the runtime's default for that scope (the
    /// first kind that serves it); an unknown kind or a scope the kind cannot
    /// serve fails before anything is generated.
    pub fn kind(self, requested: Option<&str>, scope: Scope) -> Result<&'static Kind> {
        let kinds = self.kinds();
        let kind = match requested {
            None => kinds.iter().find(|k| k.scopes.contains(&scope)).unwrap_or(&kinds[0]),
            Some(name) => kinds.iter().find(|k| k.name == name).ok_or_else(|| {
                let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
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

/// Writes one runtime's bundle of one kind.
pub fn write(
    runtime: Runtime,
    kind: &'static Kind,
    plugin: &Plugin,
    options: &BuildOptions,
) -> Result<Bundle> {
    let mut writer = Writer::new(runtime, kind, plugin, options)?;
    match runtime {
        Runtime::ClaudeCode => claude_code::write(&mut writer)?,
        Runtime::Codex => codex::write(&mut writer)?,
        Runtime::Gemini => gemini::write(&mut writer)?,
        Runtime::Cursor => cursor::write(&mut writer)?,
        Runtime::OpenCode => opencode::write(&mut writer)?,
        Runtime::AgentPlugins => agent_plugins::write(&mut writer)?,
        Runtime::OpenClaw => openclaw::write(&mut writer)?,
        Runtime::Hermes => hermes::write(&mut writer)?,
        Runtime::Copilot => copilot::write(&mut writer)?,
        Runtime::Antigravity => antigravity::write(&mut writer)?,
        Runtime::Generic => generic::write(&mut writer)?,
        Runtime::Universal => universal::write(&mut writer)?,
    }
    Ok(writer.finish())
}

/// `--target RUNTIME[:KIND]` strings -> (runtime, kind name), kind optional.
pub fn split_target(target: &str) -> (&str, Option<&str>) {
    match target.split_once(':') {
        Some((runtime, kind)) => (runtime, Some(kind)),
        None => (target, None),
    }
}
