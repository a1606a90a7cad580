//! Acceptance: a source over a bound (a file too large, JSON or YAML nested
//! too deep, a template that loops) fails fast with the `limit` error code,
//! naming the file, and nothing is written.

mod common;

use std::fs;
use std::time::{Duration, Instant};

use serde_json::Value;

use common::*;

/// Builds `src` with `--json`: exit 1, code `limit`, the problem at `file`
/// (and `line`), within a few seconds, and no output folder.
fn refused_by_limit(tmp: &TempDir, file: &str, line: Option<u64>) -> Value {
    let src = tmp.join("src");
    let out = tmp.join("out");
    let started = Instant::now();
    let (code, report) = build_json(&src, &out, &[]);
    let took = started.elapsed();
    assert_eq!(code, 1, "{report:#}");
    let (actual, problem) = error(&report);
    assert_eq!(actual, "limit", "{report:#}");
    assert_eq!(problem["location"]["file"], file, "{report:#}");
    if let Some(line) = line {
        assert_eq!(problem["location"]["line"], line, "{report:#}");
    }
    assert!(!out.exists(), "nothing is written");
    assert!(took < Duration::from_secs(30), "refused in {took:?}");
    report
}

#[test]
fn a_source_file_over_the_size_limit_is_refused_without_being_read() {
    let tmp = TempDir::new("limit-size");
    let src = tmp.join("src");
    demo_source(&src, &[("skills/s/SKILL.md", "---\nname: s\ndescription: S.\n---\nGo.\n")]);
    // Sparse: 65 MiB long on paper, next to nothing on disk; the host reads
    // only its length before the engine refuses it.
    let big = fs::File::create(src.join("skills/s/huge.bin")).unwrap();
    big.set_len(65 << 20).unwrap();
    let report = refused_by_limit(&tmp, "skills/s/huge.bin", None);
    let message = report["error"]["message"].as_str().unwrap();
    assert_eq!(message, "skills/s/huge.bin: 68157440 bytes, over the 64 MiB one source file may hold");
}

/// Over the file-count bound, the source is counted before any name is
/// kept (folder by folder, each in name order), so the file named is the one
/// past the bound in that order: the same on every run and every host.
#[test]
fn a_source_over_the_file_count_is_refused_naming_the_same_file_every_run() {
    let tmp = TempDir::new("limit-count");
    let src = tmp.join("src");
    demo_source(&src, &[("skills/s/SKILL.md", "---\nname: s\ndescription: S.\n---\nGo.\n")]);
    // With plugforge.json and SKILL.md: one file over the 100,000 a source may hold.
    for i in 0..99_999 {
        let folder = src.join(format!("skills/s/f/{}", i / 1000));
        if i % 1000 == 0 {
            fs::create_dir_all(&folder).unwrap();
        }
        fs::File::create(folder.join(i.to_string())).unwrap();
    }
    // Folders 0..99 in name order ("0", "1", "10", ... "99"), then the names in
    // the last one ("99000" ... "99998"): the last file walked is the one past.
    for _ in 0..2 {
        let report = refused_by_limit(&tmp, "skills/s/f/99/99998", None);
        let message = report["error"]["message"].as_str().unwrap();
        assert_eq!(message, "skills/s/f/99/99998: the source holds more than 100000 files");
    }
}

#[test]
fn json_nested_past_the_limit_is_refused_at_its_line_and_column() {
    let tmp = TempDir::new("limit-json");
    let src = tmp.join("src");
    let deep = format!("{{\n  \"mcpServers\": {}\n}}\n", "[".repeat(100_000));
    demo_source(&src, &[(".mcp.json", &deep)]);
    let report = refused_by_limit(&tmp, ".mcp.json", Some(2));
    assert_eq!(report["error"]["problems"][0]["location"]["column"], 116, "{report:#}");
    let message = report["error"]["message"].as_str().unwrap();
    assert_eq!(message, ".mcp.json:2:116: JSON nested deeper than 100 levels");
}

#[test]
fn frontmatter_nested_past_the_limit_is_refused_not_a_crash() {
    let tmp = TempDir::new("limit-yaml");
    let src = tmp.join("src");
    let skill = format!("---\nname: s\ndescription: {}\n---\nGo.\n", "[".repeat(100_000));
    demo_source(&src, &[("skills/s/SKILL.md", &skill)]);
    refused_by_limit(&tmp, "skills/s/SKILL.md", Some(3));
}

/// Nine anchors, each aliasing the one before ten times: 10^9 nodes to a
/// reader that copies what an alias names, from 400 bytes.
fn alias_bomb(indent: &str) -> String {
    let mut text = format!("{indent}a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for level in 1..10 {
        let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
        text.push_str(&format!("{indent}a{level}: &a{level} [{aliases}]\n"));
    }
    text
}

