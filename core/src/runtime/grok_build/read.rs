//! Grok Build plugins as a source: Claude Code's layout under
//! [`facts::MANIFEST_PATH`], read by Claude Code's reader as a dialect.
//! Grok's own spellings of the plugin-folder variables are read as the
//! canonical ones; `lspServers`, which Grok reads, is kept for its bundle.

use super::facts;
use crate::draft::Draft;
use crate::error::Result;
use crate::runtime::claude_code::read::{Dialect, import_as};
use crate::source::SourceTree;

/// Manifest fields kept for the Grok Build bundle alone (`lspServers`,
/// `manifest.rs:168`; the rest of its manifest is Claude Code's).
pub(crate) const GROK_ONLY: [&str; 1] = ["lspServers"];

const GROK: Dialect = Dialect {
    manifest: facts::MANIFEST_PATH,
    runtime: "grok-build",
    runtime_name: "Grok Build",
    only_fields: &GROK_ONLY,
    only_files: &[],
    mcp_files: &[facts::MCP_FILE],
    settings_file_wins: true,
    spellings: &[(facts::PLUGIN_ROOT, crate::canonical::PLUGIN_ROOT), (facts::PLUGIN_DATA, crate::canonical::PLUGIN_DATA)],
};

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    import_as(tree, draft, &GROK)
}
