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

/// The folders below [`PROJECT_DIR`] or [`USER_DIR`] whose `*.ts` and
/// `*.js` files OpenCode loads as plugin modules: its loader's glob is
/// `{plugin,plugins}/*.{ts,js}`.
pub const PLUGIN_MODULE_DIRS: [&str; 2] = ["plugin", "plugins"];
/// The file extensions of those modules.
pub const PLUGIN_MODULE_EXTENSIONS: [&str; 2] = ["ts", "js"];

/// Whether `path`, below a source's root, is an OpenCode plugin module of
/// the source's own (`.opencode/plugins/<name>.js`): one OpenCode would
/// load from a checkout of the source.
pub fn is_plugin_module(path: &str) -> bool {
    let mut parts = path.split('/');
    let (Some(project), Some(folder), Some(file), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    project == PROJECT_DIR
        && PLUGIN_MODULE_DIRS.contains(&folder)
        && file
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && PLUGIN_MODULE_EXTENSIONS.contains(&ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_files_are_in_the_user_folder() {
        assert_eq!(SHARED_FILES[2], format!("{USER_DIR}/{CONFIG_FILE}"));
        assert_eq!(SHARED_FILES[3], format!("{USER_DIR}/{CONTEXT_FILE}"));
    }

    #[test]
    fn plugin_modules_are_the_scripts_directly_in_the_plugin_folders() {
        for path in [".opencode/plugins/superpowers.js", ".opencode/plugin/guard.ts"] {
            assert!(is_plugin_module(path), "{path}");
        }
        for path in [
            ".opencode/plugins/lib/util.js",
            ".opencode/plugins/README.md",
            ".opencode/plugins/.js",
            ".opencode/tools/x.js",
            "plugins/x.js",
            "src/.opencode/plugins/x.js",
        ] {
            assert!(!is_plugin_module(path), "{path}");
        }
    }
}
