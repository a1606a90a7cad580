//! Rules of the `mcp` area: servers sit in the file and dialect the runtime
//! reads, have a command or a URL, spell the plugin folder the runtime's
//! way, and start programs the plugin ships.

mod dialect;

use serde_json::Value;

use super::Context;
use super::components::layout::{Layout, McpSource};
use super::hooks::root_vars;
use crate::codes::{RuleCode, SharedRule};
use crate::error::Location;
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use crate::runtime::{McpProblem, Runtime};

pub const WRONG_DIALECT: Rule = Rule {
    code: RuleCode::Shared(SharedRule::McpWrongDialect),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "gemini", "cursor", "agent-plugins", "opencode"],
    summary: "MCP servers sit in the file and format the runtime reads.",
    fix: "Claude Code and Codex: `.mcp.json`; Cursor: `mcp.json`; Agent Plugins: `mcp.json` with `$schema` and `mcpServers`; Gemini CLI: `mcpServers` in gemini-extension.json; OpenCode: `mcp` in opencode.json.",
};

pub const INVALID_SERVER: Rule = Rule {
    code: RuleCode::Shared(SharedRule::McpInvalidServer),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "An MCP server is an object with a `command` (a string, `args` a list of strings) or a `url`.",
    fix: "Give the server the shape the message names.",
};

pub const UNEXPANDED_VARIABLE: Rule = Rule {
    code: RuleCode::Shared(SharedRule::McpUnexpandedVariable),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "gemini", "cursor", "agent-plugins", "opencode"],
    summary: "MCP servers spell the plugin folder the runtime's way; other spellings reach the server unexpanded.",
    fix: "Claude Code: ${CLAUDE_PLUGIN_ROOT}; Gemini CLI: ${extensionPath}; Agent Plugins: ${PLUGIN_ROOT} in args/env/cwd; Codex: a relative `cwd` (`.`) and `./` paths.",
};

pub const MISSING_COMMAND: Rule = Rule {
    code: RuleCode::Shared(SharedRule::McpMissingCommand),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "A server started from a file of the plugin names a file the plugin ships.",
    fix: "Add the program at that path (with its executable bit), or fix the path.",
};

pub const RULES: &[&Rule] = &[&WRONG_DIALECT, &INVALID_SERVER, &UNEXPANDED_VARIABLE, &MISSING_COMMAND];

/// One server definition and where it was read from.
pub(crate) struct Server {
    /// The file it sits in (the manifest for inline servers).
    pub rel: String,
    pub name: String,
    pub value: Value,
}

impl Server {
    pub fn at(&self, cx: &Context<'_>) -> Location {
        cx.folder.at_key(&self.rel, &self.name)
    }
}

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let Some(runtime) = cx.runtime else { return };
    let layout = Layout::of(cx, sink);
    dialect::foreign_files(cx, runtime, sink);
    for server in servers(cx, runtime, &layout, Some(&mut *sink)) {
        check_server(cx, runtime, &server, sink);
    }
}

/// Every server of the layout. With a sink, reports document-level dialect
/// problems (the secrets area reads the servers silently).
pub(crate) fn servers(
    cx: &Context<'_>,
    runtime: Runtime,
    layout: &Layout,
    mut sink: Option<&mut Sink>,
) -> Vec<Server> {
    let mut out = Vec::new();
    for source in &layout.mcp {
        let (rel, map) = match source {
            McpSource::File(rel) => {
                let value = match sink.as_deref_mut() {
                    Some(sink) => cx.folder.json(rel, sink),
                    None => cx.folder.json(rel, &mut Sink::default()),
                };
                let Some(value) = value else { continue };
                let map = dialect::file_servers(cx, runtime, rel, &value, sink.as_deref_mut());
                (rel.clone(), map)
            }
            McpSource::Inline { manifest, key, servers } => {
                if let Some(sink) = sink.as_deref_mut() {
                    dialect::inline(cx, runtime, manifest, key, servers, sink);
                }
                (manifest.clone(), servers.as_object().cloned().unwrap_or_default())
            }
        };
        out.extend(map.into_iter().map(|(name, value)| Server { rel: rel.clone(), name, value }));
    }
    out
}

