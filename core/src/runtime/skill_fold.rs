//! Skills for runtimes that read less of a SKILL.md than Claude Code does.
//!
//! Cursor, OpenCode and Agent Plugins clients choose a skill by its
//! `description` alone, so a Claude `when_to_use` is folded into it
//! (`description + " " + when_to_use`) and dropped. A description over the
//! 1024-character cap (Cursor, OpenCode, Agent Skills and Copilot CLI refuse
//! the skill) is shortened for that runtime at a sentence or word boundary,
//! with a degraded row; the runtimes without the cap keep the whole text.
//! OpenCode and Agent Plugins also get the strict Agent Skills key set
//! (skills-ref rejects any other key): other scalar keys move under
//! `metadata`, the rest are dropped, and the honesty row says which.
//!
//! Only the frontmatter entries that change are rewritten (with the one YAML
//! writer); every other line, the body and the files beside the SKILL.md keep
//! their bytes.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::Writer;
use crate::error::Result;
use crate::format::yaml;
use crate::model::Skill;
use crate::report::Component;
use crate::report::Level;
use crate::source::{Document, parse_document};

/// The longest `description` Agent Skills (and Cursor, OpenCode) accept.
pub const DESCRIPTION_LIMIT: usize = 1024;
/// The Agent Skills `compatibility` cap.
const COMPATIBILITY_LIMIT: usize = 500;
/// The only frontmatter keys the Agent Skills validator accepts.
const AGENT_SKILLS_KEYS: [&str; 6] =
    ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
const FOLDED_KEY: &str = "when_to_use";

/// How much of Claude's frontmatter a runtime keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strictness {
    /// Fold `when_to_use`; every other key stays (the runtime ignores it).
    Fold,
    /// Fold, then keep only the Agent Skills keys.
    AgentSkills,
}

/// What a runtime does to one skill besides the frontmatter.
pub struct SkillPolicy<'a> {
    pub strictness: Strictness,
    /// Rewrites plugin-root variables in the SKILL.md text (`None`: unchanged).
    pub translate: &'a dyn Fn(&str) -> Option<String>,
    /// Why the final text may not work there (e.g. an unexpanded variable).
    pub caveat: &'a dyn Fn(&str) -> Option<String>,
}

/// A SKILL.md after the fold: its new text (when it changed) and what changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Folded {
    pub text: Option<String>,
    /// Changes that keep the meaning (the fold, the name).
    pub changes: Vec<String>,
    /// Keys whose effect is lost (moved under `metadata`, or dropped).
    pub lost: Vec<String>,
}

/// Writes `skill` into `dir` (`skills/<name>`, `.opencode/skills/<name>`...)
/// with one honesty row; a skill a runtime would skip is not written.
pub fn write_skill(w: &mut Writer<'_>, skill: &Skill, dir: &str, policy: &SkillPolicy<'_>) -> Result<()> {
    if let Some(why) = refusal(skill, policy.strictness) {
        w.honest(Component::Skill, &skill.name, Level::Unsupported, why);
        return Ok(());
    }
    let original = skill.main.file.text().unwrap_or_default();
    let translated = (policy.translate)(original);
    let mut folded = fold(skill, translated.as_deref().unwrap_or(original), policy.strictness)?;
    let main = format!("{dir}/SKILL.md");
    // Moved, not copied, into the bundle: a large frontmatter's text would
    // otherwise be held three times per runtime.
    let final_text = folded.text.take().or(translated);
    let caveat = (policy.caveat)(final_text.as_deref().unwrap_or(original));
    match final_text {
        Some(text) => w.add(&main, text.into_bytes(), skill.main.file.origin.to_string())?,
        None => w.copy(&skill.main, Some(&main), None)?,
    }
    for file in &skill.files {
        let rel = file
            .path
            .strip_prefix(&format!("skills/{}", skill.name))
            .expect("skill files live in their folder");
        w.copy(file, Some(&format!("{dir}/{rel}")), None)?;
    }
    let level = if folded.lost.is_empty() && caveat.is_none() { Level::Supported } else { Level::Degraded };
    let mut detail = main;
    for part in folded.changes.iter().chain(&folded.lost).chain(&caveat) {
        detail.push_str("; ");
        detail.push_str(part);
    }
    w.honest(Component::Skill, &skill.name, level, detail);
    Ok(())
}

