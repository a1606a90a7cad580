//! Hooks: `hooks/hooks.json` in Claude Code's shape, which Qwen Code reads
//! as it is, kept to the events ([`facts::HOOK_EVENTS`]) and handler types
//! ([`facts::HOOK_HANDLER_TYPES`]) Qwen runs.

use serde_json::{Map, Value};

use super::facts;
use crate::report::Level;

/// One event's verdict for the honesty report.
pub struct Row {
    pub event: String,
    pub level: Level,
    pub detail: String,
}

/// The events Qwen runs, each with only the handlers it runs, and a row per
/// source event. `spell` rewrites a handler's strings (plugin-root
/// variables) and returns what it could not keep.
pub fn translate(events: &Map<String, Value>, spell: &dyn Fn(&mut Map<String, Value>) -> Vec<String>) -> (Map<String, Value>, Vec<Row>) {
    let mut kept = Map::new();
    let mut rows = Vec::new();
    for (event, groups) in events {
        if !facts::HOOK_EVENTS.contains(&event.as_str()) {
            let detail = format!(
                "Qwen Code has no {event} event (its hook registry skips the key at session start); not written"
            );
            rows.push(Row { event: event.clone(), level: Level::Unsupported, detail });
            continue;
        }
        let mut notes = Vec::new();
        let mut out = Vec::new();
        for group in groups.as_array().into_iter().flatten() {
            let Some(group) = group.as_object() else { continue };
            let mut group = group.clone();
            let had_none = groups_had_no_handlers(&group);
            if let Some(Value::Array(handlers)) = group.get_mut("hooks") {
                let mut runnable = Vec::new();
                for handler in handlers.drain(..) {
                    let Value::Object(mut handler) = handler else { continue };
                    let Some(kind) = handler.get("type").and_then(Value::as_str).map(str::to_string) else {
                        notes.push("a handler without a type: Qwen Code discards it; not written".into());
                        continue;
                    };
                    let Some((_, required)) = facts::HOOK_HANDLER_TYPES.iter().find(|(t, _)| *t == kind) else {
                        notes.push(format!("a {kind:?} handler: Qwen Code runs command, http and prompt hooks; not written"));
                        continue;
                    };
                    if required.iter().any(|field| !handler.get(*field).is_some_and(Value::is_string)) {
                        notes.push(format!("a {kind} handler without its {}: Qwen Code discards it; not written", required.join(", ")));
                        continue;
                    }
                    if let Some(timeout) = handler.get("timeout").and_then(Value::as_u64) {
                        if timeout >= facts::HOOK_TIMEOUT_MILLISECONDS_FROM {
                            notes.push(format!(
                                "timeout {timeout}: Qwen Code reads a timeout of {} or more as milliseconds",
                                facts::HOOK_TIMEOUT_MILLISECONDS_FROM
                            ));
                        }
                    }
                    notes.extend(spell(&mut handler));
                    runnable.push(Value::Object(handler));
                }
                if runnable.is_empty() && !had_none {
                    continue;
                }
                *handlers = runnable;
            }
            out.push(Value::Object(group));
        }
        notes.dedup();
        let source_groups = groups.as_array().map_or(0, Vec::len);
        if out.is_empty() && source_groups > 0 {
            let detail = format!("{}: no handler Qwen Code runs; not written", notes.join("; "));
            rows.push(Row { event: event.clone(), level: Level::Unsupported, detail });
            continue;
        }
        let (level, detail) = if notes.is_empty() {
            (Level::Supported, format!("{}, in Claude Code's shape, which Qwen Code reads as it is", facts::HOOKS_FILE))
        } else {
            (Level::Degraded, format!("{}: {}", facts::HOOKS_FILE, notes.join("; ")))
        };
        rows.push(Row { event: event.clone(), level, detail });
        kept.insert(event.clone(), Value::Array(out));
    }
    (kept, rows)
}

/// A group that held no handlers to begin with is kept as it is.
fn groups_had_no_handlers(group: &Map<String, Value>) -> bool {
    group.get("hooks").and_then(Value::as_array).is_some_and(Vec::is_empty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(events: Value) -> (Value, Vec<(String, Level)>) {
        let events = events.as_object().unwrap().clone();
        let (kept, rows) = translate(&events, &|_| Vec::new());
        (Value::Object(kept), rows.into_iter().map(|r| (r.event, r.level)).collect())
    }

    #[test]
    fn events_and_handlers_qwen_lacks_are_left_out() {
        let (kept, rows) = run(json!({
            "PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "x", "timeout": 5},
                {"type": "agent", "prompt": "p"}]}],
            "FileChanged": [{"hooks": [{"type": "command", "command": "y"}]}],
            "Stop": [],
            "SessionEnd": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t"}]}],
        }));
        assert_eq!(
            kept,
            json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "timeout": 5}]}], "Stop": []})
        );
        assert_eq!(
            rows,
            [
                ("PreToolUse".into(), Level::Degraded),
                ("FileChanged".into(), Level::Unsupported),
                ("Stop".into(), Level::Supported),
                ("SessionEnd".into(), Level::Unsupported),
            ]
        );
    }
}
