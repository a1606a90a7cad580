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
