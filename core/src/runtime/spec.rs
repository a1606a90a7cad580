//! What a runtime is to the engine: one [`Spec`] per runtime folder, listed
//! by the registry. Every field is required, so a runtime added without its
//! hook events, tool names, components or client does not compile.

use super::verdict::{Built, Reading};
use super::{ArtifactKind, Kind, Runtime, Writer};
use crate::draft::Draft;
use crate::error::Result;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

use crate::report::Component;

use crate::lint::doc::Shape;
use crate::lint::layout::{Layout, LayoutInput};
use crate::lint::markdown::Markdown;
use crate::lint::marketplace::Source;
use crate::lint::{Cx, Folder, Rule, Sink};
use crate::source::SourceTree;

/// Everything the engine knows of one runtime.
pub struct Spec {
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
    /// How it reads skills.
    pub skills: Skills,
    /// How it reads sub-agent files.
    pub agents: Agents,
    /// How it reads slash-command files.
    pub commands: Commands,
    /// Hooks it installs inert, running only once the user trusts them.
    pub hook_trust: Option<HookTrust>,
    /// Reading its native plugin as a source (`import --from <id>`, or a
    /// build straight from it), when its format can be one.
    pub read: Option<Reader>,
    /// Its files in a plugin folder whose source is another format: read
    /// for metadata, and what only it reads kept for its bundle.
    pub foreign: Option<Foreign>,
    /// What judges its bundles: its real client, run offline, or why none can.
    pub judge: Judge,
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
    /// The file that identifies a folder as this runtime's plugin.
    pub marker: Option<&'static str>,
    /// For a marker several runtimes share: whether a folder holding it is
    /// this runtime's.
    pub(crate) claims_shared_marker: Option<fn(Folder<'_>) -> bool>,
    /// Other formats whose plugins it loads when its own marker is absent,
    /// each found by that format's marker, in the order it tries them.
    pub loads_formats: &'static [Runtime],
    /// What it loads of a plugin laid out in one of [`Reads::loads_formats`]:
    /// its honesty rows for the writer's plugin read as that format, `false`
    /// (and no rows) for a format whose reading it cannot say. Required when
    /// it loads other formats: a folder laid out for several hosts
    /// (`universal`) says from these what each such runtime gets of it.
    pub(crate) loaded_as: Option<fn(&mut Writer<'_>, Runtime) -> bool>,
    /// Without any manifest, the files or folders that make it load a
    /// folder anyway, and the format it then reads it as.
    pub loads_manifestless: Option<Manifestless>,
    /// The manifest (or configuration) file of a plugin folder, if any.
    pub manifest: Option<&'static str>,
    /// The runtime refuses a plugin folder without [`Reads::manifest`].
    pub manifest_required: bool,
    /// Other formats' manifests it reads as its own when its own is absent,
    /// in the order it tries them.
    pub manifest_fallbacks: &'static [&'static str],
    /// Its own rules over the manifest, as its loader and validator judge it.
    pub(crate) check_manifest: Option<fn(&Cx<'_>, &mut Sink)>,
    /// Its own checks of a plugin folder beyond the manifest (Hermes: the
    /// skills its `__init__.py` registers).
    pub(crate) check_plugin: Option<fn(&Cx<'_>, &mut Sink)>,
    /// Where it looks for skills, commands, agents, hooks and MCP servers:
    /// its default folders, changed by what the manifest declares.
    pub(crate) layout: fn(&mut Layout, &LayoutInput<'_>),
    /// It reads its manifest as JSON5 or JSONC, not strict JSON.
    pub lenient_manifest_syntax: bool,
    /// Its frontmatter reader is lenient: an unclosed block is body text,
    /// and values only valid once quoted are read with a warning.
    pub lenient_frontmatter: bool,
    /// Type checks its validator fails a skill, command or agent file on,
    /// reported under the area's rule.
    pub(crate) check_component_frontmatter: Option<fn(&Cx<'_>, &Markdown, &'static Rule, &mut Sink)>,
}

/// How a runtime reads sub-agent files (Markdown with frontmatter).
pub struct Agents {
    /// It finds agent files in subfolders of its agent folders too.
    pub recursive: bool,
    /// It skips agent files whose name starts with this character.
    pub skipped_prefix: Option<char>,
    /// An agent file without frontmatter is reported.
    pub frontmatter_required: bool,
    /// Its own checks of an agent's frontmatter.
    pub(crate) check: Option<fn(&Cx<'_>, &Markdown, &mut Sink)>,
}

/// How a runtime reads slash-command files.
pub struct Commands {
    /// File name endings it reads as Markdown commands.
    pub extensions: &'static [&'static str],
    /// A Markdown command without frontmatter is reported.
    pub frontmatter_required: bool,
    /// A command with frontmatter but no description is reported.
    pub description: Option<CommandDescription>,
    /// Checks of the runtime's own command format, run instead of the
    /// Markdown checks (the command folders are given).
    pub(crate) own_format: Option<fn(&Cx<'_>, &[String], &mut Sink)>,
}

/// Why a runtime wants a command's `description`.
pub struct CommandDescription {
    /// The key alone (even with no value) counts as a description.
    pub key_alone_suffices: bool,
    /// What goes wrong without it, as the end of a sentence.
    pub why_needed: &'static str,
}

/// How a runtime reads skills (`SKILL.md` with frontmatter).
pub struct Skills {
    /// Its loader holds a skill to the Agent Skills specification; one that
    /// does not has its own checks (frontmatter types, a `description` key).
    pub follows_agent_skills_spec: bool,
    /// It refuses frontmatter keys the specification does not define.
    pub strict_spec_keys: bool,
}

/// A folder with no manifest that a runtime loads anyway.
#[derive(Clone, Copy)]
pub struct Manifestless {
    /// Files or folders, any of which makes it load the folder.
    pub markers: &'static [&'static str],
    /// The format it reads such a folder as.
    pub as_format: Runtime,
}

/// Reading a runtime's native plugin into a canonical source.
pub struct Reader {
    /// Reads the plugin folder into the draft source, with notes on what
    /// the canonical source cannot carry.
    pub(crate) read: fn(&SourceTree, &mut Draft) -> Result<()>,
    /// The files or folders that make a folder without any manifest its
    /// plugin; it then names the plugin after the folder.
    pub manifestless_layout: Option<&'static [&'static str]>,
    /// Folders it reads as its plugin though they hold no [`Reads::manifest`]
    /// of its own, or another runtime's: given the runtime the folder would
    /// otherwise be read as (by the manifests, then the layouts), whether it
    /// is this runtime's instead.
    pub(crate) claims: Option<fn(&SourceTree, Option<Runtime>) -> bool>,
}

/// Reads a manifest field into the draft source: (the manifest's text, its
/// path, the draft, the field's value).
pub(crate) type ReadField = fn(&str, &str, &mut Draft, Value);

/// A runtime's files in a plugin folder built from another format.
pub struct Foreign {
    /// Its manifest.
    pub manifest: &'static str,
    /// Its marketplace, which may list the folder itself.
    pub marketplace: Option<&'static str>,
    /// The folder its manifest sits in, which holds only what the runtime
    /// writes there.
    pub manifest_folder: Option<&'static str>,
    /// Manifest fields only this runtime reads, kept under
    /// `targets.<id>.manifest`.
    pub runtime_only_fields: &'static [&'static str],
    /// A runtime-only field it reads into the source itself instead of
    /// keeping it: the field, and how (manifest text, manifest path, draft, value).
    pub(crate) read_field: Option<(&'static str, ReadField)>,
}

/// A runtime that installs a plugin's hooks inert until the user trusts them.
pub struct HookTrust {
    /// The artifact kind whose hooks wait for trust.
    pub kind: ArtifactKind,
    /// The hooks file of such a bundle.
    pub hooks_file: &'static str,
    /// How the user trusts them, as an instruction.
    pub how: &'static str,
}

/// What judges a runtime's bundles.
pub enum Judge {
    /// Real clients, run offline in a throwaway HOME, load the bundle and
    /// say what they loaded.
    Clients(&'static [Check]),
    /// No client runs offline here: the bundles are checked against the
    /// runtime's published schemas and documented behaviour.
    Schemas {
        /// Why no client runs.
        why: &'static str,
        /// The test that checks the bundles.
        test: &'static str,
        /// The runtime's own check of a built bundle, derived from its
        /// source or documentation; `None`: the test holds the checks.
        check: Option<SchemaCheck>,
    },
    /// Nothing loads the bundle (a guide people follow).
    Nothing(&'static str),
}

/// A pure check of a built bundle against what a runtime's loader accepts:
/// every file below the output root (paths relative to it, so marketplace
/// files are seen too) and the bundle's folder among them.
pub type SchemaCheck = fn(&BTreeMap<String, Vec<u8>>, &str) -> SchemaReport;

/// What a [`SchemaCheck`] found in a bundle.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SchemaReport {
    /// What the runtime loads, by component and name as honesty rows name
    /// them: a bundle's judge compares it with the rows it was built with.
    pub loaded: Vec<(Component, String)>,
    /// What the runtime would refuse, skip or fail on, each naming its file.
    pub problems: Vec<String>,
    /// Patterns the runtime compiles as regular expressions (where, pattern),
    /// for the caller to compile: the core carries no regex engine.
    pub patterns: Vec<(String, String)>,
}

/// One real client judging a runtime's bundles: how its driver is run on a
/// built bundle, and how its report is read.
pub struct Check {
    pub client: &'static Client,
    /// The artifact kinds it judges (others are not judged by it).
    pub kinds: &'static [ArtifactKind],
    /// The driver (its path in the repository, in the folder of the runtime
    /// whose client it runs, `drivers/`; embedded in the verifier) that
    /// loads the bundle with the client and prints what it loaded as JSON.
    pub driver: &'static str,
    /// The driver's arguments: `BIN` the client, `ROOT` the output root,
    /// `DIR` the bundle folder, `NAME` the plugin, `SCOPE` the scope it was
    /// built for (`project`, `user`).
    pub args: &'static [&'static str],
    /// What the report says of the bundle.
    pub read: fn(&Value, &Built<'_>) -> Reading,
}

/// A real agent CLI, pinned, as the suite installs and drives it.
pub struct Client {
    /// Its id in `scripts/install-clients` (and `PLUGFORGE_<ID>_BIN`).
    pub id: &'static str,
    /// Its name in messages ("Claude Code").
    pub name: &'static str,
    /// The commands a user's install puts on PATH.
    pub commands: &'static [&'static str],
    /// The environment that keeps it offline and quiet where a user's command
    /// runs it (no telemetry, update check or error report, no prompt to
    /// trust the folder): the suite runs the bundle READMEs' commands with it.
    pub quiet: &'static [(&'static str, &'static str)],
    /// Where it installs from: an npm package, or `pypi:<package>`.
    pub package: &'static str,
    /// The version the suite pins.
    pub version: &'static str,
    /// Its binary below the install prefix (a glob may stand for a platform folder).
    pub binary: &'static str,
    /// npm packages installed beside it that the suite's driver needs.
    pub extra_packages: &'static [&'static str],
    /// How a user loads a bundle, paths written `./X` (clients read `a/b` as a
    /// GitHub repository) (`ROOT`: the output root, `DIR`: the
    /// bundle, `NAME`: the plugin, `MARKETPLACE`: the marketplace's name).
    pub load: &'static [&'static str],
    /// How to ask it what it loaded.
    pub list: &'static [&'static str],
    /// The suite's driver that loads a bundle and reports the inventory.
    pub driver: &'static str,
    /// About how long it takes to judge one bundle on a 2-core machine, in
    /// seconds (measured; most of it waiting, not computing): the slowest
    /// clients are started first.
    pub typical_seconds: u32,
    /// What makes `binary` runnable once the package is installed.
    pub launch: Launch,
}

