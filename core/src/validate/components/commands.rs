//! Slash commands: Markdown with frontmatter (Claude Code, Codex, Cursor,
//! OpenCode) or Gemini CLI's TOML files (`prompt` required, `description`
//! optional, both strings: Gemini's `FileCommandLoader` skips any other file).

use serde_json::Value;

use super::super::Context;
use super::layout::{CommandFormat, Layout};
use super::markdown::{self, MarkdownRules, kind};
use crate::format::toml_doc;
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use crate::runtime::Runtime;

const MARKDOWN_RUNTIMES: &[&str] = &["claude-code", "codex", "cursor", "opencode", "generic"];

pub const INVALID_FRONTMATTER: Rule = Rule {
    code: "command/invalid-frontmatter",
    severity: RuleSeverity::Error,
    runtimes: MARKDOWN_RUNTIMES,
    summary: "A command's frontmatter is a YAML mapping between `---` lines.",
    fix: "Fix the YAML at the reported line (quote values holding `: ` or starting with `[`), and close the block with `---`.",
};

pub const QUOTED_FRONTMATTER: Rule = Rule {
    code: "command/frontmatter-quoted",
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "A command's frontmatter is not valid YAML as written; Claude Code quotes plain values holding `: ` or YAML syntax and reads again, other readers refuse the file.",
    fix: "Quote the reported value (`key: \"...\"`) or write it as a block scalar (`key: >-`).",
};

pub const NO_FRONTMATTER: Rule = Rule {
    code: "command/no-frontmatter",
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "A command starts with YAML frontmatter that describes it.",
    fix: "Add `---\\ndescription: <what the command does>\\n---` at the top of the file.",
};

pub const MISSING_DESCRIPTION: Rule = Rule {
    code: "command/missing-description",
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "A command's frontmatter has a `description` (Codex migrates only described commands).",
    fix: "Add `description: <what the command does>` to the frontmatter.",
};

pub const INVALID_FIELD: Rule = Rule {
    code: "command/invalid-field",
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "gemini"],
    summary: "A command's fields have the types the runtime reads.",
    fix: "Give the field the type the message names (quote text values).",
};

pub const INVALID_TOML: Rule = Rule {
    code: "command/invalid-toml",
    severity: RuleSeverity::Error,
    runtimes: &["gemini"],
    summary: "A Gemini command file parses as TOML.",
    fix: "Fix the TOML at the reported line; multi-line prompts go between `\"\"\"` or `'''`.",
};

pub const MISSING_PROMPT: Rule = Rule {
    code: "command/missing-prompt",
    severity: RuleSeverity::Error,
    runtimes: &["gemini"],
    summary: "A Gemini command file sets `prompt`, the text sent to the model.",
    fix: "Add `prompt = \"\"\"...\"\"\"` with the command's text (`{{args}}` receives the arguments).",
};

pub const IGNORED_FILE: Rule = Rule {
    code: "command/ignored-file",
    severity: RuleSeverity::Warning,
    runtimes: &["gemini"],
    summary: "Gemini CLI reads only `.toml` files below `commands/`.",
    fix: "Rewrite the command as `commands/<name>.toml` with `description` and `prompt`.",
};

const MARKDOWN: MarkdownRules = MarkdownRules {
    invalid_frontmatter: &INVALID_FRONTMATTER,
    quoted_frontmatter: Some(&QUOTED_FRONTMATTER),
    no_frontmatter: Some(&NO_FRONTMATTER),
};

/// Markers of runtimes whose plugins read Markdown commands from `commands/`.
const MARKDOWN_COMMAND_MARKERS: [&str; 3] = [
    crate::runtime::claude_code::facts::MANIFEST_PATH,
    crate::runtime::codex::facts::MANIFEST_PATH,
    crate::runtime::cursor::facts::MANIFEST_PATH,
];

