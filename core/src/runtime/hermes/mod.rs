//! Hermes Agent (hermes-agent 0.19, read from its installed source).
//!
//! - `workspace` (default; user scope only, OUT is the home folder): skills
//!   in `~/.hermes/skills/<namespace>/<name>/` (the namespace is the skill
//!   category), commands as skills, MCP servers merged into the
//!   `mcp_servers` map of `~/.hermes/config.yaml`, other files under
//!   `~/.hermes/plugforge/<namespace>/`. Hermes reads skills and MCP servers
//!   only from its home (`get_skills_dir()`, `skills.external_dirs` resolved
//!   against HERMES_HOME, `mcp_servers` in config.yaml), so project scope is
//!   refused; a project-scope build without a kind gets the skill plugin.
//! - `skill-plugin`: `plugin.yaml` + a fixed `__init__.py` that only calls
//!   `ctx.register_skill(name, path_to_SKILL.md)` for each `skills/<name>/`.

pub(crate) mod facts;
pub(crate) mod lint;
mod judge;
mod registration;

use serde_json::{Map, Value, json};

use super::local_root::{LocalRoot, uses_plugin_vars};
use super::{ArtifactKind, BOTH_SCOPES, Kind, Layout, Writer};
use crate::bundle::Scope;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::format::yaml;
use crate::merge::Part;
use crate::model::{MarkdownComponent, Skill};
use crate::report::Level;
use crate::templates;
use crate::vars::VarTable;
use crate::report::Component;

use facts::CONFIG_FILE;

const WORKSPACE: ArtifactKind = ArtifactKind::Workspace;

/// Hermes Agent (Python), the judge of its plugins and workspaces.
pub(crate) const CLIENT: super::Client = super::Client {
    id: "hermes",
    name: "Hermes",
    commands: &["hermes"],
    quiet: &[],
    package: "pypi:hermes-agent",
    version: "0.19.0",
    binary: "bin/hermes",
    extra_packages: &[],
    load: &["cp -r DIR $HERMES_HOME/plugins/NAME", "hermes plugins enable NAME"],
    list: &["hermes plugins list"],
    driver: "core/src/runtime/hermes/drivers/hermes_inventory.py",
    typical_seconds: 7,
    launch: super::Launch::AsInstalled,
};

/// Hermes loading a skill plugin copied into its plugins folder.
pub(crate) const CHECK: super::Check = super::Check {
    client: &CLIENT,
    kinds: &[ArtifactKind::SkillPlugin],
    driver: "core/src/runtime/hermes/drivers/hermes_inventory.py",
    args: &["--hermes", "BIN", "--plugin-dir", "DIR"],
    read: judge::read_plugin,
};

/// Hermes, as the registry knows it.
pub(crate) const SPEC: super::Spec = super::Spec {
    name: "Hermes",
    kinds: KINDS,
    write,
    in_target_all: true,
    required_urls: &[],
    reads: super::Reads { marker: Some(facts::MANIFEST_PATH), claims_shared_marker: None, loads_formats: &[], loaded_as: None, loads_manifestless: None, manifest: Some(facts::MANIFEST_PATH), manifest_required: true, manifest_fallbacks: &[], check_manifest: Some(lint::check_manifest), check_plugin: Some(registration::check), layout: lint::layout, lenient_manifest_syntax: false, lenient_frontmatter: false, check_component_frontmatter: None },
    skills: super::Skills { follows_agent_skills_spec: true, strict_spec_keys: false },
    agents: super::Agents { recursive: true, skipped_prefix: None, frontmatter_required: false, check: None },
    commands: super::Commands { extensions: &[".md"], frontmatter_required: true, description: None, own_format: None },
    hook_trust: None,
    read: None,
    foreign: None,
    judge: super::Judge::Clients(&[CHECK]),
    rules: registration::RULES,
    subject: "Hermes",
    folder_vars: &[],
    marketplace: None,
    hooks: None,
    mcp: super::Mcp {
        files: None,
        misplaced: None,
        read_file: None,
        server: None,
        expands: None,
        unexpanded: "hermes leaves it unexpanded",
    },
};

