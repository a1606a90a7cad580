//! OpenClaw (2026.9.6, read from its installed docs and `dist/`).
//!
//! - `compatible-bundle` (default): no OpenClaw dialect. The Claude Code or
//!   the Codex plugin writer lays the bundle out in `OUT/openclaw/`, chosen
//!   by `targets.openclaw.bundleFormat` (`claude`, `codex`, `cursor`,
//!   `auto`). OpenClaw runs hooks only as hook packs (`HOOK.md` + handler,
//!   one folder each under a Codex bundle's `hooks/`); a Claude
//!   `hooks/hooks.json` is detect-only. So `auto` picks `codex` when the
//!   source ships hook packs (`hooks/<pack>/HOOK.md`), else `claude`, which
//!   also maps settings (and keeps the bundle a valid Claude Code plugin).
//!   `cursor` reuses the Cursor writer on request only (OpenClaw maps little
//!   of that layout), and `auto` never picks it.
//!   No marketplace entry: the Claude marketplace would list the name twice.
//! - `workspace`: what an agent workspace holds (OUT is the workspace):
//!   `AGENTS.md` (a marked section), `skills/<name>/`, `hooks/<pack>/`; other
//!   files go below `.plugforge/openclaw/<namespace>/`.

pub(crate) mod facts;
pub(crate) mod lint;
mod judge;

use serde_json::{Value, json};

use super::local_root::{LocalRoot, uses_plugin_vars};
use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer, claude_code, codex, cursor};
use crate::bundle::Scope;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::merge::Part;
use crate::model::Plugin;
use crate::report::Level;
use crate::report::Component;

const WORKSPACE: ArtifactKind = ArtifactKind::Workspace;

/// Measured with `openclaw skills list` (2026.9.6): a Claude bundle's
/// commands/, agents/ and output-styles/ become skill roots as the docs say,
/// but a skill root loads only `<dir>/SKILL.md`, so loose `<name>.md` files
/// never show up; the bundle still carries them for Claude Code's sake.
const LOOSE_MARKDOWN: &str = "OpenClaw adds this folder as a skill root but loads only <dir>/SKILL.md \
                              from it, so the file is detected, not loaded";
const STATE_DIR: &str = ".plugforge/openclaw";

/// Other runtimes' bundles OpenClaw loads when its own marker is absent, in
/// the order it tries them: OpenClaw 2026.9.6 (`detectBundleManifestFormat`)
/// takes Codex, Cursor and Claude Code plugins, then an Agent Plugins root
/// manifest.
const LOADS_FORMATS: &[super::Runtime] =
    &[super::Runtime::Codex, super::Runtime::Cursor, super::Runtime::ClaudeCode, super::Runtime::AgentPlugins];

/// Without any manifest, OpenClaw loads a folder holding one of these as a
/// manifestless Claude Code bundle.
const MANIFESTLESS: super::Manifestless = super::Manifestless {
    markers: &["skills", "commands", "agents", "hooks/hooks.json", ".mcp.json", ".lsp.json", "settings.json"],
    as_format: super::Runtime::ClaudeCode,
};

/// OpenClaw's CLI (Node 24), the judge of its bundles and workspaces.
pub(crate) const CLIENT: super::Client = super::Client {
    id: "openclaw",
    name: "OpenClaw",
    commands: &["openclaw"],
    quiet: &[],
    package: "openclaw",
    version: "2026.9.6",
    binary: "openclaw",
    extra_packages: &[],
    load: &["openclaw plugins install DIR --force --accept-capabilities"],
    list: &["openclaw plugins inspect NAME --json", "openclaw skills list --json"],
    driver: "core/src/runtime/openclaw/drivers/openclaw_inventory.py",
    typical_seconds: 55,
    launch: super::Launch::Node { version: "24.22.3", entry: "node_modules/openclaw/openclaw.mjs" },
};

/// OpenClaw installing a compatible bundle.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::CompatibleBundle],
    driver: "core/src/runtime/openclaw/drivers/openclaw_inventory.py",
    args: &["--openclaw", "BIN", "bundle", "--dir", "DIR", "--id", "NAME"],
    read: judge::read_bundle,
};

