//! What a real client's report says of one built bundle: which of the
//! components the build wrote it loaded, which it did not, and what it said
//! went wrong, in its own words. Each runtime's [`super::Check`] reads its
//! driver's report into a [`Reading`]; `verify` (and the suite's real-client
//! tests) turn readings into verdicts.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use crate::manifest::Manifest;

/// A built bundle as a client is asked to judge it.
pub struct Built<'a> {
    /// The bundle folder the client was pointed at (absolute), as its
    /// messages spell it.
    pub dir: &'a str,
    /// The generation manifest: what the build wrote (paths relative to the
    /// bundle folder, or to the output root for a kind written in place).
    pub manifest: &'a Manifest,
    /// The bundle's files as they are on disk now, by the same paths: a file
    /// deleted since the build is absent here and still listed by the manifest.
    pub files: &'a BTreeMap<String, Vec<u8>>,
}

impl Built<'_> {
    /// The plugin's name, as the manifest records it.
    pub fn plugin(&self) -> &str {
        &self.manifest.plugin.name
    }

    /// Whether the build wrote `path`.
    pub fn wrote(&self, path: &str) -> bool {
        self.manifest.files.iter().any(|f| f.path == path)
    }

    /// `dir/<name>/SKILL.md` folders the build wrote: (name, file).
    pub fn skill_folders(&self, dir: &str) -> Vec<(String, String)> {
        let prefix = format!("{dir}/");
        let mut found: Vec<(String, String)> = self
            .manifest
            .files
            .iter()
            .filter_map(|f| {
                let rest = f.path.strip_prefix(&prefix)?;
                let name = rest.strip_suffix("/SKILL.md")?;
                (!name.contains('/')).then(|| (name.to_string(), f.path.clone()))
            })
            .collect();
        found.sort();
        found
    }

    /// `dir/<name><ext>` files the build wrote directly in `dir`: (name, file).
    pub fn files_in(&self, dir: &str, ext: &str) -> Vec<(String, String)> {
        let prefix = format!("{dir}/");
        let mut found: Vec<(String, String)> = self
            .manifest
            .files
            .iter()
            .filter_map(|f| {
                let rest = f.path.strip_prefix(&prefix)?;
                let name = rest.strip_suffix(ext)?;
                (!name.contains('/') && !name.is_empty()).then(|| (name.to_string(), f.path.clone()))
            })
            .collect();
        found.sort();
        found
    }

    /// The JSON file at `path` as on disk, when the build wrote it and it parses.
    pub fn json(&self, path: &str) -> Option<Value> {
        if !self.wrote(path) {
            return None;
        }
        serde_json::from_slice(self.files.get(path)?).ok()
    }

    /// The keys of the object at `pointer` in the JSON file `path`: (key, path).
    pub fn json_keys(&self, path: &str, pointer: &str) -> Vec<(String, String)> {
        let Some(value) = self.json(path) else { return Vec::new() };
        value
            .pointer(pointer)
            .and_then(Value::as_object)
            .map(|m| m.keys().map(|k| (k.clone(), path.to_string())).collect())
            .unwrap_or_default()
    }

    /// MCP server names of a `.mcp.json`-style file: under `mcpServers`, or
    /// the top level itself when it has no such key (the flat form).
    pub fn mcp_servers(&self, path: &str) -> Vec<(String, String)> {
        let Some(value) = self.json(path) else { return Vec::new() };
        let servers = value.get("mcpServers").unwrap_or(&value);
        servers
            .as_object()
            .map(|m| m.keys().map(|k| (k.clone(), path.to_string())).collect())
            .unwrap_or_default()
    }
}

/// What one client made of one bundle.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
pub struct Reading {
    /// What it loaded, by component ("skills", "agents", ...), counted.
    pub loaded: Vec<Count>,
    /// Components the build wrote that it did not load.
    pub missing: Vec<Missing>,
    /// What it said went wrong (an error, a refusal, a warning its strict
    /// mode fails on), in its own words.
    pub said: Vec<Said>,
}

/// How many components of one kind a client loaded, of how many built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Count {
    /// The component, plural ("skills", "mcp servers").
    pub component: String,
    pub loaded: usize,
    pub built: usize,
}

/// A component the build wrote and the client did not load.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Missing {
    /// The component, singular ("skill").
    pub component: String,
    pub name: String,
    /// The file that holds it, relative to the bundle folder.
    pub file: String,
}

/// A message of the client's, with the step that printed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Said {
    /// The step ("plugin validate --strict", "install").
    pub step: String,
    /// The client's own words.
    pub message: String,
    /// The bundle file it is about, when known (relative to the bundle folder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

impl Reading {
    /// Compares the components of one kind the build wrote (`built`: name,
    /// file) with the names the client lists (`listed`), recording the count
    /// and every built one it did not load. `as_listed` turns a built name
    /// into the client's spelling of it (a namespace, a case change).
    pub fn compare(
        &mut self,
        component: &str,
        plural: &str,
        built: &[(String, String)],
        listed: &BTreeSet<String>,
        as_listed: &dyn Fn(&str) -> String,
    ) {
        let mut loaded = 0;
        for (name, file) in built {
            if listed.contains(&as_listed(name)) {
                loaded += 1;
            } else {
                self.missing.push(Missing {
                    component: component.into(),
                    name: name.clone(),
                    file: file.clone(),
                });
            }
        }
        self.loaded.push(Count { component: plural.into(), loaded, built: built.len() });
    }

    /// Records a message of the client's.
    pub fn say(&mut self, step: &str, message: impl Into<String>, file: Option<&str>) {
        let message = message.into();
        let message = message.trim();
        if message.is_empty() {
            return;
        }
        let said = Said { step: step.into(), message: message.to_string(), file: file.map(str::to_string) };
        if !self.said.contains(&said) {
            self.said.push(said);
        }
    }

    /// Whether the client loaded everything and said nothing went wrong.
    pub fn passed(&self) -> bool {
        self.missing.is_empty() && self.said.is_empty()
    }
}

/// The strings of a JSON list (anything else is empty).
pub fn strings(value: &Value) -> BTreeSet<String> {
    value
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default()
}

/// A step's exit code, `None` when it did not run.
pub fn exit(step: &Value) -> Option<i64> {
    step.get("exit").and_then(Value::as_i64)
}

/// The last `n` non-empty lines of `text`, joined by " / ".
pub fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join(" / ")
}

/// The file below `bundle` a client's message names (the first path it
/// holds that starts with `bundle/`), relative to `bundle`.
pub fn file_named(message: &str, bundle: &str) -> Option<String> {
    let prefix = format!("{}/", bundle.trim_end_matches('/'));
    let at = message.find(&prefix)?;
    let rest = &message[at + prefix.len()..];
    let end = rest
        .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ',' | ')' | ':'))
        .unwrap_or(rest.len());
    let file = rest[..end].trim_end_matches('.');
    (!file.is_empty()).then(|| file.to_string())
}