pub const KINDS: &[Kind] = &[
    Kind {
        name: WORKSPACE,
        layout: Layout::InPlace { state_dir: ".hermes" },
        scopes: &[Scope::User],
        marketplace: None,
        shared: &[CONFIG_FILE],
    },
    Kind {
        name: ArtifactKind::SkillPlugin,
        layout: Layout::Folder,
        scopes: BOTH_SCOPES,
        marketplace: None,
        shared: &[],
    },
];

/// In a skill plugin a skill sits at `<plugin>/skills/<name>/`, and Hermes
/// substitutes `${HERMES_SKILL_DIR}` when it serves the skill.
const SKILL_PLUGIN_VARS: VarTable = VarTable(&[
    ("${PLUGIN_ROOT}", "${HERMES_SKILL_DIR}/../.."),
    ("${PLUGIN_DATA}", "${HERMES_SKILL_DIR}/../../data"),
]);

/// MCP server keys Hermes reads (`tools/mcp_tool.py`); `type` is implied.
const MCP_KEYS: [&str; 5] = ["command", "args", "env", "url", "headers"];

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    check_names(w)?;
    if w.kind.name == WORKSPACE { workspace(w) } else { skill_plugin(w) }
}

/// Hermes namespaces plugin skills as `<plugin>:<skill>`, both parts
/// `[a-zA-Z0-9_-]+` (`agent/skill_utils.py` `_NAMESPACE_RE`); a skill plugin
/// with another name fails to load.
fn is_hermes_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
}

fn check_names(w: &Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    if !is_hermes_name(&plugin.namespace) {
        return Err(Error::at(
            ErrorCode::InvalidSource,
            Location::file(plugin.metadata_file.as_str()),
            format!(
                "Hermes needs a namespace of letters, digits, '_' and '-'; {:?} is not",
                plugin.namespace
            ),
        ));
    }
    Ok(())
}

/// The skills Hermes can name; each other one gets an unsupported row and
/// is left out, so the rest of the plugin still loads (a skill folder such
/// as `transformers.js` would make the plugin's registration raise).
fn nameable_skills<'p>(w: &mut Writer<'p>) -> Vec<&'p Skill> {
    let plugin = w.plugin;
    let mut kept = Vec::new();
    for skill in &plugin.skills {
        if is_hermes_name(&skill.name) {
            kept.push(skill);
            continue;
        }
        let detail = format!(
            "Hermes names skills with letters, digits, '_' and '-' only; {:?} is not such a name: not written \
             (rename the skill folder to carry it)",
            skill.name
        );
        w.honest(Component::Skill, &skill.name, Level::Unsupported, detail);
    }
    kept
}

// ---------------------------------------------------------------- skill-plugin

fn skill_plugin(w: &mut Writer<'_>) -> Result<()> {
    plugin_yaml(w)?;
    w.add(
        facts::INIT_PATH,
        templates::render("hermes/__init__.py", json!({})).into_bytes(),
        templates::origin("hermes/__init__.py"),
    )?;
    for skill in nameable_skills(w) {
        w.copy_skill_main(skill, None, Some(SKILL_PLUGIN_VARS))?;
        for file in &skill.files {
            w.copy(file, None, None)?;
        }
        plugin_skill_row(w, skill);
    }
    let left_out = not_packed(w);
    readme(w, &left_out)
}

fn plugin_yaml(w: &mut Writer<'_>) -> Result<()> {
    let config = &w.plugin.config;
    let mut manifest = Map::new();
    manifest.insert("name".into(), json!(w.plugin.namespace));
    if let Some(version) = &config.version {
        manifest.insert("version".into(), json!(version));
    }
    if let Some(description) = &config.description {
        manifest.insert("description".into(), json!(description));
    }
    if let Some(author) = &config.author {
        manifest.insert("author".into(), json!(author.name));
    }
    // hermes-agent 0.19's installer refuses a manifest_version above 1.
    manifest.insert("manifest_version".into(), json!(1));
    let overrides: Vec<(String, Value)> = w.overrides().map(|(k, v)| (k.clone(), v.clone())).collect();
    manifest.extend(overrides);
    w.add(
        facts::MANIFEST_PATH,
        yaml::document(&manifest).into_bytes(),
        templates::origin("hermes/plugin.yaml"),
    )
}

