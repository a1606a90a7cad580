//! The `project` kind: what Codex 0.171 reads from a repository (project
//! scope, OUT is the project) or from the home folder (user scope), checked
//! with the app-server (`skills/list`, `hooks/list`, `config/read`) and
//! `codex debug prompt-input` (agent roles, AGENTS.md):
//!
//! - skills in `.agents/skills/<name>/` (`~/.agents/skills` for the user);
//! - agent roles in `.codex/agents/<name>.toml`;
//! - hooks in `.codex/hooks.json`, MCP servers as `[mcp_servers.<name>]` in
//!   `.codex/config.toml` (a project's `.codex/` counts once Codex trusts it);
//! - the context file as a section of `AGENTS.md` (`~/.codex/AGENTS.md`);
//! - every other file below `.codex/<namespace>/`, where `${PLUGIN_ROOT}` points.

use serde_json::{Map, Value, json};

use super::super::Writer;
use super::super::local_root::{LocalRoot, uses_plugin_vars};
use super::{commands, hooks, mcp};
use crate::bundle::Scope;
use crate::error::Result;
use crate::format::{toml, yaml};
use crate::merge::Part;
use crate::model::MarkdownComponent;
use crate::report::Level;
use crate::report::Component;

const HOOKS_FILE: &str = ".codex/hooks.json";
const CONFIG_FILE: &str = ".codex/config.toml";
const SKILLS_DIR: &str = ".agents/skills";
const AGENTS_DIR: &str = ".codex/agents";

/// Shared files the project kind may hold parts of, in either scope.
pub const SHARED: &[&str] = &[HOOKS_FILE, CONFIG_FILE, "AGENTS.md", ".codex/AGENTS.md"];

/// Agent frontmatter keys with a Codex agent-role counterpart.
const AGENT_KEYS: [&str; 3] = ["name", "description", "model"];

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let local = local_root(w);
    skill_files(w, &local)?;
    command_skills(w, &local)?;
    for agent in &plugin.agents {
        agent_role(w, agent, &local)?;
    }
    hook_parts(w, &local)?;
    mcp_section(w, &local)?;
    let files = files_dir(w);
    for file in &plugin.support {
        local.copy(w, file, &format!("{files}/{}", file.path))?;
    }
    for file in &plugin.bin {
        local.copy(w, file, &format!("{files}/{}", file.path))?;
        let detail = format!("copied to {files}/{}; Codex puts nothing on PATH for it", file.path);
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, detail);
    }
    for style in &plugin.output_styles {
        w.honest(Component::OutputStyle, style.path.as_str(), Level::Unsupported, "Codex has no output styles");
    }
    if plugin.settings.is_some() {
        let detail = "Claude Code's settings keys have no Codex counterpart";
        w.honest(Component::Settings, "settings.json", Level::Unsupported, detail);
    }
    context(w, &local)
}

/// `.codex/<namespace>`, below the output root.
fn files_dir(w: &Writer<'_>) -> String {
    format!(".codex/{}", w.plugin.namespace)
}

/// Project scope: paths relative to the project root (where Codex runs);
/// user scope: below `${HOME}`, which hook shells expand.
fn local_root(w: &Writer<'_>) -> LocalRoot {
    let files = files_dir(w);
    match w.options.scope {
        Scope::Project => LocalRoot { root: files.clone(), data: format!("{files}-data") },
        Scope::User => {
            LocalRoot { root: format!("${{HOME}}/{files}"), data: format!("${{HOME}}/{files}-data") }
        }
    }
}

