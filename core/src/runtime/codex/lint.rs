//! Codex's plugin manifest ([`MANIFEST`]), as its runtime parser
//! (`codex-rs/core-plugins/src/manifest.rs`, 0.171) reads it: wrong types
//! fail the manifest, unknown keys and unusable paths are ignored with a
//! warning.

use crate::lint::layout::{HookSource, Layout, LayoutInput, McpSource, SkillDepth, hook_sources, mcp_sources, paths as declared_paths};
use serde_json::Value;

use crate::lint::doc::{Doc, Shape, describe, look_alike, read_object, relative_path};
use crate::lint::manifest_rules::*;
use crate::lint::{Rule, RuleSeverity};
use crate::lint::Sink;
use crate::lint::{Cx, Folder};
use crate::codes::RuleCode;
use crate::registry::RuntimeRule;

pub(super) const MANIFEST: &str = super::facts::MANIFEST_PATH;

/// Codex 0.171 falls back to the other runtimes' manifests, in this order.
pub(super) const MANIFEST_FALLBACKS: &[&str] = &[
    crate::runtime::claude_code::facts::MANIFEST_PATH,
    crate::runtime::cursor::facts::MANIFEST_PATH,
    crate::runtime::agent_plugins::facts::MANIFEST_PATH,
];

const MANIFEST_CANDIDATES: [&str; 4] = [MANIFEST, MANIFEST_FALLBACKS[0], MANIFEST_FALLBACKS[1], MANIFEST_FALLBACKS[2]];

/// The runtime's fields plus the authoring validator's (`validate_plugin.py`).
const KNOWN_KEYS: &[&str] = &[
    "id",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "skills",
    "mcpServers",
    "apps",
    "hooks",
    "interface",
];
const INTERFACE_STRINGS: &[&str] = &[
    "displayName",
    "shortDescription",
    "longDescription",
    "developerName",
    "category",
    "websiteURL",
    "privacyPolicyURL",
    "termsOfServiceURL",
    "websiteUrl",
    "privacyPolicyUrl",
    "termsOfServiceUrl",
    "brandColor",
    "composerIcon",
    "logo",
    "logoDark",
];
const INTERFACE_LISTS: &[&str] = &["capabilities", "screenshots"];
/// Codex keeps at most this many default prompts, each at most this long.
const MAX_DEFAULT_PROMPTS: usize = 3;
const MAX_DEFAULT_PROMPT_CHARS: usize = 128;

/// The manifest Codex reads in `folder`: its own, else the first of the
/// other runtimes' it falls back to.
pub const EXTRA_FILE_IN_MANIFEST_FOLDER: Rule = Rule {
    code: RuleCode::Runtime(RuntimeRule::ExtraFileInManifestFolder),
    severity: RuleSeverity::Warning,
    runtimes: &["codex"],
    summary: concat!(
        "Only plugin.json goes inside ",
        super::facts::manifest_dir!(),
        "/; components live at the plugin root."
    ),
    fix: concat!("Move the file to the plugin root (e.g. ", super::facts::manifest_dir!(), "/skills -> skills)."),
};

/// Codex's own manifest rules.
pub(crate) const RULES: &[&Rule] = &[&EXTRA_FILE_IN_MANIFEST_FOLDER];

pub(crate) fn manifest_file(folder: Folder<'_>) -> &'static str {
    MANIFEST_CANDIDATES.iter().copied().find(|m| folder.exists(m)).unwrap_or(MANIFEST)
}

pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    extra_files(cx, sink);
    let manifest = manifest_file(cx.folder);
    if manifest == MANIFEST {
        return judge(cx, manifest, sink);
    }
    // Codex parses the other manifest as its own: its rules, under its name.
    let mut read = Sink::default();
    judge(cx, manifest, &mut read);
    read.forward(
        sink,
        crate::registry::Runtime::Codex,
        Some(&format!("Codex reads {manifest} when there is no {MANIFEST}")),
    );
}

fn judge(cx: &Cx<'_>, manifest: &str, sink: &mut Sink) {
    let Some(object) = read_object(cx.folder, manifest, crate::registry::Runtime::Codex, sink) else { return };
    let map = &object;
    let doc = Doc::new(cx.folder, manifest, crate::registry::Runtime::Codex, map);
    name(doc, sink);
    version(doc, sink);
    doc.expect_fields(
        sink,
        &[
            ("id", Shape::Str),
            ("description", Shape::Str),
            ("author", Shape::Object),
            ("homepage", Shape::Str),
            ("repository", Shape::Str),
            ("license", Shape::Str),
            ("keywords", Shape::StrList),
            ("skills", Shape::StrOrStrList),
            ("mcpServers", Shape::StrOrObject),
            ("apps", Shape::Str),
            ("interface", Shape::Object),
        ],
    );
    paths(doc, sink);
    interface(doc, sink);
    for key in map.keys().filter(|k| !KNOWN_KEYS.contains(&k.as_str())) {
        let hint = look_alike(key, KNOWN_KEYS).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
        doc.report(sink, &UNKNOWN_KEY, key, format!("{key}: unknown field{hint}; Codex ignores it"));
    }
}