fn plugin_skill_row(w: &mut Writer<'_>, skill: &Skill) {
    let qualified = format!("{}:{}", w.plugin.namespace, skill.name);
    let text = skill.main.file.text().unwrap_or_default();
    let detail = if uses_plugin_vars(text) {
        format!(
            "registered as {qualified}; it refers to ${{PLUGIN_ROOT}}/${{PLUGIN_DATA}}, but a skill plugin packs \
             only skill folders (those become ${{HERMES_SKILL_DIR}}/../.. and its data/ folder)"
        )
    } else {
        format!(
            "registered as {qualified}; Hermes loads plugin skills only when asked for by that name \
             (skill_view), they are not in the model's skill index (the workspace kind lists them)"
        )
    };
    w.honest(Component::Skill, &skill.name, Level::Degraded, detail);
}

/// One unsupported row per component a skill plugin cannot carry; returns
/// the components left out, for the README.
fn not_packed(w: &mut Writer<'_>) -> Vec<Component> {
    let plugin = w.plugin;
    let to_workspace = "a Hermes skill plugin packs skills only; the workspace kind installs it";
    let mut left_out = Vec::new();
    let mut row = |w: &mut Writer<'_>, component: Component, name: &str, detail: &str| {
        if !left_out.contains(&component) {
            left_out.push(component);
        }
        w.honest(component, name, Level::Unsupported, detail);
    };
    for command in &plugin.commands {
        row(w, Component::Command, &command.name, &format!("{to_workspace} as a skill"));
    }
    for agent in &plugin.agents {
        row(w, Component::Agent, &agent.name, NO_AGENTS);
    }
    for event in hook_events(w) {
        row(w, Component::Hook, &event, NO_HOOKS);
    }
    for name in plugin.mcp.iter().flat_map(|m| m.servers.keys()) {
        row(w, Component::Mcp, name, &format!("{to_workspace} into ~/.hermes/config.yaml mcp_servers"));
    }
    if let Some(context) = &plugin.context {
        row(w, Component::Context, context.path.as_str(), NO_USER_CONTEXT);
    }
    if plugin.settings.is_some() {
        row(w, Component::Settings, "settings.json", NO_SETTINGS);
    }
    for file in &plugin.bin {
        row(
            w,
            Component::Bin,
            file.path.as_str(),
            "a Hermes skill plugin packs skills only; Hermes puts no plugin folder on PATH",
        );
    }
    for style in &plugin.output_styles {
        row(w, Component::OutputStyle, style.path.as_str(), NO_OUTPUT_STYLES);
    }
    left_out
}

const NO_AGENTS: &str =
    "Hermes has no sub-agent definition files: its delegate tool takes a goal and context per call";
const NO_HOOKS: &str = "Hermes shell hooks (config.yaml hooks:) use their own event names (pre_tool_call, ...), tool names \
                        (terminal, not Bash) and payload, and ask for consent on first use; plugforge does not \
                        translate Claude hooks to them";
const NO_USER_CONTEXT: &str = "Hermes reads context files only from the working directory (.hermes.md, AGENTS.md); \
                               its one user-wide file, SOUL.md, replaces the agent's identity; move the guidance \
                               into a skill";
const NO_SETTINGS: &str = "Hermes has no counterpart to a Claude Code settings.json";
const NO_OUTPUT_STYLES: &str = "Hermes has no output styles";

fn hook_events(w: &Writer<'_>) -> Vec<String> {
    w.plugin
        .hooks
        .as_ref()
        .and_then(|h| h.value.get("hooks")?.as_object().map(|m| m.keys().cloned().collect()))
        .unwrap_or_default()
}

fn readme(w: &mut Writer<'_>, left_out: &[Component]) -> Result<()> {
    if w.authored_readme(Some(SKILL_PLUGIN_VARS))? {
        return Ok(());
    }
    let skills: Vec<Value> = w
        .plugin
        .skills
        .iter()
        .filter(|s| is_hermes_name(&s.name))
        .map(|s| json!({"name": s.name, "description": s.document.str_field("description")}))
        .collect();
    let plurals: Vec<&str> = left_out.iter().map(|c| plural(*c)).collect();
    w.render_readme("hermes", json!({"skills": skills, "left_out": plurals}))
}

