//! Qwen Code extensions as a canonical source: `qwen-extension.json`
//! (metadata, inline MCP servers in the Gemini dialect, the context file,
//! Qwen-only fields kept for its bundle), Markdown and TOML commands with
//! Qwen's prompt syntax, agents with Qwen tool names, `hooks/hooks.json`
//! (or the manifest's inline `hooks`), and the spellings `build` writes
//! (`${extensionPath}`, the installed folder) read back as `${PLUGIN_ROOT}`.

use serde_json::{Map, Value, json};

use super::{Runtime, agent, facts, mcp, prompt};
use crate::draft::Draft;
use crate::draft::common::{self, SkillFile, Spelling, skip_regenerated};
use crate::draft::manifest::{Manifest, entries, relative, short};
use crate::codes::DiagnosticCode;
use crate::draft::markdown::Markdown;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::format::toml_doc;
use crate::path::BundlePath;
use crate::source::{SourceFile, SourceTree};

const MANIFEST: &str = facts::MANIFEST_PATH;

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    let file = tree.get(MANIFEST).ok_or_else(|| crate::draft::missing_marker(MANIFEST))?;
    let mut manifest = Manifest::read(MANIFEST, &file.bytes)?;
    let native_name = manifest.fields.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    for key in ["displayName", "description"] {
        localized(draft, &mut manifest, key);
    }
    manifest.metadata(draft, Some("displayName"));
    let spelling = spelling(&native_name);
    let servers = manifest.take("mcpServers");
    let context = context_files(tree, &mut manifest, draft);
    let hooks = hooks_source(tree, &mut manifest, draft);
    let command_dirs = command_dirs(tree, &mut manifest, draft);
    manifest.keep_for(draft, Runtime::QwenCode.id(), super::SPEC.name, &facts::QWEN_ONLY_KEYS);
    for key in facts::CONVERTER_ONLY_KEYS {
        if let Some(value) = manifest.take(key) {
            let message = format!(
                "\"{key}\" ({}) is read only while Qwen Code converts a Claude Code plugin; its {key} come from the {key}/ folder",
                short(&value)
            );
            manifest.note(draft, DiagnosticCode::UnusedField, key, message);
        }
    }
    manifest.take("$schema");
    if let Some(servers) = servers {
        import_servers(draft, &manifest, servers, &spelling)?;
    }
    manifest.rest(draft, super::SPEC.name);
    if let Some((from, value)) = &hooks.inline {
        import_hooks(draft, from, value.clone(), &spelling)?;
    }
    // The context file first: other runtimes' context files beside it are
    // then known to be theirs (the Gemini CLI build writes GEMINI.md from it).
    for (index, p) in context.iter().enumerate() {
        let file = tree.get(p).expect("context files are in the tree");
        let to = if index == 0 { "AGENTS.md" } else { p.as_str() };
        common::copy_spelled(draft, p, to, file, &spelling)?;
        if index > 0 {
            let message = "a further context file: the canonical source has one (AGENTS.md), so it is copied as a support file no runtime loads";
            draft.note(DiagnosticCode::ExtraContextFile, Location::file(p.as_str()), message);
        }
    }
    for (path, file) in tree.iter() {
        let p = path.as_str();
        if context.iter().any(|c| c == p) {
            continue;
        }
        if p == MANIFEST || skip_regenerated(draft, p) {
            continue;
        }
        if hooks.file.as_deref() == Some(p) {
            let value = common::json(p, file)?;
            import_hooks(draft, p, value, &spelling)?;
            continue;
        }
        if hooks.inline.is_some() && p == facts::HOOKS_FILE {
            continue;
        }
        if let Some((dir, rel)) = command_file(&command_dirs, p) {
            if p.ends_with(".toml") && tree.get(&format!("{dir}/{rel}.md")).is_some() {
                let message = "not imported: the Markdown command of the same name is (Qwen Code loads both, under one name)";
                draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
                continue;
            }
            command(draft, &native_name, p, rel, dir == facts::COMMANDS_DIR, file, &spelling)?;
            continue;
        }
        if p.starts_with(&format!("{}/", facts::COMMANDS_DIR)) && !command_dirs.iter().any(|d| d == facts::COMMANDS_DIR) {
            let message = format!(
                "not imported: the manifest's \"{}\" names other command folders, so Qwen Code loads none from here",
                facts::COMMANDS_KEY
            );
            draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
            continue;
        }
        place(tree, draft, path, file, &spelling, !context.is_empty())?;
    }
    Ok(())
}

