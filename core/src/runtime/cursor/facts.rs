//! What Cursor reads, in one place: the writer, the validator and the
//! importer all take these names from here. No Cursor client is available
//! here; the facts come from formats.md section 4.

/// [`MANIFEST_PATH`] as a literal, for the `concat!` of texts that are
/// `&'static str` (a `const` cannot be spliced into one).
macro_rules! manifest_path {
    () => {
        ".cursor-plugin/plugin.json"
    };
}
pub(crate) use manifest_path;

/// The folder that marks a Cursor plugin; it holds the manifest and, at a
/// marketplace root, the marketplace file.
pub const MANIFEST_DIR: &str = ".cursor-plugin";
/// The plugin manifest (a closed schema): [`MANIFEST_DIR`] joined with `plugin.json`.
pub const MANIFEST_PATH: &str = manifest_path!();
/// The marketplace file: [`MANIFEST_DIR`] joined with `marketplace.json`.
/// Its entries hold `name`, `source` (a folder relative to the marketplace
/// root, with or without `./`, or a git URL), `description` and
/// `minClientVersions` alone: a closed schema, so no entry defines a
/// plugin's components (cursor/plugin-template
/// `scripts/validate-template.mjs`).
pub const MARKETPLACE_PATH: &str = ".cursor-plugin/marketplace.json";

/// The plugin-folder variable Cursor plugins use in practice; Cursor's docs
/// do not document it. Cursor has no data folder, so no data variable.
pub const PLUGIN_ROOT_VAR: &str = "CURSOR_PLUGIN_ROOT";
/// [`PLUGIN_ROOT_VAR`] as hook commands and `mcp.json` spell it.
pub const PLUGIN_ROOT: &str = "${CURSOR_PLUGIN_ROOT}";

/// One Cursor hook event.
pub struct HookEvent {
    pub name: &'static str,
    /// The Claude event whose Cursor event has the same name in camelCase,
    /// as listed in Cursor's hooks documentation; only these are written
    /// from (and imported into) the canonical dialect. Every other event
    /// (including UserPromptSubmit, whose nearest Cursor event
    /// beforeSubmitPrompt has its own contract) is not mapped: formats.md 4.4
    /// marks the list unverified.
    pub claude: Option<&'static str>,
}

const fn cursor_only(name: &'static str) -> HookEvent {
    HookEvent { name, claude: None }
}

const fn mapped(name: &'static str, claude: &'static str) -> HookEvent {
    HookEvent { name, claude: Some(claude) }
}

/// Cursor events seen in its docs and plugins; the full list is longer and
/// unpublished, so the validator refuses only a name outside Cursor's
/// camelCase style. The mapped ones keep the order the writer lists them in.
pub const HOOK_EVENTS: [HookEvent; 15] = [
    cursor_only("beforeShellExecution"),
    cursor_only("beforeMCPExecution"),
    cursor_only("beforeReadFile"),
    cursor_only("afterFileEdit"),
    cursor_only("afterShellExecution"),
    cursor_only("beforeSubmitPrompt"),
    mapped("preToolUse", "PreToolUse"),
    mapped("postToolUse", "PostToolUse"),
    mapped("postToolUseFailure", "PostToolUseFailure"),
    mapped("sessionStart", "SessionStart"),
    mapped("sessionEnd", "SessionEnd"),
    mapped("subagentStart", "SubagentStart"),
    mapped("subagentStop", "SubagentStop"),
    mapped("preCompact", "PreCompact"),
    mapped("stop", "Stop"),
];

/// The Cursor event a Claude event is written as, if it is mapped.
pub fn cursor_event(claude: &str) -> Option<&'static str> {
    HOOK_EVENTS.iter().find(|event| event.claude == Some(claude)).map(|event| event.name)
}

/// The Claude event a Cursor event is imported as, if it is mapped.
pub fn claude_event(cursor: &str) -> Option<&'static str> {
    HOOK_EVENTS.iter().find(|event| event.name == cursor).and_then(|event| event.claude)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_the_folder_joined_with_the_file_name() {
        assert_eq!(MANIFEST_PATH, format!("{MANIFEST_DIR}/plugin.json"));
        assert_eq!(MARKETPLACE_PATH, format!("{MANIFEST_DIR}/marketplace.json"));
        assert_eq!(PLUGIN_ROOT, format!("${{{PLUGIN_ROOT_VAR}}}"));
    }

    #[test]
    fn a_mapped_event_is_the_claude_name_in_camel_case() {
        for event in &HOOK_EVENTS {
            if let Some(claude) = event.claude {
                assert_eq!(claude[..1].to_lowercase() + &claude[1..], event.name);
            }
        }
    }
}
