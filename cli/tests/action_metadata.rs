//! The composite GitHub Action at the repository root: its `action.yml` is
//! valid against the published schema for action metadata (SchemaStore's,
//! committed under tests/schemas), and its steps really install plugforge
//! from the action's own copy and run `plugforge build --check`. The shell
//! scripts of those steps are run here, as the runner would run them.

mod common;
mod schemas;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde_json::Value;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn action() -> Value {
    schemas::yaml_file("action.yml")
}

fn schema_errors(instance: &Value) -> Vec<String> {
    schemas::schema_errors("github-action.json", instance)
}

fn steps(action: &Value) -> &Vec<Value> {
    action["runs"]["steps"].as_array().expect("runs.steps")
}

/// The `run` script of the one step whose script contains `needle`.
fn script_with(action: &Value, needle: &str) -> String {
    let scripts: Vec<&str> =
        steps(action).iter().filter_map(|s| s["run"].as_str()).filter(|r| r.contains(needle)).collect();
    assert_eq!(scripts.len(), 1, "steps running {needle:?}: {scripts:?}");
    scripts[0].to_string()
}

#[test]
fn action_yml_is_valid_github_action_metadata() {
    let action = action();
    assert_eq!(schema_errors(&action), Vec::<String>::new());
    assert_eq!(action["runs"]["using"], "composite");
    let inputs: Vec<&str> = action["inputs"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(inputs, ["source", "target", "out", "args", "verify"]);
    assert_eq!(action["inputs"]["verify"]["default"], "false");
    assert_eq!(action["inputs"]["target"]["default"], "all");
    assert_eq!(action["inputs"]["source"]["default"], ".");

    // The schema is really applied: the same file without `runs.using` fails it.
    let mut broken = action.clone();
    broken["runs"].as_object_mut().unwrap().remove("using");
    assert!(!schema_errors(&broken).is_empty());
}

#[test]
fn the_steps_install_plugforge_from_the_actions_own_copy_and_run_build_check() {
    let action = action();
    let install = script_with(&action, "cargo install");
    assert!(
        install.contains("--locked") && install.contains("--path \"$GITHUB_ACTION_PATH/cli\""),
        "{install}"
    );
    let cache =
        steps(&action).iter().find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/cache@")));
    assert_eq!(cache.expect("a cache step")["with"]["path"], "~/.cache/plugforge-action");
    let check = script_with(&action, "plugforge build");
    assert!(check.contains("--check"), "{check}");
    // No input is pasted into a script: each arrives as a variable.
    for step in steps(&action) {
        let run = step["run"].as_str().unwrap_or_default();
        assert!(!run.contains("${{"), "an expression inside a script: {run}");
    }
}

/// Runs a step's script as the runner does (`bash -eo pipefail`), the freshly
/// built plugforge first on PATH.
fn run_step(script: &str, env: &[(&str, &str)]) -> Run {
    let bin = Path::new(env!("CARGO_BIN_EXE_plugforge")).parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    run_command(
        Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .env("PATH", path)
            .env("SOURCE_DATE_EPOCH", EPOCH)
            .envs(env.iter().copied()),
    )
}

#[test]
fn the_check_step_fails_on_stale_bundles_and_passes_on_current_ones() {
    let check = script_with(&action(), "plugforge build");
    let tmp = TempDir::new("action-check");
    let out = tmp.join("out");
    let inputs = |out: &str, args: &'static str| {
        [
            ("PLUGFORGE_SOURCE", s(&striatum()).to_string()),
            ("PLUGFORGE_TARGET", "claude-code".to_string()),
            ("PLUGFORGE_OUT", out.to_string()),
            ("PLUGFORGE_ARGS", args.to_string()),
        ]
    };
    let env = inputs(s(&out), "--diff --verbose");
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();

    let stale = run_step(&check, &env);
    stale.expect(1);
    assert!(stale.stdout.contains(&format!("+++ {}/{}\n", s(&out), STRIATUM_BUNDLE[0])), "{}", stale.stdout);
    assert!(stale.stderr.contains("check: the outputs are not current"), "{}", stale.stderr);
    assert!(!out.exists(), "the check wrote");

    build(&striatum(), &out, &[]).expect(0);
    let current = run_step(&check, &env);
    current.expect(0);
    assert!(current.stdout.ends_with("check: the outputs are current\n"), "{}", current.stdout);
    // --verbose from `args` reached plugforge: unchanged files are listed.
    assert!(current.stdout.contains("  same     "), "{}", current.stdout);

    // No `out`: the default output root, SOURCE/dist, which the example does not have.
    let env = inputs("", "");
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let default_out = run_step(&check, &env);
    default_out.expect(1);
    let dist = format!("{}/dist/{}", s(&striatum()), STRIATUM_BUNDLE[0]);
    assert!(default_out.stdout.contains(&format!("  create   {dist}\n")), "{}", default_out.stdout);
}