/// Why the runtime would skip this skill, if it would.
fn refusal(skill: &Skill, strictness: Strictness) -> Option<String> {
    let described = [skill.document.field("description"), skill.document.field(FOLDED_KEY)]
        .into_iter()
        .flatten()
        .any(|v| !as_text(v).unwrap_or_default().trim().is_empty());
    if !described {
        return Some("no description: these runtimes skip a skill without one; not written".into());
    }
    if strictness == Strictness::AgentSkills && !is_skill_name(&skill.name) {
        return Some(format!(
            "folder name {:?} is not an Agent Skills name (lowercase a-z, 0-9 and single '-', at most 64); \
             not written",
            skill.name
        ));
    }
    None
}

/// `text` (a SKILL.md) with `name: <folder>` added when its frontmatter has
/// none: Claude Code reads the name from the folder, the Agent Skills
/// specification requires the key. `None` when nothing is added.
pub fn with_folder_name(skill: &Skill, text: &str) -> Option<String> {
    let mut lines = Lines::split(text)?;
    if lines.has("name") {
        return None;
    }
    lines.set("name", Value::String(skill.name.clone()));
    Some(lines.join())
}

/// Whether the frontmatter of a Markdown `text` has a top-level `key`.
pub fn has_key(text: &str, key: &str) -> bool {
    Lines::split(text).is_some_and(|lines| lines.has(key))
}

/// The Agent Skills name rule: 1-64 chars of `a-z0-9-`, no leading,
/// trailing or doubled `-`.
pub fn is_skill_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// Folds `when_to_use` into `description` (and, for Agent Skills, keeps only
/// its keys) in `text`, the SKILL.md of `skill` in the runtime's spelling.
pub fn fold(skill: &Skill, text: &str, strictness: Strictness) -> Result<Folded> {
    let document = document_of(skill, text)?;
    let Some(map) = &document.frontmatter else { return Ok(Folded::default()) };
    let Some(mut lines) = Lines::split(text) else { return Ok(Folded::default()) };
    let mut folded = Folded::default();
    let description = fold_description(map, &mut lines, &mut folded);
    fit(description.as_deref(), &mut lines, &mut folded);
    if map.get("name").and_then(Value::as_str) != Some(skill.name.as_str()) {
        lines.set("name", Value::String(skill.name.clone()));
        folded.changes.push(format!("name set to the folder name {}", skill.name));
    }
    if strictness == Strictness::AgentSkills {
        keep_agent_skills_keys(map, &mut lines, &mut folded);
    }
    if lines.changed {
        folded.text = Some(lines.join());
    }
    Ok(folded)
}

/// `text` (the skill's SKILL.md in a runtime's spelling) parsed: the text
/// as loaded is already, and a copy per runtime of a large frontmatter would
/// be parsed once per runtime at once.
fn document_of<'s>(skill: &'s Skill, text: &str) -> Result<Cow<'s, Document>> {
    if skill.main.file.text() == Some(text) {
        Ok(Cow::Borrowed(&skill.document))
    } else {
        Ok(Cow::Owned(parse_document(skill.main.file.origin.as_str(), text)?))
    }
}

/// Returns the description the runtime will read.
fn fold_description(map: &Map<String, Value>, lines: &mut Lines<'_>, folded: &mut Folded) -> Option<String> {
    let description = map.get("description").and_then(as_text);
    let Some(when) = map.get(FOLDED_KEY) else { return description };
    let parts: Vec<String> = [description, as_text(when)]
        .into_iter()
        .flatten()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    let merged = parts.join(" ");
    lines.set("description", Value::String(merged.clone()));
    lines.remove(FOLDED_KEY);
    folded.changes.push(format!("{FOLDED_KEY} folded into description"));
    Some(merged)
}

/// Shortens a `description` over [`DESCRIPTION_LIMIT`] in `lines`, saying so.
fn fit(description: Option<&str>, lines: &mut Lines<'_>, folded: &mut Folded) {
    let Some(description) = description else { return };
    let length = description.chars().count();
    if length <= DESCRIPTION_LIMIT {
        return;
    }
    let (short, boundary) = shorten(description, DESCRIPTION_LIMIT);
    let kept = short.chars().count();
    lines.set("description", Value::String(short));
    folded.lost.push(format!(
        "description shortened from {length} to {kept} characters at a {boundary} boundary: this runtime \
         refuses a skill whose description is over {DESCRIPTION_LIMIT}"
    ));
}

