//! `import`: turns a native plugin (Claude Code, Codex, Gemini CLI, Cursor,
//! Agent Plugins) into a canonical plugforge source, and reports everything
//! the source cannot represent instead of dropping it.

mod foreign;
#[cfg(test)]
mod robustness;
#[cfg(test)]
mod round_trip;

use serde::Deserialize;
use serde_json::Value;

use crate::codes::DiagnosticCode;
use crate::draft::Draft;
use crate::draft::common::Regenerated;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::model::ReadSource;
use crate::report::Diagnostic;
use crate::runtime::Runtime;
use crate::source::{SourceTree, is_kebab};

/// Runtimes `import` reads: those whose spec has a reader, in registry order.
pub fn importable() -> Vec<Runtime> {
    Runtime::ALL.iter().copied().filter(|r| r.spec().read.is_some()).collect()
}

/// The version a source gets when the native plugin has none.
const DEFAULT_VERSION: &str = "0.1.0";

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImportOptions {
    /// The runtime the folder is for; `None` detects it from its marker.
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Runtime>", optional = nullable))]
    pub from: Option<String>,
    /// The plugin's name: required for a Claude Code plugin without its
    /// manifest (Claude Code then names it after its folder, which the core
    /// never sees); otherwise it replaces the manifest's name.
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(optional = nullable))]
    pub name: Option<String>,
    /// The plugin folder's own name: what Claude Code names a plugin that
    /// has no manifest, used when neither `name` nor a manifest gives one.
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(optional = nullable))]
    pub folder_name: Option<String>,
}

/// The canonical source and what was left behind.
#[derive(Debug, Clone)]
pub struct Imported {
    pub runtime: Runtime,
    /// Files of the canonical source (with `plugforge.json`).
    pub source: SourceTree,
    /// What the source does not carry as it was, each an `info` with its
    /// location (on the wire: [`ImportNotes`](crate::ImportNotes)).
    pub notes: Vec<Diagnostic>,
}

/// Reads `tree` (a native plugin's root) into a canonical source.
pub fn import(tree: &SourceTree, options: &ImportOptions) -> Result<Imported> {
    let read = read(tree, options)?;
    Ok(Imported { runtime: read.runtime, source: read.source.tree, notes: read.notes })
}

/// A native plugin read by its runtime's reader.
pub(crate) struct Read {
    pub runtime: Runtime,
    pub source: ReadSource,
    pub notes: Vec<Diagnostic>,
}

/// Reads `tree` (a native plugin's root) with its runtime's reader: the
/// canonical source as read, and as `import` writes it.
pub(crate) fn read(tree: &SourceTree, options: &ImportOptions) -> Result<Read> {
    tree.check_limits()?;
    let runtime = match options.from.as_deref() {
        Some(id) => Runtime::parse(id)?,
        None => detect(tree)?,
    };
    let Some(reader) = &runtime.spec().read else {
        let known: Vec<&str> = importable().into_iter().map(Runtime::id).collect();
        return Err(Error::new(
            ErrorCode::UnsupportedRuntime,
            format!("import reads {}, not {}", known.join(", "), runtime.id()),
        ));
    };
    let mut draft = Draft::new(regenerated());
    (reader.read)(tree, &mut draft)?;
    foreign::read(tree, &mut draft, runtime);
    let manifest = Location::file(manifest_file(runtime));
    name(&mut draft, runtime, options, &manifest)?;
    if draft.get("version").is_none() {
        let message = format!(
            "the plugin has no version; the source says {DEFAULT_VERSION}, because Gemini CLI and Codex refuse a plugin without one"
        );
        draft.note(DiagnosticCode::VersionAdded, manifest, message);
        draft.set("version", Value::String(DEFAULT_VERSION.into()));
    }
    if draft.get("description").is_none() {
        let readme = tree.get("README.md").and_then(|f| std::str::from_utf8(&f.bytes).ok());
        if let Some(description) = readme.and_then(|text| crate::source::summary(text, false)) {
            let message = format!(
                "no manifest gives a description; the source says {description:?}, the first paragraph of README.md"
            );
            draft.note(DiagnosticCode::DescriptionFromReadme, Location::file("README.md"), message);
            draft.set("description", Value::String(description));
        }
    }
    let (source, notes) = draft.finish()?;
    Ok(Read { runtime, source, notes })
}

