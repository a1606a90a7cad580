//! MCP servers in a Codex plugin's `.mcp.json`. Codex 0.171 neither expands
//! `${PLUGIN_ROOT}` in a server nor sets `PLUGIN_ROOT` in its environment
//! (checked by starting a server), but it resolves a relative `cwd` against
//! the plugin root and starts `./x` from there: so `${PLUGIN_ROOT}/x`
//! becomes `./x` with `cwd: "."`.

use serde_json::{Map, Value};

use crate::report::Level;

const ROOT: &str = "${PLUGIN_ROOT}";
const DATA: &str = "${PLUGIN_DATA}";

/// One server translated, with how faithful it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Server {
    pub value: Value,
    pub level: Level,
    pub detail: String,
}

pub fn server(value: &Value) -> Server {
    let mut server = value.as_object().cloned().unwrap_or_default();
    let mut notes = Vec::new();
    // Codex reads `auth` as a string; Cursor's object form (a static OAuth
    // client, `{"CLIENT_ID": ...}`) makes Codex 0.171 drop the whole server.
    // Codex has no field for a client id: it runs its own OAuth discovery.
    if server.get("auth").is_some_and(Value::is_object) {
        server.remove("auth");
        notes.push(
            "`auth` (a static OAuth client) dropped: Codex has no field for one and drops a server that \
             has it; Codex discovers OAuth itself"
                .into(),
        );
    }
    if server.contains_key("command") {
        stdio(&mut server, &mut notes);
    } else {
        remote(&mut server, &mut notes);
    }
    let level = if notes.is_empty() { Level::Supported } else { Level::Degraded };
    let detail = if notes.is_empty() { ".mcp.json".to_string() } else { notes.join("; ") };
    Server { value: Value::Object(server), level, detail }
}

fn stdio(server: &mut Map<String, Value>, notes: &mut Vec<String>) {
    let uses_root =
        ["command", "args", "env"].iter().any(|k| server.get(*k).is_some_and(|v| mentions(v, ROOT)));
    if uses_root {
        match server.get("cwd").and_then(Value::as_str) {
            None => {
                server.insert("cwd".into(), Value::String(".".into()));
            }
            Some(cwd) if cwd == ROOT || cwd == "." || cwd == "./" => {
                server.insert("cwd".into(), Value::String(".".into()));
            }
            Some(cwd) => notes.push(format!(
                "Codex does not expand ${{PLUGIN_ROOT}} and the server's cwd {cwd:?} is not the plugin root: \
                 left as written"
            )),
        }
        if server.get("cwd").and_then(Value::as_str) == Some(".") {
            for key in ["command", "args", "env"] {
                if let Some(value) = server.get_mut(key) {
                    *value = relative(value.take());
                }
            }
        }
    } else if let Some(cwd) = server.get("cwd").and_then(Value::as_str).filter(|c| c.contains(ROOT)) {
        let cwd = cwd.replace(ROOT, ".");
        server.insert("cwd".into(), Value::String(cwd));
    }
    if Value::Object(server.clone()).to_string().contains(DATA) {
        notes.push(
            "Codex gives MCP servers no PLUGIN_DATA and does not expand ${PLUGIN_DATA}: passed as written"
                .into(),
        );
    }
}

fn remote(server: &mut Map<String, Value>, notes: &mut Vec<String>) {
    if let Some(headers) = server.remove("headers") {
        if headers.to_string().contains("${") {
            notes.push("Codex does not expand ${VAR} in http_headers: passed as written".into());
        }
        server.insert("http_headers".into(), headers);
    }
    if let Some(kind @ ("sse" | "ws")) = server.get("type").and_then(Value::as_str) {
        notes.push(format!("Codex speaks streamable HTTP only: a {kind}-only server will not connect"));
    }
}

fn mentions(value: &Value, needle: &str) -> bool {
    match value {
        Value::String(s) => s.contains(needle),
        Value::Array(items) => items.iter().any(|v| mentions(v, needle)),
        Value::Object(map) => map.values().any(|v| mentions(v, needle)),
        _ => false,
    }
}

/// `${PLUGIN_ROOT}/x` -> `./x` and a bare `${PLUGIN_ROOT}` -> `.` in every string.
fn relative(value: Value) -> Value {
    match value {
        Value::String(s) => Value::String(s.replace(&format!("{ROOT}/"), "./").replace(ROOT, ".")),
        Value::Array(items) => Value::Array(items.into_iter().map(relative).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, relative(v))).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plugin_root_paths_become_relative_to_a_root_cwd() {
        let translated =
            server(&json!({"command": "${PLUGIN_ROOT}/bin/deployer", "args": ["--root", "${PLUGIN_ROOT}"]}));
        assert_eq!(
            translated.value,
            json!({"command": "./bin/deployer", "args": ["--root", "."], "cwd": "."})
        );
        assert_eq!((translated.level, translated.detail.as_str()), (Level::Supported, ".mcp.json"));
    }

    #[test]
    fn servers_without_the_variable_are_untouched() {
        let plain = json!({"command": "npx", "args": ["-y", "srv"], "env": {"A": "b"}});
        assert_eq!(server(&plain).value, plain);
    }

    #[test]
    fn a_static_oauth_client_is_dropped_and_said_but_an_auth_mode_is_kept() {
        let cursor = server(&json!({"url": "https://x.example/mcp", "auth": {"CLIENT_ID": "id"}}));
        assert_eq!(cursor.value, json!({"url": "https://x.example/mcp"}));
        assert_eq!(cursor.level, Level::Degraded);
        assert!(cursor.detail.starts_with("`auth` (a static OAuth client) dropped"), "{}", cursor.detail);
        let mode = json!({"url": "https://x.example/mcp", "auth": "oauth"});
        assert_eq!(server(&mode).value, mode);
    }

    #[test]
    fn data_and_foreign_cwds_are_degraded() {
        let data = server(&json!({"command": "srv", "args": ["${PLUGIN_DATA}/db"]}));
        assert_eq!(data.level, Level::Degraded);
        assert_eq!(
            data.detail,
            "Codex gives MCP servers no PLUGIN_DATA and does not expand ${PLUGIN_DATA}: passed as written"
        );
        let cwd = server(&json!({"command": "${PLUGIN_ROOT}/s", "cwd": "/opt/x"}));
        assert_eq!(cwd.value, json!({"command": "${PLUGIN_ROOT}/s", "cwd": "/opt/x"}));
        assert_eq!(cwd.level, Level::Degraded);
    }

    #[test]
    fn remote_headers_are_codex_http_headers() {
        let http = server(&json!({"type": "http", "url": "u", "headers": {"X-A": "b"}}));
        assert_eq!(http.value, json!({"type": "http", "url": "u", "http_headers": {"X-A": "b"}}));
        assert_eq!(http.level, Level::Supported);
        let sse = server(&json!({"type": "sse", "url": "u"}));
        assert_eq!(sse.detail, "Codex speaks streamable HTTP only: a sse-only server will not connect");
    }
}
