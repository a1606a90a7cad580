//! Acceptance: files shared with the user (OpenCode's `opencode.json`,
//! Codex's `.codex/config.toml`) keep every byte that is the user's through
//! build, rebuild, `--force` and uninstall; a file that does not parse is a
//! conflict naming its line and column, and `--force` leaves it alone.

mod common;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use common::*;

/// The canonical source with one MCP server (`deployer`) and a context file.
fn canonical() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/canonical-full/input")
}

fn build_target(out: &Path, target: &str, extra: &[&str]) -> (i32, Value) {
    let source = canonical();
    let mut args =
        vec!["build", s(&source), "--target", target, "--namespace", "dk", "--out", s(out), "--json"];
    args.extend_from_slice(extra);
    let r = run(&args);
    (r.code, r.json())
}

fn uninstall_target(out: &Path, target: &str) -> Run {
    run(&["uninstall", "--target", target, "--namespace", "dk", "--out", s(out)])
}

fn text(out: &Path, rel: &str) -> String {
    String::from_utf8(read(out, rel)).expect("UTF-8")
}

/// Every line of `original` is in `merged`, in the same order: the merge
/// only added lines between the user's.
fn keeps_every_line(original: &str, merged: &str) {
    let mut lines = merged.lines();
    for line in original.lines() {
        assert!(lines.any(|l| l == line), "lost or changed {line:?}:\n{merged}");
    }
}

/// The JSONC value of a user's file, comments and trailing commas allowed.
fn jsonc(text: &str) -> Value {
    let stripped: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(cut) if !l[..cut].contains("\"https:") => &l[..cut],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let stripped = stripped.replace("/* the model I use */", "");
    let no_trailing = regex_free_trailing_commas(&stripped);
    serde_json::from_str(&no_trailing).unwrap_or_else(|e| panic!("{e}:\n{no_trailing}"))
}

/// Drops a comma that only whitespace separates from a closing bracket.
fn regex_free_trailing_commas(text: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        out.push(*c);
    }
    out
}

const USERS_OPENCODE: &str = r#"// My OpenCode setup: keep this comment
{
  "$schema": "https://opencode.ai/config.json",
  /* the model I use */
  "model": "anthropic/claude-sonnet-4",
  "mcp": {
    // my own server
    "mine": {"type": "local", "command": ["my-server"], "enabled": true,},
  },
  "theme": "dark", // a trailing comment
}
"#;