/// The canonical name: the option, else the manifest's, in kebab-case (the
/// one form every runtime accepts).
fn name(draft: &mut Draft, runtime: Runtime, options: &ImportOptions, manifest: &Location) -> Result<()> {
    let native = match options.name.as_deref() {
        Some(name) => name.to_string(),
        None => match draft.get("name").and_then(Value::as_str) {
            Some(name) => name.to_string(),
            None if names_after_folder(runtime) && options.folder_name.is_some() => {
                let folder = options.folder_name.clone().unwrap_or_default();
                let message = format!(
                    "no {}: the plugin is named after its folder {folder:?}, as {} names it",
                    manifest.file,
                    runtime.name()
                );
                draft.note(DiagnosticCode::NameFromFolder, manifest.clone(), message);
                folder
            }
            None if names_after_folder(runtime) => {
                return Err(Error::at(
                    ErrorCode::InvalidSource,
                    manifest.clone(),
                    format!(
                        "a {} plugin without {} is named after its folder, \
                         which import does not see: give the name with --name",
                        runtime.name(),
                        manifest.file
                    ),
                ));
            }
            None => {
                return Err(Error::new(
                    ErrorCode::InvalidSource,
                    "the manifest has no \"name\"; give one with --name",
                ));
            }
        },
    };
    let kebab = kebab_case(&native);
    if kebab.is_empty() {
        return Err(Error::new(
            ErrorCode::InvalidSource,
            format!("plugin name {native:?} has no letter or digit"),
        ));
    }
    if kebab != native {
        let message = format!(
            "name {native:?} is not lowercase kebab-case, which every runtime accepts: the plugin is named {kebab:?}"
        );
        draft.note(DiagnosticCode::NameChanged, manifest.clone(), message);
    }
    draft.set("name", Value::String(kebab));
    Ok(())
}

/// Lowercase letters and digits, every other run of characters one dash.
fn kebab_case(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').chars().take(64).collect::<String>();
    let out = out.trim_end_matches('-').to_string();
    debug_assert!(out.is_empty() || is_kebab(&out));
    out
}

/// The native manifest of `runtime`, where notes on metadata point.
fn manifest_file(runtime: Runtime) -> &'static str {
    runtime.spec().reads.manifest.unwrap_or_default()
}

/// Whether `runtime` names a plugin without a manifest after its folder.
fn names_after_folder(runtime: Runtime) -> bool {
    runtime.spec().read.as_ref().is_some_and(|reader| reader.manifestless_layout.is_some())
}

/// Every runtime's manifest and marketplace, and the folders runtimes keep
/// their manifests in: `build` regenerates them, so readers skip them.
fn regenerated() -> Regenerated {
    let mut regenerated = Regenerated::default();
    for foreign in Runtime::ALL.iter().filter_map(|r| r.spec().foreign.as_ref()) {
        regenerated.files.push(foreign.manifest);
        regenerated.files.extend(foreign.marketplace);
        regenerated.folders.extend(foreign.manifest_folder);
    }
    regenerated
}

/// Whether `tree` is a plugin of a runtime `import` reads: a marker, or
/// Claude Code's default layout.
pub fn is_native(tree: &SourceTree) -> bool {
    detect(tree).is_ok()
}