/// OpenClaw, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "OpenClaw",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: LOADS_FORMATS, loaded_as: Some(loaded_as), loads_manifestless: Some(MANIFESTLESS), manifest: Some(facts::MANIFEST_PATH), manifest_required: false, manifest_fallbacks: &[], check_manifest: Some(lint::check_manifest), check_plugin: None, layout: lint::layout, lenient_manifest_syntax: true, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: None, own_format: None },
    hook_trust: None,
    read: None,
    foreign: None,
    judge: super::Judge::Clients(&[CHECK]),
    rules: &[],
    subject: "OpenClaw",
    folder_vars: &[],
    marketplace: None,
    hooks: None,
    mcp: super::Mcp {
        files: None,
        misplaced: None,
        read_file: None,
        server: None,
        expands: None,
        unexpanded: "openclaw leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] = &[
    Kind {
        name: ArtifactKind::CompatibleBundle,
        layout: Layout::Folder,
        scopes: BOTH_SCOPES,
        marketplace: None,
        shared: &[],
    },
    Kind {
        name: WORKSPACE,
        layout: Layout::InPlace { state_dir: STATE_DIR },
        scopes: &[Scope::Project],
        marketplace: None,
        shared: &["AGENTS.md"],
    },
];

/// The plugin writer a compatible bundle reuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    Claude,
    Codex,
    /// Only on request: OpenClaw reads a Cursor bundle's commands, agents
    /// and rules from `.cursor/` and its MCP servers from `.mcp.json`, none of
    /// which the Cursor layout has, so little more than skills/ maps.
    Cursor,
}

impl Base {
    fn id(self) -> &'static str {
        match self {
            Base::Claude => "claude",
            Base::Codex => "codex",
            Base::Cursor => "cursor",
        }
    }
}

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    if w.kind.name == WORKSPACE { workspace(w) } else { bundle(w) }
}

// ------------------------------------------------------------ compatible bundle

fn bundle(w: &mut Writer<'_>) -> Result<()> {
    let base = base(w.plugin)?;
    match base {
        Base::Claude => claude_code::write_plugin(w)?,
        Base::Codex => codex::write_plugin(w)?,
        Base::Cursor => cursor::write_plugin(w)?,
    }
    // The base writer judged its own runtime; OpenClaw maps less.
    w.bundle.honesty.clear();
    bundle_rows(w, base);
    readme(w, base)
}

/// `targets.openclaw.bundleFormat`, `auto` when unset.
pub fn base(plugin: &Plugin) -> Result<Base> {
    let configured = plugin.config.targets.get("openclaw").and_then(|t| t.bundle_format.as_deref());
    match configured.unwrap_or("auto") {
        "auto" if hook_packs(plugin).is_empty() => Ok(Base::Claude),
        "auto" | "codex" => Ok(Base::Codex),
        "claude" => Ok(Base::Claude),
        "cursor" => Ok(Base::Cursor),
        other => Err(Error::at(
            ErrorCode::InvalidSource,
            Location::file(plugin.metadata_file.as_str()),
            format!("targets.openclaw.bundleFormat must be claude, codex, cursor or auto, not {other:?}"),
        )),
    }
}

/// OpenClaw hook packs the source ships: `hooks/<pack>/HOOK.md` folders.
fn hook_packs(plugin: &Plugin) -> Vec<String> {
    plugin
        .support
        .iter()
        .filter_map(|f| f.path.as_str().strip_prefix("hooks/")?.strip_suffix("/HOOK.md").map(str::to_string))
        .filter(|pack| !pack.contains('/'))
        .collect()
}

/// Whether a hook pack has a handler OpenClaw imports (it tries these, in order).
fn has_handler(plugin: &Plugin, pack: &str) -> bool {
    let handlers = ["handler.ts", "handler.js", "index.ts", "index.js"].map(|h| format!("hooks/{pack}/{h}"));
    plugin.support.iter().any(|f| handlers.contains(&f.path.to_string()))
}

/// What OpenClaw loads of a plugin laid out in `format` (one of
/// [`LOADS_FORMATS`]): the rows of a compatible bundle on that base. An Agent
/// Plugins root manifest it detects is not described (no rows).
fn loaded_as(w: &mut Writer<'_>, format: super::Runtime) -> bool {
    let base = match format {
        super::Runtime::ClaudeCode => Base::Claude,
        super::Runtime::Codex => Base::Codex,
        super::Runtime::Cursor => Base::Cursor,
        _ => return false,
    };
    bundle_rows(w, base);
    true
}