/// The spellings `build` writes, read back as the canonical variables.
fn spelling(name: &str) -> Spelling {
    let data = format!("{}/{name}", facts::DATA_HOME);
    let mut spelling = crate::runtime::claude_code::read::spelling()
        .with(facts::PLUGIN_ROOT, "${PLUGIN_ROOT}")
        .with(format!("{}/{name}", facts::INSTALLED_EXTENSIONS), "${PLUGIN_ROOT}")
        .with(format!("{}/{data}", facts::HOME_VAR), "${PLUGIN_DATA}")
        .with(format!("~/{data}"), "${PLUGIN_DATA}");
    for separator in facts::SEPARATORS {
        spelling = spelling.with(separator, "/");
    }
    spelling
}

/// A locale map (`{"en": ..., "zh": ...}`) as its English text, which is
/// what Qwen shows without another language set.
fn localized(draft: &mut Draft, manifest: &mut Manifest, key: &str) {
    let Some(Value::Object(locales)) = manifest.fields.get(key) else { return };
    let text = locales.get("en").or_else(|| locales.values().next()).and_then(Value::as_str).map(str::to_string);
    let message = match &text {
        Some(text) => format!("\"{key}\" is a locale map: the source says {text:?}, its English (or first) text"),
        None => format!("\"{key}\" is a locale map without text; left out"),
    };
    manifest.note(draft, DiagnosticCode::LocalizedField, key, message);
    match text {
        Some(text) => manifest.fields.insert(key.to_string(), Value::String(text)),
        None => manifest.fields.shift_remove(key),
    };
}

/// `contextFileName` (one or a list), else `QWEN.md` when present.
fn context_files(tree: &SourceTree, manifest: &mut Manifest, draft: &mut Draft) -> Vec<String> {
    let Some(value) = manifest.take("contextFileName") else {
        return tree.get(facts::CONTEXT_FILE).map(|_| vec![facts::CONTEXT_FILE.to_string()]).unwrap_or_default();
    };
    let mut found = Vec::new();
    for entry in entries(&value) {
        match entry.as_str().and_then(relative) {
            Some(path) if tree.get(&path).is_some() => found.push(path),
            _ => manifest.note(
                draft,
                DiagnosticCode::MissingFile,
                "contextFileName",
                format!("context file {} is not in the extension; left out", short(&entry)),
            ),
        }
    }
    found
}

/// Where the hooks come from: the manifest's inline object (which wins), or
/// the file it names, or `hooks/hooks.json`.
struct HooksSource {
    inline: Option<(String, Value)>,
    file: Option<String>,
}

fn hooks_source(tree: &SourceTree, manifest: &mut Manifest, draft: &mut Draft) -> HooksSource {
    match manifest.take("hooks") {
        Some(value @ Value::Object(_)) => {
            if tree.get(facts::HOOKS_FILE).is_some() {
                let message = format!("Qwen Code reads the manifest's inline hooks, not {}", facts::HOOKS_FILE);
                draft.note(DiagnosticCode::UnusedFile, Location::file(facts::HOOKS_FILE), message);
            }
            HooksSource { inline: Some((MANIFEST.to_string(), value)), file: None }
        }
        Some(Value::String(path)) => match relative(&path).filter(|p| tree.get(p).is_some()) {
            Some(rel) => HooksSource { inline: None, file: Some(rel) },
            None => {
                manifest.note(draft, DiagnosticCode::MissingFile, "hooks", format!("hooks file {path:?} is not in the extension; left out"));
                HooksSource { inline: None, file: None }
            }
        },
        Some(other) => {
            manifest.note(draft, DiagnosticCode::InvalidField, "hooks", format!("\"hooks\" is {}, not an object or a path; left out", short(&other)));
            HooksSource { inline: None, file: Some(facts::HOOKS_FILE.into()) }
        }
        None => HooksSource { inline: None, file: Some(facts::HOOKS_FILE.into()) },
    }
}