/// Files in Codex's manifest folder other than plugin.json: Codex looks for
/// components at the plugin root only.
fn extra_files(cx: &Cx<'_>, sink: &mut Sink) {
    let mut reported: Vec<String> = Vec::new();
    let folder = super::facts::MANIFEST_DIR;
    for (path, _) in cx.folder.below(folder) {
        let inside = &path[folder.len() + 1..];
        let entry = inside.split('/').next().unwrap_or(inside);
        if entry == "plugin.json" || reported.last().is_some_and(|last| last == entry) {
            continue;
        }
        let message = format!(
            "{folder}/{entry}: only plugin.json belongs in {folder}/; Codex does not look here for components"
        );
        sink.report(
            &EXTRA_FILE_IN_MANIFEST_FOLDER,
            Some(crate::registry::Runtime::Codex),
            Some(cx.folder.at(&path)),
            message,
        );
        reported.push(entry.to_string());
    }
}

fn name(doc: Doc<'_>, sink: &mut Sink) {
    let allowed = |name: &str| name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    match doc.get("name") {
        Some(Value::String(name)) if !name.trim().is_empty() => {
            if !allowed(name.trim()) {
                let message = format!(
                    "name: {name:?} has characters outside [A-Za-z0-9._-]; codex plugin add refuses it"
                );
                doc.report(sink, &NAME_INVALID, "name", message);
            }
        }
        None | Some(Value::String(_)) => {
            let message = "name: not set; Codex falls back to the install folder's name, so the skills are namespaced by it";
            doc.report(sink, &RECOMMENDED_FIELD_MISSING, "name", message);
        }
        Some(other) => {
            doc.expect(sink, "name", other, Shape::Str);
        }
    }
}

fn version(doc: Doc<'_>, sink: &mut Sink) {
    let problem = match doc.get("version") {
        None => return,
        Some(Value::String(v)) if v.trim().is_empty() => format!("{v:?} is blank"),
        Some(Value::String(_)) => return,
        Some(other) => format!("expected a string, found {}", describe(other)),
    };
    let message = format!("version: {problem}; Codex fails with \"invalid plugin version in plugin.json\"");
    doc.report(sink, &VERSION_INVALID, "version", message);
}

/// Path fields: Codex ignores (with a log warning) a path that does not
/// start with `./`, is `./` alone, or leaves the plugin.
fn paths(doc: Doc<'_>, sink: &mut Sink) {
    for key in ["skills", "mcpServers", "apps", "hooks"] {
        let entries: Vec<&str> = match doc.get(key) {
            Some(Value::String(path)) => vec![path.as_str()],
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
            _ => continue,
        };
        for path in entries {
            if relative_path(path).is_err() {
                let message = format!("{key}: {path:?} leaves the plugin folder (\"..\" or an absolute path)");
                doc.report(sink, &PATH_ESCAPES, key, message);
                continue;
            }
            let usable = path.starts_with("./") && relative_path(path).is_ok_and(|rel| !rel.is_empty());
            if !usable {
                let message = format!(
                    "{key}: {path:?} is ignored by Codex; paths start with ./, name something below the plugin root and contain no .."
                );
                doc.report(sink, &VALUE_IGNORED, key, message);
            }
        }
    }
    if let Some(hooks) = doc.get("hooks") {
        let ok = match hooks {
            Value::Array(items) => items.iter().all(|i| i.is_string() || i.is_object()),
            other => other.is_string() || other.is_object(),
        };
        if !ok {
            let message = format!(
                "hooks: expected a ./ path, a hooks object or an array of them, found {}",
                describe(hooks)
            );
            doc.report(sink, &INVALID_FIELD, "hooks", message);
        }
    }
}

