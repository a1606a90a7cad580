//! One error type for every host; the code strings are public API.

use std::fmt;

use serde::Serialize;

/// Stable error codes. `as_str()` is what Node's `err.code`, Python's `.code`,
/// wasm's `err.code` and the CLI's `--json` carry.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The plugin source is malformed (bad JSON, bad frontmatter, missing SKILL.md, duplicates).
    InvalidSource,
    /// A path would escape the bundle root or is not a clean relative path.
    InvalidPath,
    /// A `.j2` template failed to render.
    Template,
    /// The runtime id is not known.
    UnsupportedRuntime,
    /// The runtime has no such artifact kind or scope.
    UnsupportedKind,
    /// Generated content holds a URL outside the allowlist.
    UrlNotAllowed,
    /// The options passed by the host are inconsistent.
    InvalidOptions,
    /// A previous generation manifest could not be read.
    InvalidManifest,
    /// The source holds a literal credential (a token, key or password).
    Credential,
    /// An input is over one of the bounds that keep a run from exhausting
    /// memory, stack or time (source size or file count, JSON nesting,
    /// template fuel).
    Limit,
    /// A runtime's bundle would load nothing: every component the source
    /// holds is unsupported there (or it holds none), so no bundle is written.
    NothingToLoad,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidSource => "invalid_source",
            ErrorCode::InvalidPath => "invalid_path",
            ErrorCode::Template => "template",
            ErrorCode::UnsupportedRuntime => "unsupported_runtime",
            ErrorCode::UnsupportedKind => "unsupported_kind",
            ErrorCode::UrlNotAllowed => "url_not_allowed",
            ErrorCode::InvalidOptions => "invalid_options",
            ErrorCode::InvalidManifest => "invalid_manifest",
            ErrorCode::Credential => "credential",
            ErrorCode::Limit => "limit",
            ErrorCode::NothingToLoad => "nothing_to_load",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where in the source a problem sits. Lines and columns are 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields), ts(rename = "SourceLocation"))]
pub struct Location {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl Location {
    pub fn file(file: impl Into<String>) -> Self {
        Location { file: file.into(), line: None, column: None }
    }

    pub fn at(file: impl Into<String>, line: usize, column: usize) -> Self {
        Location { file: file.into(), line: Some(line), column: Some(column) }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        Ok(())
    }
}

/// A single problem: what, where, and (optionally) how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct Problem {
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(location) => write!(f, "{location}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The core's error: a stable code plus every problem found, so a user fixes
/// a source in one pass rather than one error per run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Error {
    pub code: ErrorCode,
    pub problems: Vec<Problem>,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error { code, problems: vec![Problem { message: message.into(), location: None }] }
    }

    pub fn at(code: ErrorCode, location: Location, message: impl Into<String>) -> Self {
        Error { code, problems: vec![Problem { message: message.into(), location: Some(location) }] }
    }

    pub fn from_problems(code: ErrorCode, problems: Vec<Problem>) -> Self {
        Error { code, problems }
    }

    /// The first problem's location, if any.
    pub fn location(&self) -> Option<&Location> {
        self.problems.first().and_then(|p| p.location.as_ref())
    }

    /// The full human-readable message, one problem per line.
    pub fn message(&self) -> String {
        self.problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message())
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Collects problems while a pass keeps going, then fails once with all of them.
#[derive(Debug, Default)]
pub struct Problems {
    list: Vec<Problem>,
    /// An absorbed error was a `limit`: the pass fails with that code, so a
    /// host can tell a bound from a mistake in the source.
    limit: bool,
}

impl Problems {
    pub fn push(&mut self, location: Location, message: impl Into<String>) {
        self.list.push(Problem { message: message.into(), location: Some(location) });
    }

    pub fn absorb(&mut self, error: Error) {
        self.limit |= error.code == ErrorCode::Limit;
        self.list.extend(error.problems);
    }

    pub fn finish(self, code: ErrorCode) -> Result<()> {
        let code = if self.limit { ErrorCode::Limit } else { code };
        if self.list.is_empty() { Ok(()) } else { Err(Error::from_problems(code, self.list)) }
    }
}
