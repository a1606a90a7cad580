//! OpenAI Codex CLI (0.171): a plugin (its manifest [`facts::MANIFEST_PATH`],
//! listed in the marketplace at [`facts::MARKETPLACE_PATH`]) and a project kind
//! (what Codex reads from a repository or from `~/.codex`).

mod judge;
mod commands;
pub(crate) mod facts;
pub(crate) mod lint;
pub(crate) mod read;
mod marketplace;
mod hooks;
mod mcp;
mod project;

use serde_json::{Map, Value, json};

use super::local_root::uses_plugin_vars;
use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer};
use crate::error::Result;
use crate::merge::Part;
use crate::model::Plugin;
use crate::report::Level;
use crate::templates;
use crate::vars::VarTable;
use crate::report::Component;

/// Codex exports `PLUGIN_ROOT` and `PLUGIN_DATA` to plugin hooks, so the
/// canonical spelling is already Codex's own: nothing to replace.
const CODEX_VARS: VarTable = VarTable(&[]);

/// The subtitle limit of Codex's plugin page (formats.md §2.2: the CLI does
/// not check it, the app rejects longer ones).
const SHORT_DESCRIPTION_MAX: usize = 30;
/// Codex keeps at most 3 default prompts of at most 128 characters and drops
/// the others with a warning.
pub(crate) const DEFAULT_PROMPTS_MAX: usize = 3;
const DEFAULT_PROMPT_MAX: usize = 128;
pub(crate) const DEFAULT_CATEGORY: &str = "Developer Tools";
pub(crate) const DEFAULT_CAPABILITIES: [&str; 1] = ["Interactive"];

/// Codex's CLI and its app-server, the judge of its plugins and projects.
pub(crate) const CLIENT: super::Client = super::Client {
    id: "codex",
    name: "Codex",
    commands: &["codex"],
    quiet: &[("CODEX_DISABLE_UPDATE_CHECK", "1")],
    package: "@openai/codex",
    version: "0.171.0",
    binary: "node_modules/@openai/codex-linux-x64/vendor/*/bin/codex",
    extra_packages: &[],
    load: &["codex plugin marketplace add ./ROOT", "codex plugin add NAME@MARKETPLACE --json"],
    list: &["codex app-server: plugin/read, skills/list, hooks/list"],
    driver: "core/src/runtime/codex/drivers/codex_inventory.py",
    typical_seconds: 3,
    launch: super::Launch::AsInstalled,
};

/// Codex judging a plugin listed by its marketplace at the output root.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Plugin],
    driver: "core/src/runtime/codex/drivers/codex_inventory.py",
    args: &["--codex", "BIN", "plugin", "--marketplace-root", "ROOT", "--plugin", "NAME"],
    read: judge::read_plugin,
};

/// Codex reading a project (or, for the user scope, a home) the build wrote into.
const PROJECT_CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Project],
    driver: "core/src/runtime/codex/drivers/codex_inventory.py",
    args: &["--codex", "BIN", "project", "--root", "ROOT", "--scope", "SCOPE"],
    read: judge::read_project,
};

/// Codex judging an Agent Plugins package (it reads their root manifest).
pub(crate) const PACKAGE_CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::Plugin],
    driver: "core/src/runtime/codex/drivers/codex_agent_plugins.py",
    args: &["--codex", "BIN", "--plugin-dir", "DIR", "--name", "NAME"],
    read: judge::read_package,
};

