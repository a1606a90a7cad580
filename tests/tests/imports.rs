//! Every import fixture produces exactly its `expected/` source and its
//! `notes.json`, and that source loads and builds for every runtime.
//! `UPDATE_EXPECT=1 cargo test -p plugforge-conformance --test imports` re-blesses.

use plugforge_conformance::imports::{import_cases, source_files};
use plugforge_conformance::{read_files, write_tree};
use plugforge_core::{BuildOptions, ImportNotes, TargetRequest};

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
        let notes = serde_json::to_value(ImportNotes(&imported.notes)).expect("notes are JSON");
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

/// A native plugin built as it is (its reader's source loaded as read) gives
/// exactly what `import` + `build` of the written source gives: every
/// bundle's files, honesty rows and diagnostics, for every runtime.
#[test]
fn a_native_plugin_builds_exactly_as_its_imported_source() {
    let mut compared = Vec::new();
    for case in import_cases() {
        let options = case.options();
        if options.name.is_some() {
            // Named by the options alone: a build has no such option.
            continue;
        }
        let native = plugforge_conformance::read_tree(&case.dir.join("input"));
        let all = BuildOptions { targets: vec![TargetRequest::new("all")], ..Default::default() };
        let direct = plugforge_core::build(&native, &all).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let imported = case.run();
        if options.from.is_some_and(|from| from != imported.runtime.id()) {
            continue;
        }
        let via =
            plugforge_core::build(&imported.source, &all).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let files = |output: &plugforge_core::Output| -> Vec<(String, Vec<u8>, bool)> {
            let bundles = output.bundles.iter();
            let files = bundles.flat_map(|b| {
                b.files.iter().map(|(p, f)| (b.out_path(p).to_string(), f.bytes.to_vec(), f.executable))
            });
            files.collect()
        };
        assert!(files(&direct) == files(&via), "{}: the bundles' files differ", case.name);
        let mut report = plugforge_conformance::report_of(&direct);
        // What reading said comes first: that it was read as a native
        // plugin, then each note of the import.
        let diagnostics = report["diagnostics"].as_array_mut().expect("a list");
        let read: Vec<_> = diagnostics.drain(..1 + imported.notes.len()).collect();
        assert_eq!(read[0]["code"], "read_as_native", "{}", case.name);
        let notes = serde_json::to_value(&imported.notes).expect("JSON");
        assert_eq!(serde_json::Value::from(read[1..].to_vec()), notes, "{}: the notes differ", case.name);
        assert_eq!(report, plugforge_conformance::report_of(&via), "{}: the reports differ", case.name);
        compared.push(case.name);
    }
    assert!(compared.len() >= 10, "too few cases compared: {compared:?}");
}

/// The shipped example, built for each importable runtime and imported back:
/// the imported source builds again, and every skill, command and agent the
/// bundle carries (its honesty row is not `unsupported`) is in it.
#[test]
fn the_striatum_example_comes_back_from_every_importable_runtime() {
    let example = plugforge_conformance::repo_dir().join("examples/striatum");
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
            let path = match row.component.as_str() {
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