/// OpenClaw's honesty rows for a bundle laid out in `base`'s format.
fn bundle_rows(w: &mut Writer<'_>, base: Base) {
    let plugin = w.plugin;
    for skill in &plugin.skills {
        let loaded = format!("skills/{}: an OpenClaw skill", skill.name);
        if uses_plugin_vars(&skill.document.body) {
            let detail = format!("{loaded}; OpenClaw substitutes no plugin-root variable in SKILL.md");
            w.honest(Component::Skill, &skill.name, Level::Degraded, detail);
        } else {
            w.honest(Component::Skill, &skill.name, Level::Supported, loaded);
        }
    }
    for command in &plugin.commands {
        let detail = match base {
            Base::Claude => LOOSE_MARKDOWN,
            Base::Codex => "OpenClaw maps no commands/ from a Codex bundle",
            Base::Cursor => "OpenClaw reads a Cursor bundle's commands from .cursor/commands, not commands/",
        };
        w.honest(Component::Command, &command.name, Level::Unsupported, detail);
    }
    for agent in &plugin.agents {
        let detail = match base {
            Base::Claude => LOOSE_MARKDOWN,
            Base::Codex => "a Codex bundle carries no agents",
            Base::Cursor => "OpenClaw only detects Cursor agents (and reads them from .cursor/agents)",
        };
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
    }
    for style in &plugin.output_styles {
        let detail = match base {
            Base::Claude => LOOSE_MARKDOWN,
            Base::Codex | Base::Cursor => "this bundle format carries no output styles",
        };
        w.honest(Component::OutputStyle, style.path.as_str(), Level::Unsupported, detail);
    }
    for file in &plugin.bin {
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, "shipped; OpenClaw puts no bundle bin/ on PATH");
    }
    hook_rows(w, base);
    mcp_rows(w, base);
    if plugin.settings.is_some() {
        let (level, detail) = match base {
            Base::Claude => (
                Level::Degraded,
                "imported as embedded OpenClaw defaults (shellPath and shellCommandPrefix stripped); \
                 Claude Code's meaning of its keys does not carry over",
            ),
            Base::Codex | Base::Cursor => (Level::Unsupported, "this bundle format carries no settings"),
        };
        w.honest(Component::Settings, "settings.json", level, detail);
    }
    if let Some(context) = &plugin.context {
        let detail = "an OpenClaw bundle loads no context file; openclaw:workspace writes it into AGENTS.md";
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, detail);
    }
}

fn hook_rows(w: &mut Writer<'_>, base: Base) {
    let plugin = w.plugin;
    let events: Vec<String> = plugin
        .hooks
        .as_ref()
        .and_then(|h| h.value.get("hooks")?.as_object().map(|m| m.keys().cloned().collect()))
        .unwrap_or_default();
    for event in events {
        let detail = match base {
            Base::Claude => "OpenClaw detects a Claude hooks/hooks.json but does not run it",
            Base::Codex => {
                "OpenClaw runs only hook packs (HOOK.md + handler) from a Codex bundle, not hooks/hooks.json"
            }
            Base::Cursor => "OpenClaw only detects Cursor hooks",
        };
        w.honest(Component::Hook, &event, Level::Unsupported, detail);
    }
    for pack in hook_packs(plugin) {
        let name = format!("hooks/{pack}");
        let (level, detail) = match (base, has_handler(plugin, &pack)) {
            (Base::Codex, true) => {
                (Level::Supported, "an OpenClaw hook pack of the Codex bundle".to_string())
            }
            (Base::Codex, false) => (
                Level::Unsupported,
                "no handler (handler.ts/js, index.ts/js) beside HOOK.md: OpenClaw cannot load it".into(),
            ),
            (Base::Claude | Base::Cursor, _) => (
                Level::Unsupported,
                "OpenClaw reads hook packs from a Codex bundle only (bundleFormat codex, or auto)".into(),
            ),
        };
        w.honest(Component::Hook, &name, level, detail);
    }
}

