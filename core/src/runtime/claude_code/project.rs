//! Claude Code `project` kind: the plugin's parts as loose project (or, for
//! user scope, home) configuration instead of a plugin. OUT is the project
//! folder, or the home folder for user scope; both get the same layout
//! below `.claude/`:
//!
//! - skills, commands, agents and output styles in `.claude/<component>/`;
//! - hooks merged into `.claude/settings.json` (`hooks.<Event>`), and the
//!   settings keys beside them;
//! - MCP servers merged into `.mcp.json` (project) or `~/.claude.json`
//!   (user: where `claude mcp add -s user` keeps them);
//! - the context file as a section of `CLAUDE.md` (`~/.claude/CLAUDE.md`);
//! - every other file (hook scripts, `bin/`) in `.claude/plugforge/<ns>/`,
//!   which `${PLUGIN_ROOT}` now names.

use serde_json::Value;

use crate::runtime::Writer;
use crate::runtime::local_root::LocalRoot;
use crate::bundle::Scope;
use crate::error::Result;
use crate::merge::Part;
use crate::model::MarkdownComponent;
use crate::report::Level;
use crate::report::Component;

/// Every shared file the kind may hold parts of, in either scope.
pub const SHARED: &[&str] =
    &[".claude/settings.json", ".mcp.json", ".claude.json", "CLAUDE.md", ".claude/CLAUDE.md"];
const SETTINGS_FILE: &str = ".claude/settings.json";

/// Where things go for one scope.
struct Places {
    scope: Scope,
    /// `~/` for user scope, empty for a project: how a path reads to the user.
    shown: &'static str,
    mcp_file: &'static str,
    context_file: &'static str,
    root: LocalRoot,
}

fn places(scope: Scope, ns: &str) -> Places {
    match scope {
        // Claude Code sets CLAUDE_PROJECT_DIR for hooks but not when it reads
        // `.mcp.json`, where a variable without a default is reported as
        // missing; `:-.` falls back to the working directory, the project.
        Scope::Project => Places {
            scope,
            shown: "",
            mcp_file: ".mcp.json",
            context_file: "CLAUDE.md",
            root: LocalRoot {
                root: format!("${{CLAUDE_PROJECT_DIR:-.}}/.claude/plugforge/{ns}"),
                data: format!("${{CLAUDE_PROJECT_DIR:-.}}/.claude/plugforge-data/{ns}"),
            },
        },
        Scope::User => Places {
            scope,
            shown: "~/",
            mcp_file: ".claude.json",
            context_file: ".claude/CLAUDE.md",
            root: LocalRoot {
                root: format!("${{HOME}}/.claude/plugforge/{ns}"),
                data: format!("${{HOME}}/.claude/plugforge-data/{ns}"),
            },
        },
    }
}

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    let plugin = w.plugin;
    let ns = plugin.namespace.clone();
    let places = places(w.options.scope, &ns);
    for skill in &plugin.skills {
        let dir = format!(".claude/skills/{}", skill.name);
        places.root.copy(w, &skill.main, &format!("{dir}/SKILL.md"))?;
        for file in &skill.files {
            w.copy(file, Some(&format!(".claude/{}", file.path)), None)?;
        }
        w.honest(Component::Skill, &skill.name, Level::Supported, format!("{}{dir}/SKILL.md", places.shown));
    }
    commands(w, &places)?;
    agents(w, &places)?;
    for style in &plugin.output_styles {
        w.copy(style, Some(&format!(".claude/{}", style.path)), None)?;
        w.honest(
            Component::OutputStyle,
            style.path.as_str(),
            Level::Supported,
            format!("{}.claude/{}", places.shown, style.path),
        );
    }
    for file in plugin.support.iter().chain(&plugin.bin) {
        w.copy(file, Some(&format!(".claude/plugforge/{ns}/{}", file.path)), None)?;
    }
    for file in &plugin.bin {
        let detail = format!(
            "copied to {}.claude/plugforge/{ns}/{}; not on PATH: Claude Code adds bin/ to PATH for plugins only",
            places.shown, file.path
        );
        w.honest(Component::Bin, file.path.as_str(), Level::Degraded, detail);
    }
    hooks(w, &places)?;
    settings(w, &places)?;
    mcp(w, &places)?;
    context(w, &places)
}

fn commands(w: &mut Writer<'_>, places: &Places) -> Result<()> {
    let ns = &w.plugin.namespace;
    for command in &w.plugin.commands {
        let path = format!(".claude/{}", command.file.path);
        places.root.copy(w, &command.file, &path)?;
        let invoked = command.name.rsplit(':').next().unwrap_or(&command.name);
        let detail = format!(
            "{}{path}, invoked as /{invoked}: commands outside a plugin have no namespace, so /{ns}:{} \
             in the plugin's own text no longer resolves",
            places.shown, command.name
        );
        w.honest(Component::Command, &command.name, Level::Degraded, detail);
    }
    Ok(())
}

fn agents(w: &mut Writer<'_>, places: &Places) -> Result<()> {
    for agent in &w.plugin.agents {
        agent_file(w, places, agent)?;
    }
    Ok(())
}

