//! A native manifest's fields -> `plugforge.json`: the shared metadata is
//! taken, runtime-only fields are kept for that runtime, anything else is
//! noted.

use serde_json::{Map, Value};

use super::Draft;
use crate::codes::DiagnosticCode;
use crate::error::Result;
use crate::source::parse_json;

/// A parsed native manifest and where it came from.
pub struct Manifest {
    pub file: String,
    pub text: String,
    pub fields: Map<String, Value>,
}

impl Manifest {
    pub fn read(file: &str, bytes: &[u8]) -> Result<Manifest> {
        let fields: Map<String, Value> = parse_json(file, bytes)?;
        Ok(Manifest { file: file.to_string(), text: String::from_utf8_lossy(bytes).into_owned(), fields })
    }

    /// Takes a field out, leaving the rest for [`Manifest::rest`].
    pub fn take(&mut self, key: &str) -> Option<Value> {
        self.fields.shift_remove(key)
    }

    pub fn note(&self, draft: &mut Draft, code: DiagnosticCode, key: &str, message: String) {
        draft.note_key(code, &self.file, &self.text, key, message);
    }

    /// The shared metadata: name, display name, version, description,
    /// author, homepage, repository, license, keywords. A value of the wrong
    /// type is noted and left out.
    pub fn metadata(&mut self, draft: &mut Draft, display_name_key: Option<&str>) {
        let mut strings = vec![
            ("name", "name"),
            ("version", "version"),
            ("description", "description"),
            ("homepage", "homepage"),
            ("repository", "repository"),
            ("license", "license"),
            ("icon", "icon"),
        ];
        if let Some(key) = display_name_key {
            strings.push((key, "displayName"));
        }
        for (key, canonical) in strings {
            match self.take(key) {
                None | Some(Value::Null) => {}
                Some(Value::String(text)) if key == "name" && text.is_empty() => {}
                Some(Value::String(text)) => draft.set(canonical, Value::String(text)),
                Some(other) => self.note(
                    draft,
                    DiagnosticCode::InvalidField,
                    key,
                    format!("\"{key}\" is {other}, not a string; left out"),
                ),
            }
        }
        if let Some(author) = self.take("author") {
            self.author(draft, author);
        }
        match self.take("keywords") {
            None => {}
            Some(Value::Array(items)) if items.iter().all(Value::is_string) && !items.is_empty() => {
                draft.set("keywords", Value::Array(items));
            }
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {}
            Some(other) => self.note(
                draft,
                DiagnosticCode::InvalidField,
                "keywords",
                format!("\"keywords\" is {other}, not a list of strings; left out"),
            ),
        }
    }

    fn author(&self, draft: &mut Draft, author: Value) {
        let mut out = Map::new();
        match author {
            // npm's "Name <email> (url)" shorthand is a name here.
            Value::String(name) if !name.is_empty() => {
                out.insert("name".into(), Value::String(name));
            }
            Value::Object(fields) => {
                for (key, value) in fields {
                    match (key.as_str(), value) {
                        ("name" | "email" | "url", Value::String(text)) => {
                            out.insert(key, Value::String(text));
                        }
                        (_, value) => self.note(
                            draft,
                            DiagnosticCode::UnknownField,
                            "author",
                            format!("author.{key} ({value}) has no place in plugforge.json; left out"),
                        ),
                    }
                }
            }
            other => {
                return self.note(
                    draft,
                    DiagnosticCode::InvalidField,
                    "author",
                    format!("\"author\" is {other}; left out"),
                );
            }
        }
        if out.get("name").and_then(Value::as_str).is_none_or(str::is_empty) {
            let message = "\"author\" has no name, which plugforge.json requires; left out".to_string();
            return self.note(draft, DiagnosticCode::InvalidField, "author", message);
        }
        draft.set("author", Value::Object(out));
    }

    /// Keeps each of `keys` present for `runtime` alone, with a note saying so.
    pub fn keep_for(&mut self, draft: &mut Draft, runtime: &str, runtime_name: &str, keys: &[&str]) {
        for key in keys {
            if let Some(value) = self.take(key) {
                let message = format!(
                    "\"{key}\" is {runtime_name}-only: kept under targets.{runtime}.manifest, \
                     so only the {runtime_name} bundle carries it"
                );
                self.note(draft, DiagnosticCode::RuntimeOnlyField, key, message);
                draft.target_field(runtime, key, value);
            }
        }
    }

    /// Components listed only under a tool's key of `extensions` (an Agent
    /// Plugins manifest's namespaced object, which each tool reads under its
    /// own key alone): each such list is noted and yields nothing, since no
    /// client loads it. `component_keys` are the keys that list components;
    /// `read_keys` the extension keys a client does read.
    pub fn unloadable_extensions(&self, draft: &mut Draft, component_keys: &[&str], read_keys: &[&str]) {
        let Some(Value::Object(extensions)) = self.fields.get("extensions") else { return };
        for (key, value) in extensions {
            let Value::Object(fields) = value else { continue };
            if read_keys.contains(&key.as_str()) {
                continue;
            }
            let listed: Vec<&str> =
                fields.keys().map(String::as_str).filter(|k| component_keys.contains(k)).collect();
            if listed.is_empty() {
                continue;
            }
            let message = format!(
                "{} in {}: listed only under extensions.{key}: no client loads it",
                listed.join(", "),
                self.file
            );
            draft.note_key(DiagnosticCode::UnusedField, &self.file, &self.text, key, message);
        }
    }

    /// Notes every field nothing took, each left out.
    pub fn rest(self, draft: &mut Draft, runtime_name: &str) {
        for (key, value) in &self.fields {
            let shown = short(value);
            let message = format!(
                "\"{key}\" ({shown}) is not a field plugforge knows in the {runtime_name} manifest; left out"
            );
            draft.note_key(DiagnosticCode::UnknownField, &self.file, &self.text, key, message);
        }
    }
}

/// A JSON value shown in a message, cut to stay readable.
pub fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        text
    } else {
        format!("{}...", text.chars().take(57).collect::<String>())
    }
}

/// A `./path` manifest entry -> the path below the plugin root.
pub fn relative(entry: &str) -> Option<String> {
    let rest = entry.strip_prefix("./").unwrap_or(entry).trim_end_matches('/');
    (!rest.is_empty() && !rest.starts_with('/') && !rest.split('/').any(|s| s == ".."))
        .then(|| rest.to_string())
}

/// A path field's entries: one string or a list of them.
pub fn entries(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    }
}
