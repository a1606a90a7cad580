//! Claude-dialect hooks -> Codex's `hooks.json` dialect (Codex 0.171, checked
//! with the app-server's `hooks/list`): the same `{Event: [{matcher, hooks}]}`
//! shape, fewer events, fewer handler types, and Codex's own tool names.

use serde_json::{Map, Value};

use super::facts;
use crate::report::Level;

/// Events whose matcher names a tool.
const TOOL_EVENTS: [&str; 3] = ["PreToolUse", "PostToolUse", "PermissionRequest"];

/// Keys of a `command` handler Codex reads; Claude's `if`, `args`, `shell`,
/// `once` and `asyncRewake` are not among them.
const COMMAND_KEYS: [&str; 6] = ["type", "command", "commandWindows", "timeout", "async", "statusMessage"];

/// Claude tools whose Codex counterpart is `apply_patch`, Codex's file editor.
const EDIT_TOOLS: [&str; 4] = ["Write", "Edit", "MultiEdit", "NotebookEdit"];

/// One event after translation: its groups (possibly none) and how faithful it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub name: String,
    /// `None` when the event is left out entirely.
    pub groups: Option<Vec<Value>>,
    pub level: Level,
    pub detail: String,
}

/// Translates the canonical hooks file value (`{"hooks": {...}}`) event by event.
pub fn translate(file: &Value) -> Vec<Event> {
    let Some(events) = file.get("hooks").and_then(Value::as_object) else { return Vec::new() };
    events.iter().map(|(name, groups)| event(name, groups)).collect()
}

/// The Codex hooks file holding every event that survived, in source order.
pub fn file(events: &[Event]) -> Value {
    let kept: Map<String, Value> =
        events.iter().filter_map(|e| Some((e.name.clone(), Value::Array(e.groups.clone()?)))).collect();
    serde_json::json!({ "hooks": kept })
}

fn event(name: &str, groups: &Value) -> Event {
    // Codex ignores any other event without a word, so it is left out and reported.
    if !facts::runs_canonical_event(name) {
        return Event {
            name: name.to_string(),
            groups: None,
            level: Level::Unsupported,
            detail: format!("Codex has no {name} hook event; left out"),
        };
    }
    let source: &[Value] = groups.as_array().map_or(&[], Vec::as_slice);
    let mut notes = Vec::new();
    let kept: Vec<Value> =
        source.iter().filter_map(|g| group(g, name, &mut notes)).collect();
    notes.dedup();
    let (level, detail) = match (kept.len(), notes.is_empty()) {
        (0, false) => (Level::Unsupported, format!("nothing left to run in Codex: {}", notes.join("; "))),
        (_, true) => (
            Level::Supported,
            "hooks/hooks.json, run once the user trusts it (the bundle README says how)".to_string(),
        ),
        (_, false) => (Level::Degraded, notes.join("; ")),
    };
    let groups = if kept.is_empty() && !source.is_empty() { None } else { Some(kept) };
    Event { name: name.to_string(), groups, level, detail }
}

fn group(group: &Value, event: &str, notes: &mut Vec<String>) -> Option<Value> {
    let mut out = group.as_object().cloned().unwrap_or_default();
    if TOOL_EVENTS.contains(&event) {
        if let Some(matcher) = out.get("matcher").and_then(Value::as_str).map(str::to_string) {
            match translate_matcher(&matcher) {
                Matcher::Same => {}
                Matcher::All => {
                    out.remove("matcher");
                }
                Matcher::Changed(new, note) => {
                    notes.push(note);
                    out.insert("matcher".into(), Value::String(new));
                }
                Matcher::Never(note) => {
                    notes.push(note);
                    return None;
                }
            }
        }
    }
    let handlers: Vec<Value> = out
        .get("hooks")
        .and_then(Value::as_array)
        .map(|hs| hs.iter().filter_map(|h| handler(h, event, notes)).collect())
        .unwrap_or_default();
    if handlers.is_empty() {
        return None;
    }
    out.insert("hooks".into(), Value::Array(handlers));
    Some(Value::Object(out))
}

fn handler(handler: &Value, event: &str, notes: &mut Vec<String>) -> Option<Value> {
    let kind = handler.get("type").and_then(Value::as_str).unwrap_or("command");
    match kind {
        "command" => {
            let mut kept = handler.as_object().cloned().unwrap_or_default();
            let dropped: Vec<String> =
                kept.keys().filter(|k| !COMMAND_KEYS.contains(&k.as_str())).cloned().collect();
            if !dropped.is_empty() {
                notes.push(format!("Codex ignores {} on command hooks: dropped", dropped.join(", ")));
                kept.retain(|k, _| COMMAND_KEYS.contains(&k.as_str()));
            }
            let cap = facts::HOOK_TIMEOUT_CAPS.iter().find(|(e, _)| *e == event).map(|(_, cap)| *cap);
            if let (Some(cap), Some(timeout)) = (cap, kept.get("timeout").and_then(Value::as_f64))
                && timeout > cap as f64
            {
                notes.push(format!("timeout {timeout}s cut to {cap}s, the most Codex gives a {event} hook"));
                kept.insert("timeout".into(), Value::from(cap));
            }
            Some(Value::Object(kept))
        }
        "mcp_tool" => Some(handler.clone()),
        "prompt" | "agent" => {
            notes.push(format!("Codex skips {kind} hooks (\"not supported yet\"): left out"));
            None
        }
        other => {
            notes.push(format!(
                "Codex has no {other} hook type (it would reject the whole hooks file): left out"
            ));
            None
        }
    }
}