fn check_server(cx: &Context<'_>, runtime: Runtime, server: &Server, sink: &mut Sink) {
    let spec = runtime.spec();
    let name = &server.name;
    let Some(fields) = server.value.as_object() else {
        return invalid(cx, runtime, server, format!("server {name:?} must be an object"), sink);
    };
    if let Some((own, replaces)) = spec.mcp.server {
        for problem in own(name, fields) {
            let (rule, message) = match problem {
                McpProblem::Dialect(_, message) => (&WRONG_DIALECT, message),
                McpProblem::Invalid(message) => (&INVALID_SERVER, message),
            };
            sink.report(rule, Some(runtime), Some(server.at(cx)), message);
        }
        if replaces {
            return;
        }
    }
    let remote = ["url", "httpUrl", "tcp"].iter().any(|k| fields.contains_key(*k));
    match fields.get("command") {
        None if !remote => {
            return invalid(
                cx,
                runtime,
                server,
                format!("server {name:?} has neither `command` nor `url`"),
                sink,
            );
        }
        Some(command) if command.as_str().is_none_or(str::is_empty) => {
            let message = format!("server {name:?}: `command` must be a non-empty string, not {command}");
            return invalid(cx, runtime, server, message, sink);
        }
        _ => {}
    }
    if let Some(args) = fields.get("args") {
        if !args.as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
            invalid(cx, runtime, server, format!("server {name:?}: `args` must be a list of strings"), sink);
        }
    }
    for key in ["env", "headers"] {
        if let Some(map) = fields.get(key) {
            if !map.as_object().is_some_and(|m| m.values().all(Value::is_string)) {
                invalid(
                    cx,
                    runtime,
                    server,
                    format!("server {name:?}: `{key}` must map names to strings"),
                    sink,
                );
            }
        }
    }
    variables(cx, runtime, server, sink);
    command_file(cx, runtime, server, sink);
}

fn invalid(cx: &Context<'_>, runtime: Runtime, server: &Server, message: String, sink: &mut Sink) {
    sink.report(&INVALID_SERVER, Some(runtime), Some(server.at(cx)), message);
}

/// The strings a runtime substitutes variables in.
fn substituted(fields: &serde_json::Map<String, Value>) -> Vec<&str> {
    let mut texts: Vec<&str> = ["command", "cwd"].iter().filter_map(|k| fields.get(*k)?.as_str()).collect();
    texts
        .extend(fields.get("args").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str));
    texts.extend(
        fields
            .get("env")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|m| m.values())
            .filter_map(Value::as_str),
    );
    texts
}

fn variables(cx: &Context<'_>, runtime: Runtime, server: &Server, sink: &mut Sink) {
    let Some(understood) = runtime.spec().mcp.expands else { return };
    let Some(fields) = server.value.as_object() else { return };
    for text in substituted(fields) {
        for reference in root_vars::references(text, true) {
            if understood.contains(&reference.name) {
                continue;
            }
            let how = runtime.spec().mcp.unexpanded;
            let message = format!(
                "server {:?}: {} is {}'s spelling of the plugin folder; {how}",
                server.name, reference.written, reference.owner
            );
            sink.report(&UNEXPANDED_VARIABLE, Some(runtime), Some(server.at(cx)), message);
        }
    }
}

/// The program a server starts, when it is a file of the plugin.
fn command_file(cx: &Context<'_>, runtime: Runtime, server: &Server, sink: &mut Sink) {
    let Some(fields) = server.value.as_object() else { return };
    let Some(command) = fields.get("command").and_then(Value::as_str) else { return };
    let understood = runtime.spec().mcp.expands.unwrap_or_default();
    let mut paths: Vec<String> = substituted(fields)
        .into_iter()
        .flat_map(|t| root_vars::references(t, true))
        .filter(|r| understood.contains(&r.name))
        .filter_map(|r| r.path.map(str::to_string))
        .collect();
    if let Some(relative) = command.strip_prefix("./") {
        let cwd =
            fields.get("cwd").and_then(Value::as_str).filter(|c| !c.starts_with('/') && !c.contains('$'));
        paths.push(match cwd {
            Some(cwd) => format!("{cwd}/{relative}"),
            None => relative.to_string(),
        });
    }
    for path in paths {
        let Some(rel) = root_vars::inside(&path) else { continue };
        if rel.is_empty() || cx.folder.exists(&rel) || cx.folder.has_dir(&rel) {
            continue;
        }
        let message = format!(
            "server {:?} starts {}, which the plugin does not ship",
            server.name,
            cx.folder.full(&rel)
        );
        sink.report(&MISSING_COMMAND, Some(runtime), Some(server.at(cx)), message);
    }
}

