//! What OpenCode reads, in one place (formats.md section 9, real-clients.md).
//! OpenCode has no plugin bundle: it reads these from a project, or from the
//! global config below the home folder.

/// The folder OpenCode reads a project's skills, commands and agents from.
pub const PROJECT_DIR: &str = ".opencode";
/// The global config folder, below the home folder.
pub const USER_DIR: &str = ".config/opencode";
/// The config file (MCP servers are entries of its `mcp`), at the project
/// root or in [`USER_DIR`].
pub const CONFIG_FILE: &str = "opencode.json";
/// The context file, beside [`CONFIG_FILE`].
pub const CONTEXT_FILE: &str = "AGENTS.md";
/// Both files at either scope: shared with the user, so edited in place.
pub const SHARED_FILES: [&str; 4] =
    [CONFIG_FILE, CONTEXT_FILE, ".config/opencode/opencode.json", ".config/opencode/AGENTS.md"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_files_are_in_the_user_folder() {
        assert_eq!(SHARED_FILES[2], format!("{USER_DIR}/{CONFIG_FILE}"));
        assert_eq!(SHARED_FILES[3], format!("{USER_DIR}/{CONTEXT_FILE}"));
    }
}