/// `text` cut to at most `limit` characters: after the last sentence that
/// fits (when that keeps at least half), else at the last word boundary with
/// an ellipsis, else at `limit - 1` characters with one. Returns the text
/// and which boundary it was cut at.
pub fn shorten(text: &str, limit: usize) -> (String, &'static str) {
    let text = text.trim();
    if text.chars().count() <= limit {
        return (text.to_string(), "no");
    }
    let head: String = text.chars().take(limit).collect();
    let next = text.chars().nth(limit);
    let sentence_end = head
        .char_indices()
        .filter(|(i, c)| {
            matches!(c, '.' | '!' | '?' | '。')
                && head[i + c.len_utf8()..].chars().next().or(next).is_none_or(char::is_whitespace)
        })
        .map(|(i, c)| i + c.len_utf8())
        .next_back();
    if let Some(end) = sentence_end.filter(|end| head[..*end].chars().count() >= limit / 2) {
        return (head[..end].trim_end().to_string(), "sentence");
    }
    let room: String = text.chars().take(limit - 1).collect();
    let after = text.chars().nth(limit - 1);
    if after.is_some_and(char::is_whitespace) {
        return (format!("{}…", room.trim_end()), "word");
    }
    match room.rfind(char::is_whitespace).filter(|at| *at > 0) {
        Some(at) => (format!("{}…", room[..at].trim_end()), "word"),
        None => (format!("{room}…"), "character"),
    }
}

/// For a runtime that reads `description` as written (no `when_to_use`
/// fold) but caps it: the SKILL.md `text` with its description shortened,
/// or no text when it fits.
pub fn fit_description(skill: &Skill, text: &str) -> Result<Folded> {
    let document = document_of(skill, text)?;
    let Some(map) = &document.frontmatter else { return Ok(Folded::default()) };
    let Some(mut lines) = Lines::split(text) else { return Ok(Folded::default()) };
    let mut folded = Folded::default();
    fit(map.get("description").and_then(as_text).as_deref(), &mut lines, &mut folded);
    if lines.changed {
        folded.text = Some(lines.join());
    }
    Ok(folded)
}

/// Moves scalar keys outside the Agent Skills set under `metadata`, drops
/// the rest, and coerces the kept keys to the types the validator wants.
fn keep_agent_skills_keys(map: &Map<String, Value>, lines: &mut Lines<'_>, folded: &mut Folded) {
    let (metadata, mut dropped, mut metadata_changed) = existing_metadata(map.get("metadata"));
    let taken_out = |key: &str| !AGENT_SKILLS_KEYS.contains(&key) && key != FOLDED_KEY;
    // `metadata`'s YAML: the entries it has, then the keys moved under it,
    // each written as it is found (a frontmatter may hold thousands, and
    // nothing is kept of them but this text and their names).
    // Sized once, about as long as the lines it moves (indented), not grown
    // to twice that on the way.
    let moving = lines.text_len(|key| map.contains_key(key) && taken_out(key));
    let mut raw = String::with_capacity(moving.0 + 2 * moving.1 + 64);
    raw.push_str("metadata:\n");
    for (key, value) in &metadata {
        yaml::write_entry(&mut raw, key, value, 2);
    }
    let mut moved = Named::default();
    for (key, value) in map.iter().filter(|(key, _)| taken_out(key)) {
        match scalar_cow(value) {
            Some(text) if !metadata.contains_key(key) => {
                yaml::write_entry(&mut raw, key, &Value::String(text.into_owned()), 2);
                moved.push(|| key.to_string());
                metadata_changed = true;
            }
            Some(_) => dropped.push(|| format!("{key} (metadata already has it)")),
            None => dropped.push(|| format!("{key} (not an Agent Skills key nor a plain value)")),
        }
    }
    // One pass over the lines for every key taken out: a frontmatter of
    // 40,000 keys costs a pass, not 40,000.
    lines.remove_keys(|key| map.contains_key(key) && taken_out(key));
    if metadata_changed {
        if metadata.is_empty() && moved.count == 0 {
            raw = String::from("metadata: {}\n");
        }
        lines.set_raw("metadata", raw);
    }
    coerce_license(map, lines, folded);
    coerce_compatibility(map, lines, &mut dropped);
    coerce_allowed_tools(map, lines, folded, &mut dropped);
    if moved.count > 0 {
        folded.lost.push(format!("{moved} kept under metadata only (no effect there)"));
    }
    if dropped.count > 0 {
        folded.lost.push(format!("dropped {dropped}"));
    }
}

