//! Claude Code plugins: the canonical layout is Claude's, so the work is
//! the manifest (metadata, redirected component paths, inline hooks, MCP
//! servers and commands) and `${CLAUDE_PLUGIN_ROOT}` -> `${PLUGIN_ROOT}`.
//! A runtime whose plugins are Claude Code's layout under a manifest of its
//! own reads them here too, through its [`Dialect`].

use serde_json::{Map, Value};

use crate::draft::common::{self, SkillFile, Spelling, skip_regenerated};
use crate::draft::Draft;
use crate::draft::json_parts::{JsonParts, Merged};
use crate::draft::manifest::{Manifest, entries, relative, short};
use crate::error::{Location, Result};
use crate::draft::markdown::Markdown;
use crate::path::BundlePath;
use crate::source::{SourceFile, SourceTree, parse_document};
use crate::codes::DiagnosticCode;

pub const MANIFEST: &str = super::facts::MANIFEST_PATH;

/// Folders and files by which Claude Code loads a plugin that has no
/// manifest.
pub(crate) const MANIFESTLESS_LAYOUT: [&str; 7] =
    ["commands", "agents", "skills", "hooks/hooks.json", ".mcp.json", "output-styles", "SKILL.md"];

/// Claude Code's variable spellings, which every runtime's files may also
/// hold, each with its canonical spelling.
pub(crate) fn spelling() -> Spelling {
    Spelling(vec![
        (super::facts::PLUGIN_ROOT.into(), "${PLUGIN_ROOT}".into()),
        (super::facts::PLUGIN_DATA.into(), "${PLUGIN_DATA}".into()),
    ])
}

/// Manifest fields only Claude Code reads; kept for its bundle alone.
pub(crate) const CLAUDE_ONLY: [&str; 10] = [
    "userConfig",
    "lspServers",
    "channels",
    "dependencies",
    "defaultEnabled",
    "binaries",
    "experimental",
    "themes",
    "monitors",
    "workflows",
];

/// Files Claude Code loads by location that no other runtime reads.
const CLAUDE_ONLY_FILES: [&str; 4] = [".lsp.json", "monitors/", "themes/", "workflows/"];

/// A plugin format laid out as Claude Code's, read by [`import_as`]: where
/// its manifest sits, what only its runtime reads, and where it finds MCP
/// servers without a manifest naming them.
pub(crate) struct Dialect {
    /// The manifest, relative to the plugin root.
    pub manifest: &'static str,
    /// The runtime's id and name, for `targets.<id>.manifest` and notes.
    pub runtime: &'static str,
    pub runtime_name: &'static str,
    /// Manifest fields only this runtime reads; kept for its bundle alone.
    pub only_fields: &'static [&'static str],
    /// Files (a trailing `/`: folders) only this runtime loads by location.
    pub only_files: &'static [&'static str],
    /// MCP files it reads by location: the first that exists.
    pub mcp_files: &'static [&'static str],
    /// A root `settings.json` wins over the manifest's `settings` (Claude
    /// Code reads it first); otherwise the manifest's wins and the file is
    /// left out.
    pub settings_file_wins: bool,
    /// Its own spellings of the plugin-folder variables, besides Claude Code's.
    pub spellings: &'static [(&'static str, &'static str)],
}

/// Claude Code's own plugins.
const CLAUDE: Dialect = Dialect {
    manifest: MANIFEST,
    runtime: "claude-code",
    runtime_name: "Claude Code",
    only_fields: &CLAUDE_ONLY,
    only_files: &CLAUDE_ONLY_FILES,
    mcp_files: &[".mcp.json"],
    settings_file_wins: true,
    spellings: &[],
};

/// Where the manifest sends each component.
#[derive(Default)]
struct Paths {
    /// `None`: the default folder.
    commands: Option<Vec<String>>,
    agents: Option<Vec<String>>,
    output_styles: Option<Vec<String>>,
    /// Added to `skills/`.
    skills: Vec<String>,
    hooks: JsonParts,
    mcp: JsonParts,
}

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    import_as(tree, draft, &CLAUDE)
}

