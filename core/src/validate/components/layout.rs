//! Where each runtime looks for a plugin's skills, commands, agents, hooks
//! and MCP servers: its default folders, plus the custom paths a manifest
//! declares (Claude's `plugin.json` adds skills, hooks and servers and
//! replaces commands and agents; Codex's replaces hooks and servers).

use serde_json::Value;

use super::super::Context;
use crate::lint::Sink;
use crate::runtime::Runtime;

/// How deep below a skills folder a runtime finds `SKILL.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SkillDepth {
    /// Only `<skills>/<name>/SKILL.md` (Claude Code, Gemini CLI, Agent Plugins).
    OneLevel,
    /// `<skills>/**/SKILL.md` (Codex, OpenCode, OpenClaw).
    Recursive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CommandFormat {
    Markdown,
    /// Gemini CLI's `commands/**/*.toml`.
    Toml,
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
    pub command_format: CommandFormat,
    pub agents: Vec<String>,
    pub hooks: Vec<HookSource>,
    pub mcp: Vec<McpSource>,
}

impl Layout {
    /// The layout of `cx`'s subject. A subject without a runtime (a source
    /// judged for every target) uses the canonical, Claude-shaped layout.
    pub fn of(cx: &Context<'_>, sink: &mut Sink) -> Layout {
        let runtime = cx.runtime.unwrap_or(Runtime::ClaudeCode);
        // The first manifest the runtime finds, its own or another format's.
        let reads = &runtime.spec().reads;
        let manifest_file = reads
            .manifest
            .into_iter()
            .chain(reads.manifest_fallbacks.iter().copied())
            .find(|m| cx.folder.exists(m))
            .or(reads.manifest);
        // OpenClaw reads JSON5 and OpenCode JSONC, and Codex may read another
        // runtime's manifest: the manifest area judges their syntax, so a
        // strict-JSON miss here is not a finding.
        let lenient =
            matches!(runtime, Runtime::OpenClaw | Runtime::OpenCode) || manifest_file != reads.manifest;
        let manifest = manifest_file
            .filter(|m| m.ends_with(".json"))
            .and_then(
                |m| if lenient { cx.folder.json(m, &mut Sink::default()) } else { cx.folder.json(m, sink) },
            )
            .filter(Value::is_object)
            .unwrap_or(Value::Null);
        let mut layout = Layout {
            skill_dirs: vec!["skills".into()],
            skill_depth: SkillDepth::OneLevel,
            root_skill: false,
            commands: Vec::new(),
            command_format: CommandFormat::Markdown,
            agents: Vec::new(),
            hooks: Vec::new(),
            mcp: Vec::new(),
        };
        let field = |key: &str| manifest.get(key).filter(|v| !v.is_null());
        let manifest_rel = manifest_file.unwrap_or_default().to_string();
        match runtime {
            // Copilot CLI's default folders are Claude Code's (docs/runtimes/copilot.md, fact 4).
            Runtime::ClaudeCode | Runtime::Copilot | Runtime::Generic | Runtime::Universal => {
                layout.skill_dirs.extend(field("skills").map(paths).unwrap_or_default());
                layout.root_skill = field("skills").is_none() && !cx.folder.has_dir("skills");
                layout.commands = field("commands").map_or_else(|| vec!["commands".into()], command_paths);
                layout.agents = field("agents").map_or_else(|| vec!["agents".into()], paths);
                layout.hooks.push(HookSource::File("hooks/hooks.json".into()));
                layout
                    .hooks
                    .extend(field("hooks").map(|v| hook_sources(v, &manifest_rel)).unwrap_or_default());
                layout.mcp.push(McpSource::File(".mcp.json".into()));
                layout
                    .mcp
                    .extend(field("mcpServers").map(|v| mcp_sources(v, &manifest_rel)).unwrap_or_default());
            }
            Runtime::Codex => {
                layout.skill_dirs.extend(field("skills").map(paths).unwrap_or_default());
                layout.skill_depth = SkillDepth::Recursive;
                layout.commands = vec!["commands".into()];
                layout.hooks = field("hooks").map_or_else(
                    || vec![HookSource::File("hooks/hooks.json".into())],
                    |v| hook_sources(v, &manifest_rel),
                );
                layout.mcp = field("mcpServers").map_or_else(
                    || vec![McpSource::File(".mcp.json".into())],
                    |v| mcp_sources(v, &manifest_rel),
                );
                // Codex 0.171 reads a root Agent Plugins manifest before
                // its own manifest folder: skills one level deep and the spec mcp.json
                // (judged as the Agent Plugins subject), no hooks, no commands
                // (docs/runtimes/universal.md).
                let spec = cx.folder.json("plugin.json", &mut Sink::default());
                let schema = spec.as_ref().and_then(|m| m.get("$schema")).and_then(Value::as_str);
                if schema.is_some_and(|s| s.starts_with("https://agent-plugins.org/schemas/")) {
                    layout.skill_depth = SkillDepth::OneLevel;
                    layout.commands.clear();
                    layout.hooks.clear();
                    layout.mcp.clear();
                }
            }
            Runtime::Gemini => {
                layout.commands = vec!["commands".into()];
                layout.command_format = CommandFormat::Toml;
                layout.agents = vec!["agents".into()];
                layout.hooks.push(HookSource::File("hooks/hooks.json".into()));
                if let Some(servers) = field("mcpServers") {
                    layout.mcp.push(McpSource::Inline {
                        manifest: manifest_rel,
                        key: "mcpServers",
                        servers: servers.clone(),
                    });
                }
            }
            Runtime::Cursor => {
                layout.skill_dirs = field("skills").map_or_else(|| vec!["skills".into()], paths);
                layout.skill_depth = SkillDepth::Recursive;
                layout.commands = field("commands").map_or_else(|| vec!["commands".into()], paths);
                layout.agents = field("agents").map_or_else(|| vec!["agents".into()], paths);
                layout.hooks = field("hooks").map_or_else(
                    || vec![HookSource::File("hooks/hooks.json".into())],
                    |v| hook_sources(v, &manifest_rel),
                );
                layout.mcp = field("mcpServers").map_or_else(
                    || vec![McpSource::File("mcp.json".into())],
                    |v| mcp_sources(v, &manifest_rel),
                );
            }
            Runtime::AgentPlugins => layout.mcp.push(McpSource::File("mcp.json".into())),
            Runtime::OpenCode => {
                layout.skill_dirs = vec![".opencode/skills".into(), ".opencode/skill".into()];
                layout.skill_depth = SkillDepth::Recursive;
                layout.commands = vec![".opencode/commands".into(), ".opencode/command".into()];
                layout.agents = vec![".opencode/agents".into(), ".opencode/agent".into()];
                if let Some(servers) = field("mcp") {
                    layout.mcp.push(McpSource::Inline {
                        manifest: manifest_rel,
                        key: "mcp",
                        servers: servers.clone(),
                    });
                }
            }
            // Skills and agents in their default folders; hooks.json and
            // mcp_config.json are Antigravity's own dialects, not judged here
            // (docs/runtimes/antigravity.md).
            Runtime::Antigravity => layout.agents = vec!["agents".into()],
            Runtime::OpenClaw | Runtime::Hermes => layout.skill_depth = SkillDepth::Recursive,
        }
        layout
    }
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
fn paths(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => manifest_path(s).into_iter().collect(),
        Value::Array(items) => items.iter().filter_map(Value::as_str).filter_map(manifest_path).collect(),
        _ => Vec::new(),
    }
}

/// Claude's `commands`: paths, or an object of named commands with `source` files.
fn command_paths(value: &Value) -> Vec<String> {
    match value {
        Value::Object(named) => named
            .values()
            .filter_map(|c| c.get("source").and_then(Value::as_str))
            .filter_map(manifest_path)
            .collect(),
        other => paths(other),
    }
}

fn hook_sources(value: &Value, manifest: &str) -> Vec<HookSource> {
    match value {
        Value::String(s) => manifest_path(s).map(HookSource::File).into_iter().collect(),
        Value::Object(_) => vec![HookSource::Inline { manifest: manifest.to_string(), hooks: value.clone() }],
        Value::Array(items) => items.iter().flat_map(|i| hook_sources(i, manifest)).collect(),
        _ => Vec::new(),
    }
}

fn mcp_sources(value: &Value, manifest: &str) -> Vec<McpSource> {
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
