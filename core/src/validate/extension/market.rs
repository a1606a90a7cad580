//! The rules across the plugins of one marketplace: required plugins are
//! listed in it, and plugins that carry the extension declare every name
//! they share with another plugin. Plugins with a local source are read
//! from their folder (a plugforge source or a built bundle); the others
//! count by name only.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::super::{Context, Folder};
use super::facts::{Component, Facts};
use super::{COLLISION, MISSING_PLUGIN, own};
use crate::lint::Sink;

pub(super) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let marker =
        cx.subject.marker.strip_prefix(&format!("{}/", cx.subject.root)).unwrap_or(&cx.subject.marker);
    let Some(listing) = cx.folder.json(marker, &mut Sink::default()) else { return };
    let entries = plugin_entries(&listing);
    let listed: BTreeSet<&str> = entries.iter().map(|(name, _)| name.as_str()).collect();
    let mut plugins = Vec::new();
    for (name, root) in &entries {
        let Some(root) = root else { continue };
        let root = if root.is_empty() { cx.subject.root.clone() } else { cx.folder.full(root) };
        let folder = Folder::new(cx.tree, &root);
        if folder.has_dir("") {
            plugins.push(Facts { name: name.clone(), ..Facts::of_folder(&folder) });
        }
    }
    for plugin in &plugins {
        own::check(plugin, sink);
        required_plugins(plugin, &listed, sink);
    }
    collisions(&plugins, sink);
}

fn required_plugins(plugin: &Facts, listed: &BTreeSet<&str>, sink: &mut Sink) {
    for required in plugin.declared.plugins.iter().filter(|p| !listed.contains(p.name.as_str())) {
        let message = format!(
            "{:?} requires plugin {:?}, which this marketplace does not list",
            plugin.name, required.name
        );
        sink.report(&MISSING_PLUGIN, None, Some(required.at.clone()), message);
    }
}

/// A name two plugins define collides unless one of them declares it; it is
/// reported at each plugin that carries the extension, once per component,
/// naming every plugin it collides with (a plugin without the extension is
/// never judged here).
fn collisions(plugins: &[Facts], sink: &mut Sink) {
    let mut by_name: BTreeMap<(bool, &str), Vec<(usize, &Component)>> = BTreeMap::new();
    for (index, plugin) in plugins.iter().enumerate() {
        for component in &plugin.components {
            let key = (component.kind == "agent", component.name.as_str());
            by_name.entry(key).or_default().push((index, component));
        }
    }
    for sharing in by_name.values().filter(|s| s.len() > 1) {
        for (a, component) in sharing {
            let this = &plugins[*a];
            if this.declared.is_empty() {
                continue;
            }
            let undeclared: Vec<String> = sharing
                .iter()
                .filter(|(b, other_component)| {
                    let other = &plugins[*b];
                    b != a && !declared(this, component, other) && !declared(other, other_component, this)
                })
                .map(|(b, other_component)| {
                    format!("{} {:?} of {:?}", other_component.kind, other_component.name, plugins[*b].name)
                })
                .collect();
            if undeclared.is_empty() {
                continue;
            }
            let message = format!(
                "{} {:?} of {:?} collides with {}, and no conflict is declared",
                component.kind,
                component.name,
                this.name,
                undeclared.join(", ")
            );
            sink.report(&COLLISION, None, Some(component.at.clone()), message);
        }
    }
}

fn declared(plugin: &Facts, component: &Component, other: &Facts) -> bool {
    plugin.declared.declares_conflict(component.kind, &component.name, &other.name)
}