/// Codex, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Codex",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: false, manifest_fallbacks: lint::MANIFEST_FALLBACKS, check_manifest: Some(lint::check_manifest), check_plugin: None, layout: lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: Some(super::CommandDescription { key_alone_suffices: false, why_needed: "Codex does not migrate it into a skill" }), own_format: None },
    hook_trust: Some(super::HookTrust { kind: ArtifactKind::Plugin, hooks_file: "hooks/hooks.json", how: HOOK_TRUST }),
    read: Some(super::Reader { read: read::import, manifestless_layout: None, claims: None }),
    foreign: Some(super::Foreign { manifest: facts::MANIFEST_PATH, marketplace: Some(facts::MARKETPLACE_PATH), manifest_folder: Some(facts::MANIFEST_DIR), runtime_only_fields: &["interface", "apps"], read_field: Some(("interface", read::foreign_interface)) }),
    judge: super::Judge::Clients(&[CHECK, PROJECT_CHECK]),
    rules: lint::RULES,
    subject: "Codex",
    folder_vars: &[(facts::PLUGIN_ROOT_VAR, true), (facts::PLUGIN_DATA_VAR, false)],
    marketplace: Some(marketplace::MARKETPLACE),
    hooks: Some(super::Hooks {
        events: super::HookEvents::Listed(&facts::HOOK_EVENT_NAMES),
        unknown_event: |event| {
            let list = facts::HOOK_EVENT_NAMES.join(", ");
            format!("`{event}` is not a codex hook event, so it never fires (events: {list})")
        },
        shape: super::HookShape::Grouped { handler_types: &facts::HOOK_HANDLER_TYPES },
        requires_hooks_key: false,
        top_level_keys: Some(&["hooks", "description"]),
        // Codex exports PLUGIN_ROOT/PLUGIN_DATA and the CLAUDE_ copies to hook
        // commands (codex-rs/hooks discovery.rs), but expands nothing in `.mcp.json`.
        expands: &[
            facts::PLUGIN_ROOT_VAR,
            facts::PLUGIN_DATA_VAR,
            super::claude_code::facts::PLUGIN_ROOT_VAR,
            super::claude_code::facts::PLUGIN_DATA_VAR,
        ],
        quoted_vars: &[],
        run_from_plugin_folder: false,
    }),
    mcp: super::Mcp {
        files: Some(&[".mcp.json"]),
        misplaced: None,
        read_file: None,
        server: None,
        expands: Some(&[]),
        unexpanded: "Codex expands no variable in `.mcp.json`; use `cwd: \".\"` and `./` paths",
    },
};

pub const KINDS: &[Kind] = &[
    Kind {
        name: ArtifactKind::Plugin,
        layout: Layout::Folder,
        scopes: BOTH_SCOPES,
        marketplace: Some(facts::MARKETPLACE_PATH),
        shared: &[],
    },
    Kind {
        name: ArtifactKind::Project,
        layout: Layout::InPlace { state_dir: ".codex" },
        scopes: BOTH_SCOPES,
        marketplace: None,
        shared: project::SHARED,
    },
];

/// How a user lets a Codex plugin's hooks run: Codex 0.171 installs them
/// inert and asks at the start of a session ("Hooks need review"), storing
/// each trusted hook's hash in `~/.codex/config.toml`.
pub(crate) const HOOK_TRUST: &str = "start `codex` and answer its \"Hooks need review\" prompt with \"Trust all and \
     continue\" (or trust them one by one in /hooks); Codex asks again when a hook changes";

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    if w.kind.name == ArtifactKind::Project {
        return project::write(w);
    }
    write_plugin(w)?;
    readme(w)?;
    if w.options.marketplace {
        marketplace(w)?;
    }
    Ok(())
}

/// This bundle's entry in [`facts::MARKETPLACE_PATH`] (the universal folder lists itself too).
pub(crate) fn marketplace(w: &mut Writer<'_>) -> Result<()> {
    let (document, entry) = marketplace_entry(w.plugin, &w.bundle.root, &w.marketplace_name());
    w.merge(facts::MARKETPLACE_PATH, Part::MarketplaceEntry { document, entry })
}

