//! Rules of the `hook` area: a plugin's hooks documents have the runtime's
//! shape and event names, spell the plugin folder the runtime's way, and
//! run scripts the plugin ships.

mod events;
pub(crate) mod root_vars;

use serde_json::{Map, Value};

use super::Context;
use super::components::layout::{HookSource, Layout};
use crate::codes::{RuleCode, SharedRule};
use crate::error::Location;
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use crate::registry::Runtime;
use crate::runtime::{HookShape, Hooks, Spec};
use crate::source::JsonPositions;

const HOOK_RUNTIMES: &[&str] = &["claude-code", "codex", "gemini", "cursor"];

pub const UNKNOWN_EVENT: Rule = Rule {
    code: RuleCode::Shared(SharedRule::HookUnknownEvent),
    severity: RuleSeverity::Warning,
    runtimes: HOOK_RUNTIMES,
    summary: "Hook events are ones the runtime runs (the others never fire: Claude Code ignores the entry and warns, Codex and Gemini CLI skip it).",
    fix: "Use the runtime's event name (Claude/Codex `PreToolUse`, Gemini `BeforeTool`, Cursor `beforeShellExecution`), or remove the entry.",
};

pub const INVALID_SHAPE: Rule = Rule {
    code: RuleCode::Shared(SharedRule::HookInvalidShape),
    severity: RuleSeverity::Error,
    runtimes: HOOK_RUNTIMES,
    summary: "A hooks document is `{\"hooks\": {Event: [{\"matcher\"?, \"hooks\": [handler]}]}}` with handlers of a known type.",
    fix: "Follow the shape in the message: each handler is an object with `type` and its required field (`command` for a command hook).",
};

pub const UNEXPANDED_VARIABLE: Rule = Rule {
    code: RuleCode::Shared(SharedRule::HookUnexpandedVariable),
    severity: RuleSeverity::Error,
    runtimes: HOOK_RUNTIMES,
    summary: "Hook commands spell the plugin folder the runtime's way; another runtime's variable stays empty.",
    fix: "Use the runtime's spelling: ${CLAUDE_PLUGIN_ROOT} (Claude Code), ${PLUGIN_ROOT} (Codex), ${extensionPath} (Gemini CLI), ${CURSOR_PLUGIN_ROOT} (Cursor).",
};

pub const MISSING_SCRIPT: Rule = Rule {
    code: RuleCode::Shared(SharedRule::HookMissingScript),
    severity: RuleSeverity::Error,
    runtimes: HOOK_RUNTIMES,
    summary: "A hook command that runs a file of the plugin names a file the plugin ships.",
    fix: "Add the script at that path (with its executable bit), or fix the path.",
};

pub const UNKNOWN_KEY: Rule = Rule {
    code: RuleCode::Shared(SharedRule::HookUnknownKey),
    severity: RuleSeverity::Error,
    runtimes: &["codex"],
    summary: "A Codex hooks file holds only `hooks` at the top level (Codex refuses the file otherwise, e.g. with `$schema`).",
    fix: "Remove the key from the hooks file.",
};

pub const UNQUOTED_FOLDER: Rule = Rule {
    code: RuleCode::Shared(SharedRule::HookUnquotedFolder),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "A shell-form hook command quotes ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} (Claude Code warns otherwise, and `claude plugin validate --strict` refuses the plugin: a folder path with a space splits the command).",
    fix: "Wrap the variable and its path in double quotes (\"${CLAUDE_PLUGIN_ROOT}/scripts/run.sh\"), or use exec form (`command` with `args`). plugforge build quotes it in the Claude Code bundle.",
};

pub const RULES: &[&Rule] =
    &[&UNKNOWN_EVENT, &INVALID_SHAPE, &UNEXPANDED_VARIABLE, &MISSING_SCRIPT, &UNKNOWN_KEY, &UNQUOTED_FOLDER];

/// A hooks document being judged and where to point findings.
struct Doc<'a> {
    /// The file findings point at (the manifest for inline hooks).
    rel: String,
    value: &'a Value,
}

