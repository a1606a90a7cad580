//! Rules of the `url` area: URLs in what runs. Whatever the build's URL
//! policy, a hook command, an MCP server's command or arguments, or a file
//! in `bin/` that names a URL makes the plugin's behaviour depend on a
//! remote resource the bundle does not hold: worth a reviewer's look.

use serde_json::Value;

use super::Context;
use super::components::layout::Layout;
use crate::codes::{RuleCode, SharedRule};
use crate::error::Location;
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use crate::recognise::urls::urls_in;

pub const EXECUTABLE: Rule = Rule {
    code: RuleCode::Shared(SharedRule::UrlExecutable),
    severity: RuleSeverity::Warning,
    runtimes: &[],
    summary: "Hook commands, MCP server commands and arguments, and `bin/` files name no URL: what runs should not depend on a remote resource the bundle does not ship (reported under every URL policy).",
    fix: "Ship what the command fetches inside the plugin, or pin it (a versioned package, a checksum) and say so in the README.",
};

pub const RULES: &[&Rule] = &[&EXECUTABLE];

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let Some(runtime) = cx.runtime else { return };
    let layout = Layout::of(cx, sink);
    let mut report = |at: Location, what: &str, text: &str| {
        for url in urls_in(text) {
            let message =
                format!("{what} names {url}: what runs depends on a resource the bundle does not ship");
            sink.report(&EXECUTABLE, Some(runtime), Some(at.clone()), message);
        }
    };
    for server in super::mcp::servers(cx, runtime, &layout, None) {
        let Some(fields) = server.value.as_object() else { continue };
        let what = format!("MCP server {:?}", server.name);
        let command = fields.get("command").into_iter().flat_map(strings);
        let args = fields.get("args").into_iter().flat_map(strings);
        for text in command.chain(args) {
            report(server.at(cx), &what, text);
        }
    }
    for (rel, value) in super::hooks::documents(cx, &layout, &mut Sink::default()) {
        let mut commands = Vec::new();
        super::secrets::hook_texts(&value, false, &mut commands);
        for text in commands {
            report(super::secrets::at_text(cx, &rel, text), "hook command", text);
        }
    }
    for (rel, file) in cx.folder.below("bin") {
        let Ok(text) = std::str::from_utf8(&file.bytes) else { continue };
        for (index, line) in text.lines().enumerate() {
            if urls_in(line).next().is_some() {
                report(cx.folder.at_line(&rel, index + 1, 1), &rel, line);
            }
        }
    }
}

/// A string, or each string of an array.
fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(text) => vec![text],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}