/// Reads a plugin of `dialect` (Claude Code's layout under its manifest).
pub(crate) fn import_as(tree: &SourceTree, draft: &mut Draft, dialect: &Dialect) -> Result<()> {
    let mut paths = Paths::default();
    let mut settings_from_manifest = false;
    if let Some(file) = tree.get(dialect.manifest) {
        let mut manifest = Manifest::read(dialect.manifest, &file.bytes)?;
        manifest.metadata(draft, Some("displayName"));
        manifest.take("$schema");
        read_paths(tree, &mut manifest, draft, &mut paths, dialect.manifest)?;
        if let Some(settings) = manifest.take("settings") {
            if dialect.settings_file_wins && tree.get("settings.json").is_some() {
                let message = format!(
                    "\"settings\" is shadowed by settings.json, which {} reads first; left out",
                    dialect.runtime_name
                );
                manifest.note(draft, DiagnosticCode::UnusedField, "settings", message);
            } else {
                draft.add_json("settings.json", &settings, dialect.manifest)?;
                settings_from_manifest = true;
            }
        }
        manifest.keep_for(draft, dialect.runtime, dialect.runtime_name, dialect.only_fields);
        manifest.rest(draft, dialect.runtime_name);
    }
    let spelling = dialect.spellings.iter().fold(spelling(), |s, (native, canonical)| s.with(*native, canonical));
    let mcp_file = dialect.mcp_files.iter().copied().find(|f| tree.get(f).is_some());
    let reading = Reading { dialect, mcp_file, settings_from_manifest, spelling: &spelling };
    for (path, file) in tree.iter() {
        place(tree, draft, &mut paths, path, file, &reading)?;
    }
    paths.hooks.note_missing(draft, dialect.manifest);
    paths.mcp.note_missing(draft, dialect.manifest);
    write_json_parts(draft, paths.hooks, "hooks/hooks.json", &spelling)?;
    write_json_parts(draft, paths.mcp, ".mcp.json", &spelling)?;
    Ok(())
}

/// What [`place`] needs to know of the plugin being read.
struct Reading<'a> {
    dialect: &'a Dialect,
    /// The MCP file read by location, if the plugin has one.
    mcp_file: Option<&'static str>,
    /// The manifest's `settings` became settings.json.
    settings_from_manifest: bool,
    spelling: &'a Spelling,
}

fn read_paths(
    tree: &SourceTree,
    manifest: &mut Manifest,
    draft: &mut Draft,
    paths: &mut Paths,
    manifest_path: &'static str,
) -> Result<()> {
    for key in ["commands", "agents", "outputStyles", "skills", "hooks", "mcpServers"] {
        let Some(value) = manifest.fields.get(key) else { continue };
        for entry in entries(value) {
            if let Some(text) = entry.as_str().filter(|t| t.split('/').any(|segment| segment == "..")) {
                let line = crate::source::line_of_key(&manifest.text, key).unwrap_or(1);
                return Err(crate::error::Error::at(
                    crate::error::ErrorCode::InvalidSource,
                    Location::at(manifest_path, line, 1),
                    format!(
                        "\"{key}\" entry {text:?} is not allowed: it climbs out of the plugin root, and nothing outside the source is read"
                    ),
                ));
            }
        }
    }
    let roots = |manifest: &mut Manifest, key: &str, draft: &mut Draft| -> Option<Vec<String>> {
        let value = manifest.take(key)?;
        let mut found = Vec::new();
        for entry in entries(&value) {
            match entry.as_str().and_then(relative) {
                Some(path) => found.push(path),
                None => manifest.note(
                    draft,
                    DiagnosticCode::InvalidField,
                    key,
                    format!("\"{key}\" entry {entry} is not a ./ path; left out"),
                ),
            }
        }
        Some(found)
    };
    match manifest.fields.get("commands") {
        Some(Value::Object(_)) => {
            let Some(Value::Object(inline)) = manifest.take("commands") else { unreachable!("matched") };
            inline_commands(tree, manifest, draft, inline, manifest_path)?;
            paths.commands = Some(Vec::new());
        }
        Some(_) => paths.commands = roots(manifest, "commands", draft),
        None => {}
    }
    paths.agents = roots(manifest, "agents", draft);
    paths.output_styles = roots(manifest, "outputStyles", draft);
    paths.skills = roots(manifest, "skills", draft).unwrap_or_default();
    for (key, parts) in [("hooks", &mut paths.hooks), ("mcpServers", &mut paths.mcp)] {
        let Some(value) = manifest.take(key) else { continue };
        for entry in entries(&value) {
            match &entry {
                Value::Object(map) => parts.inline.push((manifest_path.to_string(), Value::Object(map.clone()))),
                Value::String(text) if text.ends_with(".json") && relative(text).is_some() => {
                    parts.files.push(relative(text).expect("checked"));
                }
                other => manifest.note(
                    draft,
                    DiagnosticCode::UnsupportedField,
                    key,
                    format!(
                        "\"{key}\" entry {} is neither a ./ JSON file nor an inline object; left out",
                        short(other)
                    ),
                ),
            }
        }
    }
    Ok(())
}

