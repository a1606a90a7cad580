//! A view of one subject's folder inside the validated tree: paths relative
//! to the subject, locations relative to the validated folder, and file
//! reads that report unreadable files as findings.

use serde_json::Value;

use super::findings::Sink;
use super::rule::{Rule, RuleSeverity};
use crate::codes::{RuleCode, SharedRule};
use crate::error::Location;
use crate::path::BundlePath;
use crate::source::{SourceFile, SourceTree};

pub const NOT_UTF8: Rule = Rule {
    code: RuleCode::Shared(SharedRule::FileNotUtf8),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Manifests, Markdown and config files are UTF-8 text.",
    fix: "Re-save the file as UTF-8.",
};

pub const INVALID_JSON: Rule = Rule {
    code: RuleCode::Shared(SharedRule::FileInvalidJson),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "JSON files parse as JSON.",
    fix: "Fix the syntax at the reported line and column.",
};

pub const RULES: &[&Rule] = &[&NOT_UTF8, &INVALID_JSON];

#[derive(Clone, Copy)]
pub(crate) struct Folder<'a> {
    tree: &'a SourceTree,
    /// The subject's folder relative to the validated folder ("" = itself).
    root: &'a str,
}

impl<'a> Folder<'a> {
    pub fn new(tree: &'a SourceTree, root: &'a str) -> Self {
        Folder { tree, root }
    }

    pub fn root(&self) -> &'a str {
        self.root
    }

    /// `rel` as a path of the validated folder.
    pub fn full(&self, rel: &str) -> String {
        if self.root.is_empty() { rel.to_string() } else { format!("{}/{rel}", self.root) }
    }

    pub fn get(&self, rel: &str) -> Option<&'a SourceFile> {
        self.tree.get(&self.full(rel))
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.get(rel).is_some()
    }

    /// Whether any file lies below folder `rel`.
    pub fn has_dir(&self, rel: &str) -> bool {
        self.below(rel).next().is_some()
    }

    /// Files below folder `rel` ("" = the whole subject), as paths relative
    /// to the subject.
    pub fn below(&self, rel: &str) -> impl Iterator<Item = (String, &'a SourceFile)> + use<'a> {
        let dir = if rel.is_empty() { self.root.to_string() } else { self.full(rel) };
        let strip = if self.root.is_empty() { 0 } else { self.root.len() + 1 };
        self.tree
            .below(&dir)
            .map(move |(path, file): (&BundlePath, _)| (path.as_str()[strip..].to_string(), file))
    }

    pub fn at(&self, rel: &str) -> Location {
        Location::file(self.full(rel))
    }

    pub fn at_line(&self, rel: &str, line: usize, column: usize) -> Location {
        Location::at(self.full(rel), line, column)
    }

    /// The text of `rel` (without a byte order mark, which no runtime's
    /// reader minds), or `None` (reported) when it is not UTF-8, or `None`
    /// (silently) when it does not exist.
    pub fn text(&self, rel: &str, sink: &mut Sink) -> Option<&'a str> {
        let file = self.get(rel)?;
        match std::str::from_utf8(&file.bytes) {
            Ok(text) => Some(crate::text::without_bom(text)),
            Err(e) => {
                sink.report(&NOT_UTF8, None, Some(self.at(rel)), format!("not UTF-8: {e}"));
                None
            }
        }
    }

    /// `rel` parsed as JSON, or `None` (reported) when it does not parse, or
    /// `None` (silently) when it does not exist.
    pub fn json(&self, rel: &str, sink: &mut Sink) -> Option<Value> {
        let text = self.text(rel, sink)?;
        match serde_json::from_str(text) {
            Ok(value) => Some(value),
            Err(e) => {
                let message = e.to_string();
                let message = message.rfind(" at line ").map_or(message.as_str(), |cut| &message[..cut]);
                sink.report(
                    &INVALID_JSON,
                    None,
                    Some(self.at_line(rel, e.line(), e.column())),
                    format!("invalid JSON: {message}"),
                );
                None
            }
        }
    }

    /// The 1-based line of the first key named `key` in JSON file `rel`
    /// (for findings about a field of a parsed document).
    pub fn line_of_key(&self, rel: &str, key: &str) -> Option<usize> {
        self.tree.json_positions(&self.full(rel))?.line_of_key(key)
    }

    /// Where each key of JSON file `rel` sits (found once per file).
    pub fn json_positions(&self, rel: &str) -> Option<std::sync::Arc<crate::source::JsonPositions>> {
        self.tree.json_positions(&self.full(rel))
    }

    /// A location at the line of `"key"` in `rel`, or the file alone.
    pub fn at_key(&self, rel: &str, key: &str) -> Location {
        match self.line_of_key(rel, key) {
            Some(line) => Location::at(self.full(rel), line, 1),
            None => self.at(rel),
        }
    }
}
