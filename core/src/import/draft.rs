//! The canonical source being assembled: its files, its `plugforge.json`
//! fields and the notes about what it could not carry.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::ImportNote;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::source::{SourceFile, SourceTree, line_of_key};

/// `plugforge.json` keys in the order the written file lists them.
const CONFIG_ORDER: [&str; 13] = [
    "name",
    "displayName",
    "version",
    "description",
    "author",
    "license",
    "repository",
    "homepage",
    "keywords",
    "namespace",
    "targets",
    "marketplace",
    "allowUrls",
];

#[derive(Default)]
pub struct Draft {
    files: BTreeMap<String, SourceFile>,
    notes: Vec<ImportNote>,
    config: Map<String, Value>,
    /// Runtime id -> fields merged into that runtime's own manifest.
    targets: BTreeMap<String, Map<String, Value>>,
    /// Runtime id -> `targets.<runtime>` settings other than its manifest.
    target_settings: BTreeMap<String, Map<String, Value>>,
}

impl Draft {
    pub fn note(&mut self, code: &'static str, location: Location, message: impl Into<String>) {
        self.notes.push(ImportNote { code, location, message: message.into() });
    }

    /// A note on `key` of the JSON file `file` (whose text is `text`), at its line.
    pub fn note_key(&mut self, code: &'static str, file: &str, text: &str, key: &str, message: String) {
        let location = match line_of_key(text, key) {
            Some(line) => Location::at(file, line, 1),
            None => Location::file(file),
        };
        self.note(code, location, message);
    }

    pub fn set(&mut self, key: &str, value: Value) {
        self.config.insert(key.to_string(), value);
    }

    /// Sets `marketplace.<key>` unless the source already has one; says
    /// whether the source's value is now `value` (so the field is derived).
    pub fn set_marketplace_field(&mut self, key: &str, value: &Value) -> bool {
        let marketplace = self.config.entry("marketplace").or_insert_with(|| Value::Object(Map::new()));
        let Some(fields) = marketplace.as_object_mut() else { return false };
        let slot = fields.entry(key.to_string()).or_insert_with(|| value.clone());
        slot == value
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.config.get(key)
    }

    /// Keeps `key` for one runtime only (`targets.<runtime>.manifest.<key>`).
    pub fn target_field(&mut self, runtime: &str, key: &str, value: Value) {
        self.targets.entry(runtime.to_string()).or_default().insert(key.to_string(), value);
    }

    /// Sets `targets.<runtime>.<key>` (a per-runtime switch such as `hooks`).
    pub fn target_setting(&mut self, runtime: &str, key: &str, value: Value) {
        self.target_settings.entry(runtime.to_string()).or_default().insert(key.to_string(), value);
    }

    pub fn has(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    /// Adds a file; a second file at the same path is an error naming both origins.
    pub fn add(
        &mut self,
        path: &str,
        bytes: impl Into<Arc<[u8]>>,
        executable: bool,
        origin: &str,
    ) -> Result<()> {
        if self.files.contains_key(path) {
            return Err(Error::at(
                ErrorCode::InvalidSource,
                Location::file(origin),
                format!("{origin} would be imported to {path}, which another file already takes"),
            ));
        }
        self.files.insert(path.to_string(), SourceFile { bytes: bytes.into(), executable });
        Ok(())
    }

    pub fn add_text(&mut self, path: &str, text: String, origin: &str) -> Result<()> {
        self.add(path, text.into_bytes(), false, origin)
    }

    pub fn add_json(&mut self, path: &str, value: &Value, origin: &str) -> Result<()> {
        self.add(path, crate::json::to_bytes(value), false, origin)
    }

    /// The canonical source: the files plus `plugforge.json`. URLs the
    /// native plugin holds need no `allowUrls`: the default `carry` policy
    /// carries what the author wrote.
    pub fn finish(mut self) -> Result<(SourceTree, Vec<ImportNote>)> {
        if !self.targets.is_empty() || !self.target_settings.is_empty() {
            let mut targets: Map<String, Value> = std::mem::take(&mut self.target_settings)
                .into_iter()
                .map(|(runtime, settings)| (runtime, Value::Object(settings)))
                .collect();
            for (runtime, manifest) in std::mem::take(&mut self.targets) {
                let slot = targets.entry(runtime).or_insert_with(|| json!({}));
                slot.as_object_mut().expect("an object").insert("manifest".into(), Value::Object(manifest));
            }
            targets.sort_keys();
            self.config.insert("targets".into(), Value::Object(targets));
        }
        let mut config = Map::new();
        for key in CONFIG_ORDER {
            if let Some(value) = self.config.remove(key) {
                config.insert(key.into(), value);
            }
        }
        config.extend(std::mem::take(&mut self.config));
        let mut tree = SourceTree::new();
        tree.insert("plugforge.json", crate::json::to_bytes(&Value::Object(config)), false)?;
        for (path, file) in std::mem::take(&mut self.files) {
            match template_safe(&path, &file) {
                Ok(Some((escaped, bytes))) => tree.insert(&escaped, bytes, file.executable)?,
                Ok(None) => tree.insert(&path, file.bytes, file.executable)?,
                Err(why) => self.note("template_file", Location::file(path.as_str()), why),
            }
        }
        Ok((tree, self.notes))
    }
}

/// A native `.j2` file is plain content, but the canonical source renders
/// every `.j2` file: it travels as `<path>.j2` wrapped in a raw block, which
/// renders back to its exact bytes at `<path>`.
fn template_safe(path: &str, file: &SourceFile) -> std::result::Result<Option<(String, Vec<u8>)>, String> {
    if !path.ends_with(".j2") {
        return Ok(None);
    }
    let text = std::str::from_utf8(&file.bytes)
        .map_err(|_| "not UTF-8, and the canonical source renders every .j2 file; left out".to_string())?;
    if text.contains("endraw") {
        return Err("holds \"endraw\", so it cannot be kept verbatim in a source that renders every .j2 file; left out".to_string());
    }
    Ok(Some((format!("{path}.j2"), format!("{{% raw %}}{text}{{% endraw %}}").into_bytes())))
}
