//! A marketplace as a source: a folder whose marketplace file (any
//! runtime's that plugforge reads: each runtime's `Foreign::marketplace`)
//! lists plugins is built as the monorepo of every plugin it lists with a
//! local source. Each listed folder becomes one member's source tree, with
//! what its entry says folded in the way the listing runtime reads it:
//!
//! - a folder without the runtime's own manifest takes its entry as the
//!   manifest (its components, `mcpServers` and `lspServers` included);
//! - a folder with one keeps it: the entry's component paths are added to
//!   it, unless the entry is `"strict": false`, which the runtime refuses
//!   (both define the plugin's components);
//! - metadata the plugin does not state (the author, a category, ...) is
//!   taken from the entry, the plugin's own manifest winning.
//!
//! A remote source (git, GitHub, URL, a package) is not fetched: the entry
//! is listed as not built. A local source that leaves the marketplace root
//! refuses the build, naming the marketplace file and the entry's line.

use serde_json::{Map, Value};

use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Problem, Result};
use crate::lint::doc::{PathProblem, relative_path};
use crate::lint::marketplace::Source;
use crate::report::Diagnostic;
use crate::runtime::Runtime;
use crate::source::{JsonPositions, SourceTree};

/// Entry keys that place the plugin or rank it in the listing; never part
/// of its manifest.
const LISTING_ONLY_KEYS: [&str; 7] = ["source", "strict", "category", "tags", "relevance", "id", "policy"];

/// Entry keys that declare components. The listing runtime appends those
/// of `COMPONENT_PATH_KEYS` to a manifest the plugin has, and reads the rest
/// from the entry only when the plugin has no manifest.
const COMPONENT_PATH_KEYS: [&str; 5] = ["commands", "agents", "skills", "hooks", "outputStyles"];
const ENTRY_ONLY_WITH_NO_MANIFEST: [&str; 2] = ["mcpServers", "lspServers"];

/// The plugins a marketplace file lists, ready to build as members.
#[derive(Debug)]
pub struct Listing {
    /// The marketplace file, relative to the source root.
    pub file: String,
    /// The plugins with a local source, in listing order.
    pub plugins: Vec<ListedPlugin>,
    /// Entries not built (a remote source), each a warning at its line.
    pub not_built: Vec<Diagnostic>,
    /// What was taken from the entries, each a note at its line.
    pub notes: Vec<Diagnostic>,
}

/// One plugin a marketplace lists with a local source.
#[derive(Debug)]
pub struct ListedPlugin {
    /// The entry's name.
    pub name: String,
    /// Its folder, relative to the marketplace root ("" = the root).
    pub folder: String,
    /// Its files, relative to its folder, with its entry folded in.
    pub tree: SourceTree,
    /// Files of `tree` written from the entry rather than read from the
    /// folder, each with where the entry is (the marketplace file, the
    /// entry's line), so findings in them point there.
    pub origins: Vec<(String, Location)>,
}

/// The plugins the marketplace file at `tree`'s root lists, when the root
/// is no plugin itself (no runtime's manifest there) and the file defines
/// more than the root could be: another folder, several plugins, or the
/// root's plugin in its entry. A plugin whose marketplace lists only
/// itself, or a remote copy of itself, is built as that one plugin. The
/// first marketplace file found is read, in registry order.
pub fn read_listing(tree: &SourceTree) -> Result<Option<Listing>> {
    if root_is_a_plugin(tree) {
        return Ok(None);
    }
    for runtime in Runtime::ALL {
        let Some(foreign) = runtime.spec().foreign.as_ref() else { continue };
        let Some(file) = foreign.marketplace else { continue };
        let Some(bytes) = tree.get(file).map(|f| f.bytes.clone()) else { continue };
        let Ok(Value::Object(document)) = serde_json::from_slice::<Value>(&bytes) else { continue };
        let Some(Value::Array(entries)) = document.get("plugins") else { continue };
        let text = String::from_utf8_lossy(&bytes);
        let positions = JsonPositions::of(&text);
        let reading = Reading { runtime: *runtime, file, manifest: foreign.manifest, positions: &positions };
        let sources: Vec<Source> = entries.iter().map(|entry| reading.source(entry)).collect();
        let local: Vec<&str> = sources
            .iter()
            .filter_map(|s| match s {
                Source::Local(folder) => Some(folder.as_str()),
                _ => None,
            })
            .collect();
        let defines_components = |entry: &Value| {
            COMPONENT_PATH_KEYS.iter().chain(&ENTRY_ONLY_WITH_NO_MANIFEST).any(|key| entry.get(key).is_some())
        };
        let another_folder = local.iter().any(|folder| !folder.is_empty());
        let several = local.len() > 1;
        let invalid = sources.iter().any(|s| matches!(s, Source::Invalid(_) | Source::Missing));
        let defined = entries.iter().zip(&sources).any(|(entry, source)| {
            matches!(source, Source::Local(folder) if folder.is_empty()) && defines_components(entry)
        });
        // Remote entries alone beside no plugin content: what the file lists
        // is all there is to say, each entry as not built.
        let only_remote = local.is_empty() && sources.contains(&Source::Remote) && !holds_components(tree);
        if !(another_folder || several || defined || only_remote || (invalid && !local.is_empty())) {
            return Ok(None);
        }
        return reading.listing(tree, &document, entries, &sources).map(Some);
    }
    Ok(None)
}

