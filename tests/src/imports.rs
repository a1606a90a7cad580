//! The import cases every host runs: `imports/<name>/` holds `case.json`
//! (`{"description", "options": {"from"}}`), `input/` (a native plugin),
//! `expected/` (the exact canonical source `import` must produce) and
//! `notes.json` (the exact notes, as a JSON array).

use std::fs;
use std::path::{Path, PathBuf};

use plugforge_core::{ImportOptions, Imported};
use serde::Deserialize;

use crate::{Tree, read_tree};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportCaseFile {
    pub description: String,
    #[serde(default)]
    pub options: serde_json::Value,
}

pub struct ImportCase {
    pub name: String,
    pub dir: PathBuf,
    pub file: ImportCaseFile,
}

pub fn imports_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("imports")
}

/// Every case folder, sorted by name (none while `imports/` is absent).
pub fn import_cases() -> Vec<ImportCase> {
    let Ok(entries) = fs::read_dir(imports_dir()) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .map(|e| e.expect("readable entry"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let dir = imports_dir().join(&name);
            let text =
                fs::read_to_string(dir.join("case.json")).unwrap_or_else(|e| panic!("{name}/case.json: {e}"));
            let file = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}/case.json: {e}"));
            ImportCase { name, dir, file }
        })
        .collect()
}

impl ImportCase {
    pub fn options(&self) -> ImportOptions {
        serde_json::from_value(self.file.options.clone())
            .unwrap_or_else(|e| panic!("{}/case.json options: {e}", self.name))
    }

    /// Imports `input/`.
    pub fn run(&self) -> Imported {
        plugforge_core::import(&read_tree(&self.dir.join("input")), &self.options())
            .unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }

    /// The imported source as a file map, as `expected/` holds it.
    pub fn produced_tree(imported: &Imported) -> Tree {
        imported.source.iter().map(|(p, f)| (p.to_string(), (f.bytes.to_vec(), f.executable))).collect()
    }

    /// The blessed notes, as JSON.
    pub fn expected_notes(&self) -> serde_json::Value {
        let text = fs::read_to_string(self.dir.join("notes.json"))
            .unwrap_or_else(|e| panic!("{}/notes.json: {e}", self.name));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}/notes.json: {e}", self.name))
    }
}