fn mcp_rows(w: &mut Writer<'_>, base: Base) {
    let Some(mcp) = &w.plugin.mcp else { return };
    for (name, server) in &mcp.servers {
        if base == Base::Cursor {
            let detail = "OpenClaw reads a Cursor bundle's MCP servers from .mcp.json; the Cursor layout's file is mcp.json";
            w.honest(Component::Mcp, name, Level::Unsupported, detail);
            continue;
        }
        let text = server.to_string();
        let kind = server.get("type").and_then(Value::as_str);
        let (level, detail) = if text.contains("${PLUGIN_DATA}") {
            let spelled = if base == Base::Claude { "${CLAUDE_PLUGIN_DATA}" } else { "${PLUGIN_DATA}" };
            (
                Level::Degraded,
                format!(
                    "merged into OpenClaw's embedded mcpServers, but OpenClaw does not expand {spelled} for this bundle"
                ),
            )
        } else if server.get("url").is_some() && kind != Some("sse") {
            (
                Level::Degraded,
                "merged into OpenClaw's embedded mcpServers; OpenClaw connects over SSE unless the server sets \
                 transport \"streamable-http\""
                    .to_string(),
            )
        } else {
            (Level::Supported, "merged into OpenClaw's embedded mcpServers".to_string())
        };
        w.honest(Component::Mcp, name, level, detail);
    }
}

fn readme(w: &mut Writer<'_>, base: Base) -> Result<()> {
    if w.authored_readme(None)? {
        return Ok(());
    }
    let rows = |carried: bool| -> Vec<Value> {
        w.bundle
            .honesty
            .iter()
            .filter(|h| (h.level != Level::Unsupported) == carried)
            .map(|h| json!({"component": h.component, "name": h.name, "detail": h.detail}))
            .collect()
    };
    let fields = json!({
        "id": openclaw_id(&w.plugin.namespace),
        "base": base.id(),
        "mapped": rows(true),
        "left_out": rows(false),
    });
    w.render_readme("openclaw", fields)
}

/// The plugin id OpenClaw derives from a manifest name: lowercase, runs of
/// other characters as one dash.
pub fn openclaw_id(name: &str) -> String {
    let mut out = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

// ------------------------------------------------------------------- workspace

fn workspace(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let files = format!("{STATE_DIR}/{}", plugin.namespace);
    let local = LocalRoot { root: files.clone(), data: format!("{files}-data") };
    for skill in &plugin.skills {
        let source_dir = skill.main.path.as_str().rsplit_once('/').map_or("", |(d, _)| d);
        let dir = format!("skills/{}", skill.name);
        local.copy(w, &skill.main, &format!("{dir}/SKILL.md"))?;
        for file in &skill.files {
            let rel = file.path.strip_prefix(source_dir).unwrap_or_else(|| file.path.clone());
            local.copy(w, file, &format!("{dir}/{rel}"))?;
        }
        w.honest(Component::Skill, &skill.name, Level::Supported, format!("{dir}/SKILL.md, a workspace skill"));
    }
    let packs = hook_packs(plugin);
    for file in &plugin.support {
        let in_pack = packs.iter().any(|p| file.path.strip_prefix(&format!("hooks/{p}")).is_some());
        let to = if in_pack { file.path.to_string() } else { format!("{files}/{}", file.path) };
        local.copy(w, file, &to)?;
    }
    for file in &plugin.bin {
        local.copy(w, file, &format!("{files}/{}", file.path))?;
        let detail = format!("copied to {files}/{}; OpenClaw puts nothing on PATH for it", file.path);
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, detail);
    }
    workspace_rows(w, &packs);
    if let Some(context) = &plugin.context {
        let text = context.file.text().unwrap_or_default();
        let text = local.text(text).unwrap_or_else(|| text.to_string());
        w.merge("AGENTS.md", Part::Section { id: format!("plugforge:{}", plugin.namespace), text })?;
        let detail = "a marked section of AGENTS.md, which OpenClaw loads at the start of every session";
        w.honest(Component::Context, context.path.as_str(), Level::Supported, detail);
    }
    Ok(())
}

