//! The extension layer as a plugin declares it: `requires` and `conflicts`
//! read from `plugforge.json` (a source) or the generation manifest (a built
//! bundle), each entry with the line it sits on. Malformed parts are skipped
//! here: loading the config reports them.

use serde_json::{Map, Value};

use super::super::Folder;
use super::super::findings::Sink;
use crate::error::Location;

/// A named entry and where it is declared.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub name: String,
    pub at: Location,
    pub fields: Map<String, Value>,
}

/// One declared conflict: the component it names (kind, name) and the other plugin.
#[derive(Debug, Clone)]
pub(crate) struct DeclaredConflict {
    /// Every component key the entry sets (`command`, `skill`, `agent`), with its name.
    pub components: Vec<(&'static str, String)>,
    pub plugin: Option<String>,
    pub at: Location,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Declared {
    pub services: Vec<Entry>,
    pub bindings: Vec<Entry>,
    pub plugins: Vec<Entry>,
    pub conflicts: Vec<DeclaredConflict>,
}

pub(crate) const COMPONENT_KINDS: [&str; 3] = ["command", "skill", "agent"];

impl Declared {
    pub fn is_empty(&self) -> bool {
        self.services.is_empty()
            && self.bindings.is_empty()
            && self.plugins.is_empty()
            && self.conflicts.is_empty()
    }

    /// Whether this plugin declares the collision of `name` (of `kind`'s
    /// invocation space) with `other`.
    pub fn declares_conflict(&self, kind: &str, name: &str, other: &str) -> bool {
        self.conflicts.iter().any(|c| {
            c.plugin.as_deref() == Some(other)
                && c.components.iter().any(|(k, n)| n == name && same_space(k, kind))
        })
    }
}

/// Skills and commands are both invoked as `/name`: one space. Agents have their own.
pub(crate) fn same_space(a: &str, b: &str) -> bool {
    (a == "agent") == (b == "agent")
}

/// The extension declared in `file` (relative to `folder`), empty when the
/// file is missing, not JSON, or declares none.
pub(crate) fn read(folder: &Folder<'_>, file: &str) -> Declared {
    // An unreadable file is reported by the area that owns it.
    let Some(Value::Object(root)) = folder.json(file, &mut Sink::default()) else {
        return Declared::default();
    };
    let lines = Lines { folder, file, text: folder.text(file, &mut Sink::default()).unwrap_or("") };
    let mut declared = Declared::default();
    if let Some(Value::Object(requires)) = root.get("requires") {
        let start = lines.key_line("requires", 0);
        for (key, list) in [
            ("services", &mut declared.services),
            ("bindings", &mut declared.bindings),
            ("plugins", &mut declared.plugins),
        ] {
            let from = lines.key_line(key, start);
            *list = lines.entries(requires.get(key), from);
        }
    }
    if let Some(Value::Array(conflicts)) = root.get("conflicts") {
        let mut from = lines.key_line("conflicts", 0);
        for conflict in conflicts.iter().filter_map(Value::as_object) {
            let components: Vec<(&'static str, String)> = COMPONENT_KINDS
                .iter()
                .filter_map(|kind| Some((*kind, conflict.get(*kind)?.as_str()?.to_string())))
                .collect();
            let needle = components.first().map(|(_, name)| name.as_str()).unwrap_or("");
            from = lines.string_line(needle, from);
            declared.conflicts.push(DeclaredConflict {
                components,
                plugin: conflict.get("plugin").and_then(Value::as_str).map(str::to_string),
                at: lines.at(from),
            });
        }
    }
    declared
}

/// Line lookups in the declaring file, moving forward so repeated names
/// land on their own entry.
struct Lines<'a> {
    folder: &'a Folder<'a>,
    file: &'a str,
    text: &'a str,
}

impl Lines<'_> {
    /// Entries `{"name": ..., ...}` of a list (a bare string counts as a name).
    fn entries(&self, list: Option<&Value>, mut from: usize) -> Vec<Entry> {
        let Some(Value::Array(items)) = list else { return Vec::new() };
        let mut entries = Vec::new();
        for item in items {
            let (name, fields) = match item {
                Value::String(name) => (name.clone(), Map::new()),
                Value::Object(fields) => match fields.get("name").and_then(Value::as_str) {
                    Some(name) => (name.to_string(), fields.clone()),
                    None => continue,
                },
                _ => continue,
            };
            from = self.string_line(&name, from);
            entries.push(Entry { name, at: self.at(from), fields });
        }
        entries
    }

    /// The line of `"key":` at or after line `from` (0 = anywhere).
    fn key_line(&self, key: &str, from: usize) -> usize {
        self.find(&format!("\"{key}\""), from).unwrap_or(from)
    }

    /// The line of the string `"value"` at or after line `from`.
    fn string_line(&self, value: &str, from: usize) -> usize {
        let quoted = serde_json::to_string(value).unwrap_or_default();
        self.find(&quoted, from).unwrap_or(from)
    }

    fn find(&self, needle: &str, from: usize) -> Option<usize> {
        let skip = from.saturating_sub(1);
        self.text.lines().enumerate().skip(skip).find(|(_, line)| line.contains(needle)).map(|(i, _)| i + 1)
    }

    fn at(&self, line: usize) -> Location {
        if line == 0 { self.folder.at(self.file) } else { self.folder.at_line(self.file, line, 1) }
    }
}
