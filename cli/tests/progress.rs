//! The spinner a long run shows on a terminal: never on a pipe, never with
//! `--json`. A terminal is had from `script`, which runs the command on a
//! pseudo-terminal and copies what it prints; the spinner's delay is set to
//! nothing through a test hook, so no test depends on how fast a run is.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

const SHOW_AT_ONCE: (&str, &str) = ("PLUGFORGE_PROGRESS_AFTER_MS", "0");

fn tiny_source(src: &Path) {
    write(
        src,
        "plugforge.json",
        "{\"name\": \"mini\", \"version\": \"1.0.0\", \"description\": \"A tiny plugin\"}\n",
    );
    write(src, "skills/hello/SKILL.md", "---\nname: hello\ndescription: Says hello\n---\nSay hello.\n");
}

/// `plugforge ARGS` on a pseudo-terminal (stdout and stderr both), colours
/// allowed: the exit code and everything it printed, line ends as written.
fn on_terminal(args: &[&str]) -> (i32, String) {
    let command: Vec<String> =
        std::iter::once(env!("CARGO_BIN_EXE_plugforge")).chain(args.iter().copied()).map(quoted).collect();
    let output = Command::new("script")
        .args(["--quiet", "--return", "--command", &command.join(" "), "/dev/null"])
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .env(SHOW_AT_ONCE.0, SHOW_AT_ONCE.1)
        .output()
        .expect("run script (util-linux)");
    let text = String::from_utf8_lossy(&output.stdout).replace("\r\n", "\n");
    (output.status.code().expect("exited"), text)
}

/// The spinner's frames (each ends with a carriage return and erase-line) and what follows them.
fn spinner_frames(text: &str) -> (Vec<&str>, &str) {
    let mut frames: Vec<&str> = text.split("\r\x1b[2K").collect();
    let printed = frames.pop().unwrap_or_default();
    (frames, printed)
}

fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Runs piped, with the spinner asked to show at once.
fn piped(args: &[&str]) -> Run {
    run_command(
        Command::new(env!("CARGO_BIN_EXE_plugforge"))
            .args(args)
            .env("SOURCE_DATE_EPOCH", EPOCH)
            .env(SHOW_AT_ONCE.0, SHOW_AT_ONCE.1),
    )
}

#[test]
fn a_terminal_sees_the_spinner_name_each_step() {
    let tmp = TempDir::new("progress-tty");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    let (code, text) = on_terminal(&["build", s(&src), "--target", "claude-code", "--out", s(&out)]);
    assert_eq!(code, 0, "{text}");
    // The spinner draws at most a few times a second, so a quick step may be
    // overwritten before it is drawn; each frame drawn names one of the steps.
    let (frames, printed) = spinner_frames(&text);
    let steps = [
        format!("reading {}", s(&src)),
        format!("working on 2 files from {}", s(&src)),
        format!("reading what is in {}", s(&out)),
        format!("planning against 0 files in {}", s(&out)),
        format!("writing 5 files below {}", s(&out)),
    ];
    assert!(!frames.is_empty(), "no spinner in {text:?}");
    for frame in &frames {
        assert!(steps.iter().any(|step| frame.contains(&format!(" {step} ("))), "{frame:?}");
    }
    assert!(printed.starts_with("warning[missing_metadata]: "), "{printed:?}");
    // Cleared before the plan is printed: the plan's lines are whole.
    assert!(text.contains("\nplan: 5 create, 0 update, 0 unchanged"), "{text:?}");

    let (code, text) = on_terminal(&["validate", s(&src)]);
    assert_eq!(code, 0, "{text}");
    let (frames, printed) = spinner_frames(&text);
    assert!(
        frames.iter().all(|f| f.contains(&format!(" from {} (", s(&src))) || f.contains("reading ")),
        "{frames:?}"
    );
    assert!(!frames.is_empty(), "{text:?}");
    assert!(printed.starts_with(&format!("  source {} for every targeted runtime", s(&src))), "{printed:?}");
}

#[test]
fn json_on_a_terminal_prints_only_the_report() {
    let tmp = TempDir::new("progress-json");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    let (code, text) =
        on_terminal(&["build", s(&src), "--target", "claude-code", "--out", s(&out), "--json"]);
    assert_eq!(code, 0, "{text}");
    let report: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    assert_eq!(report["applied"], true);
    assert!(!text.contains("reading "), "{text:?}");
}

#[test]
fn a_pipe_gets_the_normal_output_and_nothing_else() {
    let tmp = TempDir::new("progress-pipe");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    let o = s(&out);
    let r = piped(&["build", s(&src), "--target", "claude-code", "--out", o]);
    r.expect(0);
    assert_eq!(
        r.stdout,
        format!(
            "honesty: 1 of 1 components fully supported
  create   {o}/claude-code/.claude-plugin/plugin.json
  create   {o}/claude-code/README.md
  create   {o}/claude-code/skills/hello/SKILL.md
  create   {o}/.claude-plugin/marketplace.json
  create   {o}/claude-code/.plugforge-manifest.json
plan: 5 create, 0 update, 0 unchanged, 0 conflict, 0 remove, 0 keep (5 writes)
"
        )
    );
    assert_eq!(
        r.stderr,
        "warning[missing_metadata]: plugforge.json: no author: `claude plugin validate --strict` rejects a plugin without one\n"
    );

    let r = piped(&["build", s(&src), "--target", "claude-code", "--out", o, "--json"]);
    r.expect(0);
    assert_eq!(r.json()["plan"]["summary"]["unchanged"], 5);
    assert_eq!(r.stderr, "");

    let r = piped(&["validate", s(&src), "--json"]);
    assert_eq!(r.stderr, "");
    assert_eq!(r.json()["ok"], true);
}

#[test]
fn a_diff_on_a_terminal_is_coloured() {
    let tmp = TempDir::new("progress-colour");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    let (code, text) =
        on_terminal(&["build", s(&src), "--target", "claude-code", "--out", s(&out), "--dry-run", "--diff"]);
    assert_eq!(code, 0, "{text}");
    let skill = format!("{}/claude-code/skills/hello/SKILL.md", s(&out));
    let expected = format!(
        "\x1b[1m--- /dev/null\x1b[0m\n\x1b[1m+++ {skill}\x1b[0m\n\x1b[36m@@ -0,0 +1,5 @@\x1b[0m\n\x1b[32m+---\x1b[0m\n"
    );
    assert!(text.contains(&expected), "{text:?}");
}