/// The plugin's files and honesty rows, without README or marketplace entry
/// (OpenClaw's compatible bundle reuses it).
pub(crate) fn write_plugin(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    manifest(w)?;
    skills(w)?;
    commands(w)?;
    for agent in &plugin.agents {
        let detail = "Codex 0.171 loads agent roles only from ~/.codex/agents and <project>/.codex/agents; \
                      a plugin cannot ship one (build codex:project for .codex/agents/<name>.toml)";
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
    }
    for style in &plugin.output_styles {
        w.honest(Component::OutputStyle, style.path.as_str(), Level::Unsupported, "Codex has no output styles");
    }
    for file in &plugin.bin {
        w.copy(file, None, None)?;
        let detail = "shipped, but Codex puts no plugin bin/ on PATH: call it as ${PLUGIN_ROOT}/bin/...";
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, detail);
    }
    for file in &plugin.support {
        w.copy(file, None, None)?;
    }
    apps(w)?;
    hooks(w)?;
    mcp(w)?;
    if plugin.settings.is_some() {
        let detail = "Codex plugins carry no settings; Claude Code's keys have no Codex meaning";
        w.honest(Component::Settings, "settings.json", Level::Unsupported, detail);
    }
    if let Some(context) = &plugin.context {
        let detail =
            "Codex plugins load no context file; build codex:project to get it as an AGENTS.md section";
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, detail);
    }
    Ok(())
}

/// Whether this bundle is one Codex loads itself, so its app connectors are
/// served (OpenClaw's Codex-shaped bundle reuses the writer and has none).
fn serves_apps(w: &Writer<'_>) -> bool {
    w.runtime == super::Runtime::Codex
}

/// The app connectors, as the source lists them: Codex serves each by its
/// connector id ([`facts::APPS_FILE`]).
fn apps(w: &mut Writer<'_>) -> Result<()> {
    let Some(apps) = w.plugin.apps.as_ref().filter(|_| serves_apps(w)) else { return Ok(()) };
    w.add_json(facts::APPS_FILE, &apps.value, apps.origin.to_string())?;
    for name in w.plugin.app_names() {
        let id = w.plugin.app_id(&name).unwrap_or("no id given").to_string();
        let detail = format!(
            "a ChatGPT app connector ({id}): Codex serves its tools through its hosted codex_apps server \
             once the user signs in with ChatGPT"
        );
        w.honest(Component::App, &name, Level::Supported, detail);
    }
    Ok(())
}

fn manifest(w: &mut Writer<'_>) -> Result<()> {
    let mut manifest = w.metadata(false);
    if !w.plugin.skills.is_empty() {
        manifest.insert("skills".into(), json!("./skills/"));
    }
    if w.plugin.apps.is_some() && serves_apps(w) {
        manifest.insert("apps".into(), json!(facts::APPS_FIELD));
    }
    let mut interface = interface(w);
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    for (key, value) in overrides {
        match (key.as_str(), value) {
            ("interface", Value::Object(fields)) => interface.extend(fields),
            (_, value) => {
                manifest.insert(key, value);
            }
        }
    }
    default_prompts(w, &mut interface);
    short_description_honesty(w, &interface);
    manifest.insert("interface".into(), Value::Object(interface));
    w.add_json(facts::MANIFEST_PATH, &Value::Object(manifest), templates::origin("codex/plugin.json"))
}

/// The install-surface block Codex shows: every field derived from the
/// source, `targets.codex.manifest.interface` wins field by field.
fn interface(w: &Writer<'_>) -> Map<String, Value> {
    let plugin = w.plugin;
    let config = &plugin.config;
    let mut interface = Map::new();
    interface.insert("displayName".into(), json!(config.display_name.as_deref().unwrap_or(&config.name)));
    if let Some(description) = &config.description {
        interface.insert("shortDescription".into(), json!(short_description(description)));
        interface.insert("longDescription".into(), json!(description));
    }
    if let Some(author) = &config.author {
        interface.insert("developerName".into(), json!(author.name));
    }
    interface.insert("category".into(), json!(category(plugin)));
    interface.insert("capabilities".into(), json!(DEFAULT_CAPABILITIES));
    // Codex shows `logo` on the plugin's page and `composerIcon` in the
    // composer; one icon serves both, as published Codex plugins do.
    if let Some(icon) = w.icon_file() {
        interface.insert("logo".into(), json!(icon));
        interface.insert("composerIcon".into(), json!(icon));
    }
    let prompts: Vec<String> =
        plugin.skills.iter().take(DEFAULT_PROMPTS_MAX).map(|s| format!("Use the {} skill", s.name)).collect();
    if !prompts.is_empty() {
        interface.insert("defaultPrompt".into(), json!(prompts));
    }
    interface
}

