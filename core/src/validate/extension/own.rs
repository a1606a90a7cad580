//! The rules one plugin's declaration must pass on its own.

use std::collections::BTreeSet;

use super::contract::{is_health_url, is_version_range};
use super::declared::{COMPONENT_KINDS, Entry};
use super::facts::{Facts, is_env_name, mentions};
use super::{
    BINDING_VALUE, INVALID_ENTRY, SERVICE_CONTRACT, UNDECLARED_BINDING, UNKNOWN_CONFLICT, UNUSED_BINDING,
};
use crate::lint::Sink;
use crate::source::is_kebab;

/// Keys that would put a binding's value into the plugin.
const VALUE_KEYS: [&str; 3] = ["value", "default", "secret"];

pub(super) fn check(facts: &Facts, sink: &mut Sink) {
    if facts.declared.is_empty() {
        return;
    }
    entries(facts, sink);
    services(facts, sink);
    bindings(facts, sink);
    conflicts(facts, sink);
}

/// Names well formed and listed once per list.
fn entries(facts: &Facts, sink: &mut Sink) {
    let declared = &facts.declared;
    for (list, entries) in
        [("services", &declared.services), ("bindings", &declared.bindings), ("plugins", &declared.plugins)]
    {
        let mut seen = BTreeSet::new();
        for entry in entries {
            if !seen.insert(entry.name.as_str()) {
                let message = format!("requires.{list} lists {:?} twice", entry.name);
                sink.report(&INVALID_ENTRY, None, Some(entry.at.clone()), message);
            }
        }
    }
    for binding in declared.bindings.iter().filter(|b| !is_env_name(&b.name)) {
        let message = format!(
            "binding name {:?} is not an environment variable name (A-Z, 0-9, _; not starting with a digit)",
            binding.name
        );
        sink.report(&INVALID_ENTRY, None, Some(binding.at.clone()), message);
    }
    for plugin in declared.plugins.iter().filter(|p| !is_kebab(&p.name)) {
        let message = format!("required plugin name {:?} is not a kebab-case plugin name", plugin.name);
        sink.report(&INVALID_ENTRY, None, Some(plugin.at.clone()), message);
    }
    for service in declared.services.iter().filter(|s| s.name.trim().is_empty()) {
        sink.report(&INVALID_ENTRY, None, Some(service.at.clone()), "a required service has an empty name");
    }
    for conflict in &declared.conflicts {
        let named: Vec<String> =
            conflict.components.iter().map(|(kind, name)| format!("{kind} {name:?}")).collect();
        if named.len() != 1 {
            let message = format!(
                "a conflict names exactly one of {} (found {})",
                COMPONENT_KINDS.join(", "),
                if named.is_empty() { "none".to_string() } else { named.join(" and ") }
            );
            sink.report(&INVALID_ENTRY, None, Some(conflict.at.clone()), message);
        }
        if conflict.plugin.as_deref().is_none_or(|p| !is_kebab(p)) {
            let message = format!(
                "the conflict over {} names no other plugin (\"plugin\": a kebab-case plugin name)",
                named.join(" and ")
            );
            sink.report(&INVALID_ENTRY, None, Some(conflict.at.clone()), message);
        }
    }
}

/// A health URL to probe and a version range to compare: without both,
/// nothing can tell whether the service is there.
fn services(facts: &Facts, sink: &mut Sink) {
    for service in &facts.declared.services {
        let name = &service.name;
        let mut problems = Vec::new();
        match text_field(service, "health") {
            None => problems.push("no \"health\" URL".to_string()),
            Some(url) if !is_health_url(url) => {
                problems.push(format!("health {url:?} is not an http(s) URL with a host"))
            }
            Some(_) => {}
        }
        match text_field(service, "version") {
            None => problems.push("no \"version\" range".to_string()),
            Some(range) if !is_version_range(range) => {
                problems.push(format!("version {range:?} is not a semver range such as \">=1.2\""))
            }
            Some(_) => {}
        }
        if !problems.is_empty() {
            let message = format!("service {name:?} cannot be checked: {}", problems.join("; "));
            sink.report(&SERVICE_CONTRACT, None, Some(service.at.clone()), message);
        }
    }
}

