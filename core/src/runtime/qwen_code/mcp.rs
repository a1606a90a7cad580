//! Claude Code MCP servers -> the Gemini-dialect `mcpServers` of
//! `qwen-extension.json`, and back.
//!
//! Qwen picks the transport by key ([`facts::MCP_KEYS`]): `httpUrl` is
//! streamable HTTP, `url` is SSE, `command` is stdio; `type` is not read.
//! Strings are hydrated (`${extensionPath}`, `${CLAUDE_PLUGIN_ROOT}`) and
//! then `$VAR`/`${VAR}` are read from the environment Qwen runs in, so
//! Claude's `${VAR:-default}` stays as written.

use serde_json::{Map, Value, json};

use super::facts;

/// A translated server and what changed on the way; `None` when Qwen
/// cannot start it (the notes say why).
pub struct Server {
    pub value: Option<Value>,
    pub notes: Vec<String>,
}

/// One canonical (Claude Code) server in Qwen's shape, before variables are
/// spelled.
pub fn to_qwen(server: &Value) -> Server {
    let mut notes = Vec::new();
    let Some(fields) = server.as_object() else {
        notes.push("not an object; not written".into());
        return Server { value: None, notes };
    };
    if let Some(args) = fields.get("args") {
        if !args.as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
            notes.push("\"args\" is not a list of strings, which Qwen Code passes to the process as the argument list; not written".into());
            return Server { value: None, notes };
        }
    }
    let mut out = Map::new();
    let mut dropped = Vec::new();
    for (key, value) in fields {
        match key.as_str() {
            k if facts::MCP_KEYS.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            "type" | "url" | "httpUrl" => {}
            _ => dropped.push(key.as_str()),
        }
    }
    if let Some(http) = fields.get(facts::MCP_STREAMABLE_HTTP) {
        out.insert(facts::MCP_STREAMABLE_HTTP.into(), http.clone());
    }
    if let Some(url) = fields.get("url") {
        match fields.get("type").and_then(Value::as_str) {
            Some("sse") => {
                out.insert(facts::MCP_SSE.into(), url.clone());
            }
            Some("http") | Some("streamable-http") => {
                out.insert(facts::MCP_STREAMABLE_HTTP.into(), url.clone());
            }
            other => {
                notes.push(format!("url with type {other:?} is taken as streamable HTTP (httpUrl)"));
                out.insert(facts::MCP_STREAMABLE_HTTP.into(), url.clone());
            }
        }
    }
    if !dropped.is_empty() {
        notes.push(format!("keys Qwen Code does not take here are dropped: {}", dropped.join(", ")));
    }
    if server.to_string().contains(":-") {
        notes.push(
            "${VAR:-default} is not expanded by Qwen Code, which reads only $VAR and ${VAR} from its environment"
                .into(),
        );
    }
    if !["command", facts::MCP_STREAMABLE_HTTP, facts::MCP_SSE, "tcp"].iter().any(|k| out.contains_key(*k)) {
        notes.push("neither a command nor a url: Qwen Code cannot start it; not written".into());
        return Server { value: None, notes };
    }
    Server { value: Some(Value::Object(out)), notes }
}

/// One Qwen server as a canonical (Claude Code) server: `httpUrl` ->
/// `type: http`, `url` -> `type: sse`; `None` for a server the canonical
/// source cannot hold (a `tcp` one).
pub fn to_claude(server: Map<String, Value>) -> Option<Map<String, Value>> {
    let mut server = server;
    let remote = match (server.shift_remove(facts::MCP_STREAMABLE_HTTP), server.shift_remove(facts::MCP_SSE)) {
        (Some(url), _) => Some(("http", url)),
        (None, Some(url)) => Some(("sse", url)),
        (None, None) => None,
    };
    if let Some((transport, url)) = remote {
        let mut first = Map::new();
        first.insert("type".into(), json!(transport));
        first.insert("url".into(), url);
        first.extend(server);
        server = first;
    }
    (server.contains_key("command") || server.contains_key("url")).then_some(server)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_servers_pick_the_transport_key_and_come_back() {
        let http = to_qwen(&json!({"type": "http", "url": "U", "headers": {"K": "V"}}));
        assert_eq!(http.value, Some(json!({"headers": {"K": "V"}, "httpUrl": "U"})));
        assert!(http.notes.is_empty());
        let sse = to_qwen(&json!({"type": "sse", "url": "U"}));
        assert_eq!(sse.value, Some(json!({"url": "U"})));
        let back = to_claude(json!({"httpUrl": "U", "headers": {"K": "V"}}).as_object().unwrap().clone());
        assert_eq!(Value::Object(back.unwrap()), json!({"type": "http", "url": "U", "headers": {"K": "V"}}));
        let back = to_claude(json!({"url": "U"}).as_object().unwrap().clone()).unwrap();
        assert_eq!(Value::Object(back), json!({"type": "sse", "url": "U"}));
    }

    #[test]
    fn what_qwen_cannot_start_is_not_written() {
        let stdio = to_qwen(&json!({"type": "stdio", "command": "node", "args": ["s.js"], "oauth": {}}));
        assert_eq!(stdio.value, Some(json!({"command": "node", "args": ["s.js"]})));
        assert_eq!(stdio.notes, ["keys Qwen Code does not take here are dropped: oauth"]);
        assert!(to_qwen(&json!({"command": "n", "args": "x"})).value.is_none());
        assert!(to_qwen(&json!({"env": {}})).value.is_none());
        assert!(to_claude(json!({"tcp": "h:1"}).as_object().unwrap().clone()).is_none());
    }
}