/// The plugin's category: the Codex override, else the source's marketplace
/// category, else Codex's catch-all.
fn category(plugin: &Plugin) -> &str {
    let overridden = plugin.config.targets.get("codex").and_then(|t| t.manifest.get("interface"));
    overridden
        .and_then(|interface| interface.get("category"))
        .and_then(Value::as_str)
        .or(plugin.config.marketplace.category.as_deref())
        .unwrap_or(DEFAULT_CATEGORY)
}

/// The description when it fits the subtitle limit, else its words up to
/// the limit and an ellipsis.
pub(crate) fn short_description(description: &str) -> String {
    let text = description.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= SHORT_DESCRIPTION_MAX {
        return text;
    }
    let mut out = String::new();
    for word in text.split(' ') {
        let next = if out.is_empty() { word.to_string() } else { format!("{out} {word}") };
        if next.chars().count() + 1 > SHORT_DESCRIPTION_MAX {
            break;
        }
        out = next;
    }
    if out.is_empty() {
        out = text.chars().take(SHORT_DESCRIPTION_MAX - 1).collect();
    }
    format!("{}…", out.trim_end_matches(|c: char| c.is_ascii_punctuation()))
}

fn short_description_honesty(w: &mut Writer<'_>, interface: &Map<String, Value>) {
    let Some(short) = interface.get("shortDescription").and_then(Value::as_str) else { return };
    let long = w.plugin.config.description.as_deref().unwrap_or_default();
    let (level, detail) = if short.chars().count() > SHORT_DESCRIPTION_MAX {
        (
            Level::Degraded,
            format!(
                "{} characters: Codex's plugin page takes at most {SHORT_DESCRIPTION_MAX}",
                short.chars().count()
            ),
        )
    } else if short.ends_with('…') && long.chars().count() > SHORT_DESCRIPTION_MAX {
        (
            Level::Degraded,
            format!(
                "the {}-character description is cut to {short:?} (Codex's plugin page takes at most \
                 {SHORT_DESCRIPTION_MAX}); set targets.codex.manifest.interface.shortDescription to choose it",
                long.chars().count()
            ),
        )
    } else {
        (Level::Supported, "interface.shortDescription".to_string())
    };
    w.honest(Component::Metadata, "interface.shortDescription", level, detail);
}

/// Codex keeps at most 3 default prompts of at most 128 characters and
/// drops the rest silently: the bundle carries only what Codex keeps, and
/// each prompt left out is a degraded honesty row naming the file that set it.
fn default_prompts(w: &mut Writer<'_>, interface: &mut Map<String, Value>) {
    let prompts: Vec<Value> = match interface.get("defaultPrompt") {
        None => return,
        Some(Value::Array(items)) => items.clone(),
        Some(one) => vec![one.clone()],
    };
    let file = w.plugin.metadata_file.to_string();
    let mut kept = Vec::new();
    for (index, prompt) in prompts.into_iter().enumerate() {
        let problem = match prompt.as_str() {
            None => Some(format!("{prompt} is not a string")),
            Some(text) => {
                let length = text.split_whitespace().collect::<Vec<_>>().join(" ").chars().count();
                (length > DEFAULT_PROMPT_MAX)
                    .then(|| format!("{length} characters; Codex drops prompts over {DEFAULT_PROMPT_MAX}"))
            }
        };
        let problem = problem.or_else(|| {
            (kept.len() >= DEFAULT_PROMPTS_MAX)
                .then(|| format!("Codex keeps the first {DEFAULT_PROMPTS_MAX} prompts only"))
        });
        match problem {
            Some(why) => {
                let detail = format!("interface.defaultPrompt[{index}] (set in {file}) is left out: {why}");
                w.honest(Component::Metadata, &format!("interface.defaultPrompt[{index}]"), Level::Degraded, detail);
            }
            None => kept.push(prompt),
        }
    }
    if kept.is_empty() {
        interface.shift_remove("defaultPrompt");
    } else {
        interface.insert("defaultPrompt".into(), Value::Array(kept));
    }
}

