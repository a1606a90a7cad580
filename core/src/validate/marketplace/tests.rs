//! Marketplace rules over small in-memory marketplaces.

use serde_json::{Value, json};

use super::local_plugin_roots;
use crate::lint::marketplace::Source;
use crate::runtime::Runtime;
use crate::source::SourceTree;
use crate::validate::detect::{Subject, SubjectKind};
use crate::validate::manifest::tests::findings;

const CURSOR_PLUGIN: &str = r#"{"name": "demo", "author": {"name": "Ops"}}"#;

#[test]
fn local_roots_follow_each_runtimes_source_forms() {
    let mut tree = SourceTree::new();
    let market = r#"{"plugins": [{"name": "a", "source": "./plugins/a"}, {"name": "b", "source": {"source": "github", "repo": "o/r"}},
        {"name": "c", "source": "../c"}, {"name": "d", "source": "./plugins/a/"}]}"#;
    tree.insert("m/.claude-plugin/marketplace.json", market.as_bytes().to_vec(), false).unwrap();
    let subject = |runtime| Subject {
        kind: SubjectKind::Marketplace,
        runtime: Some(runtime),
        root: "m".into(),
        marker: String::new(),
    };
    assert_eq!(local_plugin_roots(&tree, &subject(Runtime::ClaudeCode)), vec!["m/plugins/a"]);
    let cursor = r#"{"plugins": [{"name": "a", "source": "third_party/a"}, {"name": "b", "source": "https://github.com/o/r"}]}"#;
    tree.insert("m/.cursor-plugin/marketplace.json", cursor.as_bytes().to_vec(), false).unwrap();
    assert_eq!(local_plugin_roots(&tree, &subject(Runtime::Cursor)), vec!["m/third_party/a"]);
}

#[test]
fn duplicate_entries_point_at_the_second_name() {
    let market = "{\n  \"name\": \"demo\",\n  \"owner\": {\"name\": \"demo\"},\n  \"description\": \"d\",\n  \"plugins\": [\n    {\"name\": \"demo\", \"source\": \"./p\"},\n    {\"name\": \"demo\", \"source\": \"./p\"}\n  ]\n}";
    let plugin = r#"{"name": "demo", "version": "1", "description": "d", "author": {"name": "x"}}"#;
    let found = findings(
        &[(".claude-plugin/marketplace.json", market), ("p/.claude-plugin/plugin.json", plugin)],
        None,
    );
    assert_eq!(found, vec![("marketplace/duplicate-plugin", Some(7))]);
}

#[test]
fn cursor_entries_resolve_without_dot_slash_and_need_a_manifest() {
    let market = r#"{"name": "demo-market", "owner": {"name": "Ops"}, "plugins": [
        {"name": "demo", "source": "plugins/demo"}, {"name": "gone", "source": "plugins/gone"}]}"#;
    let found = findings(
        &[
            (".cursor-plugin/marketplace.json", market),
            ("plugins/demo/.cursor-plugin/plugin.json", CURSOR_PLUGIN),
            ("plugins/gone/README.md", "x"),
        ],
        None,
    );
    assert_eq!(found.iter().map(|(c, _)| *c).collect::<Vec<_>>(), vec!["marketplace/source-not-found"]);
}

#[test]
fn codex_marketplace_names_and_entries() {
    let market = r#"{"name": "demo market", "plugins": [{"name": "demo", "source": {"source": "local", "path": "./demo"}, "policy": {"installation": "SOMETIMES"}}]}"#;
    let found = findings(
        &[
            (".agents/plugins/marketplace.json", market),
            ("demo/skills/hello/SKILL.md", "---\nname: hello\ndescription: d\n---\n"),
        ],
        None,
    );
    let codes: Vec<&str> = found.iter().map(|(c, _)| *c).collect();
    assert_eq!(codes, vec!["marketplace/invalid-field", "marketplace/name-invalid"]);
}

#[test]
fn sources_are_read_per_runtime() {
    let source_of = |runtime: Runtime, entry: &Value| {
        super::source_of(runtime.spec().marketplace.as_ref().expect("a marketplace"), entry)
    };
    let entry = |source: Value| json!({ "name": "p", "source": source });
    assert_eq!(source_of(Runtime::ClaudeCode, &entry(json!("./a/"))), Source::Local("a".into()));
    assert!(matches!(source_of(Runtime::ClaudeCode, &entry(json!("a"))), Source::Invalid(_)));
    assert!(matches!(source_of(Runtime::ClaudeCode, &entry(json!("./../a"))), Source::Invalid(_)));
    assert_eq!(
        source_of(Runtime::ClaudeCode, &entry(json!({"source": "github", "repo": "o/r"}))),
        Source::Remote
    );
    assert_eq!(
        source_of(Runtime::Codex, &entry(json!({"source": "local", "path": "./codex"}))),
        Source::Local("codex".into())
    );
    assert!(matches!(source_of(Runtime::Codex, &entry(json!("./"))), Source::Invalid(_)));
    assert_eq!(
        source_of(Runtime::Cursor, &entry(json!("third_party/x"))),
        Source::Local("third_party/x".into())
    );
    assert_eq!(source_of(Runtime::Cursor, &entry(json!("https://github.com/o/r"))), Source::Remote);
    assert_eq!(source_of(Runtime::Cursor, &json!({"name": "p"})), Source::Missing);
}
