//! Acceptance: what sources are refused (URLs, malformed input, path
//! escapes) and how an existing Claude Code plugin is read as a source.

mod common;

use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use common::*;

/// Builds `src` into a fresh OUT that must stay absent; returns the report.
fn refused(tmp: &TempDir, src: &Path, extra: &[&str], exit: i32) -> Value {
    let out = tmp.join("out");
    let (code, report) = build_json(src, &out, extra);
    assert_eq!(code, exit, "{report:#}");
    assert!(!out.exists(), "nothing may be written, found {:?}", files(&out));
    report
}

/// Asserts the error code and the first problem's file (and line, if given).
fn assert_error(report: &Value, code: &str, file: &str, line: Option<&[u64]>) {
    let (actual, problem) = error(report);
    assert_eq!(actual, code, "{report:#}");
    assert_eq!(problem["location"]["file"], file, "{report:#}");
    if let Some(lines) = line {
        let at = problem["location"]["line"].as_u64().unwrap_or_else(|| panic!("no line: {report:#}"));
        assert!(lines.contains(&at), "line {at}, expected one of {lines:?}: {report:#}");
    }
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains(file), "the message names {file}: {message}");
}

/// A command whose body holds a URL on line 5.
const X_COMMAND: &str = "---\ndescription: X\n---\nfirst line\nsee https://example.com/x\n";

#[test]
fn a_url_the_author_wrote_is_carried_and_reported() {
    let tmp = TempDir::new("url");
    let src = tmp.join("src");
    demo_source(&src, &[("commands/x.md", X_COMMAND)]);
    let out = tmp.join("out");
    let (code, report) = build_json(&src, &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["urls"], json!([{"url": "https://example.com/x", "files": ["commands/x.md"]}]));
    assert_eq!(read(&out, "claude-code/commands/x.md"), X_COMMAND.as_bytes());

    let run = common::run(&["build", s(&src), "--target", "claude-code", "--out", s(&tmp.join("human"))]);
    run.expect(0);
    assert!(run.stdout.contains("urls: 1 written in 1 source file(s) are carried"), "{}", run.stdout);
    let run =
        common::run(&["build", s(&src), "--target", "claude-code", "--out", s(&tmp.join("verbose")), "-v"]);
    assert!(run.stdout.contains("url      https://example.com/x (commands/x.md)"), "{}", run.stdout);
}

#[test]
fn under_the_deny_policy_a_url_is_refused_unless_allowed() {
    let tmp = TempDir::new("url-deny");
    let src = tmp.join("src");
    demo_source(&src, &[("commands/x.md", X_COMMAND)]);
    let report = refused(&tmp, &src, &["--deny-urls"], 1);
    assert_error(&report, "url_not_allowed", "commands/x.md", Some(&[5]));
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains("commands/x.md:5"), "{message}");
    assert!(message.contains("https://example.com/x"), "{message}");

    // A prefix that does not cover it is still refused.
    refused(&tmp, &src, &["--deny-urls", "--allow-url", "https://example.org/"], 1);

    let out = tmp.join("out");
    build(&src, &out, &["--deny-urls", "--allow-url", "https://example.com/"]).expect(0);
    assert_eq!(read(&out, "claude-code/commands/x.md"), X_COMMAND.as_bytes());

    // The policy in plugforge.json does the same as the flag.
    let config = String::from_utf8(read(&src, "plugforge.json")).unwrap();
    fs::write(src.join("plugforge.json"), config.replacen('{', "{\"urls\": \"deny\", ", 1)).unwrap();
    let report = refused(&TempDir::new("url-deny-config"), &src, &[], 1);
    assert_error(&report, "url_not_allowed", "commands/x.md", Some(&[5]));
}

#[test]
fn a_url_in_a_striatum_template_is_refused_by_its_deny_policy() {
    let tmp = TempDir::new("striatum-url");
    let src = tmp.join("striatum");
    copy_dir(&striatum(), &src);
    let template = src.join("commands/status.md.j2");
    let mut text = fs::read_to_string(&template).unwrap();
    text.push_str("\nDocs: https://docs.example.com/striatum\n");
    fs::write(&template, text).unwrap();
    let report = refused(&tmp, &src, &[], 1);
    assert_error(&report, "url_not_allowed", "commands/status.md.j2", None);
    assert!(report["error"]["message"].as_str().unwrap().contains("\"deny\" URL policy"), "{report:#}");
}