fn skills(w: &mut Writer<'_>) -> Result<()> {
    for skill in &w.plugin.skills {
        if skill.document.str_field("description").is_none_or(|d| d.trim().is_empty()) {
            let detail =
                "Codex refuses a SKILL.md without a description (skills/list: missing field description)";
            w.honest(Component::Skill, &skill.name, Level::Unsupported, detail);
            continue;
        }
        w.copy_skill_main(skill, None, Some(CODEX_VARS))?;
        for file in &skill.files {
            w.copy(file, None, None)?;
        }
        let invoked =
            format!("skills/{}/SKILL.md, invoked as {}:{}", skill.name, w.plugin.namespace, skill.name);
        if uses_plugin_vars(&skill.document.body) {
            let detail = format!(
                "{invoked}; Codex does not substitute ${{PLUGIN_ROOT}}/${{PLUGIN_DATA}} in SKILL.md, \
                 so the agent sees the placeholder"
            );
            w.honest(Component::Skill, &skill.name, Level::Degraded, detail);
        } else {
            w.honest(Component::Skill, &skill.name, Level::Supported, invoked);
        }
    }
    Ok(())
}

/// Ships only the commands Codex will migrate into skills at install.
fn commands(w: &mut Writer<'_>) -> Result<()> {
    for command in &w.plugin.commands {
        match commands::refusal(command) {
            Some(reason) => {
                w.honest(Component::Command, &command.name, Level::Unsupported, format!("{reason}; left out"))
            }
            None => {
                w.copy(&command.file, None, Some(CODEX_VARS))?;
                let detail = format!(
                    "no slash command: Codex migrates it at install into the skill {}:{}",
                    w.plugin.namespace,
                    commands::migrated_name(&command.name)
                );
                w.honest(Component::Command, &command.name, Level::Degraded, detail);
            }
        }
    }
    Ok(())
}

fn hooks(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let Some(source) = &plugin.hooks else { return Ok(()) };
    let events = hooks::translate(&w.user_options_in_hooks(crate::shell::exec_form_as_shell_line(source.value.clone())));
    for event in &events {
        w.honest(Component::Hook, &event.name, event.level, event.detail.clone());
    }
    // Codex rejects a hooks file with `$schema`, and one source version
    // denies unknown keys: only `hooks` goes in.
    w.add_json("hooks/hooks.json", &hooks::file(&events), source.origin.to_string())
}

fn mcp(w: &mut Writer<'_>) -> Result<()> {
    let Some(source) = &w.plugin.mcp else { return Ok(()) };
    let mut servers = Map::new();
    for (name, value) in &source.servers {
        let server = mcp::server(value);
        w.honest(Component::Mcp, name, server.level, server.detail);
        servers.insert(name.clone(), server.value);
    }
    w.add_json(".mcp.json", &json!({ "mcpServers": servers }), source.origin.to_string())
}

fn readme(w: &mut Writer<'_>) -> Result<()> {
    if w.authored_readme(Some(CODEX_VARS))? {
        return Ok(());
    }
    let plugin = w.plugin;
    let shipped: Vec<Value> = plugin
        .skills
        .iter()
        .filter_map(|s| Some(json!({"name": s.name, "description": s.document.str_field("description")?})))
        .collect();
    let migrated: Vec<Value> = plugin
        .commands
        .iter()
        .filter(|c| commands::refusal(c).is_none())
        .map(|c| json!({"name": commands::migrated_name(&c.name), "description": c.document.str_field("description")}))
        .collect();
    let fields = json!({
        "skills": shipped,
        "migrated": migrated,
        "hooks": w.bundle.honesty.iter().filter(|h| h.component == Component::Hook && h.level != Level::Unsupported)
            .map(|h| h.name.clone()).collect::<Vec<_>>(),
        "mcp_servers": plugin.mcp.as_ref().map(|m| m.servers.keys().cloned().collect::<Vec<_>>()).unwrap_or_default(),
        "hook_trust": HOOK_TRUST,
    });
    w.render_readme("codex", fields)
}