/// The object form of `commands`: each entry becomes `commands/<name>.md`.
fn inline_commands(
    tree: &SourceTree,
    manifest: &Manifest,
    draft: &mut Draft,
    inline: Map<String, Value>,
    manifest_path: &str,
) -> Result<()> {
    const FIELDS: [(&str, &str); 4] = [
        ("description", "description"),
        ("argumentHint", "argument-hint"),
        ("model", "model"),
        ("allowedTools", "allowed-tools"),
    ];
    for (name, entry) in inline {
        let path = format!("commands/{name}.md");
        let Some(entry) = entry.as_object() else {
            manifest.note(
                draft,
                DiagnosticCode::InvalidField,
                &name,
                format!("commands.{name} is not an object; left out"),
            );
            continue;
        };
        let (mut frontmatter, body) =
            match (entry.get("source").and_then(Value::as_str), entry.get("content").and_then(Value::as_str))
            {
                (Some(source), _) => {
                    let Some(file) = relative(source).and_then(|p| tree.get(&p).map(|f| (p, f))) else {
                        manifest.note(
                            draft,
                            DiagnosticCode::MissingFile,
                            &name,
                            format!("commands.{name}.source {source:?} is not in the plugin; left out"),
                        );
                        continue;
                    };
                    let text = common::text(&file.0, file.1)?;
                    let document = parse_document(&file.0, text)?;
                    (document.frontmatter.unwrap_or_default(), document.body)
                }
                (None, Some(content)) => (Map::new(), content.to_string()),
                (None, None) => {
                    manifest.note(
                        draft,
                        DiagnosticCode::InvalidField,
                        &name,
                        format!("commands.{name} has neither source nor content; left out"),
                    );
                    continue;
                }
            };
        for (key, canonical) in FIELDS {
            if let Some(value) = entry.get(key) {
                frontmatter.insert(canonical.into(), value.clone());
            }
        }
        for key in entry
            .keys()
            .filter(|k| !["source", "content"].contains(&k.as_str()) && !FIELDS.iter().any(|(f, _)| f == k))
        {
            manifest.note(
                draft,
                DiagnosticCode::UnknownField,
                &name,
                format!("commands.{name}.{key} has no command frontmatter counterpart; left out"),
            );
        }
        let body = spelling().text(&body);
        draft.add_markdown(&path, Markdown { frontmatter: Some(frontmatter), body }, manifest_path)?;
    }
    Ok(())
}

fn place(
    tree: &SourceTree,
    draft: &mut Draft,
    paths: &mut Paths,
    path: &BundlePath,
    file: &SourceFile,
    reading: &Reading<'_>,
) -> Result<()> {
    let (dialect, spelling) = (reading.dialect, reading.spelling);
    let p = path.as_str();
    if p == dialect.manifest || skip_regenerated(draft, p) {
        return Ok(());
    }
    if p == "hooks/hooks.json" || paths.hooks.files.iter().any(|f| f == p) {
        paths.hooks.inline.push((p.to_string(), common::json(p, file)?));
        return Ok(());
    }
    if Some(p) == reading.mcp_file || paths.mcp.files.iter().any(|f| f == p) {
        paths.mcp.inline.push((p.to_string(), common::json(p, file)?));
        return Ok(());
    }
    if p == "settings.json" && reading.settings_from_manifest {
        let message = format!(
            "not imported: {} reads the settings of {}, which became settings.json",
            dialect.runtime_name, dialect.manifest
        );
        draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
        return Ok(());
    }
    let roots: Vec<&str> = std::iter::once("skills").chain(paths.skills.iter().map(String::as_str)).collect();
    match common::skill_file(tree, draft, p, &roots, "Claude Code") {
        SkillFile::Outside => {}
        SkillFile::Skipped => return Ok(()),
        SkillFile::Inside(rel) => {
            return markdown_or_copy(draft, p, &format!("skills/{rel}"), file, spelling);
        }
    }
    if let Some(rel) = command_skill(tree, paths, p) {
        return markdown_or_copy(draft, p, &format!("skills/{rel}"), file, spelling);
    }
    if p == "SKILL.md" && paths.skills.is_empty() && tree.below("skills").next().is_none() {
        return root_skill(draft, p, file, spelling);
    }
    let folders =
        [("commands", &paths.commands), ("agents", &paths.agents), ("output-styles", &paths.output_styles)];
    for (folder, custom) in folders {
        match custom {
            None => {
                if below(p, folder).is_some() {
                    return markdown_or_copy(draft, p, p, file, spelling);
                }
            }
            Some(roots) => {
                for root in roots {
                    let rel = if root == p { Some(path.file_name().to_string()) } else { below(p, root) };
                    if let Some(rel) = rel {
                        return markdown_or_copy(draft, p, &format!("{folder}/{rel}"), file, spelling);
                    }
                }
                if below(p, folder).is_some() {
                    let message = format!(
                        "not imported: the manifest names other {folder} paths, so {} does not load {folder}/",
                        dialect.runtime_name
                    );
                    draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
                    return Ok(());
                }
            }
        }
    }
    if p == "CLAUDE.md" && tree.get("AGENTS.md").is_none() {
        return common::copy_spelled(draft, p, "AGENTS.md", file, spelling);
    }
    if dialect.only_files.iter().any(|f| if f.ends_with('/') { p.starts_with(f) } else { p == *f }) {
        let message = format!(
            "read by {} only: copied as a support file, which other runtimes ignore",
            dialect.runtime_name
        );
        draft.note(DiagnosticCode::RuntimeOnlyFile, Location::file(p), message);
    }
    common::copy(draft, path, file)
}

