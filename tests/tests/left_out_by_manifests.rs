//! Public plugins of the real-world corpus that ship several runtimes'
//! manifests giving runtimes different parts: what a runtime's own
//! manifest does not load stays out of its bundle with a row naming that
//! manifest, and what the runtime loads anyway (its default folders, a
//! field it does not read) is carried.

use plugforge_core::{BuildOptions, Component, Level, Output, TargetRequest};

fn build(unit: &str) -> Output {
    let root =
        plugforge_conformance::repo_dir().join("tests/conformance/realworld").join(unit).join("plugin");
    let tree = plugforge_conformance::read_tree(&root);
    let options = BuildOptions { targets: vec![TargetRequest::new("all")], ..Default::default() };
    plugforge_core::build(&tree, &options).unwrap_or_else(|e| panic!("{unit}: {e}"))
}

/// The hook rows of `runtime`: (level, detail).
fn hook_rows(output: &Output, runtime: &str) -> Vec<(Level, String)> {
    let bundle = output.bundles.iter().find(|b| b.runtime.id() == runtime).expect("the runtime is built");
    bundle
        .honesty
        .iter()
        .filter(|h| h.component == Component::Hook)
        .map(|h| (h.level, h.detail.clone()))
        .collect()
}

/// obra/superpowers and doc-detective: each Cursor manifest names its own
/// Cursor hooks file, so Cursor does not load the Claude hooks.
#[test]
fn a_cursor_manifest_naming_its_own_hooks_leaves_the_claude_hooks_out_of_cursor() {
    for (unit, events) in [("superpowers", 1), ("qwen-doc-detective/plugin/plugins/doc-detective", 0)] {
        let output = match unit.split_once("/plugin/") {
            // A plugin below its repository's plugin folder.
            Some((repo, below)) => {
                let root = plugforge_conformance::repo_dir()
                    .join("tests/conformance/realworld")
                    .join(repo)
                    .join("plugin")
                    .join(below);
                let tree = plugforge_conformance::read_tree(&root);
                let options = BuildOptions { targets: vec![TargetRequest::new("all")], ..Default::default() };
                plugforge_core::build(&tree, &options).unwrap_or_else(|e| panic!("{unit}: {e}"))
            }
            None => build(unit),
        };
        let cursor = hook_rows(&output, "cursor");
        assert_eq!(cursor.len(), 1, "{unit}: one row for the hooks left out: {cursor:?}");
        assert_eq!(cursor[0].0, Level::Unsupported, "{unit}");
        assert!(
            cursor[0].1.contains("targets.cursor.hooks")
                && cursor[0].1.contains(".cursor-plugin/plugin.json")
        );
        if events > 0 {
            assert!(
                cursor[0].1.starts_with(&format!("{events} hook event(s) left out")),
                "{unit}: {cursor:?}"
            );
        }
        let claude = hook_rows(&output, "claude-code");
        assert!(
            !claude.is_empty() && claude.iter().all(|(level, _)| *level == Level::Supported),
            "{unit}: {claude:?}"
        );
    }
}

/// qoder-alibabacloud-core: Qoder's `hooks` adds its own file to
/// hooks/hooks.json, which it still loads, so Qoder keeps the hooks.
#[test]
fn a_manifest_that_adds_hooks_keeps_the_default_hooks() {
    let output = build("qoder-alibabacloud-core");
    let qoder = hook_rows(&output, "qoder");
    assert!(!qoder.is_empty(), "{qoder:?}");
    assert!(
        qoder.iter().all(|(level, detail)| *level != Level::Unsupported && !detail.contains("targets.qoder"))
    );
}

/// netlify-context-and-tools: its gemini-extension.json lists 12 of its 15
/// skills under `skills`, a field Gemini CLI does not read: Gemini loads
/// every skill below skills/, so none is left out.
#[test]
fn a_list_the_runtime_does_not_read_leaves_nothing_out() {
    let output = build("netlify-context-and-tools");
    let gemini = output.bundles.iter().find(|b| b.runtime.id() == "gemini").expect("gemini is built");
    let skills: Vec<_> = gemini.honesty.iter().filter(|h| h.component == Component::Skill).collect();
    assert_eq!(skills.len(), 15, "{skills:?}");
    assert!(skills.iter().all(|h| h.level != Level::Unsupported), "{skills:?}");
    assert!(!output.diagnostics.iter().any(|d| d.code == "left_out_for_runtime"));
}