impl Doc<'_> {
    /// A location at the line `find` picks from the file's key positions.
    fn at(&self, cx: &Context<'_>, find: impl Fn(&JsonPositions) -> Option<usize>) -> Location {
        match cx.folder.json_positions(&self.rel).and_then(|p| find(&p)) {
            Some(line) => cx.folder.at_line(&self.rel, line, 1),
            None => cx.folder.at(&self.rel),
        }
    }

    fn at_key(&self, cx: &Context<'_>, key: &str) -> Location {
        self.at(cx, |p| p.line_of_key(key))
    }

    fn at_value(&self, cx: &Context<'_>, value: &str) -> Location {
        self.at(cx, |p| p.line_of_string(value))
    }
}

/// A runtime whose hooks are judged: its spec and how it reads hooks.
#[derive(Clone, Copy)]
struct Judge {
    runtime: Runtime,
    spec: &'static Spec,
    hooks: &'static Hooks,
}

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let Some(runtime) = cx.runtime else { return };
    let spec = runtime.spec();
    let Some(hooks) = &spec.hooks else { return };
    let judge = Judge { runtime, spec, hooks };
    for (rel, value) in documents(cx, &Layout::of(cx, sink), sink) {
        check_doc(cx, judge, &Doc { rel, value: &value }, sink);
    }
}

/// Every hooks document of the layout, parsed: (file to point at, value).
pub(crate) fn documents(cx: &Context<'_>, layout: &Layout, sink: &mut Sink) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for source in &layout.hooks {
        match source {
            HookSource::File(rel) => out.extend(cx.folder.json(rel, sink).map(|v| (rel.clone(), v))),
            HookSource::Inline { manifest, hooks } => out.push((manifest.clone(), hooks.clone())),
        }
    }
    out
}

fn check_doc(cx: &Context<'_>, judge: Judge, doc: &Doc<'_>, sink: &mut Sink) {
    let Judge { runtime, spec, hooks: rules } = judge;
    let id = Some(runtime);
    let mut shape = |at: Location, message: String| sink.report(&INVALID_SHAPE, id, Some(at), message);
    let Some(root) = doc.value.as_object() else {
        return shape(cx.folder.at(&doc.rel), "a hooks document must be a JSON object".into());
    };
    // `{}` declares no hooks (a Codex manifest's `"hooks": {}` turns the default file off);
    // only Claude Code's schema requires the `hooks` key.
    if root.is_empty() && !rules.requires_hooks_key {
        return;
    }
    let Some(hooks) = root.get("hooks").and_then(Value::as_object) else {
        return shape(doc.at_key(cx, "hooks"), "no `hooks` object mapping event names to lists".into());
    };
    if let Some(allowed) = rules.top_level_keys {
        for key in root.keys().filter(|k| !allowed.contains(&k.as_str())) {
            sink.report(
                &UNKNOWN_KEY,
                id,
                Some(doc.at_key(cx, key)),
                format!(
                    "`{key}` at the top of a hooks file: {} refuses the file and runs none of its hooks",
                    spec.name
                ),
            );
        }
    }
    for (event, entries) in hooks {
        if !events::is_known(rules.events, event) {
            sink.report(&UNKNOWN_EVENT, id, Some(doc.at_key(cx, event)), (rules.unknown_event)(event));
        }
        let Some(entries) = entries.as_array() else {
            sink.report(&INVALID_SHAPE, id, Some(doc.at_key(cx, event)), format!("`{event}` must be a list"));
            continue;
        };
        for entry in entries {
            match rules.shape {
                HookShape::Flat => flat_handler(cx, judge, doc, event, entry, sink),
                HookShape::Grouped { handler_types } => {
                    group(cx, judge, handler_types, doc, event, entry, sink)
                }
            }
        }
    }
}

