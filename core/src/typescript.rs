//! TypeScript declarations of the types hosts exchange with the core, in
//! their serde shapes: the bindings' typings are generated from these, so a
//! field renamed here cannot go stale in a `.d.ts`.

use ts_rs::{Config, TS};

use crate::codes::{Code, DiagnosticCode, RuleCode, SharedRule};
use crate::registry::{ArtifactKind, Runtime, RuntimeRule};
use crate::report::{Component, ImportNote, ValidationFinding};
use crate::{
    BuildOptions, BundlePath, CarriedUrl, Diagnostic, DoctorOptions, DoctorReport, ErrorCode, Finding,
    FindingCode, Generator, Honesty, ImportOptions, Level, Location, Merge, Op, Part, PlanOptions, Problem,
    Rule, RuleSeverity, RuntimeInfo, Scope, Severity, Subject, SubjectKind, Summary, TargetFailure,
    TargetRequest, UninstallOptions, ValidateOptions, ValidationReport,
};

/// `export type Name = …;` of `T`, its doc comment first.
pub fn export<T: TS>() -> String {
    let docs = T::docs().unwrap_or_default();
    format!("{docs}export {}", T::decl(&Config::default()))
}

/// `T`'s type written out in place (a union of strings for an enum).
pub fn inline<T: TS>() -> String {
    T::inline(&Config::default())
}

fn named<T: TS>() -> (String, String) {
    (T::ident(&Config::default()), export::<T>())
}

/// The vocabulary's declarations: the runtime ids (from the registry), the
/// artifact kinds, the components and the finding codes, each a union of
/// strings.
pub fn vocabulary() -> Vec<(String, String)> {
    vec![
        named::<Runtime>(),
        named::<ArtifactKind>(),
        named::<Component>(),
        named::<DiagnosticCode>(),
        named::<SharedRule>(),
        named::<RuntimeRule>(),
        named::<RuleCode>(),
        named::<Code>(),
    ]
}

/// One exported declaration per type, by name, in an order where each only
/// names types declared before it: the [`vocabulary`] first.
pub fn declarations() -> Vec<(String, String)> {
    let mut declarations = vocabulary();
    declarations.extend([
        named::<serde_json::Value>(),
        named::<BundlePath>(),
        named::<Scope>(),
        named::<Op>(),
        named::<Level>(),
        named::<Severity>(),
        named::<RuleSeverity>(),
        named::<SubjectKind>(),
        named::<ErrorCode>(),
        named::<Location>(),
        named::<Problem>(),
        named::<TargetRequest>(),
        named::<Generator>(),
        named::<TargetFailure>(),
        named::<CarriedUrl>(),
        named::<BuildOptions>(),
        named::<PlanOptions>(),
        named::<UninstallOptions>(),
        named::<DoctorOptions>(),
        named::<ValidateOptions>(),
        named::<ImportOptions>(),
        named::<Diagnostic>(),
        named::<Honesty>(),
        named::<Part>(),
        named::<Merge>(),
        named::<Summary>(),
        named::<FindingCode>(),
        named::<Finding>(),
        named::<DoctorReport>(),
        named::<Subject>(),
        named::<ValidationFinding<'static>>(),
        named::<ValidationReport>(),
        named::<Rule>(),
        named::<RuntimeInfo>(),
        named::<ImportNote<'static>>(),
    ]);
    declarations
}