#[test]
fn the_cache_key_is_the_digest_of_the_sources_plugforge_is_built_from() {
    let script = script_with(&action(), "GITHUB_OUTPUT");
    let tmp = TempDir::new("action-key");
    let output = tmp.join("github_output");
    let root = repository();
    let env = [
        ("GITHUB_ACTION_PATH", s(&root)),
        ("GITHUB_OUTPUT", s(&output)),
        ("RUNNER_OS", "Linux"),
        ("RUNNER_ARCH", "X64"),
    ];
    run_step(&script, &env).expect(0);
    let first = std::fs::read_to_string(&output).unwrap();
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 2, "{first}");
    for (line, prefix) in
        lines.iter().zip(["key=plugforge-Linux-X64-", "clients=plugforge-clients-Linux-X64-"])
    {
        let digest = line.strip_prefix(prefix).unwrap_or_else(|| panic!("{first:?}"));
        assert_eq!(digest.len(), 16, "{first}");
        assert!(digest.bytes().all(|b| b.is_ascii_hexdigit()), "{first}");
    }
    run_step(&script, &env).expect(0);
    assert_eq!(std::fs::read_to_string(&output).unwrap(), format!("{first}{first}"), "the key is stable");
}

#[test]
fn the_verify_step_runs_verify_on_the_checked_output_root_after_installing_the_clients() {
    let action = action();
    let script = script_with(&action, "plugforge verify");
    let step = steps(&action).iter().find(|s| s["run"].as_str() == Some(script.as_str())).unwrap();
    assert_eq!(step["if"], "inputs.verify == 'true'");
    let cache = steps(&action)
        .iter()
        .find(|s| s["with"]["path"] == "~/.cache/plugforge/clients")
        .expect("a cache step for the clients");
    assert_eq!(cache["if"], "inputs.verify == 'true'");
    assert_eq!(cache["with"]["key"], "${{ steps.install-key.outputs.clients }}");
    // A stand-in plugforge prints the arguments the step passes.
    let tmp = TempDir::new("action-verify");
    write(tmp.path(), "bin/plugforge", "#!/bin/sh\nprintf '%s\\n' \"$@\"\n");
    std::fs::set_permissions(tmp.join("bin/plugforge"), std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap();
    let path = std::env::join_paths(
        std::iter::once(tmp.join("bin")).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let args = |target: &str, out: &str| {
        let run = run_command(
            Command::new("bash")
                .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
                .env("PATH", &path)
                .env("PLUGFORGE_SOURCE", "plugin")
                .env("PLUGFORGE_TARGET", target)
                .env("PLUGFORGE_OUT", out),
        );
        run.expect(0);
        run.stdout.lines().map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(args("all", ""), ["verify", "plugin/dist", "--install"]);
    assert_eq!(
        args("claude-code:plugin,codex,openclaw:compatible-bundle", "built"),
        ["verify", "built", "--install", "--target", "claude-code,codex,openclaw"]
    );
}
