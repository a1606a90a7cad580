//! Where a marketplace entry's plugin lives, read the way each runtime reads
//! `source`, and whether a local source holds a plugin.

use serde_json::Value;

use crate::lint::Folder;
use crate::lint::doc::{PathProblem, relative_path};
use crate::runtime::{Runtime, claude_code, codex, cursor};

/// The marketplace file (relative to the marketplace root) of a runtime.
pub(crate) fn marketplace_file(runtime: Runtime) -> Option<&'static str> {
    match runtime {
        Runtime::ClaudeCode => Some(claude_code::facts::MARKETPLACE_PATH),
        Runtime::Codex => Some(codex::facts::MARKETPLACE_PATH),
        Runtime::Cursor => Some(cursor::facts::MARKETPLACE_PATH),
        _ => None,
    }
}

/// What an entry's `source` points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// A folder relative to the marketplace root ("" = the root itself).
    Local(String),
    /// A git repository, URL or package: not judged offline.
    Remote,
    /// A value the runtime refuses or skips, and why.
    Invalid(String),
    Missing,
}

const CLAUDE_REMOTE_KINDS: &[&str] = &["github", "url", "git-subdir", "npm"];
const CODEX_REMOTE_KINDS: &[&str] = &["url", "git-subdir", "npm", "github"];

pub(crate) fn source_of(runtime: Runtime, entry: &Value) -> Source {
    let Some(source) = entry.get("source") else { return Source::Missing };
    match (runtime, source) {
        (Runtime::Cursor, Value::String(path)) => cursor_path(path),
        (_, Value::String(path)) => dot_path(runtime, path),
        (Runtime::ClaudeCode, Value::Object(object)) => {
            remote_kind(object.get("source"), CLAUDE_REMOTE_KINDS)
        }
        (Runtime::Codex, Value::Object(object)) => match object.get("source").and_then(Value::as_str) {
            Some("local") => match object.get("path") {
                Some(Value::String(path)) => dot_path(runtime, path),
                _ => Source::Invalid("a local source needs a \"path\" string".into()),
            },
            kind => remote_kind(kind.map(|k| Value::String(k.into())).as_ref(), CODEX_REMOTE_KINDS),
        },
        _ => Source::Invalid(format!("{source} is not a source {} reads", runtime.id())),
    }
}

fn remote_kind(kind: Option<&Value>, known: &[&str]) -> Source {
    match kind.and_then(Value::as_str) {
        Some(kind) if known.contains(&kind) => Source::Remote,
        Some(kind) => Source::Invalid(format!("unknown source kind {kind:?} (known: {})", known.join(", "))),
        None => Source::Invalid("an object source needs a \"source\" kind".into()),
    }
}

/// Claude Code and Codex: `./path` inside the marketplace root.
fn dot_path(runtime: Runtime, path: &str) -> Source {
    let rel = relative_path(path);
    if rel.is_ok() && !path.starts_with("./") {
        return Source::Invalid(format!("{path:?} does not start with ./"));
    }
    match rel {
        Ok(rel) if rel.is_empty() && runtime == Runtime::Codex => {
            Source::Invalid(format!("{path:?} names the marketplace root itself, which Codex skips"))
        }
        Ok(rel) => Source::Local(rel),
        Err(PathProblem::Escapes) => Source::Invalid(format!(
            "{path:?} contains \"..\"; sources resolve from the marketplace root (the folder holding the marketplace's dot-folder), not from marketplace.json"
        )),
        Err(PathProblem::Absolute) => {
            Source::Invalid(format!("{path:?} is absolute; write it as ./<folder>"))
        }
    }
}

/// Cursor: a path relative to the marketplace root (with or without `./`),
/// or a URL.
fn cursor_path(path: &str) -> Source {
    if path.contains("://") || path.starts_with("git@") {
        return Source::Remote;
    }
    if path.trim().is_empty() {
        return Source::Invalid("the source is empty".into());
    }
    match relative_path(path) {
        Ok(rel) => Source::Local(rel),
        Err(PathProblem::Absolute) => Source::Invalid(format!("{path:?} is absolute")),
        Err(PathProblem::Escapes) => Source::Invalid(format!("{path:?} contains \"..\"")),
    }
}

/// Whether `plugin` (a local source's folder) holds a plugin `runtime` can
/// load: its manifest, or (for the runtimes that load manifestless plugins)
/// a component folder or file.
pub(crate) fn holds_plugin(runtime: Runtime, plugin: Folder<'_>) -> bool {
    if manifest_candidates(runtime).any(|m| plugin.exists(m)) {
        return true;
    }
    runtime != Runtime::Cursor
        && (["skills", "commands", "agents"].iter().any(|dir| plugin.has_dir(dir))
            || ["hooks/hooks.json", ".mcp.json", "SKILL.md"].iter().any(|file| plugin.exists(file)))
}

/// The plugin's own manifest, as the runtime reads it for an entry.
pub(crate) fn plugin_manifest(runtime: Runtime, plugin: Folder<'_>) -> Option<(&'static str, Value)> {
    let rel = manifest_candidates(runtime).find(|m| plugin.exists(m))?;
    let value = serde_json::from_slice(&plugin.get(rel)?.bytes).ok()?;
    Some((rel, value))
}

/// The manifests `runtime` reads a plugin's name and version from, in the
/// order it tries them.
fn manifest_candidates(runtime: Runtime) -> impl Iterator<Item = &'static str> {
    let reads = &runtime.spec().reads;
    reads.manifest.into_iter().chain(reads.manifest_fallbacks.iter().copied())
}

/// `rel` (relative to the marketplace root) as a folder of the validated tree.
pub(crate) fn join(root: &str, rel: &str) -> String {
    match (root.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_string(),
        (false, true) => root.to_string(),
        (false, false) => format!("{root}/{rel}"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn sources_are_read_per_runtime() {
        let entry = |source: Value| json!({ "name": "p", "source": source });
        assert_eq!(source_of(Runtime::ClaudeCode, &entry(json!("./a/"))), Source::Local("a".into()));
        assert!(matches!(source_of(Runtime::ClaudeCode, &entry(json!("a"))), Source::Invalid(_)));
        assert!(matches!(source_of(Runtime::ClaudeCode, &entry(json!("./../a"))), Source::Invalid(_)));
        assert_eq!(
            source_of(Runtime::ClaudeCode, &entry(json!({"source": "github", "repo": "o/r"}))),
            Source::Remote
        );
        assert_eq!(
            source_of(Runtime::Codex, &entry(json!({"source": "local", "path": "./codex"}))),
            Source::Local("codex".into())
        );
        assert!(matches!(source_of(Runtime::Codex, &entry(json!("./"))), Source::Invalid(_)));
        assert_eq!(
            source_of(Runtime::Cursor, &entry(json!("third_party/x"))),
            Source::Local("third_party/x".into())
        );
        assert_eq!(source_of(Runtime::Cursor, &entry(json!("https://github.com/o/r"))), Source::Remote);
        assert_eq!(source_of(Runtime::Cursor, &json!({"name": "p"})), Source::Missing);
    }
}
