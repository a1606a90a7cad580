//! Load and build outcomes of every target, merged: a problem every target
//! hits is a problem of the source (no runtime), one only some targets hit
//! is reported for those runtimes.

use std::collections::{BTreeMap, BTreeSet};

use super::super::Context;
use super::{CREDENTIAL, DIAGNOSTIC, INVALID, TEMPLATE, UNSUPPORTED_TARGET, URL_NOT_ALLOWED};
use crate::error::{Error, ErrorCode, Location};
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use crate::report::{Diagnostic, Severity};
use crate::runtime::Runtime;

/// One finding before its runtimes are known.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    code: &'static str,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    message: String,
}

pub(super) struct Outcomes<'c> {
    cx: &'c Context<'c>,
    found: BTreeMap<Key, (&'static Rule, BTreeSet<String>)>,
    /// Targets that built: only they can raise warnings and URL findings.
    built: BTreeSet<String>,
}

impl<'c> Outcomes<'c> {
    pub fn new(cx: &'c Context<'c>) -> Self {
        Outcomes { cx, found: BTreeMap::new(), built: BTreeSet::new() }
    }

    /// Every problem of a load or build error; `target` is `None` when the
    /// error came before any runtime was chosen.
    pub fn error(&mut self, error: &Error, target: Option<&String>) -> &mut Self {
        let rule = rule_of(error.code);
        for problem in &error.problems {
            let location = match &problem.location {
                Some(location) => self.in_validated_folder(location),
                None => self.default_location(error.code, target),
            };
            self.add(rule, Some(location), problem.message.clone(), target);
        }
        self
    }

    /// Build warnings (errors never come as diagnostics: they fail the build).
    pub fn diagnostics(&mut self, diagnostics: &[Diagnostic], target: &String) {
        self.built.insert(target.clone());
        for diagnostic in diagnostics.iter().filter(|d| d.severity != Severity::Info) {
            let location = diagnostic.location.as_ref().map(|l| self.in_validated_folder(l));
            let message = format!("{} ({})", diagnostic.message, diagnostic.code);
            self.add(&DIAGNOSTIC, location, message, Some(target));
        }
    }

    pub fn add(
        &mut self,
        rule: &'static Rule,
        location: Option<Location>,
        message: String,
        target: Option<&String>,
    ) {
        let (file, line, column) = match location {
            Some(l) => (Some(l.file), l.line, l.column),
            None => (None, None, None),
        };
        let key = Key { code: rule.code.as_str(), file, line, column, message };
        let (_, runtimes) = self.found.entry(key).or_insert_with(|| (rule, BTreeSet::new()));
        runtimes.extend(target.cloned());
    }

    /// Reports every finding: without a runtime when every target that
    /// could produce it did (or no particular one), else once per runtime
    /// that did.
    pub fn report(&self, sink: &mut Sink, targets: &[String]) {
        for (key, (rule, runtimes)) in &self.found {
            let targets: Vec<&String> =
                if rule.severity == RuleSeverity::Warning || rule.code == URL_NOT_ALLOWED.code {
                    self.built.iter().collect()
                } else {
                    targets.iter().collect()
                };
            let location = key.file.as_ref().map(|file| Location {
                file: file.clone(),
                line: key.line,
                column: key.column,
            });
            let everywhere = runtimes.is_empty() || targets.iter().all(|t| runtimes.contains(*t));
            if everywhere {
                sink.report(rule, None, location, key.message.clone());
                continue;
            }
            for runtime in runtimes {
                let id = Runtime::parse(runtime).ok();
                sink.report(rule, id, location.clone(), key.message.clone());
            }
        }
    }

    fn in_validated_folder(&self, location: &Location) -> Location {
        Location { file: self.cx.folder.full(&location.file), ..location.clone() }
    }

    /// A problem without a place is one of `plugforge.json`: at the target's
    /// entry for a runtime problem, else the file itself.
    fn default_location(&self, code: ErrorCode, target: Option<&String>) -> Location {
        let config = self.cx.subject.marker.as_str();
        match (code, target) {
            (ErrorCode::UnsupportedRuntime | ErrorCode::UnsupportedKind, Some(target)) => {
                match self.cx.folder.line_of_key(config, target) {
                    Some(line) => self.cx.folder.at_line(config, line, 1),
                    None => self.cx.folder.at_key(config, "targets"),
                }
            }
            _ => self.cx.folder.at(config),
        }
    }
}

fn rule_of(code: ErrorCode) -> &'static Rule {
    match code {
        ErrorCode::Template => &TEMPLATE,
        ErrorCode::UrlNotAllowed => &URL_NOT_ALLOWED,
        ErrorCode::Credential => &CREDENTIAL,
        ErrorCode::UnsupportedRuntime | ErrorCode::UnsupportedKind => &UNSUPPORTED_TARGET,
        ErrorCode::InvalidSource
        | ErrorCode::InvalidPath
        | ErrorCode::InvalidOptions
        | ErrorCode::InvalidManifest
        | ErrorCode::Limit
        | ErrorCode::NothingToLoad => &INVALID,
    }
}
