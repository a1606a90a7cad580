//! Cursor plugins: the manifest ([`MANIFEST`]), skills, commands, agents,
//! rules (the always-applied one becomes the context file), Cursor-dialect
//! hooks and the root `mcp.json`, with `${CURSOR_PLUGIN_ROOT}` -> `${PLUGIN_ROOT}`.

use serde_json::{Map, Value, json};

use crate::draft::common::{self, SkillFile, Spelling, skip_regenerated};
use crate::draft::Draft;
use crate::draft::json_parts::{JsonParts, Merged, invalid};
use crate::draft::manifest::{Manifest, entries, relative, short};
use crate::draft::markdown::Markdown;
use crate::error::{Location, Result};
use super::facts;
use crate::source::{SourceFile, SourceTree};
use crate::codes::DiagnosticCode;

pub const MANIFEST: &str = facts::MANIFEST_PATH;
const CURSOR_ONLY: [&str; 6] = ["publisher", "logo", "category", "tags", "minClientVersions", "variables"];
/// Component fields and the folder each one defaults to.
const FOLDERS: [(&str, &str); 4] =
    [("skills", "skills"), ("commands", "commands"), ("agents", "agents"), ("rules", "rules")];

pub(crate) fn import(tree: &SourceTree, draft: &mut Draft) -> Result<()> {
    let file = tree.get(MANIFEST).ok_or_else(|| crate::draft::missing_marker(MANIFEST))?;
    let mut manifest = Manifest::read(MANIFEST, &file.bytes)?;
    manifest.metadata(draft, Some("displayName"));
    manifest.take("$schema");
    let mut roots: Vec<(&str, Vec<String>)> = Vec::new();
    for (key, folder) in FOLDERS {
        let mut found = vec![folder.to_string()];
        if let Some(value) = manifest.take(key) {
            found.clear();
            for entry in entries(&value) {
                match entry.as_str().and_then(relative) {
                    Some(path) if !path.contains('*') => found.push(path),
                    _ => manifest.note(
                        draft,
                        DiagnosticCode::UnsupportedField,
                        key,
                        format!(
                            "\"{key}\" entry {} is not a plain ./ path (globs are not read); left out",
                            short(&entry)
                        ),
                    ),
                }
            }
        }
        roots.push((folder, found));
    }
    let mut hooks = JsonParts::default();
    let mut mcp = JsonParts::default();
    let custom_hooks = json_component(&mut manifest, draft, "hooks", &mut hooks);
    let custom_mcp = json_component(&mut manifest, draft, "mcpServers", &mut mcp);
    manifest.keep_for(draft, "cursor", "Cursor", &CURSOR_ONLY);
    manifest.rest(draft, "Cursor");

    let spelling = crate::runtime::claude_code::read::spelling().with(facts::PLUGIN_ROOT, "${PLUGIN_ROOT}");
    let mut rules = Vec::new();
    'files: for (path, file) in tree.iter() {
        let p = path.as_str();
        if p == MANIFEST || skip_regenerated(draft, p) {
            continue;
        }
        if hooks.files.iter().any(|f| f == p) || (p == "hooks/hooks.json" && !custom_hooks) {
            hooks.inline.push((p.to_string(), common::json(p, file)?));
            continue;
        }
        if mcp.files.iter().any(|f| f == p) || (p == "mcp.json" && !custom_mcp) {
            mcp.inline.push((p.to_string(), common::json(p, file)?));
            continue;
        }
        let skill_roots: Vec<&str> = roots[0].1.iter().map(String::as_str).collect();
        match common::skill_file(tree, draft, p, &skill_roots, "Cursor") {
            SkillFile::Outside => {}
            SkillFile::Skipped => continue,
            SkillFile::Inside(rel) => {
                let to = format!("skills/{rel}");
                if to.ends_with(".md") {
                    common::copy_spelled(draft, p, &to, file, &spelling)?;
                } else {
                    draft.add(&to, file.bytes.clone(), file.executable, p)?;
                }
                continue;
            }
        }
        for (folder, folder_roots) in roots.iter().skip(1) {
            for root in folder_roots {
                let rel = if root == p {
                    Some(path.file_name())
                } else {
                    p.strip_prefix(root.as_str()).and_then(|r| r.strip_prefix('/'))
                };
                let Some(rel) = rel else { continue };
                let to = markdown_name(folder, &format!("{folder}/{rel}"));
                match *folder {
                    "rules" => rules.push((p.to_string(), to, file)),
                    "commands" | "agents" if rel.ends_with(".md") => {
                        markdown(draft, folder, p, &to, file, &spelling)?
                    }
                    _ if to.ends_with(".md") => common::copy_spelled(draft, p, &to, file, &spelling)?,
                    _ => draft.add(&to, file.bytes.clone(), file.executable, p)?,
                }
                continue 'files;
            }
        }
        common::copy(draft, path, file)?;
    }
    import_rules(draft, tree, rules, &spelling)?;
    hooks.note_missing(draft, MANIFEST);
    mcp.note_missing(draft, MANIFEST);
    if let Merged::Value(value, origin) = hooks.merge_hooks_cursor()? {
        let value = cursor_hooks(draft, &origin, value, &spelling)?;
        draft.add_hooks(value, &origin)?;
    }
    if let Merged::Value(value, origin) = mcp.merge_servers(draft)? {
        draft.add_servers(spelling.json(value), &origin)?;
    }
    Ok(())
}

