//! A plugin's icon reaches the clients that show one: Claude Code 2.1.332's
//! plugin directory checks find it (no ICON_MISSING), and Codex resolves
//! the bundle's `interface.logo` and `composerIcon` to the file. Needs
//! PLUGFORGE_CLAUDE_BIN and PLUGFORGE_CODEX_BIN; a missing client fails the
//! test unless it is skipped by name (PLUGFORGE_SKIP_CLIENTS).

mod clients;

use std::path::PathBuf;
use std::process::Command;

use clients::judge::{judge, repo_root};

#[test]
fn the_icon_of_a_plugin_is_found_by_claude_code_and_codex() {
    let claude = clients::client("PLUGFORGE_CLAUDE_BIN");
    let codex = clients::client("PLUGFORGE_CODEX_BIN");
    // Codex refuses helper binaries below /tmp: stay under the home cache.
    let home = std::env::var("HOME").expect("HOME");
    let out = PathBuf::from(home).join(format!(".cache/plugforge/scratch/icon-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .arg("build")
        .arg(repo_root().join("tests/vectors/claude-plugin-icon/input"))
        .args(["--target", "claude-code,codex", "--out"])
        .arg(&out)
        .status()
        .expect("run plugforge");
    assert!(status.success(), "the build failed");
    let root = out.to_str().expect("UTF-8 path");

    if let Some(claude) = claude {
        let plugin_dir = out.join("claude-code");
        let report = judge(
            "claude_inventory.py",
            &["--claude", &claude, "--plugin-dir", plugin_dir.to_str().unwrap()],
        );
        let validated = &report["validate_plugin"];
        assert_eq!(validated["exit"], 0, "{validated}");
        let output = validated["output"].as_str().expect("validate output");
        assert!(!output.contains("ICON_MISSING") && !output.contains("ICON_INVALID"), "{output}");
    }
    if let Some(codex) = codex {
        let report = judge(
            "codex_inventory.py",
            &["--codex", &codex, "plugin", "--marketplace-root", root, "--plugin", "ic"],
        );
        let interface = &report["read"]["interface"];
        for field in ["logo", "composerIcon"] {
            let path = interface[field].as_str().unwrap_or_else(|| panic!("no {field}: {interface}"));
            assert!(path.ends_with("/codex/assets/icon.png"), "{field}: {path}");
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}
