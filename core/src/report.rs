//! Diagnostics and the capability honesty report: data, not log lines.

use serde::Serialize;

use crate::codes::{Code, DiagnosticCode};
use crate::error::Location;
use crate::registry::{ArtifactKind, Runtime, words};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// A rule's severity before `--strict` turns warnings into errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum RuleSeverity {
    Error,
    Warning,
}

impl From<RuleSeverity> for Severity {
    fn from(severity: RuleSeverity) -> Severity {
        match severity {
            RuleSeverity::Error => Severity::Error,
            RuleSeverity::Warning => Severity::Warning,
        }
    }
}

/// One finding, whoever makes it: a build's diagnostic (a problem with the
/// source or the output that does not stop the build), a note of `import`
/// (something of the native plugin the canonical source does not carry, an
/// `info`), or a broken rule of `validate`.
///
/// Serialized as a build diagnostic (`{severity, code, message, location?}`);
/// an import's notes and validate's report carry the same findings in their
/// own shapes (`ImportNote`, `ValidationFinding`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable identifier: snake_case for build diagnostics and import
    /// notes, `area/what` for validate's rules.
    pub code: Code,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// How to fix it (validate: the rule's fix).
    #[serde(skip)]
    #[cfg_attr(feature = "typescript", ts(skip))]
    pub fix: Option<&'static str>,
    /// The runtime it applies to, when it is runtime-specific (validate).
    #[serde(skip)]
    #[cfg_attr(feature = "typescript", ts(skip))]
    pub runtime: Option<Runtime>,
}

impl Diagnostic {
    pub fn new(
        severity: Severity,
        code: Code,
        location: Option<Location>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic { severity, code, message: message.into(), location, fix: None, runtime: None }
    }

    pub fn warning(code: DiagnosticCode, location: Option<Location>, message: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Warning, code.into(), location, message)
    }

    pub fn info(code: DiagnosticCode, location: Option<Location>, message: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Info, code.into(), location, message)
    }

    /// The file it is about, if any.
    pub fn file(&self) -> Option<&str> {
        self.location.as_ref().map(|l| l.file.as_str())
    }

    /// The line it is at, if known.
    pub fn line(&self) -> Option<usize> {
        self.location.as_ref().and_then(|l| l.line)
    }

    /// The column it is at, if known.
    pub fn column(&self) -> Option<usize> {
        self.location.as_ref().and_then(|l| l.column)
    }
}

/// An import's notes in their wire shape: `[{code, location, message}]`.
pub struct ImportNotes<'a>(pub &'a [Diagnostic]);

impl Serialize for ImportNotes<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(ImportNote::of))
    }
}

// An import note on the wire.
/// Something of the native plugin the canonical source does not carry.
#[derive(Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub(crate) struct ImportNote<'a> {
    /// Stable snake_case identifier, e.g. `unknown_field`.
    #[cfg_attr(feature = "typescript", ts(as = "DiagnosticCode"))]
    code: Code,
    location: &'a Location,
    message: &'a str,
}

impl<'a> ImportNote<'a> {
    fn of(note: &'a Diagnostic) -> Self {
        static NOWHERE: Location = Location { file: String::new(), line: None, column: None };
        ImportNote {
            code: note.code,
            location: note.location.as_ref().unwrap_or(&NOWHERE),
            message: &note.message,
        }
    }
}

/// Validate's findings in their wire shape (`schema/validate-report.schema.json`).
pub(crate) fn validation_findings<S: serde::Serializer>(
    findings: &[Diagnostic],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(findings.iter().map(ValidationFinding::of))
}

// A validate finding on the wire.
/// One broken rule at one place.
#[derive(Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub(crate) struct ValidationFinding<'a> {
    #[cfg_attr(feature = "typescript", ts(as = "crate::codes::RuleCode"))]
    code: Code,
    /// Effective severity: `--strict` reports warnings as errors.
    severity: RuleSeverity,
    /// The runtime the finding applies to, when it is runtime-specific.
    #[serde(skip_serializing_if = "Option::is_none")]
    runtime: Option<Runtime>,
    /// Path relative to the validated folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    message: &'a str,
    fix: &'static str,
}