/// Names for a report line: the first few as they are, then how many more
/// (a frontmatter of thousands of keys gives a line, not a page).
#[derive(Default)]
struct Named {
    shown: Vec<String>,
    count: usize,
}

impl Named {
    const SHOWN: usize = 10;

    /// One more name, made only if it is shown.
    fn push(&mut self, name: impl FnOnce() -> String) {
        if self.shown.len() < Self::SHOWN {
            self.shown.push(name());
        }
        self.count += 1;
    }
}

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown.join(", "))?;
        match self.count - self.shown.len() {
            0 => Ok(()),
            more => write!(f, " and {more} more"),
        }
    }
}

/// (string-valued metadata, dropped entries, whether it had to change).
fn existing_metadata(value: Option<&Value>) -> (Map<String, Value>, Named, bool) {
    let mut metadata = Map::new();
    let mut dropped = Named::default();
    let mut changed = false;
    match value {
        None => {}
        Some(Value::Object(entries)) => {
            for (key, value) in entries {
                match (value, scalar_text(value)) {
                    (Value::String(_), _) => {
                        metadata.insert(key.clone(), value.clone());
                    }
                    (_, Some(text)) => {
                        metadata.insert(key.clone(), Value::String(text));
                        changed = true;
                    }
                    (_, None) => {
                        dropped.push(|| format!("metadata.{key} (metadata values are plain strings)"));
                        changed = true;
                    }
                }
            }
        }
        Some(_) => {
            dropped.push(|| "metadata (not a mapping)".into());
            changed = true;
        }
    }
    (metadata, dropped, changed)
}

fn coerce_license(map: &Map<String, Value>, lines: &mut Lines<'_>, folded: &mut Folded) {
    if let Some(value @ (Value::Number(_) | Value::Bool(_))) = map.get("license") {
        lines.set("license", Value::String(scalar_text(value).expect("a scalar")));
        folded.changes.push("license written as a string".into());
    }
}

fn coerce_compatibility(map: &Map<String, Value>, lines: &mut Lines<'_>, dropped: &mut Named) {
    let Some(value) = map.get("compatibility") else { return };
    let fits = value.as_str().is_some_and(|s| s.chars().count() <= COMPATIBILITY_LIMIT);
    if !fits {
        lines.remove("compatibility");
        dropped.push(|| {
            format!("compatibility (Agent Skills takes at most {COMPATIBILITY_LIMIT} characters of text)")
        });
    }
}

/// Agent Skills wants one space-separated string; Claude also takes a list.
fn coerce_allowed_tools(
    map: &Map<String, Value>,
    lines: &mut Lines<'_>,
    folded: &mut Folded,
    dropped: &mut Named,
) {
    match map.get("allowed-tools") {
        None | Some(Value::String(_)) => {}
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
            let joined: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            lines.set("allowed-tools", Value::String(joined.join(" ")));
            folded.changes.push("allowed-tools list written as one space-separated string".into());
        }
        Some(_) => {
            lines.remove("allowed-tools");
            dropped.push(|| "allowed-tools (not a string or a list of strings)".into());
        }
    }
}

/// A string, or a scalar written as one; lists of scalars are joined with spaces.
fn as_text(value: &Value) -> Option<String> {
    match value {
        Value::Array(items) => {
            let parts: Option<Vec<String>> = items.iter().map(scalar_text).collect();
            parts.map(|p| p.join(" "))
        }
        other => scalar_text(other),
    }
}

/// [`scalar_text`], a string borrowed.
fn scalar_cow(value: &Value) -> Option<Cow<'_, str>> {
    match value {
        Value::String(s) => Some(Cow::Borrowed(s)),
        other => scalar_text(other).map(Cow::Owned),
    }
}

fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A Markdown document's frontmatter as top-level entries of raw lines, so
/// single entries can be replaced or removed and all others keep their bytes.
struct Lines<'a> {
    text: &'a str,
    /// The length of the `---` line.
    open: usize,
    /// Each entry's raw lines, starting with its key's (see [`key_of`]).
    /// A frontmatter of thousands of keys is not copied line by line, nor
    /// its keys apart from it: an entry is where it lies in the text until
    /// it is replaced, twelve bytes where a string or a slice of the text
    /// takes 16 or 24.
    entries: Vec<Entry>,
    /// The entries written anew, in the order they were.
    written: Vec<String>,
    /// Where the closing `---` line starts (then the body).
    rest: usize,
    changed: bool,
}

#[derive(Clone, Copy)]
enum Entry {
    /// Bytes `start..end` of the text.
    Text { start: u32, end: u32 },
    /// The nth of [`Lines::written`].
    Written(u32),
}

impl<'a> Lines<'a> {
    fn split(text: &'a str) -> Option<Self> {
        // Entries are 32-bit offsets: a file is at most 64 MiB (`limits`).
        let offset_of = |at: usize| u32::try_from(at).ok();
        offset_of(text.len())?;
        let open = ["---\n", "---\r\n"].iter().find(|o| text.starts_with(**o))?.len();
        let mut offset = open;
        // At most an entry a line: sized once, not doubled past thousands.
        let frontmatter_lines = text[open..]
            .split_inclusive('\n')
            .take_while(|line| line.trim_end_matches(['\n', '\r']) != "---")
            .count();
        let mut entries: Vec<Entry> = Vec::with_capacity(frontmatter_lines);
        for line in text[open..].split_inclusive('\n') {
            if line.trim_end_matches(['\n', '\r']) == "---" {
                return Some(Lines {
                    text,
                    open,
                    entries,
                    written: Vec::new(),
                    rest: offset,
                    changed: false,
                });
            }
            let end = offset_of(offset + line.len())?;
            match (entry_key(line), entries.last_mut()) {
                // A continuation line directly follows its entry's lines.
                (None, Some(Entry::Text { end: entry_end, .. })) => *entry_end = end,
                _ => entries.push(Entry::Text { start: offset_of(offset)?, end }),
            }
            offset += line.len();
        }
        None
    }

    /// The raw lines of `entry`.
    fn raw(&self, entry: Entry) -> &str {
        match entry {
            Entry::Text { start, end } => &self.text[start as usize..end as usize],
            Entry::Written(index) => &self.written[index as usize],
        }
    }

    fn raws(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|entry| self.raw(*entry))
    }

    /// The bytes and the lines of the entries whose key `of` says so of.
    fn text_len(&self, of: impl Fn(&str) -> bool) -> (usize, usize) {
        self.raws()
            .filter(|raw| key_of(raw).is_some_and(&of))
            .fold((0, 0), |(bytes, lines), raw| (bytes + raw.len(), lines + raw.matches('\n').count()))
    }

    fn has(&self, key: &str) -> bool {
        self.raws().any(|raw| key_of(raw) == Some(key))
    }

    /// Replaces `key`'s entry in place, or appends it.
    fn set(&mut self, key: &str, value: Value) {
        let mut single = Map::new();
        single.insert(key.to_string(), value);
        self.set_raw(key, yaml::document(&single));
    }

    /// Replaces `key`'s entry in place with `raw` (its YAML lines, which
    /// start with `key`), or appends it.
    fn set_raw(&mut self, key: &str, raw: String) {
        debug_assert_eq!(key_of(&raw), Some(key), "an entry's lines start with its key");
        self.changed = true;
        let at = self.raws().position(|existing| key_of(existing) == Some(key));
        // A fold writes a handful of entries (description, name, metadata...).
        let entry = Entry::Written(self.written.len() as u32);
        self.written.push(raw);
        match at {
            Some(at) => self.entries[at] = entry,
            None => self.entries.push(entry),
        }
    }

    fn remove(&mut self, key: &str) {
        self.remove_keys(|k| k == key);
    }

    /// Removes every entry whose key `doomed` says so of, in one pass.
    fn remove_keys(&mut self, doomed: impl Fn(&str) -> bool) {
        let before = self.entries.len();
        let mut entries = std::mem::take(&mut self.entries);
        entries.retain(|entry| !key_of(self.raw(*entry)).is_some_and(&doomed));
        self.entries = entries;
        self.changed |= self.entries.len() != before;
    }

    fn join(&self) -> String {
        let (open, rest) = (&self.text[..self.open], &self.text[self.rest..]);
        // Sized once: a frontmatter of thousands of keys is not grown to
        // twice its length on the way.
        let len = open.len() + self.raws().map(str::len).sum::<usize>() + rest.len();
        let mut out = String::with_capacity(len);
        out.push_str(open);
        for raw in self.raws() {
            out.push_str(raw);
        }
        out.push_str(rest);
        out
    }
}

