//! Rules of the `secret` area: a plugin ships no credentials. MCP server
//! `env`, `headers` and `args` and hook commands are scanned for known
//! token shapes and for long literal values under secret-sounding names;
//! variable references (`${VAR}`, `$VAR`, `{env:VAR}`) and placeholders
//! are fine. Messages never repeat a secret: only its first 4 characters.

use serde_json::Value;

use super::Context;
use super::catalog::{Rule, RuleSeverity};
use super::components::layout::Layout;
use super::findings::Sink;
use crate::error::Location;
use crate::runtime::Runtime;

pub const TOKEN: Rule = Rule {
    code: "secret/token",
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "MCP servers and hooks hold no credential of a known shape (GitHub, OpenAI, Anthropic, Slack, AWS, Google, GitLab tokens, private keys, JWTs).",
    fix: "Revoke the credential, then read it from the user's environment: `\"${TOKEN_NAME}\"` in MCP config, `$TOKEN_NAME` in hook commands.",
};

pub const LITERAL_CREDENTIAL: Rule = Rule {
    code: "secret/literal-credential",
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
        hook_texts(&value, &mut texts);
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
fn at_text(cx: &Context<'_>, rel: &str, text: &str) -> Location {
    let needle = Value::String(text.to_string()).to_string();
    let file = cx.folder.get(rel).and_then(|f| std::str::from_utf8(&f.bytes).ok());
    match file.and_then(|t| t.find(&needle).map(|o| t[..o].matches('\n').count() + 1)) {
        Some(line) => cx.folder.at_line(rel, line, 1),
        None => cx.folder.at(rel),
    }
}

/// Every `command` and header value in a hooks document, however it is nested.
fn hook_texts<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                match (key.as_str(), item) {
                    ("command" | "commandWindows", Value::String(text)) => out.push(text),
                    ("headers", Value::Object(headers)) => {
                        out.extend(headers.values().filter_map(Value::as_str))
                    }
                    _ => hook_texts(item, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| hook_texts(i, out)),
        _ => {}
    }
}

fn named_value(runtime: Runtime, at: &Location, what: &str, name: &str, text: &str, sink: &mut Sink) {
    if tokens(runtime, at, what, text, sink) {
        return;
    }
    let value = strip_scheme(text);
    if secret_name(name) && !is_reference_or_placeholder(value) && looks_random(value) {
        let message =
            format!("{what} holds a literal credential ({}): a plugin must not ship it", preview(value));
        sink.report(&LITERAL_CREDENTIAL, Some(runtime.id()), Some(at.clone()), message);
    }
}

/// Reports each known token shape in `text`; true when one was found.
fn tokens(runtime: Runtime, at: &Location, what: &str, text: &str, sink: &mut Sink) -> bool {
    let found = token_shapes(text);
    for (kind, token) in &found {
        let message =
            format!("{what} holds a {kind} ({}): a plugin must not ship credentials", preview(token));
        sink.report(&TOKEN, Some(runtime.id()), Some(at.clone()), message);
    }
    !found.is_empty()
}

/// The first 4 characters and an ellipsis.
fn preview(secret: &str) -> String {
    let head: String = secret.chars().take(4).collect();
    format!("{head}…")
}

/// Known credential shapes in `text`: (what it is, the token).
pub(crate) fn token_shapes(text: &str) -> Vec<(&'static str, &str)> {
    let mut found = Vec::new();
    if let Some(start) = text.find("-----BEGIN ") {
        let rest = &text[start..];
        if rest.find("PRIVATE KEY-----").is_some_and(|end| !rest[..end].contains('\n') || end < 40) {
            found.push(("private key", rest));
        }
    }
    for word in words(text) {
        if let Some(kind) = token_kind(word) {
            found.push((kind, word));
        }
    }
    found
}

/// Runs of token characters (letters, digits, `_`, `-`, `.`).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .filter(|w| w.len() >= 16)
}

fn token_kind(word: &str) -> Option<&'static str> {
    let body = |prefix: &str, min: usize, ok: fn(u8) -> bool| {
        word.strip_prefix(prefix).is_some_and(|rest| rest.len() >= min && rest.bytes().all(ok))
    };
    let alnum = |b: u8| b.is_ascii_alphanumeric();
    let token = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let upper = |b: u8| b.is_ascii_uppercase() || b.is_ascii_digit();
    if ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"].iter().any(|p| body(p, 36, alnum))
        || body("github_pat_", 22, token)
    {
        Some("GitHub token")
    } else if body("sk-ant-", 20, token) {
        Some("Anthropic API key")
    } else if body("sk-", 20, token) && word.bytes().any(|b| b.is_ascii_digit()) {
        Some("OpenAI-style API key")
    } else if ["xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"].iter().any(|p| body(p, 10, token)) {
        Some("Slack token")
    } else if (body("AKIA", 16, upper) || body("ASIA", 16, upper)) && word.len() == 20 {
        Some("AWS access key id")
    } else if body("AIza", 35, token) {
        Some("Google API key")
    } else if body("glpat-", 20, token) {
        Some("GitLab token")
    } else if is_jwt(word) {
        Some("JSON Web Token")
    } else {
        None
    }
}

