//! The canonical plugin model every runtime writer reads from, and its
//! loader (`load.rs`: a canonical source into the model, as written or as a
//! runtime's reader read it).

mod load;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::Error;
use crate::path::BundlePath;
use crate::source::{Config, Document, RenderedFile, RenderedTree, SourceTree};

pub(crate) use load::{LoadOptions, load_plugin, read_config};

/// A canonical source as the loader takes it.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// As an author writes it: `plugforge.json` (or Claude Code's manifest)
    /// and files, templates among them, all parsed by the loader.
    Written(&'a SourceTree),
    /// A native plugin as its runtime's reader read it: the loader takes its
    /// metadata, files and parsed documents as they are.
    Read(&'a ReadSource),
}

impl<'a> Source<'a> {
    /// The source's files as `import` writes them: what the URL and
    /// credential checks scan.
    pub fn tree(self) -> &'a SourceTree {
        match self {
            Source::Written(tree) => tree,
            Source::Read(read) => &read.tree,
        }
    }

    /// Whether a file is a template: only templates see the per-target
    /// built-ins (`runtime`, `kind`), so a source without one loads the same
    /// for every target. A native plugin holds none: its `.j2` files are content.
    pub fn has_templates(self) -> bool {
        match self {
            Source::Written(tree) => crate::source::has_templates(tree),
            Source::Read(_) => false,
        }
    }
}

/// A native plugin read into a canonical source by its runtime's reader:
/// the metadata, the files at their canonical paths and the documents the
/// reader parsed or wrote, and the same source as text for `import` to
/// write. A build loads the model from the parts and never parses the text.
pub struct ReadSource {
    /// The source as `import` writes it (`plugforge.json` and every file).
    pub tree: SourceTree,
    /// `plugforge.json`'s fields, or why they are not a valid config.
    pub config: std::result::Result<Config, Error>,
    /// Every file but `plugforge.json` at its canonical path, as read: a
    /// native `.j2` file is content, kept as it is; its origin is the path
    /// `import` writes it at.
    pub files: RenderedTree,
    /// JSON files the reader wrote (hooks, MCP servers, settings), by path.
    pub json: BTreeMap<BundlePath, Value>,
    /// Markdown files whose frontmatter the reader wrote, by path.
    pub documents: BTreeMap<BundlePath, Document>,
}

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
    /// App connectors ([`crate::canonical::APPS_FILE`]).
    pub apps: Option<JsonComponent>,
    pub bin: Vec<FileComponent>,
    pub context: Option<FileComponent>,
    pub readme: Option<FileComponent>,
    /// Other files (scripts, assets) that travel with the plugin unchanged.
    pub support: Vec<FileComponent>,
    /// The sha256 of the files copied unchanged, found once for every
    /// runtime that copies them.
    pub copied_hashes: CopiedHashes,
}

/// sha256 of byte buffers the model owns, by the buffer's address. Each
/// entry holds its buffer, so no address is freed and reused while the memo
/// lives: an address always names the bytes it was hashed from. Clones of
/// the model (one a runtime) share one memo.
#[derive(Default, Clone)]
pub struct CopiedHashes(std::sync::Arc<std::sync::Mutex<HashesByAddress>>);

/// Buffer address -> (the buffer, kept alive; its sha256).
type HashesByAddress = std::collections::HashMap<usize, (std::sync::Arc<[u8]>, crate::hash::Sha256Digest)>;

impl CopiedHashes {
    /// The sha256 of `bytes`, hashed on first use.
    pub fn of(&self, bytes: &std::sync::Arc<[u8]>) -> crate::hash::Sha256Digest {
        let key = bytes.as_ptr() as usize;
        // A poisoned lock only means another lookup panicked; entries are
        // inserted whole, so the map is still sound.
        let mut memo = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match memo.get(&key) {
            Some((_, sha)) => *sha,
            _ => {
                let sha = crate::hash::Sha256Digest::of(bytes);
                memo.insert(key, (bytes.clone(), sha));
                sha
            }
        }
    }
}

impl std::fmt::Debug for CopiedHashes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CopiedHashes")
    }
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

impl Plugin {
    /// The names of the app connectors it holds (the keys of the apps
    /// file's `apps` object), or the file's own name when it lists none.
    pub fn app_names(&self) -> Vec<String> {
        let Some(apps) = &self.apps else { return Vec::new() };
        match apps.value.get("apps").and_then(Value::as_object) {
            Some(named) if !named.is_empty() => named.keys().cloned().collect(),
            _ => vec![apps.origin.to_string()],
        }
    }

    /// The connector id of app `name`, when its entry gives one.
    pub fn app_id(&self, name: &str) -> Option<&str> {
        self.apps.as_ref()?.value.get("apps")?.get(name)?.get("id")?.as_str()
    }
}

/// MCP servers by name, normalised from the wrapped or the flat `.mcp.json` form.
#[derive(Debug, Clone)]
pub struct McpServers {
    pub servers: Map<String, Value>,
    pub origin: BundlePath,
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::CopiedHashes;

    #[test]
    fn copied_hashes_are_the_bytes_hashes_shared_by_clones() {
        let memo = CopiedHashes::default();
        let a: Arc<[u8]> = Arc::from(&b"one"[..]);
        let b: Arc<[u8]> = Arc::from(&b"two"[..]);
        assert_eq!(memo.of(&a), crate::hash::Sha256Digest::of(b"one"));
        let clone = memo.clone();
        assert_eq!(clone.of(&a.clone()), crate::hash::Sha256Digest::of(b"one"));
        assert_eq!(clone.of(&b), crate::hash::Sha256Digest::of(b"two"));
        assert_eq!(memo.0.lock().unwrap().len(), 2, "one memo for both");
    }
}
