//! Claude Code's plugin manifest ([`MANIFEST`]), judged as `claude plugin
//! validate` (2.1.197) does: what it rejects is an error, what it warns
//! about is a warning.

mod components;
mod options;

use serde_json::Value;

use crate::lint::layout::{HookSource, Layout, LayoutInput, McpSource, command_paths, hook_sources, mcp_sources, paths as declared_paths};

use crate::lint::doc::{Doc, Shape, is_url, look_alike, read_object};
use crate::lint::manifest_rules::*;
use crate::lint::markdown::{Markdown, at_field, kind};
use crate::lint::{Cx, Rule};
use crate::lint::Sink;

pub(super) const MANIFEST: &str = super::facts::MANIFEST_PATH;

/// Every top-level key of Claude Code's plugin.json (marketplace entries
/// take them all too).
pub(crate) const KNOWN_KEYS: &[&str] = &[
    "$schema",
    "name",
    "displayName",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    // Since 2.1.332: a square PNG or JPEG of the plugin, or an https URL.
    "icon",
    "defaultEnabled",
    "dependencies",
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
    "lspServers",
    "outputStyles",
    "themes",
    "monitors",
    "workflows",
    "experimental",
    "channels",
    "userConfig",
    "settings",
    "binaries",
];

/// Keys of other manifests people copy in, and where they come from.
const FOREIGN_KEYS: &[(&str, &str)] = &[
    ("main", "an npm package.json"),
    ("scripts", "an npm package.json"),
    ("devDependencies", "an npm package.json"),
    ("peerDependencies", "an npm package.json"),
    ("bin", "an npm package.json"),
    ("files", "an npm package.json"),
    ("private", "an npm package.json"),
    ("engines", "a VS Code/Cursor extension manifest"),
    ("contributes", "a VS Code/Cursor extension manifest"),
    ("activationEvents", "a VS Code/Cursor extension manifest"),
    ("publisher", "a VS Code/Cursor extension manifest"),
    ("categories", "a VS Code/Cursor extension manifest"),
    ("manifest_version", "an MCPB manifest"),
    ("dxt_version", "an MCPB manifest"),
    ("server", "an MCPB manifest"),
];

pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    if cx.folder.exists("CLAUDE.md") {
        sink.report(
            &ROOT_CLAUDE_MD,
            Some(crate::registry::Runtime::ClaudeCode),
            Some(cx.folder.at("CLAUDE.md")),
            "CLAUDE.md at the plugin root is not loaded as context by Claude Code",
        );
    }
    let Some(object) = read_object(cx.folder, MANIFEST, crate::registry::Runtime::ClaudeCode, sink) else { return };
    let map = &object;
    let doc = Doc::new(cx.folder, MANIFEST, crate::registry::Runtime::ClaudeCode, map);
    name(doc, sink);
    metadata(doc, sink);
    components::check(doc, sink);
    options::user_config(doc, sink);
    options::channels(doc, sink);
    options::binaries(doc, sink);
    unknown_keys(doc, sink);
}

fn name(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("name") else {
        doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "",
            "name: missing; Claude Code refuses a plugin manifest without a name",
        );
        return;
    };
    let Some(name) = doc.str_field(sink, "name") else { return };
    if name.is_empty() {
        doc.report(sink, &NAME_INVALID, "name", "name: the plugin name is empty");
    } else if name.contains(' ') {
        doc.report(
            sink,
            &NAME_INVALID,
            "name",
            format!("name: {value} contains a space, which Claude Code refuses"),
        );
    } else if is_reserved_plugin_name(name) {
        let message = format!(
            "name: {value} is reserved for Anthropic's own plugins: claude plugin validate refuses it outside Anthropic's marketplaces"
        );
        doc.report(sink, &NAME_RESERVED, "name", message);
    } else if !is_claude_kebab(name) {
        let message = format!(
            "name: {value} is not kebab-case; Claude Code accepts it, but the Claude.ai marketplace sync requires kebab-case"
        );
        doc.report(sink, &NAME_NOT_KEBAB, "name", message);
    }
}