/// `{matcher?, hooks: [handler]}` (Claude Code, Codex, Gemini CLI).
fn group(
    cx: &Context<'_>,
    judge: Judge,
    handler_types: &[(&str, &[&str])],
    doc: &Doc<'_>,
    event: &str,
    entry: &Value,
    sink: &mut Sink,
) {
    let id = Some(judge.runtime);
    let at = doc.at_key(cx, event);
    let Some(entry) = entry.as_object() else {
        return sink.report(
            &INVALID_SHAPE,
            id,
            Some(at),
            format!("`{event}` entries must be objects with `hooks`"),
        );
    };
    if let Some(matcher) = entry.get("matcher").filter(|m| !m.is_string()) {
        sink.report(
            &INVALID_SHAPE,
            id,
            Some(at.clone()),
            format!("`{event}` matcher must be a string, not {matcher}"),
        );
    }
    let Some(handlers) = entry.get("hooks").and_then(Value::as_array) else {
        return sink.report(
            &INVALID_SHAPE,
            id,
            Some(at),
            format!("a `{event}` entry has no `hooks` list of handlers"),
        );
    };
    for handler in handlers {
        let Some(handler) = handler.as_object() else {
            sink.report(&INVALID_SHAPE, id, Some(at.clone()), format!("`{event}` handlers must be objects"));
            continue;
        };
        let kind = handler.get("type").and_then(Value::as_str).unwrap_or_default();
        let Some((_, required)) = handler_types.iter().find(|(t, _)| *t == kind) else {
            let known: Vec<&str> = handler_types.iter().map(|(t, _)| *t).collect();
            sink.report(
                &INVALID_SHAPE,
                id,
                Some(at.clone()),
                format!("`{event}` handler type {:?} is not one of {}", kind, known.join(", ")),
            );
            continue;
        };
        let missing: Vec<&&str> =
            required.iter().filter(|k| !handler.get(**k).is_some_and(Value::is_string)).collect();
        if let Some(key) = missing.first() {
            sink.report(
                &INVALID_SHAPE,
                id,
                Some(at.clone()),
                format!("a `{event}` {kind} handler needs a string `{key}`"),
            );
            continue;
        }
        if kind == "command" {
            command(cx, judge, doc, handler, sink);
        }
    }
}

/// Flat entries (Cursor): `{command, matcher?}` or `{type: "prompt", prompt}`.
fn flat_handler(cx: &Context<'_>, judge: Judge, doc: &Doc<'_>, event: &str, entry: &Value, sink: &mut Sink) {
    let id = Some(judge.runtime);
    let Some(handler) = entry.as_object() else {
        return sink.report(
            &INVALID_SHAPE,
            id,
            Some(doc.at_key(cx, event)),
            format!("`{event}` entries must be objects"),
        );
    };
    let prompt = handler.get("type").and_then(Value::as_str) == Some("prompt");
    let field = if prompt { "prompt" } else { "command" };
    if !handler.get(field).is_some_and(Value::is_string) {
        let message = format!(
            "a {name} `{event}` entry needs a string `{field}` ({name} entries are flat, not grouped)",
            name = judge.spec.name
        );
        return sink.report(&INVALID_SHAPE, id, Some(doc.at_key(cx, event)), message);
    }
    if !prompt {
        command(cx, judge, doc, handler, sink);
    }
}

/// A command handler's variables and the plugin files it runs.
fn command(cx: &Context<'_>, judge: Judge, doc: &Doc<'_>, handler: &Map<String, Value>, sink: &mut Sink) {
    let Judge { runtime, spec, hooks } = judge;
    let understood = hooks.expands;
    let id = Some(runtime);
    if !hooks.quoted_vars.is_empty()
        && !handler.contains_key("args")
        && let Some(text) = handler.get("command").and_then(Value::as_str)
        && let Some(&(start, end)) = crate::shell::unquoted_variables(text, hooks.quoted_vars).first()
    {
        let message = format!(
            "the shell command {text:?} uses {} without quotes: {} warns and `--strict` refuses the plugin",
            &text[start..end],
            spec.name
        );
        sink.report(&UNQUOTED_FOLDER, id, Some(doc.at_value(cx, text)), message);
    }
    let texts = handler
        .get("command")
        .into_iter()
        .chain(handler.get("args").and_then(Value::as_array).into_iter().flatten());
    for text in texts.filter_map(Value::as_str) {
        let at = doc.at_value(cx, text);
        for reference in root_vars::references(text, false) {
            if !understood.contains(&reference.name) {
                let message = format!(
                    "{} is {}'s spelling of the plugin folder; {} leaves it unexpanded, so the command sees an empty string",
                    reference.written, reference.owner, spec.subject
                );
                sink.report(&UNEXPANDED_VARIABLE, id, Some(at.clone()), message);
            } else if let Some(path) = reference.path {
                missing_file(cx, runtime, &at, text, path, sink);
            }
        }
        // Cursor runs hook commands from the plugin folder (`./scripts/x.sh`).
        if hooks.run_from_plugin_folder {
            let first = text.split_whitespace().next().map(|word| word.trim_matches(['"', '\'']));
            if let Some(path) = first.and_then(|first| first.strip_prefix("./")) {
                missing_file(cx, runtime, &at, text, path, sink);
            }
        }
    }
}