/// A folder with a `SKILL.md` below a commands root is a skill to Claude
/// Code, invoked by the folder's name: its path below `skills/`.
fn command_skill(tree: &SourceTree, paths: &Paths, path: &str) -> Option<String> {
    let defaults = ["commands".to_string()];
    let roots = paths.commands.as_deref().unwrap_or(&defaults);
    roots.iter().find_map(|root| {
        let rel = below(path, root)?;
        let (name, _) = rel.split_once('/')?;
        tree.get(&format!("{root}/{name}/SKILL.md")).map(|_| rel.clone())
    })
}

/// A `SKILL.md` at the plugin root is Claude Code's single-skill plugin:
/// it becomes `skills/<name>/SKILL.md`, named by its frontmatter.
fn root_skill(draft: &mut Draft, from: &str, file: &SourceFile, spelling: &Spelling) -> Result<()> {
    let text = common::text(from, file)?;
    let document = parse_document(from, text)?;
    let Some(name) = document.str_field("name").filter(|n| crate::source::is_kebab(n)) else {
        let message = "SKILL.md at the plugin root has no kebab-case name to give its skill folder; copied as a support file";
        draft.note(DiagnosticCode::RootSkill, Location::file(from), message);
        return common::copy(draft, &BundlePath::new(from)?, file);
    };
    let to = format!("skills/{name}/SKILL.md");
    let message = format!(
        "SKILL.md at the plugin root is a single-skill plugin: imported as {to}; files it names by relative path stay at the root"
    );
    draft.note(DiagnosticCode::RootSkill, Location::file(from), message);
    common::copy_spelled(draft, from, &to, file, spelling)
}

/// The path below folder `root`, if `path` is inside it.
fn below(path: &str, root: &str) -> Option<String> {
    path.strip_prefix(root).and_then(|rest| rest.strip_prefix('/')).map(str::to_string)
}

fn markdown_or_copy(
    draft: &mut Draft,
    from: &str,
    to: &str,
    file: &SourceFile,
    spelling: &Spelling,
) -> Result<()> {
    if to.ends_with(".md") {
        common::copy_spelled(draft, from, to, file, spelling)
    } else {
        draft.add(to, file.bytes.clone(), file.executable, from)
    }
}

/// Hooks or MCP servers from one or more files and inline objects.
fn write_json_parts(draft: &mut Draft, parts: JsonParts, to: &str, spelling: &Spelling) -> Result<()> {
    let servers = to == ".mcp.json";
    let merged = if servers { parts.merge_servers(draft)? } else { parts.merge_hooks(draft)? };
    match merged {
        Merged::None => Ok(()),
        Merged::Value(value, origin) if servers => draft.add_servers(spelling.json(value), &origin),
        Merged::Value(value, origin) => draft.add_hooks(spelling.json(value), &origin),
    }
}