fn bindings(facts: &Facts, sink: &mut Sink) {
    let declared: BTreeSet<&str> = facts.declared.bindings.iter().map(|b| b.name.as_str()).collect();
    for binding in &facts.declared.bindings {
        if let Some(key) = VALUE_KEYS.iter().find(|key| binding.fields.contains_key(**key)) {
            let message = format!(
                "binding {:?} carries a {key}; a binding only names what the broker resolves at install time",
                binding.name
            );
            sink.report(&BINDING_VALUE, None, Some(binding.at.clone()), message);
        }
        let read = facts.built
            || facts.references.iter().any(|r| r.name == binding.name)
            || facts.executables.iter().any(|text| mentions(text, &binding.name));
        if !read {
            let message = format!(
                "binding {:?} is declared but no MCP server, hook or executable reads ${{{}}}",
                binding.name, binding.name
            );
            sink.report(&UNUSED_BINDING, None, Some(binding.at.clone()), message);
        }
    }
    for reference in facts.references.iter().filter(|r| !declared.contains(r.name.as_str())) {
        let message = format!(
            "${{{}}} is read here but {:?} is not a declared binding",
            reference.name, reference.name
        );
        sink.report(&UNDECLARED_BINDING, None, Some(reference.at.clone()), message);
    }
}

fn conflicts(facts: &Facts, sink: &mut Sink) {
    if facts.built {
        return;
    }
    for conflict in &facts.declared.conflicts {
        for (kind, name) in conflict.components.iter().filter(|(kind, name)| !facts.defines(kind, name)) {
            let message = format!("the conflict names {kind} {name:?}, which this plugin does not define");
            sink.report(&UNKNOWN_CONFLICT, None, Some(conflict.at.clone()), message);
        }
    }
}

fn text_field<'a>(entry: &'a Entry, key: &str) -> Option<&'a str> {
    entry.fields.get(key).and_then(|v| v.as_str()).filter(|s| !s.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use crate::source::SourceTree;
    use crate::validate::{ValidateOptions, validate};

    fn codes(config: &str, files: &[(&str, &str)]) -> Vec<&'static str> {
        let mut tree = SourceTree::new();
        tree.insert("plugforge.json", config.as_bytes().to_vec(), false).unwrap();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), path.starts_with("bin/")).unwrap();
        }
        let report = validate(&tree, &ValidateOptions::default()).unwrap();
        report.findings.iter().map(|f| f.code.as_str()).filter(|c| c.starts_with("extension/")).collect()
    }

    #[test]
    fn malformed_declarations_are_left_to_config_loading() {
        for extension in [
            r#""requires": []"#,
            r#""requires": {"services": {"name": "x"}, "bindings": "TOKEN", "plugins": [1, null]}"#,
            r#""requires": {"bindings": [{"description": "no name"}]}"#,
            r#""conflicts": {"command": "x"}"#,
            r#""conflicts": [1, "x", {"command": 2, "plugin": 3}]"#,
        ] {
            let config = format!(r#"{{"name": "a", "version": "1.0.0", {extension}}}"#);
            let found = codes(&config, &[]);
            assert!(found.iter().all(|c| *c == "extension/invalid-entry"), "{extension}: {found:?}");
        }
    }

    #[test]
    fn an_executable_reading_a_binding_uses_it() {
        let config =
            r#"{"name": "a", "version": "1.0.0", "requires": {"bindings": [{"name": "API_TOKEN"}]}}"#;
        assert_eq!(codes(config, &[]), ["extension/unused-binding"]);
        assert!(
            codes(config, &[("bin/call", "#!/bin/sh\ncurl -H \"Authorization: $API_TOKEN\"\n")]).is_empty()
        );
    }

    #[test]
    fn hook_commands_read_bindings_too() {
        let config =
            r#"{"name": "a", "version": "1.0.0", "requires": {"bindings": [{"name": "API_TOKEN"}]}}"#;
        let hooks = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify --token ${API_TOKEN} --to ${CHANNEL}"}]}]}}"#;
        assert_eq!(codes(config, &[("hooks/hooks.json", hooks)]), ["extension/undeclared-binding"]);
    }

    #[test]
    fn a_plugin_without_the_extension_is_not_judged() {
        let mcp = r#"{"mcpServers": {"db": {"command": "db", "env": {"URL": "${DATABASE_URL}"}}}}"#;
        assert!(codes(r#"{"name": "a", "version": "1.0.0"}"#, &[(".mcp.json", mcp)]).is_empty());
    }
}
