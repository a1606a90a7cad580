use serde_json::Value;

use super::read_listing;
use crate::source::SourceTree;

fn tree(files: &[(&str, &str)]) -> SourceTree {
    let mut tree = SourceTree::new();
    for (path, text) in files {
        tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
    }
    tree
}

fn json(tree: &SourceTree, path: &str) -> Value {
    serde_json::from_slice(&tree.get(path).unwrap_or_else(|| panic!("{path} is missing")).bytes).unwrap()
}

const MARKET: &str = ".claude-plugin/marketplace.json";

#[test]
fn an_entry_defines_a_plugin_without_a_manifest_lsp_servers_and_all() {
    let market = r#"{
  "name": "m",
  "owner": {"name": "o"},
  "plugins": [
    {
      "name": "ts-lsp",
      "source": "./plugins/ts-lsp",
      "description": "TypeScript language server",
      "author": {"name": "A"},
      "category": "development",
      "strict": false,
      "lspServers": {"typescript": {"command": "typescript-language-server", "args": ["--stdio"]}}
    },
    {"name": "far", "source": {"source": "github", "repo": "o/far"}}
  ]
}"#;
    let source = tree(&[(MARKET, market), ("plugins/ts-lsp/README.md", "# TS\n")]);
    let listing = read_listing(&source).unwrap().expect("a listing");
    assert_eq!(listing.plugins.len(), 1);
    let plugin = &listing.plugins[0];
    assert_eq!((plugin.name.as_str(), plugin.folder.as_str()), ("ts-lsp", "plugins/ts-lsp"));
    let manifest = json(&plugin.tree, ".claude-plugin/plugin.json");
    assert_eq!(manifest["name"], "ts-lsp");
    assert_eq!(manifest["author"]["name"], "A");
    assert_eq!(manifest["lspServers"]["typescript"]["command"], "typescript-language-server");
    for key in ["source", "strict", "category"] {
        assert!(manifest.get(key).is_none(), "{key} is the listing's: {manifest}");
    }
    assert_eq!(json(&plugin.tree, MARKET)["plugins"][0]["category"], "development");
    assert!(plugin.tree.get("README.md").is_some());
    let origin = &plugin.origins[0];
    assert_eq!(
        (origin.0.as_str(), origin.1.file.as_str(), origin.1.line),
        (".claude-plugin/plugin.json", MARKET, Some(5))
    );
    assert_eq!(listing.not_built.len(), 1);
    let row = &listing.not_built[0];
    assert_eq!(row.message, "plugin \"far\": not built: remote source (no network)");
    assert_eq!(row.code.as_str(), "not_built");
    assert_eq!(row.location.as_ref().map(|l| (l.file.as_str(), l.line)), Some((MARKET, Some(14))));
}

#[test]
fn a_strict_entry_adds_its_component_paths_to_the_plugins_own_manifest() {
    let market = r#"{"name": "m", "owner": {"name": "o"}, "plugins": [
  {"name": "kit", "source": "./kit", "commands": ["./extra/"], "author": {"name": "Entry"}, "lspServers": {}}
]}"#;
    let source = tree(&[
        (MARKET, market),
        (
            "kit/.claude-plugin/plugin.json",
            r#"{"name": "kit", "commands": "./cmds/", "author": {"name": "Own"}}"#,
        ),
        ("kit/cmds/a.md", "a"),
        ("kit/extra/b.md", "b"),
    ]);
    let listing = read_listing(&source).unwrap().unwrap();
    let manifest = json(&listing.plugins[0].tree, ".claude-plugin/plugin.json");
    assert_eq!(manifest["commands"], serde_json::json!(["./cmds/", "./extra/"]));
    assert_eq!(manifest["author"]["name"], "Own", "the plugin's own manifest wins");
    assert_eq!(listing.notes.len(), 1, "{:?}", listing.notes);
    assert!(listing.notes[0].message.contains("\"lspServers\" is not read"), "{}", listing.notes[0].message);
}

