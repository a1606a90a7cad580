//! Claude Code hook events -> Gemini CLI hook events.
//!
//! Gemini 0.61.0 knows the `HookEventName` enum only
//! ([`super::facts::HOOK_EVENTS`]); any other key is skipped with a warning
//! at session start. Its hook planner tests a tool matcher as a regex
//! against Gemini's tool names, a lifecycle matcher (SessionStart source,
//! SessionEnd reason, PreCompress trigger) by string equality, and ignores
//! the matcher of every other event. Handler timeouts
//! are milliseconds (Claude: seconds). A plain-text stdout becomes a
//! `systemMessage` shown to the user, never context.

use serde_json::{Map, Value};

use super::tools;
use crate::report::Level;

/// How one Claude event lands in Gemini.
struct Event {
    claude: &'static str,
    gemini: &'static str,
    matcher: Matcher,
    /// Level and caveat when the event has handlers.
    level: Level,
    caveat: &'static str,
}

enum Matcher {
    /// A regex over tool names.
    Tool,
    /// Exact values Gemini emits for the event.
    Values(&'static [&'static str]),
    /// Gemini ignores it, where Claude filters by it.
    Ignored,
    /// Neither runtime reads it.
    Unused,
}

const EVENTS: [Event; 8] = [
    Event {
        claude: "PreToolUse",
        gemini: "BeforeTool",
        matcher: Matcher::Tool,
        level: Level::Degraded,
        caveat: "the handler reads Gemini's tool names and arguments on stdin and answers with \
                 Gemini's decision fields; exit code 2 still blocks the call",
    },
    Event {
        claude: "PostToolUse",
        gemini: "AfterTool",
        matcher: Matcher::Tool,
        level: Level::Degraded,
        caveat: "the handler reads Gemini's tool names and tool_response on stdin; exit code 2 \
                 replaces the tool result sent to the model",
    },
    Event {
        claude: "UserPromptSubmit",
        gemini: "BeforeAgent",
        matcher: Matcher::Unused,
        level: Level::Degraded,
        caveat: "plain stdout is shown to the user instead of added to the prompt; JSON \
                 hookSpecificOutput.additionalContext still adds context",
    },
    Event {
        claude: "Stop",
        gemini: "AfterAgent",
        matcher: Matcher::Unused,
        level: Level::Supported,
        caveat: "fires once per turn after the final response; a block decision asks for another \
                 turn with the reason, as Stop does",
    },
    Event {
        claude: "SessionStart",
        gemini: "SessionStart",
        matcher: Matcher::Values(&["startup", "resume", "clear"]),
        level: Level::Degraded,
        caveat: "plain stdout is shown to the user, not added to the context; JSON \
                 hookSpecificOutput.additionalContext is",
    },
    Event {
        claude: "SessionEnd",
        gemini: "SessionEnd",
        matcher: Matcher::Values(&["exit", "clear", "logout", "prompt_input_exit", "other"]),
        level: Level::Supported,
        caveat: "best effort: Gemini does not wait for it at exit",
    },
    Event {
        claude: "PreCompact",
        gemini: "PreCompress",
        matcher: Matcher::Values(&["manual", "auto"]),
        level: Level::Supported,
        caveat: "advisory, as PreCompact",
    },
    Event {
        claude: "Notification",
        gemini: "Notification",
        matcher: Matcher::Ignored,
        level: Level::Degraded,
        caveat: "Gemini notifies hooks of tool-permission alerts only",
    },
];

/// The Gemini event for a Claude event, if there is one.
pub fn gemini_event(claude: &str) -> Option<&'static str> {
    EVENTS.iter().find(|e| e.claude == claude).map(|e| e.gemini)
}

/// The Claude event a Gemini event comes from, for `import`.
pub fn claude_event(gemini: &str) -> Option<&'static str> {
    EVENTS.iter().find(|e| e.gemini == gemini).map(|e| e.claude)
}

/// One Claude event's fate, for the honesty report.
#[derive(Debug, PartialEq, Eq)]
pub struct Row {
    pub event: String,
    pub level: Level,
    pub detail: String,
}

/// Claude `hooks` (event -> groups) -> Gemini events, plus a row per event.
/// `spell` rewrites plugin-root variables in handler commands.
pub fn translate(
    events: &Map<String, Value>,
    spell: &dyn Fn(&str) -> String,
) -> (Map<String, Value>, Vec<Row>) {
    let mut out = Map::new();
    let mut rows = Vec::new();
    for (name, groups) in events {
        let Some(event) = EVENTS.iter().find(|e| e.claude == name) else {
            let detail = "Gemini CLI has no such hook event; its handlers are dropped".to_string();
            rows.push(Row { event: name.clone(), level: Level::Unsupported, detail });
            continue;
        };
        let groups: &[Value] = groups.as_array().map_or(&[], Vec::as_slice);
        let mut notes = Vec::new();
        let translated: Vec<Value> =
            groups.iter().flat_map(|g| translate_group(event, g, spell, &mut notes)).collect();
        rows.push(row(event, groups.is_empty(), translated.is_empty(), notes));
        out.insert(event.gemini.to_string(), Value::Array(translated));
    }
    (out, rows)
}

