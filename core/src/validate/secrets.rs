//! Rules of the `secret` area: a plugin ships no credentials. MCP server
//! `env`, `headers` and `args` and hook commands are scanned for known
//! token shapes and for long literal values under secret-sounding names;
//! variable references (`${VAR}`, `$VAR`, `{env:VAR}`) and placeholders
//! are fine. Messages never repeat a secret: only its first 4 characters.

use serde_json::Value;

use super::Context;
use super::components::layout::Layout;
use crate::codes::{RuleCode, SharedRule};
use crate::error::Location;
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use crate::recognise::secrets::{
    assignments, is_expression, is_reference_or_placeholder, is_well_known_key, looks_random, preview,
    secret_name, strip_scheme, token_shapes,
};
use crate::runtime::Runtime;

pub const TOKEN: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SecretToken),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "MCP servers and hooks hold no credential of a known shape (GitHub, OpenAI, Anthropic, Slack, AWS, Google, GitLab tokens, private keys, JWTs).",
    fix: "Revoke the credential, then read it from the user's environment: `\"${TOKEN_NAME}\"` in MCP config, `$TOKEN_NAME` in hook commands.",
};

pub const LITERAL_CREDENTIAL: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SecretLiteralCredential),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "A value named like a credential (*TOKEN*, *SECRET*, *KEY*, *PASSWORD*, *AUTH*) is a variable reference, not a literal.",
    fix: "Replace the value with a reference to the user's environment (`${NAME}`), and revoke it if it was real.",
};

pub const RULES: &[&Rule] = &[&TOKEN, &LITERAL_CREDENTIAL];

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let Some(runtime) = cx.runtime else { return };
    let layout = Layout::of(cx, sink);
    for server in super::mcp::servers(cx, runtime, &layout, None) {
        let Some(fields) = server.value.as_object() else { continue };
        let at = server.at(cx);
        let what = format!("server {:?}", server.name);
        for key in ["env", "headers", "environment"] {
            for (name, value) in fields.get(key).and_then(Value::as_object).into_iter().flatten() {
                if let Some(text) = value.as_str() {
                    named_value(runtime, &at, &format!("{what} {key}.{name}"), name, text, sink);
                }
            }
        }
        let args = fields.get("args").and_then(Value::as_array).into_iter().flatten();
        let command = fields.get("command").and_then(Value::as_array).into_iter().flatten();
        for text in args.chain(command).filter_map(Value::as_str) {
            tokens(runtime, &at, &format!("{what} args"), text, sink);
        }
        if let Some(url) = fields.get("url").and_then(Value::as_str) {
            tokens(runtime, &at, &format!("{what} url"), url, sink);
        }
    }
    for (rel, value) in super::hooks::documents(cx, &layout, &mut Sink::default()) {
        let mut texts = Vec::new();
        hook_texts(&value, true, &mut texts);
        for text in texts {
            let at = at_text(cx, &rel, text);
            tokens(runtime, &at, "hook command", text, sink);
            for (name, literal) in assignments(text) {
                named_value(runtime, &at, &format!("hook command variable {name}"), name, literal, sink);
            }
        }
    }
}

/// The line of `text` (as a JSON string) in `rel`, or the file alone.
pub(crate) fn at_text(cx: &Context<'_>, rel: &str, text: &str) -> Location {
    match cx.folder.json_positions(rel).and_then(|p| p.line_of_string(text)) {
        Some(line) => cx.folder.at_line(rel, line, 1),
        None => cx.folder.at(rel),
    }
}

/// Every `command` (and, with `headers`, every header value) in a hooks
/// document, however it is nested.
pub(crate) fn hook_texts<'a>(value: &'a Value, headers: bool, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                match (key.as_str(), item) {
                    ("command" | "commandWindows", Value::String(text)) => out.push(text),
                    ("headers", Value::Object(values)) if headers => {
                        out.extend(values.values().filter_map(Value::as_str))
                    }
                    _ => hook_texts(item, headers, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| hook_texts(i, headers, out)),
        _ => {}
    }
}

fn named_value(runtime: Runtime, at: &Location, what: &str, name: &str, text: &str, sink: &mut Sink) {
    if tokens(runtime, at, what, text, sink) {
        return;
    }
    let value = strip_scheme(text);
    let literal = !is_reference_or_placeholder(value) && !is_expression(value) && !is_well_known_key(value);
    if secret_name(name) && literal && looks_random(value) {
        let message =
            format!("{what} holds a literal credential ({}): a plugin must not ship it", preview(value));
        sink.report(&LITERAL_CREDENTIAL, Some(runtime), Some(at.clone()), message);
    }
}

/// Reports each known token shape in `text`; true when one was found.
fn tokens(runtime: Runtime, at: &Location, what: &str, text: &str, sink: &mut Sink) -> bool {
    let mut found = token_shapes(text);
    // A key its owner publishes for anyone (an emulator's) is no secret.
    found.retain(|(_, token)| !is_well_known_key(token));
    for (kind, token) in &found {
        let message =
            format!("{what} holds a {kind} ({}): a plugin must not ship credentials", preview(token));
        sink.report(&TOKEN, Some(runtime), Some(at.clone()), message);
    }
    !found.is_empty()
}

#[cfg(test)]
mod judged {
    use super::super::components::test_support::findings;

    #[test]
    fn messages_never_repeat_the_secret() {
        let token = "xoxb-1234567890-abcdefghijklmnop";
        let mcp = format!(
            r#"{{"mcpServers": {{"s": {{"url": "https://x", "headers": {{"Authorization": "Bearer {token}"}}}}}}}}"#
        );
        let found =
            findings(&[(".claude-plugin/plugin.json", r#"{"name": "p"}"#), (".mcp.json", &mcp)], None);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "secret/token");
        assert!(found[0].3.contains("xoxb…") && !found[0].3.contains(token), "{}", found[0].3);
    }

    #[test]
    fn references_and_placeholders_are_fine() {
        let mcp = r#"{"s": {"command": "s", "env": {"API_KEY": "${API_KEY}", "AUTH_TOKEN": "<your-token>", "SECRET": "changeme"}}}"#;
        assert!(
            findings(&[(".claude-plugin/plugin.json", r#"{"name": "p"}"#), (".mcp.json", mcp)], None)
                .is_empty()
        );
    }
}
