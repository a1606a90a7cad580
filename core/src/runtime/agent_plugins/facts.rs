//! What an Agent Plugins 1.0 client reads, in one place (formats.md section
//! 5; `spec/1.0.0.md` and `schemas/1.0.0/` of agentplugins/agent-plugins-spec).

/// The closed manifest at the plugin root.
pub const MANIFEST_PATH: &str = "plugin.json";
/// The MCP servers file at the plugin root, in the spec's dialect.
pub const MCP_PATH: &str = "mcp.json";
/// The `$schema` every manifest names (required by the spec).
pub const PLUGIN_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
/// The `$schema` every MCP file names (required by the spec).
pub const MCP_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

/// The closed top-level key set of `plugin.json` (spec 5.2).
pub const MANIFEST_KEYS: [&str; 10] = [
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "extensions",
];
pub const AUTHOR_KEYS: [&str; 3] = ["name", "email", "url"];
pub const NAME_LIMIT: usize = 64;

/// The variable a client sets to the installed plugin's folder (spec 9.2).
pub const PLUGIN_ROOT_VAR: &str = "PLUGIN_ROOT";
/// The variable a client sets to the plugin's data folder (spec 9.2).
pub const PLUGIN_DATA_VAR: &str = "PLUGIN_DATA";
/// Environment names a client sets itself; `mcp.json` may not (spec 9.2).
pub const RESERVED_ENV: [&str; 2] = [PLUGIN_ROOT_VAR, PLUGIN_DATA_VAR];
/// The only placeholders a client expands (in args, env values and cwd).
pub const PLACEHOLDERS: [&str; 2] = ["${PLUGIN_ROOT}", "${PLUGIN_DATA}"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_the_variables_in_braces() {
        assert_eq!(PLACEHOLDERS, RESERVED_ENV.map(|name| format!("${{{name}}}")));
    }
}