/// The folders a session reads commands from: the manifest's `commands`
/// (a path or a list) when it names folders of the extension, else `commands/`.
fn command_dirs(tree: &SourceTree, manifest: &mut Manifest, draft: &mut Draft) -> Vec<String> {
    let Some(value) = manifest.take(facts::COMMANDS_KEY) else { return vec![facts::COMMANDS_DIR.to_string()] };
    let mut found = Vec::new();
    for entry in entries(&value) {
        match entry.as_str().and_then(relative) {
            Some(dir) if tree.below(&dir).next().is_some() => found.push(dir),
            _ => manifest.note(
                draft,
                DiagnosticCode::MissingFile,
                facts::COMMANDS_KEY,
                format!("command folder {} is not in the extension; left out", short(&entry)),
            ),
        }
    }
    if found.is_empty() {
        found.push(facts::COMMANDS_DIR.to_string());
    }
    found
}

/// The command folder holding `path` and the command's path below it, without its extension.
fn command_file<'a>(dirs: &'a [String], path: &'a str) -> Option<(&'a str, &'a str)> {
    dirs.iter().find_map(|dir| {
        let rel = path.strip_prefix(dir.as_str())?.strip_prefix('/')?;
        let rel = facts::COMMAND_EXTENSIONS.iter().find_map(|ext| rel.strip_suffix(ext))?;
        Some((dir.as_str(), rel))
    })
}

fn place(
    tree: &SourceTree,
    draft: &mut Draft,
    path: &BundlePath,
    file: &SourceFile,
    spelling: &Spelling,
    has_context: bool,
) -> Result<()> {
    let p = path.as_str();
    if p == facts::INSTALL_RECORD {
        let message = "the record Qwen Code writes when it installs an extension; never imported";
        draft.note(DiagnosticCode::SkippedFile, Location::file(p), message);
        return Ok(());
    }
    if p == facts::SETTINGS_VALUES {
        let message = "holds the extension's setting values (possibly secrets) and is never imported";
        draft.note(DiagnosticCode::SkippedFile, Location::file(p), message);
        return Ok(());
    }
    match common::skill_file(tree, draft, p, &[facts::SKILLS_DIR], super::SPEC.name) {
        SkillFile::Outside => {}
        SkillFile::Skipped => return Ok(()),
        SkillFile::Inside(rel) if rel.ends_with("/SKILL.md") && rel.matches('/').count() == 1 => {
            return import_skill(draft, p, file, spelling);
        }
        SkillFile::Inside(_) => return common::copy(draft, path, file),
    }
    if p.strip_prefix("agents/").is_some_and(|r| r.ends_with(".md") && !r.contains('/')) {
        return import_agent(draft, p, file, spelling);
    }
    if p == "AGENTS.md" && has_context {
        let message = "AGENTS.md is not imported: Qwen Code does not load it, and the extension's context file becomes AGENTS.md";
        draft.note(DiagnosticCode::UnusedFile, Location::file(p), message);
        return Ok(());
    }
    common::copy(draft, path, file)
}

/// A Markdown or TOML command at `from`, `rel` its path below its folder
/// without the extension; in `commands/`, the namespace folder `build`
/// writes (`commands/<name>/`) is taken off.
fn command(
    draft: &mut Draft,
    name: &str,
    from: &str,
    rel: &str,
    default_folder: bool,
    file: &SourceFile,
    spelling: &Spelling,
) -> Result<()> {
    let rel = if default_folder { rel.strip_prefix(&format!("{name}/")).unwrap_or(rel) } else { rel };
    let to = format!("{}/{rel}.md", facts::COMMANDS_DIR);
    if from.ends_with(".toml") { toml_command(draft, &to, from, file, spelling) } else { markdown_command(draft, &to, from, file, spelling) }
}