/// The plugin names Claude Code 2.1.332 keeps for Anthropic, in its own
/// words: no `claude-`, `anthropic-`, `anthropics-` or `cc-plugin-` prefix,
/// not `claude`, `anthropic`, `anthropics`, `claude-code` or `claude-mods`,
/// and no "official" beside "claude" or "anthropic".
fn is_reserved_plugin_name(name: &str) -> bool {
    const PREFIXES: [&str; 4] = ["claude-", "anthropic-", "anthropics-", "cc-plugin-"];
    const NAMES: [&str; 5] = ["claude", "anthropic", "anthropics", "claude-code", "claude-mods"];
    let lower = name.to_ascii_lowercase();
    PREFIXES.iter().any(|p| lower.starts_with(p))
        || NAMES.contains(&lower.as_str())
        || (lower.contains("official") && (lower.contains("claude") || lower.contains("anthropic")))
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`, with no length limit.
pub(crate) fn is_claude_kebab(name: &str) -> bool {
    name.split('-')
        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

fn metadata(doc: Doc<'_>, sink: &mut Sink) {
    for (key, why) in [
        ("version", "add a version such as 1.0.0"),
        ("description", "a description tells users what the plugin does"),
        ("author", "add the author for attribution"),
    ] {
        if doc.get(key).is_none() {
            doc.report(sink, &RECOMMENDED_FIELD_MISSING, "", format!("{key}: not set; {why}"));
        }
    }
    doc.expect_fields(
        sink,
        &[
            ("$schema", Shape::Str),
            ("displayName", Shape::Str),
            ("version", Shape::Str),
            ("description", Shape::Str),
            ("repository", Shape::Str),
            ("license", Shape::Str),
            ("keywords", Shape::StrList),
            ("icon", Shape::Str),
            ("defaultEnabled", Shape::Bool),
            ("settings", Shape::Object),
            ("experimental", Shape::Object),
        ],
    );
    author(doc, sink);
    if let Some(homepage) = doc.str_field(sink, "homepage") {
        if !is_url(homepage) {
            doc.report(sink, &URL_INVALID, "homepage", format!("homepage: {homepage:?} is not a URL"));
        }
    }
    dependencies(doc, sink);
}

fn author(doc: Doc<'_>, sink: &mut Sink) {
    let Some(author) = doc.get("author") else { return };
    if !doc.expect(sink, "author", author, Shape::Object) {
        return;
    }
    match author.get("name") {
        None => doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "author",
            "author.name: missing; an author object needs a name",
        ),
        Some(Value::String(s)) if s.is_empty() => doc.report(
            sink,
            &REQUIRED_FIELD_MISSING,
            "author",
            "author.name: empty; an author object needs a name",
        ),
        Some(name) => {
            doc.expect(sink, "author.name", name, Shape::Str);
        }
    }
    for key in ["email", "url"] {
        if let Some(value) = author.get(key) {
            doc.expect(sink, &format!("author.{key}"), value, Shape::Str);
        }
    }
}

fn dependencies(doc: Doc<'_>, sink: &mut Sink) {
    let Some(deps) = doc.get("dependencies") else { return };
    let Some(items) = deps.as_array().filter(|_| doc.expect(sink, "dependencies", deps, Shape::Array)) else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let field = format!("dependencies[{i}]");
        let ok = match item {
            Value::String(spec) => is_dependency_spec(spec),
            Value::Object(dep) => dep.get("name").is_some_and(Value::is_string),
            _ => false,
        };
        if !ok {
            let message = format!(
                "{field}: {item} is neither \"name\", \"name@marketplace\", \"name@^range\" nor {{\"name\": ...}}"
            );
            doc.report(sink, &INVALID_FIELD, &field, message);
        }
    }
}

/// `^[A-Za-z0-9][-A-Za-z0-9._]*(@[A-Za-z0-9][-A-Za-z0-9._]*)?(@\^[^@]*)?$`
fn is_dependency_spec(spec: &str) -> bool {
    let ident = |s: &str| {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
            && chars.all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
    };
    let (rest, range) = match spec.find("@^") {
        Some(at) => (&spec[..at], Some(&spec[at + 2..])),
        None => (spec, None),
    };
    if range.is_some_and(|r| r.contains('@')) {
        return false;
    }
    match rest.split_once('@') {
        Some((name, marketplace)) => ident(name) && ident(marketplace),
        None => ident(rest),
    }
}

fn unknown_keys(doc: Doc<'_>, sink: &mut Sink) {
    for key in doc.map.keys().filter(|k| !KNOWN_KEYS.contains(&k.as_str())) {
        let message = if key == "user_config" {
            "user_config: the cross-tool spelling of userConfig; rename it to userConfig for Claude Code to read it (the option shapes differ slightly)".to_string()
        } else if let Some((_, origin)) = FOREIGN_KEYS.iter().find(|(k, _)| k == key) {
            format!("{key}: unknown field (commonly seen in {origin}); Claude Code ignores it at load time")
        } else if let Some(meant) = look_alike(key, KNOWN_KEYS) {
            format!("{key}: unknown field; did you mean {meant}? Claude Code ignores it at load time")
        } else {
            format!("{key}: unknown field; Claude Code ignores it at load time")
        };
        doc.report(sink, &UNKNOWN_KEY, key, message);
    }
}

/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
/// Copilot CLI's default folders are Claude Code's (docs/runtimes/copilot.md, fact 4).
pub(crate) fn layout(layout: &mut Layout, input: &LayoutInput<'_>) {
    layout.skill_dirs.extend(input.field("skills").map(declared_paths).unwrap_or_default());
    layout.root_skill = input.field("skills").is_none() && !input.folder.has_dir("skills");
    layout.commands = input.field("commands").map_or_else(|| vec!["commands".into()], command_paths);
    layout.agents = input.field("agents").map_or_else(|| vec!["agents".into()], declared_paths);
    layout.hooks.push(HookSource::File("hooks/hooks.json".into()));
    layout
        .hooks
        .extend(input.field("hooks").map(|v| hook_sources(v, input.manifest_rel)).unwrap_or_default());
    layout.mcp.push(McpSource::File(".mcp.json".into()));
    layout
        .mcp
        .extend(input.field("mcpServers").map(|v| mcp_sources(v, input.manifest_rel)).unwrap_or_default());
}

/// The type checks `claude plugin validate` fails a component file on.
pub(crate) fn check_component_frontmatter(cx: &Cx<'_>, doc: &Markdown, rule: &'static Rule, sink: &mut Sink) {
    let mut report = |key: &str, message: String| {
        sink.report(rule, Some(crate::registry::Runtime::ClaudeCode), Some(at_field(cx, doc, key)), message);
    };
    if let Some(description) = doc.field("description") {
        if description.is_array() || description.is_object() {
            report("description", format!("`description` must be text, not {}", kind(description)));
        }
    }
    if let Some(name) = doc.field("name").filter(|n| !n.is_string()) {
        report("name", format!("`name` must be a string, not {}", kind(name)));
    }
    if let Some(tools) = doc.field("allowed-tools") {
        let ok = match tools {
            Value::String(_) => true,
            Value::Array(items) => items.iter().all(Value::is_string),
            _ => false,
        };
        if !ok {
            report(
                "allowed-tools",
                format!("`allowed-tools` must be a string or a list of strings, not {tools}"),
            );
        }
    }
    if let Some(shell) = doc.field("shell") {
        let known = shell
            .as_str()
            .map(|s| s.trim().to_ascii_lowercase())
            .is_some_and(|s| s == "bash" || s == "powershell");
        if !known {
            report("shell", format!("`shell` must be bash or powershell, not {shell}"));
        }
    }
}

/// Claude Code cannot tell when to delegate to an agent without a
/// `description` (or `when_to_use`).
pub(crate) fn check_agent(cx: &Cx<'_>, doc: &Markdown, sink: &mut Sink) {
    let described = doc.has_key("description") || doc.has_key("when_to_use");
    if doc.frontmatter.is_some() && !described {
        sink.report(
            &crate::lint::component_rules::agent::MISSING_DESCRIPTION,
            Some(crate::registry::Runtime::ClaudeCode),
            Some(cx.folder.at(&doc.rel)),
            "the frontmatter has no `description`: Claude Code cannot tell when to delegate to this agent",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependency_specs_follow_claude_codes_pattern() {
        for ok in ["tools", "tools@market", "tools@^1.2", "tools@market@^1.x", "a.b_c-d"] {
            assert!(is_dependency_spec(ok), "{ok}");
        }
        for bad in ["bad name!", "-x", "a@", "@m", "a@m@n", "a@^1@2"] {
            assert!(!is_dependency_spec(bad), "{bad}");
        }
    }

    #[test]
    fn kebab_has_no_length_limit() {
        assert!(is_claude_kebab(&"a".repeat(100)) && is_claude_kebab("a-1"));
        assert!(!is_claude_kebab("MyPlugin") && !is_claude_kebab("a--b") && !is_claude_kebab("-a"));
    }
}