#[test]
fn the_striatum_bundle_holds_no_url() {
    let tmp = TempDir::new("no-url");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let all = files(&out);
    assert!(all.len() >= 18, "{all:?}");
    for rel in all {
        let text = String::from_utf8_lossy(&read(&out, &rel)).into_owned();
        assert!(!text.contains("://"), "{rel} holds a URL");
    }
}

#[test]
fn bad_json_in_plugforge_json_is_refused_with_its_line() {
    let tmp = TempDir::new("bad-json");
    let src = tmp.join("src");
    write(&src, "plugforge.json", "{\n  \"name\": \"demo\",\n  \"version\": \n}\n");
    let report = refused(&tmp, &src, &[], 1);
    assert_error(&report, "invalid_source", "plugforge.json", Some(&[4]));
}

#[test]
fn bad_yaml_frontmatter_is_refused_with_its_line() {
    let tmp = TempDir::new("bad-yaml");
    let src = tmp.join("src");
    // An unterminated quote: not YAML even once values are quoted as
    // Claude Code quotes them.
    demo_source(&src, &[("commands/x.md", "---\ndescription: ok\nbad: \"unclosed\n---\nbody\n")]);
    let report = refused(&tmp, &src, &[], 1);
    assert_error(&report, "invalid_source", "commands/x.md", Some(&[3, 4]));
    assert!(report["error"]["message"].as_str().unwrap().contains("YAML"), "{report:#}");
}

#[test]
fn frontmatter_claude_code_reads_once_quoted_is_built_quoted_with_a_warning() {
    let tmp = TempDir::new("quoted-yaml");
    let src = tmp.join("src");
    demo_source(&src, &[("commands/x.md", "---\ndescription: Use it when: a build fails\n---\nbody\n")]);
    let out = tmp.join("out");
    let r = build(&src, &out, &[]);
    r.expect(0);
    assert!(r.stderr.contains("warning[frontmatter_quoted]: commands/x.md:2:1:"), "{}", r.stderr);
    let written = std::fs::read_to_string(out.join("claude-code/commands/x.md")).unwrap();
    assert_eq!(written, "---\ndescription: \"Use it when: a build fails\"\n---\nbody\n");
}

#[test]
fn a_skill_folder_without_skill_md_is_refused() {
    let tmp = TempDir::new("no-skill-md");
    let src = tmp.join("src");
    demo_source(&src, &[("skills/foo/notes.md", "notes\n")]);
    let report = refused(&tmp, &src, &[], 1);
    assert_error(&report, "invalid_source", "skills/foo", None);
    assert!(report["error"]["message"].as_str().unwrap().contains("SKILL.md"), "{report:#}");
}

#[test]
fn a_command_and_a_skill_may_share_a_name_as_claude_code_allows() {
    let tmp = TempDir::new("dup-skill");
    let src = tmp.join("src");
    demo_source(
        &src,
        &[
            ("commands/a.md", "---\ndescription: a\n---\nA\n"),
            ("skills/a/SKILL.md", "---\nname: a\ndescription: a\n---\nA\n"),
        ],
    );
    let out = tmp.join("out");
    build(&src, &out, &[]).expect(0);
    assert_eq!(read(&out, "claude-code/commands/a.md"), b"---\ndescription: a\n---\nA\n");
    assert!(out.join("claude-code/skills/a/SKILL.md").is_file());
}

#[test]
fn two_agents_with_one_name_are_refused() {
    let tmp = TempDir::new("dup-agent");
    let src = tmp.join("src");
    demo_source(
        &src,
        &[
            ("agents/a.md", "---\nname: a\ndescription: a\n---\nA\n"),
            ("agents/b.md", "---\nname: a\ndescription: b\n---\nB\n"),
        ],
    );
    let report = refused(&tmp, &src, &[], 1);
    let (code, _) = error(&report);
    assert_eq!(code, "invalid_source");
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains("duplicate name \"a\""), "{message}");
    assert!(message.contains("agents/a.md"), "{message}");
}

