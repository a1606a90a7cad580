//! One plugin folder for every host that reads a shared layout: the Claude
//! Code manifest and layout, the Codex manifest, a generated Agent Plugins
//! 1.0 root `plugin.json` with its spec `mcp.json`, Copilot CLI's copies of
//! commands, agents and hooks under `com.github.copilot/`, and one entry in
//! each host's marketplace file pointing at the folder. Every fact below was
//! checked against the real clients (docs/runtimes/universal.md):
//!
//! - Claude Code reads its manifest and its default folders;
//!   the root `plugin.json`, `mcp.json` and `com.github.copilot/` are inert
//!   there (`claude plugin validate --strict` passes).
//! - Codex 0.171 reads a root `plugin.json` whose `$schema` is the Agent
//!   Plugins one before its own manifest folder: it takes skills (one level
//!   deep) and the spec `mcp.json`, keeps the `interface` of its own manifest,
//!   and loads no hooks and migrates no commands for such a plugin.
//! - Copilot CLI 1.0.102 reads the spec root manifest first and then takes
//!   agents, commands and hooks only from `com.github.copilot/`, MCP servers
//!   only from the spec `mcp.json`.
//! - Every other runtime that loads other formats' plugins (its spec's
//!   `reads.loads_formats`) reads the folder as the first of them whose
//!   marker is here, and gets what its spec's `reads.loaded_as` says: OpenClaw
//!   detects Codex's manifest folder first and loads the folder as a Codex
//!   bundle (skills and `.mcp.json`). A runtime added that way is served
//!   here without a change to this folder.
//! - Cursor is not served here: it must never see its own manifest beside a
//!   root manifest, so it keeps its own folder (`--target cursor`).
//!
//! The folder is assembled from the runtimes' own writers, each run on the
//! same plugin; this module only picks their files and restates their
//! honesty rows per host.

use serde_json::json;

use super::{
    ArtifactKind, BOTH_SCOPES, Kind, Layout, Runtime, Writer, agent_plugins, claude_code, codex, copilot, openclaw,
};
use crate::bundle::{Bundle, GeneratedFile};
use crate::error::Result;
use crate::path::BundlePath;
use crate::report::{Honesty, Level};
use crate::templates;
use crate::vars::CLAUDE_VARS;
use crate::report::Component;

/// Copilot CLI reads these only from here when a spec root manifest is present.
const COPILOT_DIR: &str = "com.github.copilot";
/// The files of the Copilot writer's bundle that move below [`COPILOT_DIR`].
const COPILOT_ONLY: [&str; 3] = ["commands/", "agents/", "hooks/hooks.json"];
/// The files the Agent Plugins writer contributes (its skills win over Claude's).
const SPEC_FILES: [&str; 3] =
    [agent_plugins::facts::MANIFEST_PATH, agent_plugins::facts::MCP_PATH, "skills/"];
/// The hosts whose writers the folder is assembled from (their rows are
/// restated below); any other runtime is served as its spec says it loads
/// one of their formats.
const ASSEMBLED: [Runtime; 4] = [Runtime::ClaudeCode, Runtime::AgentPlugins, Runtime::Codex, Runtime::Copilot];

/// OpenClaw installing the universal folder, as it installs a compatible bundle.
const OPENCLAW_CHECK: super::Check = super::Check {
    kinds: &[ArtifactKind::Plugin],
    ..openclaw::CHECK
};

/// universal, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "universal",
    kinds: KINDS,
    write,
    in_target_all: false,
    required_urls: agent_plugins::REQUIRED_URLS,
    reads: super::Reads { marker: None, claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(claude_code::facts::MANIFEST_PATH), manifest_required: false, manifest_fallbacks: &[], check_manifest: Some(claude_code::lint::check_manifest), check_plugin: None, layout: claude_code::lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: None, own_format: None },
    hook_trust: None,
    read: None,
    foreign: None,
    judge: super::Judge::Clients(&[claude_code::CHECK, codex::CHECK, copilot::CHECK, OPENCLAW_CHECK]),
    rules: &[],
    subject: "universal",
    folder_vars: &[],
    marketplace: None,
    hooks: None,
    mcp: super::Mcp {
        files: None,
        misplaced: None,
        read_file: None,
        server: None,
        expands: None,
        unexpanded: "universal leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] = &[Kind {
    name: ArtifactKind::Plugin,
    layout: Layout::Folder,
    scopes: BOTH_SCOPES,
    marketplace: Some(claude_code::facts::MARKETPLACE_PATH),
    shared: &[codex::facts::MARKETPLACE_PATH, copilot::facts::MARKETPLACE_PATH],
}];

