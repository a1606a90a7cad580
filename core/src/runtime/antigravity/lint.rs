//! How Antigravity CLI reads a plugin folder.

use crate::lint::layout::{Layout, LayoutInput};

/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
/// Skills and agents in their default folders; hooks.json and
/// mcp_config.json are Antigravity's own dialects, not judged here
/// (docs/runtimes/antigravity.md).
pub(crate) fn layout(layout: &mut Layout, _input: &LayoutInput<'_>) {
    layout.agents = vec!["agents".into()];
}
