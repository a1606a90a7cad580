//! What Claude Code reads, in one place: the writer, the validator and the
//! importer all take these names from here.

/// The canonical dialect's names are Claude Code's: they are defined with
/// the canonical vocabulary, below the source loader, and are Claude Code's
/// facts here.
pub use crate::canonical::{
    CLAUDE_MANIFEST_DIR as MANIFEST_DIR, CLAUDE_MANIFEST_PATH as MANIFEST_PATH,
    CLAUDE_PLUGIN_DATA as PLUGIN_DATA, CLAUDE_PLUGIN_DATA_VAR as PLUGIN_DATA_VAR,
    CLAUDE_PLUGIN_ROOT as PLUGIN_ROOT, CLAUDE_PLUGIN_ROOT_VAR as PLUGIN_ROOT_VAR, HOOK_EVENTS,
};

/// The marketplace file: [`MANIFEST_DIR`] joined with `marketplace.json`.
/// Its entries' sources resolve from the folder holding [`MANIFEST_DIR`]:
/// a `./` path inside it, or an object of kind `github`, `url`,
/// `git-subdir` or `npm` (code.claude.com/docs/en/plugins/marketplace-reference).
/// How the pinned client (2.1.332) loads an entry's plugin: a folder without
/// [`MANIFEST_PATH`] takes the entry (less `source` and `strict`) as its
/// manifest, so components, `mcpServers` and `lspServers` declared only there
/// load; beside a manifest, an entry's `commands`, `agents`, `skills`,
/// `hooks` and `outputStyles` are added to it, unless the entry is
/// `"strict": false`, which fails the plugin ("has conflicting manifests:
/// both plugin.json and marketplace entry specify components"); an entry
/// whose source is the root itself and that lists `skills` loads those
/// alone, not the root's `skills/`. Beside a manifest the client also lets
/// the entry's `displayName`, `description`, `author`, `homepage`,
/// `repository`, `license` and `keywords` win; plugforge keeps the plugin's
/// own and takes from the entry only what the manifest lacks.
pub const MARKETPLACE_PATH: &str = ".claude-plugin/marketplace.json";

/// Hook handler `type`s, each with the string fields it requires.
pub const HOOK_HANDLER_TYPES: [(&str, &[&str]); 5] = [
    ("command", &["command"]),
    ("prompt", &["prompt"]),
    ("agent", &["prompt"]),
    ("http", &["url"]),
    ("mcp_tool", &["server", "tool"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_the_folder_joined_with_the_file_name() {
        assert_eq!(MANIFEST_PATH, format!("{MANIFEST_DIR}/plugin.json"));
        assert_eq!(MARKETPLACE_PATH, format!("{MANIFEST_DIR}/marketplace.json"));
        assert_eq!(PLUGIN_ROOT, format!("${{{PLUGIN_ROOT_VAR}}}"));
        assert_eq!(PLUGIN_DATA, format!("${{{PLUGIN_DATA_VAR}}}"));
    }

    /// The handler types and the string fields each requires agree with
    /// the published settings schema (tests/schemas/README.md says which).
    #[test]
    fn hook_handler_types_agree_with_the_published_schema() {
        let schema: serde_json::Value = serde_json::from_str(include_str!(
            "../../../../tests/schemas/claude-code/hook-command.schema.json"
        ))
        .expect("the schema excerpt is JSON");
        let mut published: Vec<(String, Vec<String>)> = schema["anyOf"]
            .as_array()
            .expect("anyOf")
            .iter()
            .map(|variant| {
                let kind = variant["properties"]["type"]["const"].as_str().expect("a const type");
                let required = variant["required"].as_array().expect("required").iter();
                let fields = required.filter_map(|f| f.as_str()).filter(|f| *f != "type").map(String::from);
                (kind.to_string(), fields.collect())
            })
            .collect();
        let mut ours: Vec<(String, Vec<String>)> = HOOK_HANDLER_TYPES
            .iter()
            .map(|(kind, fields)| (kind.to_string(), fields.iter().map(|f| f.to_string()).collect()))
            .collect();
        published.sort();
        ours.sort();
        assert_eq!(ours, published);
    }
}