fn plural(component: Component) -> &'static str {
    match component {
        Component::Command => "commands",
        Component::Agent => "agents",
        Component::Hook => "hooks",
        Component::Mcp => "MCP servers",
        Component::Context => "the context file",
        Component::Settings => "settings",
        Component::Bin => "bin/",
        _ => "output styles",
    }
}

// ------------------------------------------------------------------- workspace

fn workspace(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let ns = plugin.namespace.clone();
    let root = LocalRoot {
        root: format!("${{HOME}}/.hermes/plugforge/{ns}"),
        data: format!("${{HOME}}/.hermes/plugforge-data/{ns}"),
    };
    for skill in nameable_skills(w) {
        let dir = format!(".hermes/skills/{ns}/{}", skill.name);
        root.copy(w, &skill.main, &format!("{dir}/SKILL.md"))?;
        for file in &skill.files {
            let rel = file
                .path
                .strip_prefix(&format!("skills/{}", skill.name))
                .expect("skill files sit in their folder");
            w.copy(file, Some(&format!("{dir}/{rel}")), None)?;
        }
        let detail = format!(
            "~/{dir}/SKILL.md (category {ns}), listed in the model's skill index and as /{}",
            skill.name
        );
        w.honest(Component::Skill, &skill.name, Level::Supported, detail);
    }
    for command in &plugin.commands {
        command_skill(w, &root, command)?;
    }
    for file in plugin.support.iter().chain(&plugin.bin) {
        root.copy(w, file, &format!(".hermes/plugforge/{ns}/{}", file.path))?;
    }
    for file in &plugin.bin {
        let detail =
            format!("copied to ~/.hermes/plugforge/{ns}/{}; Hermes puts no plugin folder on PATH", file.path);
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, detail);
    }
    mcp_servers(w, &root)?;
    workspace_unsupported(w);
    Ok(())
}

/// A command becomes a skill named `<namespace>-<command>`: Hermes offers
/// every skill as a slash command and appends what the user typed after it.
fn command_skill(w: &mut Writer<'_>, root: &LocalRoot, command: &MarkdownComponent) -> Result<()> {
    let ns = &w.plugin.namespace;
    let name = format!("{ns}-{}", command.name.replace(':', "-"));
    let mut frontmatter = Map::new();
    frontmatter.insert("name".into(), json!(name));
    let description = command
        .document
        .str_field("description")
        .map_or_else(|| format!("The {} command of {}", command.name, w.plugin.config.name), str::to_string);
    let hint = command.document.argument_hint();
    let description = match &hint {
        Some(hint) => format!("{description} (arguments: {hint})"),
        None => description,
    };
    frontmatter.insert("description".into(), json!(description));
    let body = root.text(&command.document.body).unwrap_or_else(|| command.document.body.clone());
    let path = format!(".hermes/skills/{ns}/{name}/SKILL.md");
    w.add(&path, yaml::frontmatter(&frontmatter, &body).into_bytes(), command.file.file.origin.to_string())?;
    let detail = format!(
        "becomes skill /{name} (~/{path}); Hermes appends the text typed after it as the instruction, \
         so $ARGUMENTS and $1.. stay literal"
    );
    w.honest(Component::Command, &command.name, Level::Degraded, detail);
    Ok(())
}

fn mcp_servers(w: &mut Writer<'_>, root: &LocalRoot) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    for (name, server) in &mcp.servers {
        let (value, dropped) = hermes_server(&root.json(server.clone()));
        // Only this entry is written: the rest of the file keeps its bytes.
        let place = format!("~/{CONFIG_FILE} mcp_servers.{name} (edited in place: the rest of the file keeps its bytes)");
        let (level, detail) = if dropped.is_empty() {
            (Level::Supported, place)
        } else {
            (
                Level::Degraded,
                format!("{place}; Hermes has no {} for MCP servers, left out", dropped.join(", ")),
            )
        };
        w.honest(Component::Mcp, name, level, detail);
        let part = Part::JsonEntry { pointer: vec!["mcp_servers".into()], key: name.clone(), value };
        w.merge(CONFIG_FILE, part)?;
    }
    Ok(())
}