/// Each listed plugin's name and, for a local source, its folder relative
/// to the marketplace root (`"./path"`, `{"source": "local", "path": ...}`,
/// Claude's `metadata.pluginRoot` as the base of bare relative paths).
fn plugin_entries(listing: &Value) -> Vec<(String, Option<String>)> {
    let base = listing.pointer("/metadata/pluginRoot").and_then(Value::as_str).map(clean);
    let Some(items) = listing.get("plugins").and_then(Value::as_array) else { return Vec::new() };
    items
        .iter()
        .filter_map(|item| {
            let name = item.get("name")?.as_str()?.to_string();
            let path = match item.get("source") {
                Some(Value::String(path)) => Some(path.as_str()),
                Some(Value::Object(source))
                    if source.get("source").and_then(Value::as_str) == Some("local") =>
                {
                    source.get("path").and_then(Value::as_str)
                }
                _ => None,
            };
            let root =
                path.filter(|p| !p.contains("://") && !p.split('/').any(|s| s == "..")).map(|p| {
                    match (&base, p.starts_with("./")) {
                        (Some(base), false) if !base.is_empty() => format!("{base}/{}", clean(p)),
                        _ => clean(p),
                    }
                });
            Some((name, root))
        })
        .collect()
}

/// `./a/b/` -> `a/b`; `./` -> ``.
fn clean(path: &str) -> String {
    path.split('/').filter(|s| !s.is_empty() && *s != ".").collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use crate::source::SourceTree;
    use crate::validate::{ValidateOptions, validate};

    const LISTING: &str = r#"{"name": "m", "owner": {"name": "o"}, "plugins": [
        {"name": "a", "source": "./a"}, {"name": "b", "source": {"source": "local", "path": "./b"}},
        {"name": "remote", "source": {"source": "github", "repo": "o/remote"}}]}"#;
    const CARRIES: &str = r#""requires": {"plugins": [{"name": "remote"}]}"#;

    /// Extension codes found for plugins `a` and `b`, each given as (config
    /// extra, files); the marketplace's own rules are tested elsewhere.
    fn codes(a: (&str, &[&str]), b: (&str, &[&str])) -> Vec<&'static str> {
        let mut tree = SourceTree::new();
        tree.insert(".claude-plugin/marketplace.json", LISTING.as_bytes().to_vec(), false).unwrap();
        for (name, (extra, files)) in [("a", a), ("b", b)] {
            let comma = if extra.is_empty() { "" } else { "," };
            let config = format!(r#"{{"name": "{name}", "version": "1.0.0"{comma} {extra}}}"#);
            tree.insert(&format!("{name}/plugforge.json"), config.into_bytes(), false).unwrap();
            for file in files {
                tree.insert(&format!("{name}/{file}"), b"---\ndescription: x\n---\n".to_vec(), false)
                    .unwrap();
            }
        }
        let report = validate(&tree, &ValidateOptions::default()).unwrap();
        report
            .findings
            .iter()
            .map(|f| f.code.as_str())
            .filter(|code| code.starts_with("extension/"))
            .collect()
    }

    #[test]
    fn skills_and_commands_share_one_space_agents_another() {
        let skill = ["skills/sync/SKILL.md"];
        let command = ["commands/sync.md"];
        let agent = ["agents/sync.md"];
        assert_eq!(codes((CARRIES, &command), ("", &skill)), ["extension/collision"]);
        assert!(codes((CARRIES, &command), ("", &agent)).is_empty());
        assert!(codes(("", &command), ("", &command)).is_empty(), "plugins without the extension");
    }

    #[test]
    fn either_plugin_declaring_the_conflict_settles_it() {
        let command = ["commands/sync.md"];
        let declares = r#""conflicts": [{"skill": "sync", "plugin": "a", "reason": "same"}]"#;
        assert!(codes((CARRIES, &command), (declares, &["skills/sync/SKILL.md"])).is_empty());
        let elsewhere = r#""conflicts": [{"command": "sync", "plugin": "c"}]"#;
        assert_eq!(codes((elsewhere, &command), ("", &command)), ["extension/collision"]);
    }

    #[test]
    fn required_plugins_resolve_against_every_listed_entry() {
        assert!(codes((CARRIES, &[]), ("", &[])).is_empty());
        let missing = r#""requires": {"plugins": [{"name": "vault"}]}"#;
        assert_eq!(codes((missing, &[]), ("", &[])), ["extension/missing-plugin"]);
    }
}
