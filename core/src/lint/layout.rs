//! Where a runtime looks for a plugin's skills, commands, agents, hooks
//! and MCP servers: its default folders, plus the custom paths a manifest
//! declares (Claude's `plugin.json` adds skills, hooks and servers and
//! replaces commands and agents; Codex's replaces hooks and servers).

use serde_json::Value;

use super::Folder;

/// How deep below a skills folder a runtime finds `SKILL.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SkillDepth {
    /// Only `<skills>/<name>/SKILL.md` (Claude Code, Gemini CLI, Agent Plugins).
    OneLevel,
    /// `<skills>/**/SKILL.md` (Codex, OpenCode, OpenClaw).
    Recursive,
}

/// A hooks document: a file of the plugin, or an object inline in the manifest.
#[derive(Debug, Clone)]
pub(crate) enum HookSource {
    File(String),
    Inline { manifest: String, hooks: Value },
}

/// An MCP server map: a file of the plugin, or inline in a manifest under `key`.
#[derive(Debug, Clone)]
pub(crate) enum McpSource {
    File(String),
    Inline { manifest: String, key: &'static str, servers: Value },
}

/// One runtime's component locations in one plugin folder. Paths are
/// relative to the subject; a folder path may also name a single file.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub skill_dirs: Vec<String>,
    pub skill_depth: SkillDepth,
    /// Claude Code reads a `SKILL.md` at the plugin root as the only skill
    /// when there is no `skills/` folder and no manifest `skills`.
    pub root_skill: bool,
    pub commands: Vec<String>,
    pub agents: Vec<String>,
    pub hooks: Vec<HookSource>,
    pub mcp: Vec<McpSource>,
}

/// A manifest path (`"./x"`) as a subject-relative path; `None` for paths
/// that leave the folder or are not `./`-relative (the manifest rules
/// report those).
pub(crate) fn manifest_path(raw: &str) -> Option<String> {
    let rel = raw.strip_prefix("./")?.trim_end_matches('/');
    let clean = rel.split('/').all(|seg| !seg.is_empty() && seg != "..") || rel.is_empty() || rel == ".";
    (clean && !rel.contains('*')).then(|| if rel == "." { String::new() } else { rel.to_string() })
}

/// A path field: one string or a list of strings.
pub(crate) fn paths(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => manifest_path(s).into_iter().collect(),
        Value::Array(items) => items.iter().filter_map(Value::as_str).filter_map(manifest_path).collect(),
        _ => Vec::new(),
    }
}

/// Claude's `commands`: paths, or an object of named commands with `source` files.
pub(crate) fn command_paths(value: &Value) -> Vec<String> {
    match value {
        Value::Object(named) => named
            .values()
            .filter_map(|c| c.get("source").and_then(Value::as_str))
            .filter_map(manifest_path)
            .collect(),
        other => paths(other),
    }
}

pub(crate) fn hook_sources(value: &Value, manifest: &str) -> Vec<HookSource> {
    match value {
        Value::String(s) => manifest_path(s).map(HookSource::File).into_iter().collect(),
        Value::Object(_) => vec![HookSource::Inline { manifest: manifest.to_string(), hooks: value.clone() }],
        Value::Array(items) => items.iter().flat_map(|i| hook_sources(i, manifest)).collect(),
        _ => Vec::new(),
    }
}

pub(crate) fn mcp_sources(value: &Value, manifest: &str) -> Vec<McpSource> {
    match value {
        Value::String(s) if s.ends_with(".json") => {
            manifest_path(s).map(McpSource::File).into_iter().collect()
        }
        Value::Object(_) => {
            vec![McpSource::Inline {
                manifest: manifest.to_string(),
                key: "mcpServers",
                servers: value.clone(),
            }]
        }
        Value::Array(items) => items.iter().flat_map(|i| mcp_sources(i, manifest)).collect(),
        _ => Vec::new(),
    }
}

/// What a runtime's layout is read from: the plugin folder and the manifest
/// the runtime found in it.
pub(crate) struct LayoutInput<'a> {
    pub folder: Folder<'a>,
    /// The manifest, or `Null` when there is none (or it is not a JSON object).
    pub manifest: &'a Value,
    /// The manifest's path in the folder ("" when there is none).
    pub manifest_rel: &'a str,
}

impl LayoutInput<'_> {
    /// A manifest field that is set (not `null`).
    pub fn field(&self, key: &str) -> Option<&Value> {
        self.manifest.get(key).filter(|v| !v.is_null())
    }
}

impl Layout {
    /// The layout every runtime starts from: skills one level below `skills/`,
    /// Markdown commands, nothing else.
    pub fn base() -> Layout {
        Layout {
            skill_dirs: vec!["skills".into()],
            skill_depth: SkillDepth::OneLevel,
            root_skill: false,
            commands: Vec::new(),
            agents: Vec::new(),
            hooks: Vec::new(),
            mcp: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_paths_stay_inside_the_folder() {
        assert_eq!(manifest_path("./skills/"), Some("skills".into()));
        assert_eq!(manifest_path("./a/b.md"), Some("a/b.md".into()));
        assert_eq!(manifest_path("./"), Some(String::new()));
        assert_eq!(manifest_path("skills"), None);
        assert_eq!(manifest_path("./../x"), None);
        assert_eq!(manifest_path("./a//b"), None);
        assert_eq!(manifest_path("./skills/*"), None);
    }
}
