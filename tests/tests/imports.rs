//! Every import case: `input/` imported with the case's options gives exactly
//! `expected/` (path set, bytes, executable bits) and exactly `notes.json`.
//! `UPDATE_EXPECT=1 cargo test -p plugforge-conformance --test imports` re-blesses.

use plugforge_conformance::imports::{ImportCase, import_cases};
use plugforge_conformance::{read_files, write_tree};

fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1")
}

#[test]
fn every_import_case_gives_its_source_and_notes() {
    let mut ran = Vec::new();
    for case in import_cases() {
        let imported = case.run();
        let produced = ImportCase::produced_tree(&imported);
        let notes = serde_json::to_value(&imported.notes).expect("notes are JSON");
        if updating() {
            write_tree(&case.dir.join("expected"), &produced);
            let text = serde_json::to_string_pretty(&notes).expect("JSON") + "\n";
            std::fs::write(case.dir.join("notes.json"), text).expect("write notes.json");
        } else {
            let expected = read_files(&case.dir.join("expected"));
            assert_eq!(
                produced.keys().collect::<Vec<_>>(),
                expected.keys().collect::<Vec<_>>(),
                "{}: path set",
                case.name
            );
            for (path, file) in &produced {
                assert!(file == &expected[path], "{}: {path} differs from expected/", case.name);
            }
            assert_eq!(notes, case.expected_notes(), "{}: notes differ from notes.json", case.name);
        }
        ran.push(case.name.clone());
    }
    plugforge_conformance::record_suite("rust", "imports", &ran);
}