#[test]
fn a_yaml_alias_bomb_in_frontmatter_is_refused_not_expanded() {
    let tmp = TempDir::new("limit-alias");
    let src = tmp.join("src");
    let skill = format!("---\nname: s\ndescription: Bomb.\nbomb:\n{}---\nGo.\n", alias_bomb("  "));
    demo_source(&src, &[("skills/s/SKILL.md", &skill)]);
    let report = refused_by_limit(&tmp, "skills/s/SKILL.md", Some(9));
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains("YAML aliases expand past 100000 nodes"), "{message}");
}

#[test]
fn a_yaml_alias_bomb_in_the_users_hermes_config_is_a_conflict_not_expanded() {
    let tmp = TempDir::new("limit-alias-config");
    let out = tmp.join("out");
    let config = format!("{}mcp_servers: {{}}\n", alias_bomb(""));
    write(&out, ".hermes/config.yaml", &config);
    let source = repo_root().join("tests/vectors/canonical-full/input");
    let started = Instant::now();
    let (code, report) =
        build_json(&source, &out, &["--target", "hermes", "--scope", "user", "--namespace", "dk", "--force"]);
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(code, 1, "{report:#}");
    let conflict = action(&report, ".hermes/config.yaml");
    assert_eq!(conflict["op"], "conflict", "{report:#}");
    let reason = conflict["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("limit: YAML aliases expand past 100000 nodes at line 5 column 45"),
        "{conflict}"
    );
    assert_eq!(fs::read_to_string(out.join(".hermes/config.yaml")).unwrap(), config, "left as it is");
}

#[cfg(target_os = "linux")]
#[test]
fn template_chains_and_doubling_strings_are_limit_errors_in_bounded_memory() {
    let cases = [
        (format!("{{{{ \"a\"{} }}}}", "|upper".repeat(50_000)), "more than 500 operators"),
        (format!("{{{{ plugin{} }}}}", ".name".repeat(100_000)), "more than 500 operators"),
        (format!("{{{{ 1{} }}}}", " + 1".repeat(100_000)), "more than 500 operators"),
        (
            format!(
                "{{% set s = \"abcdefghij\" * 1000 %}}{}{{{{ s|length }}}}",
                "{% set s = s + s %}".repeat(40)
            ),
            "template ran out of fuel",
        ),
    ];
    for (template, says) in cases {
        let tmp = TempDir::new("limit-template");
        let src = tmp.join("src");
        demo_source(&src, &[("commands/t.md.j2", &format!("---\ndescription: T.\n---\n{template}\n"))]);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_plugforge"))
            .args(["build", s(&src), "--target", "claude-code", "--out", s(&tmp.join("out")), "--json"])
            .env("SOURCE_DATE_EPOCH", EPOCH)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let peak_kib = peak_kib_until_exit(&mut child);
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(1), "exits 1, no crash: {says}");
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        let (code, problem) = error(&report);
        assert_eq!(code, "limit", "{report:#}");
        assert_eq!(problem["location"]["file"], "commands/t.md.j2", "{report:#}");
        assert_eq!(problem["location"]["line"], 4, "{report:#}");
        assert!(problem["message"].as_str().unwrap().contains(says), "{report:#}");
        assert!(peak_kib < 256 * 1024, "{says}: peak {peak_kib} KiB");
    }
}