fn row(event: &Event, no_groups: bool, none_left: bool, notes: Vec<String>) -> Row {
    let mapped = format!("{} -> {}", event.claude, event.gemini);
    let (level, detail) = if no_groups {
        (Level::Supported, format!("{mapped}, no handlers"))
    } else if none_left {
        (Level::Unsupported, format!("{mapped}: no handler can fire ({})", notes.join("; ")))
    } else {
        let level = if notes.is_empty() { event.level } else { Level::Degraded };
        let mut parts = vec![event.caveat.to_string()];
        parts.extend(notes);
        (level, format!("{mapped}: {}", parts.join("; ")))
    };
    Row { event: event.claude.to_string(), level, detail }
}

/// One Claude matcher group -> zero or more Gemini groups.
fn translate_group(
    event: &Event,
    group: &Value,
    spell: &dyn Fn(&str) -> String,
    notes: &mut Vec<String>,
) -> Vec<Value> {
    let Some(group) = group.as_object() else {
        notes.push("a matcher group that is not an object is dropped".into());
        return Vec::new();
    };
    let handlers: Vec<Value> = group
        .get("hooks")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(|h| translate_handler(h, spell, notes))
        .collect();
    if handlers.is_empty() {
        return Vec::new();
    }
    let extra: Vec<&str> = group
        .keys()
        .map(String::as_str)
        .filter(|k| !["matcher", "hooks", "sequential"].contains(k))
        .collect();
    if !extra.is_empty() {
        notes.push(format!("group keys Gemini does not read are dropped: {}", extra.join(", ")));
    }
    let matcher = group.get("matcher").and_then(Value::as_str).map(str::trim).filter(|m| !m.is_empty());
    let matchers = match matcher {
        None | Some("*") => vec![None],
        Some(m) => translate_matcher(event, m, notes),
    };
    matchers
        .into_iter()
        .map(|matcher| {
            let mut out = Map::new();
            if let Some(matcher) = matcher {
                out.insert("matcher".into(), Value::String(matcher));
            }
            if let Some(sequential) = group.get("sequential") {
                out.insert("sequential".into(), sequential.clone());
            }
            out.insert("hooks".into(), Value::Array(handlers.clone()));
            Value::Object(out)
        })
        .collect()
}

/// The matchers (none = match all) the Gemini groups get.
fn translate_matcher(event: &Event, matcher: &str, notes: &mut Vec<String>) -> Vec<Option<String>> {
    match event.matcher {
        Matcher::Ignored => {
            notes.push(format!("matcher {matcher:?} is ignored by Gemini for {}", event.gemini));
            vec![None]
        }
        Matcher::Unused => vec![None],
        Matcher::Tool => tool_matcher(matcher, notes).map_or_else(Vec::new, |m| vec![Some(m)]),
        Matcher::Values(known) => {
            // Gemini compares lifecycle matchers by equality: one group per value.
            let (kept, dropped): (Vec<&str>, Vec<&str>) =
                matcher.split('|').map(str::trim).partition(|v| known.contains(v));
            if !dropped.is_empty() {
                notes.push(format!("Gemini never reports {} for {}", dropped.join(", "), event.gemini));
            }
            kept.into_iter().map(|v| Some(v.to_string())).collect()
        }
    }
}

