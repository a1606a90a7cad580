//! Which runtimes a folder is for, read from its marker files: the folder
//! itself, its marketplaces' local plugins, and folders one level down (an
//! output root holding one bundle per runtime).

use std::collections::BTreeSet;

use serde::Serialize;

use crate::codes::{RuleCode, SharedRule};
use crate::lint::Folder;
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use crate::runtime::Runtime;
use crate::source::SourceTree;

pub const NO_PLUGIN: Rule = Rule {
    code: RuleCode::Shared(SharedRule::DetectNoPlugin),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "The folder holds a plugforge source, a plugin or a marketplace of a known runtime, or a folder of Agent Skills (`skills/<name>/SKILL.md`, `<name>/SKILL.md`).",
    fix: "Point validate at the plugin's root folder, or name the runtime with --target.",
};

pub const RULES: &[&Rule] = &[&NO_PLUGIN];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SubjectKind {
    /// A plugforge source (`plugforge.json`).
    Source,
    Marketplace,
    Plugin,
    /// A folder of Agent Skills with no plugin manifest (what `npx skills
    /// add` installs from): `skills/<name>/SKILL.md`, `<name>/SKILL.md`, or
    /// one `SKILL.md` at the root.
    Skills,
}

impl SubjectKind {
    /// The kind as the report spells it.
    pub fn id(self) -> &'static str {
        match self {
            SubjectKind::Source => "source",
            SubjectKind::Marketplace => "marketplace",
            SubjectKind::Plugin => "plugin",
            SubjectKind::Skills => "skills",
        }
    }
}

/// One thing `validate` judges.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Subject {
    pub kind: SubjectKind,
    /// `None` for a source judged for every runtime it targets.
    pub runtime: Option<Runtime>,
    /// Folder relative to the validated folder ("" = itself).
    pub root: String,
    /// The file that identified it, or `--target` when named by the user.
    pub marker: String,
}

impl Subject {
    /// Who judges the subject, in words: its runtime, or the clients a
    /// runtime-less subject is for.
    pub fn judged_for(&self) -> &'static str {
        match (self.runtime, self.kind) {
            (Some(runtime), _) => runtime.id(),
            (None, SubjectKind::Skills) => "Agent Skills clients",
            (None, _) => "every targeted runtime",
        }
    }
}