#[test]
fn a_file_and_its_template_for_one_output_are_refused() {
    let tmp = TempDir::new("dup-template");
    let src = tmp.join("src");
    let text = "---\ndescription: a\n---\nA\n";
    demo_source(&src, &[("commands/a.md", text), ("commands/a.md.j2", text)]);
    let report = refused(&tmp, &src, &[], 1);
    let (code, problem) = error(&report);
    assert_eq!(code, "invalid_source");
    let file = problem["location"]["file"].as_str().unwrap();
    assert!(["commands/a.md", "commands/a.md.j2"].contains(&file), "{report:#}");
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains("commands/a.md.j2") && message.contains("commands/a.md "), "{message}");
}

#[test]
fn an_unknown_hook_event_is_refused_with_its_line() {
    let tmp = TempDir::new("bad-hook");
    let src = tmp.join("src");
    demo_source(&src, &[("hooks/hooks.json", "{\n  \"hooks\": {\n    \"Bogus\": []\n  }\n}\n")]);
    let report = refused(&tmp, &src, &[], 1);
    assert_error(&report, "invalid_source", "hooks/hooks.json", Some(&[3]));
    assert!(report["error"]["message"].as_str().unwrap().contains("Bogus"), "{report:#}");
}

#[test]
fn an_undefined_template_variable_is_refused_with_its_line() {
    let tmp = TempDir::new("bad-template");
    let src = tmp.join("src");
    demo_source(&src, &[("commands/t.md.j2", "---\ndescription: t\n---\nok\n{{ nope }}\n")]);
    let report = refused(&tmp, &src, &[], 1);
    assert_error(&report, "template", "commands/t.md.j2", Some(&[5]));
    assert!(report["error"]["message"].as_str().unwrap().contains("nope"), "{report:#}");

    // Passing it makes the same source build.
    let out = tmp.join("out");
    build(&src, &out, &["--var", "nope=fine"]).expect(0);
    assert_eq!(read(&out, "claude-code/commands/t.md"), b"---\ndescription: t\n---\nok\nfine\n");
}

#[test]
fn a_manifest_name_that_escapes_the_bundle_is_a_usage_error() {
    let tmp = TempDir::new("manifest-name");
    let src = tmp.join("src");
    demo_source(&src, &[]);
    for name in ["../x", "sub/x"] {
        let report = refused(&tmp, &src, &["--manifest-name", name], 2);
        let (code, _) = error(&report);
        assert!(["invalid_path", "invalid_options"].contains(&code), "{name}: {report:#}");
        assert!(report["error"]["message"].as_str().unwrap().contains(name), "{report:#}");
    }
}

#[test]
fn uninstall_and_doctor_refuse_the_manifest_names_build_refuses() {
    let tmp = TempDir::new("manifest-name-other");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let before = snapshot(&out);
    for name in ["../x", "sub/x"] {
        for command in ["uninstall", "doctor"] {
            let r = run(&[
                command,
                "--target",
                "claude-code",
                "--out",
                s(&out),
                "--manifest-name",
                name,
                "--json",
            ]);
            let report = r.json();
            assert_eq!(r.code, 2, "{command} --manifest-name {name}: {report:#}");
            let (code, _) = error(&report);
            assert!(["invalid_path", "invalid_options"].contains(&code), "{command} {name}: {report:#}");
        }
    }
    assert_same_tree(&before, &snapshot(&out));
}

