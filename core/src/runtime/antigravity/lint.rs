//! How Antigravity CLI reads a plugin folder.

use crate::lint::layout::{Layout, LayoutInput};
use crate::lint::{Folder, Sink};

/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
/// Skills and agents in their default folders; hooks.json and
/// mcp_config.json are Antigravity's own dialects, not judged here
/// (docs/runtimes/antigravity.md).
pub(crate) fn layout(layout: &mut Layout, _input: &LayoutInput<'_>) {
    layout.agents = vec!["agents".into()];
}

/// A root `plugin.json` is an Agent Plugin's manifest or an Antigravity
/// plugin's. One with the Agent Plugins `$schema` is the former; one
/// without, beside Antigravity's own `mcp_config.json` or `hooks.json`, or
/// in a bundle plugforge built for Antigravity, is the latter
/// (docs/runtimes/antigravity.md, facts 1 and 3).
pub(crate) fn claims_shared_manifest(folder: Folder<'_>) -> bool {
    let declares_spec = folder
        .json(super::facts::MANIFEST_PATH, &mut Sink::default())
        .and_then(|m| m.get("$schema").and_then(|s| s.as_str().map(str::to_string)))
        .is_some_and(|schema| schema.contains("agent-plugins.org"));
    let built_for_antigravity = || {
        let manifest = folder.json(".plugforge-manifest.json", &mut Sink::default());
        manifest.is_some_and(|m| m["runtime"] == crate::registry::Runtime::Antigravity.id())
    };
    let antigravity =
        folder.exists("mcp_config.json") || folder.exists("hooks.json") || built_for_antigravity();
    antigravity && !declares_spec
}
