//! What Hermes Agent (hermes-agent 0.19, read from its installed source)
//! reads, in one place.

/// A skill plugin's manifest, beside its `__init__.py`.
pub const MANIFEST_PATH: &str = "plugin.yaml";
/// The registration module a skill plugin's manifest goes with.
pub const INIT_PATH: &str = "__init__.py";
/// Hermes's own config file, below the home folder; MCP servers are entries
/// of its `mcp_servers` map.
pub const CONFIG_FILE: &str = ".hermes/config.yaml";