fn markdown_command(draft: &mut Draft, to: &str, from: &str, file: &SourceFile, spelling: &Spelling) -> Result<()> {
    let mut markdown = Markdown::parse(from, common::text(from, file)?)?;
    let (body, problems) = prompt::to_claude(&markdown.body);
    for problem in problems {
        draft.note(DiagnosticCode::UnsupportedPromptFeature, Location::file(from), problem);
    }
    markdown.body = spelling.text(&body);
    draft.add_text(to, markdown.text(), from)
}

/// A TOML command (Qwen still loads them): `prompt` and `description`.
fn toml_command(draft: &mut Draft, to: &str, from: &str, file: &SourceFile, spelling: &Spelling) -> Result<()> {
    let mut document = toml_doc::parse(common::text(from, file)?).map_err(|e| {
        Error::at(ErrorCode::InvalidSource, Location::at(from, e.line, e.column), format!("invalid TOML: {}", e.message))
    })?;
    let mut table = std::mem::take(&mut document.table);
    let Some(Value::String(prompt)) = table.shift_remove("prompt") else {
        let message = "no prompt string, so Qwen Code skips it; left out";
        draft.note(DiagnosticCode::InvalidCommand, Location::file(from), message);
        return Ok(());
    };
    let mut frontmatter = Map::new();
    match table.shift_remove("description") {
        Some(Value::String(description)) => {
            frontmatter.insert("description".into(), Value::String(description));
        }
        Some(other) => draft.note(DiagnosticCode::InvalidField, Location::file(from), format!("description {other} is not text; left out")),
        None => {}
    }
    for (key, value) in &table {
        let message = format!("command key {key} ({}) has no canonical counterpart; left out", short(value));
        draft.note(DiagnosticCode::UnknownField, Location::file(from), message);
    }
    let (body, problems) = prompt::to_claude(&prompt);
    for problem in problems {
        draft.note(DiagnosticCode::UnsupportedPromptFeature, Location::file(from), problem);
    }
    let body = spelling.text(&body);
    draft.add_markdown(to, Markdown { frontmatter: Some(frontmatter), body }, from)
}

/// A skill: Qwen's `allowedTools` list becomes Claude's `allowed-tools`.
fn import_skill(draft: &mut Draft, from: &str, file: &SourceFile, spelling: &Spelling) -> Result<()> {
    let text = common::text(from, file)?;
    let mut markdown = Markdown::parse(from, text)?;
    let tools = markdown.frontmatter.as_mut().and_then(|f| f.shift_remove(facts::SKILL_ALLOWED_TOOLS));
    let Some(tools) = tools else { return common::copy_spelled(draft, from, from, file, spelling) };
    let names = claude_tools(&tools);
    if let Some(frontmatter) = markdown.frontmatter.as_mut() {
        frontmatter.insert("allowed-tools".into(), json!(names.join(", ")));
    }
    markdown.body = spelling.text(&markdown.body);
    draft.add_text(from, markdown.text(), from)
}

/// A tool list in Qwen's names as Claude Code's, each once.
fn claude_tools(tools: &Value) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in agent::names(tools).iter().map(|t| agent::claude_tool(t)) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// An agent: Qwen tool names become Claude's, `approvalMode` the
/// `permissionMode` Qwen bridges from.
fn import_agent(draft: &mut Draft, from: &str, file: &SourceFile, spelling: &Spelling) -> Result<()> {
    let mut markdown = Markdown::parse(from, common::text(from, file)?)?;
    if let Some(frontmatter) = markdown.frontmatter.as_mut() {
        for key in ["tools", "disallowedTools"] {
            if let Some(tools) = frontmatter.get(key) {
                let names = claude_tools(tools);
                frontmatter.insert(key.into(), json!(names.join(", ")));
            }
        }
        if !frontmatter.contains_key("permissionMode") {
            if let Some(Value::String(mode)) = frontmatter.get("approvalMode") {
                if let Some((_, claude)) = facts::APPROVAL_TO_PERMISSION.iter().find(|(a, _)| a == mode) {
                    frontmatter.shift_remove("approvalMode");
                    frontmatter.insert("permissionMode".into(), json!(claude));
                }
            }
        }
    }
    markdown.body = spelling.text(&markdown.body);
    draft.add_text(from, markdown.text(), from)
}

