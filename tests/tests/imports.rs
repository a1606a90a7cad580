//! Every import fixture produces exactly its `expected/` source and its
//! `notes.json`, and that source loads and builds for every runtime.
//! `UPDATE_EXPECT=1 cargo test -p plugforge-conformance --test imports` re-blesses.

use plugforge_conformance::imports::{import_cases, source_files};
use plugforge_conformance::{read_files, write_tree};
use plugforge_core::{BuildOptions, TargetRequest};

fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1")
}

#[test]
fn every_fixture_imports_to_its_expected_source_and_notes() {
    let cases = import_cases();
    assert!(!cases.is_empty(), "no import cases listed");
    let mut ran = Vec::new();
    for case in cases {
        let imported = case.run();
        let produced = source_files(&imported);
        let notes = serde_json::to_value(&imported.notes).expect("notes are JSON");
        if updating() {
            write_tree(&case.expected_dir(), &produced);
            let text = serde_json::to_string_pretty(&notes).expect("JSON") + "\n";
            std::fs::write(case.dir.join("notes.json"), text).expect("write notes.json");
        } else {
            let expected = read_files(&case.expected_dir());
            let paths = |t: &plugforge_conformance::Tree| t.keys().cloned().collect::<Vec<_>>();
            assert_eq!(
                paths(&produced),
                paths(&expected),
                "{}: imported paths differ from expected/",
                case.name
            );
            for (path, (bytes, executable)) in &expected {
                let (got, got_exec) = &produced[path];
                assert_eq!(
                    String::from_utf8_lossy(got),
                    String::from_utf8_lossy(bytes),
                    "{}: {path} differs from expected/",
                    case.name
                );
                assert_eq!(got_exec, executable, "{}: {path} executable bit", case.name);
            }
            assert_eq!(notes, case.expected_notes(), "{}: notes differ from notes.json", case.name);
        }
        ran.push(case.name.clone());
    }
    plugforge_conformance::record_suite("rust", "imports", &ran);
}

#[test]
fn every_imported_source_builds_for_every_runtime() {
    for case in import_cases() {
        let imported = case.run();
        let options = BuildOptions { targets: vec![TargetRequest::new("all")], ..Default::default() };
        if let Err(e) = plugforge_core::build(&imported.source, &options) {
            panic!("{}: the imported source does not build with --target all: {e}", case.name);
        }
    }
}

/// The shipped example, built for each importable runtime and imported back:
/// the imported source builds again, and every skill, command and agent the
/// bundle carries (its honesty row is not `unsupported`) is in it.
#[test]
fn the_striatum_example_comes_back_from_every_importable_runtime() {
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/striatum");
    let source = plugforge_conformance::read_tree(&example);
    let vars: std::collections::BTreeMap<String, String> =
        [("runner_version".to_string(), "0.7.3".to_string())].into();
    for runtime in plugforge_core::importable() {
        let options = BuildOptions {
            targets: vec![TargetRequest::new(runtime.id())],
            vars: vars.clone(),
            ..Default::default()
        };
        let output =
            plugforge_core::build(&source, &options).unwrap_or_else(|e| panic!("{}: {e}", runtime.id()));
        let bundle = &output.bundles[0];
        let mut native = plugforge_core::SourceTree::new();
        for (path, file) in &bundle.files {
            native.insert(path.as_str(), file.bytes.clone(), file.executable).expect("valid path");
        }
        let imported = plugforge_core::import(&native, &Default::default())
            .unwrap_or_else(|e| panic!("import from {}: {e}", runtime.id()));
        assert_eq!(imported.runtime, runtime, "the marker names the runtime");
        let all = BuildOptions { targets: vec![TargetRequest::new("all")], ..Default::default() };
        plugforge_core::build(&imported.source, &all)
            .unwrap_or_else(|e| panic!("{}: the imported source does not build: {e}", runtime.id()));
        for row in bundle.honesty.iter().filter(|r| r.level != plugforge_core::Level::Unsupported) {
            let path = match row.component {
                "skill" => format!("skills/{}/SKILL.md", row.name),
                "command" => format!("commands/{}.md", row.name.replace(':', "/")),
                "agent" => format!("agents/{}.md", row.name),
                _ => continue,
            };
            assert!(
                imported.source.get(&path).is_some(),
                "{}: {} {} vanished ({path})",
                runtime.id(),
                row.component,
                row.name
            );
        }
    }
}