/// 40,000 one-word keys took tens of megabytes to read and to rewrite for
/// each runtime: past the node bound, a frontmatter is refused where it
/// passes it; one at the bound builds, every key kept under `metadata`.
#[test]
fn a_frontmatter_past_the_node_bound_is_refused_and_one_at_it_builds() {
    let skill = |keys: usize| {
        let keys: String = (0..keys).map(|i| format!("k{i}: v{i}\n")).collect();
        format!("---\nname: s\ndescription: S.\n{keys}---\nGo.\n")
    };
    let tmp = TempDir::new("limit-keys");
    demo_source(&tmp.join("src"), &[("skills/s/SKILL.md", &skill(40_000))]);
    // The mapping, name and description are five nodes; each key two more:
    // the 4,998th key's value (line 5001) is node 10,001.
    let report = refused_by_limit(&tmp, "skills/s/SKILL.md", Some(5001));
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains("frontmatter with more than 10000 keys and values"), "{message}");

    let tmp = TempDir::new("limit-keys-at");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    demo_source(&src, &[("skills/s/SKILL.md", &skill(4_997))]);
    let r = common::run(&["build", s(&src), "--target", "opencode", "--out", s(&out)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let skill = fs::read_to_string(out.join(".opencode/skills/s/SKILL.md")).unwrap();
    assert!(
        skill.contains("metadata:\n  k0: v0\n") && skill.contains("  k4996: v4996\n"),
        "{}",
        &skill[..200]
    );
}

/// A template tag at the operator bound builds on a thread with Rust's
/// default 2 MiB stack (what a host's worker thread gets): the bound keeps
/// minijinja's recursion well inside it.
#[test]
fn a_template_tag_at_the_operator_bound_builds_on_a_small_stack() {
    let most = plugforge_core::limits::MAX_TEMPLATE_OPERATORS;
    let chains = [
        format!("{{{{ \"a\"{} }}}}", "|lower".repeat(most)),
        format!("{{{{ 1{} }}}}", " + 1".repeat(most)),
        format!("{{{{ {}true }}}}", "not ".repeat(most)),
    ];
    for chain in chains {
        let built = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let mut tree = plugforge_core::SourceTree::new();
                let config = r#"{"name": "demo", "version": "1.0.0", "description": "d"}"#;
                tree.insert("plugforge.json", config.as_bytes().to_vec(), false).unwrap();
                let command = format!("---\ndescription: T.\n---\n{chain}\n");
                tree.insert("commands/t.md.j2", command.into_bytes(), false).unwrap();
                plugforge_core::build(&tree, &plugforge_core::BuildOptions::default()).map(|_| ())
            })
            .unwrap()
            .join();
        assert!(matches!(built, Ok(Ok(()))), "built without a stack overflow: {built:?}");
    }
}

#[test]
fn a_template_that_loops_runs_out_of_fuel() {
    let tmp = TempDir::new("limit-fuel");
    let src = tmp.join("src");
    let looping = "---\ndescription: Loops.\n---\n{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}\n";
    demo_source(&src, &[("commands/loop.md.j2", looping)]);
    let report = refused_by_limit(&tmp, "commands/loop.md.j2", None);
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains("template ran out of fuel (10000 units"), "{message}");
}

/// The peak resident memory (VmHWM) of the running process `pid` in KiB,
/// sampled until it exits: the last sample is at least what it held while
/// it observed the output root (a run goes on to plan and write after that).
#[cfg(target_os = "linux")]
fn peak_kib_until_exit(child: &mut std::process::Child) -> u64 {
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    while child.try_wait().expect("wait").is_none() {
        if let Ok(text) = fs::read_to_string(&status) {
            let hwm = text.lines().find_map(|l| l.strip_prefix("VmHWM:"));
            if let Some(kib) = hwm.and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok()) {
                peak = peak.max(kib);
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    peak
}

#[cfg(target_os = "linux")]
#[test]
fn a_large_file_of_the_users_in_a_project_folder_is_never_read() {
    let tmp = TempDir::new("limit-observe");
    let src = tmp.join("src");
    demo_source(&src, &[("skills/s/SKILL.md", "---\nname: s\ndescription: S.\n---\nGo.\n")]);
    let project = tmp.join("project");
    // Sparse: 1 GiB long, next to nothing on disk; reading it whole would
    // cost a gigabyte of memory, hashing it seconds.
    fs::create_dir_all(project.join("data")).expect("mkdir");
    fs::File::create(project.join("data/huge.bin")).and_then(|f| f.set_len(1 << 30)).expect("sparse file");
    let read_at = || fs::metadata(project.join("data/huge.bin")).and_then(|m| m.accessed()).expect("atime");
    let untouched = read_at();
    let mut sampled = false;
    for run in ["first", "rerun"] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_plugforge"))
            .args(["build", s(&src), "--target", "claude-code:project", "--out", s(&project)])
            .env("SOURCE_DATE_EPOCH", EPOCH)
            .env("PLUGFORGE_NO_RERUN_RECORD", "1")
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("run plugforge");
        // 0 when the run ended before the first sample: then it cannot have
        // read a gigabyte either. At least one of the runs must be sampled.
        let peak = peak_kib_until_exit(&mut child);
        assert!(child.wait().expect("wait").success(), "{run}");
        assert!(peak < 64 * 1024, "{run}: peak memory {peak} KiB");
        sampled |= peak > 0;
    }
    assert!(sampled, "neither run was sampled: the sampler reads nothing");
    // Reading a byte of the file would move its access time (relatime, the
    // default mount, updates it when it is not after the last change; on a
    // noatime mount this part cannot tell, and the memory bound above stays).
    assert_eq!(read_at(), untouched, "the user's file was read");
    assert!(project.join(".claude/skills/s/SKILL.md").is_file());
    assert_eq!(fs::metadata(project.join("data/huge.bin")).expect("kept").len(), 1 << 30);
}
