//! Rules of the `command` and `agent` areas, and the component layout and
//! Markdown reading the skill, hook and MCP areas share.

mod agents;
mod commands;
pub(crate) mod layout;

use super::Context;
use crate::lint::Rule;
use crate::lint::Sink;
use crate::lint::component_rules::{agent, command};
use layout::Layout;

pub const RULES: &[&Rule] = &[
    &command::INVALID_FRONTMATTER,
    &command::QUOTED_FRONTMATTER,
    &command::NO_FRONTMATTER,
    &command::MISSING_DESCRIPTION,
    &command::INVALID_FIELD,
    &command::INVALID_TOML,
    &command::MISSING_PROMPT,
    &command::IGNORED_FILE,
    &agent::INVALID_FRONTMATTER,
    &agent::QUOTED_FRONTMATTER,
    &agent::NO_FRONTMATTER,
    &agent::MISSING_DESCRIPTION,
    &agent::MISSING_FIELD,
    &agent::UNKNOWN_FIELD,
    &agent::INVALID_FIELD,
];

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let layout = Layout::of(cx, sink);
    commands::check(cx, &layout, sink);
    agents::check(cx, &layout, sink);
}

#[cfg(test)]
pub(crate) mod test_support {
    use crate::source::SourceTree;
    use crate::validate::{ValidateOptions, validate};

    /// `(code, file, line, message)` of every finding for `files`, judged
    /// for `target` (or the detected runtimes), leaving out the manifest
    /// area's (the fixtures' manifests are minimal on purpose).
    pub fn findings(
        files: &[(&str, &str)],
        target: Option<&str>,
    ) -> Vec<(String, String, Option<usize>, String)> {
        let mut tree = SourceTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        let options = ValidateOptions { target: target.map(str::to_string), strict: false };
        validate(&tree, &options)
            .unwrap()
            .findings
            .into_iter()
            .filter(|f| !f.code.as_str().starts_with("manifest/"))
            .map(|f| (f.code.to_string(), f.file().unwrap_or_default().to_string(), f.line(), f.message))
            .collect()
    }

    pub fn codes(files: &[(&str, &str)], target: Option<&str>) -> Vec<String> {
        findings(files, target).into_iter().map(|f| f.0).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{codes, findings};

    const CLAUDE: (&str, &str) = (
        ".claude-plugin/plugin.json",
        r#"{"name": "p", "version": "1.0.0", "description": "P.", "commands": "./cmds", "agents": ["./roles/a.md"]}"#,
    );

    #[test]
    fn claude_manifest_paths_replace_the_default_command_and_agent_folders() {
        let files = [
            CLAUDE,
            ("cmds/go.md", "Go\n"),
            ("commands/ignored.md", "Ignored\n"),
            ("roles/a.md", "---\nname: a\n---\nA\n"),
            ("agents/ignored.md", "Ignored\n"),
        ];
        let found = findings(&files, None);
        let files: Vec<(&str, &str)> = found.iter().map(|f| (f.0.as_str(), f.1.as_str())).collect();
        assert_eq!(
            files,
            [("command/no-frontmatter", "cmds/go.md"), ("agent/missing-description", "roles/a.md")]
        );
    }

    #[test]
    fn gemini_commands_report_toml_lines_and_types() {
        let manifest = ("gemini-extension.json", r#"{"name": "p", "version": "1.0.0"}"#);
        let found = findings(&[manifest, ("commands/a/b.toml", "prompt = 3\ndescription = [\"x\"]\n")], None);
        let lines: Vec<(&str, Option<usize>)> = found.iter().map(|f| (f.0.as_str(), f.2)).collect();
        assert_eq!(lines, [("command/invalid-field", Some(1)), ("command/invalid-field", Some(2))]);
        let broken = findings(
            &[manifest, ("commands/c.toml", "description = \"d\"\n\nprompt = \"\"\"\nopen\n")],
            None,
        );
        // The string never closes: the reader notices at the end of the text.
        assert_eq!((broken[0].0.as_str(), broken[0].2), ("command/invalid-toml", Some(5)));
    }

    #[test]
    fn claude_frontmatter_quirks_match_its_validator() {
        let manifest = (".claude-plugin/plugin.json", r#"{"name": "p"}"#);
        let judge = |text: &str| codes(&[manifest, ("commands/c.md", text)], None);
        // An empty block is YAML null, not a mapping; an unclosed one is body text.
        assert_eq!(judge("---\n---\nBody\n"), ["command/invalid-frontmatter"]);
        assert_eq!(judge("---\ndescription: x\nBody\n"), ["command/no-frontmatter"]);
        // `description:` with no value is present for Claude Code.
        assert!(judge("---\ndescription:\n---\nBody\n").is_empty());
        assert_eq!(judge("---\n- a\n---\nBody\n"), ["command/invalid-frontmatter"]);
    }

    #[test]
    fn opencode_agents_need_its_own_tools_shape() {
        let files = [
            ("opencode.json", "{}"),
            (".opencode/agents/r.md", "---\ndescription: R\ntools: Read, Grep\nmode: helper\n---\nR\n"),
        ];
        assert_eq!(codes(&files, None), ["agent/invalid-field", "agent/invalid-field"]);
    }
}
