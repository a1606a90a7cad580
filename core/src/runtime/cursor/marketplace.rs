//! Cursor's marketplace ([`facts::MARKETPLACE_PATH`]), a closed
//! schema (cursor/plugin-template `scripts/validate-template.mjs`).

use serde_json::Value;

use super::facts;
use super::lint::is_cursor_name;
use crate::lint::doc::{PathProblem, Shape, relative_path};
use crate::lint::marketplace::Source;
use crate::runtime::{Keys, Marketplace};

pub(crate) const MARKETPLACE: Marketplace = Marketplace {
    file: facts::MARKETPLACE_PATH,
    owner_required: true,
    owner_keys: Keys::Closed(&["name", "email"]),
    keys: Keys::Closed(&["name", "owner", "metadata", "plugins"]),
    shapes: &[("metadata", Shape::Object)],
    wants_description_and_plugins: false,
    name_problem,
    name_reserved: |_| None,
    entry_name_problem,
    entry_shapes: &[("description", Shape::Str), ("minClientVersions", Shape::Object)],
    plugin_policy: &[],
    entry_policy: &[],
    entry_keys: Keys::Closed(&["name", "source", "description", "minClientVersions"]),
    source,
    entry_name_matches_plugin: true,
    entry_version_matches_plugin: false,
    commands_and_agents_clash: true,
    mcp_servers_clash: false,
};

/// `^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$`
fn name_problem(name: &str) -> Option<String> {
    (!is_cursor_name(name) || name.contains('.')).then(|| {
        "does not match ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$ (lowercase letters, digits and hyphens)".to_string()
    })
}

fn entry_name_problem(name: &str) -> Option<&'static str> {
    (!is_cursor_name(name))
        .then_some("does not match ^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$ (lowercase letters, digits, '-' and '.')")
}

/// A path relative to the marketplace root (with or without `./`), or a URL.
fn source(source: &Value) -> Source {
    let Value::String(path) = source else {
        return Source::Invalid(format!("{source} is not a source cursor reads"));
    };
    if path.contains("://") || path.starts_with("git@") {
        return Source::Remote;
    }
    if path.trim().is_empty() {
        return Source::Invalid("the source is empty".into());
    }
    match relative_path(path) {
        Ok(rel) => Source::Local(rel),
        Err(PathProblem::Absolute) => Source::Invalid(format!("{path:?} is absolute")),
        Err(PathProblem::Escapes) => Source::Invalid(format!("{path:?} contains \"..\"")),
    }
}
