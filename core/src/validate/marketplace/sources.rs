//! Whether a marketplace entry's local source holds a plugin, and the
//! plugin's own manifest, read the way the runtime reads them.

use serde_json::Value;

use crate::lint::Folder;
use crate::runtime::Spec;

/// Whether `plugin` (a local source's folder) holds a plugin the runtime can
/// load: its manifest, or (for the runtimes that load manifestless plugins)
/// a component folder or file.
pub(crate) fn holds_plugin(spec: &Spec, plugin: Folder<'_>) -> bool {
    if manifest_candidates(spec).any(|m| plugin.exists(m)) {
        return true;
    }
    !spec.reads.manifest_required
        && (["skills", "commands", "agents"].iter().any(|dir| plugin.has_dir(dir))
            || ["hooks/hooks.json", ".mcp.json", "SKILL.md"].iter().any(|file| plugin.exists(file)))
}

/// The plugin's own manifest, as the runtime reads it for an entry.
pub(crate) fn plugin_manifest(spec: &Spec, plugin: Folder<'_>) -> Option<(&'static str, Value)> {
    let rel = manifest_candidates(spec).find(|m| plugin.exists(m))?;
    let value = serde_json::from_slice(&plugin.get(rel)?.bytes).ok()?;
    Some((rel, value))
}

/// The manifests the runtime reads a plugin's name and version from, in the
/// order it tries them.
fn manifest_candidates(spec: &Spec) -> impl Iterator<Item = &'static str> + use<> {
    let reads = &spec.reads;
    reads.manifest.into_iter().chain(reads.manifest_fallbacks.iter().copied())
}

/// `rel` (relative to the marketplace root) as a folder of the validated tree.
pub(crate) fn join(root: &str, rel: &str) -> String {
    match (root.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_string(),
        (false, true) => root.to_string(),
        (false, false) => format!("{root}/{rel}"),
    }
}