impl<'a> ValidationFinding<'a> {
    fn of(finding: &'a Diagnostic) -> Self {
        let severity = match finding.severity {
            Severity::Error => RuleSeverity::Error,
            Severity::Warning | Severity::Info => RuleSeverity::Warning,
        };
        ValidationFinding {
            code: finding.code,
            severity,
            runtime: finding.runtime,
            file: finding.file(),
            line: finding.line(),
            column: finding.column(),
            message: &finding.message,
            fix: finding.fix.unwrap_or_default(),
        }
    }
}

/// How well a runtime carries one component instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Supported,
    Degraded,
    Unsupported,
}

impl Component {
    /// Whether a runtime that carries it loads something from the plugin:
    /// metadata and support files alone give it nothing to load.
    pub fn loads(self) -> bool {
        !matches!(self, Component::Metadata | Component::Support)
    }

    /// Its name in a summary of several rows ("apps", "skills").
    pub fn plural(self) -> String {
        match self {
            Component::Mcp => "MCP servers".to_string(),
            Component::Lsp => "LSP servers".to_string(),
            Component::Settings
            | Component::Bin
            | Component::Context
            | Component::Support
            | Component::Metadata => self.as_str().to_string(),
            other => format!("{}s", other.as_str()),
        }
    }
}

/// Why a bundle of these rows would load nothing, or `None` when it loads
/// something. A runtime loads nothing when no row of a component it would
/// load is supported or degraded, and the source holds something: the
/// reason names each component it cannot take (`apps: unsupported`) or,
/// with no component at all, says the source's `files` (support files and
/// README, content listed where no runtime looks) are none a runtime loads.
/// A source of metadata alone (`plugforge.json`, as a plugin starts) is
/// built: there is nothing in it to be silent about.
pub fn nothing_to_load(rows: &[Honesty], files: usize) -> Option<String> {
    let mut refused: Vec<Component> = Vec::new();
    for row in rows.iter().filter(|row| row.component.loads()) {
        if row.level != Level::Unsupported {
            return None;
        }
        if !refused.contains(&row.component) {
            refused.push(row.component);
        }
    }
    let why = if !refused.is_empty() {
        refused.iter().map(|c| format!("{}: unsupported", c.plural())).collect::<Vec<_>>().join(", ")
    } else if files > 0 {
        format!(
            "its {files} file(s) hold no skill, command, agent, hook, MCP server or other component a runtime loads"
        )
    } else {
        return None;
    };
    Some(format!("nothing this runtime can load ({why})"))
}

/// One row of the honesty report: component x runtime, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Honesty {
    pub component: Component,
    pub name: String,
    pub runtime: Runtime,
    pub kind: ArtifactKind,
    pub level: Level,
    pub detail: String,
}

words! {
    /// A component of a plugin, as honesty rows name it.
    pub enum Component as "Component" {
        Skill = "skill",
        Command = "command",
        Agent = "agent",
        Hook = "hook",
        Mcp = "mcp",
        Settings = "settings",
        Bin = "bin",
        Context = "context",
        OutputStyle = "output-style",
        Support = "support",
        /// A manifest field a runtime shows (Codex's `interface`).
        Metadata = "metadata",
        /// A code module a runtime loads as a plugin (OpenCode's).
        PluginModule = "plugin-module",
        /// A client the universal folder serves.
        Host = "host",
        /// A language server (Claude Code's `lspServers`).
        Lsp = "lsp",
        /// An app connector: a hosted integration named by its connector id
        /// (the canonical `.app.json`), served by its vendor, not by the plugin.
        App = "app",
    }
}
