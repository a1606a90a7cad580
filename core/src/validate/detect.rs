//! Which runtimes a folder is for, read from its marker files: the folder
//! itself, its marketplaces' local plugins, and folders one level down (an
//! output root holding one bundle per runtime).

use std::collections::BTreeSet;

use serde::{Serialize, Serializer};

use super::catalog::{Rule, RuleSeverity};
use super::findings::Sink;
use super::folder::Folder;
use crate::runtime::Runtime;
use crate::source::SourceTree;

pub const NO_PLUGIN: Rule = Rule {
    code: "detect/no-plugin",
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "The folder holds a plugforge source, a plugin or a marketplace of a known runtime.",
    fix: "Point validate at the plugin's root folder, or name the runtime with --target.",
};

pub const RULES: &[&Rule] = &[&NO_PLUGIN];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SubjectKind {
    /// A plugforge source (`plugforge.json`).
    Source,
    Marketplace,
    Plugin,
}

/// One thing `validate` judges.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subject {
    pub kind: SubjectKind,
    /// `None` for a source judged for every runtime it targets.
    #[serde(serialize_with = "runtime_id")]
    pub runtime: Option<Runtime>,
    /// Folder relative to the validated folder ("" = itself).
    pub root: String,
    /// The file that identified it, or `--target` when named by the user.
    pub marker: String,
}

fn runtime_id<S: Serializer>(runtime: &Option<Runtime>, s: S) -> Result<S::Ok, S::Error> {
    match runtime {
        Some(r) => s.serialize_some(r.id()),
        None => s.serialize_none(),
    }
}

/// Marker file (relative to a folder) -> what it makes the folder, in the
/// order runtimes themselves try them.
const MARKERS: &[(&str, SubjectKind, Runtime)] = &[
    (".claude-plugin/marketplace.json", SubjectKind::Marketplace, Runtime::ClaudeCode),
    (".agents/plugins/marketplace.json", SubjectKind::Marketplace, Runtime::Codex),
    (".cursor-plugin/marketplace.json", SubjectKind::Marketplace, Runtime::Cursor),
    (".claude-plugin/plugin.json", SubjectKind::Plugin, Runtime::ClaudeCode),
    (".codex-plugin/plugin.json", SubjectKind::Plugin, Runtime::Codex),
    ("gemini-extension.json", SubjectKind::Plugin, Runtime::Gemini),
    (".cursor-plugin/plugin.json", SubjectKind::Plugin, Runtime::Cursor),
    ("plugin.json", SubjectKind::Plugin, Runtime::AgentPlugins),
    ("openclaw.plugin.json", SubjectKind::Plugin, Runtime::OpenClaw),
    ("plugin.yaml", SubjectKind::Plugin, Runtime::Hermes),
    ("opencode.json", SubjectKind::Plugin, Runtime::OpenCode),
];

const SOURCE_MARKERS: &[&str] = &["plugforge.json", "plugforge.json.j2"];

/// Every subject of `tree`, restricted to `target` when given. With nothing
/// to judge, reports `detect/no-plugin`.
pub(crate) fn subjects(tree: &SourceTree, target: Option<Runtime>, sink: &mut Sink) -> Vec<Subject> {
    let mut found = Vec::new();
    let root = Folder::new(tree, "");
    if let Some(marker) = SOURCE_MARKERS.iter().find(|m| root.exists(m)) {
        found.push(Subject {
            kind: SubjectKind::Source,
            runtime: target,
            root: String::new(),
            marker: marker.to_string(),
        });
    } else {
        found.extend(markers_of(root, target));
        for dir in first_level_dirs(tree) {
            found.extend(
                markers_of(Folder::new(tree, &dir), target).filter(|s| s.kind == SubjectKind::Plugin),
            );
        }
        let marketplaces: Vec<Subject> =
            found.iter().filter(|s| s.kind == SubjectKind::Marketplace).cloned().collect();
        for marketplace in &marketplaces {
            for plugin_root in super::marketplace::local_plugin_roots(tree, marketplace) {
                found.extend(markers_of(Folder::new(tree, &plugin_root), marketplace.runtime));
            }
        }
        if let Some(runtime) = target {
            let has_plugin = found.iter().any(|s| s.kind == SubjectKind::Plugin && s.root.is_empty());
            if !has_plugin && found.is_empty() {
                found.push(Subject {
                    kind: SubjectKind::Plugin,
                    runtime: Some(runtime),
                    root: String::new(),
                    marker: "--target".into(),
                });
            }
        }
    }
    let mut seen = BTreeSet::new();
    found.retain(|s| seen.insert((s.root.clone(), s.kind, s.runtime)));
    found.sort_by(|a, b| {
        (&a.root, a.kind, a.runtime.map(Runtime::id)).cmp(&(&b.root, b.kind, b.runtime.map(Runtime::id)))
    });
    if found.is_empty() {
        let markers: Vec<&str> = MARKERS.iter().map(|(m, _, _)| *m).collect();
        sink.report(
            &NO_PLUGIN,
            None,
            None,
            format!("no plugforge.json and no runtime marker ({}) in the folder", markers.join(", ")),
        );
    }
    found
}

/// The subjects whose markers `folder` holds, for `target` only when given.
fn markers_of(folder: Folder<'_>, target: Option<Runtime>) -> impl Iterator<Item = Subject> + '_ {
    MARKERS
        .iter()
        .filter(move |(marker, _, runtime)| folder.exists(marker) && target.is_none_or(|t| t == *runtime))
        .map(move |(marker, kind, runtime)| Subject {
            kind: *kind,
            runtime: Some(*runtime),
            root: folder.root().to_string(),
            marker: folder.full(marker),
        })
}

/// Names of the folders directly below the root, skipping hidden ones.
fn first_level_dirs(tree: &SourceTree) -> Vec<String> {
    let mut dirs: Vec<String> = Vec::new();
    for (path, _) in tree.iter() {
        if let Some((dir, _)) = path.as_str().split_once('/') {
            if !dir.starts_with('.') && dirs.last().is_none_or(|last| last != dir) {
                dirs.push(dir.to_string());
            }
        }
    }
    dirs.dedup();
    dirs
}
