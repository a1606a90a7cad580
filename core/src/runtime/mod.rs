//! Runtime writers: one module per runtime, each turning the canonical
//! [`Plugin`] into that runtime's native files and honesty rows.

mod claude_code;

use std::collections::BTreeMap;

use crate::bundle::{Bundle, MarketplaceEntry};
use crate::error::{Error, ErrorCode, Result};
use crate::model::Plugin;
use crate::options::BuildOptions;
use crate::path::BundlePath;

/// A runtime the core can write for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Runtime {
    ClaudeCode,
}

impl Runtime {
    pub const ALL: [Runtime; 1] = [Runtime::ClaudeCode];

    pub fn id(self) -> &'static str {
        match self {
            Runtime::ClaudeCode => "claude-code",
        }
    }

    /// The bundle's folder below the output root: `roots[id]` when the host
    /// chose one (a runner's own layout), else the runtime id.
    pub fn root(self, roots: &BTreeMap<String, String>) -> Result<BundlePath> {
        let root = roots.get(self.id()).map_or(self.id(), String::as_str);
        BundlePath::new(root)
    }

    /// The marketplace file (below the output root) this runtime's entries go to.
    pub fn marketplace_file(self) -> Option<&'static str> {
        match self {
            Runtime::ClaudeCode => Some(".claude-plugin/marketplace.json"),
        }
    }

    /// Artifact kinds this runtime supports, default first.
    pub fn kinds(self) -> &'static [&'static str] {
        match self {
            Runtime::ClaudeCode => &["plugin"],
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

    /// The requested kind, else the runtime's default; unknown kinds fail
    /// before anything is generated.
    pub fn resolve_kind(self, requested: Option<&str>) -> Result<&'static str> {
        let kinds = self.kinds();
        match requested {
            None => Ok(kinds[0]),
            Some(kind) => kinds.iter().copied().find(|k| *k == kind).ok_or_else(|| {
                Error::new(
                    ErrorCode::UnsupportedKind,
                    format!("{} has no artifact kind {kind:?}; it supports: {}", self.id(), kinds.join(", ")),
                )
            }),
        }
    }
}

/// What a runtime writer returns.
pub struct Written {
    pub bundle: Bundle,
    pub marketplace: Option<MarketplaceEntry>,
}

pub fn write(
    runtime: Runtime,
    kind: &'static str,
    plugin: &Plugin,
    options: &BuildOptions,
) -> Result<Written> {
    let root = runtime.root(&options.roots)?;
    match runtime {
        Runtime::ClaudeCode => claude_code::write(kind, root, plugin, options),
    }
}
