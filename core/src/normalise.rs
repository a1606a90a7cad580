//! One reading path: a plugin an author already ships for any importable
//! runtime is read through the same normalisation `import` writes to disk,
//! in memory, so `build`, `doctor` and `import` + `build` see the same
//! canonical source and produce the same bytes.

use std::borrow::Cow;

use crate::error::{Error, ErrorCode, Location, Result};
use crate::import::{ImportOptions, Imported, import, importable, is_native};
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
    pub tree: Cow<'a, SourceTree>,
    pub diagnostics: Vec<Diagnostic>,
}

/// A canonical source as it is; a native plugin through `import`.
/// `folder_name` is the source folder's name, which names a Claude Code
/// plugin that has no manifest, as Claude Code itself does.
pub fn canonical_source<'a>(tree: &'a SourceTree, folder_name: Option<&str>) -> Result<Canonical<'a>> {
    if CANONICAL_MARKERS.iter().any(|marker| tree.get(marker).is_some()) {
        return Ok(Canonical { tree: Cow::Borrowed(tree), diagnostics: Vec::new() });
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
    let Imported { runtime, source, notes } = import(tree, &options)?;
    let mut diagnostics = vec![Diagnostic::info(
        "read_as_native",
        None,
        format!("read as a {} plugin, the way `plugforge import` reads it", runtime.id()),
    )];
    diagnostics.extend(notes);
    Ok(Canonical { tree: Cow::Owned(source), diagnostics })
}