/// Codex's view of the folder, which it reads through the root manifest.
const CODEX_SPEC: &str =
    concat!("Codex reads the root Agent Plugins plugin.json before ", codex::facts::manifest_dir!(), "/");

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let claude = sub(w, Runtime::ClaudeCode, claude_code::write_plugin)?;
    let spec = sub(w, Runtime::AgentPlugins, agent_plugins::write)?;
    let codex = sub(w, Runtime::Codex, codex::write_plugin)?;
    let copilot = sub(w, Runtime::Copilot, copilot::write)?;

    let mut files = claude.files.clone();
    for (path, file) in &spec.files {
        if starts_with_any(path, &SPEC_FILES) {
            // The shared SKILL.md is Claude's spelling: Claude Code substitutes
            // it, and no other host substitutes either spelling in a skill.
            let skill = path.as_str().starts_with("skills/");
            let respelled =
                std::str::from_utf8(&file.bytes).ok().filter(|_| skill).and_then(|t| CLAUDE_VARS.text(t));
            let file = match respelled {
                Some(text) => GeneratedFile::new(text.into_bytes(), file.executable, file.template.clone()),
                None => file.clone(),
            };
            files.insert(path.clone(), file);
        }
    }
    for (path, file) in &codex.files {
        if path.as_str() == codex::facts::MANIFEST_PATH {
            files.insert(path.clone(), file.clone());
        }
    }
    for (path, file) in &copilot.files {
        if starts_with_any(path, &COPILOT_ONLY) {
            files.insert(BundlePath::new(format!("{COPILOT_DIR}/{path}"))?, file.clone());
        }
    }
    // Beside a spec root manifest Copilot CLI complains about a root
    // hooks/hooks.json (Claude's) unless its own file exists, even empty.
    let copilot_hooks = BundlePath::new(format!("{COPILOT_DIR}/hooks/hooks.json"))?;
    if files.keys().any(|p| p.as_str() == "hooks/hooks.json") && !files.contains_key(&copilot_hooks) {
        let empty = crate::json::to_bytes(&json!({"hooks": {}}));
        files.insert(
            copilot_hooks,
            GeneratedFile::new(empty, false, templates::origin("universal/hooks.json")),
        );
    }
    w.bundle.files = files;

    restate(w, "Claude Code", &claude, |row| Some(claude_row(row, &spec)));
    restate(w, "Agent Plugins clients", &spec, |row| Some(row.clone()));
    restate(w, "Codex", &codex, |row| codex_row(row, &spec));
    restate(w, "Copilot CLI", &copilot, |row| copilot_row(row, &spec));
    let readers = readers(w)?;
    for reader in &readers {
        let name = reader.runtime.name();
        match &reader.rows {
            Some(rows) => restate(w, name, rows, |row| Some(row.clone())),
            None => {
                let detail = format!(
                    "{name} reads this folder as {} plugin, and its spec does not say what it loads of one; \
                     build --target {} for its own bundle",
                    with_article(reader.format.name()),
                    reader.runtime.id()
                );
                w.honest(Component::Host, reader.runtime.id(), Level::Unsupported, detail);
            }
        }
    }
    let cursor = concat!(
        "Cursor: no ",
        super::cursor::facts::manifest_path!(),
        " here, since Cursor must never see one beside a root plugin.json; build --target cursor for its own folder"
    );
    w.honest(Component::Host, "cursor", Level::Unsupported, cursor);
    for bundle in [&claude, &spec, &codex, &copilot] {
        for diagnostic in &bundle.diagnostics {
            if !w.bundle.diagnostics.contains(diagnostic) {
                w.bundle.diagnostics.push(diagnostic.clone());
            }
        }
    }
    readme(w, &readers)?;
    if w.options.marketplace {
        claude_code::marketplace(w)?;
        codex::marketplace(w)?;
        copilot::marketplace(w)?;
    }
    Ok(())
}

/// A runtime that loads the folder through another format it loads.
struct Reader {
    runtime: Runtime,
    /// The format it reads the folder as.
    format: Runtime,
    /// Its honesty rows for the plugin read that way; `None` when its spec
    /// cannot say what it loads of that format.
    rows: Option<Bundle>,
}