/// Marker file (relative to a folder) -> what it makes the folder, for
/// whom: marketplaces first, then plugin markers, each in registry order.
/// Runtimes sharing a plugin marker are told apart by
/// [`Reads::claims_shared_marker`](crate::runtime::Reads).
fn markers() -> Vec<(&'static str, SubjectKind, Runtime)> {
    let marketplaces = Runtime::ALL
        .iter()
        .filter_map(|r| Some((r.spec().marketplace.as_ref()?.file, SubjectKind::Marketplace, *r)));
    let mut plugins: Vec<(&'static str, SubjectKind, Runtime)> = Vec::new();
    for runtime in Runtime::ALL {
        let Some(marker) = runtime.spec().reads.marker else { continue };
        if !plugins.iter().any(|(m, _, _)| *m == marker) {
            plugins.push((marker, SubjectKind::Plugin, *runtime));
        }
    }
    marketplaces.chain(plugins).collect()
}

const SOURCE_MARKERS: &[&str] = &["plugforge.json", "plugforge.json.j2"];

/// The runtime whose bundle format `subject` is in, when that is not its
/// own runtime's (OpenClaw judging a Claude Code bundle).
pub(crate) fn loaded_format(subject: &Subject) -> Option<Runtime> {
    let runtime = subject.runtime?;
    let marker = subject
        .marker
        .strip_prefix(&subject.root)
        .map_or(subject.marker.as_str(), |m| m.strip_prefix('/').unwrap_or(m));
    let reads = &runtime.spec().reads;
    let loaded = reads.loads_formats.iter().copied().find(|f| f.spec().reads.marker == Some(marker));
    let manifestless = reads.loads_manifestless.filter(|m| m.markers.contains(&marker)).map(|m| m.as_format);
    loaded.or(manifestless)
}

/// The bundle of another runtime's format that `runtime` loads from
/// `folder`, if any: the manifest it reads as its own, or a bundle it loads
/// by that format's rules.
fn loaded_bundle(folder: Folder<'_>, runtime: Runtime) -> Option<Subject> {
    let subject = |marker: &str| Subject {
        kind: SubjectKind::Plugin,
        runtime: Some(runtime),
        root: folder.root().to_string(),
        marker: folder.full(marker),
    };
    // Codex reads the Claude Code, Cursor or Agent Plugins manifest as its own.
    let own = runtime.spec().reads.manifest_fallbacks.iter().find(|m| folder.exists(m));
    if let Some(marker) = own {
        return Some(subject(marker));
    }
    let reads = &runtime.spec().reads;
    let formats = reads.loads_formats.iter().filter_map(|f| f.spec().reads.marker);
    if let Some(marker) = formats.clone().find(|m| folder.exists(m)) {
        return Some(subject(marker));
    }
    let manifestless = reads.loads_manifestless?;
    manifestless.markers.iter().find(|m| folder.exists(m) || folder.has_dir(m)).map(|m| subject(m))
}

/// The skill folders of a folder with no plugin marker, where `npx skills
/// add` looks: `skills/<name>/SKILL.md`, then `<name>/SKILL.md`, then a
/// single `SKILL.md` at the root. Returns the first `SKILL.md` found.
fn skills_marker(folder: Folder<'_>) -> Option<String> {
    let in_dir = |dir: &str| {
        folder.below(dir).map(|(rel, _)| rel).find(|rel| {
            let inner = if dir.is_empty() { rel.as_str() } else { &rel[dir.len() + 1..] };
            inner.split_once('/').is_some_and(|(name, rest)| !name.starts_with('.') && rest == "SKILL.md")
        })
    };
    in_dir("skills").or_else(|| in_dir("")).or_else(|| folder.exists("SKILL.md").then(|| "SKILL.md".into()))
}

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
        if found.is_empty() {
            match target {
                Some(runtime) => found.push(loaded_bundle(root, runtime).unwrap_or_else(|| Subject {
                    kind: SubjectKind::Plugin,
                    runtime: Some(runtime),
                    root: String::new(),
                    marker: "--target".into(),
                })),
                None => found.extend(skills_marker(root).map(|marker| Subject {
                    kind: SubjectKind::Skills,
                    runtime: None,
                    root: String::new(),
                    marker,
                })),
            }
        }
    }
    let mut seen = BTreeSet::new();
    found.retain(|s| seen.insert((s.root.clone(), s.kind, s.runtime)));
    found.sort_by(|a, b| {
        (&a.root, a.kind, a.runtime.map(Runtime::id)).cmp(&(&b.root, b.kind, b.runtime.map(Runtime::id)))
    });
    if found.is_empty() {
        // Each file once, marketplaces first, in registry order.
        let mut listed: Vec<&str> = Vec::new();
        for (marker, _, _) in markers() {
            if !listed.contains(&marker) {
                listed.push(marker);
            }
        }
        sink.report(
            &NO_PLUGIN,
            None,
            None,
            format!(
                "no plugforge.json, no runtime marker ({}) and no skills/<name>/SKILL.md in the folder",
                listed.join(", ")
            ),
        );
    }
    found
}

