//! Acceptance: nothing a user or a plugin names reaches a shell as code.
//! A namespace is refused unless it is letters, digits, `.`, `_` and `-`
//! (from `--namespace` and from the plugin's own `plugforge.json`, named
//! with its line), and every path plugforge writes into a hook command is
//! double-quoted, so the hook runs from a project folder whose path holds
//! spaces, `;` and `$(...)`, and runs nothing else.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use common::*;

const HOSTILE: &str = "x$(touch${IFS}PWNED)";

/// canonical-full with a guard hook that leaves a mark where it runs.
fn source(tmp: &TempDir) -> std::path::PathBuf {
    let src = tmp.join("src");
    copy_dir(&repo_root().join("tests/vectors/canonical-full/input"), &src);
    write(&src, "hooks/guard.sh", "#!/bin/sh\necho ran > hook-ran\n");
    let script = src.join("hooks/guard.sh");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    src
}

fn no_pwned_below(root: &Path) {
    let found: Vec<String> = files(root).into_iter().filter(|f| f.ends_with("PWNED")).collect();
    assert!(found.is_empty(), "a shell ran the injected command: {found:?}");
    assert!(!Path::new("PWNED").exists());
}

#[test]
fn a_hostile_namespace_is_refused_from_the_flag_and_from_plugforge_json_with_its_line() {
    let tmp = TempDir::new("inject-ns");
    let src = source(&tmp);
    for target in ["claude-code:project", "codex:project", "gemini:project", "claude-code"] {
        let out = tmp.join("out-flag");
        let r =
            run(&["build", s(&src), "--target", target, "--namespace", HOSTILE, "--out", s(&out), "--json"]);
        assert_eq!(r.code, 2, "{target}: an option is a usage error: {}", r.stdout);
        let report = r.json();
        let (code, problem) = error(&report);
        assert_eq!(code, "invalid_options", "{problem}");
        let message = problem["message"].as_str().unwrap();
        assert!(
            message.starts_with("namespace \"x$(touch${IFS}PWNED)\" must be letters, digits"),
            "{message}"
        );
        assert!(message.ends_with("(the namespace option)"), "{message}");
        assert!(!out.exists(), "nothing is written");
    }

    let config = std::fs::read_to_string(src.join("plugforge.json")).unwrap();
    let value: Value = serde_json::from_str(&config).unwrap();
    let mut value = value.as_object().unwrap().clone();
    value.insert("namespace".into(), HOSTILE.into());
    let text = serde_json::to_string_pretty(&value).unwrap();
    let line = text.lines().position(|l| l.contains("\"namespace\"")).unwrap() + 1;
    write(&src, "plugforge.json", &text);
    let out = tmp.join("out-config");
    let r = run(&["build", s(&src), "--target", "claude-code:project", "--out", s(&out), "--json"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let report = r.json();
    let (code, problem) = error(&report);
    assert_eq!(code, "invalid_source", "{problem}");
    assert_eq!(problem["location"]["file"], "plugforge.json", "{problem}");
    assert_eq!(problem["location"]["line"], line, "{problem}");
    assert!(!out.exists(), "nothing is written");

    let r = run(&["uninstall", "--target", "claude-code:project", "--namespace", HOSTILE, "--out", s(&out)]);
    assert_eq!(r.code, 2, "uninstall refuses it as an option: {} {}", r.stdout, r.stderr);
    no_pwned_below(tmp.path());
}

/// The hook commands a project build wrote into `settings` (a JSON file
/// below `out`) for `event`.
fn hook_commands(out: &Path, settings: &str, event: &str) -> Vec<String> {
    let value = read_json(out, settings);
    let groups = value["hooks"][event].as_array().unwrap_or_else(|| panic!("{settings}: {value:#}"));
    groups
        .iter()
        .flat_map(|g| g["hooks"].as_array().unwrap().iter())
        .filter_map(|h| h["command"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn hook_commands_run_under_sh_from_a_hostile_project_path_and_run_nothing_else() {
    let tmp = TempDir::new("inject-path");
    let src = source(&tmp);
    // A project folder a shell would split, end and substitute if a path
    // plugforge wrote were left unquoted.
    let out = tmp.join("my project; touch PWNED $(touch PWNED) `touch PWNED`");
    let cases = [
        ("claude-code:project", ".claude/settings.json", "PreToolUse"),
        ("codex:project", ".codex/hooks.json", "PreToolUse"),
        ("gemini:project", ".gemini/settings.json", "BeforeTool"),
    ];
    for (target, settings, event) in cases {
        let r = run(&["build", s(&src), "--target", target, "--namespace", "dk", "--out", s(&out)]);
        assert_eq!(r.code, 0, "{target}: {}{}", r.stdout, r.stderr);
        let commands = hook_commands(&out, settings, event);
        let guard: Vec<&String> = commands.iter().filter(|c| c.contains("guard.sh")).collect();
        assert_eq!(guard.len(), 1, "{target}: {commands:?}");
        assert!(guard[0].starts_with('"') && guard[0].ends_with("/hooks/guard.sh\""), "{}", guard[0]);
        let _ = std::fs::remove_file(out.join("hook-ran"));
        // As the clients run a hook: `sh -c COMMAND` at the project root.
        let status = Command::new("sh")
            .args(["-c", guard[0]])
            .current_dir(&out)
            .env("CLAUDE_PROJECT_DIR", &out)
            .status()
            .unwrap();
        assert!(status.success(), "{target}: {} failed", guard[0]);
        assert_eq!(std::fs::read_to_string(out.join("hook-ran")).unwrap(), "ran\n", "{target}: the hook ran");
        no_pwned_below(tmp.path());
    }
}
