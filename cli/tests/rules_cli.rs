//! Every rule fixture through the `plugforge` binary: `validate DIR --json`
//! prints `{ok, report}` with exactly the blessed report and exits 1 iff the
//! folder is invalid. (The import cases run in acceptance_import.rs.)

use std::path::Path;
use std::process::Command;

use plugforge_conformance::rules::{SIDES, rule_cases};
use serde_json::Value;

/// Runs the binary; (exit code, stdout as JSON).
fn plugforge(args: &[&str], dir: &Path, label: &str) -> (i32, Value) {
    let output = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(args)
        .arg(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run plugforge");
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{label}: stdout is not JSON ({e}): {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().expect("exit code"), json)
}

/// The validate options of a case as flags; one the CLI cannot express fails.
fn validate_flags(options: &Value, label: &str) -> Vec<String> {
    let mut flags = vec!["validate".to_string(), "--json".into()];
    for (key, value) in options.as_object().cloned().unwrap_or_default() {
        match (key.as_str(), value) {
            ("target", Value::String(runtime)) => flags.extend(["--target".into(), runtime]),
            ("target", Value::Null) | ("strict", Value::Bool(false)) => {}
            ("strict", Value::Bool(true)) => flags.push("--strict".into()),
            (other, value) => panic!("{label}: option {other}={value} has no command-line flag"),
        }
    }
    flags
}

#[test]
fn every_rule_fixture_through_the_binary() {
    let mut ran = Vec::new();
    for case in rule_cases() {
        let flags = validate_flags(&case.file.options, &case.code);
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        for side in SIDES {
            let label = format!("{}/{side}", case.code);
            let (code, json) = plugforge(&flags, &case.dir.join(side), &label);
            let expected = case.expected(side).unwrap_or_else(|| panic!("{label}: missing {side}.json"));
            assert_eq!(json["report"], expected, "{label}: report differs from {side}.json");
            let valid = expected["valid"].as_bool().expect("valid");
            assert_eq!(json["ok"], valid, "{label}: ok");
            assert_eq!(code, if valid { 0 } else { 1 }, "{label}: exit code");
            ran.push(label);
        }
    }
    plugforge_conformance::record_suite("cli", "rules", &ran);
}
