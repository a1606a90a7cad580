//! Every bundle plugforge builds passes `validate`: each golden vector's
//! expected output root (error vectors aside) validates with no error for
//! every runtime it holds, and with no warning that validating its source
//! did not already give the author (a command the source leaves without a
//! description stays without one in every bundle).

use std::collections::BTreeSet;

use plugforge_conformance::{Case, cases, read_files, read_tree};
use plugforge_core::{Severity, ValidateOptions, validate};

/// Files that make a folder a plugin or marketplace of some runtime.
const MARKER_NAMES: &[&str] =
    &["plugin.json", "marketplace.json", "gemini-extension.json", "openclaw.plugin.json", "plugin.yaml"];

#[test]
fn every_built_bundle_validates() {
    let options = ValidateOptions { target: None, strict: false };
    let mut judged = Vec::new();
    let mut failures = Vec::new();
    for case in cases().into_iter().filter(|c| c.expected_error().is_none()) {
        let expected = case.dir.join("expected");
        let report = validate(&read_tree(&expected), &options).expect("validate runs");
        if report.subjects.is_empty() {
            // An in-place project, workspace or guide output is no plugin
            // folder; it must not hold a marker validate failed to see.
            let markers: Vec<String> = read_files(&expected)
                .into_keys()
                .filter(|path| MARKER_NAMES.contains(&path.rsplit('/').next().unwrap_or(path)))
                .collect();
            assert!(markers.is_empty(), "{}: markers not detected: {markers:?}", case.name);
            continue;
        }
        let told = warnings_of_source(&case);
        let unexplained: Vec<_> = report
            .findings
            .iter()
            .filter(|f| {
                f.severity == Severity::Error
                    || !told.contains(&(f.code.as_str(), f.file().map(str::to_string)))
            })
            .collect();
        if !unexplained.is_empty() {
            let findings: Vec<String> = unexplained
                .iter()
                .map(|f| {
                    let place = match (f.file(), f.line()) {
                        (Some(file), Some(line)) => format!("{file}:{line}"),
                        (Some(file), None) => file.to_string(),
                        _ => "-".into(),
                    };
                    format!("  {} [{}] {place}: {}", f.code, f.runtime.map_or("-", |r| r.id()), f.message)
                })
                .collect();
            failures.push(format!("{}:\n{}", case.name, findings.join("\n")));
        }
        judged.push(case.name);
    }
    assert!(
        failures.is_empty(),
        "built bundles with findings their source does not explain:\n{}",
        failures.join("\n")
    );
    eprintln!("judged {}: {judged:?}", judged.len());
    assert!(judged.len() >= 20, "too few plugin outputs judged: {judged:?}");
}

/// The warnings `validate` gives for the case's source (for the case's one
/// runtime, when it names one), as (code, file): the source area reports a
/// built bundle's findings at the bundle's path.
fn warnings_of_source(case: &Case) -> BTreeSet<(&'static str, Option<String>)> {
    let target = match case.options().targets.as_slice() {
        [one] if one.runtime != "all" => Some(one.runtime.clone()),
        _ => None,
    };
    let options = ValidateOptions { target, strict: false };
    let report = validate(&read_tree(&case.source_dir()), &options).expect("validate runs");
    report
        .findings
        .into_iter()
        .filter(|f| f.severity == Severity::Warning)
        .map(|f| (f.code.as_str(), f.file().map(str::to_string)))
        .collect()
}
