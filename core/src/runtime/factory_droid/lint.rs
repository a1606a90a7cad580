//! Factory Droid's plugin manifest and layout, as `validate` judges them.
//! Droid itself checks nothing at install (facts.rs, [`facts::MANIFEST_PATH`]),
//! so these rules say what its documentation asks for and where its loader
//! looks.

use super::facts;
use crate::registry::Runtime;
use crate::lint::doc::{Doc, Shape, look_alike, read_object};
use crate::lint::layout::{HookSource, Layout, LayoutInput, McpSource};
use crate::lint::manifest_rules::*;
use crate::lint::{Cx, Sink};

const MANIFEST: &str = facts::MANIFEST_PATH;

/// Whether `name` is what the documentation asks for: lowercase letters,
/// digits and hyphens.
pub(crate) fn valid_plugin_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

pub(crate) fn check_manifest(cx: &Cx<'_>, sink: &mut Sink) {
    let Some(object) = read_object(cx.folder, MANIFEST, Runtime::FactoryDroid, sink) else { return };
    let doc = Doc::new(cx.folder, MANIFEST, Runtime::FactoryDroid, &object);
    match doc.get("name") {
        None => {
            let message = "name: missing; Factory Droid installs the plugin anyway, under the marketplace entry's name";
            doc.report(sink, &REQUIRED_FIELD_MISSING, "", message);
        }
        Some(_) => {
            if let Some(name) = doc.str_field(sink, "name") {
                if !valid_plugin_name(name) {
                    let message =
                        format!("name: {name:?} should hold only lowercase letters, digits and hyphens, as Factory Droid's documentation asks (Droid itself installs it anyway)");
                    doc.report(sink, &NAME_NOT_KEBAB, "name", message);
                }
            }
        }
    }
    if doc.get("version").is_none() {
        let message = "version: missing; Factory Droid's documentation asks for one (it lists the plugin by a content hash)";
        doc.report(sink, &RECOMMENDED_FIELD_MISSING, "", message);
    }
    doc.expect_fields(
        sink,
        &[
            ("version", Shape::Str),
            ("description", Shape::Str),
            ("author", Shape::Object),
            ("homepage", Shape::Str),
            ("repository", Shape::StrOrObject),
            ("license", Shape::Str),
            ("keywords", Shape::StrList),
        ],
    );
    for key in object.keys() {
        if facts::MANIFEST_KEYS.contains(&key.as_str()) {
            continue;
        }
        let hint = look_alike(key, &facts::MANIFEST_KEYS).map_or(String::new(), |k| format!(" (did you mean {k}?)"));
        let message = format!(
            "{key}: unknown field{hint}; Factory Droid reads components from its fixed folders and ignores the rest of the manifest"
        );
        doc.report(sink, &UNKNOWN_KEY, key, message);
    }
}

/// Where Droid looks: fixed folders only, the manifest names none.
pub(crate) fn layout(layout: &mut Layout, input: &LayoutInput<'_>) {
    layout.commands = vec![facts::COMMANDS_DIR.into()];
    layout.agents = vec![facts::DROIDS_DIR.into()];
    let hooks = if input.folder.exists(facts::HOOKS_FILE) || !input.folder.exists(facts::ROOT_HOOKS_FILE) {
        facts::HOOKS_FILE
    } else {
        facts::ROOT_HOOKS_FILE
    };
    layout.hooks.push(HookSource::File(hooks.into()));
    layout.mcp.push(McpSource::File(facts::MCP_FILE.into()));
}
