//! The extension layer as a plugin declares it: `requires` and `conflicts`
//! read from `plugforge.json` (a source) or the generation manifest (a built
//! bundle), each entry with the line it sits on. Malformed parts are skipped
//! here: loading the config reports them.

use serde_json::{Map, Value};

use super::super::Folder;
use crate::error::Location;
use crate::lint::Sink;

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
    let positions = folder.json_positions(file).unwrap_or_default();
    let at = |path: &[&str]| match positions.line_at(path) {
        Some(line) => folder.at_line(file, line, 1),
        None => folder.at(file),
    };
    let mut declared = Declared::default();
    if let Some(Value::Object(requires)) = root.get("requires") {
        for (key, list) in [
            ("services", &mut declared.services),
            ("bindings", &mut declared.bindings),
            ("plugins", &mut declared.plugins),
        ] {
            *list = entries(requires.get(key), |i, named| {
                let i = i.to_string();
                match named {
                    true => at(&["requires", key, &i, "name"]),
                    false => at(&["requires", key, &i]),
                }
            });
        }
    }
    if let Some(Value::Array(conflicts)) = root.get("conflicts") {
        for (i, conflict) in conflicts.iter().enumerate() {
            let Some(conflict) = conflict.as_object() else { continue };
            let components: Vec<(&'static str, String)> = COMPONENT_KINDS
                .iter()
                .filter_map(|kind| Some((*kind, conflict.get(*kind)?.as_str()?.to_string())))
                .collect();
            let i = i.to_string();
            let at = match components.first() {
                Some((kind, _)) => at(&["conflicts", &i, kind]),
                None => at(&["conflicts", &i]),
            };
            declared.conflicts.push(DeclaredConflict {
                components,
                plugin: conflict.get("plugin").and_then(Value::as_str).map(str::to_string),
                at,
            });
        }
    }
    declared
}

/// Entries `{"name": ..., ...}` of a list (a bare string counts as a name),
/// each at `at(index, whether it is an object with a name)`.
fn entries(list: Option<&Value>, at: impl Fn(usize, bool) -> Location) -> Vec<Entry> {
    let Some(Value::Array(items)) = list else { return Vec::new() };
    let mut entries = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let (name, fields, named) = match item {
            Value::String(name) => (name.clone(), Map::new(), false),
            Value::Object(fields) => match fields.get("name").and_then(Value::as_str) {
                Some(name) => (name.to_string(), fields.clone(), true),
                None => continue,
            },
            _ => continue,
        };
        entries.push(Entry { name, at: at(i, named), fields });
    }
    entries
}
