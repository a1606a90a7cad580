//! Qoder CLI plugins as a source: Claude Code's layout under
//! [`facts::MANIFEST_PATH`], read by Claude Code's reader in Qoder's dialect
//! (its manifest, the fields only it reads, `mcp.json` beside `.mcp.json`,
//! `${QODER_PLUGIN_ROOT}` beside `${CLAUDE_PLUGIN_ROOT}`).

use super::facts;
use crate::draft::Draft;
use crate::error::Result;
use crate::runtime::claude_code::read::{Dialect, import_as};
use crate::source::SourceTree;

/// Manifest fields only Qoder CLI reads; kept for its bundle alone. Its
/// `lspServers` and `channels` are not among them: it ignores both with a
/// warning, so they are noted and left out [facts::MANIFEST_KEYS,
/// facts::UNIMPLEMENTED_KEYS].
const KEPT: [&str; 4] = ["userConfig", "dependencies", "workflowsPath", "workflowsPaths"];

/// The same of a Qoder manifest beside another runtime's primary one, with
/// `settings`, which Qoder reads from its manifest alone (its own manifest's
/// become the source's settings.json).
pub(crate) const QODER_ONLY: [&str; 5] = ["userConfig", "dependencies", "workflowsPath", "workflowsPaths", "settings"];

const QODER: Dialect = Dialect {
    manifest: facts::MANIFEST_PATH,
    runtime: crate::registry::Runtime::Qoder.id(),
    runtime_name: super::SPEC.name,
    only_fields: &KEPT,
    only_files: &["workflows/"],
    mcp_files: &facts::MCP_FILES,
    settings_file_wins: false,
    spellings: &[(facts::PLUGIN_ROOT, "${PLUGIN_ROOT}"), (facts::PLUGIN_DATA, "${PLUGIN_DATA}")],
};

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    import_as(tree, draft, &QODER)
}