fn context_file(w: &Writer<'_>) -> &'static str {
    match w.options.scope {
        Scope::Project => "AGENTS.md",
        Scope::User => ".codex/AGENTS.md",
    }
}

fn section_id(w: &Writer<'_>) -> String {
    format!("plugforge:{}", w.plugin.namespace)
}

fn skill_files(w: &mut Writer<'_>, local: &LocalRoot) -> Result<()> {
    for skill in &w.plugin.skills {
        if skill.document.str_field("description").is_none_or(|d| d.trim().is_empty()) {
            let detail = "Codex refuses a SKILL.md without a description";
            w.honest(Component::Skill, &skill.name, Level::Unsupported, detail);
            continue;
        }
        let dir = format!("{SKILLS_DIR}/{}", skill.name);
        let source_dir = skill.main.path.as_str().rsplit_once('/').map_or("", |(d, _)| d);
        local.copy(w, &skill.main, &format!("{dir}/SKILL.md"))?;
        for file in &skill.files {
            let rel = file.path.strip_prefix(source_dir).unwrap_or_else(|| file.path.clone());
            local.copy(w, file, &format!("{dir}/{rel}"))?;
        }
        w.honest(Component::Skill, &skill.name, Level::Supported, format!("{dir}/SKILL.md"));
    }
    Ok(())
}

/// Codex has no project commands: the ones its own plugin migration would
/// accept become skills named `<namespace>-<command>`.
fn command_skills(w: &mut Writer<'_>, local: &LocalRoot) -> Result<()> {
    for command in &w.plugin.commands {
        if let Some(reason) = commands::refusal(command) {
            w.honest(Component::Command, &command.name, Level::Unsupported, format!("{reason}; left out"));
            continue;
        }
        let name = commands::slug(&format!("{}-{}", w.plugin.namespace, command.name));
        let description = command.document.field("description").cloned().unwrap_or_default();
        let mut frontmatter = Map::new();
        frontmatter.insert("name".into(), json!(name));
        frontmatter.insert("description".into(), description);
        let body = &command.document.body;
        let text = yaml::frontmatter(&frontmatter, &local.text(body).unwrap_or_else(|| body.clone()));
        let path = format!("{SKILLS_DIR}/{name}/SKILL.md");
        w.add(&path, text.into_bytes(), command.file.file.origin.to_string())?;
        let detail = format!("no slash command in Codex: written as the skill {path}");
        w.honest(Component::Command, &command.name, Level::Degraded, detail);
    }
    Ok(())
}

/// An agent as a Codex agent role: `name`, `description`, and the prompt as
/// `developer_instructions` (all three required by Codex).
fn agent_role(w: &mut Writer<'_>, agent: &MarkdownComponent, local: &LocalRoot) -> Result<()> {
    let description = agent.document.str_field("description").map(str::trim).unwrap_or_default();
    let body = agent.document.body.trim();
    if description.is_empty() || body.is_empty() {
        let missing =
            if description.is_empty() { "a description" } else { "instructions (its body is empty)" };
        let detail = format!("Codex ignores an agent role without {missing}");
        w.honest(Component::Agent, &agent.name, Level::Unsupported, detail);
        return Ok(());
    }
    let name = agent.document.str_field("name").unwrap_or(&agent.name).to_string();
    let instructions = local.text(body).unwrap_or_else(|| body.to_string());
    let mut role = Map::new();
    role.insert("name".into(), json!(name));
    role.insert("description".into(), json!(description));
    role.insert("developer_instructions".into(), json!(format!("{instructions}\n")));
    let mut dropped: Vec<String> = agent
        .document
        .frontmatter
        .iter()
        .flat_map(|m| m.keys())
        .filter(|k| !AGENT_KEYS.contains(&k.as_str()))
        .cloned()
        .collect();
    match agent.document.str_field("model") {
        None | Some("inherit") => {}
        Some(model) => dropped.push(format!("model ({model} is a Claude model)")),
    }
    let path = format!("{AGENTS_DIR}/{}.toml", commands::slug(&name));
    w.add(&path, toml::document(&role).into_bytes(), agent.file.file.origin.to_string())?;
    if dropped.is_empty() {
        w.honest(Component::Agent, &agent.name, Level::Supported, path);
    } else {
        let detail = format!("{path}; Codex agent roles have no {}: dropped", dropped.join(", "));
        w.honest(Component::Agent, &agent.name, Level::Degraded, detail);
    }
    Ok(())
}

fn hook_parts(w: &mut Writer<'_>, local: &LocalRoot) -> Result<()> {
    let plugin = w.plugin;
    let Some(source) = &plugin.hooks else { return Ok(()) };
    let shell_lines = w.user_options_in_hooks(crate::shell::hooks_as_shell_lines(source.value.clone()));
    let events = hooks::translate(&local.json(shell_lines));
    for event in &events {
        let rooted = source.value.get("hooks").and_then(|h| h.get(&event.name)).map(Value::to_string);
        let relative =
            w.options.scope == Scope::Project && rooted.is_some_and(|text| uses_plugin_vars(&text));
        let groups = event.groups.clone().unwrap_or_default();
        if !groups.is_empty() {
            let pointer = vec!["hooks".to_string(), event.name.clone()];
            w.merge(HOOKS_FILE, Part::JsonItems { pointer, items: groups })?;
        }
        let (level, detail) = match event.level {
            Level::Supported if relative => (
                Level::Degraded,
                format!("{HOOKS_FILE}; paths are relative to the project root: start Codex there"),
            ),
            Level::Supported => (Level::Supported, format!("{HOOKS_FILE} (once Codex trusts the project)")),
            level => (level, event.detail.clone()),
        };
        w.honest(Component::Hook, &event.name, level, detail);
    }
    Ok(())
}

/// MCP servers as `[mcp_servers.<name>]` tables in one owned section of
/// `.codex/config.toml` (marked by comments; the rest of the file is kept
/// byte for byte).
fn mcp_section(w: &mut Writer<'_>, local: &LocalRoot) -> Result<()> {
    let Some(source) = &w.plugin.mcp else { return Ok(()) };
    let mut tables = Vec::new();
    for (name, value) in &source.servers {
        let rooted = uses_plugin_vars(&value.to_string());
        let mut server = mcp::server(&local.json(value.clone()));
        if let Value::Object(table) = &mut server.value {
            table.remove("type");
            tables.push(toml::table(&["mcp_servers".to_string(), name.clone()], table));
        }
        let (level, detail) = match (server.level, rooted) {
            (Level::Supported, true) => (Level::Degraded, rooted_server(w, name, &local.root)),
            (Level::Supported, false) => (
                Level::Supported,
                format!("[mcp_servers.{name}] in {CONFIG_FILE} (once Codex trusts the project)"),
            ),
            (level, _) => (level, server.detail),
        };
        w.honest(Component::Mcp, name, level, detail);
    }
    if tables.is_empty() {
        return Ok(());
    }
    w.merge(CONFIG_FILE, Part::Section { id: section_id(w), text: tables.join("\n") })
}

/// Why a server that needs the plugin folder is degraded: Codex starts it
/// from its working directory and expands no variable in it (checked with
/// `codex doctor`: neither `${HOME}`, `$HOME` nor `~` resolves).
fn rooted_server(w: &Writer<'_>, name: &str, root: &str) -> String {
    let place = format!("[mcp_servers.{name}] in {CONFIG_FILE}");
    match w.options.scope {
        Scope::Project => {
            format!("{place}; its paths below {root} resolve only when Codex runs at the project root")
        }
        Scope::User => {
            format!("{place}; Codex expands no variables there, so replace {root} with the absolute path")
        }
    }
}

fn context(w: &mut Writer<'_>, local: &LocalRoot) -> Result<()> {
    let Some(context) = &w.plugin.context else { return Ok(()) };
    let text = context.file.text().unwrap_or_default();
    let text = local.text(text).unwrap_or_else(|| text.to_string());
    let file = context_file(w);
    w.merge(file, Part::Section { id: section_id(w), text })?;
    w.honest(Component::Context, context.path.as_str(), Level::Supported, format!("a marked section of {file}"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_roles_are_codex_toml() {
        let mut role = Map::new();
        role.insert("name".into(), json!("watcher"));
        role.insert("description".into(), json!("Watches a rollout"));
        role.insert("developer_instructions".into(), json!("Watch it.\nReport.\n"));
        assert_eq!(
            toml::document(&role),
            "name = \"watcher\"\ndescription = \"Watches a rollout\"\ndeveloper_instructions = '''\nWatch it.\nReport.\n'''\n"
        );
    }
}