/// What makes a client's `binary` runnable once its package is installed
/// (by `verify --install` and `scripts/install-clients` alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Launch {
    /// It runs as npm or pip installed it.
    AsInstalled,
    /// npm 11 skips install scripts, which leaves `binary` a stub until
    /// this Node script (below the install prefix) runs in its own folder.
    AfterScript(&'static str),
    /// `binary` is a wrapper that runs `entry` (below the install prefix)
    /// with Node `version`, from npm's `node-<platform>` package: under an
    /// older Node, npm silently resolves an older release or a placeholder
    /// (it skips versions whose engines do not match), and the entry runs
    /// under whatever `node` is on PATH. That node is linked beside the
    /// wrapper as `node`, for drivers that import the client's own modules.
    Node { version: &'static str, entry: &'static str },
    /// Its npm install scripts change the user's home (shell profiles, the
    /// global git ignore): it is installed with `--ignore-scripts`, and runs
    /// as installed.
    WithoutScripts,
}

impl Launch {
    /// Its column in `pinned-clients.txt`, as `scripts/install-clients` reads it.
    pub fn pin(&self) -> String {
        match self {
            Launch::AsInstalled => String::new(),
            Launch::AfterScript(script) => format!("script:{script}"),
            Launch::Node { version, entry } => format!("node@{version}:{entry}"),
            Launch::WithoutScripts => "no-scripts".into(),
        }
    }
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
    /// Keys of an entry's `policy` that state what the plugin itself needs
    /// rather than how the listing offers it: a source's own entry gives
    /// them to the plugin's entry in every listing built from it.
    pub plugin_policy: &'static [&'static str],
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

#[cfg(test)]
mod tests {
    use super::Runtime;

    #[test]
    fn a_runtime_that_loads_other_formats_says_what_it_loads_of_them() {
        for runtime in Runtime::ALL {
            let reads = &runtime.spec().reads;
            assert_eq!(
                reads.loaded_as.is_some(),
                !reads.loads_formats.is_empty(),
                "{}: `reads.loaded_as` goes with `reads.loads_formats`",
                runtime.id()
            );
        }
    }
}
