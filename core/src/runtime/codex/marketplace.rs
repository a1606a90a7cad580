//! Codex's marketplace (`.agents/plugins/marketplace.json`), as `codex
//! plugin marketplace add` and its listings judge it.

use serde_json::Value;

use super::facts;
use crate::lint::doc::Shape;
use crate::lint::marketplace::{Source, dot_path, remote_kind};
use crate::runtime::{Keys, Marketplace};

const REMOTE_KINDS: &[&str] = &["url", "git-subdir", "npm", "github"];

pub(crate) const MARKETPLACE: Marketplace = Marketplace {
    file: facts::MARKETPLACE_PATH,
    owner_required: false,
    owner_keys: Keys::Open,
    keys: Keys::Open,
    shapes: &[("interface", Shape::Object)],
    wants_description_and_plugins: false,
    name_problem,
    name_reserved: |_| None,
    entry_name_problem,
    entry_shapes: &[("category", Shape::Str), ("policy", Shape::Object)],
    plugin_policy: &["authentication"],
    entry_policy: &facts::MARKETPLACE_POLICY,
    entry_keys: Keys::Open,
    source,
    entry_name_matches_plugin: true,
    entry_version_matches_plugin: false,
    commands_and_agents_clash: false,
    mcp_servers_clash: true,
};

fn name_problem(name: &str) -> Option<String> {
    (name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-".contains(&b))).then(|| {
        "may hold only letters, digits, '_' and '-' (codex plugin marketplace add refuses it)".to_string()
    })
}

fn entry_name_problem(name: &str) -> Option<&'static str> {
    (name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))).then_some(
        "has characters outside [A-Za-z0-9._-]; Codex skips it in listings and codex plugin add refuses it",
    )
}

fn source(source: &Value) -> Source {
    match source {
        Value::String(path) => dot_path(path, Some("Codex")),
        Value::Object(object) => match object.get("source").and_then(Value::as_str) {
            Some("local") => match object.get("path") {
                Some(Value::String(path)) => dot_path(path, Some("Codex")),
                _ => Source::Invalid("a local source needs a \"path\" string".into()),
            },
            kind => remote_kind(kind, REMOTE_KINDS),
        },
        _ => Source::Invalid(format!("{source} is not a source codex reads")),
    }
}