#[test]
fn strict_false_with_components_beside_a_manifest_is_refused_at_the_entry() {
    let market = "{\"name\": \"m\", \"plugins\": [\n {\"name\": \"a\", \"source\": \"./a\"},\n {\"name\": \"kit\", \"source\": \"./kit\", \"strict\": false, \"skills\": [\"./s\"]}\n]}";
    let source = tree(&[
        (MARKET, market),
        ("a/skills/x/SKILL.md", "---\nname: x\ndescription: x\n---\n"),
        ("kit/.claude-plugin/plugin.json", r#"{"name": "kit"}"#),
    ]);
    let error = read_listing(&source).unwrap_err();
    let problem = &error.problems[0];
    assert!(
        problem.message.contains("\"strict\": false and its entry declares skills"),
        "{}",
        problem.message
    );
    assert_eq!(problem.location.as_ref().map(|l| (l.file.as_str(), l.line)), Some((MARKET, Some(3))));
}

#[test]
fn a_source_that_leaves_the_marketplace_root_is_refused_naming_file_and_line() {
    let market = "{\"name\": \"m\", \"plugins\": [\n  {\"name\": \"a\", \"source\": \"./a\"},\n  {\"name\": \"out\",\n   \"source\": \"./../elsewhere\"}\n]}";
    let source = tree(&[(MARKET, market), ("a/commands/x.md", "x")]);
    let error = read_listing(&source).unwrap_err();
    assert_eq!(error.problems.len(), 1);
    let problem = &error.problems[0];
    assert!(problem.message.contains("plugin \"out\" is refused"), "{}", problem.message);
    assert!(problem.message.contains("contains \"..\""), "{}", problem.message);
    assert_eq!(problem.location.as_ref().map(|l| (l.file.as_str(), l.line)), Some((MARKET, Some(4))));
}

#[test]
fn a_marketplace_listing_only_its_own_root_is_a_single_plugin() {
    let market = r#"{"name": "m", "plugins": [{"name": "me", "source": "./"}]}"#;
    let source = tree(&[(MARKET, market), (".claude-plugin/plugin.json", r#"{"name": "me"}"#)]);
    assert!(read_listing(&source).unwrap().is_none());
    assert!(read_listing(&tree(&[("commands/x.md", "x")])).unwrap().is_none());
}

#[test]
fn the_root_listed_beside_other_folders_leaves_their_files_to_them() {
    let market =
        r#"{"name": "m", "plugins": [{"name": "me", "source": "./"}, {"name": "b", "source": "./b"}]}"#;
    let source = tree(&[(MARKET, market), ("commands/x.md", "x"), ("b/commands/y.md", "y")]);
    let listing = read_listing(&source).unwrap().unwrap();
    let root = &listing.plugins[0].tree;
    assert_eq!(json(root, ".claude-plugin/plugin.json")["name"], "me");
    assert!(root.get("commands/x.md").is_some());
    assert!(root.get("b/commands/y.md").is_none());
    assert!(listing.plugins[1].tree.get("commands/y.md").is_some());
}

#[test]
fn codex_and_cursor_listings_are_read_by_their_own_source_rules() {
    let codex = r#"{"name": "m", "plugins": [
  {"name": "a", "source": {"source": "local", "path": "./plugins/a"}, "category": "Coding"},
  {"name": "r", "source": {"source": "url", "url": "https://example.com/r.git"}}
]}"#;
    let source = tree(&[
        (".agents/plugins/marketplace.json", codex),
        ("plugins/a/.codex-plugin/plugin.json", r#"{"name": "a"}"#),
    ]);
    let listing = read_listing(&source).unwrap().unwrap();
    assert_eq!(listing.file, ".agents/plugins/marketplace.json");
    assert_eq!(listing.plugins[0].folder, "plugins/a");
    assert_eq!(listing.not_built.len(), 1);
    let cursor = r#"{"name": "m", "plugins": [{"name": "a", "source": "plugins/a"}, {"name": "g", "source": "git@github.com:o/g.git"}]}"#;
    let source = tree(&[
        (".cursor-plugin/marketplace.json", cursor),
        ("plugins/a/.cursor-plugin/plugin.json", r#"{"name": "a"}"#),
    ]);
    let listing = read_listing(&source).unwrap().unwrap();
    assert_eq!((listing.plugins.len(), listing.not_built.len()), (1, 1));
}

#[test]
fn a_root_that_is_a_plugin_or_lists_only_a_remote_copy_of_itself_is_one_plugin() {
    let market =
        r#"{"name": "m", "plugins": [{"name": "me", "source": "./"}, {"name": "b", "source": "./b"}]}"#;
    let source = tree(&[
        (MARKET, market),
        (".claude-plugin/plugin.json", r#"{"name": "me"}"#),
        ("b/commands/y.md", "y"),
    ]);
    assert!(read_listing(&source).unwrap().is_none());
    let remote =
        r#"{"name": "m", "plugins": [{"name": "me", "source": {"source": "github", "repo": "o/me"}}]}"#;
    assert!(read_listing(&tree(&[(MARKET, remote), ("skills/x/SKILL.md", "x")])).unwrap().is_none());
}

#[test]
fn entries_at_the_root_listing_their_skills_each_get_those_alone() {
    let market = r#"{"name": "m", "plugins": [
  {"name": "docs", "source": "./", "strict": false, "skills": ["./skills/pdf"]},
  {"name": "examples", "source": "./", "strict": false, "skills": ["./skills/art", "./skills/gif"]}
]}"#;
    let skill = |name: &str| format!("---\nname: {name}\ndescription: {name}\n---\n");
    let (pdf, art, gif) = (skill("pdf"), skill("art"), skill("gif"));
    let source = tree(&[
        (MARKET, market),
        ("skills/pdf/SKILL.md", &pdf),
        ("skills/art/SKILL.md", &art),
        ("skills/gif/SKILL.md", &gif),
        ("README.md", "# all\n"),
    ]);
    let listing = read_listing(&source).unwrap().unwrap();
    let skills = |i: usize| -> Vec<String> {
        listing.plugins[i].tree.below("skills").map(|(p, _)| p.as_str().to_string()).collect()
    };
    assert_eq!(skills(0), ["skills/pdf/SKILL.md"]);
    assert_eq!(skills(1), ["skills/art/SKILL.md", "skills/gif/SKILL.md"]);
    assert!(listing.plugins[1].tree.get("README.md").is_some());
    assert_eq!(json(&listing.plugins[0].tree, ".claude-plugin/plugin.json")["name"], "docs");
}
