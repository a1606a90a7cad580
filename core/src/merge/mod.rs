//! Files shared with the user or other plugins (marketplaces, `.mcp.json`,
//! settings, context files): a bundle owns parts of them, never the whole.
//! Each owned part is recorded in the bundle's manifest, so an edit to it is
//! detected and a part no longer generated is taken out again.

mod document;
mod json_parts;
pub(crate) mod marketplace;
mod section;
mod yaml_parts;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::path::BundlePath;

/// One part of a shared file that a bundle wants.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Merge {
    /// The shared file, below the output root.
    pub path: BundlePath,
    pub part: Part,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Part {
    /// A marketplace entry: appended when missing, replaced in place when its
    /// version moved, otherwise left alone.
    MarketplaceEntry { document: Value, entry: Value },
    /// `key` in the object at `pointer` (e.g. a server under `mcpServers`).
    JsonEntry { pointer: Vec<String>, key: String, value: Value },
    /// Items appended to the array at `pointer` (e.g. hook groups of an event).
    JsonItems { pointer: Vec<String>, items: Vec<Value> },
    /// A delimited section of a text file (e.g. `CLAUDE.md`, `AGENTS.md`).
    Section { id: String, text: String },
}

/// What the manifest remembers of an owned part, to detect edits and to
/// remove it later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Record {
    MarketplaceEntry { path: String, name: String, source: String },
    JsonEntry { path: String, pointer: Vec<String>, key: String, value: Value },
    JsonItems { path: String, pointer: Vec<String>, items: Vec<Value> },
    Section { path: String, id: String, sha256: String },
}

impl Record {
    pub fn path(&self) -> &str {
        match self {
            Record::MarketplaceEntry { path, .. }
            | Record::JsonEntry { path, .. }
            | Record::JsonItems { path, .. }
            | Record::Section { path, .. } => path,
        }
    }

    /// Two records for the same place in the same file.
    fn same_slot(&self, other: &Record) -> bool {
        match (self, other) {
            (Record::MarketplaceEntry { path: a, .. }, Record::MarketplaceEntry { path: b, .. }) => a == b,
            (
                Record::JsonEntry { path: a, pointer: p, key: k, .. },
                Record::JsonEntry { path: b, pointer: q, key: l, .. },
            ) => a == b && p == q && k == l,
            (
                Record::JsonItems { path: a, pointer: p, .. },
                Record::JsonItems { path: b, pointer: q, .. },
            ) => a == b && p == q,
            (Record::Section { path: a, id: i, .. }, Record::Section { path: b, id: j, .. }) => {
                a == b && i == j
            }
            _ => false,
        }
    }
}

impl Merge {
    /// The record the manifest keeps once this part is written.
    pub fn record(&self) -> Option<Record> {
        let path = self.path.to_string();
        match &self.part {
            Part::MarketplaceEntry { entry, .. } => Some(Record::MarketplaceEntry {
                path,
                name: entry.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                source: marketplace::source_path(entry).unwrap_or_default().to_string(),
            }),
            Part::JsonEntry { pointer, key, value } => Some(Record::JsonEntry {
                path,
                pointer: pointer.clone(),
                key: key.clone(),
                value: value.clone(),
            }),
            Part::JsonItems { pointer, items } => {
                Some(Record::JsonItems { path, pointer: pointer.clone(), items: items.clone() })
            }
            Part::Section { id, text } => Some(Record::Section {
                path,
                id: id.clone(),
                sha256: crate::hash::sha256_hex(text.as_bytes()),
            }),
        }
    }
}

/// Why a merge step cannot proceed without `--force`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

/// The file's content as a merge sees it: absent, or text.
pub type Content = Option<String>;

/// Whether the part a record describes is still on disk as written.
pub fn intact(content: Option<&str>, record: &Record) -> bool {
    let Some(text) = content else { return false };
    match record {
        Record::MarketplaceEntry { path, name, source } => marketplace::lists(path, text, name, source),
        Record::JsonEntry { path, pointer, key, value } => {
            json_parts::entry_is(path, text, pointer, key, value)
        }
        Record::JsonItems { path, pointer, items } => json_parts::items_present(path, text, pointer, items),
        Record::Section { path, id, sha256 } => {
            section::hash_of(path, text, id).as_deref() == Some(sha256.as_str())
        }
    }
}

