//! What OpenClaw (2026.9.6, read from its installed docs and `dist/`) reads,
//! in one place. Its bundle is written in another runtime's format, so most
//! of what it reads is in that runtime's facts.

/// OpenClaw's native plugin manifest (parsed as JSON5; it needs `id` and
/// `configSchema`). plugforge writes compatible bundles, never this file.
pub const MANIFEST_PATH: &str = "openclaw.plugin.json";