fn is_jwt(word: &str) -> bool {
    let parts: Vec<&str> = word.split('.').collect();
    parts.len() == 3
        && parts[0].starts_with("eyJ")
        && parts[1].starts_with("eyJ")
        && parts[2].len() >= 10
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
}

/// `*TOKEN*`, `*SECRET*`, `*KEY*`, `*PASSWORD*`, `*AUTH*` (any case).
fn secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "AUTH", "CREDENTIAL"].iter().any(|w| upper.contains(w))
}

/// `Bearer x` / `Basic x` / `token x` -> `x`.
fn strip_scheme(value: &str) -> &str {
    let trimmed = value.trim();
    for scheme in ["Bearer ", "Basic ", "Token ", "token ", "bearer "] {
        if let Some(rest) = trimmed.strip_prefix(scheme) {
            return rest.trim();
        }
    }
    trimmed
}

fn is_reference_or_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.contains('$')
        || value.contains("{env:")
        || value.contains("{file:")
        || (value.starts_with('<') && value.ends_with('>'))
        || [
            "changeme",
            "change-me",
            "xxx",
            "your",
            "example",
            "placeholder",
            "dummy",
            "redacted",
            "***",
            "todo",
            "replace",
        ]
        .iter()
        .any(|p| lower.contains(p))
}

/// At least 20 characters of varied text, letters and digits, no spaces:
/// what keys and passwords look like, unlike words, paths, URLs or flags.
fn looks_random(value: &str) -> bool {
    let mut classes = [false; 4];
    let mut distinct = std::collections::BTreeSet::new();
    for c in value.chars() {
        if c.is_whitespace() {
            return false;
        }
        distinct.insert(c);
        let class = if c.is_ascii_lowercase() {
            0
        } else if c.is_ascii_uppercase() {
            1
        } else if c.is_ascii_digit() {
            2
        } else {
            3
        };
        classes[class] = true;
    }
    let letters = classes[0] || classes[1];
    let path_or_url = value.starts_with(['/', '.', '~']) || value.contains("://");
    value.chars().count() >= 20 && distinct.len() >= 10 && letters && classes[2] && !path_or_url
}

/// `NAME=value` shell assignments (also after `export`), values unquoted.
fn assignments(command: &str) -> Vec<(&str, &str)> {
    command
        .split_whitespace()
        .filter_map(|word| word.split_once('='))
        .filter(|(name, _)| !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .map(|(name, value)| (name, value.trim_matches(|c| c == '"' || c == '\'')))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_known_token_shapes() {
        let cases = [
            ("ghp_0123456789abcdefghijABCDEFGHIJ012345", "GitHub token"),
            ("github_pat_11ABCDEFG0123456789_abcdefghijkl", "GitHub token"),
            ("sk-ant-api03-abcdefghij0123456789", "Anthropic API key"),
            ("sk-proj-abcdefghij0123456789XYZ", "OpenAI-style API key"),
            ("xoxb-1234567890-abcdefghij", "Slack token"),
            ("AKIAIOSFODNN7EXAMPLE", "AWS access key id"),
            ("AIzaSyA-0123456789abcdefghijklmnopqrstu", "Google API key"),
            ("glpat-abcdefghij0123456789", "GitLab token"),
            ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefghijklmnop", "JSON Web Token"),
        ];
        for (token, kind) in cases {
            assert_eq!(token_shapes(&format!("--token={token} x")), [(kind, token)], "{token}");
        }
        let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIE...";
        assert_eq!(token_shapes(key)[0].0, "private key");
    }

    #[test]
    fn ignores_ordinary_words_paths_and_references() {
        for text in [
            "sk-learn-classifier-model-v",
            "${GITHUB_TOKEN}",
            "/usr/local/bin/some-long-tool-name",
            "AKIA_NOT_A_KEY",
        ] {
            assert!(token_shapes(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn literal_credentials_need_a_secret_name_and_a_random_value() {
        assert!(secret_name("API_KEY") && secret_name("Authorization") && secret_name("db_password"));
        assert!(!secret_name("LOG_LEVEL"));
        assert!(looks_random("q8Zt3vN1xK9pL2mR7sW4"));
        assert!(!looks_random("short1"));
        assert!(!looks_random("a very long value with spaces 123"));
        assert!(!looks_random("aaaaaaaaaaaaaaaaaaaaaaaa1"));
        assert!(!looks_random("us-international-variant"));
        assert!(!looks_random("/home/user/.ssh/id_ed25519_work"));
        assert!(looks_random("3f9a0c7e5b1d2468ace013579bdf"));
        assert!(is_reference_or_placeholder("${API_KEY}"));
        assert!(is_reference_or_placeholder("<your-token>"));
        assert!(is_reference_or_placeholder("changeme-changeme-123456"));
        assert_eq!(strip_scheme("Bearer abc"), "abc");
    }

    #[test]
    fn reads_shell_assignments() {
        assert_eq!(assignments("API_KEY=\"abc\" run --x=1"), [("API_KEY", "abc")]);
        assert_eq!(preview("ghp_secretvalue"), "ghp_…");
    }
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
