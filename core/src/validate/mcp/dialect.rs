//! Which MCP file and format each runtime reads: Claude Code and Codex a
//! `.mcp.json` (`{"mcpServers": {...}}` or a bare map); Cursor a `mcp.json`;
//! Agent Plugins a closed `mcp.json` with `$schema`, `mcpServers` and a
//! `type` on every server; Gemini CLI `mcpServers` inline in its manifest;
//! OpenCode `mcp` in opencode.json with `local`/`remote` servers.

use serde_json::{Map, Value};

use super::super::Context;
use super::WRONG_DIALECT;
use crate::lint::Sink;
use crate::runtime::{McpProblem, Runtime};

/// MCP files some runtime reads, each with the manifests of the runtimes
/// that read it: a file is foreign only when no plugin of such a runtime
/// shares the folder.
fn known_files() -> Vec<(&'static str, Vec<&'static str>)> {
    let mut files: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    for spec in Runtime::specs() {
        for &file in spec.mcp.files.unwrap_or_default() {
            let at = match files.iter().position(|(f, _)| *f == file) {
                Some(at) => at,
                None => {
                    files.push((file, Vec::new()));
                    files.len() - 1
                }
            };
            files[at].1.extend(spec.reads.manifest);
        }
    }
    files
}

/// Reports MCP files the runtime never reads, when no other runtime's plugin
/// in the same folder claims them.
pub(super) fn foreign_files(cx: &Context<'_>, runtime: Runtime, sink: &mut Sink) {
    let spec = runtime.spec();
    let Some(reads) = spec.mcp.files else { return };
    for (file, markers) in known_files() {
        if reads.contains(&file) || !cx.folder.exists(file) || markers.iter().any(|m| cx.folder.exists(m)) {
            continue;
        }
        let message = format!("{} never reads {file}: its servers are not loaded", spec.subject);
        sink.report(&WRONG_DIALECT, Some(runtime), Some(cx.folder.at(file)), message);
    }
    if let Some((file, message)) = spec.mcp.misplaced
        && cx.folder.json_positions(file).is_some_and(|p| p.has_top_level_key("mcpServers"))
    {
        sink.report(&WRONG_DIALECT, Some(runtime), Some(cx.folder.at_key(file, "mcpServers")), message);
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
    let spec = runtime.spec();
    let mut sink = sink;
    let mut wrong = |message: String, key: Option<&str>| {
        if let Some(sink) = sink.as_deref_mut() {
            let at = key.map_or_else(|| cx.folder.at(rel), |k| cx.folder.at_key(rel, k));
            sink.report(&WRONG_DIALECT, Some(runtime), Some(at), message);
        }
    };
    let Some(root) = value.as_object() else {
        wrong(format!("{rel} must be a JSON object of servers"), None);
        return Map::new();
    };
    if let Some(read_file) = spec.mcp.read_file {
        let (servers, problems) = read_file(root);
        for problem in problems {
            match problem {
                McpProblem::Dialect(key, message) => wrong(message, key.as_deref()),
                McpProblem::Invalid(message) => wrong(message, None),
            }
        }
        return servers;
    }
    match root.get("mcpServers").and_then(Value::as_object) {
        Some(servers) => servers.clone(),
        None => {
            if root.contains_key("$schema") {
                let message = format!(
                    "`$schema` without `mcpServers`: {} reads this bare map as servers, `$schema` among them",
                    spec.subject
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
        sink.report(&WRONG_DIALECT, Some(runtime), Some(cx.folder.at_key(manifest, key)), message);
    }
}