/// The previous record for the slot `merge` fills, among `records`.
pub fn previous_for<'a>(merge: &Merge, records: &'a [Record]) -> Option<&'a Record> {
    let wanted = merge.record()?;
    records.iter().find(|r| r.same_slot(&wanted))
}

/// What a merge step does to a shared file.
#[derive(Debug, Clone)]
pub enum Step {
    Apply(Merge, Option<Record>),
    Remove(Record),
}

/// Runs `steps` over a file's current content. A JSON-model file is opened
/// once and closed once: every step edits the same syntax tree, so a file
/// plugforge creates is written once by its writer and a file the user
/// wrote is only ever edited in place (JSON and YAML alike).
pub fn run(content: Content, file: &str, steps: &[Step], force: bool) -> Result<Content, Refusal> {
    let is_section = |step: &Step| match step {
        Step::Apply(merge, _) => matches!(merge.part, Part::Section { .. }),
        Step::Remove(record) => matches!(record, Record::Section { .. }),
    };
    if steps.iter().all(is_section) {
        return steps.iter().try_fold(content, |content, step| match step {
            Step::Apply(Merge { part: Part::Section { id, text }, .. }, previous) => {
                section::set(content, file, id, text, previous.as_ref(), force).map(Some)
            }
            Step::Remove(Record::Section { id, sha256, .. }) => match content {
                Some(text) => section::remove(text, file, id, sha256, force),
                None => Ok(None),
            },
            _ => unreachable!("only sections here"),
        });
    }
    if steps.iter().any(is_section) {
        return Err(Refusal(format!("{file}: sections and entries cannot share one file")));
    }
    let fresh = steps.iter().find_map(|step| match step {
        Step::Apply(Merge { part: Part::MarketplaceEntry { document, .. }, .. }, _) => Some(document),
        _ => None,
    });
    // Removing from a file that is not there has nothing to do.
    if content.is_none() && steps.iter().all(|s| matches!(s, Step::Remove(_))) {
        return Ok(None);
    }
    if document::Dialect::of(file) == document::Dialect::Yaml {
        return yaml_parts::run(content, file, steps, force);
    }
    let mut doc = document::Document::open(content, file, fresh)?;
    for step in steps {
        match step {
            Step::Apply(merge, previous) => match &merge.part {
                Part::MarketplaceEntry { entry, .. } => marketplace::apply(&mut doc, file, entry)?,
                Part::JsonEntry { pointer, key, value } => {
                    json_parts::set_entry(&mut doc, file, pointer, key, value, previous.as_ref(), force)?
                }
                Part::JsonItems { pointer, items } => {
                    json_parts::add_items(&mut doc, file, pointer, items, previous.as_ref(), force)?
                }
                Part::Section { .. } => unreachable!("checked above"),
            },
            Step::Remove(record) => match record {
                Record::MarketplaceEntry { name, source, .. } => marketplace::remove(&mut doc, name, source),
                Record::JsonEntry { pointer, key, value, .. } => {
                    json_parts::remove_entry(&mut doc, file, pointer, key, value, force)?
                }
                Record::JsonItems { pointer, items, .. } => {
                    json_parts::remove_items(&mut doc, file, pointer, items, force)?
                }
                Record::Section { .. } => unreachable!("checked above"),
            },
        }
    }
    Ok(doc.close())
}

/// Whether two records, of two bundles, describe one part of one file: the
/// same slot, and for a marketplace the same plugin's entry.
pub fn same_part(a: &Record, b: &Record) -> bool {
    match (a, b) {
        (Record::MarketplaceEntry { name: m, .. }, Record::MarketplaceEntry { name: n, .. }) => {
            m == n && a.same_slot(b)
        }
        _ => a.same_slot(b),
    }
}

/// Previous records whose slot no wanted part fills any more.
pub fn stale<'a>(records: &'a [Record], merges: &[Merge]) -> Vec<&'a Record> {
    let wanted: Vec<Record> = merges.iter().filter_map(Merge::record).collect();
    records.iter().filter(|r| !wanted.iter().any(|w| w.same_slot(r))).collect()
}
