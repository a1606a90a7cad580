//! Claude Code's marketplace ([`facts::MARKETPLACE_PATH`]), as
//! `claude plugin marketplace add` and the loader judge it.

use serde_json::Value;

use super::facts;
use crate::lint::doc::Shape;
use crate::lint::marketplace::{Source, dot_path, remote_kind};
use crate::runtime::{Keys, Marketplace};

/// Names Claude Code keeps for official marketplaces (`marketplace add`
/// refuses them).
const RESERVED: &[&str] = &[
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "anthropic-agent-skills",
    "life-sciences",
    "knowledge-work-plugins",
    "claude-for-legal",
    "claude-for-financial-services",
    "financial-services-plugins",
    "claude-community",
    "claude-plugins-community",
];

const KEYS: &[&str] = &[
    "$schema",
    "name",
    "owner",
    "plugins",
    "version",
    "description",
    "metadata",
    "forceRemoveDeletedPlugins",
    "allowCrossMarketplaceDependenciesOn",
    "renames",
];
/// Entry keys beyond every plugin.json field.
const ENTRY_ONLY_KEYS: &[&str] = &["source", "category", "tags", "strict", "relevance"];
const REMOTE_KINDS: &[&str] = &["github", "url", "git-subdir", "npm"];

pub(crate) const MARKETPLACE: Marketplace = Marketplace {
    file: facts::MARKETPLACE_PATH,
    owner_required: true,
    owner_keys: Keys::Open,
    keys: Keys::Known(&[KEYS]),
    shapes: &[
        ("$schema", Shape::Str),
        ("version", Shape::Str),
        ("description", Shape::Str),
        ("metadata", Shape::Object),
        ("forceRemoveDeletedPlugins", Shape::Bool),
        ("allowCrossMarketplaceDependenciesOn", Shape::StrList),
        ("renames", Shape::Object),
    ],
    wants_description_and_plugins: true,
    name_problem,
    name_reserved,
    entry_name_problem,
    entry_shapes: &[
        ("version", Shape::Str),
        ("description", Shape::Str),
        ("strict", Shape::Bool),
        ("category", Shape::Str),
        ("tags", Shape::StrList),
    ],
    plugin_policy: &[],
    entry_policy: &[],
    entry_keys: Keys::Known(&[super::lint::KNOWN_KEYS, ENTRY_ONLY_KEYS]),
    source,
    entry_name_matches_plugin: false,
    entry_version_matches_plugin: true,
    commands_and_agents_clash: true,
    mcp_servers_clash: false,
};

fn name_problem(name: &str) -> Option<String> {
    let problem = if name.is_empty() {
        "is empty"
    } else if name.contains(' ') {
        "contains a space"
    } else if name.contains(['/', '\\']) || name.contains("..") || name == "." {
        "contains a path separator, \"..\" or is \".\""
    } else if ["inline", "builtin", "skills-dir"].contains(&name) {
        "is a name Claude Code uses for its own plugin sources"
    } else {
        return None;
    };
    Some(problem.to_string())
}

fn name_reserved(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let reserved = RESERVED.contains(&lower.as_str())
        || !name.is_ascii()
        || (lower.contains("official") && (lower.contains("claude") || lower.contains("anthropic")));
    reserved.then(|| {
        "is reserved for or looks like an official Anthropic marketplace; claude plugin marketplace add refuses it"
            .to_string()
    })
}

fn entry_name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("is empty")
    } else if name.contains(' ') {
        Some("contains a space, which Claude Code refuses")
    } else {
        None
    }
}

fn source(source: &Value) -> Source {
    match source {
        Value::String(path) => dot_path(path, None),
        Value::Object(object) => remote_kind(object.get("source").and_then(Value::as_str), REMOTE_KINDS),
        _ => Source::Invalid(format!("{source} is not a source claude-code reads")),
    }
}
