//! Markdown components with YAML frontmatter (skills, commands, agents):
//! parsing with the error's line.

use serde_json::{Map, Value};

use super::{Cx, Rule, Sink};
use crate::source::parse_document;

/// The rules one area reports Markdown problems under.
pub(crate) struct MarkdownRules {
    pub invalid_frontmatter: &'static Rule,
    /// Where Claude Code reads frontmatter that is valid YAML only once its
    /// values are quoted: the warning it gets there (elsewhere, and where
    /// `None`, such frontmatter is invalid).
    pub quoted_frontmatter: Option<&'static Rule>,
    /// `None` where a file without frontmatter is fine or reported otherwise.
    pub no_frontmatter: Option<&'static Rule>,
}

/// A parsed component file.
pub(crate) struct Markdown {
    pub rel: String,
    /// `None` when the file has no frontmatter block.
    pub frontmatter: Option<Map<String, Value>>,
}

impl Markdown {
    pub fn field(&self, key: &str) -> Option<&Value> {
        self.frontmatter.as_ref()?.get(key).filter(|v| !v.is_null())
    }

    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.field(key)?.as_str()
    }

    /// Whether the frontmatter names `key` at all (Claude Code accepts `key:` with no value).
    pub fn has_key(&self, key: &str) -> bool {
        self.frontmatter.as_ref().is_some_and(|f| f.contains_key(key))
    }
}

/// Reads `rel`: reports unparseable frontmatter (then `None`) and a
/// missing one.
pub(crate) fn read(cx: &Cx<'_>, rel: &str, rules: &MarkdownRules, sink: &mut Sink) -> Option<Markdown> {
    let text = cx.folder.text(rel, sink)?;
    let runtime = cx.runtime;
    let at_line = |line| Some(cx.folder.at_line(rel, line, 1));
    match parse_document(rel, text) {
        // A lenient reader (Claude Code) reads an unclosed block as no frontmatter at all.
        Ok(doc) if doc.frontmatter.is_none() && opens_frontmatter(text) && !cx.lenient_frontmatter => {
            sink.report(
                rules.invalid_frontmatter,
                runtime,
                at_line(1),
                "the frontmatter opened with `---` is never closed by a `---` line",
            );
            None
        }
        Ok(doc) if doc.frontmatter.as_ref().is_some_and(Map::is_empty) && blank_frontmatter(text) => {
            sink.report(
                rules.invalid_frontmatter,
                runtime,
                at_line(1),
                "the frontmatter block is empty, which is not a mapping of keys to values",
            );
            None
        }
        Ok(doc) if doc.quoted.is_some() => {
            let quoted = doc.quoted.as_deref().expect("matched above");
            match rules.quoted_frontmatter.filter(|_| cx.lenient_frontmatter) {
                Some(rule) => {
                    let message = format!("{}; other YAML readers refuse the file", quoted.message());
                    sink.report(rule, runtime, at_line(quoted.line().unwrap_or(1)), message);
                    Some(Markdown { rel: rel.to_string(), frontmatter: doc.frontmatter })
                }
                None => {
                    invalid(cx, rel, rules, &quoted.error, sink);
                    None
                }
            }
        }
        Ok(doc) => {
            if let Some(rule) = rules.no_frontmatter.filter(|_| doc.frontmatter.is_none()) {
                let message = if opens_frontmatter(text) {
                    "the frontmatter opened with `---` is never closed, so it is read as body text"
                } else {
                    "no YAML frontmatter between `---` lines at the top of the file"
                };
                sink.report(rule, runtime, Some(cx.folder.at(rel)), message);
            }
            Some(Markdown { rel: rel.to_string(), frontmatter: doc.frontmatter })
        }
        Err(e) => {
            invalid(cx, rel, rules, &e, sink);
            None
        }
    }
}

/// Reports frontmatter that is not YAML at the parser's line and column.
fn invalid(cx: &Cx<'_>, rel: &str, rules: &MarkdownRules, error: &crate::error::Error, sink: &mut Sink) {
    let (line, column) = error.location().map_or((1, 1), |l| (l.line.unwrap_or(1), l.column.unwrap_or(1)));
    let message = error.problems.first().map_or_else(String::new, |p| p.message.clone());
    let at = Some(cx.folder.at_line(rel, line, column));
    sink.report(rules.invalid_frontmatter, cx.runtime, at, message);
}

/// A frontmatter block with nothing but blank and comment lines: YAML
/// reads it as null, which Claude Code refuses ("got null").
fn blank_frontmatter(text: &str) -> bool {
    text.lines()
        .skip(1)
        .take_while(|line| line.trim_end() != "---")
        .all(|line| line.trim().is_empty() || line.trim_start().starts_with('#'))
}

fn opens_frontmatter(text: &str) -> bool {
    text.lines().next().is_some_and(|first| first.trim_end() == "---")
}

/// The line of top-level frontmatter `key` in `rel`.
pub(crate) fn line_of(cx: &Cx<'_>, rel: &str, key: &str) -> Option<usize> {
    let text = std::str::from_utf8(&cx.folder.get(rel)?.bytes).ok()?;
    crate::source::frontmatter_key_line(text, key)
}

/// A location at frontmatter `key` of `doc`, or the file alone.
pub(crate) fn at_field(cx: &Cx<'_>, doc: &Markdown, key: &str) -> crate::error::Location {
    match line_of(cx, &doc.rel, key) {
        Some(line) => cx.folder.at_line(&doc.rel, line, 1),
        None => cx.folder.at(&doc.rel),
    }
}

/// Reports each of `keys` the frontmatter of `doc` lacks (or leaves empty):
/// the runtime judging it (`runtime_name`) does not load such an agent.
pub(crate) fn required_agent_fields(
    cx: &Cx<'_>,
    runtime_name: &str,
    doc: &Markdown,
    keys: &[&str],
    sink: &mut Sink,
) {
    for key in keys {
        let present = doc.str_field(key).is_some_and(|v| !v.trim().is_empty());
        if !present && doc.field(key).is_none_or(Value::is_string) {
            sink.report(
                &super::component_rules::agent::MISSING_FIELD,
                cx.runtime,
                Some(cx.folder.at(&doc.rel)),
                format!("no `{key}` in the frontmatter: {} does not load the agent", runtime_name),
            );
        }
    }
}

/// "a list", "a number", ... for messages about a value's type.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// Files directly in or below `dir` (or `dir` itself when it is a file)
/// whose name ends in one of `extensions`.
pub(crate) fn files(cx: &Cx<'_>, dir: &str, extensions: &[&str], recursive: bool) -> Vec<String> {
    if cx.folder.exists(dir) {
        return vec![dir.to_string()];
    }
    cx.folder
        .below(dir)
        .map(|(rel, _)| rel)
        .filter(|rel| {
            let inner = &rel[dir.len().min(rel.len())..].trim_start_matches('/');
            (recursive || !inner.contains('/')) && extensions.iter().any(|ext| rel.ends_with(ext))
        })
        .collect()
}
