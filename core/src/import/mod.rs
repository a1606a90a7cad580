//! `import`: turns a native plugin (Claude Code, Codex, Gemini CLI, Cursor,
//! Agent Plugins) into a canonical plugforge source, and reports everything
//! the source cannot represent instead of dropping it.

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode, Location, Result};
use crate::runtime::Runtime;
use crate::source::SourceTree;

/// Runtimes `import` reads.
pub const IMPORTABLE: [Runtime; 5] =
    [Runtime::ClaudeCode, Runtime::Codex, Runtime::Gemini, Runtime::Cursor, Runtime::AgentPlugins];

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImportOptions {
    /// The runtime the folder is for; `None` detects it from its marker.
    #[serde(default)]
    pub from: Option<String>,
}

/// Something of the native plugin the canonical source does not carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportNote {
    /// Stable snake_case identifier, e.g. `unknown_field`.
    pub code: &'static str,
    pub location: Location,
    pub message: String,
}

/// The canonical source and what was left behind.
#[derive(Debug, Clone)]
pub struct Imported {
    pub runtime: Runtime,
    /// Files of the canonical source (with `plugforge.json`).
    pub source: SourceTree,
    pub notes: Vec<ImportNote>,
}

/// Reads `tree` (a native plugin's root) into a canonical source.
pub fn import(tree: &SourceTree, options: &ImportOptions) -> Result<Imported> {
    let runtime = match options.from.as_deref() {
        Some(id) => Runtime::parse(id)?,
        None => detect(tree)?,
    };
    if !IMPORTABLE.contains(&runtime) {
        let known: Vec<&str> = IMPORTABLE.iter().map(|r| r.id()).collect();
        return Err(Error::new(
            ErrorCode::UnsupportedRuntime,
            format!("import reads {}, not {}", known.join(", "), runtime.id()),
        ));
    }
    Err(Error::new(ErrorCode::UnsupportedRuntime, format!("import from {} is not available", runtime.id())))
}

/// The runtime whose marker `tree` holds.
fn detect(tree: &SourceTree) -> Result<Runtime> {
    const MARKERS: [(&str, Runtime); 5] = [
        (".claude-plugin/plugin.json", Runtime::ClaudeCode),
        (".codex-plugin/plugin.json", Runtime::Codex),
        ("gemini-extension.json", Runtime::Gemini),
        (".cursor-plugin/plugin.json", Runtime::Cursor),
        ("plugin.json", Runtime::AgentPlugins),
    ];
    MARKERS.iter().find(|(marker, _)| tree.get(marker).is_some()).map(|(_, runtime)| *runtime).ok_or_else(
        || {
            Error::new(
                ErrorCode::InvalidSource,
                "no plugin marker found (.claude-plugin/plugin.json, .codex-plugin/plugin.json, \
             gemini-extension.json, .cursor-plugin/plugin.json, plugin.json); name the runtime with --from",
            )
        },
    )
}
