//! One reading path: a plugin an author already ships for any importable
//! runtime is read through the same normalisation `import` writes to disk,
//! in memory, so `build`, `doctor` and `import` + `build` see the same
//! canonical source and produce the same bytes.

use std::borrow::Cow;

use crate::error::{Error, ErrorCode, Location, Result};
use crate::import::{ImportOptions, Imported, import, is_native};
use crate::report::Diagnostic;
use crate::runtime::{agent_plugins, claude_code, codex, cursor, gemini};
use crate::source::SourceTree;

/// Files that make a tree a canonical plugforge source.
const CANONICAL_MARKERS: [&str; 2] = ["plugforge.json", "plugforge.json.j2"];

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
                "no plugforge.json, and not a plugin of a runtime plugforge reads \
                 ({}, {}, {}, {}, {}, or Claude Code's commands/, agents/, skills/, hooks/ \
                 folders); `plugforge init` creates a source",
                claude_code::facts::MANIFEST_PATH,
                codex::facts::MANIFEST_PATH,
                gemini::facts::MANIFEST_PATH,
                cursor::facts::MANIFEST_PATH,
                agent_plugins::facts::MANIFEST_PATH,
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
    diagnostics
        .extend(notes.into_iter().map(|note| Diagnostic::info(note.code, Some(note.location), note.message)));
    Ok(Canonical { tree: Cow::Owned(source), diagnostics })
}