fn missing_file(cx: &Context<'_>, runtime: Runtime, at: &Location, text: &str, path: &str, sink: &mut Sink) {
    let Some(rel) = root_vars::inside(path) else { return };
    if rel.is_empty() || cx.folder.exists(&rel) || cx.folder.has_dir(&rel) {
        return;
    }
    sink.report(
        &MISSING_SCRIPT,
        Some(runtime),
        Some(at.clone()),
        format!("the command {text:?} runs {}, which the plugin does not ship", cx.folder.full(&rel)),
    );
}

#[cfg(test)]
mod tests {
    use super::super::components::test_support::codes;

    fn hooks(event: &str, command: &str) -> String {
        format!(
            r#"{{"hooks": {{"{event}": [{{"hooks": [{{"type": "command", "command": "{command}"}}]}}]}}}}"#
        )
    }

    #[test]
    fn codex_exports_both_root_spellings_to_hook_commands() {
        let codex = (".codex-plugin/plugin.json", r#"{"name": "p", "version": "1.0.0"}"#);
        for command in ["${PLUGIN_ROOT}/x.sh", "$CLAUDE_PLUGIN_ROOT/x.sh"] {
            let hooks = hooks("Stop", command);
            assert!(
                codes(&[codex, ("x.sh", "#!/bin/sh\n"), ("hooks/hooks.json", &hooks)], None).is_empty(),
                "{command}"
            );
        }
        let gemini_spelling = hooks("Stop", "${extensionPath}/x.sh");
        assert_eq!(
            codes(&[codex, ("hooks/hooks.json", &gemini_spelling)], None),
            ["hook/unexpanded-variable"]
        );
    }

    #[test]
    fn claude_does_not_expand_the_portable_spelling() {
        let claude = (".claude-plugin/plugin.json", r#"{"name": "p"}"#);
        let hooks = hooks("Stop", "${PLUGIN_ROOT}/x.sh");
        assert_eq!(
            codes(&[claude, ("x.sh", ""), ("hooks/hooks.json", &hooks)], None),
            ["hook/unexpanded-variable"]
        );
    }

    #[test]
    fn gemini_events_are_its_own() {
        let gemini = ("gemini-extension.json", r#"{"name": "p", "version": "1.0.0"}"#);
        let claude_event = hooks("PreToolUse", "echo");
        assert_eq!(codes(&[gemini, ("hooks/hooks.json", &claude_event)], None), ["hook/unknown-event"]);
        let own = hooks("BeforeTool", "echo");
        assert!(codes(&[gemini, ("hooks/hooks.json", &own)], None).is_empty());
    }

    #[test]
    fn cursor_entries_are_flat_camel_case_and_run_from_the_plugin_folder() {
        let cursor = (".cursor-plugin/plugin.json", r#"{"name": "p"}"#);
        let ok = r#"{"version": 1, "hooks": {"afterAgentResponse": [{"command": "./scripts/a.sh"}]}}"#;
        assert!(codes(&[cursor, ("scripts/a.sh", ""), ("hooks/hooks.json", ok)], None).is_empty());
        let missing = codes(&[cursor, ("hooks/hooks.json", ok)], None);
        assert_eq!(missing, ["hook/missing-script"]);
        let claude_shaped = hooks("PreToolUse", "echo");
        assert_eq!(
            codes(&[cursor, ("hooks/hooks.json", &claude_shaped)], None),
            ["hook/invalid-shape", "hook/unknown-event"]
        );
    }

    #[test]
    fn an_empty_codex_hooks_object_declares_no_hooks() {
        let codex = (".codex-plugin/plugin.json", r#"{"name": "p", "version": "1.0.0", "hooks": {}}"#);
        assert!(codes(&[codex], None).is_empty());
        let claude = (".claude-plugin/plugin.json", r#"{"name": "p"}"#);
        assert_eq!(codes(&[claude, ("hooks/hooks.json", "{}")], None), ["hook/invalid-shape"]);
    }

    #[test]
    fn inline_manifest_hooks_are_judged_too() {
        let manifest = r#"{"name": "p", "hooks": {"hooks": {"Bogus": []}}}"#;
        assert_eq!(codes(&[(".claude-plugin/plugin.json", manifest)], None), ["hook/unknown-event"]);
    }
}
