//! The canonical plugin model every runtime writer reads from.

use serde_json::{Map, Value};

use crate::path::BundlePath;
use crate::source::{Config, Document, RenderedFile};

/// A plugin source, parsed once: metadata plus every component.
#[derive(Debug, Clone)]
pub struct Plugin {
    pub config: Config,
    /// The namespace commands and skills are invoked under (`/ns:cmd`).
    pub namespace: String,
    /// Where the metadata came from (`plugforge.json` or Claude Code's plugin manifest).
    pub metadata_file: BundlePath,
    /// Claude manifest fields carried over from a Claude plugin source.
    pub claude_extra: Map<String, Value>,
    pub skills: Vec<Skill>,
    pub commands: Vec<MarkdownComponent>,
    pub agents: Vec<MarkdownComponent>,
    pub output_styles: Vec<FileComponent>,
    pub hooks: Option<JsonComponent>,
    pub mcp: Option<McpServers>,
    pub settings: Option<JsonComponent>,
    pub bin: Vec<FileComponent>,
    pub context: Option<FileComponent>,
    pub readme: Option<FileComponent>,
    /// Other files (scripts, assets) that travel with the plugin unchanged.
    pub support: Vec<FileComponent>,
}

/// A file placed at `path` (relative to the bundle root) in every bundle that
/// carries its component.
#[derive(Debug, Clone)]
pub struct FileComponent {
    pub path: BundlePath,
    pub file: RenderedFile,
}

/// `skills/<name>/SKILL.md` plus the files beside it.
#[derive(Debug, Clone)]
pub struct Skill {
    pub name: String,
    pub document: Document,
    /// The SKILL.md itself.
    pub main: FileComponent,
    /// Every other file of the skill folder, paths relative to the bundle root.
    pub files: Vec<FileComponent>,
}

/// A command, agent or output style: Markdown with frontmatter.
#[derive(Debug, Clone)]
pub struct MarkdownComponent {
    pub name: String,
    pub document: Document,
    pub file: FileComponent,
}

/// A JSON component (hooks, settings), already translated to canonical variables.
#[derive(Debug, Clone)]
pub struct JsonComponent {
    pub value: Value,
    pub origin: BundlePath,
}

/// MCP servers by name, normalised from the wrapped or the flat `.mcp.json` form.
#[derive(Debug, Clone)]
pub struct McpServers {
    pub servers: Map<String, Value>,
    pub origin: BundlePath,
}
