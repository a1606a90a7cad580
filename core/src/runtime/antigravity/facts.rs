//! What Google Antigravity CLI (`agy` 1.1.25) reads, in one place: every
//! fact comes from Google's documentation and from loaders measured against
//! `agy` (docs/runtimes/antigravity.md, fact numbers in brackets).

/// The plugin manifest at the plugin root [3].
pub const MANIFEST_PATH: &str = "plugin.json";
/// The MCP servers file at the plugin root [8, 9].
pub const MCP_PATH: &str = "mcp_config.json";
/// The hooks file at the plugin root [11].
pub const HOOKS_PATH: &str = "hooks.json";

/// Google's docs name no plugin-root variable; a third-party plugin reports
/// that hook commands get Claude Code's [13].
pub const PLUGIN_ROOT: &str = crate::runtime::claude_code::facts::PLUGIN_ROOT;

/// How a hook event holds its handlers in `hooks.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookShape {
    /// `{matcher, hooks}` groups, as Claude's tool events.
    Grouped,
    /// Handlers directly under the event.
    Flat,
}

/// One event Antigravity runs.
pub struct HookEvent {
    pub name: &'static str,
    /// The shape a canonical (Claude) event of the same name is written in;
    /// `None` for an event Claude has no counterpart of.
    pub canonical: Option<HookShape>,
}

/// Antigravity's hook events [11]; Claude events of the same name are
/// written, the tool events keeping `{matcher, hooks}` groups and `Stop`
/// holding handlers directly.
pub const HOOK_EVENTS: [HookEvent; 5] = [
    HookEvent { name: "PreToolUse", canonical: Some(HookShape::Grouped) },
    HookEvent { name: "PostToolUse", canonical: Some(HookShape::Grouped) },
    HookEvent { name: "Stop", canonical: Some(HookShape::Flat) },
    HookEvent { name: "PreInvocation", canonical: None },
    HookEvent { name: "PostInvocation", canonical: None },
];

/// The shape a canonical hook event is written in, when Antigravity runs it.
pub fn canonical_event_shape(name: &str) -> Option<HookShape> {
    HOOK_EVENTS.iter().find(|event| event.name == name).and_then(|event| event.canonical)
}