/// A Claude tool matcher as Gemini tool names; `None` when nothing is left.
fn tool_matcher(matcher: &str, notes: &mut Vec<String>) -> Option<String> {
    let plain = matcher.split('|').all(|part| {
        let part = part.trim();
        !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    if !plain {
        notes.push(format!(
            "regex matcher {matcher:?} is kept as written and tested against Gemini's tool names"
        ));
        return Some(matcher.to_string());
    }
    let names: Vec<String> = matcher.split('|').map(|p| p.trim().to_string()).collect();
    let mapped = tools::map_all(&names);
    if !mapped.dropped.is_empty() {
        notes.push(format!("Gemini has no tool for {}", mapped.dropped.join(", ")));
    }
    (!mapped.tools.is_empty()).then(|| mapped.tools.join("|"))
}

/// A Claude handler -> Gemini's `{type, command, timeout (ms)}`.
fn translate_handler(
    handler: &Value,
    spell: &dyn Fn(&str) -> String,
    notes: &mut Vec<String>,
) -> Option<Value> {
    let handler = handler.as_object()?;
    let kind = handler.get("type").and_then(Value::as_str).unwrap_or("command");
    let Some(command) = handler.get("command").and_then(Value::as_str).filter(|_| kind == "command") else {
        notes.push(format!("a {kind:?} handler is dropped: Gemini runs command handlers only"));
        return None;
    };
    let mut out = Map::new();
    out.insert("type".into(), Value::from("command"));
    out.insert("command".into(), Value::from(spell(command)));
    if let Some(seconds) = handler.get("timeout").and_then(Value::as_f64) {
        out.insert("timeout".into(), Value::from((seconds * 1000.0).round() as u64));
    }
    let extra: Vec<&str> =
        handler.keys().map(String::as_str).filter(|k| !["type", "command", "timeout"].contains(k)).collect();
    if !extra.is_empty() {
        notes.push(format!("handler keys Gemini does not read are dropped: {}", extra.join(", ")));
    }
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_target_event_is_one_gemini_has() {
        for event in &EVENTS {
            assert!(super::super::facts::HOOK_EVENTS.contains(&event.gemini), "{}", event.gemini);
        }
    }

    fn run(value: Value) -> (Value, Vec<Row>) {
        let (events, rows) =
            translate(value.as_object().unwrap(), &|s| s.replace("${PLUGIN_ROOT}", "${extensionPath}"));
        (Value::Object(events), rows)
    }

    #[test]
    fn maps_event_names() {
        let expected = [
            ("PreToolUse", "BeforeTool"),
            ("PostToolUse", "AfterTool"),
            ("UserPromptSubmit", "BeforeAgent"),
            ("Stop", "AfterAgent"),
            ("SessionStart", "SessionStart"),
            ("SessionEnd", "SessionEnd"),
            ("PreCompact", "PreCompress"),
            ("Notification", "Notification"),
        ];
        for (claude, gemini) in expected {
            assert_eq!(gemini_event(claude), Some(gemini), "{claude}");
        }
        for claude in ["SubagentStop", "PostToolUseFailure", "PermissionRequest", "StopFailure"] {
            assert_eq!(gemini_event(claude), None, "{claude}");
        }
    }

    #[test]
    fn translates_tool_matchers_commands_and_timeouts() {
        let (events, rows) = run(json!({
            "PreToolUse": [{"matcher": "Write|Edit|MultiEdit", "hooks": [
                {"type": "command", "command": "${PLUGIN_ROOT}/guard.sh", "timeout": 5}
            ]}],
        }));
        assert_eq!(
            events,
            json!({"BeforeTool": [{"matcher": "write_file|replace", "hooks": [
                {"type": "command", "command": "${extensionPath}/guard.sh", "timeout": 5000}
            ]}]})
        );
        assert_eq!(rows[0].level, Level::Degraded);
        assert!(
            rows[0].detail.starts_with("PreToolUse -> BeforeTool: the handler reads"),
            "{}",
            rows[0].detail
        );
    }

    #[test]
    fn splits_lifecycle_alternatives_and_drops_values_gemini_never_sends() {
        let (events, rows) = run(json!({
            "SessionStart": [{"matcher": "startup|compact", "hooks": [{"type": "command", "command": "echo hi"}]}],
            "PreCompact": [{"matcher": "manual|auto", "hooks": [{"type": "command", "command": "x"}]}],
        }));
        assert_eq!(
            events["SessionStart"],
            json!([{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}])
        );
        assert_eq!(events["PreCompress"].as_array().unwrap().len(), 2);
        assert_eq!(rows[0].level, Level::Degraded);
        assert!(
            rows[0].detail.contains("Gemini never reports compact for SessionStart"),
            "{}",
            rows[0].detail
        );
        assert_eq!(rows[1].level, Level::Supported);
    }

    #[test]
    fn keeps_empty_events_and_reports_unknown_ones() {
        let (events, rows) = run(json!({"Stop": [], "PreToolUse": [], "SubagentStop": [
            {"hooks": [{"type": "command", "command": "x"}]}
        ]}));
        assert_eq!(events, json!({"AfterAgent": [], "BeforeTool": []}));
        assert_eq!(
            rows,
            [
                Row {
                    event: "Stop".into(),
                    level: Level::Supported,
                    detail: "Stop -> AfterAgent, no handlers".into()
                },
                Row {
                    event: "PreToolUse".into(),
                    level: Level::Supported,
                    detail: "PreToolUse -> BeforeTool, no handlers".into()
                },
                Row {
                    event: "SubagentStop".into(),
                    level: Level::Unsupported,
                    detail: "Gemini CLI has no such hook event; its handlers are dropped".into()
                },
            ]
        );
    }

    #[test]
    fn drops_what_cannot_fire() {
        let (events, rows) = run(json!({"PreToolUse": [
            {"matcher": "NotebookEdit", "hooks": [{"type": "command", "command": "x"}]},
            {"hooks": [{"type": "prompt", "prompt": "check"}]}
        ]}));
        assert_eq!(events, json!({"BeforeTool": []}));
        assert_eq!(rows[0].level, Level::Unsupported);
        assert!(rows[0].detail.contains("Gemini has no tool for NotebookEdit"), "{}", rows[0].detail);
        assert!(rows[0].detail.contains("a \"prompt\" handler is dropped"), "{}", rows[0].detail);
    }
}
