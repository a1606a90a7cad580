//! The real-client rule (clients/mod.rs): a test whose client is missing
//! fails unless that client is skipped by name in `PLUGFORGE_SKIP_CLIENTS`.
//! Shown on the decision itself and on a real test process: this binary
//! runs its own ignored `probe` test with the environment a CI machine
//! without Claude Code would have.

mod clients;

use std::process::Command;

use clients::{SKIP_VAR, decide, name_of};

#[test]
fn client_names_are_the_install_names() {
    assert_eq!(name_of("PLUGFORGE_CLAUDE_BIN"), "claude");
    assert_eq!(name_of("PLUGFORGE_SKILLS_REF_BIN"), "skills-ref");
    assert_eq!(name_of("PLUGFORGE_OPENCLAW_BIN"), "openclaw");
}

#[test]
fn a_missing_client_fails_unless_skipped_by_its_own_name() {
    let var = "PLUGFORGE_CLAUDE_BIN";
    let missing = "/nonexistent/claude";
    for bin in [None, Some(""), Some(missing)] {
        let error = decide(var, bin, None).expect_err("missing and not skipped");
        assert!(error.contains(var) && error.contains("PLUGFORGE_SKIP_CLIENTS=claude"), "{error}");
        // Another client's name, or a name that merely contains it, is no skip.
        for skip in ["hermes,openclaw", "claude-code", "", "1"] {
            assert!(decide(var, bin, Some(skip)).is_err(), "{skip:?} skipped claude");
        }
        assert_eq!(decide(var, bin, Some("hermes, claude")), Ok(None));
    }
    let present = std::env::current_exe().unwrap();
    let present = present.to_str().unwrap();
    assert_eq!(decide(var, Some(present), None), Ok(Some(present.to_string())));
    assert_eq!(decide(var, Some(present), Some("claude")), Ok(Some(present.to_string())), "present: run it");
}

/// Runs only when the test below starts it.
#[test]
#[ignore = "started by a_test_process_without_its_client_fails_unless_it_is_skipped"]
fn probe() {
    let bin = clients::client("PLUGFORGE_CLAUDE_BIN");
    println!("probe ran with {bin:?}");
}

fn run_probe(skip: Option<&str>) -> (i32, String) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args(["--ignored", "--exact", "probe", "--nocapture", "--test-threads=1"]);
    command.env("PLUGFORGE_CLAUDE_BIN", "/nonexistent/claude").env_remove(SKIP_VAR);
    if let Some(skip) = skip {
        command.env(SKIP_VAR, skip);
    }
    let output = command.output().expect("the test binary runs");
    let text =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.code().unwrap_or(-1), text)
}

#[test]
fn a_test_process_without_its_client_fails_unless_it_is_skipped() {
    let (code, text) = run_probe(None);
    assert_eq!(code, 101, "a missing client must fail the test:\n{text}");
    assert!(text.contains("PLUGFORGE_CLAUDE_BIN is not set to a binary"), "{text}");
    assert!(text.contains("test result: FAILED"), "{text}");

    let (code, text) = run_probe(Some("hermes,openclaw"));
    assert_eq!(code, 101, "skipping other clients does not skip claude:\n{text}");

    let (code, text) = run_probe(Some("hermes,claude"));
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("skipping: claude is listed in PLUGFORGE_SKIP_CLIENTS"), "{text}");
    assert!(text.contains("probe ran with None") && text.contains("test result: ok. 1 passed"), "{text}");
}
