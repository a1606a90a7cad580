//! How an Agent Plugins client reads `mcp.json`: a closed document with
//! `$schema` and `mcpServers`, and a closed, typed shape per server.

use serde_json::{Map, Value};

use super::facts::MCP_SCHEMA;
use crate::runtime::McpProblem;

/// The servers of `mcp.json`, and what makes clients disable MCP.
pub(crate) fn read_file(root: &Map<String, Value>) -> (Map<String, Value>, Vec<McpProblem>) {
    let mut problems = Vec::new();
    let mut wrong = |message: String, key: Option<&str>| {
        problems.push(McpProblem::Dialect(key.map(str::to_string), message));
    };
    let wrapped = root.get("mcpServers").and_then(Value::as_object);
    match root.get("$schema").and_then(Value::as_str) {
        Some(MCP_SCHEMA) => {}
        Some(other) => wrong(
            format!("`$schema` {other:?} is not {MCP_SCHEMA}: clients disable MCP"),
            Some("$schema"),
        ),
        None => wrong(
            format!("no `$schema`: an Agent Plugins mcp.json starts with \"$schema\": {MCP_SCHEMA:?}"),
            None,
        ),
    }
    if wrapped.is_none() {
        wrong("no `mcpServers` object: Agent Plugins clients disable MCP for the plugin (the bare-map form is Claude Code's)".into(), None);
    }
    for key in root.keys().filter(|k| !matches!(k.as_str(), "$schema" | "mcpServers")) {
        wrong(
            format!("`{key}` at the top of mcp.json: Agent Plugins allows only `$schema` and `mcpServers`"),
            Some(key),
        );
    }
    (wrapped.cloned().unwrap_or_default(), problems)
}

/// A server: a closed shape with a required `type`.
pub(crate) fn server(name: &str, fields: &Map<String, Value>) -> Vec<McpProblem> {
    let mut problems = Vec::new();
    let mut invalid = |message: String| problems.push(McpProblem::Invalid(message));
    let allowed: &[&str] = match fields.get("type").and_then(Value::as_str) {
        Some("stdio") => &["type", "command", "args", "env", "cwd"],
        Some("streamable-http" | "sse") => &["type", "url", "headers"],
        _ => {
            invalid(format!("server {name:?} needs `type` stdio, streamable-http or sse: clients skip it"));
            return problems;
        }
    };
    for key in fields.keys().filter(|k| !allowed.contains(&k.as_str())) {
        invalid(format!("server {name:?}: `{key}` is not an Agent Plugins server field: clients skip the server"));
    }
    if let Some(command) = fields.get("command").and_then(Value::as_str) {
        let token = !command.contains(char::is_whitespace) && !command.contains('$');
        let bare_or_relative = !command.contains('/') || command.starts_with("./");
        if !(token && bare_or_relative) {
            invalid(format!(
                "server {name:?}: `command` {command:?} must be a bare program name or a ./path, without variables"
            ));
        }
    }
    for key in ["PLUGIN_ROOT", "PLUGIN_DATA"] {
        if fields.get("env").and_then(|e| e.get(key)).is_some() {
            invalid(format!("server {name:?}: `env` may not set {key}; clients set it themselves"));
        }
    }
    problems
}
