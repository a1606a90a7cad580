//! `--strict` refuses a build with any degraded or unsupported component
//! before anything is written, and names the rows in `--json`.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

#[test]
fn strict_refuses_before_writing() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/striatum");
    let out = std::env::temp_dir().join(format!("plugforge-strict-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_plugforge"))
            .arg("build")
            .arg(&source)
            .args(["--target", "claude-code", "--var", "runner_version=0.7.3", "--json", "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .expect("run plugforge")
    };
    let refused = run(&["--strict"]);
    assert_eq!(refused.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&refused.stdout).expect("JSON");
    assert_eq!(report["refused"], true);
    assert_eq!(report["applied"], false);
    let unsupported: Vec<&Value> =
        report["honesty"].as_array().expect("rows").iter().filter(|r| r["level"] != "supported").collect();
    assert_eq!(unsupported.len(), 1, "{unsupported:?}");
    assert_eq!(
        (unsupported[0]["component"].as_str(), unsupported[0]["name"].as_str()),
        (Some("context"), Some("AGENTS.md"))
    );
    assert!(!out.exists(), "a strict refusal wrote files");

    let allowed = run(&[]);
    assert_eq!(allowed.status.code(), Some(0));
    assert!(out.join("claude-code/.claude-plugin/plugin.json").is_file());
    let _ = std::fs::remove_dir_all(&out);
}
