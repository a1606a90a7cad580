//! What Gemini CLI (0.61.0) reads, in one place: the writer, the validator
//! and the importer all take these names from here.

/// The extension manifest at the extension's root (`loadExtensionConfig`).
pub const MANIFEST_PATH: &str = "gemini-extension.json";

/// The variable Gemini hydrates to the installed extension's folder.
pub const PLUGIN_ROOT_VAR: &str = "extensionPath";
/// [`PLUGIN_ROOT_VAR`] as Gemini spells it in `gemini-extension.json`,
/// `hooks/hooks.json` and extension skills and agents (not in commands or
/// context files).
pub const PLUGIN_ROOT: &str = "${extensionPath}";

/// Gemini CLI 0.61's `HookEventName` enum; any other key is skipped with a
/// warning at session start.
pub const HOOK_EVENTS: [&str; 11] = [
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "Notification",
    "SessionStart",
    "SessionEnd",
    "PreCompress",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
];

/// Hook handler `type`s, each with the string fields it requires.
pub const HOOK_HANDLER_TYPES: [(&str, &[&str]); 1] = [("command", &["command"])];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_spelling_is_the_variable_in_braces() {
        assert_eq!(PLUGIN_ROOT, format!("${{{PLUGIN_ROOT_VAR}}}"));
    }
}
