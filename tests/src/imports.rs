//! The import fixtures every host runs: `imports/<case>/input/` is a native
//! plugin, `case.json` names the import options, `expected/` is the exact
//! canonical source `import` writes and `notes.json` the exact notes about
//! what it could not carry. A case about one runtime's format lives in that
//! runtime's folder (`core/src/runtime/<folder>/conformance/imports/`).

use std::fs;
use std::path::PathBuf;

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
    /// The runtime folder it lives in; `None` for a shared case.
    pub folder: Option<String>,
    pub file: ImportCaseFile,
}

/// Every case folder, sorted by name.
pub fn import_cases() -> Vec<ImportCase> {
    crate::listed("imports")
        .into_iter()
        .map(|listed| {
            let dir = listed.path();
            let name = listed.name;
            let text =
                fs::read_to_string(dir.join("case.json")).unwrap_or_else(|e| panic!("{name}/case.json: {e}"));
            let file = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}/case.json: {e}"));
            ImportCase { name, dir, folder: listed.folder, file }
        })
        .collect()
}

/// The import case named `name`, wherever it lives.
pub fn import_case(name: &str) -> ImportCase {
    import_cases().into_iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no import case {name:?}"))
}

impl ImportCase {
    pub fn options(&self) -> ImportOptions {
        if self.file.options.is_null() {
            return ImportOptions::default();
        }
        serde_json::from_value(self.file.options.clone())
            .unwrap_or_else(|e| panic!("{}/case.json options: {e}", self.name))
    }

    pub fn run(&self) -> Imported {
        let tree = read_tree(&self.dir.join("input"));
        plugforge_core::import(&tree, &self.options()).unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }

    pub fn expected_dir(&self) -> PathBuf {
        self.dir.join("expected")
    }

    /// The blessed notes, as JSON.
    pub fn expected_notes(&self) -> serde_json::Value {
        let path = self.dir.join("notes.json");
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}/notes.json: {e}", self.name));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}/notes.json: {e}", self.name))
    }
}

/// An imported source as a file map, comparable with `read_files(expected/)`.
pub fn source_files(imported: &Imported) -> Tree {
    imported
        .source
        .iter()
        .map(|(path, file)| (path.as_str().to_string(), (file.bytes.to_vec(), file.executable)))
        .collect()
}
