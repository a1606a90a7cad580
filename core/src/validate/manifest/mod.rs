//! Rules of the `manifest` area: each runtime's plugin manifest, judged the
//! way that runtime's own loader and validator judge it.

mod agent_plugins;
pub(crate) mod claude;
mod codex;
mod cursor;
pub(crate) mod doc;
mod gemini;
mod others;
pub(crate) mod rules;

pub use rules::RULES;

use super::Context;
use super::findings::Sink;
use crate::runtime::Runtime;

pub(crate) use codex::manifest_file as codex_manifest;
pub(crate) use cursor::is_cursor_name;

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let Some(runtime) = cx.runtime else { return };
    if let Some(manifest) = required_manifest(runtime) {
        if !cx.folder.exists(manifest) {
            let message = format!("no {manifest}: {} needs it to load the plugin", runtime.id());
            sink.report(&rules::MISSING, Some(runtime.id()), Some(cx.folder.at(manifest)), message);
            return;
        }
    }
    match runtime {
        Runtime::ClaudeCode | Runtime::Universal => claude::check(cx, sink),
        Runtime::Codex => codex::check(cx, sink),
        Runtime::Gemini => gemini::check(cx, sink),
        Runtime::Cursor => cursor::check(cx, sink),
        Runtime::AgentPlugins => agent_plugins::check(cx, sink),
        Runtime::OpenClaw => others::openclaw(cx, sink),
        Runtime::Hermes => others::hermes(cx, sink),
        Runtime::OpenCode => others::opencode(cx, sink),
        Runtime::Copilot | Runtime::Antigravity | Runtime::Generic => {}
    }
}

/// The manifest a runtime cannot load a plugin without. Claude Code, Codex
/// and OpenClaw load manifestless plugins; OpenCode has no manifest.
fn required_manifest(runtime: Runtime) -> Option<&'static str> {
    match runtime {
        Runtime::Gemini => Some(gemini::MANIFEST),
        Runtime::Cursor => Some(cursor::MANIFEST),
        Runtime::AgentPlugins => Some(agent_plugins::MANIFEST),
        Runtime::Hermes => Some(others::HERMES_MANIFEST),
        _ => None,
    }
}

/// The manifest file (relative to a plugin root) a runtime reads the
/// plugin's name and version from, in the order it tries them.
pub(crate) fn manifest_candidates(runtime: Runtime) -> &'static [&'static str] {
    match runtime {
        Runtime::ClaudeCode => &[claude::MANIFEST],
        // Codex 0.171 falls back to the other runtimes' manifests.
        Runtime::Codex => &[codex::MANIFEST, claude::MANIFEST, cursor::MANIFEST, agent_plugins::MANIFEST],
        Runtime::Cursor => &[cursor::MANIFEST],
        Runtime::Gemini => &[gemini::MANIFEST],
        Runtime::AgentPlugins => &[agent_plugins::MANIFEST],
        _ => &[],
    }
}

#[cfg(test)]
pub(crate) mod tests;
