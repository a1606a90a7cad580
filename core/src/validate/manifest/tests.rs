//! Each runtime's manifest rules over small in-memory plugins.

use crate::source::SourceTree;
use crate::validate::{ValidateOptions, validate};

/// (code, line) of every finding of the manifest, marketplace, file and detect areas
/// for `files` (the other areas have tests of their own).
pub(crate) fn findings(files: &[(&str, &str)], target: Option<&str>) -> Vec<(&'static str, Option<usize>)> {
    let mut tree = SourceTree::new();
    for (path, text) in files {
        tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
    }
    let options = ValidateOptions { target: target.map(str::to_string), strict: false };
    let ours = |code: &str| {
        ["manifest/", "marketplace/", "file/", "detect/"].iter().any(|area| code.starts_with(area))
    };
    validate(&tree, &options)
        .unwrap()
        .findings
        .into_iter()
        .filter(|f| ours(f.code.as_str()))
        .map(|f| (f.code.as_str(), f.line()))
        .collect()
}

fn codes(files: &[(&str, &str)]) -> Vec<&'static str> {
    findings(files, None).into_iter().map(|(code, _)| code).collect()
}

const SKILL: &str = "---\nname: hello\ndescription: Says hello.\n---\nHi.\n";

#[test]
fn claude_findings_point_at_their_key() {
    let manifest = "{\n  \"name\": \"demo\",\n  \"version\": \"1\",\n  \"description\": \"d\",\n  \"author\": {\"name\": \"x\"},\n  \"skills\": \"./nope\",\n  \"mcp_servers\": {}\n}";
    let found = findings(&[(".claude-plugin/plugin.json", manifest)], None);
    assert_eq!(found, vec![("manifest/path-not-found", Some(6)), ("manifest/unknown-key", Some(7))]);
}

#[test]
fn claude_refuses_what_its_schema_refuses() {
    let manifest = r#"{"name": "demo", "version": "1", "description": "d", "author": {},
        "agents": ["./a.txt"], "dependencies": ["bad name!"],
        "userConfig": {"level": {"type": "text", "title": "L", "description": "d", "bogus": 1}}}"#;
    let found = codes(&[(".claude-plugin/plugin.json", manifest)]);
    for code in ["manifest/required-field-missing", "manifest/invalid-field", "manifest/key-not-allowed"] {
        assert!(found.contains(&code), "{code} in {found:?}");
    }
}

#[test]
fn codex_names_versions_and_ignored_paths() {
    let manifest = r#"{"name": "my plugin", "version": 1, "skills": "skills", "apps": "../apps.json", "interface": {"defaultPrompt": ["x"], "tagline": "y"}}"#;
    let found = codes(&[(".codex-plugin/plugin.json", manifest)]);
    assert_eq!(
        found,
        vec![
            "manifest/name-invalid",
            "manifest/path-escapes",
            "manifest/unknown-key",
            "manifest/value-ignored",
            "manifest/version-invalid"
        ]
    );
    assert_eq!(
        codes(&[(".codex-plugin/plugin.json", r#"{"version": "1.0.0"}"#)]),
        vec!["manifest/recommended-field-missing"]
    );
}

#[test]
fn gemini_names_and_context_files() {
    let manifest = r#"{"name": "my_ext", "version": "1.0.0", "contextFileName": ["../GEMINI.md", "CONTEXT.md"], "trust": true}"#;
    let found = codes(&[("gemini-extension.json", manifest)]);
    assert_eq!(
        found,
        vec![
            "manifest/name-invalid",
            "manifest/path-escapes",
            "manifest/path-not-found",
            "manifest/unknown-key"
        ]
    );
    let ok = r#"{"name": "My-Ext", "version": "1.0.0", "contextFileName": "GEMINI.md"}"#;
    assert!(codes(&[("gemini-extension.json", ok), ("GEMINI.md", "Be brief.\n")]).is_empty());
}

#[test]
fn cursor_schema_is_closed_and_globs_check_their_folder() {
    let manifest =
        r#"{"name": "Demo", "engines": {}, "skills": "./skills/**/SKILL.md", "rules": "./rules/*.mdc"}"#;
    let found = codes(&[(".cursor-plugin/plugin.json", manifest), ("skills/hello/SKILL.md", SKILL)]);
    assert_eq!(found, vec!["manifest/key-not-allowed", "manifest/name-invalid", "manifest/path-not-found"]);
}

#[test]
fn agent_plugins_reject_bad_names_and_report_unknown_fields() {
    let manifest = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "a--b", "displayName": "A", "extensions": []}"#;
    let found = codes(&[("plugin.json", manifest)]);
    assert_eq!(found, vec!["manifest/name-invalid", "manifest/unknown-key", "manifest/value-ignored"]);
}

#[test]
fn openclaw_hermes_and_opencode_check_what_makes_them_skip() {
    let openclaw = codes(&[("openclaw.plugin.json", r#"{"id": "demo"}"#)]);
    assert_eq!(openclaw, vec!["manifest/required-field-missing"]);
    assert!(
        codes(&[("openclaw.plugin.json", "{id: 'demo', configSchema: {},}")]).is_empty(),
        "JSON5 is not judged"
    );
    let hermes = codes(&[("plugin.yaml", "name: demo\nkind: plugin\n")]);
    assert_eq!(hermes, vec!["manifest/value-ignored"]);
    assert!(codes(&[("opencode.json", "{\n  // mine\n  \"mcp\": {},\n}\n")]).is_empty(), "JSONC is allowed");
    assert_eq!(codes(&[("opencode.json", "[1]")]), vec!["manifest/not-an-object"]);
}

#[test]
fn a_named_runtime_without_its_manifest() {
    assert_eq!(
        findings(&[("skills/hello/SKILL.md", SKILL)], Some("cursor")),
        vec![("manifest/missing", None)]
    );
    assert!(
        findings(&[("skills/hello/SKILL.md", SKILL)], Some("claude-code")).is_empty(),
        "optional for Claude Code"
    );
}

#[test]
fn truncated_manifests_never_panic() {
    let manifests = [
        (
            ".claude-plugin/plugin.json",
            r#"{"name": "démo", "skills": ["./s"], "commands": {"a": {"source": "./a.md"}}, "userConfig": {"k": {"type": "string"}}, "binaries": {"x": {}}}"#,
        ),
        (
            ".codex-plugin/plugin.json",
            r#"{"name": "d", "version": "1", "hooks": ["./h.json", {}], "interface": {"defaultPrompt": ["a", "b"]}}"#,
        ),
        (
            "gemini-extension.json",
            r#"{"name": "d", "version": "1.0.0", "contextFileName": ["A.md"], "plan": {"directory": "p"}}"#,
        ),
        (".cursor-plugin/plugin.json", r#"{"name": "d", "skills": "./s/**", "author": {"name": "x"}}"#),
        ("plugin.yaml", "name: d\nkind: [backend\n"),
        ("opencode.json", "{ /* c */ \"mcp\": {}, // x\n}"),
        (
            ".claude-plugin/marketplace.json",
            r#"{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "p", "source": "./p"}]}"#,
        ),
    ];
    for (path, text) in manifests {
        for cut in (0..=text.len()).filter(|cut| text.is_char_boundary(*cut)) {
            findings(&[(path, &text[..cut]), ("p/skills/a/SKILL.md", SKILL)], None);
        }
    }
}
