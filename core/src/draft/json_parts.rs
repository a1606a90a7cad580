//! Hooks and MCP servers a native plugin spreads over several files and
//! inline manifest objects, merged into the one canonical file.

use serde_json::{Map, Value, json};

use super::Draft;
use crate::canonical::HOOK_EVENTS;
use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Result};

#[derive(Default)]
pub struct JsonParts {
    /// Extra files the manifest names (read when the walk reaches them).
    pub files: Vec<String>,
    /// (origin, value) of every file and inline object, in order.
    pub inline: Vec<(String, Value)>,
}

pub enum Merged {
    None,
    /// The merged value and the origin of its first part.
    Value(Value, String),
}

impl JsonParts {
    /// Notes each file the manifest names that the plugin does not hold.
    pub fn note_missing(&self, draft: &mut Draft, manifest: &str) {
        for file in self.files.iter().filter(|f| !self.inline.iter().any(|(origin, _)| origin == *f)) {
            let message =
                format!("{manifest} names {file}, which the plugin does not hold; nothing to import");
            draft.note(DiagnosticCode::MissingFile, Location::file(manifest), message);
        }
    }

    /// `{"description"?, "hooks": {Event: [groups]}}` parts, events concatenated.
    pub fn merge_hooks(self, draft: &mut Draft) -> Result<Merged> {
        let Some(origin) = self.inline.first().map(|(o, _)| o.clone()) else { return Ok(Merged::None) };
        let mut description = None;
        let mut events: Map<String, Value> = Map::new();
        let mut any = false;
        for (from, value) in self.inline {
            let Value::Object(mut object) = value else {
                return Err(invalid(&from, "a hooks config must be a JSON object"));
            };
            // `{}` declares no hooks (Codex reads it so), not a broken config.
            if object.is_empty() {
                continue;
            }
            any = true;
            if description.is_none() {
                description = object.shift_remove("description");
            }
            let Some(Value::Object(found)) = object.shift_remove("hooks") else {
                return Err(invalid(
                    &from,
                    "a hooks config needs a \"hooks\" object of event -> matcher groups",
                ));
            };
            for (key, value) in object {
                let message =
                    format!("hooks config key \"{key}\" ({value}) has no canonical counterpart; left out");
                draft.note(DiagnosticCode::UnknownField, Location::file(from.as_str()), message);
            }
            for (event, groups) in found {
                let slot = events.entry(event).or_insert_with(|| Value::Array(Vec::new()));
                match (slot, groups) {
                    (Value::Array(into), Value::Array(from)) => into.extend(from),
                    (_, other) => {
                        return Err(invalid(
                            &from,
                            &format!("hook event groups must be an array, not {other}"),
                        ));
                    }
                }
            }
        }
        if !any {
            return Ok(Merged::None);
        }
        let mut out = Map::new();
        if let Some(description) = description {
            out.insert("description".into(), description);
        }
        out.insert("hooks".into(), Value::Object(events));
        Ok(Merged::Value(Value::Object(out), origin))
    }

    /// Wrapped (`{"mcpServers": ...}`) or flat server maps -> one wrapped map.
    pub fn merge_servers(self, draft: &mut Draft) -> Result<Merged> {
        let Some(origin) = self.inline.first().map(|(o, _)| o.clone()) else { return Ok(Merged::None) };
        let mut servers = Map::new();
        for (from, value) in self.inline {
            let Value::Object(mut object) = value else {
                return Err(invalid(&from, "an MCP config must be a JSON object"));
            };
            object.shift_remove("$schema");
            let found = match object.shift_remove("mcpServers") {
                Some(Value::Object(found)) => {
                    for key in object.keys() {
                        let message =
                            format!("MCP config key \"{key}\" has no canonical counterpart; left out");
                        draft.note(DiagnosticCode::UnknownField, Location::file(from.as_str()), message);
                    }
                    found
                }
                Some(_) => return Err(invalid(&from, "\"mcpServers\" must be an object of name -> server")),
                None => object,
            };
            for (name, server) in found {
                if servers.contains_key(&name) {
                    let message =
                        format!("MCP server {name:?} is defined twice; the first definition is kept");
                    draft.note(DiagnosticCode::DuplicateServer, Location::file(from.as_str()), message);
                    continue;
                }
                servers.insert(name, server);
            }
        }
        Ok(Merged::Value(json!({ "mcpServers": servers }), origin))
    }
}

pub fn invalid(file: &str, message: &str) -> Error {
    Error::at(ErrorCode::InvalidSource, Location::file(file), message.to_string())
}

impl Draft {
    /// Writes `hooks/hooks.json` with what the canonical loader accepts:
    /// Claude Code's events, groups whose handlers each name a `type`.
    pub fn add_hooks(&mut self, mut value: Value, origin: &str) -> Result<()> {
        if let Some(events) = value.get_mut("hooks").and_then(Value::as_object_mut) {
            let names: Vec<String> = events.keys().cloned().collect();
            for event in names {
                if !HOOK_EVENTS.contains(&event.as_str()) {
                    events.shift_remove(&event);
                    let message = format!(
                        "hook event {event} has no canonical (Claude Code) counterpart; its handlers are left out"
                    );
                    self.note(DiagnosticCode::UnsupportedHookEvent, Location::file(origin), message);
                    continue;
                }
                let Some(groups) = events.get_mut(&event).and_then(Value::as_array_mut) else {
                    events.insert(event.clone(), json!([]));
                    let message = format!("hooks.{event} is not a list of matcher groups; left out");
                    self.note(DiagnosticCode::InvalidHook, Location::file(origin), message);
                    continue;
                };
                let before = groups.len();
                groups.retain(|group| {
                    let handlers = group.get("hooks").and_then(Value::as_array);
                    handlers.is_some_and(|hs| hs.iter().all(|h| h.get("type").is_some_and(Value::is_string)))
                });
                if groups.len() < before {
                    let message = format!(
                        "hooks.{event}: {} of its matcher groups have no \"hooks\" list of typed handlers; left out",
                        before - groups.len()
                    );
                    self.note(DiagnosticCode::InvalidHook, Location::file(origin), message);
                }
            }
        }
        self.add_json("hooks/hooks.json", &value, origin)
    }

    /// Writes `.mcp.json` (`{"mcpServers": ...}`) with the servers the
    /// canonical loader accepts: each an object with a `command` or a `url`.
    pub fn add_servers(&mut self, mut value: Value, origin: &str) -> Result<()> {
        if let Some(servers) = value.get_mut("mcpServers").and_then(Value::as_object_mut) {
            let names: Vec<String> = servers.keys().cloned().collect();
            for name in names {
                let server = &servers[&name];
                let usable = ["command", "url"].iter().any(|k| server.get(*k).is_some_and(Value::is_string));
                if !usable {
                    servers.shift_remove(&name);
                    let message = format!(
                        "MCP server {name:?} has neither a command nor a url string, which the canonical source needs; left out"
                    );
                    self.note(DiagnosticCode::UnsupportedServer, Location::file(origin), message);
                }
            }
        }
        self.add_json(".mcp.json", &value, origin)
    }
}