pub(crate) fn check(cx: &Context<'_>, layout: &Layout, sink: &mut Sink) {
    let runtime = cx.runtime.unwrap_or(Runtime::ClaudeCode);
    match layout.command_format {
        CommandFormat::Toml => {
            for dir in &layout.commands {
                for rel in markdown::files(cx, dir, &[".toml"], true) {
                    check_toml(cx, &rel, sink);
                }
                if !MARKDOWN_COMMAND_MARKERS.iter().any(|m| cx.folder.exists(m)) {
                    for rel in markdown::files(cx, dir, &[".md"], true) {
                        sink.report(
                            &IGNORED_FILE,
                            Some(runtime.id()),
                            Some(cx.folder.at(&rel)),
                            format!("{rel} is Markdown: Gemini CLI skips it and loads only .toml commands"),
                        );
                    }
                }
            }
        }
        CommandFormat::Markdown => {
            let extensions: &[&str] =
                if runtime == Runtime::Cursor { &[".md", ".mdc", ".markdown", ".txt"] } else { &[".md"] };
            for dir in &layout.commands {
                for rel in markdown::files(cx, dir, extensions, true) {
                    if !rel.ends_with("/SKILL.md") && rel != "SKILL.md" {
                        check_markdown(cx, runtime, &rel, sink);
                    }
                }
            }
        }
    }
}

fn check_markdown(cx: &Context<'_>, runtime: Runtime, rel: &str, sink: &mut Sink) {
    let rules = if runtime == Runtime::OpenCode || runtime == Runtime::Generic {
        MarkdownRules { no_frontmatter: None, ..MARKDOWN }
    } else {
        MARKDOWN
    };
    let Some(doc) = markdown::read(cx, rel, &rules, sink) else { return };
    if runtime == Runtime::ClaudeCode {
        markdown::claude_field_types(cx, &doc, &INVALID_FIELD, sink);
    }
    let describes = matches!(runtime, Runtime::ClaudeCode | Runtime::Codex | Runtime::Cursor);
    let described = match runtime {
        Runtime::ClaudeCode => doc.has_key("description"),
        _ => doc.str_field("description").is_some_and(|d| !d.trim().is_empty()),
    };
    if describes && doc.frontmatter.is_some() && !described {
        let why = match runtime {
            Runtime::Codex => "Codex does not migrate it into a skill",
            _ => "users and the model cannot tell when to use it",
        };
        sink.report(
            &MISSING_DESCRIPTION,
            Some(runtime.id()),
            Some(cx.folder.at(rel)),
            format!("the frontmatter has no `description`: {why}"),
        );
    }
}

fn check_toml(cx: &Context<'_>, rel: &str, sink: &mut Sink) {
    let Some(text) = cx.folder.text(rel, sink) else { return };
    let gemini = Some(Runtime::Gemini.id());
    let doc = match toml_doc::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            let at = cx.folder.at_line(rel, e.line, e.column);
            sink.report(
                &INVALID_TOML,
                gemini,
                Some(at),
                format!("invalid TOML: {}; Gemini CLI skips this command", e.message),
            );
            return;
        }
    };
    let at_key = |key: &str| match doc.line_of(key) {
        Some(line) => cx.folder.at_line(rel, line, 1),
        None => cx.folder.at(rel),
    };
    match doc.table.get("prompt") {
        None => sink.report(
            &MISSING_PROMPT,
            gemini,
            Some(cx.folder.at(rel)),
            "no `prompt`: Gemini CLI skips this command",
        ),
        Some(Value::String(_)) => {}
        Some(other) => sink.report(
            &INVALID_FIELD,
            gemini,
            Some(at_key("prompt")),
            format!("`prompt` must be a string, not {}", kind(other)),
        ),
    }
    if let Some(description) = doc.table.get("description").filter(|d| !d.is_string()) {
        sink.report(
            &INVALID_FIELD,
            gemini,
            Some(at_key("description")),
            format!("`description` must be a string, not {}", kind(description)),
        );
    }
}