fn workspace_rows(w: &mut Writer<'_>, packs: &[String]) {
    let plugin = w.plugin;
    let skill_only = "an OpenClaw workspace loads skills/<name>/SKILL.md only (openclaw:compatible-bundle \
                      loads commands/, agents/ and output-styles/ as skill roots)";
    for command in &plugin.commands {
        w.honest(Component::Command, &command.name, Level::Unsupported, skill_only);
    }
    for agent in &plugin.agents {
        w.honest(Component::Agent, &agent.name, Level::Unsupported, skill_only);
    }
    for style in &plugin.output_styles {
        w.honest(Component::OutputStyle, style.path.as_str(), Level::Unsupported, skill_only);
    }
    let events: Vec<String> = plugin
        .hooks
        .as_ref()
        .and_then(|h| h.value.get("hooks")?.as_object().map(|m| m.keys().cloned().collect()))
        .unwrap_or_default();
    for event in events {
        let detail = "OpenClaw has no Claude hook events; it runs HOOK.md hook packs only";
        w.honest(Component::Hook, &event, Level::Unsupported, detail);
    }
    for pack in packs {
        let (level, detail) = if has_handler(plugin, pack) {
            (
                Level::Degraded,
                format!("hooks/{pack}: a workspace hook runs only after `openclaw hooks enable {pack}`"),
            )
        } else {
            (
                Level::Unsupported,
                "no handler (handler.ts/js, index.ts/js) beside HOOK.md: OpenClaw cannot load it".to_string(),
            )
        };
        w.honest(Component::Hook, &format!("hooks/{pack}"), level, detail);
    }
    if let Some(mcp) = &plugin.mcp {
        for name in mcp.servers.keys() {
            let detail = "OpenClaw reads MCP servers from its own config or a bundle, not from a workspace \
                          (openclaw:compatible-bundle carries them)";
            w.honest(Component::Mcp, name, Level::Unsupported, detail);
        }
    }
    if plugin.settings.is_some() {
        w.honest(
            Component::Settings,
            "settings.json",
            Level::Unsupported,
            "an OpenClaw workspace has no settings file",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{BuildOptions, TargetRequest};
    use crate::source::SourceTree;

    fn tree(files: &[(&str, &str)]) -> SourceTree {
        let mut source = SourceTree::new();
        for (path, text) in files {
            source.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        source
    }

    fn plugin(files: &[(&str, &str)]) -> Plugin {
        let vars = Default::default();
        let load = crate::model::LoadOptions { vars: &vars, namespace: None, builtins: vec![] };
        crate::model::load_plugin(crate::model::Source::Written(&tree(files)), &load).unwrap().0
    }

    fn config(format: &str) -> String {
        format!(r#"{{"name": "kit", "targets": {{"openclaw": {{"bundleFormat": "{format}"}}}}}}"#)
    }

    const BARE: (&str, &str) = ("plugforge.json", r#"{"name": "kit"}"#);
    const PACK: (&str, &str) = ("hooks/ping/HOOK.md", "---\nname: ping\n---\n");

    #[test]
    fn auto_takes_codex_only_for_hook_packs() {
        assert_eq!(base(&plugin(&[BARE])).unwrap(), Base::Claude);
        assert_eq!(base(&plugin(&[BARE, PACK])).unwrap(), Base::Codex);
        assert_eq!(base(&plugin(&[("plugforge.json", &config("claude")), PACK])).unwrap(), Base::Claude);
        assert_eq!(base(&plugin(&[("plugforge.json", &config("codex"))])).unwrap(), Base::Codex);
        assert_eq!(base(&plugin(&[("plugforge.json", &config("cursor")), PACK])).unwrap(), Base::Cursor);
        let unknown = base(&plugin(&[("plugforge.json", &config("gemini"))])).unwrap_err();
        assert_eq!(unknown.code, ErrorCode::InvalidSource);
    }

    #[test]
    fn a_bundle_reports_what_openclaw_maps() {
        let source = tree(&[
            BARE,
            ("commands/go.md", "---\ndescription: Go\n---\nGo.\n"),
            ("hooks/hooks.json", r#"{"hooks": {"Stop": []}}"#),
            PACK,
            ("hooks/ping/handler.js", "export default () => {};\n"),
        ]);
        let options = BuildOptions { targets: vec![TargetRequest::new("openclaw")], ..Default::default() };
        let bundle = crate::build(&source, &options).unwrap().bundles.remove(0);
        assert!(bundle.files.keys().any(|p| p.as_str() == ".codex-plugin/plugin.json"));
        assert!(bundle.merges.is_empty(), "no marketplace entry");
        let rows: Vec<(&str, &str, Level)> =
            bundle.honesty.iter().map(|h| (h.component.as_str(), h.name.as_str(), h.level)).collect();
        assert_eq!(
            rows,
            [
                ("command", "go", Level::Unsupported),
                ("hook", "Stop", Level::Unsupported),
                ("hook", "hooks/ping", Level::Supported),
            ]
        );
    }

    #[test]
    fn ids_are_slugged_as_openclaw_does() {
        assert_eq!(openclaw_id("Demo Plugin!"), "demo-plugin");
        assert_eq!(openclaw_id("deploy-kit"), "deploy-kit");
    }
}