/// Qwen's hooks (Claude Code's shape) as the canonical hooks file: events
/// Qwen does not run are left out with a note.
fn import_hooks(draft: &mut Draft, from: &str, value: Value, spelling: &Spelling) -> Result<()> {
    let Value::Object(mut object) = value else {
        return Err(crate::draft::json_parts::invalid(from, "a hooks config must be a JSON object"));
    };
    let mut events = match object.shift_remove("hooks") {
        Some(Value::Object(events)) => events,
        Some(_) => return Err(crate::draft::json_parts::invalid(from, "\"hooks\" must be an object of events")),
        // A bare event map, which Qwen reads too.
        None => std::mem::take(&mut object),
    };
    let mut out = Map::new();
    if let Some(description) = object.shift_remove("description") {
        out.insert("description".into(), description);
    }
    for key in object.keys() {
        let message = format!("hooks config key \"{key}\" has no canonical counterpart; left out");
        draft.note(DiagnosticCode::UnknownField, Location::file(from), message);
    }
    for field in facts::HOOK_CONFIG_FIELDS {
        if events.shift_remove(field).is_some() {
            let message = format!("hooks setting \"{field}\" has no canonical counterpart; left out");
            draft.note(DiagnosticCode::UnknownField, Location::file(from), message);
        }
    }
    let names: Vec<String> = events.keys().cloned().collect();
    for event in names {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            events.shift_remove(&event);
            let message = format!(
                "hook event {event} is not one Qwen Code runs (its hook registry skips it at session start); its handlers are left out"
            );
            draft.note(DiagnosticCode::UnsupportedHookEvent, Location::file(from), message);
        }
    }
    out.insert("hooks".into(), spelling.json(Value::Object(events)));
    draft.add_hooks(Value::Object(out), from)
}

/// Inline `mcpServers` -> `.mcp.json`: `httpUrl` is streamable HTTP, `url` SSE.
fn import_servers(draft: &mut Draft, manifest: &Manifest, servers: Value, spelling: &Spelling) -> Result<()> {
    let Value::Object(servers) = servers else {
        manifest.note(draft, DiagnosticCode::InvalidField, "mcpServers", "\"mcpServers\" is not an object; left out".into());
        return Ok(());
    };
    let mut out = Map::new();
    for (name, server) in servers {
        let Value::Object(server) = server else {
            manifest.note(draft, DiagnosticCode::InvalidField, &name, format!("MCP server {name:?} is not an object; left out"));
            continue;
        };
        if Value::Object(server.clone()).to_string().contains(facts::WORKSPACE_PATH) {
            let message = format!(
                "MCP server {name:?} uses {}, which only Qwen Code expands; kept as text",
                facts::WORKSPACE_PATH
            );
            manifest.note(draft, DiagnosticCode::RuntimeOnlyVariable, &name, message);
        }
        let mut server = server;
        if server.shift_remove("trust").is_some() {
            let message = format!("MCP server {name:?}: \"trust\" is stripped from an extension's servers by Qwen Code; left out");
            manifest.note(draft, DiagnosticCode::UnknownField, &name, message);
        }
        match mcp::to_claude(server) {
            Some(server) => {
                out.insert(name, spelling.json(Value::Object(server)));
            }
            None => {
                let message = format!(
                    "MCP server {name:?} has neither a command nor a url (a tcp server?), which the canonical source needs; left out"
                );
                manifest.note(draft, DiagnosticCode::UnsupportedServer, &name, message);
            }
        }
    }
    draft.add_servers(json!({ "mcpServers": out }), MANIFEST)
}