/// The subjects whose markers `folder` holds, for `target` only when given.
fn markers_of(folder: Folder<'_>, target: Option<Runtime>) -> impl Iterator<Item = Subject> + '_ {
    markers()
        .into_iter()
        .filter(move |(marker, _, _)| folder.exists(marker))
        .map(move |(marker, kind, runtime)| (marker, kind, shared_marker_runtime(folder, marker, runtime)))
        .filter(move |(_, _, runtime)| target.is_none_or(|t| t == *runtime))
        .map(move |(marker, kind, runtime)| Subject {
            kind,
            runtime: Some(runtime),
            root: folder.root().to_string(),
            marker: folder.full(marker),
        })
}

/// The runtime a plugin marker several runtimes share is for: the first
/// whose spec claims the folder (Antigravity: a root `plugin.json` beside
/// its own files), else the first listed.
fn shared_marker_runtime(folder: Folder<'_>, marker: &str, first: Runtime) -> Runtime {
    let sharing = Runtime::ALL.iter().filter(|r| r.spec().reads.marker == Some(marker));
    let claimed = sharing
        .filter_map(|r| Some((*r, r.spec().reads.claims_shared_marker?)))
        .find(|(_, claims)| claims(folder));
    claimed.map_or(first, |(runtime, _)| runtime)
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

#[cfg(test)]
mod tests {
    use super::super::components::test_support::findings;
    use crate::runtime::Runtime;
    use crate::source::SourceTree;
    use crate::validate::{SubjectKind, ValidateOptions, validate};

    fn report(files: &[(&str, &str)], target: Option<&str>) -> crate::validate::ValidationReport {
        let mut tree = SourceTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        validate(&tree, &ValidateOptions { target: target.map(str::to_string), strict: false }).unwrap()
    }

    const SKILL: &str = "---\nname: hello\ndescription: Hi.\n---\nHi\n";

    #[test]
    fn openclaw_judges_a_claude_bundle_by_claude_rules_under_its_own_name() {
        let broken =
            [(".claude-plugin/plugin.json", "{\"name\": \"p\",\n"), ("skills/hello/SKILL.md", SKILL)];
        let judged = report(&broken, Some("openclaw"));
        assert_eq!(judged.subjects[0].marker, ".claude-plugin/plugin.json");
        let found: Vec<(&str, Option<&str>)> =
            judged.findings.iter().map(|f| (f.code.as_str(), f.runtime.map(|r| r.id()))).collect();
        assert_eq!(found, [("file/invalid-json", Some("openclaw"))]);
        assert!(judged.findings[0].message.ends_with("(OpenClaw loads the folder as a Claude Code bundle)"));
        // OpenClaw installs a manifest that is JSON5 but not JSON, then fails to parse it when loading.
        let trailing =
            [(".claude-plugin/plugin.json", "{\"name\": \"p\",}"), ("skills/hello/SKILL.md", SKILL)];
        assert!(!report(&trailing, Some("openclaw")).valid);
    }

    #[test]
    fn openclaw_finds_nested_skills_and_judges_them_as_its_own() {
        let files =
            [(".claude-plugin/plugin.json", r#"{"name": "p"}"#), ("skills/group/hello/SKILL.md", SKILL)];
        assert_eq!(findings(&files, None)[0].0, "skill/nested-too-deep");
        assert!(findings(&files, Some("openclaw")).is_empty());
        let misnamed = [files[0], ("skills/group/other/SKILL.md", SKILL)];
        let names: Vec<String> = findings(&misnamed, Some("openclaw")).into_iter().map(|f| f.0).collect();
        assert_eq!(names, ["skill/name-not-folder"]);
    }

    #[test]
    fn openclaw_loads_codex_bundles_and_manifestless_claude_layouts() {
        let codex = report(&[(".codex-plugin/plugin.json", "[]")], Some("openclaw"));
        assert_eq!(codex.findings[0].code, "manifest/not-an-object");
        assert_eq!(codex.findings[0].runtime.map(|r| r.id()), Some("openclaw"));
        let bare = report(&[("skills/hello/SKILL.md", "---\nname: hello\n---\nHi\n")], Some("openclaw"));
        assert_eq!(bare.subjects[0].marker, "skills");
        assert_eq!(bare.findings[0].code, "skill/missing-required-field");
        let nothing = report(&[("notes.txt", "x")], Some("openclaw"));
        assert_eq!(nothing.subjects[0].marker, "--target");
    }

    #[test]
    fn codex_judges_the_claude_manifest_it_falls_back_to_by_its_own_rules() {
        let broken =
            [(".claude-plugin/plugin.json", "{\"name\": \"p\",\n"), ("skills/hello/SKILL.md", SKILL)];
        let judged = report(&broken, Some("codex"));
        assert_eq!(judged.subjects[0].marker, ".claude-plugin/plugin.json");
        let found: Vec<(&str, Option<&str>)> =
            judged.findings.iter().map(|f| (f.code.as_str(), f.runtime.map(|r| r.id()))).collect();
        assert_eq!(found, [("file/invalid-json", Some("codex"))]);
        let spaced = [(".claude-plugin/plugin.json", r#"{"name": "my plugin", "version": "1.0.0"}"#)];
        let codes: Vec<&str> =
            report(&spaced, Some("codex")).findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["manifest/name-invalid"]);
    }

    #[test]
    fn a_root_plugin_json_is_antigravity_beside_its_files_and_agent_plugins_with_the_spec_schema() {
        let runtime = |files: &[(&str, &str)]| {
            let judged = report(files, None);
            judged.subjects.iter().map(|s| s.runtime.map(Runtime::id)).collect::<Vec<_>>()
        };
        let manifest = ("plugin.json", r#"{"name": "p", "description": "d"}"#);
        let mcp = ("mcp_config.json", r#"{"mcpServers": {}}"#);
        assert_eq!(runtime(&[manifest, mcp]), [Some("antigravity")]);
        assert_eq!(runtime(&[manifest, ("hooks.json", "{}")]), [Some("antigravity")]);
        let built = (".plugforge-manifest.json", r#"{"runtime": "antigravity"}"#);
        assert_eq!(runtime(&[manifest, built, ("skills/hello/SKILL.md", SKILL)]), [Some("antigravity")]);
        assert_eq!(runtime(&[manifest, ("skills/hello/SKILL.md", SKILL)]), [Some("agent-plugins")]);
        let spec = (
            "plugin.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p"}"#,
        );
        assert_eq!(runtime(&[spec, mcp]), [Some("agent-plugins")]);
        // Named with --target, a folder of the other runtime is still judged.
        assert_eq!(report(&[manifest, mcp], Some("agent-plugins")).subjects[0].marker, "--target");
    }

    #[test]
    fn a_bare_folder_of_skills_is_judged_as_agent_skills() {
        let skills = report(&[("skills/hello/SKILL.md", SKILL), ("README.md", "x")], None);
        assert_eq!(skills.subjects[0].kind, SubjectKind::Skills);
        assert_eq!(skills.subjects[0].runtime, None);
        assert!(skills.valid, "{:?}", skills.findings);
        let extra = "---\nname: hello\ndescription: Hi.\nmodel: opus\n---\nHi\n";
        let found = findings(&[("skills/hello/SKILL.md", extra), ("skills/notes/x.md", "x")], None);
        let codes: Vec<(&str, &str)> = found.iter().map(|f| (f.0.as_str(), f.1.as_str())).collect();
        assert_eq!(
            codes,
            [("skill/unknown-field", "skills/hello/SKILL.md"), ("skill/missing-skill-md", "skills/notes")]
        );
        // At the root only folders holding a SKILL.md are skills.
        let root =
            findings(&[("hello/SKILL.md", SKILL), ("other/SKILL.md", SKILL), ("docs/a.md", "x")], None);
        assert_eq!(root.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["skill/name-not-folder"]);
        let single = report(&[("SKILL.md", "# no frontmatter\n")], None);
        assert_eq!(single.subjects[0].marker, "SKILL.md");
        assert!(!single.valid);
    }
}