/// Cursor also reads `.mdc` and `.markdown` commands and agents; the
/// canonical source reads `.md`.
fn markdown_name(folder: &str, path: &str) -> String {
    if !["commands", "agents"].contains(&folder) {
        return path.to_string();
    }
    match path.strip_suffix(".mdc").or_else(|| path.strip_suffix(".markdown")) {
        Some(stem) => format!("{stem}.md"),
        None => path.to_string(),
    }
}

fn json_component(manifest: &mut Manifest, draft: &mut Draft, key: &str, parts: &mut JsonParts) -> bool {
    let Some(value) = manifest.take(key) else { return false };
    for entry in entries(&value) {
        match &entry {
            Value::Object(_) => parts.inline.push((MANIFEST.to_string(), entry.clone())),
            Value::String(text) if relative(text).is_some() => {
                parts.files.push(relative(text).expect("checked"))
            }
            other => manifest.note(
                draft,
                DiagnosticCode::InvalidField,
                key,
                format!("\"{key}\" entry {} is not a ./ path or an object; left out", short(other)),
            ),
        }
    }
    true
}

/// Commands and agents: `build` writes the file name as `name`; for a
/// command the canonical name is its path, so that key goes.
fn markdown(
    draft: &mut Draft,
    folder: &str,
    from: &str,
    to: &str,
    file: &SourceFile,
    spelling: &Spelling,
) -> Result<()> {
    let text = spelling.text(common::text(from, file)?);
    if folder != "commands" {
        return draft.add_text(to, text, from);
    }
    let mut markdown = Markdown::parse(from, &text)?;
    let stem = to.rsplit('/').next().unwrap_or(to).trim_end_matches(".md");
    if let Some(frontmatter) = markdown.frontmatter.as_mut() {
        match frontmatter.get("name").and_then(Value::as_str) {
            Some(name) if name == stem => {
                frontmatter.shift_remove("name");
            }
            Some(name) => {
                let message = format!(
                    "command name {name:?} differs from its file name: the command is named after its file ({stem})"
                );
                draft.note(DiagnosticCode::NameChanged, Location::file(from), message);
                frontmatter.shift_remove("name");
            }
            None => {}
        }
    }
    draft.add_markdown(to, markdown, from)
}

/// The one rule applied to every request (`alwaysApply: true`, no globs)
/// becomes AGENTS.md when there is none; other rules stay files.
fn import_rules(
    draft: &mut Draft,
    tree: &SourceTree,
    rules: Vec<(String, String, &SourceFile)>,
    spelling: &Spelling,
) -> Result<()> {
    let mut context_taken = tree.get("AGENTS.md").is_some();
    for (from, to, file) in rules {
        let text = spelling.text(common::text(&from, file)?);
        let markdown = Markdown::parse(&from, &text)?;
        let always = markdown
            .frontmatter
            .as_ref()
            .is_some_and(|f| f.get("alwaysApply") == Some(&json!(true)) && !f.contains_key("globs"));
        if always && !context_taken {
            context_taken = true;
            draft.add_text("AGENTS.md", markdown.body, &from)?;
            continue;
        }
        let message = format!("a Cursor rule: copied as {to}, which only the Cursor bundle loads");
        draft.note(DiagnosticCode::RuntimeOnlyFile, Location::file(from.as_str()), message);
        draft.add_text(&to, text, &from)?;
    }
    Ok(())
}

impl JsonParts {
    /// Cursor hooks files: `{"version"?, "hooks": {event: [entries]}}`, merged.
    fn merge_hooks_cursor(self) -> Result<Merged> {
        let Some(origin) = self.inline.first().map(|(o, _)| o.clone()) else { return Ok(Merged::None) };
        let mut events = Map::new();
        for (from, value) in self.inline {
            let Some(found) = value.get("hooks").and_then(Value::as_object) else {
                return Err(invalid(
                    &from,
                    "a Cursor hooks config needs a \"hooks\" object of event -> entries",
                ));
            };
            for (event, entries) in found {
                let slot = events.entry(event.clone()).or_insert_with(|| json!([]));
                if let (Some(into), Some(from)) = (slot.as_array_mut(), entries.as_array()) {
                    into.extend(from.iter().cloned());
                }
            }
        }
        Ok(Merged::Value(Value::Object(events), origin))
    }
}