#[cfg(test)]
mod tests {
    use super::super::components::test_support::codes;

    const CLAUDE: (&str, &str) = (".claude-plugin/plugin.json", r#"{"name": "p"}"#);
    const CODEX: (&str, &str) = (".codex-plugin/plugin.json", r#"{"name": "p", "version": "1.0.0"}"#);

    #[test]
    fn claude_reads_wrapped_and_bare_maps() {
        assert!(codes(&[CLAUDE, (".mcp.json", r#"{"db": {"command": "db"}}"#)], None).is_empty());
        assert!(
            codes(
                &[
                    CLAUDE,
                    (".mcp.json", r#"{"$schema": "x", "mcpServers": {"db": {"url": "http://localhost"}}}"#)
                ],
                None
            )
            .is_empty()
        );
        assert_eq!(
            codes(&[CLAUDE, (".mcp.json", r#"{"$schema": "x", "db": {"command": "db"}}"#)], None),
            ["mcp/wrong-dialect"]
        );
    }

    #[test]
    fn codex_expands_no_variable_but_resolves_a_relative_cwd() {
        let rooted = r#"{"mcpServers": {"db": {"command": "${PLUGIN_ROOT}/bin/db"}}}"#;
        assert_eq!(codes(&[CODEX, ("bin/db", ""), (".mcp.json", rooted)], None), ["mcp/unexpanded-variable"]);
        let relative = r#"{"mcpServers": {"db": {"command": "./db", "cwd": "bin"}}}"#;
        assert!(codes(&[CODEX, ("bin/db", ""), (".mcp.json", relative)], None).is_empty());
        assert_eq!(codes(&[CODEX, (".mcp.json", relative)], None), ["mcp/missing-command"]);
    }

    #[test]
    fn servers_in_a_file_the_runtime_never_reads_are_reported() {
        let gemini = ("gemini-extension.json", r#"{"name": "p", "version": "1.0.0"}"#);
        assert_eq!(
            codes(&[gemini, (".mcp.json", r#"{"db": {"command": "db"}}"#)], None),
            ["mcp/wrong-dialect"]
        );
        // A Claude plugin in the same folder claims `.mcp.json`.
        assert!(codes(&[gemini, CLAUDE, (".mcp.json", r#"{"db": {"command": "db"}}"#)], None).is_empty());
    }

    #[test]
    fn opencode_servers_have_their_own_shape() {
        let claude_shaped = r#"{"mcp": {"db": {"command": "db", "args": []}}}"#;
        assert_eq!(codes(&[("opencode.json", claude_shaped)], None), ["mcp/wrong-dialect"]);
        let own = r#"{"mcp": {"db": {"type": "local", "command": ["db", "--x"]}}}"#;
        assert!(codes(&[("opencode.json", own)], None).is_empty());
    }

    #[test]
    fn agent_plugins_servers_are_closed_and_typed() {
        let ap = ("plugin.json", r#"{"name": "p"}"#);
        let schema = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
        let server = |s: &str| format!(r#"{{"$schema": "{schema}", "mcpServers": {{"db": {s}}}}}"#);
        let good = server(r#"{"type": "stdio", "command": "./bin/db", "args": ["${PLUGIN_ROOT}/data"]}"#);
        assert!(codes(&[ap, ("bin/db", ""), ("data/x", ""), ("mcp.json", &good)], None).is_empty());
        let untyped = server(r#"{"command": "db"}"#);
        assert_eq!(codes(&[ap, ("mcp.json", &untyped)], None), ["mcp/invalid-server"]);
        let placeholder = server(r#"{"type": "stdio", "command": "${PLUGIN_ROOT}/bin/db"}"#);
        assert_eq!(codes(&[ap, ("bin/db", ""), ("mcp.json", &placeholder)], None), ["mcp/invalid-server"]);
    }
}
