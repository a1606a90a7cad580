//! Diagnostics and the capability honesty report: data, not log lines.

use serde::Serialize;

use crate::error::Location;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// A finding about the source or the output that does not stop the build.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable, snake_case identifier of the rule.
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

impl Diagnostic {
    pub fn warning(code: &'static str, location: Option<Location>, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, code, message: message.into(), location }
    }

    pub fn info(code: &'static str, location: Option<Location>, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Info, code, message: message.into(), location }
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

/// One row of the honesty report: component x runtime, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Honesty {
    pub component: &'static str,
    pub name: String,
    pub runtime: &'static str,
    pub kind: &'static str,
    pub level: Level,
    pub detail: String,
}
