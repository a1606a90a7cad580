//! Every golden vector through the `plugforge` binary: the case's options
//! become flags, its output root is compared file by file with `expected/`
//! and its `--json` honesty rows and diagnostics with report.json, and error
//! cases must exit non-zero with the vector's code and location.

use std::path::Path;
use std::process::Command;

use plugforge_conformance::{Case, cases, read_files};
use serde_json::Value;

/// `YYYY-MM-DDTHH:MM:SSZ` -> seconds since the epoch (for SOURCE_DATE_EPOCH).
fn epoch_seconds(stamp: &str) -> i64 {
    let number = |range: std::ops::Range<usize>| stamp[range].parse::<i64>().expect("numeric date field");
    let (y, m, d) = (number(0..4), number(5..7), number(8..10));
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    days * 86_400 + number(11..13) * 3600 + number(14..16) * 60 + number(17..19)
}

/// The case's build options as command-line flags; options the CLI cannot
/// express fail the test rather than skip the vector.
fn flags(case: &Case) -> Vec<String> {
    let options = &case.file.options;
    let mut args = Vec::new();
    for (key, value) in options.as_object().cloned().unwrap_or_default() {
        match key.as_str() {
            "targets" => {
                for target in value.as_array().expect("targets list") {
                    let runtime = target["runtime"].as_str().expect("runtime");
                    let flag = match target["kind"].as_str() {
                        Some(kind) => format!("{runtime}:{kind}"),
                        None => runtime.to_string(),
                    };
                    args.extend(["--target".to_string(), flag]);
                }
            }
            "vars" => {
                for (name, v) in value.as_object().expect("vars map") {
                    args.extend(["--var".to_string(), format!("{name}={}", v.as_str().expect("string var"))]);
                }
            }
            "namespace" => args.extend(["--namespace".into(), value.as_str().expect("namespace").into()]),
            "scope" => args.extend(["--scope".into(), value.as_str().expect("scope").into()]),
            "manifestName" => args.extend(["--manifest-name".into(), value.as_str().expect("name").into()]),
            "marketplace" if value == Value::Bool(false) => args.push("--no-marketplace".into()),
            "marketplace" => {}
            "allowUrls" => {
                for prefix in value.as_array().expect("allowUrls list") {
                    args.extend(["--allow-url".to_string(), prefix.as_str().expect("prefix").to_string()]);
                }
            }
            other => panic!("{}: option {other:?} has no command-line flag", case.name),
        }
    }
    args
}

fn run(case: &Case, out: &Path) -> (i32, Value) {
    let output = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .arg("build")
        .arg(case.source_dir())
        .arg("--out")
        .arg(out)
        .arg("--json")
        .args(flags(case))
        .env("SOURCE_DATE_EPOCH", epoch_seconds(&case.file.generated_at).to_string())
        .output()
        .expect("run plugforge");
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{}: stdout is not JSON ({e}): {}", case.name, String::from_utf8_lossy(&output.stdout))
    });
    (output.status.code().expect("exit code"), json)
}

/// `--json`'s honesty rows (every bundle's, in order), diagnostics (the
/// output's, then every bundle's) and failures are the blessed report.json.
fn check_report(case: &Case, json: &Value) {
    let want = case.expected_report().unwrap_or_else(|| panic!("{}: no report.json", case.name));
    let bundles = want["bundles"].as_array().expect("bundles");
    let honesty: Vec<&Value> =
        bundles.iter().flat_map(|b| b["honesty"].as_array().expect("honesty")).collect();
    let diagnostics: Vec<&Value> = want["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .chain(bundles.iter().flat_map(|b| b["diagnostics"].as_array().expect("diagnostics")))
        .collect();
    assert_eq!(
        json["honesty"].as_array().map(|a| a.iter().collect()),
        Some(honesty),
        "{}: honesty",
        case.name
    );
    assert_eq!(
        json["diagnostics"].as_array().map(|a| a.iter().collect()),
        Some(diagnostics),
        "{}: diagnostics",
        case.name
    );
    assert_eq!(json["failures"], want["failures"], "{}: failures", case.name);
}

#[test]
fn every_vector_through_the_binary() {
    let all = cases();
    let scratch = std::env::temp_dir().join(format!("plugforge-vectors-cli-{}", std::process::id()));
    let mut ran = Vec::new();
    for case in &all {
        let out = scratch.join(&case.name);
        let _ = std::fs::remove_dir_all(&out);
        let (code, json) = run(case, &out);
        match case.expected_error() {
            Some(expected) => {
                assert_ne!(code, 0, "{}: expected {}", case.name, expected.code);
                assert_eq!(json["error"]["code"], expected.code, "{}: {json}", case.name);
                let message = json["error"]["message"].as_str().expect("message");
                assert!(message.contains(&expected.message_contains), "{}: {message}", case.name);
                let location = &json["error"]["problems"][0]["location"];
                assert_eq!(location["file"].as_str().map(str::to_string), expected.file, "{}", case.name);
                assert_eq!(location["line"].as_u64().map(|l| l as usize), expected.line, "{}", case.name);
                assert!(!out.exists(), "{}: a refused build wrote files", case.name);
            }
            None => {
                assert_eq!(code, 0, "{}: {json}", case.name);
                let produced = read_files(&out);
                let expected = read_files(&case.dir.join("expected"));
                assert_eq!(
                    produced.keys().collect::<Vec<_>>(),
                    expected.keys().collect::<Vec<_>>(),
                    "{}",
                    case.name
                );
                for (path, file) in &produced {
                    assert!(file == &expected[path], "{}: {path} differs from expected", case.name);
                }
                check_report(case, &json);
            }
        }
        ran.push(case.name.clone());
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert_eq!(ran.len(), all.len());
    plugforge_conformance::record_host("cli", &ran);
}
