//! What a runtime is to the engine: one [`Spec`] per runtime folder, listed
//! by the registry. Every field is required, so a runtime added without its
//! hook events, tool names, components or client does not compile.

use super::{Kind, Writer};
use crate::error::Result;
use crate::lint::layout::{Layout, LayoutInput};
use crate::lint::{Cx, Rule, Sink};

/// Everything the engine knows of one runtime.
pub struct Spec {
    /// The id users type (`--target codex`) and reports carry.
    pub id: &'static str,
    /// The runtime's name in messages and documentation ("Gemini CLI").
    pub name: &'static str,
    /// Artifact kinds, default first.
    pub kinds: &'static [Kind],
    /// Turns the canonical plugin into the runtime's native files and
    /// honesty rows.
    pub write: fn(&mut Writer<'_>) -> Result<()>,
    /// Whether `--target all` builds it. The universal folder is asked for by
    /// name: it lists the plugin under its own name in the marketplace files
    /// other targets write.
    pub in_target_all: bool,
    /// URLs the runtime's format itself requires in generated files (a
    /// `$schema` constant), allowed without the user's allowlist.
    pub required_urls: &'static [&'static str],
    /// What the runtime reads from a plugin folder: its native format.
    pub reads: Reads,
    /// The rules of the catalog only this runtime's format has.
    pub rules: &'static [&'static Rule],
}

/// A runtime's native plugin folder, as the runtime reads it.
pub struct Reads {
    /// The manifest (or configuration) file of a plugin folder, if any.
    pub manifest: Option<&'static str>,
    /// The runtime refuses a plugin folder without [`Reads::manifest`].
    pub manifest_required: bool,
    /// Other formats' manifests it reads as its own when its own is absent,
    /// in the order it tries them.
    pub manifest_fallbacks: &'static [&'static str],
    /// Its own rules over the manifest, as its loader and validator judge it.
    pub(crate) check_manifest: Option<fn(&Cx<'_>, &mut Sink)>,
    /// Where it looks for skills, commands, agents, hooks and MCP servers:
    /// its default folders, changed by what the manifest declares.
    pub(crate) layout: fn(&mut Layout, &LayoutInput<'_>),
    /// It reads its manifest as JSON5 or JSONC, not strict JSON.
    pub lenient_manifest_syntax: bool,
}
