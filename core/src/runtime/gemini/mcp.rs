//! Claude `.mcp.json` servers -> Gemini `mcpServers` entries.
//!
//! Gemini's server shape (`MCPServerConfig`): `command`/`args`/`env`/`cwd`
//! for stdio, `url` for SSE, `httpUrl` for streamable HTTP, plus `headers`,
//! `timeout`, `description`, `includeTools`, `excludeTools`, `tcp`, `oauth`,
//! `trust`. Extensions may not set `trust` (Gemini strips it), and
//! `gemini extensions install` fails on `args` that is not a list
//! (`mcpServer.args.join is not a function`).

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Location, Result};

/// Keys copied as they are.
const KEPT: [&str; 10] = [
    "command",
    "args",
    "env",
    "cwd",
    "headers",
    "timeout",
    "description",
    "includeTools",
    "excludeTools",
    "tcp",
];

/// A translated server and what changed on the way.
#[derive(Debug, PartialEq)]
pub struct Server {
    pub value: Value,
    pub notes: Vec<String>,
}

/// `in_extension`: extensions may not set `trust`.
pub fn translate(name: &str, server: &Value, origin: &str, in_extension: bool) -> Result<Server> {
    let invalid = |what: &str| {
        Error::at(ErrorCode::InvalidSource, Location::file(origin), format!("MCP server {name:?}: {what}"))
    };
    let Some(server) = server.as_object() else { return Err(invalid("must be an object")) };
    if let Some(args) = server.get("args") {
        if !args.as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
            return Err(invalid(
                "\"args\" must be a list of strings (Gemini CLI refuses to install it otherwise)",
            ));
        }
    }
    let mut out = Map::new();
    let mut notes = Vec::new();
    let mut dropped = Vec::new();
    for (key, value) in server {
        match key.as_str() {
            k if KEPT.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            "type" | "url" | "httpUrl" => {}
            "trust" if !in_extension => {
                out.insert(key.clone(), value.clone());
            }
            _ => dropped.push(key.as_str()),
        }
    }
    remote(server, &mut out, &mut notes);
    if !dropped.is_empty() {
        notes.push(format!("keys Gemini does not take here are dropped: {}", dropped.join(", ")));
    }
    if !["command", "url", "httpUrl", "tcp"].iter().any(|k| out.contains_key(*k)) {
        return Err(invalid("needs a command or a url"));
    }
    Ok(Server { value: Value::Object(out), notes })
}

/// Claude's `type` + `url` -> Gemini's `url` (SSE) or `httpUrl` (streamable HTTP).
fn remote(server: &Map<String, Value>, out: &mut Map<String, Value>, notes: &mut Vec<String>) {
    if let Some(http) = server.get("httpUrl") {
        out.insert("httpUrl".into(), http.clone());
    }
    let Some(url) = server.get("url") else { return };
    match server.get("type").and_then(Value::as_str) {
        Some("sse") => {
            out.insert("url".into(), url.clone());
        }
        Some("http") | Some("streamable-http") => {
            out.insert("httpUrl".into(), url.clone());
        }
        other => {
            notes.push(format!("url with type {other:?} is taken as streamable HTTP (httpUrl)"));
            out.insert("httpUrl".into(), url.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stdio_servers_keep_their_shape() {
        let server = json!({"type": "stdio", "command": "node", "args": ["s.js"], "env": {"A": "1"}});
        let got = translate("s", &server, ".mcp.json", true).unwrap();
        assert_eq!(got.value, json!({"command": "node", "args": ["s.js"], "env": {"A": "1"}}));
        assert!(got.notes.is_empty());
    }

    #[test]
    fn remote_servers_pick_the_gemini_transport_key() {
        let http =
            translate("h", &json!({"type": "http", "url": "U", "headers": {"K": "V"}}), "m", true).unwrap();
        assert_eq!(http.value, json!({"headers": {"K": "V"}, "httpUrl": "U"}));
        let sse = translate("s", &json!({"type": "sse", "url": "U"}), "m", true).unwrap();
        assert_eq!(sse.value, json!({"url": "U"}));
    }

    #[test]
    fn trust_and_unknown_keys_are_reported() {
        let got = translate("s", &json!({"command": "x", "trust": true, "oauth": {}}), "m", true).unwrap();
        assert_eq!(got.value, json!({"command": "x"}));
        assert_eq!(got.notes, ["keys Gemini does not take here are dropped: trust, oauth"]);
        let project = translate("s", &json!({"command": "x", "trust": true}), "m", false).unwrap();
        assert_eq!(project.value, json!({"command": "x", "trust": true}));
    }

    #[test]
    fn refuses_args_gemini_cannot_install() {
        let err = translate("x", &json!({"command": "n", "args": 5}), ".mcp.json", true).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidSource);
        assert!(err.to_string().contains(".mcp.json"), "{err}");
    }
}
