//! Every bundle plugforge builds passes `validate --strict`: each golden
//! vector's expected output root (error vectors aside) validates with no
//! error and no warning for every runtime it holds.

use plugforge_conformance::{cases, read_files, read_tree};
use plugforge_core::{ValidateOptions, validate};

/// Files that make a folder a plugin or marketplace of some runtime.
const MARKER_NAMES: &[&str] =
    &["plugin.json", "marketplace.json", "gemini-extension.json", "openclaw.plugin.json", "plugin.yaml"];

#[test]
fn every_built_bundle_validates_strictly() {
    let options = ValidateOptions { target: None, strict: true };
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
        if !report.valid {
            let findings: Vec<String> = report
                .findings
                .iter()
                .map(|f| {
                    let place = match (&f.file, f.line) {
                        (Some(file), Some(line)) => format!("{file}:{line}"),
                        (Some(file), None) => file.clone(),
                        _ => "-".into(),
                    };
                    format!("  {} [{}] {place}: {}", f.code, f.runtime.unwrap_or("-"), f.message)
                })
                .collect();
            failures.push(format!("{}:\n{}", case.name, findings.join("\n")));
        }
        judged.push(case.name);
    }
    assert!(failures.is_empty(), "built bundles that fail validate --strict:\n{}", failures.join("\n"));
    eprintln!("judged {}: {judged:?}", judged.len());
    assert!(judged.len() >= 20, "too few plugin outputs judged: {judged:?}");
}