#[test]
fn a_users_opencode_json_keeps_its_comments_commas_and_keys_through_every_step() {
    let tmp = TempDir::new("shared-opencode");
    let out = tmp.join("out");
    write(&out, "opencode.json", USERS_OPENCODE);

    let (code, report) = build_target(&out, "opencode", &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, "opencode.json")["op"], "update");
    let built = text(&out, "opencode.json");
    keeps_every_line(USERS_OPENCODE, &built);
    // plugforge's entry goes in after the user's last one, in the file's own
    // style (one key a line, trailing commas); no other byte changes.
    let entry = "    \"deployer\": {\n      \"type\": \"local\",\n      \"command\": [\".opencode/plugforge/dk/bin/deployer\", \
                 \"--root\", \".opencode/plugforge/dk\"],\n      \"enabled\": true,\n    },\n";
    assert_eq!(built, USERS_OPENCODE.replacen("  },\n  \"theme\"", &format!("{entry}  }},\n  \"theme\""), 1));
    let value = jsonc(&built);
    assert_eq!(value["model"], "anthropic/claude-sonnet-4");
    assert_eq!(value["theme"], "dark");
    assert_eq!(value["mcp"]["mine"], json!({"type": "local", "command": ["my-server"], "enabled": true}));
    assert_eq!(
        value["mcp"]["deployer"],
        json!({"type": "local", "command": [".opencode/plugforge/dk/bin/deployer", "--root", ".opencode/plugforge/dk"], "enabled": true})
    );

    let (code, report) = build_target(&out, "opencode", &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, "opencode.json")["op"], "unchanged", "a rebuild keeps the bytes");
    assert_eq!(text(&out, "opencode.json"), built);

    // An edit to plugforge's entry is a conflict; --force resets that entry only.
    // The entry follows the file's own style: one key a line, trailing commas.
    let edited = built.replacen("      \"enabled\": true,\n    },", "      \"enabled\": false,\n    },", 1);
    assert_ne!(edited, built, "the generated entry is written in the file's style:\n{built}");
    write(&out, "opencode.json", &edited);
    let (code, report) = build_target(&out, "opencode", &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(action(&report, "opencode.json")["op"], "conflict");
    assert_eq!(text(&out, "opencode.json"), edited, "a refused plan writes nothing");
    let (code, report) = build_target(&out, "opencode", &["--force"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(text(&out, "opencode.json"), built, "--force puts back exactly the built file");

    uninstall_target(&out, "opencode").expect(0);
    assert_eq!(
        text(&out, "opencode.json"),
        USERS_OPENCODE,
        "uninstall gives the user's file back byte for byte"
    );
}

const USERS_CONFIG: &str = "# My Codex config: keep this comment\nmodel = \"o3\" # the default\n\n\
                            [mcp_servers.theirs]\n# my own server\ncommand = \"t\"\nargs = [\"a\", \"b\",]\n";

#[test]
fn a_users_codex_config_toml_keeps_its_comments_through_every_step() {
    let tmp = TempDir::new("shared-codex");
    let out = tmp.join("out");
    write(&out, ".codex/config.toml", USERS_CONFIG);

    let (code, report) = build_target(&out, "codex:project", &[]);
    assert_eq!(code, 0, "{report:#}");
    let built = text(&out, ".codex/config.toml");
    assert!(built.starts_with(USERS_CONFIG), "the user's text comes first, untouched:\n{built}");
    let ours = &built[USERS_CONFIG.len()..];
    assert_eq!(
        ours,
        "\n# plugforge:dk:begin\n[mcp_servers.deployer]\ncommand = \".codex/dk/bin/deployer\"\n\
         args = [\"--root\", \".codex/dk\"]\n# plugforge:dk:end\n",
        "plugforge's tables follow in their marked section"
    );

    let (code, report) = build_target(&out, "codex:project", &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, ".codex/config.toml")["op"], "unchanged");

    let edited = built.replace("command = \".codex/dk/bin/deployer\"", "command = \"elsewhere\"");
    assert_ne!(edited, built);
    write(&out, ".codex/config.toml", &edited);
    let (code, report) = build_target(&out, "codex:project", &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(action(&report, ".codex/config.toml")["op"], "conflict");
    let (code, report) = build_target(&out, "codex:project", &["--force"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(text(&out, ".codex/config.toml"), built, "--force resets plugforge's tables only");

    uninstall_target(&out, "codex:project").expect(0);
    assert_eq!(text(&out, ".codex/config.toml"), USERS_CONFIG, "uninstall gives the user's file back");
}

/// A conflict's reason, after checking the plan was refused and the file kept.
fn refused(out: &Path, rel: &str, before: &str, extra: &[&str], target: &str) -> String {
    let (code, report) = build_target(out, target, extra);
    assert_eq!(code, 1, "{report:#}");
    let act = action(&report, rel);
    assert_eq!(act["op"], "conflict", "{report:#}");
    assert_eq!(text(out, rel), before, "the file is not replaced");
    act["reason"].as_str().expect("a reason").to_string()
}

#[test]
fn an_opencode_json_that_does_not_parse_is_a_conflict_at_its_line_and_column_even_forced() {
    let tmp = TempDir::new("shared-opencode-broken");
    let out = tmp.join("out");
    let broken = "{\n  // mine\n  \"model\": \"x\"\n  \"theme\" \"dark\"\n}\n";
    write(&out, "opencode.json", broken);
    for extra in [&[][..], &["--force"][..]] {
        let reason = refused(&out, "opencode.json", broken, extra, "opencode");
        assert!(
            reason.starts_with("opencode.json:3:15: invalid JSON: Expected comma"),
            "names line and column: {reason}"
        );
    }
}

#[test]
fn a_codex_config_that_does_not_parse_is_a_conflict_at_its_line_and_column_even_forced() {
    let tmp = TempDir::new("shared-codex-broken");
    let out = tmp.join("out");
    let broken = "# mine\nmodel = \"o3\"\n[mcp_servers.theirs\ncommand = \"t\"\n";
    write(&out, ".codex/config.toml", broken);
    for extra in [&[][..], &["--force"][..]] {
        let reason = refused(&out, ".codex/config.toml", broken, extra, "codex:project");
        assert!(reason.starts_with(".codex/config.toml:3:"), "names line and column: {reason}");
    }
}

#[test]
fn a_users_own_table_of_the_same_name_is_a_conflict_not_a_duplicate() {
    let tmp = TempDir::new("shared-codex-same-name");
    let out = tmp.join("out");
    let users = "[mcp_servers.deployer]\ncommand = \"mine\"\n";
    write(&out, ".codex/config.toml", users);
    let reason = refused(&out, ".codex/config.toml", users, &[], "codex:project");
    assert!(reason.contains("mcp_servers.deployer"), "{reason}");
}

/// A user's JSONC file: a comment above, an own key with a trailing comma,
/// a block comment inside.
const USERS_JSONC: &str =
    "// mine: keep this\n{\n  \"userKey\": {\"keep\": [1, 2,],}, // trailing\n  /* block */\n}\n";

#[test]
fn every_shared_json_file_keeps_the_users_bytes_through_build_rebuild_and_uninstall() {
    let cases = [
        ("claude-code:project", ".mcp.json"),
        ("claude-code:project", ".claude/settings.json"),
        ("gemini:project", ".gemini/settings.json"),
        ("codex:project", ".codex/hooks.json"),
        ("claude-code", ".claude-plugin/marketplace.json"),
        ("codex", ".agents/plugins/marketplace.json"),
        ("cursor", ".cursor-plugin/marketplace.json"),
    ];
    for (target, file) in cases {
        let tmp = TempDir::new("shared-every");
        let out = tmp.join("out");
        write(&out, file, USERS_JSONC);
        let (code, report) = build_target(&out, target, &[]);
        assert_eq!(code, 0, "{target} {file}: {report:#}");
        assert_eq!(action(&report, file)["op"], "update", "{target} {file}: {report:#}");
        let built = text(&out, file);
        keeps_every_line(USERS_JSONC, &built);
        assert!(built.len() > USERS_JSONC.len(), "{target} {file}: plugforge's part is in:\n{built}");
        let (code, report) = build_target(&out, target, &[]);
        assert_eq!(code, 0, "{target} {file}: {report:#}");
        assert_eq!(action(&report, file)["op"], "unchanged", "{target} {file}");
        uninstall_target(&out, target).expect(0);
        assert_eq!(text(&out, file), USERS_JSONC, "{target} {file}: uninstall gives the user's bytes back");
    }
}

/// A Hermes `config.yaml` as people keep one: comments, flow collections,
/// an anchor merged (`<<: *server_defaults`) into two servers, quoting.
fn users_hermes_config() -> String {
    std::fs::read_to_string(repo_root().join("tests/clients/fixtures/hermes-config.yaml")).unwrap()
}

#[test]
fn a_users_hermes_config_yaml_keeps_its_comments_flow_style_and_merge_keys_through_every_step() {
    let users = users_hermes_config();
    let tmp = TempDir::new("shared-hermes");
    let out = tmp.join("out");
    write(&out, ".hermes/config.yaml", &users);
    let target = ["hermes:workspace", "--scope", "user"];

    let (code, report) = build_target(&out, target[0], &target[1..]);
    assert_eq!(code, 0, "{report:#}");
    let built = text(&out, ".hermes/config.yaml");
    let entry = "  deployer:\n    command: \"${HOME}/.hermes/plugforge/dk/bin/deployer\"\n    args:\n      \
                 - \"--root\"\n      - \"${HOME}/.hermes/plugforge/dk\"\n";
    let last_server = "  files: {command: uvx, args: [mcp-files], <<: *server_defaults}\n";
    assert_eq!(
        built,
        users.replacen(last_server, &format!("{last_server}{entry}"), 1),
        "only plugforge's entry is added, after the user's last server"
    );

    let (code, report) = build_target(&out, target[0], &target[1..]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, ".hermes/config.yaml")["op"], "unchanged");

    let edited = built.replace("bin/deployer\"", "bin/elsewhere\"");
    write(&out, ".hermes/config.yaml", &edited);
    let (code, report) = build_target(&out, target[0], &target[1..]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(action(&report, ".hermes/config.yaml")["op"], "conflict");
    assert_eq!(text(&out, ".hermes/config.yaml"), edited, "a conflict leaves the file alone");
    let (code, report) = build_target(&out, target[0], &[&target[1..], &["--force"][..]].concat());
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(text(&out, ".hermes/config.yaml"), built, "--force resets plugforge's entry only");

    run(&["uninstall", "--target", target[0], "--scope", "user", "--namespace", "dk", "--out", s(&out)])
        .expect(0);
    assert_eq!(text(&out, ".hermes/config.yaml"), users, "uninstall gives the user's bytes back");
}

/// A plugin `name` for two-plugin projects: its own skill, command, agent,
/// MCP server, hook and context, plus a skill and a hook that every such
/// plugin ships byte for byte the same (a vendored `pdf` skill, a common
/// formatter hook), so a second build finds them already written.
fn neighbour_plugin(dir: &Path, name: &str) {
    write(
        dir,
        "plugforge.json",
        format!(r#"{{"name":"{name}","version":"1.0.0","description":"d","author":{{"name":"a"}}}}"#),
    );
    write(
        dir,
        &format!("skills/{name}-s/SKILL.md"),
        format!("---\nname: {name}-s\ndescription: d\n---\nDo.\n"),
    );
    write(dir, "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Reads PDFs\n---\nRead it.\n");
    write(dir, &format!("commands/{name}-go.md"), "---\ndescription: go\n---\nGo.\n");
    write(
        dir,
        &format!("agents/{name}-agent.md"),
        format!("---\nname: {name}-agent\ndescription: ag\n---\nYou are.\n"),
    );
    write(dir, ".mcp.json", format!(r#"{{"mcpServers":{{"{name}-server":{{"command":"{name}-bin"}}}}}}"#));
    write(
        dir,
        "hooks/hooks.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/bin/check.sh"}]},{"matcher":"Write","hooks":[{"type":"command","command":"echo formatted"}]}]}}"#,
    );
    write(dir, "bin/check.sh", "#!/bin/sh\necho ok\n");
    write(dir, "AGENTS.md", format!("Context of {name}.\n"));
}

/// Every file below `root` with its bytes.
fn tree_of(root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    files(root).into_iter().map(|rel| (rel.clone(), read(root, &rel))).collect()
}

/// The paths each manifest of `namespace` below `root` tracks.
fn tracked_by(root: &Path, namespace: &str) -> Vec<String> {
    files(root)
        .into_iter()
        .filter(|p| p.rsplit('/').next() == Some(&format!("{namespace}.plugforge-manifest.json")))
        .flat_map(|manifest| {
            let manifest = read_json(root, &manifest);
            let files = manifest["files"].as_array().cloned().unwrap_or_default();
            files.into_iter().map(|f| f["path"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn two_plugins_in_one_project_keep_each_others_files_and_parts_when_one_is_uninstalled() {
    // Every kind written into a project (or home) folder, with every shared
    // file it writes: the user's own version of some, none of the others.
    let scopes = [
        ("project", "claude-code:project,codex:project,gemini:project,opencode,openclaw:workspace"),
        ("user", "claude-code:project,codex:project,gemini:project,opencode,hermes:workspace"),
    ];
    // As people keep them, and as tools write them: on one line, with
    // empty containers.
    let kept: [(&str, &str); 9] = [
        (".mcp.json", "{\n  // mine\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"x\"}\n  }\n}\n"),
        (
            ".claude.json",
            "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"x\"}\n  }\n}\n",
        ),
        (".claude/settings.json", "{\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]}\n}\n"),
        ("CLAUDE.md", "# My project\n\nNotes.\n"),
        ("AGENTS.md", "My notes.\n"),
        (".codex/config.toml", "# mine\nmodel = \"o3\"\n"),
        (".gemini/settings.json", "{\n  \"theme\": \"dark\"\n}\n"),
        ("opencode.json", "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"theme\": \"x\",\n}\n"),
        (".hermes/config.yaml", "# mine\nmodel: x  # keep\nmcp_servers:\n  mine: {command: x}\n"),
    ];
    let compact: [(&str, &str); 7] = [
        (".mcp.json", "{\"mcpServers\": {}}\n"),
        (".claude.json", "{\"numStartups\": 3}"),
        (".claude/settings.json", "{\"permissions\": {\"allow\": [\"Bash(ls)\"]}}\n"),
        (".gemini/settings.json", "{}\n"),
        ("opencode.json", "{\"$schema\": \"https://opencode.ai/config.json\", \"mcp\": {}}\n"),
        (".codex/config.toml", "model = \"o3\"\n"),
        (".hermes/config.yaml", "mcp_servers: {}\n"),
    ];
    let tmp = TempDir::new("two-plugins-one-project");
    let (alpha, beta) = (tmp.join("alpha"), tmp.join("beta"));
    neighbour_plugin(&alpha, "alpha");
    neighbour_plugin(&beta, "beta");
    for ((scope, targets), (style, users)) in scopes
        .iter()
        .flat_map(|scope| [("kept", &kept[..]), ("compact", &compact[..])].map(|style| (*scope, style)))
    {
        for (first, second) in [("alpha", "beta"), ("beta", "alpha")] {
            let case = format!("{scope}, {style} files, {first} uninstalled first");
            let out = tmp.join(&format!("{scope}-{style}-{first}"));
            for (rel, bytes) in users {
                write(&out, rel, bytes);
            }
            let original = tree_of(&out);
            let build = |name: &str, extra: &[&str]| {
                let src = tmp.join(name);
                let args =
                    [&["build", s(&src), "--target", targets, "--scope", scope, "--out", s(&out)], extra];
                run(&args.concat())
            };
            let uninstall = |name: &str| {
                run(&[
                    "uninstall",
                    "--target",
                    targets,
                    "--scope",
                    scope,
                    "--namespace",
                    name,
                    "--out",
                    s(&out),
                ])
            };
            build("alpha", &[]).expect(0);
            build("beta", &[]).expect(0);
            let both = tree_of(&out);
            uninstall(first).expect(0);
            let after = tree_of(&out);
            for path in tracked_by(&out, second) {
                assert_eq!(
                    after.get(&path),
                    both.get(&path),
                    "{case}: {path} is {second}'s as its build left it"
                );
            }
            for (path, bytes) in &after {
                let text = String::from_utf8_lossy(bytes);
                assert!(
                    !text.contains(&format!("{first}-")),
                    "{case}: {path} still holds {first}'s part:\n{text}"
                );
            }
            // Every file and part of the other plugin is exactly what its
            // build would write: nothing to do, nothing taken.
            build(second, &["--check"]).expect(0);
            uninstall(second).expect(0);
            let last = tree_of(&out);
            assert_eq!(
                last.keys().collect::<Vec<_>>(),
                original.keys().collect::<Vec<_>>(),
                "{case}: only the user's files are left"
            );
            for (path, bytes) in &original {
                assert_eq!(
                    String::from_utf8_lossy(&last[path]),
                    String::from_utf8_lossy(bytes),
                    "{case}: {path} is the user's again, byte for byte"
                );
            }
        }
    }
}

#[test]
fn a_section_several_runtimes_of_one_plugin_write_stays_until_the_last_is_uninstalled() {
    let tmp = TempDir::new("one-section-three-runtimes");
    let src = tmp.join("alpha");
    neighbour_plugin(&src, "alpha");
    let out = tmp.join("project");
    write(&out, "AGENTS.md", "My notes.\n");
    // Codex, OpenCode and OpenClaw all read AGENTS.md: one section for the three.
    let targets = "codex:project,opencode,openclaw:workspace";
    run(&["build", s(&src), "--target", targets, "--out", s(&out)]).expect(0);
    let built = text(&out, "AGENTS.md");
    assert!(built.contains("Context of alpha."), "{built}");
    let uninstall =
        |target: &str| run(&["uninstall", "--target", target, "--namespace", "alpha", "--out", s(&out)]);
    uninstall("codex:project").expect(0);
    assert_eq!(text(&out, "AGENTS.md"), built, "OpenCode and OpenClaw still read it");
    run(&["build", s(&src), "--target", "opencode,openclaw:workspace", "--out", s(&out), "--check"])
        .expect(0);
    uninstall("opencode,openclaw:workspace").expect(0);
    assert_eq!(text(&out, "AGENTS.md"), "My notes.\n");
}

#[test]
fn a_build_never_changes_or_drops_a_file_or_item_another_plugin_in_the_project_still_has() {
    let tmp = TempDir::new("neighbour-build");
    let (alpha, beta) = (tmp.join("alpha"), tmp.join("beta"));
    neighbour_plugin(&alpha, "alpha");
    neighbour_plugin(&beta, "beta");
    let out = tmp.join("project");
    let targets = "claude-code:project,codex:project";
    let build = |src: &Path, extra: &[&str]| {
        run(&[&["build", s(src), "--target", targets, "--out", s(&out), "--json"], extra].concat())
    };
    build(&alpha, &[]).expect(0);
    build(&beta, &[]).expect(0);
    let pdf = ".claude/skills/pdf/SKILL.md";
    let shared = read(&out, pdf);

    // alpha's own copy changes: beta's bytes are in the way.
    write(&alpha, "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Reads PDFs\n---\nRead it twice.\n");
    let r = build(&alpha, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let conflict = action(&r.json(), pdf).clone();
    assert_eq!(conflict["op"], "conflict", "{conflict:#}");
    let why = conflict["reason"].as_str().unwrap();
    assert!(why.contains(".claude/beta.plugforge-manifest.json"), "{why}");
    assert_eq!(read(&out, pdf), shared, "nothing written");

    // alpha drops the skill and the common hook: both stay for beta.
    std::fs::remove_dir_all(alpha.join("skills/pdf")).unwrap();
    write(
        &alpha,
        "hooks/hooks.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/bin/check.sh"}]}]}}"#,
    );
    let r = build(&alpha, &[]);
    r.expect(0);
    let notes = r.json()["plan"]["diagnostics"].to_string();
    assert!(notes.contains("kept_for_another_bundle"), "{notes}");
    assert_eq!(read(&out, pdf), shared, "beta's skill stays");
    for file in [".claude/settings.json", ".codex/hooks.json"] {
        assert!(
            text(&out, file).contains("echo formatted"),
            "{file}: beta's hook stays:\n{}",
            text(&out, file)
        );
    }
    build(&beta, &["--check"]).expect(0);
}
