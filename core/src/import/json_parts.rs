//! Hooks and MCP servers a native plugin spreads over several files and
//! inline manifest objects, merged into the one canonical file.

use serde_json::{Map, Value, json};

use super::draft::Draft;
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
    /// `{"description"?, "hooks": {Event: [groups]}}` parts, events concatenated.
    pub fn merge_hooks(self, draft: &mut Draft) -> Result<Merged> {
        let Some(origin) = self.inline.first().map(|(o, _)| o.clone()) else { return Ok(Merged::None) };
        let mut description = None;
        let mut events: Map<String, Value> = Map::new();
        for (from, value) in self.inline {
            let Value::Object(mut object) = value else {
                return Err(invalid(&from, "a hooks config must be a JSON object"));
            };
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
                draft.note("unknown_field", Location::file(from.as_str()), message);
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
                        draft.note("unknown_field", Location::file(from.as_str()), message);
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
                    draft.note("duplicate_server", Location::file(from.as_str()), message);
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