/// Unlike plugin agents, project and user agents keep `permissionMode`,
/// `hooks` and `mcpServers`.
fn agent_file(w: &mut Writer<'_>, places: &Places, agent: &MarkdownComponent) -> Result<()> {
    let path = format!(".claude/{}", agent.file.path);
    places.root.copy(w, &agent.file, &path)?;
    w.honest(Component::Agent, &agent.name, Level::Supported, format!("{}{path}", places.shown));
    Ok(())
}

/// Each event's hook groups join that event's list in `.claude/settings.json`.
fn hooks(w: &mut Writer<'_>, places: &Places) -> Result<()> {
    let Some(hooks) = w.plugin.hooks.as_ref().and_then(|h| h.value.get("hooks")?.as_object().cloned()) else {
        return Ok(());
    };
    for (event, groups) in hooks {
        let items: Vec<Value> = groups.as_array().cloned().unwrap_or_default();
        let items: Vec<Value> = items.into_iter().map(|g| places.root.json(crate::shell::quote_folder_variables_in_hooks(g))).collect();
        let detail = format!(
            "{}{SETTINGS_FILE} hooks.{event}; scripts in {}.claude/plugforge/{}/",
            places.shown, places.shown, w.plugin.namespace
        );
        w.honest(Component::Hook, &event, Level::Supported, detail);
        if !items.is_empty() {
            w.merge(SETTINGS_FILE, Part::JsonItems { pointer: vec!["hooks".into(), event.clone()], items })?;
        }
    }
    Ok(())
}

/// Outside a plugin every settings key applies, not only `agent` and
/// `subagentStatusLine`: each joins `.claude/settings.json` as it is.
fn settings(w: &mut Writer<'_>, places: &Places) -> Result<()> {
    let Some(settings) = &w.plugin.settings else { return Ok(()) };
    let value = places.root.json(settings.value.clone());
    let keys: Vec<String> = value.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    for (key, value) in value.as_object().into_iter().flatten() {
        let part = Part::JsonEntry { pointer: Vec::new(), key: key.clone(), value: value.clone() };
        w.merge(SETTINGS_FILE, part)?;
    }
    let detail = format!("{}{SETTINGS_FILE}: {}", places.shown, keys.join(", "));
    w.honest(Component::Settings, "settings.json", Level::Supported, detail);
    Ok(())
}

fn mcp(w: &mut Writer<'_>, places: &Places) -> Result<()> {
    let Some(mcp) = &w.plugin.mcp else { return Ok(()) };
    for (name, server) in &mcp.servers {
        let (value, typed) = super::remote_type(places.root.json(server.clone()));
        let detail = match places.scope {
            Scope::Project => format!(
                ".mcp.json mcpServers.{name}; Claude Code asks each user to approve a project server once{typed}"
            ),
            Scope::User => format!("~/.claude.json mcpServers.{name} (user MCP servers){typed}"),
        };
        w.honest(Component::Mcp, name, Level::Supported, detail);
        let part = Part::JsonEntry { pointer: vec!["mcpServers".into()], key: name.clone(), value };
        w.merge(places.mcp_file, part)?;
    }
    Ok(())
}

fn context(w: &mut Writer<'_>, places: &Places) -> Result<()> {
    let Some(context) = &w.plugin.context else { return Ok(()) };
    let text = context.file.text().unwrap_or_default();
    let text = places.root.text(text).unwrap_or_else(|| text.to_string());
    let id = format!("plugforge:{}", w.plugin.namespace);
    let detail = format!("a {id} section of {}{}", places.shown, places.context_file);
    w.honest(Component::Context, context.path.as_str(), Level::Supported, detail);
    w.merge(places.context_file, Part::Section { id, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_variables_name_the_namespace_folder_per_scope() {
        let project = places(Scope::Project, "dk").root;
        assert_eq!(
            project.text("${PLUGIN_ROOT}/hooks/guard.sh ${PLUGIN_DATA}").unwrap(),
            "${CLAUDE_PROJECT_DIR:-.}/.claude/plugforge/dk/hooks/guard.sh ${CLAUDE_PROJECT_DIR:-.}/.claude/plugforge-data/dk"
        );
        let user = places(Scope::User, "dk").root;
        assert_eq!(user.text("${PLUGIN_ROOT}/bin/x").unwrap(), "${HOME}/.claude/plugforge/dk/bin/x");
    }

    #[test]
    fn honesty_rows_in_both_scopes() {
        use crate::runtime::local_root::fixture::rows;
        use Level::{Degraded as D, Supported as S};
        let expected = vec![
            ("skill", S),
            ("command", D), // no namespace outside a plugin
            ("agent", S),
            ("output-style", S),
            ("bin", D), // not on PATH
            ("hook", S),
            ("settings", S),
            ("mcp", S),
            ("context", S),
        ];
        assert_eq!(rows("claude-code", "project", Scope::Project), expected);
        assert_eq!(rows("claude-code", "project", Scope::User), expected);
    }

    #[test]
    fn user_mcp_servers_go_where_claude_mcp_add_puts_them() {
        assert_eq!(places(Scope::User, "dk").mcp_file, ".claude.json");
        assert_eq!(places(Scope::Project, "dk").mcp_file, ".mcp.json");
        assert!(SHARED.contains(&".claude.json") && SHARED.contains(&".mcp.json"));
    }
}
