//! Which MCP file and format each runtime reads: Claude Code and Codex a
//! `.mcp.json` (`{"mcpServers": {...}}` or a bare map); Cursor a `mcp.json`;
//! Agent Plugins a closed `mcp.json` with `$schema`, `mcpServers` and a
//! `type` on every server; Gemini CLI `mcpServers` inline in its manifest;
//! OpenCode `mcp` in opencode.json with `local`/`remote` servers.

use serde_json::{Map, Value};

use super::super::Context;
use super::{INVALID_SERVER, Server, WRONG_DIALECT, display};
use crate::lint::Sink;
use crate::runtime::{Runtime, agent_plugins, claude_code, codex, cursor, opencode};

const AGENT_PLUGINS_MCP_SCHEMA: &str = agent_plugins::facts::MCP_SCHEMA;

/// MCP files other runtimes read, and the markers of those runtimes: a
/// file is foreign only when no plugin of its runtime shares the folder.
const FILES: [(&str, &[&str]); 2] = [
    (".mcp.json", &[claude_code::facts::MANIFEST_PATH, codex::facts::MANIFEST_PATH]),
    ("mcp.json", &[agent_plugins::facts::MANIFEST_PATH, cursor::facts::MANIFEST_PATH]),
];

/// Reports MCP files `runtime` never reads, when no other runtime's plugin
/// in the same folder claims them.
pub(super) fn foreign_files(cx: &Context<'_>, runtime: Runtime, sink: &mut Sink) {
    let reads: &[&str] = match runtime {
        Runtime::ClaudeCode | Runtime::Codex => &[".mcp.json"],
        Runtime::Cursor | Runtime::AgentPlugins => &["mcp.json"],
        Runtime::Gemini | Runtime::OpenCode => &[],
        _ => return,
    };
    for (file, markers) in FILES {
        if reads.contains(&file) || !cx.folder.exists(file) || markers.iter().any(|m| cx.folder.exists(m)) {
            continue;
        }
        let message = format!("{} never reads {file}: its servers are not loaded", display(runtime));
        sink.report(&WRONG_DIALECT, Some(runtime.id()), Some(cx.folder.at(file)), message);
    }
    if runtime == Runtime::AgentPlugins
        && cx
            .folder
            .json_positions(agent_plugins::facts::MANIFEST_PATH)
            .is_some_and(|p| p.has_top_level_key("mcpServers"))
    {
        let message = "`mcpServers` inline in plugin.json: Agent Plugins reads servers only from mcp.json";
        sink.report(
            &WRONG_DIALECT,
            Some(runtime.id()),
            Some(cx.folder.at_key(agent_plugins::facts::MANIFEST_PATH, "mcpServers")),
            message,
        );
    }
    if runtime == Runtime::OpenCode
        && cx
            .folder
            .json_positions(opencode::facts::CONFIG_FILE)
            .is_some_and(|p| p.has_top_level_key("mcpServers"))
    {
        let message = "`mcpServers` in opencode.json: OpenCode refuses the config; servers go under `mcp`";
        sink.report(
            &WRONG_DIALECT,
            Some(runtime.id()),
            Some(cx.folder.at_key(opencode::facts::CONFIG_FILE, "mcpServers")),
            message,
        );
    }
}