/// The runtime whose marker `tree` holds; for a folder with no marker, the
/// runtime whose default layout it has (Claude Code's).
fn detect(tree: &SourceTree) -> Result<Runtime> {
    let marked =
        importable().into_iter().find(|r| r.spec().reads.manifest.is_some_and(|m| tree.get(m).is_some()));
    let layout_of = |runtime: &Runtime| {
        let layout = runtime.spec().read.as_ref().and_then(|reader| reader.manifestless_layout);
        layout.is_some_and(|entries| {
            entries.iter().any(|entry| tree.get(entry).is_some() || tree.below(entry).next().is_some())
        })
    };
    let found = marked.or_else(|| importable().into_iter().find(layout_of));
    // A reader may claim a folder the manifests and layouts give to
    // another runtime, or to none (a manifest of its own in another place).
    let claimed = importable().into_iter().find(|r| {
        r.spec().read.as_ref().and_then(|reader| reader.claims).is_some_and(|claims| claims(tree, found))
    });
    claimed.or(found).ok_or_else(|| {
        let markers: Vec<&str> = importable().into_iter().filter_map(|r| r.spec().reads.manifest).collect();
        Error::new(
            ErrorCode::InvalidSource,
            format!("no plugin marker found ({}); name the runtime with --from", markers.join(", ")),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_kebab_case() {
        assert_eq!(kebab_case("My_Plugin.Tools"), "my-plugin-tools");
        assert_eq!(kebab_case("--Loose  Kit--"), "loose-kit");
        assert_eq!(kebab_case("日本"), "");
        assert_eq!(kebab_case(&"a".repeat(70)).len(), 64);
    }

    #[test]
    fn a_manifestless_claude_plugin_needs_a_name() {
        let mut tree = SourceTree::new();
        tree.insert("commands/hi.md", b"Hi\n".to_vec(), false).unwrap();
        let options = ImportOptions { from: Some("claude-code".into()), ..ImportOptions::default() };
        let err = import(&tree, &options).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidSource);
        assert!(err.to_string().contains("--name"), "{err}");
        let named = import(&tree, &ImportOptions { name: Some("hi-kit".into()), ..options }).unwrap();
        assert!(named.source.get("commands/hi.md").is_some());
    }

    #[test]
    fn native_j2_files_keep_their_bytes_through_a_build() {
        let mut tree = SourceTree::new();
        tree.insert(".claude-plugin/plugin.json", br#"{"name": "kit", "version": "1.0.0"}"#.to_vec(), false)
            .unwrap();
        let page = "<p>{{ user }}</p>\n{% if x %}\n";
        tree.insert("assets/page.html.j2", page.as_bytes().to_vec(), false).unwrap();
        let imported = import(&tree, &ImportOptions::default()).unwrap();
        assert!(imported.source.get("assets/page.html.j2.j2").is_some());
        let options = crate::BuildOptions {
            targets: vec![crate::TargetRequest::new("claude-code")],
            ..Default::default()
        };
        let output = crate::build(&imported.source, &options).unwrap();
        let file =
            output.bundles[0].files.get(&crate::BundlePath::new("assets/page.html.j2").unwrap()).unwrap();
        assert_eq!(std::str::from_utf8(&file.bytes).unwrap(), page);
    }

    /// A build loads what the reader read: the text `import` writes is
    /// never parsed again, so text that does not parse changes nothing.
    #[test]
    fn a_native_plugin_loads_from_what_its_reader_read_not_from_its_text() {
        use crate::model::{LoadOptions, Source, load_plugin};
        let mut tree = SourceTree::new();
        let manifest = r#"{"name": "kit", "version": "1.0.0",
            "commands": {"hi": {"content": "Say hi.", "description": "Greets"}},
            "hooks": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo ${CLAUDE_PLUGIN_ROOT}"}]}]}}}"#;
        tree.insert(".claude-plugin/plugin.json", manifest.as_bytes().to_vec(), false).unwrap();
        let mut read = read(&tree, &ImportOptions::default()).unwrap().source;
        let vars = std::collections::BTreeMap::new();
        let options = LoadOptions { vars: &vars, namespace: None, builtins: Vec::new() };
        let (from_text, _) = load_plugin(Source::Written(&read.tree), &options).unwrap();
        let broken: std::sync::Arc<[u8]> = b"{ not JSON
---
: ["
        .to_vec()
        .into();
        for path in ["plugforge.json", "hooks/hooks.json"] {
            read.tree.insert(path, broken.clone(), false).unwrap();
        }
        for path in ["hooks/hooks.json", "commands/hi.md"] {
            let file = read.files.get_mut(&crate::path::BundlePath::new(path).unwrap()).unwrap();
            file.bytes = broken.clone();
        }
        let (as_read, _) = load_plugin(Source::Read(&read), &options).unwrap();
        assert_eq!(as_read.config.name, "kit");
        assert_eq!(as_read.hooks.as_ref().map(|h| &h.value), from_text.hooks.as_ref().map(|h| &h.value));
        assert!(from_text.hooks.is_some());
        let command = |plugin: &crate::model::Plugin| plugin.commands[0].document.frontmatter.clone();
        assert_eq!(command(&as_read), command(&from_text));
        assert_eq!(command(&as_read).unwrap()["description"], "Greets");
    }

    #[test]
    fn runtimes_import_does_not_read_are_refused() {
        let err = import(
            &SourceTree::new(),
            &ImportOptions { from: Some("opencode".into()), ..ImportOptions::default() },
        )
        .unwrap_err();
        assert_eq!(err.code, ErrorCode::UnsupportedRuntime);
        let err = import(&SourceTree::new(), &ImportOptions::default()).unwrap_err();
        assert!(err.to_string().contains("--from"), "{err}");
    }
}
