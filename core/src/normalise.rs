//! One reading path: a plugin an author already ships for any importable
//! runtime is read by the same reader `import` uses, so `build`, `doctor`
//! and `import` + `build` see the same canonical source and produce the
//! same bytes. A build loads what the reader read; it never parses the
//! source `import` would write.

use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::import::{ImportOptions, Read, importable, is_native, read};
use crate::model::{ReadSource, Source};
use crate::report::Diagnostic;
use crate::source::SourceTree;

/// Files that make a tree a canonical plugforge source.
const CANONICAL_MARKERS: [&str; 2] = ["plugforge.json", "plugforge.json.j2"];

/// What makes a folder a native plugin plugforge reads: each importable
/// runtime's manifest, and the folders by which one reads a plugin without
/// a manifest.
fn native_markers() -> Vec<String> {
    let runtimes = importable();
    let manifests: Vec<&str> = runtimes.iter().filter_map(|r| r.spec().reads.manifest).collect();
    let mut markers = vec![manifests.join(", ")];
    for runtime in &runtimes {
        let Some(layout) = runtime.spec().read.as_ref().and_then(|reader| reader.manifestless_layout) else {
            continue;
        };
        let mut folders: Vec<String> = Vec::new();
        for entry in layout.iter().filter(|entry| !entry.starts_with('.') && !entry.ends_with(".md")) {
            let folder = format!("{}/", entry.split('/').next().unwrap_or(entry));
            if !folders.contains(&folder) {
                folders.push(folder);
            }
        }
        markers.push(format!("{}'s {} folders", runtime.name(), folders.join(", ")));
    }
    markers
}

/// The canonical source `tree` stands for, and what reading it noted.
pub struct Canonical<'a> {
    /// The tree as written (a plugforge source), or, for a native plugin,
    /// what its reader read.
    written: &'a SourceTree,
    read: Option<ReadSource>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Canonical<'_> {
    /// The source the loader takes.
    pub fn source(&self) -> Source<'_> {
        match &self.read {
            Some(read) => Source::Read(read),
            None => Source::Written(self.written),
        }
    }
}

/// A canonical source as it is; a native plugin through its reader.
/// `folder_name` is the source folder's name, which names a Claude Code
/// plugin that has no manifest, as Claude Code itself does.
pub fn canonical_source<'a>(tree: &'a SourceTree, folder_name: Option<&str>) -> Result<Canonical<'a>> {
    if CANONICAL_MARKERS.iter().any(|marker| tree.get(marker).is_some()) {
        return Ok(Canonical { written: tree, read: None, diagnostics: Vec::new() });
    }
    if !is_native(tree) {
        return Err(Error::at(
            ErrorCode::InvalidSource,
            Location::file(CANONICAL_MARKERS[0]),
            format!(
                "no plugforge.json, and not a plugin of a runtime plugforge reads ({}); \
                 `plugforge init` creates a source",
                native_markers().join(", or ")
            ),
        ));
    }
    let options = ImportOptions { folder_name: folder_name.map(str::to_string), ..ImportOptions::default() };
    let Read { runtime, source, notes } = read(tree, &options)?;
    let mut diagnostics = vec![Diagnostic::info(
        DiagnosticCode::ReadAsNative,
        None,
        format!("read as a {} plugin, the way `plugforge import` reads it", runtime.id()),
    )];
    diagnostics.extend(notes);
    Ok(Canonical { written: tree, read: Some(source), diagnostics })
}
