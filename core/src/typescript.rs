//! TypeScript declarations of the types hosts exchange with the core, in
//! their serde shapes: the bindings' typings are generated from these, so a
//! field renamed here cannot go stale in a `.d.ts`.

use ts_rs::{Config, TS};

use crate::{
    BuildOptions, BundlePath, CarriedUrl, Diagnostic, DoctorOptions, DoctorReport, ErrorCode, Finding,
    FindingCode, Generator, Honesty, ImportNote, ImportOptions, Level, Location, Merge, Op, Part,
    PlanOptions, Problem, Rule, RuleSeverity, RuntimeInfo, Scope, Severity, Subject, SubjectKind, Summary,
    TargetFailure, TargetRequest, UninstallOptions, ValidateOptions, ValidationFinding, ValidationReport,
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

/// One exported declaration per type, by name, in an order where each only
/// names types declared before it.
pub fn declarations() -> Vec<(String, String)> {
    fn named<T: TS>() -> (String, String) {
        (T::ident(&Config::default()), export::<T>())
    }
    vec![
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
        named::<ValidationFinding>(),
        named::<ValidationReport>(),
        named::<Rule>(),
        named::<RuntimeInfo>(),
        named::<ImportNote>(),
    ]
}