fn interface(doc: Doc<'_>, sink: &mut Sink) {
    let Some(Value::Object(interface)) = doc.get("interface") else { return };
    for (key, value) in interface {
        let field = format!("interface.{key}");
        if INTERFACE_STRINGS.contains(&key.as_str()) {
            doc.expect(sink, &field, value, Shape::Str);
            interface_asset(doc, sink, &field, key, value);
        } else if key == "screenshots" {
            doc.expect(sink, &field, value, Shape::StrList);
            for item in value.as_array().into_iter().flatten() {
                interface_asset(doc, sink, &field, key, item);
            }
        } else if INTERFACE_LISTS.contains(&key.as_str()) {
            doc.expect(sink, &field, value, Shape::StrList);
        } else if key == "defaultPrompt" {
            default_prompt(doc, sink, value);
        } else {
            let known: Vec<&str> =
                INTERFACE_STRINGS.iter().chain(INTERFACE_LISTS).copied().chain(["defaultPrompt"]).collect();
            let hint = look_alike(key, &known).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
            doc.report(
                sink,
                &UNKNOWN_KEY,
                "interface",
                format!("{field}: unknown field{hint}; Codex ignores it"),
            );
        }
    }
}

/// The images the interface names (`logo`, `logoDark`, `composerIcon`,
/// `screenshots`) are files of the plugin: a `..` or absolute path would
/// have Codex show a file from elsewhere.
fn interface_asset(doc: Doc<'_>, sink: &mut Sink, field: &str, key: &str, value: &Value) {
    let Some(path) = value.as_str().filter(|_| INTERFACE_ASSETS.contains(&key)) else { return };
    if !path.contains("://") && relative_path(path).is_err() {
        let message = format!("{field}: {path:?} leaves the plugin folder (\"..\" or an absolute path)");
        doc.report(sink, &PATH_ESCAPES, "interface", message);
    }
}

/// The interface fields that name a file of the plugin.
const INTERFACE_ASSETS: &[&str] = &["composerIcon", "logo", "logoDark", "screenshots"];

fn default_prompt(doc: Doc<'_>, sink: &mut Sink, value: &Value) {
    if !doc.expect(sink, "interface.defaultPrompt", value, Shape::StrOrStrList) {
        return;
    }
    let prompts: Vec<&str> = match value {
        Value::String(prompt) => vec![prompt.as_str()],
        other => other.as_array().into_iter().flatten().filter_map(Value::as_str).collect(),
    };
    if prompts.len() > MAX_DEFAULT_PROMPTS {
        let message = format!(
            "interface.defaultPrompt: {} prompts; Codex keeps the first {MAX_DEFAULT_PROMPTS} and drops the rest",
            prompts.len()
        );
        doc.report(sink, &VALUE_IGNORED, "interface", message);
    }
    for (i, prompt) in prompts.iter().enumerate().take(MAX_DEFAULT_PROMPTS) {
        let collapsed = prompt.split_whitespace().collect::<Vec<_>>().join(" ");
        let chars = collapsed.chars().count();
        if chars > MAX_DEFAULT_PROMPT_CHARS {
            let message = format!(
                "interface.defaultPrompt[{i}]: {chars} characters; Codex drops prompts longer than {MAX_DEFAULT_PROMPT_CHARS}"
            );
            doc.report(sink, &VALUE_IGNORED, "interface", message);
        }
    }
}

/// Where the runtime looks for a plugin's components: its default folders,
/// plus what the manifest declares.
pub(crate) fn layout(layout: &mut Layout, input: &LayoutInput<'_>) {
    layout.skill_dirs.extend(input.field("skills").map(declared_paths).unwrap_or_default());
    layout.skill_depth = SkillDepth::Recursive;
    layout.commands = vec!["commands".into()];
    layout.hooks = input.field("hooks").map_or_else(
        || vec![HookSource::File("hooks/hooks.json".into())],
        |v| hook_sources(v, input.manifest_rel),
    );
    layout.mcp = input.field("mcpServers").map_or_else(
        || vec![McpSource::File(".mcp.json".into())],
        |v| mcp_sources(v, input.manifest_rel),
    );
    // Codex 0.171 reads a root Agent Plugins manifest before
    // its own manifest folder: skills one level deep and the spec mcp.json
    // (judged as the Agent Plugins subject), no hooks, no commands
    // (docs/runtimes/universal.md).
    let spec = input.folder.json("plugin.json", &mut Sink::default());
    let schema = spec.as_ref().and_then(|m| m.get("$schema")).and_then(Value::as_str);
    if schema.is_some_and(|s| s.starts_with("https://agent-plugins.org/schemas/")) {
        layout.skill_depth = SkillDepth::OneLevel;
        layout.commands.clear();
        layout.hooks.clear();
        layout.mcp.clear();
    }
}
