//! Gemini TOML commands -> canonical Markdown commands.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Location, Result};
use crate::format::toml_doc;
use crate::draft::common::{self, Spelling};
use crate::draft::Draft;
use crate::draft::manifest::short;
use crate::draft::markdown::Markdown;
use crate::source::SourceFile;
use crate::codes::DiagnosticCode;

/// `commands/<name>/x.toml` (as `build` writes it) or `commands/x.toml` -> `commands/x.md`.
pub fn command(
    draft: &mut Draft,
    name: &str,
    from: &str,
    rel: &str,
    file: &SourceFile,
    spelling: &Spelling,
) -> Result<()> {
    let rel = rel.strip_prefix(&format!("{name}/")).unwrap_or(rel);
    let mut document = toml_doc::parse(common::text(from, file)?).map_err(|e| {
        Error::at(
            ErrorCode::InvalidSource,
            Location::at(from, e.line, e.column),
            format!("invalid TOML: {}", e.message),
        )
    })?;
    let mut table = std::mem::take(&mut document.table);
    let line_of = |key: &str| document.line_of(key).unwrap_or(1);
    let Some(Value::String(prompt)) = table.shift_remove("prompt") else {
        let message = "no prompt string, so Gemini CLI skips it; left out".to_string();
        draft.note(DiagnosticCode::InvalidCommand, Location::file(from), message);
        return Ok(());
    };
    let mut frontmatter = Map::new();
    match table.shift_remove("description") {
        Some(Value::String(description)) => {
            frontmatter.insert("description".into(), Value::String(description));
        }
        Some(other) => draft.note(
            DiagnosticCode::InvalidField,
            Location::at(from, line_of("description"), 1),
            format!("description {other} is not text; left out"),
        ),
        None => {}
    }
    for (key, value) in &table {
        let message = format!("command key {key} ({}) has no canonical counterpart; left out", short(value));
        draft.note(DiagnosticCode::UnknownField, Location::at(from, line_of(key), 1), message);
    }
    let body = spelling.text(&prompt_body(draft, from, &prompt));
    let markdown = Markdown { frontmatter: Some(frontmatter), body };
    draft.add_markdown(&format!("commands/{rel}.md"), markdown, from)
}

/// Gemini prompt syntax -> Claude command syntax: `{{args}}` -> `$ARGUMENTS`,
/// `!{cmd}` -> `` !`cmd` ``; `@{path}` has no counterpart and is noted.
fn prompt_body(draft: &mut Draft, from: &str, prompt: &str) -> String {
    let mut out = positional(prompt).replace("{{args}}", "$ARGUMENTS");
    let mut shell = String::new();
    let mut rest = out.as_str();
    while let Some(at) = rest.find("!{") {
        let after = &rest[at + 2..];
        let close = closing_brace(after);
        shell.push_str(&rest[..at]);
        match close {
            Some(close) if !after[..close].contains(['`', '\n']) => {
                shell.push_str(&format!("!`{}`", &after[..close]));
                rest = &after[close + 1..];
            }
            _ => {
                let message = "a !{...} shell block spanning lines or holding a backtick has no Claude form; kept as text";
                draft.note(DiagnosticCode::UnsupportedPromptFeature, Location::file(from), message);
                shell.push_str("!{");
                rest = after;
            }
        }
    }
    shell.push_str(rest);
    out = shell;
    if out.contains("@{") {
        let message = "@{path} file injection has no canonical counterpart: kept as text, which other runtimes do not expand";
        draft.note(DiagnosticCode::UnsupportedPromptFeature, Location::file(from), message);
    }
    out
}

/// The explained `<argument N>` placeholders `build` writes for Claude's
/// positional `$N` (Gemini has none) turned back into `$N`.
fn positional(prompt: &str) -> String {
    const WITH_ALL: &str =
        "(<argument N> below is the N-th word of the arguments given to this command.)\n\n";
    const WITHOUT_ALL: &str =
        "Arguments: {{args}}\n(<argument N> below is the N-th word of these arguments.)\n\n";
    let Some(body) = prompt.strip_prefix(WITH_ALL).or_else(|| prompt.strip_prefix(WITHOUT_ALL)) else {
        return prompt.to_string();
    };
    let mut out = body.to_string();
    for n in 1..=9 {
        out = out.replace(&format!("<argument {n}>"), &format!("${n}"));
    }
    out
}

/// The index of the `}` closing a block whose `{` was just read.
fn closing_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(at),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(prompt: &str) -> (String, Vec<&'static str>) {
        let mut draft = Draft::default();
        let text = prompt_body(&mut draft, "c.toml", prompt);
        let (_, notes) = draft.finish().unwrap();
        (text, notes.iter().map(|n| n.code.as_str()).collect())
    }

    #[test]
    fn gemini_prompt_syntax_becomes_claude_syntax() {
        assert_eq!(
            body("Sync {{args}}: !{git status}\n"),
            ("Sync $ARGUMENTS: !`git status`\n".into(), vec![])
        );
        assert_eq!(body("Nested !{echo {a}} done").0, "Nested !`echo {a}` done");
        let (text, notes) = body("Odd !{echo `x`} and @{a.md}");
        assert_eq!(text, "Odd !{echo `x`} and @{a.md}");
        assert_eq!(notes, ["unsupported_prompt_feature", "unsupported_prompt_feature"]);
    }

    #[test]
    fn explained_positionals_become_dollar_n_again() {
        let built = "(<argument N> below is the N-th word of the arguments given to this command.)\n\n\
                     All: {{args}}\nRun: <argument 1>\nJob: <argument 2>\n";
        assert_eq!(body(built).0, "All: $ARGUMENTS\nRun: $1\nJob: $2\n");
        let built = "Arguments: {{args}}\n(<argument N> below is the N-th word of these arguments.)\n\nfrom <argument 1>";
        assert_eq!(body(built).0, "from $1");
    }
}
