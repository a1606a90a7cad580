//! Runs every golden vector through the Rust core: same path set, same
//! bytes, same executable bits, and sha256 recomputed here with sha2.
//! `UPDATE_EXPECT=1 cargo test -p plugforge-conformance` re-blesses.

use plugforge_conformance::{Case, REPORT_FILE, Tree, cases, read_files, write_tree};
use sha2::{Digest, Sha256};

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1")
}

#[test]
fn every_vector_matches_its_expectation() {
    let cases = cases();
    assert!(cases.len() >= 10, "vectors went missing: {}", cases.len());
    let mut ran = Vec::new();
    for case in &cases {
        match case.expected_error() {
            Some(expected) => check_error(case, &expected),
            None => check_tree(case),
        }
        ran.push(case.name.clone());
    }
    assert_eq!(ran.len(), cases.len(), "a vector was skipped");
    plugforge_conformance::record_host("rust", &ran);
}

fn check_tree(case: &Case) {
    let (produced, report) = case.run_with_report().unwrap_or_else(|e| panic!("{}: {e}", case.name));
    check_hashes(case, &produced);
    let expected_dir = case.dir.join("expected");
    if updating() {
        write_tree(&expected_dir, &produced);
        let text = serde_json::to_string_pretty(&report).expect("report is JSON") + "\n";
        std::fs::write(case.dir.join(REPORT_FILE), text).expect("report written");
        return;
    }
    let want = case.expected_report().unwrap_or_else(|| panic!("{}: no {REPORT_FILE}", case.name));
    assert_eq!(
        serde_json::to_string_pretty(&report).unwrap(),
        serde_json::to_string_pretty(&want).unwrap(),
        "{}: honesty rows or diagnostics differ",
        case.name
    );
    let expected = read_files(&expected_dir);
    let produced_paths: Vec<&String> = produced.keys().collect();
    let expected_paths: Vec<&String> = expected.keys().collect();
    assert_eq!(produced_paths, expected_paths, "{}: path set differs", case.name);
    for (path, (bytes, executable)) in &produced {
        let (want, want_exec) = &expected[path];
        assert!(
            bytes == want,
            "{}: {path} differs\n--- produced\n{}\n--- expected\n{}",
            case.name,
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(want)
        );
        assert_eq!(executable, want_exec, "{}: {path} executable bit", case.name);
    }
}

/// Every manifest's sha256 equals this host's own hash of the bytes.
fn check_hashes(case: &Case, tree: &Tree) {
    let mut checked = 0;
    let manifest_name = case.options().manifest_name;
    let file_name = |path: &str| path.rsplit('/').next().unwrap_or(path).to_string();
    for (path, (bytes, _)) in tree.iter().filter(|(p, _)| file_name(p).ends_with(&manifest_name)) {
        // A folder kind keeps `<root>/<name>` with paths below its root; an
        // in-place kind keeps `<state_dir>/<namespace><name>` with paths from OUT.
        let root = match path.rsplit_once('/') {
            Some((dir, _)) if file_name(path) == manifest_name => format!("{dir}/"),
            _ => String::new(),
        };
        let manifest: serde_json::Value = serde_json::from_slice(bytes).expect("manifest is JSON");
        for file in manifest["files"].as_array().expect("files") {
            let rel = format!("{root}{}", file["path"].as_str().expect("path"));
            let (content, executable) =
                tree.get(&rel).unwrap_or_else(|| panic!("{}: {rel} listed, not written", case.name));
            assert_eq!(file["sha256"].as_str(), Some(hex(content).as_str()), "{}: {rel} sha256", case.name);
            assert_eq!(
                file["executable"].as_bool().unwrap_or(false),
                *executable,
                "{}: {rel} mode",
                case.name
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "{}: no manifest entries checked", case.name);
}

fn check_error(case: &Case, expected: &plugforge_conformance::ExpectedError) {
    let error = match case.run() {
        Ok(tree) => panic!("{}: expected error {}, built {} files", case.name, expected.code, tree.len()),
        Err(error) => error,
    };
    if updating() {
        let location = error.location();
        let blessed = serde_json::json!({
            "code": error.code.as_str(),
            "message_contains": expected.message_contains,
            "file": location.map(|l| l.file.clone()),
            "line": location.and_then(|l| l.line),
        });
        let text = serde_json::to_string_pretty(&blessed).expect("JSON") + "\n";
        std::fs::write(case.dir.join("error.json"), text).expect("write error.json");
        return;
    }
    assert_eq!(error.code.as_str(), expected.code, "{}: {error}", case.name);
    assert!(error.message().contains(&expected.message_contains), "{}: {}", case.name, error.message());
    let location = error.location();
    assert_eq!(location.map(|l| l.file.clone()), expected.file, "{}: file", case.name);
    assert_eq!(location.and_then(|l| l.line), expected.line, "{}: line", case.name);
}
