//! Qoder CLI's marketplace ([`facts::MARKETPLACE_PATH`]), as `qodercli
//! plugins marketplace add` and its loader judge it [Q `Zqr`, `Qqt`, `Hja`, `Cpe`].

use serde_json::Value;

use super::facts;
use crate::lint::doc::Shape;
use crate::lint::marketplace::{Source, dot_path, remote_kind};
use crate::runtime::{Keys, Marketplace};

pub(crate) const MARKETPLACE: Marketplace = Marketplace {
    file: facts::MARKETPLACE_PATH,
    owner_required: true,
    owner_keys: Keys::Known(&[&["name", "email", "url"]]),
    keys: Keys::Known(&[&facts::MARKETPLACE_KEYS]),
    shapes: &[
        ("forceRemoveDeletedPlugins", Shape::Bool),
        ("metadata", Shape::Object),
        ("allowCrossMarketplaceDependenciesOn", Shape::StrList),
    ],
    wants_description_and_plugins: false,
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
    entry_keys: Keys::Known(&[&facts::MANIFEST_KEYS, &facts::MARKETPLACE_ENTRY_ONLY_KEYS]),
    source,
    entry_name_matches_plugin: false,
    entry_version_matches_plugin: false,
    commands_and_agents_clash: false,
    mcp_servers_clash: false,
};

/// 1 to 100 characters of `[A-Za-z0-9._-]`, starting with a letter or digit [Q `Cpe`].
fn name_problem(name: &str) -> Option<String> {
    let problem = if name.is_empty() {
        "is empty"
    } else if name.chars().count() > 100 {
        "is longer than 100 characters"
    } else if name.contains(' ') {
        "contains a space"
    } else if !name.starts_with(|c: char| c.is_ascii_alphanumeric())
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
    {
        "must start with a letter or digit and hold only letters, digits, '-', '.' and '_'"
    } else {
        return None;
    };
    Some(format!("{problem} (qodercli plugins marketplace add refuses it)"))
}

/// Names Qoder keeps for itself or for official and enterprise marketplaces
/// [facts::RESERVED_MARKETPLACE_NAMES, Q `Qja`, `Cja`].
fn name_reserved(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let official = |a: &str, b: &str| {
        lower.find(a).is_some_and(|at| lower[at + a.len()..].trim_start_matches(|c: char| !c.is_ascii_alphanumeric()).starts_with(b))
    };
    let starts_reserved = lower.strip_prefix("qoder").is_some_and(|rest| {
        let rest = rest.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
        ["marketplace", "plugins", "official"].iter().any(|w| rest.starts_with(w))
    });
    let reserved = facts::RESERVED_MARKETPLACE_NAMES.contains(&lower.as_str())
        || facts::RESERVED_MARKETPLACE_PREFIXES.iter().any(|p| lower.starts_with(p))
        || !name.chars().all(|c| (' '..='~').contains(&c))
        || official("official", "qoder")
        || official("qoder", "official")
        || starts_reserved;
    reserved.then(|| {
        "is reserved or looks like an official Qoder marketplace; qodercli plugins marketplace add refuses it"
            .to_string()
    })
}

fn entry_name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("is empty")
    } else if name.contains(' ') {
        Some("contains a space, which Qoder CLI refuses")
    } else {
        None
    }
}

/// A `./` path from the marketplace root, or a remote source [Q `Hja`].
fn source(source: &Value) -> Source {
    match source {
        Value::String(path) => dot_path(path, None),
        Value::Object(object) => {
            remote_kind(object.get("source").and_then(Value::as_str), &facts::MARKETPLACE_REMOTE_SOURCES)
        }
        _ => Source::Invalid(format!("{source} is not a source Qoder CLI reads")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marketplace_names_follow_qoders_rules() {
        assert_eq!(name_problem("local-striatum"), None);
        assert!(name_problem("-x").is_some() && name_problem("a b").is_some() && name_problem("").is_some());
        assert_eq!(name_reserved("local-striatum"), None);
        for reserved in ["local", "Inline", "qoder-plugins", "qoder-marketplace-x", "official-qoder", "qoder_official", "qoder-enterprise-a", "naïve"] {
            assert!(name_reserved(reserved).is_some(), "{reserved}");
        }
        assert_eq!(name_reserved("my-qoder-tools"), None);
    }
}
