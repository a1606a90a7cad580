//! What a runtime is to the engine: one [`Spec`] per runtime folder, listed
//! by the registry. Every field is required, so a runtime added without its
//! hook events, tool names, components or client does not compile.

use super::{Kind, Writer};
use crate::error::Result;
use serde_json::{Map, Value};

use crate::lint::doc::Shape;
use crate::lint::marketplace::Source;
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
    /// The runtime as the subject of a message ("Gemini CLI", "an Agent
    /// Plugins client").
    pub subject: &'static str,
    /// Its own spellings of the plugin folder and data folder variables
    /// (`CLAUDE_PLUGIN_ROOT`), each with whether it names the plugin folder
    /// itself (`true`) or its data folder.
    pub folder_vars: &'static [(&'static str, bool)],
    /// Its marketplace file and how it judges it; `None`: none is validated.
    pub marketplace: Option<Marketplace>,
    /// How it reads a plugin's hooks documents; `None`: they are not judged.
    pub hooks: Option<Hooks>,
    /// How it reads a plugin's MCP servers.
    pub mcp: Mcp,
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
}

/// Which keys an object may hold.
#[derive(Clone, Copy)]
pub enum Keys {
    /// Any key.
    Open,
    /// The keys the runtime reads (the lists chained); it ignores others,
    /// and the validator warns.
    Known(&'static [&'static [&'static str]]),
    /// A closed schema (`additionalProperties: false`): any other key is an
    /// error.
    Closed(&'static [&'static str]),
}

/// A runtime's marketplace file, as the runtime judges it.
pub struct Marketplace {
    /// The file, relative to the marketplace root.
    pub file: &'static str,
    /// The top level needs an `owner` object.
    pub owner_required: bool,
    /// The keys `owner` may hold.
    pub owner_keys: Keys,
    /// The keys the top level may hold.
    pub keys: Keys,
    /// Shapes of optional top-level fields.
    pub(crate) shapes: &'static [(&'static str, Shape)],
    /// Warn when the marketplace has no description (top-level or
    /// `metadata.description`) and when it lists no plugins.
    pub wants_description_and_plugins: bool,
    /// What is wrong with a marketplace name (said after `name: "x" `), if
    /// anything.
    pub name_problem: fn(&str) -> Option<String>,
    /// Why a marketplace name is reserved (said after `name: "x" `), if it is.
    pub name_reserved: fn(&str) -> Option<String>,
    /// What is wrong with an entry's name (said after `name: "x" `), if
    /// anything.
    pub entry_name_problem: fn(&str) -> Option<&'static str>,
    /// Shapes of optional entry fields.
    pub(crate) entry_shapes: &'static [(&'static str, Shape)],
    /// Values each key of an entry's `policy` object may take (empty: not
    /// judged); another value makes the runtime skip the entry.
    pub entry_policy: &'static [(&'static str, &'static [&'static str])],
    /// The keys an entry may hold.
    pub entry_keys: Keys,
    /// What an entry's `source` points at, read the way the runtime reads it.
    pub source: fn(&Value) -> Source,
    /// An entry's name must equal its plugin's manifest name.
    pub entry_name_matches_plugin: bool,
    /// Warn when an entry's version differs from its plugin's manifest.
    pub entry_version_matches_plugin: bool,
    /// Two plugins' commands and agents clash by short name (besides skills).
    pub commands_and_agents_clash: bool,
    /// Two plugins' MCP servers clash by name: the runtime skips the second.
    pub mcp_servers_clash: bool,
}

/// The event names a runtime runs hooks for.
#[derive(Clone, Copy)]
pub enum HookEvents {
    /// This closed list.
    Listed(&'static [&'static str]),
    /// An open list: any camelCase name.
    CamelCase,
}

/// How a runtime's hooks documents are shaped.
#[derive(Clone, Copy)]
pub enum HookShape {
    /// `{Event: [{matcher?, hooks: [handler]}]}`, handlers of these `type`s,
    /// each with the string fields it requires.
    Grouped { handler_types: &'static [(&'static str, &'static [&'static str])] },
    /// `{Event: [{command, matcher?} | {type: "prompt", prompt}]}`.
    Flat,
}

/// A runtime's hooks documents, as the runtime reads them.
pub struct Hooks {
    /// The events it runs.
    pub events: HookEvents,
    /// The message for an event it does not run.
    pub unknown_event: fn(&str) -> String,
    /// Entry and handler shape.
    pub shape: HookShape,
    /// `{}` is refused: the `hooks` key is required even when empty.
    pub requires_hooks_key: bool,
    /// The top-level keys a hooks file may hold, when the runtime refuses
    /// any other.
    pub top_level_keys: Option<&'static [&'static str]>,
    /// The variables hook commands see expanded.
    pub expands: &'static [&'static str],
    /// Variables a shell-form command must quote (the runtime warns).
    pub quoted_vars: &'static [&'static str],
    /// Commands run from the plugin folder (`./scripts/x.sh` names a file).
    pub run_from_plugin_folder: bool,
}

/// A problem with an MCP document or server.
pub enum McpProblem {
    /// A document or server of another runtime's dialect; the key it is at.
    Dialect(Option<String>, String),
    /// A server of the right dialect but an invalid shape.
    Invalid(String),
}

/// Reads an MCP file's top level: its servers, and its problems.
pub type ReadMcpFile = fn(&Map<String, Value>) -> (Map<String, Value>, Vec<McpProblem>);

/// Judges one server (its name and fields).
pub type JudgeMcpServer = fn(&str, &Map<String, Value>) -> Vec<McpProblem>;

/// A runtime's MCP servers, as the runtime reads them.
pub struct Mcp {
    /// The MCP files it reads; `None`: foreign files are not judged.
    pub files: Option<&'static [&'static str]>,
    /// A file (one of its own) where a top-level `mcpServers` is refused,
    /// and why.
    pub misplaced: Option<(&'static str, &'static str)>,
    /// Its own reading of an MCP file's top level (servers and problems);
    /// `None`: `{"mcpServers": {...}}` or a bare map.
    pub read_file: Option<ReadMcpFile>,
    /// Its own judgement of one server (name, fields), and whether it
    /// replaces the common one.
    pub server: Option<(JudgeMcpServer, bool)>,
    /// The variables it expands in server fields; `None`: not judged.
    pub expands: Option<&'static [&'static str]>,
    /// What a message says after another runtime's spelling ("Codex expands
    /// no variable ...").
    pub unexpanded: &'static str,
}
