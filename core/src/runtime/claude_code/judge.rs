//! What Claude Code's report (`core/src/runtime/claude_code/drivers/claude_inventory.py`) says of a
//! plugin: `plugin validate --strict` of the plugin and of the marketplace,
//! `marketplace add`, `install`, and the component inventory of `plugin
//! details` (commands are listed among skills).

use serde_json::Value;

use crate::runtime::verdict::{Built, Reading, exit, file_named, last_lines, strings};

/// Since 2.1.3xx `claude plugin validate` follows its verdict with what the
/// plugin provides and the plugin directory's checks, which "do not change
/// the result": neither is part of the verdict.
const REPORT_TAILS: [&str; 3] = ["Provides:", "Hosts not read for:", "Plugin directory checks"];

/// The `❯` lines of a validate verdict (its findings), each with the file of
/// the `Validating <what>: <path>` section it is in (below `dir`), else the
/// verdict's last lines.
fn findings(output: &str, dir: &str) -> Vec<(String, Option<String>)> {
    let verdict: Vec<&str> =
        output.lines().take_while(|l| !REPORT_TAILS.iter().any(|t| l.trim().starts_with(t))).collect();
    let mut file = None;
    let mut found = Vec::new();
    for line in &verdict {
        let line = line.trim();
        if line.starts_with("Validating ") {
            file = file_named(line, dir);
        } else if let Some(finding) = line.strip_prefix('❯') {
            found.push((finding.trim().to_string(), file.clone()));
        }
    }
    if found.is_empty() {
        found.push((last_lines(&verdict.join("\n"), 2), None));
    }
    found
}

/// Reads a plugin's report: `dir` is the plugin folder, listed by the marketplace at its root.
pub(crate) fn read_plugin(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    for (key, step) in [
        ("validate_plugin", "plugin validate --strict (plugin)"),
        ("validate_marketplace", "plugin validate --strict (marketplace)"),
    ] {
        let result = &report[key];
        if result.is_null() {
            continue;
        }
        let counted = |k: &str| result[k].as_i64().unwrap_or(0);
        if exit(result) != Some(0) || counted("warnings") > 0 || counted("errors") > 0 {
            let output = result["output"].as_str().unwrap_or_default();
            for (finding, file) in findings(output, built.dir) {
                reading.say(step, finding, file.as_deref());
            }
        }
    }
    for (key, step) in [("marketplace_add", "plugin marketplace add"), ("install", "plugin install")] {
        let result = &report[key];
        match exit(result) {
            Some(0) => {}
            Some(_) => reading.say(step, last_lines(result["output"].as_str().unwrap_or_default(), 3), None),
            None => reading.say(step, "not run (no marketplace lists the plugin)", None),
        }
    }
    let details = &report["details"];
    if exit(details) != Some(0) {
        reading.say("plugin details", last_lines(details["raw"].as_str().unwrap_or("not run"), 3), None);
        return reading;
    }
    let mut skills = built.skill_folders("skills");
    skills.extend(built.files_in("commands", ".md"));
    let same = |name: &str| name.to_string();
    reading.compare("skill", "skills", &skills, &strings(&details["skills"]), &same);
    reading.compare("agent", "agents", &built.files_in("agents", ".md"), &strings(&details["agents"]), &same);
    let hooks = built.json_keys("hooks/hooks.json", "/hooks");
    reading.compare("hook", "hooks", &hooks, &strings(&details["hooks"]), &same);
    let servers = built.mcp_servers(".mcp.json");
    reading.compare("MCP server", "MCP servers", &servers, &strings(&details["mcp_servers"]), &same);
    reading
}

/// The keys of the object at `pointer` in the shared JSON file `path` as on
/// disk (a file the build holds parts of, so not in its manifest).
fn shared_keys(built: &Built<'_>, path: &str, pointer: &str) -> Vec<(String, String)> {
    built
        .files
        .get(path)
        .and_then(|bytes| serde_json::from_slice::<Value>(bytes).ok())
        .and_then(|value| value.pointer(pointer).and_then(Value::as_object).map(|m| m.keys().cloned().collect::<Vec<_>>()))
        .unwrap_or_default()
        .into_iter()
        .map(|key| (key, path.to_string()))
        .collect()
}