/// A Claude-dialect server in Hermes's dialect, and the keys it cannot keep.
fn hermes_server(server: &Value) -> (Value, Vec<String>) {
    let mut out = Map::new();
    let mut dropped = Vec::new();
    for (key, value) in server.as_object().into_iter().flatten() {
        match key.as_str() {
            k if MCP_KEYS.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            "type" if value == "sse" => {
                out.insert("transport".into(), json!("sse"));
            }
            "type" => {}
            _ => dropped.push(key.clone()),
        }
    }
    (Value::Object(out), dropped)
}

fn workspace_unsupported(w: &mut Writer<'_>) {
    let plugin = w.plugin;
    for agent in &plugin.agents {
        w.honest(Component::Agent, &agent.name, Level::Unsupported, NO_AGENTS);
    }
    for event in hook_events(w) {
        w.honest(Component::Hook, &event, Level::Unsupported, NO_HOOKS);
    }
    if let Some(context) = &plugin.context {
        w.honest(Component::Context, context.path.as_str(), Level::Unsupported, NO_USER_CONTEXT);
    }
    if plugin.settings.is_some() {
        w.honest(Component::Settings, "settings.json", Level::Unsupported, NO_SETTINGS);
    }
    for style in &plugin.output_styles {
        w.honest(Component::OutputStyle, style.path.as_str(), Level::Unsupported, NO_OUTPUT_STYLES);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::Runtime;

    #[test]
    fn workspace_is_user_scope_and_project_scope_defaults_to_the_skill_plugin() {
        assert_eq!(Runtime::Hermes.kind(None, Scope::User).unwrap().name, "workspace");
        assert_eq!(Runtime::Hermes.kind(None, Scope::Project).unwrap().name, "skill-plugin");
        let err = Runtime::Hermes.kind(Some("workspace"), Scope::Project).unwrap_err();
        assert_eq!(err.code, ErrorCode::UnsupportedKind);
        assert!(err.message().contains("hermes workspace cannot be written for project scope"), "{err}");
    }

    #[test]
    fn servers_keep_only_what_hermes_reads() {
        let (server, dropped) = hermes_server(&json!({
            "type": "sse", "url": "http://127.0.0.1:9/sse", "headers": {"A": "b"}, "oauth": {}, "timeout": 5
        }));
        assert_eq!(
            server,
            json!({"transport": "sse", "url": "http://127.0.0.1:9/sse", "headers": {"A": "b"}})
        );
        assert_eq!(dropped, vec!["oauth", "timeout"]);
        let (stdio, none) =
            hermes_server(&json!({"type": "stdio", "command": "x", "args": ["1"], "env": {}}));
        assert_eq!(stdio, json!({"command": "x", "args": ["1"], "env": {}}));
        assert!(none.is_empty());
    }

    #[test]
    fn skill_plugin_variables_point_at_the_plugin_folder() {
        assert_eq!(
            SKILL_PLUGIN_VARS.text("${PLUGIN_ROOT}/x ${PLUGIN_DATA}/y").unwrap(),
            "${HERMES_SKILL_DIR}/../../x ${HERMES_SKILL_DIR}/../../data/y"
        );
    }

    #[test]
    fn honesty_rows_of_both_kinds() {
        use crate::runtime::local_root::fixture::rows;
        use Level::{Degraded as D, Supported as S, Unsupported as U};
        assert_eq!(
            rows("hermes", "workspace", Scope::User),
            vec![
                ("skill", S),
                ("command", D),
                ("bin", D),
                ("mcp", D), // `timeout` has no Hermes counterpart
                ("agent", U),
                ("hook", U),
                ("context", U),
                ("settings", U),
                ("output-style", U),
            ]
        );
        assert_eq!(
            rows("hermes", "skill-plugin", Scope::Project),
            vec![
                ("skill", D),
                ("command", U),
                ("agent", U),
                ("hook", U),
                ("mcp", U),
                ("context", U),
                ("settings", U),
                ("bin", U),
                ("output-style", U),
            ]
        );
    }

    #[test]
    fn the_init_file_only_registers_skills() {
        let code = templates::render("hermes/__init__.py", json!({}));
        assert!(code.contains("ctx.register_skill(skill_md.parent.name, skill_md)"), "{code}");
        let calls: Vec<&str> = code.lines().filter(|l| l.contains("ctx.")).collect();
        assert_eq!(calls.len(), 1, "{code}");
    }
}
