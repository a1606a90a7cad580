//! Gemini CLI's extension manifest ([`MANIFEST`]), as `gemini extensions validate`
//! (0.61) and the extension loader judge it.

use crate::lint::layout::{CommandFormat, HookSource, Layout, LayoutInput, McpSource};
use serde_json::Value;

use crate::lint::doc::{Doc, PathProblem, Shape, look_alike, path_exists, read_object, relative_path};
use crate::lint::manifest_rules::*;
use crate::lint::Cx;
use crate::lint::Sink;

pub(super) const MANIFEST: &str = super::facts::MANIFEST_PATH;

const KNOWN_KEYS: &[&str] = &[
    "name",
    "version",
    "description",
    "mcpServers",
    "contextFileName",
    "excludeTools",
    "settings",
    "themes",
    "plan",
    "migratedTo",
];

pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(object) = read_object(cx.folder, MANIFEST, super::SPEC.id, sink) else { return };
    let map = &object;
    let doc = Doc::new(cx.folder, MANIFEST, super::SPEC.id, map);
    for key in ["name", "version"] {
        if doc.get(key).is_none() {
            let message = format!("{key}: missing; Gemini CLI refuses an extension without a {key}");
            doc.report(sink, &REQUIRED_FIELD_MISSING, "", message);
        }
    }
    if let Some(name) = doc.str_field(sink, "name") {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            let message = format!(
                "name: {name:?} may hold only letters (a-z, A-Z), digits (0-9) and dashes (-), and not be empty"
            );
            doc.report(sink, &NAME_INVALID, "name", message);
        }
    }
    if let Some(version) = doc.str_field(sink, "version") {
        if !is_semver(version) {
            let message = format!("version: {version:?} is not a semantic version such as 1.0.0");
            doc.report(sink, &VERSION_NOT_SEMVER, "version", message);
        }
    }
    doc.expect_fields(
        sink,
        &[
            ("description", Shape::Str),
            ("mcpServers", Shape::Object),
            ("contextFileName", Shape::StrOrStrList),
            ("excludeTools", Shape::StrList),
            ("settings", Shape::Array),
            ("themes", Shape::Array),
            ("plan", Shape::Object),
            ("migratedTo", Shape::Str),
        ],
    );
    context_files(doc, sink);
    if let Some(Value::String(dir)) = doc.get("plan").and_then(|plan| plan.get("directory")) {
        inside(doc, sink, "plan.directory", dir);
    }
    for key in map.keys().filter(|k| !KNOWN_KEYS.contains(&k.as_str())) {
        let hint = look_alike(key, KNOWN_KEYS).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
        doc.report(sink, &UNKNOWN_KEY, key, format!("{key}: unknown field{hint}; Gemini CLI ignores it"));
    }
}

fn context_files(doc: Doc<'_>, sink: &mut Sink) {
    let names: Vec<&str> = match doc.get("contextFileName") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => return,
    };
    for name in names {
        if let Some(rel) = inside(doc, sink, "contextFileName", name) {
            if !path_exists(doc.folder, &rel) {
                let message = format!("contextFileName: {name:?} not found in the extension");
                doc.report(sink, &PATH_NOT_FOUND, "contextFileName", message);
            }
        }
    }
}

/// `path` relative to the extension, or `None` (reported) when it is
/// absolute or leaves the extension.
fn inside(doc: Doc<'_>, sink: &mut Sink, field: &str, path: &str) -> Option<String> {
    match relative_path(path) {
        Ok(rel) => Some(rel),
        Err(PathProblem::Absolute) => {
            let message =
                format!("{field}: {path:?} is absolute; Gemini CLI wants a path relative to the extension");
            doc.report(sink, &PATH_NOT_RELATIVE, field, message);
            None
        }
        Err(PathProblem::Escapes) => {
            let message = format!("{field}: {path:?} contains \"..\"; it must stay inside the extension");
            doc.report(sink, &PATH_ESCAPES, field, message);
            None
        }
    }
}

/// `semver.valid`: MAJOR.MINOR.PATCH without leading zeros, optional
/// `-prerelease` and `+build`, an optional leading `v` or `=`.
pub(crate) fn is_semver(version: &str) -> bool {
    let version = version.trim().trim_start_matches(['v', '=']);
    let (core, build) = version.split_once('+').map_or((version, None), |(c, b)| (c, Some(b)));
    let (core, pre) = core.split_once('-').map_or((core, None), |(c, p)| (c, Some(p)));
    let ident_ok = |part: &str| {
        part.split('.').all(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    };
    let numbers: Vec<&str> = core.split('.').collect();
    numbers.len() == 3
        && numbers.iter().all(|n| {
            !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && (n.len() == 1 || !n.starts_with('0'))
        })
        && pre.is_none_or(ident_ok)
        && build.is_none_or(ident_ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver_matches_node_semver_valid() {
        for ok in ["1.0.0", "v1.2.3", "0.7.3-beta.1+build.5", "10.20.30"] {
            assert!(is_semver(ok), "{ok}");
        }
        for bad in ["1", "1.0", "01.0.0", "1.0.0-", "a.b.c", ""] {
            assert!(!is_semver(bad), "{bad}");
        }
    }
}

/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
pub(crate) fn layout(layout: &mut Layout, input: &LayoutInput<'_>) {
    layout.commands = vec!["commands".into()];
    layout.command_format = CommandFormat::Toml;
    layout.agents = vec!["agents".into()];
    layout.hooks.push(HookSource::File("hooks/hooks.json".into()));
    if let Some(servers) = input.field("mcpServers") {
        layout.mcp.push(McpSource::Inline {
            manifest: input.manifest_rel.to_string(),
            key: "mcpServers",
            servers: servers.clone(),
        });
    }
}