/// Cursor `event: [{command|prompt, matcher?}]` -> Claude `Event: [{matcher?,
/// hooks: [handler]}]`, one group per run of entries sharing a matcher.
fn cursor_hooks(draft: &mut Draft, origin: &str, events: Value, spelling: &Spelling) -> Result<Value> {
    let mut out = Map::new();
    for (event, entries) in events.as_object().cloned().unwrap_or_default() {
        let Some(claude) = facts::claude_event(&event) else {
            let message = format!(
                "Cursor hook event {event} has no canonical (Claude Code) counterpart; its handlers are left out"
            );
            draft.note(DiagnosticCode::UnsupportedHookEvent, Location::file(origin), message);
            continue;
        };
        let mut groups: Vec<(Option<String>, Vec<Value>)> = Vec::new();
        for entry in entries.as_array().cloned().unwrap_or_default() {
            let Some(handler) = handler(draft, origin, &event, &entry, spelling) else { continue };
            let matcher = entry.get("matcher").and_then(Value::as_str).map(str::to_string);
            match groups.last_mut() {
                Some((last, handlers)) if *last == matcher => handlers.push(handler),
                _ => groups.push((matcher, vec![handler])),
            }
        }
        let groups: Vec<Value> = groups
            .into_iter()
            .map(|(matcher, handlers)| {
                let mut group = Map::new();
                if let Some(matcher) = matcher {
                    group.insert("matcher".into(), json!(matcher));
                }
                group.insert("hooks".into(), Value::Array(handlers));
                Value::Object(group)
            })
            .collect();
        out.insert(claude.to_string(), Value::Array(groups));
    }
    Ok(json!({ "hooks": out }))
}

fn handler(
    draft: &mut Draft,
    origin: &str,
    event: &str,
    entry: &Value,
    spelling: &Spelling,
) -> Option<Value> {
    let entry = entry.as_object()?;
    let kind = entry.get("type").and_then(Value::as_str).unwrap_or("command");
    let mut out = Map::new();
    let kept: &[&str] = match (kind, entry.get("command"), entry.get("prompt")) {
        ("command", Some(Value::String(command)), _) => {
            out.insert("type".into(), json!("command"));
            out.insert("command".into(), json!(rooted(&spelling.text(command))));
            &["type", "command", "matcher"]
        }
        ("prompt", _, Some(Value::String(prompt))) => {
            out.insert("type".into(), json!("prompt"));
            out.insert("prompt".into(), json!(prompt));
            &["type", "prompt", "matcher"]
        }
        _ => {
            let message = format!(
                "a {event} entry ({}) is neither a command nor a prompt hook; left out",
                short(&Value::Object(entry.clone()))
            );
            draft.note(DiagnosticCode::UnsupportedHook, Location::file(origin), message);
            return None;
        }
    };
    for key in entry.keys().filter(|k| !kept.contains(&k.as_str())) {
        let message = format!("hook entry key \"{key}\" ({event}) has no canonical counterpart; left out");
        draft.note(DiagnosticCode::UnknownField, Location::file(origin), message);
    }
    Some(Value::Object(out))
}

/// Cursor runs hook commands from the plugin folder: a `./` word (quoted or
/// not) is a plugin path.
fn rooted(command: &str) -> String {
    let mut out = String::with_capacity(command.len());
    // Whether the next character starts a word; an opening quote keeps it so.
    let mut word_start = true;
    let mut chars = command.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if word_start && command[at..].starts_with("./") {
            out.push_str("${PLUGIN_ROOT}/");
            chars.next();
            word_start = false;
            continue;
        }
        out.push(c);
        word_start = c.is_whitespace() || (word_start && (c == '"' || c == '\''));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::rooted;

    #[test]
    fn relative_words_become_plugin_paths() {
        assert_eq!(
            rooted("./scripts/a.sh --x ./b ../c x./d"),
            "${PLUGIN_ROOT}/scripts/a.sh --x ${PLUGIN_ROOT}/b ../c x./d"
        );
        assert_eq!(
            rooted("\"./a b.sh\" './c' x\"./d\""),
            "\"${PLUGIN_ROOT}/a b.sh\" '${PLUGIN_ROOT}/c' x\"./d\""
        );
    }
}