/// (the marketplace file to start from, this plugin's entry).
fn marketplace_entry(plugin: &Plugin, root: &str, name: &str) -> (Value, Value) {
    let config = &plugin.config;
    let display = config.marketplace.display_name.clone().unwrap_or_else(|| name.to_string());
    let category = category(plugin);
    let mut entry = json!({
        "name": plugin.namespace,
        "source": {"source": "local", "path": format!("./{root}")},
        "policy": {"installation": "AVAILABLE"},
        "category": category,
    });
    // What the source's own entry stated of the plugin (its authentication
    // policy, facts::MARKETPLACE_POLICY): merged key by key.
    let stated = config.targets.get("codex").map(|t| &t.marketplace_entry);
    for (key, value) in stated.into_iter().flatten() {
        match (entry.get_mut(key), value) {
            (Some(Value::Object(mine)), Value::Object(theirs)) => {
                mine.extend(theirs.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            _ => {
                entry[key] = value.clone();
            }
        }
    }
    let document = json!({"name": name, "interface": {"displayName": display}, "plugins": []});
    (document, entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_descriptions_fit_codex_subtitles() {
        assert_eq!(short_description("Deploys services."), "Deploys services.");
        let long = "Drive Striatum workflows from your coding agent: claim work, publish artifacts.";
        let short = short_description(long);
        assert_eq!(short, "Drive Striatum workflows from…");
        assert!(short.chars().count() <= SHORT_DESCRIPTION_MAX);
        assert_eq!(short_description(&"x".repeat(40)).chars().count(), SHORT_DESCRIPTION_MAX);
    }
    use crate::bundle::Bundle;
    use crate::options::{BuildOptions, TargetRequest};
    use crate::source::SourceTree;

    fn build(files: &[(&str, &str)], kind: &str) -> Bundle {
        let mut source = SourceTree::new();
        for (path, text) in files {
            source.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        let target = TargetRequest { runtime: "codex".into(), kind: Some(kind.into()) };
        let options = BuildOptions { targets: vec![target], ..Default::default() };
        crate::build(&source, &options).unwrap().bundles.remove(0)
    }

    fn text(bundle: &Bundle, path: &str) -> String {
        let file =
            bundle.files.iter().find(|(p, _)| p.as_str() == path).unwrap_or_else(|| panic!("no {path}"));
        String::from_utf8(file.1.bytes.to_vec()).unwrap()
    }

    fn row<'a>(bundle: &'a Bundle, component: &str, name: &str) -> &'a crate::report::Honesty {
        bundle.honesty.iter().find(|h| h.component == component && h.name == name).unwrap()
    }

    const CONFIG: &str = r#"{"name": "kit", "version": "1.0.0", "description": "Short kit",
        "targets": {"codex": {"manifest": {"interface": {"category": "Coding", "capabilities": ["Interactive", "Write"]}}}}}"#;

    #[test]
    fn the_manifest_carries_the_interface_block_with_overrides() {
        let bundle = build(
            &[("plugforge.json", CONFIG), ("skills/a/SKILL.md", "---\nname: a\ndescription: A\n---\nBody\n")],
            "plugin",
        );
        let manifest: Value = serde_json::from_str(&text(&bundle, ".codex-plugin/plugin.json")).unwrap();
        assert_eq!(
            manifest,
            json!({"name": "kit", "version": "1.0.0", "description": "Short kit", "skills": "./skills/",
                "interface": {"displayName": "kit", "shortDescription": "Short kit", "longDescription": "Short kit",
                    "category": "Coding", "capabilities": ["Interactive", "Write"],
                    "defaultPrompt": ["Use the a skill"]}})
        );
        assert_eq!(row(&bundle, "metadata", "interface.shortDescription").level, Level::Supported);
        assert_eq!(row(&bundle, "skill", "a").detail, "skills/a/SKILL.md, invoked as kit:a");
    }

    /// A plugin of OpenAI's collection (linear at openai/plugins 3fdeeb49)
    /// states its category and authentication policy in its entry: both
    /// reach the entry the build writes, the listing's own installation
    /// policy does not.
    #[test]
    fn the_marketplace_entry_carries_the_sources_category_and_authentication() {
        let own = r#"{"name": "openai-curated", "plugins": [{"name": "kit", "source": {"source": "local", "path": "./"},
            "policy": {"installation": "INSTALLED_BY_DEFAULT", "authentication": "ON_USE"}, "category": "Productivity"}]}"#;
        let mut source = SourceTree::new();
        for (path, text) in [
            (".codex-plugin/plugin.json", r#"{"name": "kit", "version": "1.0.0", "skills": "./skills/"}"#),
            (".agents/plugins/marketplace.json", own),
            ("skills/a/SKILL.md", "---\nname: a\ndescription: A\n---\nBody\n"),
        ] {
            source.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        let imported = crate::import::import(&source, &Default::default()).unwrap();
        let config: Value = serde_json::from_slice(&imported.source.get("plugforge.json").unwrap().bytes).unwrap();
        assert_eq!(config["targets"]["codex"]["marketplaceEntry"], json!({"policy": {"authentication": "ON_USE"}}));
        let target = TargetRequest { runtime: "codex".into(), kind: Some("plugin".into()) };
        let options = BuildOptions { targets: vec![target], marketplace: true, ..Default::default() };
        for tree in [&source, &imported.source] {
            let bundle = crate::build(tree, &options).unwrap().bundles.remove(0);
            let entry = bundle.merges.iter().find_map(|m| match &m.part {
                Part::MarketplaceEntry { entry, .. } => Some(entry.clone()),
                _ => None,
            });
            let entry = entry.expect("a marketplace entry");
            assert_eq!(entry["policy"], json!({"installation": "AVAILABLE", "authentication": "ON_USE"}));
            assert_eq!(entry["category"], "Productivity");
        }
    }

    #[test]
    fn the_project_kind_writes_roles_sections_and_hook_items() {
        let bundle = build(
            &[
                ("plugforge.json", r#"{"name": "kit", "version": "1.0.0"}"#),
                (
                    "agents/w.md",
                    "---\nname: w\ndescription: Watches\ncolor: red\n---\nWatch ${PLUGIN_DATA}/x.\n",
                ),
                (".mcp.json", r#"{"s": {"type": "stdio", "command": "${PLUGIN_ROOT}/bin/s"}}"#),
                (
                    "hooks/hooks.json",
                    r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}"#,
                ),
                ("AGENTS.md", "Be kind.\n"),
            ],
            "project",
        );
        assert_eq!(
            text(&bundle, ".codex/agents/w.toml"),
            "name = \"w\"\ndescription = \"Watches\"\ndeveloper_instructions = '''\nWatch .codex/kit-data/x.\n'''\n"
        );
        assert_eq!(
            row(&bundle, "agent", "w").detail,
            ".codex/agents/w.toml; Codex agent roles have no color: dropped"
        );
        let parts: Vec<(String, Part)> =
            bundle.merges.iter().map(|m| (m.path.to_string(), m.part.clone())).collect();
        let section = |text: &str| Part::Section { id: "plugforge:kit".into(), text: text.into() };
        assert!(parts.contains(&(
            ".codex/config.toml".into(),
            section("[mcp_servers.s]\ncommand = \".codex/kit/bin/s\"\n")
        )));
        let stop = Part::JsonItems {
            pointer: vec!["hooks".into(), "Stop".into()],
            items: vec![json!({"hooks": [{"type": "command", "command": "echo"}]})],
        };
        assert!(parts.contains(&(".codex/hooks.json".into(), stop)));
        assert!(parts.contains(&("AGENTS.md".into(), section("Be kind.\n"))));
        assert_eq!(row(&bundle, "hook", "Stop").level, Level::Supported);
        assert_eq!(row(&bundle, "mcp", "s").level, Level::Degraded);
    }
}