/// Every runtime outside [`ASSEMBLED`] whose spec says it loads other
/// formats, in registry order, reading the folder as the first of them
/// (in the order it tries them) whose marker the folder holds.
fn readers(w: &Writer<'_>) -> Result<Vec<Reader>> {
    let holds = |marker: Option<&str>| marker.is_some_and(|m| w.bundle.files.keys().any(|p| p.as_str() == m));
    let mut readers = Vec::new();
    for &runtime in Runtime::ALL {
        let reads = &runtime.spec().reads;
        let Some(loaded_as) = reads.loaded_as else { continue };
        if runtime == w.runtime || ASSEMBLED.contains(&runtime) || holds(reads.marker) {
            continue;
        }
        let Some(format) = reads.loads_formats.iter().copied().find(|f| holds(f.spec().reads.marker)) else {
            continue;
        };
        let mut described = false;
        let rows = sub(w, runtime, |w| {
            described = loaded_as(w, format);
            Ok(())
        })?;
        readers.push(Reader { runtime, format, rows: described.then_some(rows) });
    }
    Ok(readers)
}

/// "a Codex", "an Agent Plugins".
fn with_article(name: &str) -> String {
    let article = if name.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
    format!("{article} {name}")
}

/// One runtime's writer run on the same plugin, its bundle kept apart.
fn sub(
    w: &Writer<'_>,
    runtime: Runtime,
    write: impl FnOnce(&mut Writer<'_>) -> Result<()>,
) -> Result<Bundle> {
    let mut sub = Writer::new(runtime, &runtime.kinds()[0], w.plugin, w.options)?;
    write(&mut sub)?;
    Ok(sub.finish())
}

fn starts_with_any(path: &BundlePath, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| if p.ends_with('/') { path.as_str().starts_with(p) } else { path.as_str() == *p })
}

/// Adds `bundle`'s rows, as `pick` restates them, each said to be `host`'s.
fn restate(w: &mut Writer<'_>, host: &str, bundle: &Bundle, pick: impl Fn(&Honesty) -> Option<Honesty>) {
    for row in bundle.honesty.iter().filter_map(pick) {
        w.honest(row.component, &row.name, row.level, format!("{host}: {}", row.detail));
    }
}

/// The spec writer's row for the same component instance.
fn spec_row<'a>(spec: &'a Bundle, row: &Honesty) -> Option<&'a Honesty> {
    spec.honesty.iter().find(|s| s.component == row.component && s.name == row.name)
}

/// Claude Code reads the shared SKILL.md, which is in strict Agent Skills form.
fn claude_row(row: &Honesty, spec: &Bundle) -> Honesty {
    let mut row = row.clone();
    if row.component == Component::Skill
        && let Some(strict) = spec_row(spec, &row).filter(|s| s.level != Level::Supported)
    {
        if row.level == Level::Supported {
            row.level = Level::Degraded;
        }
        row.detail =
            format!("{}; the shared SKILL.md is in Agent Skills form: {}", row.detail, strict.detail);
    }
    row
}

fn codex_row(row: &Honesty, spec: &Bundle) -> Option<Honesty> {
    let mut row = row.clone();
    match row.component {
        Component::Skill | Component::Mcp => {
            let strict = spec_row(spec, &row)?;
            row.level = strict.level;
            row.detail = format!("{CODEX_SPEC}: {}", strict.detail);
        }
        Component::Hook => {
            row.level = Level::Unsupported;
            row.detail = format!(
                "{CODEX_SPEC} and loads no hooks from an Agent Plugins plugin; build --target codex for them"
            );
        }
        Component::Command => {
            row.level = Level::Unsupported;
            row.detail = format!(
                "{CODEX_SPEC} and migrates no commands of an Agent Plugins plugin; build --target codex"
            );
        }
        _ => {}
    }
    Some(row)
}

fn copilot_row(row: &Honesty, spec: &Bundle) -> Option<Honesty> {
    let mut row = row.clone();
    let moved = [Component::Command, Component::Agent, Component::Hook].contains(&row.component) && row.level != Level::Unsupported;
    if moved {
        row.detail = format!("{COPILOT_DIR}/ (read there beside a spec root plugin.json): {}", row.detail);
    } else if row.component == Component::Mcp {
        let strict = spec_row(spec, &row)?;
        row.level = strict.level;
        row.detail = format!("the spec mcp.json (read beside a spec root plugin.json): {}", strict.detail);
    }
    Some(row)
}

fn readme(w: &mut Writer<'_>, readers: &[Reader]) -> Result<()> {
    if w.authored_readme(Some(CLAUDE_VARS))? {
        return Ok(());
    }
    let readers: Vec<_> = readers
        .iter()
        .map(|r| json!({"name": r.runtime.name(), "format": with_article(r.format.name())}))
        .collect();
    let fields = json!({
        "readers": readers,
        "skills": w.written(Component::Skill),
        "commands": w.written(Component::Command),
        "agents": w.written(Component::Agent),
        "hooks": w.written(Component::Hook),
        "mcp_servers": w.written(Component::Mcp),
    });
    w.render_readme("universal", fields)
}