/// Whether the root holds a plugin manifest any runtime reads (or a
/// canonical source's `plugforge.json`): then it is built as that plugin.
fn root_is_a_plugin(tree: &SourceTree) -> bool {
    let manifests = Runtime::ALL.iter().flat_map(|runtime| {
        let reads = &runtime.spec().reads;
        reads.manifest.into_iter().chain(reads.manifest_fallbacks.iter().copied())
    });
    tree.get("plugforge.json").is_some() || manifests.into_iter().any(|manifest| tree.get(manifest).is_some())
}

/// Whether the root holds a component a manifestless plugin loads by
/// location (the folders and files validate's marketplace rules look for).
fn holds_components(tree: &SourceTree) -> bool {
    ["skills", "commands", "agents"].iter().any(|dir| tree.below(dir).next().is_some())
        || ["hooks/hooks.json", ".mcp.json", "SKILL.md"].iter().any(|file| tree.get(file).is_some())
}

/// A marketplace file being read, by the runtime whose file it is.
struct Reading<'a> {
    runtime: Runtime,
    file: &'static str,
    /// The manifest the runtime reads in a listed folder.
    manifest: &'static str,
    positions: &'a JsonPositions,
}

impl Reading<'_> {
    /// What `entry`'s source points at, as the runtime reads it (a runtime
    /// without marketplace rules of its own lists `./` paths and remote
    /// objects, Claude Code's shape).
    fn source(&self, entry: &Value) -> Source {
        let Some(source) = entry.get("source") else { return Source::Missing };
        if let Some(rules) = &self.runtime.spec().marketplace {
            return (rules.source)(source);
        }
        match source {
            Value::String(path) => match relative_path(path) {
                Ok(rel) => Source::Local(rel),
                Err(PathProblem::Escapes) => Source::Invalid(format!("{path:?} contains \"..\"")),
                Err(PathProblem::Absolute) => Source::Invalid(format!("{path:?} is absolute")),
            },
            Value::Object(_) => Source::Remote,
            other => Source::Invalid(format!("{other} is not a source")),
        }
    }

    /// Where entry `index` is: the marketplace file, at its line.
    fn at(&self, index: usize, key: Option<&str>) -> Location {
        let index = index.to_string();
        let keyed = key.and_then(|key| self.positions.line_at(&["plugins", &index, key]));
        let line = keyed.or_else(|| self.positions.line_at(&["plugins", &index])).unwrap_or(1);
        Location::at(self.file, line, 1)
    }

    fn listing(
        &self,
        tree: &SourceTree,
        document: &Map<String, Value>,
        entries: &[Value],
        sources: &[Source],
    ) -> Result<Listing> {
        let mut listing = Listing {
            file: self.file.to_string(),
            plugins: Vec::new(),
            not_built: Vec::new(),
            notes: Vec::new(),
        };
        let mut problems = Vec::new();
        let folders: Vec<&str> = sources
            .iter()
            .filter_map(|s| match s {
                Source::Local(folder) => Some(folder.as_str()),
                _ => None,
            })
            .collect();
        let marketplace = document.get("name").and_then(Value::as_str).unwrap_or("marketplace");
        for (index, (entry, source)) in entries.iter().zip(sources).enumerate() {
            let Some(object) = entry.as_object() else {
                problems.push(Problem {
                    message: format!("plugins[{index}] is {entry}, not an entry object"),
                    location: Some(self.at(index, None)),
                });
                continue;
            };
            let name = object.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
            let label = if name.is_empty() { format!("plugins[{index}]") } else { format!("{name:?}") };
            match source {
                Source::Local(folder) => {
                    match self.member(tree, marketplace, index, &name, object, folder, &folders) {
                        Ok((plugin, notes)) => {
                            listing.plugins.push(plugin);
                            listing.notes.extend(notes);
                        }
                        Err(problem) => problems.push(problem),
                    }
                }
                Source::Remote => listing.not_built.push(Diagnostic::warning(
                    DiagnosticCode::NotBuilt,
                    Some(self.at(index, Some("source"))),
                    format!("plugin {label}: not built: remote source (no network)"),
                )),
                Source::Invalid(why) => problems.push(Problem {
                    message: format!("the source of plugin {label} is refused: {why}"),
                    location: Some(self.at(index, Some("source"))),
                }),
                Source::Missing => problems.push(Problem {
                    message: format!("plugin {label} has no \"source\""),
                    location: Some(self.at(index, None)),
                }),
            }
        }
        if !problems.is_empty() {
            return Err(Error::from_problems(ErrorCode::InvalidSource, problems));
        }
        Ok(listing)
    }

    /// The member for entry `index`: the files below `folder` (the root's,
    /// without the other listed folders), its entry folded in.
    #[allow(clippy::too_many_arguments)]
    fn member(
        &self,
        tree: &SourceTree,
        marketplace: &str,
        index: usize,
        name: &str,
        entry: &Map<String, Value>,
        folder: &str,
        folders: &[&str],
    ) -> std::result::Result<(ListedPlugin, Vec<Diagnostic>), Problem> {
        let at = self.at(index, None);
        let refused = |message: String| Problem { message, location: Some(at.clone()) };
        let mut files = SourceTree::new();
        let others: Vec<String> =
            folders.iter().filter(|f| !f.is_empty() && **f != folder).map(|f| format!("{f}/")).collect();
        // An entry at the root that lists its skills loads those alone, not
        // every skill below skills/ (the root holds the other entries' too).
        let listed_skills: Option<Vec<String>> = (folder.is_empty())
            .then(|| entry.get("skills"))
            .flatten()
            .map(|skills| match skills {
                Value::Array(items) => {
                    items.iter().filter_map(Value::as_str).filter_map(|p| relative_path(p).ok()).collect()
                }
                Value::String(path) => relative_path(path).ok().into_iter().collect(),
                _ => Vec::new(),
            })
            .filter(|listed| !listed.iter().any(|path| path.is_empty() || path == "skills"));
        for (path, file) in tree.below(folder) {
            let rel = if folder.is_empty() { path.as_str() } else { &path.as_str()[folder.len() + 1..] };
            if folder.is_empty() && others.iter().any(|other| rel.starts_with(other.as_str())) {
                continue;
            }
            let unlisted_skill = listed_skills.as_ref().is_some_and(|listed| {
                rel.starts_with("skills/")
                    && !listed.iter().any(|skill| rel.starts_with(&format!("{skill}/")))
            });
            if unlisted_skill {
                continue;
            }
            files.insert(rel, file.bytes.clone(), file.executable).map_err(|e| refused(e.to_string()))?;
        }
        if files.is_empty() && !folder.is_empty() {
            return Err(refused(format!("plugin {name:?} lists ./{folder}, which holds no file")));
        }
        let strict = entry.get("strict") != Some(&Value::Bool(false));
        let components: Vec<&str> =
            COMPONENT_PATH_KEYS.iter().copied().filter(|key| entry.contains_key(*key)).collect();
        let mut notes = Vec::new();
        let mut origins = Vec::new();
        let had_manifest = files.get(self.manifest).is_some();
        let manifest = match files.get(self.manifest) {
            None => {
                let manifest: Map<String, Value> = entry
                    .iter()
                    .filter(|(key, _)| !LISTING_ONLY_KEYS.contains(&key.as_str()))
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect();
                Some(manifest)
            }
            Some(_) if !strict && !components.is_empty() => {
                return Err(refused(format!(
                    "plugin {name:?} is \"strict\": false and its entry declares {}, but ./{} has its own \
                     {}: {} does not load a plugin both define (set \"strict\": true or remove the components from one)",
                    components.join(", "),
                    join(folder, self.manifest),
                    self.manifest,
                    self.runtime.spec().name,
                )));
            }
            Some(file) => {
                let mut manifest: Map<String, Value> =
                    serde_json::from_slice(&file.bytes).map_err(|e| Problem {
                        message: format!("{}: not a JSON object: {e}", join(folder, self.manifest)),
                        location: Some(Location::file(join(folder, self.manifest))),
                    })?;
                for key in &components {
                    append_component(&mut manifest, key, &entry[*key]);
                }
                for key in ENTRY_ONLY_WITH_NO_MANIFEST.iter().filter(|key| entry.contains_key(**key)) {
                    notes.push(Diagnostic::warning(
                        DiagnosticCode::UnusedField,
                        Some(self.at(index, Some(key))),
                        format!(
                            "plugin {name:?}: its entry's \"{key}\" is not read: ./{} has its own manifest, and {} \
                             reads \"{key}\" from the entry only for a plugin without one",
                            folder,
                            self.runtime.spec().name
                        ),
                    ));
                }
                (!components.is_empty()).then_some(manifest)
            }
        };
        if let Some(manifest) = manifest {
            let bytes = serde_json::to_vec_pretty(&Value::Object(manifest)).expect("a JSON map serializes");
            files.insert(self.manifest, bytes, false).map_err(|e| refused(e.to_string()))?;
            origins.push((self.manifest.to_string(), at.clone()));
            if !had_manifest {
                // The canonical source's config is read from the entry alone.
                origins.push(("plugforge.json".to_string(), at.clone()));
            }
        }
        // The entry as the folder's own listing: the readers take the
        // metadata the manifest lacks (and a category) from it.
        let mut own = entry.clone();
        own.insert("source".into(), Value::String("./".into()));
        let own_listing = serde_json::json!({ "name": marketplace, "plugins": [Value::Object(own)] });
        let bytes = serde_json::to_vec_pretty(&own_listing).expect("a JSON value serializes");
        files.insert(self.file, bytes, false).map_err(|e| refused(e.to_string()))?;
        origins.push((self.file.to_string(), at));
        let plugin =
            ListedPlugin { name: name.to_string(), folder: folder.to_string(), tree: files, origins };
        Ok((plugin, notes))
    }
}

