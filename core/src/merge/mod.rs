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
    MarketplaceEntry {
        path: String,
        name: String,
        source: String,
    },
    JsonEntry {
        path: String,
        pointer: Vec<String>,
        key: String,
        value: Value,
        #[serde(default, skip_serializing_if = "is_zero")]
        found: usize,
    },
    JsonItems {
        path: String,
        pointer: Vec<String>,
        items: Vec<Value>,
        #[serde(default, skip_serializing_if = "is_zero")]
        found: usize,
    },
    Section {
        path: String,
        id: String,
        sha256: String,
    },
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Record {
    /// How many containers on the way to an entry or list (the file's
    /// top-level object first, then one per pointer key) the file held
    /// before plugforge first wrote the part: those are the user's, and
    /// taking the part out never takes them out, nor the file. 0 when there
    /// was no file (or a manifest of an earlier version says nothing):
    /// whatever the removal leaves empty goes, the file too.
    pub fn found(&self) -> usize {
        match self {
            Record::JsonEntry { found, .. } | Record::JsonItems { found, .. } => *found,
            Record::MarketplaceEntry { .. } | Record::Section { .. } => 0,
        }
    }

    pub(crate) fn set_found(&mut self, depth: usize) {
        if let Record::JsonEntry { found, .. } | Record::JsonItems { found, .. } = self {
            *found = depth;
        }
    }

    /// The pointer of an entry's or a list's container.
    fn pointer(&self) -> Option<&[String]> {
        match self {
            Record::JsonEntry { pointer, .. } | Record::JsonItems { pointer, .. } => Some(pointer),
            Record::MarketplaceEntry { .. } | Record::Section { .. } => None,
        }
    }

    pub fn path(&self) -> &str {
        match self {
            Record::MarketplaceEntry { path, .. }
            | Record::JsonEntry { path, .. }
            | Record::JsonItems { path, .. }
            | Record::Section { path, .. } => path,
        }
    }

    /// Two records for the same place in the same file.
    pub(crate) fn same_slot(&self, other: &Record) -> bool {
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
                found: 0,
            }),
            Part::JsonItems { pointer, items } => {
                Some(Record::JsonItems { path, pointer: pointer.clone(), items: items.clone(), found: 0 })
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
        Record::JsonEntry { path, pointer, key, value, .. } => {
            json_parts::entry_is(path, text, pointer, key, value)
        }
        Record::JsonItems { path, pointer, items, .. } => {
            json_parts::items_present(path, text, pointer, items)
        }
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
                Record::JsonEntry { pointer, key, value, found, .. } => {
                    json_parts::remove_entry(&mut doc, file, pointer, key, value, *found, force)?
                }
                Record::JsonItems { pointer, items, found, .. } => {
                    json_parts::remove_items(&mut doc, file, pointer, items, *found, force)?
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

/// How many containers on the way to `record`'s part the file `content`
/// holds now (its top-level object first, then one per pointer key), less
/// those another bundle's record (`others`) says its plugforge wrote: what
/// the record's [`Record::found`] is when its part is first written.
pub fn found_in(content: Option<&[u8]>, record: &Record, others: &[&Record]) -> usize {
    let Some(pointer) = record.pointer() else { return 0 };
    let value = content
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .and_then(|text| document::decode(record.path(), crate::text::without_bom(text)));
    let Some(mut here) = value.filter(Value::is_object) else { return 0 };
    let mut there = 1;
    for key in pointer {
        match here.get_mut(key).map(Value::take) {
            Some(inner @ (Value::Object(_) | Value::Array(_))) => {
                here = inner;
                there += 1;
            }
            _ => break,
        }
    }
    // A container another bundle's plugforge made is not the user's either.
    for depth in 0..there {
        let made = others.iter().filter(|other| other.path() == record.path()).any(|other| {
            other.pointer().is_some_and(|theirs| {
                depth >= other.found() && depth <= theirs.len() && theirs[..depth] == pointer[..depth]
            })
        });
        if made {
            return depth;
        }
    }
    there
}

/// Previous records whose slot no wanted part fills any more.
pub fn stale<'a>(records: &'a [Record], merges: &[Merge]) -> Vec<&'a Record> {
    let wanted: Vec<Record> = merges.iter().filter_map(Merge::record).collect();
    records.iter().filter(|r| !wanted.iter().any(|w| w.same_slot(r))).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn entry(file: &str, pointer: &[&str], key: &str, value: Value) -> Merge {
        let pointer = pointer.iter().map(|k| k.to_string()).collect();
        Merge {
            path: BundlePath::new(file).unwrap(),
            part: Part::JsonEntry { pointer, key: key.into(), value },
        }
    }

    fn items(file: &str, pointer: &[&str], items: Vec<Value>) -> Merge {
        let pointer = pointer.iter().map(|k| k.to_string()).collect();
        Merge { path: BundlePath::new(file).unwrap(), part: Part::JsonItems { pointer, items } }
    }

    /// Writes `merge` into `users` (the record as a plan keeps it), writes
    /// it again, takes it out: what each step left.
    fn round_trip(users: Option<&str>, merge: &Merge, others: &[&Record]) -> (String, String, Content) {
        let file = merge.path.as_str();
        let mut record = merge.record().unwrap();
        record.set_found(found_in(users.map(str::as_bytes), &record, others));
        let written = run(users.map(str::to_string), file, &[Step::Apply(merge.clone(), None)], false)
            .unwrap()
            .expect("written");
        let again =
            run(Some(written.clone()), file, &[Step::Apply(merge.clone(), Some(record.clone()))], false)
                .unwrap()
                .expect("still written");
        let taken_out = run(Some(written.clone()), file, &[Step::Remove(record)], false).unwrap();
        (written, again, taken_out)
    }

    #[test]
    fn a_users_file_on_one_line_or_with_empty_containers_comes_back_byte_for_byte() {
        let server = json!({"command": "ours", "args": ["--root", "."]});
        let hook = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "check"}]});
        let cases = [
            (
                "{\"permissions\": {\"allow\": [\"Bash(ls)\"]}}\n",
                items(".claude/settings.json", &["hooks", "PreToolUse"], vec![hook.clone()]),
            ),
            ("{\"mcpServers\": {}}\n", entry(".mcp.json", &["mcpServers"], "ours", server.clone())),
            ("{\n  \"mcpServers\": {}\n}\n", entry(".mcp.json", &["mcpServers"], "ours", server.clone())),
            ("{}\n", entry(".mcp.json", &["mcpServers"], "ours", server.clone())),
            (
                "{\"mcpServers\": {\"mine\": {\"command\": \"x\"}}}\n",
                entry(".mcp.json", &["mcpServers"], "ours", server.clone()),
            ),
            ("{\"a\": 1,}\n", entry("opencode.json", &["mcp"], "ours", server.clone())),
            (
                "{\"hooks\": {\"Stop\": []}} // mine\n",
                items("s.json", &["hooks", "Stop"], vec![hook.clone()]),
            ),
            (
                "{\"hooks\": {\"Stop\": [{\"matcher\": \"x\"}]}}",
                items("s.json", &["hooks", "Stop"], vec![hook.clone()]),
            ),
            (
                "# mine\nmcp_servers: {}\n",
                entry(".hermes/config.yaml", &["mcp_servers"], "ours", server.clone()),
            ),
            ("# mine\nmodel: x\n", entry(".hermes/config.yaml", &["mcp_servers"], "ours", server.clone())),
            ("# only a comment\n", entry(".hermes/config.yaml", &["mcp_servers"], "ours", server.clone())),
        ];
        for (users, merge) in cases {
            let (written, again, taken_out) = round_trip(Some(users), &merge, &[]);
            let record = merge.record().unwrap();
            assert!(intact(Some(&written), &record), "{users:?}: the part is there:\n{written}");
            // JSON on one line stays there (YAML has its own layout).
            if !users.trim_end().contains('\n') && merge.path.as_str().ends_with(".json") {
                assert!(!written.trim_end().contains('\n'), "{users:?}: stays on its line:\n{written}");
            }
            assert_eq!(again, written, "{users:?}: writing it again changes nothing");
            assert_eq!(taken_out.as_deref(), Some(users), "{users:?}: taken out, the user's bytes are back");
        }
    }

    #[test]
    fn a_file_plugforge_made_goes_when_its_last_part_does_even_after_another_bundle_wrote_to_it() {
        let first = entry(".mcp.json", &["mcpServers"], "first", json!({"command": "a"}));
        let (written, _, taken_out) = round_trip(None, &first, &[]);
        assert_eq!(taken_out, None, "no file before, none after");
        // A second bundle writes into the file the first made: to it, the
        // file and its mcpServers are plugforge's too, not the user's.
        let mut theirs = first.record().unwrap();
        theirs.set_found(0);
        let second = entry(".mcp.json", &["mcpServers"], "second", json!({"command": "b"}));
        let record = second.record().unwrap();
        assert_eq!(found_in(Some(written.as_bytes()), &record, &[]), 2);
        assert_eq!(found_in(Some(written.as_bytes()), &record, &[&theirs]), 0);
        let mut users_theirs = theirs.clone();
        users_theirs.set_found(1);
        assert_eq!(
            found_in(Some(written.as_bytes()), &record, &[&users_theirs]),
            1,
            "the file was the user's"
        );
    }
}
