//! `--target all` on the Striatum example: every runtime's bundle in one
//! output root, one marketplace root that both the real Claude Code and the
//! real Codex accept, and every generated SKILL.md valid for the Agent
//! Skills reference validator. Needs PLUGFORGE_CLAUDE_BIN, PLUGFORGE_CODEX_BIN
//! and PLUGFORGE_SKILLS_REF_BIN; a missing client fails the test unless it
//! is skipped by name (PLUGFORGE_SKIP_CLIENTS).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn client(var: &str) -> Option<String> {
    clients::client(var)
}

/// Runs a client driver and parses the one JSON object it prints.
fn driver(script: &str, args: &[&str]) -> Value {
    clients::judge::judge(script, args)
}

/// Every folder below `root` that directly holds `<name>/SKILL.md` folders.
fn skills_folders(root: &Path, found: &mut BTreeSet<PathBuf>) {
    for entry in std::fs::read_dir(root).expect("readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            if path.join("SKILL.md").is_file() {
                found.insert(path.parent().expect("has parent").to_path_buf());
            } else {
                skills_folders(&path, found);
            }
        }
    }
}

#[test]
fn target_all_writes_every_bundle_and_one_marketplace_root_claude_and_codex_accept() {
    let (Some(claude), Some(codex), Some(skills_ref)) =
        (client("PLUGFORGE_CLAUDE_BIN"), client("PLUGFORGE_CODEX_BIN"), client("PLUGFORGE_SKILLS_REF_BIN"))
    else {
        return;
    };
    // Codex refuses helper binaries below /tmp: stay under the home cache.
    let home = std::env::var("HOME").expect("HOME");
    let out = PathBuf::from(home).join(format!(".cache/plugforge/scratch/target-all-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .arg("build")
        .arg(repo_root().join("examples/striatum"))
        .args(["--target", "all", "--var", "runner_version=0.7.3", "--out"])
        .arg(&out)
        .status()
        .expect("run plugforge");
    assert!(status.success(), "--target all failed");

    for root in [
        "claude-code",
        "codex",
        "gemini",
        "cursor",
        "agent-plugins",
        "openclaw",
        "hermes",
        "antigravity",
        "generic",
    ] {
        let manifest = out.join(root).join(".plugforge-manifest.json");
        assert!(manifest.is_file(), "no {root} bundle at {}", manifest.display());
    }
    assert!(out.join(".opencode/skills/striatum-workflow/SKILL.md").is_file(), "no opencode project files");
    for marketplace in [
        ".claude-plugin/marketplace.json",
        ".agents/plugins/marketplace.json",
        ".cursor-plugin/marketplace.json",
    ] {
        assert!(out.join(marketplace).is_file(), "no {marketplace}");
    }

    let out_str = out.to_str().expect("UTF-8 path");
    let plugin_dir = out.join("claude-code");
    let claude_report = driver(
        "claude_inventory.py",
        &[
            "--claude",
            &claude,
            "--plugin-dir",
            plugin_dir.to_str().unwrap(),
            "--marketplace-root",
            out_str,
            "--plugin",
            "striatum",
        ],
    );
    for step in ["validate_plugin", "validate_marketplace"] {
        let result = &claude_report[step];
        assert_eq!(
            (result["exit"].as_i64(), result["warnings"].as_i64()),
            (Some(0), Some(0)),
            "{step}: {}",
            result["output"]
        );
    }
    for step in ["marketplace_add", "install"] {
        assert_eq!(claude_report[step]["exit"], 0, "claude {step}: {}", claude_report[step]["output"]);
    }
    assert_eq!(
        claude_report["details"]["skills"].as_array().map(Vec::len),
        Some(10),
        "{}",
        claude_report["details"]["raw"]
    );

    let codex_report = driver(
        "codex_inventory.py",
        &["--codex", &codex, "plugin", "--marketplace-root", out_str, "--plugin", "striatum"],
    );
    for step in ["marketplace_add", "add"] {
        assert_eq!(codex_report[step]["exit"], 0, "codex {step}: {}", codex_report[step]);
    }
    assert_eq!(codex_report["read"]["skills"].as_array().map(Vec::len), Some(5), "{}", codex_report["read"]);

    let mut folders = BTreeSet::new();
    skills_folders(&out, &mut folders);
    assert!(folders.len() >= 8, "skills folders found: {folders:?}");
    let mut args = vec!["--skills-ref".to_string(), skills_ref];
    args.extend(folders.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let report = driver("skills_ref_validate.py", &args);
    let skills = report["skills"].as_object().expect("skills map");
    assert!(skills.len() >= 40, "validated {} skills", skills.len());
    for (dir, result) in skills {
        assert_eq!(result["exit"], 0, "skills-ref rejects {dir}: {}", result["output"]);
    }
    let _ = std::fs::remove_dir_all(&out);
}