/// The servers of an MCP file, reporting a document of the wrong dialect.
pub(super) fn file_servers(
    cx: &Context<'_>,
    runtime: Runtime,
    rel: &str,
    value: &Value,
    sink: Option<&mut Sink>,
) -> Map<String, Value> {
    let mut sink = sink;
    let mut wrong = |message: String, key: Option<&str>| {
        if let Some(sink) = sink.as_deref_mut() {
            let at = key.map_or_else(|| cx.folder.at(rel), |k| cx.folder.at_key(rel, k));
            sink.report(&WRONG_DIALECT, Some(runtime.id()), Some(at), message);
        }
    };
    let Some(root) = value.as_object() else {
        wrong(format!("{rel} must be a JSON object of servers"), None);
        return Map::new();
    };
    let wrapped = root.get("mcpServers").and_then(Value::as_object);
    if runtime == Runtime::AgentPlugins {
        match root.get("$schema").and_then(Value::as_str) {
            Some(AGENT_PLUGINS_MCP_SCHEMA) => {}
            Some(other) => wrong(
                format!("`$schema` {other:?} is not {AGENT_PLUGINS_MCP_SCHEMA}: clients disable MCP"),
                Some("$schema"),
            ),
            None => wrong(
                format!(
                    "no `$schema`: an Agent Plugins mcp.json starts with \"$schema\": {AGENT_PLUGINS_MCP_SCHEMA:?}"
                ),
                None,
            ),
        }
        if wrapped.is_none() {
            wrong("no `mcpServers` object: Agent Plugins clients disable MCP for the plugin (the bare-map form is Claude Code's)".into(), None);
        }
        for key in root.keys().filter(|k| !matches!(k.as_str(), "$schema" | "mcpServers")) {
            wrong(
                format!(
                    "`{key}` at the top of mcp.json: Agent Plugins allows only `$schema` and `mcpServers`"
                ),
                Some(key),
            );
        }
        return wrapped.cloned().unwrap_or_default();
    }
    match wrapped {
        Some(servers) => servers.clone(),
        None => {
            if root.contains_key("$schema") {
                let message = format!(
                    "`$schema` without `mcpServers`: {} reads this bare map as servers, `$schema` among them",
                    display(runtime)
                );
                wrong(message, Some("$schema"));
            }
            root.iter().filter(|(k, _)| *k != "$schema").map(|(k, v)| (k.clone(), v.clone())).collect()
        }
    }
}

/// Inline servers (Gemini's manifest, OpenCode's `mcp`).
pub(super) fn inline(
    cx: &Context<'_>,
    runtime: Runtime,
    manifest: &str,
    key: &str,
    servers: &Value,
    sink: &mut Sink,
) {
    if !servers.is_object() {
        let message = format!("`{key}` in {manifest} must be an object mapping names to servers");
        sink.report(&WRONG_DIALECT, Some(runtime.id()), Some(cx.folder.at_key(manifest, key)), message);
    }
}

/// Agent Plugins servers: a closed shape with a required `type`.
pub(super) fn agent_plugins_server(
    cx: &Context<'_>,
    server: &Server,
    fields: &Map<String, Value>,
    sink: &mut Sink,
) {
    let id = Some(Runtime::AgentPlugins.id());
    let mut invalid = |message: String| sink.report(&INVALID_SERVER, id, Some(server.at(cx)), message);
    let name = &server.name;
    let allowed: &[&str] = match fields.get("type").and_then(Value::as_str) {
        Some("stdio") => &["type", "command", "args", "env", "cwd"],
        Some("streamable-http" | "sse") => &["type", "url", "headers"],
        _ => {
            return invalid(format!(
                "server {name:?} needs `type` stdio, streamable-http or sse: clients skip it"
            ));
        }
    };
    for key in fields.keys().filter(|k| !allowed.contains(&k.as_str())) {
        invalid(format!(
            "server {name:?}: `{key}` is not an Agent Plugins server field: clients skip the server"
        ));
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
}

/// OpenCode servers: `{type: "local", command: [argv]}` or `{type: "remote", url}`.
pub(super) fn opencode_server(
    cx: &Context<'_>,
    server: &Server,
    fields: &Map<String, Value>,
    sink: &mut Sink,
) {
    let id = Some(Runtime::OpenCode.id());
    let name = &server.name;
    let problem = match fields.get("type").and_then(Value::as_str) {
        Some("local") => (!fields
            .get("command")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_string)))
        .then(|| {
            format!(
                "server {name:?}: a local server's `command` is a list of strings (program and arguments)"
            )
        }),
        Some("remote") => (!fields.get("url").is_some_and(Value::is_string))
            .then(|| format!("server {name:?}: a remote server needs a `url`")),
        _ if fields.get("command").is_some_and(Value::is_string) => Some(format!(
            "server {name:?} is in Claude's shape (`command` string): OpenCode wants {{\"type\": \"local\", \"command\": [program, args...]}}"
        )),
        _ => Some(format!("server {name:?} needs `type` local or remote: OpenCode refuses the config")),
    };
    if let Some(message) = problem {
        let rule = if fields.get("command").is_some_and(Value::is_string) {
            &WRONG_DIALECT
        } else {
            &INVALID_SERVER
        };
        sink.report(rule, id, Some(server.at(cx)), message);
    }
}