/// `value` (the entry's paths for component `key`) added to the manifest's:
/// lists are joined, hooks objects merged (the entry's events over the
/// manifest's, as the runtime merges them).
fn append_component(manifest: &mut Map<String, Value>, key: &str, value: &Value) {
    let items = |value: &Value| match value {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    };
    let merged = match (manifest.remove(key), value) {
        (None, value) => value.clone(),
        (Some(Value::Object(mut mine)), Value::Object(theirs)) if key == "hooks" => {
            let theirs = theirs.get("hooks").and_then(Value::as_object).unwrap_or(theirs);
            let target = match mine.get_mut("hooks").and_then(Value::as_object_mut) {
                Some(events) => events,
                None => &mut mine,
            };
            for (event, handlers) in theirs {
                target.insert(event.clone(), handlers.clone());
            }
            Value::Object(mine)
        }
        (Some(mine), value) => {
            let mut all = items(&mine);
            all.extend(items(value).into_iter().filter(|item| !items(&mine).contains(item)));
            Value::Array(all)
        }
    };
    manifest.insert(key.to_string(), merged);
}

fn join(folder: &str, rel: &str) -> String {
    if folder.is_empty() { rel.to_string() } else { format!("{folder}/{rel}") }
}

#[cfg(test)]
mod tests;