#[derive(Debug, PartialEq)]
enum Matcher {
    Same,
    /// Match every tool: Claude's `*`, which is no valid regex for Codex.
    All,
    Changed(String, String),
    /// No Codex tool can ever match: the group is left out.
    Never(String),
}

/// Claude tool names -> Codex's (`Bash`, `apply_patch`, `mcp__<server>__<tool>`)
/// for plain `A|B` alternations; a regex is kept as it is, with a note.
fn translate_matcher(matcher: &str) -> Matcher {
    if matcher.is_empty() {
        return Matcher::Same;
    }
    if matcher == "*" {
        return Matcher::All;
    }
    if matcher.contains(|c: char| ".^$()[]{}+?*\\".contains(c)) {
        let note = format!(
            "matcher {matcher:?} kept as written; Codex's tools are Bash, apply_patch and mcp__<server>__<tool>"
        );
        return Matcher::Changed(matcher.to_string(), note);
    }
    let mut mapped: Vec<&str> = Vec::new();
    let mut edits = false;
    let mut missing: Vec<&str> = Vec::new();
    for tool in matcher.split('|') {
        let codex = match tool {
            "Bash" => Some("Bash"),
            t if EDIT_TOOLS.contains(&t) => {
                edits = true;
                Some("apply_patch")
            }
            t if t.starts_with("mcp__") => Some(t),
            t => {
                missing.push(t);
                None
            }
        };
        if let Some(codex) = codex.filter(|c| !mapped.contains(c)) {
            mapped.push(codex);
        }
    }
    if mapped.is_empty() {
        return Matcher::Never(format!("no Codex tool matches {matcher:?}: its group is left out"));
    }
    let mut notes = Vec::new();
    if edits {
        notes.push(
            "file edits arrive as Codex's apply_patch tool (a patch in tool_input.command, not file_path/content)"
                .to_string(),
        );
    }
    if !missing.is_empty() {
        notes.push(format!("Codex has no {} tool", missing.join("/")));
    }
    let joined = mapped.join("|");
    if notes.is_empty() {
        Matcher::Same
    } else {
        let note = format!("matcher {matcher:?} -> {joined:?}: {}", notes.join("; "));
        Matcher::Changed(joined, note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_codex_events_and_leaves_claude_only_ones_out() {
        let source = json!({"description": "d", "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/g.sh"}]}],
            "Notification": [{"hooks": [{"type": "command", "command": "echo n"}]}],
            "Stop": []
        }});
        let events = translate(&source);
        assert_eq!(events[0].level, Level::Supported);
        assert_eq!(events[1].level, Level::Unsupported);
        assert_eq!(events[1].detail, "Codex has no Notification hook event; left out");
        assert_eq!((events[2].level, events[2].groups.clone()), (Level::Supported, Some(vec![])));
        assert_eq!(
            file(&events),
            json!({"hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/g.sh"}]}],
                "Stop": []
            }})
        );
    }

    #[test]
    fn drops_handler_types_and_keys_codex_does_not_run() {
        let source = json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "x", "if": "Bash(git *)", "once": true, "timeout": 5},
            {"type": "prompt", "prompt": "p"},
            {"type": "http", "url": "http://localhost"}
        ]}]}});
        let events = translate(&source);
        assert_eq!(events[0].level, Level::Degraded);
        assert_eq!(
            events[0].detail,
            "Codex ignores if, once on command hooks: dropped; \
             Codex skips prompt hooks (\"not supported yet\"): left out; \
             Codex has no http hook type (it would reject the whole hooks file): left out"
        );
        assert_eq!(
            file(&events),
            json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 5}]}]}})
        );
        let only_prompt = json!({"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "p"}]}]}});
        let events = translate(&only_prompt);
        assert_eq!((events[0].level, events[0].groups.clone()), (Level::Unsupported, None));
    }

    #[test]
    fn translates_tool_matchers_to_codex_tool_names() {
        assert_eq!(translate_matcher("Bash"), Matcher::Same);
        assert_eq!(translate_matcher("mcp__db__query|Bash"), Matcher::Same);
        assert_eq!(translate_matcher("*"), Matcher::All);
        assert_eq!(
            translate_matcher("Write|Edit|Read"),
            Matcher::Changed(
                "apply_patch".into(),
                "matcher \"Write|Edit|Read\" -> \"apply_patch\": file edits arrive as Codex's apply_patch tool \
                 (a patch in tool_input.command, not file_path/content); Codex has no Read tool"
                    .into()
            )
        );
        assert_eq!(
            translate_matcher("Read|Grep"),
            Matcher::Never("no Codex tool matches \"Read|Grep\": its group is left out".into())
        );
        assert!(matches!(translate_matcher("Bash.*"), Matcher::Changed(m, _) if m == "Bash.*"));
    }

    #[test]
    fn a_star_matcher_becomes_match_all() {
        let source = json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "x"}]}]}});
        let events = translate(&source);
        assert_eq!(events[0].groups, Some(vec![json!({"hooks": [{"type": "command", "command": "x"}]})]));
        assert_eq!(events[0].level, Level::Supported);
    }
}