/// Reads a project's report (`core/src/runtime/claude_code/drivers/claude_project_inventory.py`):
/// Claude Code's own component loader over `.claude/`, `plugin validate` of
/// the same components with the settings' hooks, and `mcp list`.
pub(crate) fn read_project(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    let validate = &report["validate"];
    let counted = |k: &str| validate[k].as_i64().unwrap_or(0);
    if exit(validate) != Some(0) || counted("warnings") > 0 || counted("errors") > 0 {
        for (finding, _) in findings(validate["output"].as_str().unwrap_or("not run"), built.dir) {
            reading.say("plugin validate (the project's components)", finding, None);
        }
    }
    let details = &report["details"];
    if exit(details) != Some(0) {
        reading.say("plugin details", last_lines(details["raw"].as_str().unwrap_or("not run"), 3), None);
        return reading;
    }
    let mcp = &report["mcp"];
    if exit(mcp) != Some(0) || mcp["diagnostics"].as_bool() == Some(true) {
        reading.say("mcp list", last_lines(mcp["output"].as_str().unwrap_or("not run"), 4), None);
    }
    let same = |name: &str| name.to_string();
    let mut skills = built.skill_folders(".claude/skills");
    skills.extend(built.files_in(".claude/commands", ".md"));
    reading.compare("skill", "skills", &skills, &strings(&details["skills"]), &same);
    let agents = built.files_in(".claude/agents", ".md");
    reading.compare("agent", "agents", &agents, &strings(&details["agents"]), &same);
    let hooks: Vec<(String, String)> = shared_keys(built, ".claude/settings.json", "/hooks");
    reading.compare("hook", "hooks", &hooks, &strings(&report["scratch_details"]["hooks"]), &same);
    let mut servers = shared_keys(built, ".mcp.json", "/mcpServers");
    servers.extend(shared_keys(built, ".claude.json", "/mcpServers"));
    let listed: std::collections::BTreeSet<String> =
        mcp["servers"].as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    reading.compare("MCP server", "MCP servers", &servers, &listed, &same);
    reading
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;
    use crate::manifest::Manifest;

    fn manifest(paths: &[&str]) -> Manifest {
        let files: Vec<Value> =
            paths.iter().map(|p| json!({"path": p, "sha256": "0", "template": p})).collect();
        let value = json!({
            "schema_version": crate::manifest::SCHEMA_VERSION, "generator": {"name": "plugforge", "version": "0"},
            "generated_at": "t", "runtime": "claude-code", "kind": "plugin", "scope": "project",
            "namespace": "demo", "plugin": {"name": "demo", "version": "1.0.0"}, "files": files,
        });
        Manifest::parse("m.json", value.to_string().as_bytes()).unwrap().sorted()
    }

    /// The report of a bundle whose skill `b` was deleted and whose manifest
    /// and `.mcp.json` Claude Code's validator refuses, as 2.1.332 prints it.
    fn broken_report(dir: &str) -> Value {
        let validate = format!(
            "Validating plugin manifest: {dir}/.claude-plugin/plugin.json\n\n⚠ Found 1 warning:\n\n  ❯ bogus: Unknown field 'bogus'.\n\n\
             Validating mcp: {dir}/.mcp.json\n\n✘ Found 1 error:\n\n  ❯ mcpServers.x.command: Invalid input.\n\n\
             Plugin directory checks for {dir}.\n\n  ❯ icon: No icon\n\n✘ Validation failed\n"
        );
        json!({
            "validate_plugin": {"exit": 1, "output": validate, "warnings": 1, "errors": 1},
            "validate_marketplace": {"exit": 0, "output": "✔ Validation passed", "warnings": 0, "errors": 0},
            "marketplace_add": {"exit": 0, "output": "ok"},
            "install": {"exit": 0, "output": "ok"},
            "details": {"exit": 0, "skills": ["a", "go"], "agents": [], "hooks": ["Stop"], "mcp_servers": ["x"], "raw": ""},
        })
    }

    #[test]
    fn a_deleted_skill_and_the_validators_findings_fail_with_their_files() {
        let manifest = manifest(&[
            ".claude-plugin/plugin.json",
            ".mcp.json",
            "commands/go.md",
            "hooks/hooks.json",
            "skills/a/SKILL.md",
            "skills/b/SKILL.md",
        ]);
        let files: BTreeMap<String, Vec<u8>> = [
            ("hooks/hooks.json", r#"{"hooks": {"Stop": []}}"#),
            (".mcp.json", r#"{"mcpServers": {"x": {"type": "stdio"}}}"#),
        ]
        .into_iter()
        .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
        .collect();
        let built = Built { dir: "/scratch/out/claude-code", manifest: &manifest, files: &files };
        let reading = read_plugin(&broken_report("/scratch/out/claude-code"), &built);
        assert!(!reading.passed());
        let missing: Vec<(&str, &str, &str)> =
            reading.missing.iter().map(|m| (m.component.as_str(), m.name.as_str(), m.file.as_str())).collect();
        assert_eq!(missing, [("skill", "b", "skills/b/SKILL.md")]);
        let said: Vec<(&str, Option<&str>)> =
            reading.said.iter().map(|s| (s.message.as_str(), s.file.as_deref())).collect();
        assert_eq!(
            said,
            [
                ("bogus: Unknown field 'bogus'.", Some(".claude-plugin/plugin.json")),
                ("mcpServers.x.command: Invalid input.", Some(".mcp.json")),
            ],
            "the directory checks after the verdict are not findings"
        );
        let counts: Vec<(&str, usize, usize)> =
            reading.loaded.iter().map(|c| (c.component.as_str(), c.loaded, c.built)).collect();
        assert_eq!(counts, [("skills", 2, 3), ("agents", 0, 0), ("hooks", 1, 1), ("MCP servers", 1, 1)]);
    }

    #[test]
    fn a_step_that_did_not_run_is_said() {
        let manifest = manifest(&["skills/a/SKILL.md"]);
        let files = BTreeMap::new();
        let built = Built { dir: "/d", manifest: &manifest, files: &files };
        let report = json!({"validate_plugin": {"exit": 0, "output": "", "warnings": 0, "errors": 0}, "details": null});
        let reading = read_plugin(&report, &built);
        let steps: Vec<&str> = reading.said.iter().map(|s| s.step.as_str()).collect();
        assert_eq!(steps, ["plugin marketplace add", "plugin install", "plugin details"]);
    }
}