#[test]
fn a_tampered_manifest_never_removes_files_outside_the_bundle() {
    let tmp = TempDir::new("tampered");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let victim = tmp.join("victim.txt");
    fs::write(&victim, "precious\n").unwrap();
    let sha = sha256_hex(b"precious\n");
    let mut manifest = read_json(&out, MANIFEST);
    let list = manifest["files"].as_array_mut().unwrap();
    for path in ["../../victim.txt", s(&victim)] {
        list.push(json!({"path": path, "sha256": sha, "template": "x"}));
    }
    fs::write(out.join(MANIFEST), serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();

    build(&striatum(), &out, &["--force"]).expect(0);
    assert_eq!(fs::read(&victim).unwrap(), b"precious\n");
    let mut manifest = read_json(&out, MANIFEST);
    let list = manifest["files"].as_array_mut().unwrap();
    list.push(json!({"path": "../../victim.txt", "sha256": sha, "template": "x"}));
    fs::write(out.join(MANIFEST), serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
    run(&["uninstall", "--target", "claude-code", "--out", s(&out), "--force"]).expect(0);
    assert_eq!(fs::read(&victim).unwrap(), b"precious\n");
    assert_eq!(files(&out), Default::default(), "the bundle itself is gone");
}

#[test]
fn a_claude_manifest_path_outside_the_source_is_refused() {
    let tmp = TempDir::new("claude-escape");
    let src = tmp.join("src");
    write(&tmp.join("outside"), "evil.md", "---\ndescription: e\n---\nE\n");
    for commands in ["../outside", "./../outside"] {
        let manifest = json!({"name": "demo", "version": "1.0.0", "description": "d",
            "author": {"name": "a"}, "commands": commands});
        write(&src, ".claude-plugin/plugin.json", serde_json::to_vec_pretty(&manifest).unwrap());
        let report = refused(&tmp, &src, &[], 1);
        let (code, problem) = error(&report);
        assert!(["invalid_source", "invalid_path"].contains(&code), "{report:#}");
        assert_eq!(problem["location"]["file"], ".claude-plugin/plugin.json", "{report:#}");
        let message = report["error"]["message"].as_str().unwrap();
        assert!(message.contains(".claude-plugin/plugin.json"), "{message}");
        assert!(message.contains("\"commands\"") && message.contains(commands), "{message}");
    }
}

#[test]
fn an_existing_claude_plugin_builds_as_a_source() {
    let tmp = TempDir::new("claude-source");
    let src = tmp.join("src");
    let manifest = json!({"name": "demo", "version": "1.0.0", "description": "d", "author": {"name": "a"}});
    write(&src, ".claude-plugin/plugin.json", serde_json::to_vec_pretty(&manifest).unwrap());
    let hooks = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/run.sh"}]}]}});
    write(&src, "hooks/hooks.json", serde_json::to_vec_pretty(&hooks).unwrap());
    write(&src, "scripts/run.sh", "#!/bin/sh\necho ok\n");
    set_mode(&src.join("scripts/run.sh"), 0o755);
    write(&src, ".mcp.json", r#"{"srv": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/s.js"]}}"#);

    let out = tmp.join("out");
    build(&src, &out, &[]).expect(0);
    // The bare ${CLAUDE_PLUGIN_ROOT} comes out quoted: Claude Code's --strict refuses it bare.
    let quoted = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/scripts/run.sh\""}]}]}});
    assert_eq!(read_json(&out, "claude-code/hooks/hooks.json"), quoted);
    assert_eq!(
        read_json(&out, "claude-code/.mcp.json"),
        json!({"mcpServers": {"srv": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/s.js"]}}})
    );
    assert_eq!(read(&out, "claude-code/scripts/run.sh"), b"#!/bin/sh\necho ok\n");
    assert_eq!(mode(&out.join("claude-code/scripts/run.sh")) & 0o111, 0o111, "run.sh stays executable");
    assert_eq!(mode(&out.join("claude-code/.mcp.json")) & 0o111, 0, "data files are not executable");
    let plugin = read_json(&out, "claude-code/.claude-plugin/plugin.json");
    assert_eq!(plugin["name"], "demo");
    assert_eq!(plugin["version"], "1.0.0");
    let tracked = read_json(&out, MANIFEST);
    let run_sh = tracked["files"].as_array().unwrap().iter().find(|f| f["path"] == "scripts/run.sh").cloned();
    assert_eq!(run_sh.expect("run.sh tracked")["executable"], true);

    // A rerun keeps everything, the executable bit included.
    let before = snapshot(&out);
    build(&src, &out, &[]).expect(0);
    assert_same_tree(&before, &snapshot(&out));
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).unwrap().permissions().mode()
}

#[test]
fn a_literal_credential_refuses_the_build_and_is_never_echoed() {
    let tmp = TempDir::new("credential");
    let src = tmp.join("src");
    let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let mcp = format!(
        "{{\n  \"mcpServers\": {{\n    \"gh\": {{\"command\": \"gh-mcp\", \"env\": {{\"GITHUB_TOKEN\": \"{token}\"}}}}\n  }}\n}}\n"
    );
    demo_source(&src, &[(".mcp.json", &mcp)]);
    let report = refused(&tmp, &src, &[], 1);
    assert_error(&report, "credential", ".mcp.json", Some(&[3]));
    let message = report["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("mcpServers.gh.env.GITHUB_TOKEN") && message.contains("requires.bindings"),
        "{message}"
    );
    let human = common::run(&["build", s(&src), "--target", "claude-code", "--out", s(&tmp.join("human"))]);
    assert!(
        !human.stdout.contains(token) && !human.stderr.contains(token),
        "{}{}",
        human.stdout,
        human.stderr
    );
    assert!(!report.to_string().contains(token), "{report:#}");

    // Listed as a test fixture, it is built.
    let config = String::from_utf8(read(&src, "plugforge.json")).unwrap();
    let allow = "{\"allowCredentials\": [{\"file\": \".mcp.json\", \"key\": \"GITHUB_TOKEN\"}], ";
    fs::write(src.join("plugforge.json"), config.replacen('{', allow, 1)).unwrap();
    build(&src, &tmp.join("allowed"), &[]).expect(0);
}

#[test]
fn a_skill_saved_with_a_bom_and_crlf_keeps_its_frontmatter() {
    let tmp = TempDir::new("bom-crlf");
    let src = tmp.join("src");
    let skill = "\u{feff}---\r\nname: deploy\r\ndescription: Deploys.\r\n---\r\nGo.\r\n";
    demo_source(&src, &[("skills/deploy/SKILL.md", skill), ("skills/deploy/notes.txt", "\u{feff}kept\r\n")]);
    let out = tmp.join("out");
    let (code, report) = build_json(&src, &out, &["--target", "codex"]);
    assert_eq!(code, 0, "{report:#}");
    for bundle in ["claude-code", "codex"] {
        let written = read(&out, &format!("{bundle}/skills/deploy/SKILL.md"));
        assert_eq!(written, b"---\nname: deploy\ndescription: Deploys.\n---\nGo.\n", "{bundle}");
        assert_eq!(read(&out, &format!("{bundle}/skills/deploy/notes.txt")), "\u{feff}kept\r\n".as_bytes());
    }
}

#[test]
fn paths_differing_only_by_case_fail_that_runtime_and_the_others_are_written() {
    let tmp = TempDir::new("case-collision");
    let src = tmp.join("src");
    demo_source(
        &src,
        &[
            ("agents/lead-reviewer.md", "---\nname: Reviewer\ndescription: Leads.\n---\nLead.\n"),
            ("agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n"),
        ],
    );
    let out = tmp.join("out");
    let (code, report) = build_json(&src, &out, &["--target", "opencode"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["failures"][0]["runtime"], "opencode", "{report:#}");
    let error = &report["failures"][0]["error"];
    assert_eq!(error["code"], "invalid_path", "{report:#}");
    assert_eq!(error["problems"][0]["location"]["file"], "agents/reviewer.md", "{report:#}");
    assert!(out.join("claude-code/agents/reviewer.md").exists());
    assert!(!out.join(".opencode").exists());
}

const RSA_BODY: &str = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n\
                        VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n";

/// The bytes of `text` as UTF-16, little-endian with a byte order mark.
fn utf16(text: &str) -> Vec<u8> {
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    bytes
}

#[test]
fn keys_and_tokens_in_every_shape_a_file_can_hold_them_are_refused_at_their_file_and_line() {
    let github = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let mut binary = vec![0x89, b'P', b'N', b'G', 0x00, 0xFF, 0x10];
    binary.extend(format!("token={github}").bytes());
    binary.extend([0x00, 0xFE, 0x01]);
    let cases: Vec<(&str, Vec<u8>, Option<u64>, &str)> = vec![
        (
            "skills/s/keys/id_rsa",
            format!("-----BEGIN RSA PRIVATE KEY-----\n{RSA_BODY}-----END RSA PRIVATE KEY-----\n").into(),
            Some(1),
            "the file holds a literal private key",
        ),
        (
            "skills/s/keys/id_ed25519",
            format!("-----BEGIN OPENSSH PRIVATE KEY-----\r\n{}", RSA_BODY.replace('\n', "\r\n")).into(),
            Some(1),
            "the file holds a literal private key",
        ),
        (
            "skills/s/signing.md",
            format!("# Signing\n\n-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n{RSA_BODY}").into(),
            Some(3),
            "the file holds a literal private key",
        ),
        (
            "skills/s/notes.md",
            "# Models\n\nPull with hf_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC2dF4h.\n".into(),
            Some(3),
            "literal Hugging Face token",
        ),
        (
            "skills/s/scripts/notify.sh",
            "#!/bin/sh\ncurl -d @- https://hooks.slack.com/services/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\n"
                .into(),
            Some(2),
            "literal Slack webhook URL",
        ),
        (
            "skills/s/accounts.json",
            format!("{{\n  \"{github}\": \"work\"\n}}\n").into(),
            Some(2),
            "literal GitHub token",
        ),
        ("skills/s/utf16.txt", utf16(&format!("Accounts\r\nwork: {github}\r\n")), Some(2), "literal GitHub token"),
        ("skills/s/blob.bin", binary, None, "literal GitHub token"),
        (
            "skills/s/ghp_0123456789abcdefghijABCDEFGHIJ012345.txt",
            b"nothing here\n".to_vec(),
            None,
            "the file's name holds a literal GitHub token",
        ),
    ];
    for (file, bytes, line, says) in cases {
        let tmp = TempDir::new("credential-shapes");
        let src = tmp.join("src");
        demo_source(&src, &[("skills/s/SKILL.md", "---\nname: s\ndescription: S.\n---\nGo.\n")]);
        write(&src, file, &bytes);
        if file.ends_with(".md") {
            // Prose: a warning at the same file and line, and the file travels;
            // strict sources refuse it as below.
            let out = tmp.join("warned");
            let (code, report) = build_json(&src, &out, &[]);
            assert_eq!(code, 0, "{file}: {report:#}");
            let warned: Vec<_> = report["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["code"] == "literal_credential")
                .collect();
            assert_eq!(warned.len(), 1, "{file}: {report:#}");
            assert_eq!(warned[0]["location"]["file"], file, "{report:#}");
            assert_eq!(warned[0]["location"]["line"].as_u64(), line, "{file}: {report:#}");
            assert!(warned[0]["message"].as_str().unwrap().contains(says), "{file}: {report:#}");
            assert!(!report.to_string().contains("0123456789abcdefghij"), "never echoed: {report:#}");
            assert!(out.join("claude-code").join(file).exists(), "{file} travels");
            write(
                &src,
                "plugforge.json",
                br#"{"name":"demo","version":"1.0.0","description":"d","author":{"name":"a"},"credentials":"deny"}"#,
            );
        }
        let report = refused(&tmp, &src, &[], 1);
        let (code, problem) = error(&report);
        assert_eq!(code, "credential", "{file}: {report:#}");
        // A name that is a token is named cut to the token's first characters.
        let named = file.replace(github, "ghp_…");
        assert_eq!(problem["location"]["file"], named, "{report:#}");
        assert_eq!(problem["location"]["line"].as_u64(), line, "{file}: {report:#}");
        let message = problem["message"].as_str().unwrap();
        assert!(message.contains(says), "{file}: {message}");
        assert!(!report.to_string().contains("0123456789abcdefghij"), "never echoed: {report:#}");
    }
}

#[test]
fn a_random_value_rendered_from_a_variable_under_a_credentials_name_is_refused() {
    let tmp = TempDir::new("credential-var");
    let src = tmp.join("src");
    demo_source(
        &src,
        &[
            ("skills/s/SKILL.md", "---\nname: s\ndescription: S.\n---\nGo.\n"),
            ("skills/s/scripts/env.sh.j2", "#!/bin/sh\nexport API_KEY={{ api_key }}\nexec run\n"),
        ],
    );
    let report = refused(&tmp, &src, &["--var", "api_key=q8Zt3vN1xK9pL2mR7sW4"], 1);
    let (code, problem) = error(&report);
    assert_eq!(code, "credential", "{report:#}");
    assert_eq!(problem["location"]["file"], "skills/s/scripts/env.sh.j2", "{report:#}");
    let message = problem["message"].as_str().unwrap();
    assert!(message.contains("\"API_KEY\" holds a literal credential (q8Zt…)"), "{message}");
    assert!(!report.to_string().contains("q8Zt3vN1xK9pL2mR7sW4"), "never echoed: {report:#}");
    // A word that is no key goes through.
    build(&src, &tmp.join("out"), &["--var", "api_key=${API_KEY}"]).expect(0);
}

/// Builds `src` for `target` and returns the problems of its refusal
/// (exit 1, `invalid_path`, nothing written).
fn refused_paths(tmp: &TempDir, src: &Path, target: &str) -> Vec<(String, Option<u64>, String)> {
    let out = tmp.join(&format!("out-{}", target.replace(':', "-")));
    let r = common::run(&["build", s(src), "--target", target, "--out", s(&out), "--json"]);
    let report = r.json();
    assert_eq!(r.code, 1, "{target}: {report:#}");
    assert!(!out.exists(), "nothing is written: {:?}", files(&out));
    let (code, _) = error(&report);
    assert_eq!(code, "invalid_path", "{target}: {report:#}");
    report["error"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let at = &p["location"];
            (
                at["file"].as_str().unwrap().to_string(),
                at["line"].as_u64(),
                p["message"].as_str().unwrap().into(),
            )
        })
        .collect()
}

#[test]
fn manifest_overrides_that_leave_the_bundle_are_refused_at_their_line() {
    let tmp = TempDir::new("manifest-escape");
    let src = tmp.join("src");
    let config = r#"{
  "name": "demo",
  "version": "1.0.0",
  "description": "d",
  "targets": {
    "claude-code": {"manifest": {"lspServers": "../../lsp.json"}},
    "cursor": {"manifest": {"logo": "/etc/passwd"}},
    "codex": {"manifest": {
      "apps": "../apps.json",
      "interface": {"logo": "../../../etc/passwd", "screenshots": ["./ok.png", "/etc/shadow"]}
    }},
    "gemini": {"manifest": {"contextFileName": "../../etc/passwd"}}
  }
}
"#;
    demo_source(&src, &[("skills/s/SKILL.md", "---\nname: s\ndescription: S.\n---\nGo.\n")]);
    write(&src, "plugforge.json", config);
    let cases: [(&str, &[(u64, &str)]); 4] = [
        ("claude-code", &[(6, "lspServers: \"../../lsp.json\"")]),
        ("cursor", &[(7, "logo: \"/etc/passwd\" must be relative")]),
        (
            "codex",
            &[
                (9, "apps: \"../apps.json\" leaves the plugin folder"),
                (10, "interface.logo: \"../../../etc/passwd\" leaves the plugin folder"),
                (10, "interface.screenshots: \"/etc/shadow\" leaves the plugin folder"),
            ],
        ),
        ("gemini", &[(12, "contextFileName: \"../../etc/passwd\" contains \"..\"")]),
    ];
    for (target, expected) in cases {
        let problems = refused_paths(&tmp, &src, target);
        assert_eq!(problems.len(), expected.len(), "{target}: {problems:#?}");
        for ((file, line, message), (want_line, says)) in problems.iter().zip(expected) {
            assert_eq!((file.as_str(), *line), ("plugforge.json", Some(*want_line)), "{target}: {message}");
            assert!(message.contains(says), "{target}: {message}");
            assert!(message.ends_with("a path a manifest carries must stay inside the bundle"), "{message}");
        }
    }
}

#[test]
fn a_native_plugins_own_paths_that_leave_it_are_refused_when_built() {
    let tmp = TempDir::new("native-escape");
    let skill = "---\nname: s\ndescription: S.\n---\nGo.\n";
    let natives: [(&str, &str, &str, &str); 3] = [
        (
            ".codex-plugin/plugin.json",
            "{\n  \"name\": \"demo\",\n  \"version\": \"1.0.0\",\n  \"skills\": \"./skills/\",\n  \"interface\": {\"logo\": \"../../../etc/passwd\"}\n}\n",
            "codex",
            "interface.logo: \"../../../etc/passwd\" leaves the plugin folder",
        ),
        (
            ".cursor-plugin/plugin.json",
            "{\n  \"name\": \"demo\",\n  \"version\": \"1.0.0\",\n  \"logo\": \"/etc/passwd\"\n}\n",
            "cursor",
            "logo: \"/etc/passwd\" must be relative",
        ),
        (
            ".claude-plugin/plugin.json",
            "{\n  \"name\": \"demo\",\n  \"version\": \"1.0.0\",\n  \"lspServers\": \"../lsp.json\"\n}\n",
            "claude-code",
            "lspServers: \"../lsp.json\"",
        ),
    ];
    for (manifest, text, target, says) in natives {
        let src = tmp.join(&format!("src-{target}"));
        write(&src, manifest, text);
        write(&src, "skills/s/SKILL.md", skill);
        let problems = refused_paths(&tmp, &src, target);
        assert_eq!(problems.len(), 1, "{target}: {problems:#?}");
        let (file, line, message) = &problems[0];
        assert_eq!(file, manifest, "{message}");
        assert_eq!(
            *line,
            Some(text.lines().position(|l| l.contains("../") || l.contains("/etc")).unwrap() as u64 + 1)
        );
        assert!(message.contains(says), "{target}: {message}");
    }
}

#[test]
fn a_skill_named_target_is_built_while_build_and_dependency_folders_are_skipped() {
    let tmp = TempDir::new("skipped-dirs");
    let src = tmp.join("src");
    let skill = |name: &str| format!("---\nname: {name}\ndescription: The {name} skill.\n---\nGo.\n");
    demo_source(
        &src,
        &[
            ("skills/target/SKILL.md", &skill("target")),
            ("skills/deploy/SKILL.md", &skill("deploy")),
            ("skills/deploy/scripts/node_modules/left-pad/index.js", "module.exports = 1;\n"),
            ("skills/deploy/.git/HEAD", "ref: refs/heads/main\n"),
            ("target/debug/build.log", "cargo output\n"),
        ],
    );
    let out = tmp.join("out");
    let (code, report) = build_json(&src, &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    let written = files(&out);
    assert!(written.contains("claude-code/skills/target/SKILL.md"), "{written:?}");
    assert!(written.contains("claude-code/skills/deploy/SKILL.md"), "{written:?}");
    let skipped = ["node_modules", ".git/", "build.log"];
    assert!(!written.iter().any(|f| skipped.iter().any(|s| f.contains(s))), "{written:?}");
}

#[test]
fn a_skill_nested_too_deep_is_named_by_its_own_skill_md() {
    let tmp = TempDir::new("nested-skill");
    let src = tmp.join("src");
    demo_source(&src, &[("skills/outer/inner/SKILL.md", "---\nname: inner\ndescription: I.\n---\nGo.\n")]);
    let report = refused(&tmp, &src, &[], 1);
    assert_error(&report, "invalid_source", "skills/outer/inner/SKILL.md", None);
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains("nested too deep") && message.contains("skills/inner/SKILL.md"), "{message}");
}

#[test]
fn a_command_hook_with_nothing_to_run_is_refused_at_its_event() {
    let tmp = TempDir::new("hook-no-command");
    let src = tmp.join("src");
    let hooks = "{\n  \"hooks\": {\n    \"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]}],\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\"}]}]\n  }\n}\n";
    demo_source(&src, &[("hooks/hooks.json", hooks)]);
    let report = refused(&tmp, &src, &[], 1);
    assert_error(&report, "invalid_source", "hooks/hooks.json", Some(&[4]));
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains("hooks.Stop: a hook of type \"command\" needs a \"command\""), "{message}");
}
