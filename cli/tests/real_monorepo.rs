//! A monorepo of ten real-world plugins, built in one command into one output
//! root: the real Claude Code, Codex and Copilot CLI each add the root as a
//! marketplace and list every plugin of it. Needs PLUGFORGE_CLAUDE_BIN,
//! PLUGFORGE_CODEX_BIN and PLUGFORGE_COPILOT_BIN; a missing client fails the
//! test unless it is skipped by name (PLUGFORGE_SKIP_CLIENTS).

mod clients;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Units of tests/conformance/realworld and the plugin name each is listed as.
const MEMBERS: [(&str, &str); 10] = [
    ("superpowers", "superpowers"),
    ("cpo-pr-review-toolkit", "pr-review-toolkit"),
    ("cpo-commit-commands", "commit-commands"),
    ("cpo-hookify", "hookify"),
    ("cpo-security-guidance", "security-guidance"),
    ("cpo-code-review", "code-review"),
    ("cpo-plugin-dev", "plugin-dev"),
    ("cpo-frontend-design", "frontend-design"),
    ("codex-context7", "context7"),
    ("gemini-security", "gemini-cli-security"),
];

/// Members with nothing Codex loads (commands and agents alone).
const CODEX_HAS_NOTHING: [&str; 2] = ["pr-review-toolkit", "commit-commands"];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// A fresh HOME for one client, so nothing of the machine's is read.
fn home(scratch: &Path, client: &str) -> PathBuf {
    let home = scratch.join(format!("home-{client}"));
    std::fs::create_dir_all(home.join("cache")).expect("create home");
    home
}

fn run(bin: &str, home: &Path, args: &[&str]) -> Output {
    let output = Command::new(bin)
        .args(args)
        .current_dir(home)
        .env("HOME", home)
        .env("COPILOT_CACHE_HOME", home.join("cache"))
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_TOKEN")
        .env_remove("GH_TOKEN")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap_or_else(|e| panic!("run {bin}: {e}"));
    assert!(
        output.status.success(),
        "{bin} {args:?}: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn ten_real_world_plugins_in_one_marketplace_are_listed_in_full_by_each_real_client() {
    let claude = clients::client("PLUGFORGE_CLAUDE_BIN");
    let codex = clients::client("PLUGFORGE_CODEX_BIN");
    let copilot = clients::client("PLUGFORGE_COPILOT_BIN");
    // Codex refuses helper binaries below /tmp: stay under the home cache.
    let user_home = std::env::var("HOME").expect("HOME");
    let scratch =
        PathBuf::from(user_home).join(format!(".cache/plugforge/scratch/monorepo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let out = scratch.join("dist");
    let sources: Vec<PathBuf> = MEMBERS
        .iter()
        .map(|(unit, _)| repo_root().join("tests/conformance/realworld").join(unit).join("plugin"))
        .collect();
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .arg("build")
        .args(&sources)
        .args(["--target", "all", "--out"])
        .arg(&out)
        .status()
        .expect("run plugforge");
    assert!(status.success(), "the monorepo build failed");
    let root = out.to_str().expect("UTF-8 path");
    let mut expected: Vec<&str> = MEMBERS.iter().map(|(_, name)| *name).collect();
    expected.sort();

    if let Some(claude) = claude {
        let home = home(&scratch, "claude");
        run(&claude, &home, &["plugin", "marketplace", "add", root]);
        let listed = run(&claude, &home, &["plugin", "list", "--available", "--json"]);
        let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).expect("claude prints JSON");
        let mut names: Vec<&str> = listed["available"]
            .as_array()
            .expect("available plugins")
            .iter()
            .filter(|p| p["marketplaceName"] == "local-dist")
            .map(|p| p["name"].as_str().expect("a name"))
            .collect();
        names.sort();
        assert_eq!(names, expected, "claude plugin list --available: {listed:#}");
    }
    if let Some(codex) = codex {
        let home = home(&scratch, "codex");
        run(&codex, &home, &["plugin", "marketplace", "add", root]);
        let listed = text(&run(&codex, &home, &["plugin", "list"]));
        // Plugins of commands and agents alone give Codex nothing to load
        // (it takes neither): listed by the build as not built, so neither
        // written nor in Codex's marketplace.
        for name in CODEX_HAS_NOTHING {
            assert!(!out.join("codex").join(name).exists(), "{name}: an empty Codex bundle was written");
            assert!(!listed.contains(&format!("{name}@local-dist")), "{name} is listed:\n{listed}");
        }
        for (_, name) in MEMBERS.iter().filter(|(_, name)| !CODEX_HAS_NOTHING.contains(name)) {
            let row = format!("{name}@local-dist");
            let line = listed.lines().find(|l| l.split_whitespace().next() == Some(row.as_str()));
            let line = line.unwrap_or_else(|| panic!("codex plugin list has no {row}:\n{listed}"));
            assert!(line.ends_with(&format!("/codex/{name}")), "{line}");
        }
    }
    if let Some(copilot) = copilot {
        let home = home(&scratch, "copilot");
        run(&copilot, &home, &["plugin", "marketplace", "add", root]);
        let listed = text(&run(&copilot, &home, &["plugin", "marketplace", "browse", "local-dist"]));
        let mut names: Vec<&str> = listed
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("• "))
            .map(|l| l.split(" - ").next().unwrap_or(l))
            .collect();
        names.sort();
        assert_eq!(names, expected, "copilot plugin marketplace browse:\n{listed}");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