/// The key of an entry of [`Lines`] (`None`: the comments or blank lines
/// before the first key).
fn key_of(raw: &str) -> Option<&str> {
    entry_key(raw.split_inclusive('\n').next().unwrap_or(raw))
}

/// The key a line starts a top-level entry for; `None` for continuation
/// lines (indented, blank, comments, or a block sequence at column 0).
fn entry_key(line: &str) -> Option<&str> {
    let first = line.chars().next()?;
    if first.is_whitespace() || first == '#' || line.starts_with("- ") || line.trim_end() == "-" {
        return None;
    }
    let (key, _) = line.split_once(':')?;
    Some(key.trim().trim_matches(|c| c == '"' || c == '\''))
}

/// A source with one instance of every honesty cell the Cursor, OpenCode and
/// Agent Plugins writers can report, and a way to read their rows back.
#[cfg(test)]
pub mod fixture {
    use crate::options::{BuildOptions, TargetRequest};
    use crate::report::Level;
    use crate::source::SourceTree;

    const FILES: &[(&str, &str)] = &[
        ("plugforge.json", r#"{"name": "cells", "version": "1.0.0", "description": "Every cell"}"#),
        ("skills/plain/SKILL.md", "---\nname: plain\ndescription: Plain.\n---\nBody\n"),
        (
            "skills/folded/SKILL.md",
            "---\nname: folded\ndescription: Folds.\nwhen_to_use: When asked.\nargument-hint: [x]\n---\nRun ${PLUGIN_ROOT}/x\n",
        ),
        ("skills/bare/SKILL.md", "---\nname: bare\n---\nNo description\n"),
        ("commands/hello.md", "---\ndescription: Say hello\n---\nHello.\n"),
        (
            "commands/ship.md",
            "---\ndescription: Ship\nargument-hint: x\nmodel: sonnet\n---\nShip $ARGUMENTS\n",
        ),
        ("commands/empty.md", "---\ndescription: Nothing\n---\n"),
        ("agents/plain.md", "---\nname: plain-agent\ndescription: Plain agent\n---\nPrompt\n"),
        (
            "agents/tooled.md",
            "---\nname: tooled\ndescription: Tooled\ntools: Read\ncolor: blue\n---\nPrompt\n",
        ),
        ("AGENTS.md", "Context\n"),
        (
            "hooks/hooks.json",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/g.sh"}]}], "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo"}]}], "PostToolUse": [{"hooks": [{"type": "command", "command": "log ${PLUGIN_DATA}"}]}]}}"#,
        ),
        (
            ".mcp.json",
            r#"{"npx": {"command": "npx", "args": ["srv"]}, "local": {"command": "${PLUGIN_ROOT}/srv", "timeout": 5}, "data": {"command": "srv", "args": ["${PLUGIN_DATA}"]}, "socket": {"type": "ws", "url": "ws://localhost:1"}}"#,
        ),
        ("bin/tool", "#!/bin/sh\n"),
        ("settings.json", r#"{"agent": "plain-agent"}"#),
        ("output-styles/terse.md", "---\nname: terse\ndescription: Terse\n---\nBe terse.\n"),
        // A support file to every runtime but OpenCode, which would load it.
        (".opencode/plugins/cells.js", "export const Cells = async () => ({})\n"),
    ];

    /// (component, name, level) of every row `runtime` reports for the fixture.
    pub fn rows(runtime: &str) -> Vec<(&'static str, String, Level)> {
        let mut source = SourceTree::new();
        for (path, text) in FILES {
            source.insert(path, text.as_bytes().to_vec(), false).expect("valid path");
        }
        let options = BuildOptions { targets: vec![TargetRequest::new(runtime)], ..BuildOptions::default() };
        let output = crate::build(&source, &options).expect("the fixture builds");
        output
            .bundles
            .iter()
            .flat_map(|b| &b.honesty)
            .map(|r| (r.component.as_str(), r.name.clone(), r.level))
            .collect()
    }

    /// The level of one row, which must exist exactly once.
    pub fn level(rows: &[(&'static str, String, Level)], component: &str, name: &str) -> Level {
        let found: Vec<Level> =
            rows.iter().filter(|(c, n, _)| *c == component && n == name).map(|(_, _, l)| *l).collect();
        assert_eq!(found.len(), 1, "{component} {name}: {rows:?}");
        found[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FileComponent;
    use crate::path::BundlePath;
    use crate::source::RenderedFile;

    fn skill(name: &str, text: &str) -> Skill {
        let path = BundlePath::new(format!("skills/{name}/SKILL.md")).unwrap();
        let file = RenderedFile { bytes: text.as_bytes().into(), executable: false, origin: path.clone() };
        Skill {
            name: name.into(),
            document: parse_document(path.as_str(), text).unwrap(),
            main: FileComponent { path, file },
            files: Vec::new(),
        }
    }

    fn folded(text: &str, strictness: Strictness) -> Folded {
        fold(&skill("deploy", text), text, strictness).unwrap()
    }

    #[test]
    fn a_skill_without_when_to_use_keeps_its_bytes() {
        let text = "---\nname: deploy\ndescription: Deploys.\nargument-hint: [x]\n---\nBody\n";
        assert_eq!(folded(text, Strictness::Fold), Folded::default());
    }

    #[test]
    fn folds_when_to_use_into_description_and_keeps_every_other_line() {
        let text = "---\nname: deploy\n# why\ndescription: Deploys services.\nwhen_to_use: |\n  When asked\n  to ship.\nmodel: sonnet\n---\nBody $ARGUMENTS\n";
        let result = folded(text, Strictness::Fold);
        assert_eq!(
            result.text.as_deref(),
            Some(
                "---\nname: deploy\n# why\ndescription: \"Deploys services. When asked\\nto ship.\"\nmodel: sonnet\n---\nBody $ARGUMENTS\n"
            )
        );
        assert_eq!(result.changes, ["when_to_use folded into description"]);
        assert!(result.lost.is_empty());
    }

    #[test]
    fn when_to_use_alone_becomes_the_description() {
        let result = folded("---\nname: deploy\nwhen_to_use: Use when shipping\n---\n", Strictness::Fold);
        assert_eq!(result.text.as_deref(), Some("---\nname: deploy\ndescription: Use when shipping\n---\n"));
    }

    #[test]
    fn a_folded_description_past_1024_characters_is_shortened_and_said() {
        let sentence = format!("{}.", "d".repeat(599));
        let text =
            format!("---\nname: deploy\ndescription: {sentence}\nwhen_to_use: {}\n---\n", "w".repeat(424));
        let result = fold(&skill("deploy", &text), &text, Strictness::Fold).unwrap();
        assert_eq!(
            result.text.as_deref(),
            Some(format!("---\nname: deploy\ndescription: {sentence}\n---\n").as_str())
        );
        assert_eq!(
            result.lost,
            [
                "description shortened from 1025 to 600 characters at a sentence boundary: this runtime refuses \
              a skill whose description is over 1024"
            ]
        );
        let fits = format!(
            "---\nname: deploy\ndescription: {}\nwhen_to_use: {}\n---\n",
            "d".repeat(600),
            "w".repeat(423)
        );
        assert!(fold(&skill("deploy", &fits), &fits, Strictness::Fold).unwrap().lost.is_empty());
    }

    #[test]
    fn shortening_cuts_after_a_sentence_then_at_a_word_then_at_a_character() {
        assert_eq!(shorten("One two. Three four five.", 14), ("One two.".to_string(), "sentence"));
        // A sentence end that would keep less than half is passed over for a word.
        assert_eq!(shorten("Hi. Three four five six.", 20), ("Hi. Three four five…".to_string(), "word"));
        assert_eq!(shorten("v1.2 is the one to use", 10), ("v1.2 is…".to_string(), "word"));
        assert_eq!(shorten("abcdefghijkl", 5), ("abcd…".to_string(), "character"));
        assert_eq!(shorten("Fits.", 5), ("Fits.".to_string(), "no"));
        for (text, limit) in [("One two. Three four five.", 20), ("ééé ééé ééé", 6), ("a b", 2)] {
            assert!(shorten(text, limit).0.chars().count() <= limit, "{text}");
        }
    }

    #[test]
    fn the_name_follows_the_folder() {
        let result = folded("---\ndescription: Deploys.\n---\n", Strictness::Fold);
        assert_eq!(result.text.as_deref(), Some("---\ndescription: Deploys.\nname: deploy\n---\n"));
        let renamed = folded("---\nname: Other\ndescription: Deploys.\n---\n", Strictness::Fold);
        assert_eq!(renamed.text.as_deref(), Some("---\nname: deploy\ndescription: Deploys.\n---\n"));
    }

    #[test]
    fn agent_skills_keeps_six_keys_and_moves_plain_values_under_metadata() {
        let text = "---\nname: deploy\ndescription: Deploys.\nmetadata:\n  owner: ops\n  tier: 2\ndisable-model-invocation: true\nargument-hint:\n- service\nallowed-tools:\n  - Read\n  - Bash\nlicense: MIT\n---\nBody\n";
        let result = folded(text, Strictness::AgentSkills);
        assert_eq!(
            result.text.as_deref(),
            Some(
                "---\nname: deploy\ndescription: Deploys.\nmetadata:\n  owner: ops\n  tier: \"2\"\n  disable-model-invocation: \"true\"\nallowed-tools: Read Bash\nlicense: MIT\n---\nBody\n"
            )
        );
        assert_eq!(
            result.lost,
            [
                "disable-model-invocation kept under metadata only (no effect there)",
                "dropped argument-hint (not an Agent Skills key nor a plain value)"
            ]
        );
        assert_eq!(result.changes, ["allowed-tools list written as one space-separated string"]);
    }

    /// Every key outside the Agent Skills set goes under `metadata`, all
    /// in one pass (`cli/tests/limits.rs` times 40,000 of them).
    #[test]
    fn a_frontmatter_of_many_keys_moves_each_under_metadata() {
        let keys: String = (0..2_000).map(|i| format!("k{i}: v{i}\n")).collect();
        let text = format!("---\nname: deploy\ndescription: Deploys.\n{keys}---\nBody\n");
        let result = folded(&text, Strictness::AgentSkills);
        let written = result.text.expect("changed");
        assert!(written.contains("metadata:\n  k0: v0\n") && written.contains("  k1999: v1999\n"));
        assert!(!written.contains("\nk1: v1\n"), "moved under metadata, not left at the top");
        // The report row names the first ten and counts the rest.
        assert_eq!(
            result.lost,
            [
                "k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 1990 more kept under metadata only (no effect there)"
            ]
        );
    }

    #[test]
    fn agent_skills_drops_an_oversized_compatibility() {
        let text = format!("---\nname: deploy\ndescription: D\ncompatibility: {}\n---\n", "c".repeat(501));
        let result = fold(&skill("deploy", &text), &text, Strictness::AgentSkills).unwrap();
        assert_eq!(result.text.as_deref(), Some("---\nname: deploy\ndescription: D\n---\n"));
        assert_eq!(
            result.lost,
            ["dropped compatibility (Agent Skills takes at most 500 characters of text)"]
        );
    }

    #[test]
    fn top_level_keys_are_found_by_line() {
        let text = "---\nname: a\nmetadata:\n  allowed-tools: x\n---\nallowed-tools: y\n";
        assert!(has_key(text, "metadata"));
        assert!(!has_key(text, "allowed-tools"));
        assert!(!has_key("no frontmatter", "name"));
    }

    #[test]
    fn skill_names_follow_agent_skills() {
        assert!(is_skill_name("deploy-2"));
        for bad in ["", "Deploy", "a--b", "-a", "a-", "a_b", &"a".repeat(65)] {
            assert!(!is_skill_name(bad), "{bad}");
        }
    }
}
