//! Marketplace files are shared: an entry is appended when missing, replaced
//! in place when its version moved, and left alone otherwise; every other
//! entry and field of the file is kept.

use serde_json::{Map, Value};

use super::{Content, Refusal};
use crate::json;
use crate::source::parse_json;

/// The marketplace text with `entry` in it, given what is on disk now
/// (`document` is the file to start from when there is none).
pub fn apply(
    content: Content,
    file: &str,
    document: &Value,
    entry: &Value,
    force: bool,
) -> Result<String, Refusal> {
    let fresh = || document.as_object().cloned().unwrap_or_default();
    let mut doc: Map<String, Value> = match &content {
        None => fresh(),
        Some(text) => match parse_json(file, text.as_bytes()) {
            Ok(doc) => doc,
            Err(_) if force => fresh(),
            Err(e) => {
                return Err(Refusal(format!("{}; fix it or rerun with --force to replace it", e.message())));
            }
        },
    };
    if !doc.get("plugins").is_none_or(Value::is_array) {
        if !force {
            let why = "\"plugins\" is not a list; refusing to replace the entries it holds (--force does)";
            return Err(Refusal(format!("{file}: {why}")));
        }
        doc = fresh();
    }
    let list =
        doc.entry("plugins").or_insert_with(|| Value::Array(Vec::new())).as_array_mut().expect("a list");
    let name = entry.get("name").and_then(Value::as_str).unwrap_or_default();
    let source = source_path(entry).unwrap_or_default();
    // A renamed namespace still points at the same bundle: its entry is ours.
    match list.iter_mut().find(|e| is_entry(e, name, source)) {
        None => list.push(entry.clone()),
        Some(current)
            if current.get("version") != entry.get("version") || current.get("name") != entry.get("name") =>
        {
            *current = entry.clone()
        }
        Some(_) => {}
    }
    // A file that already says the same thing keeps its exact bytes.
    let merged = Value::Object(doc);
    match content {
        Some(text) if serde_json::from_str::<Value>(&text).ok().as_ref() == Some(&merged) => Ok(text),
        _ => Ok(String::from_utf8(json::to_bytes(&merged)).expect("JSON is UTF-8")),
    }
}

/// `source` as a string, or `source.path` (Codex's `{"source": "local", "path": ...}`).
pub(crate) fn source_path(entry: &Value) -> Option<&str> {
    match entry.get("source")? {
        Value::String(path) => Some(path),
        object => object.get("path")?.as_str(),
    }
}

/// Whether `entry` is this plugin's: same name, or same bundle source.
fn is_entry(entry: &Value, name: &str, source: &str) -> bool {
    entry.get("name").and_then(Value::as_str) == Some(name) || source_path(entry) == Some(source)
}

/// The keys of the document a runtime starts a new marketplace file with
/// (Claude Code: name, owner, description; Cursor: name, owner; Codex:
/// name, interface).
const HEADER_KEYS: [&str; 5] = ["name", "owner", "description", "interface", "plugins"];

/// The file without this plugin's entry; `None` when no plugin and nothing
/// of the user's is left, so the file can go.
pub fn remove(text: String, file: &str, name: &str, source: &str, force: bool) -> Result<Content, Refusal> {
    let mut document: Map<String, Value> = match parse_json(file, text.as_bytes()) {
        Ok(document) => document,
        Err(_) if force => return Ok(Some(text)),
        Err(e) => return Err(Refusal(format!("{}; cannot take the entry out", e.message()))),
    };
    let Some(Value::Array(list)) = document.get_mut("plugins") else { return Ok(Some(text)) };
    list.retain(|e| !is_entry(e, name, source));
    // The file goes only when nothing but the header a fresh marketplace
    // starts with is left; a key the user added keeps it.
    if list.is_empty() && document.keys().all(|k| HEADER_KEYS.contains(&k.as_str())) {
        return Ok(None);
    }
    Ok(Some(String::from_utf8(json::to_bytes(&document)).expect("JSON is UTF-8")))
}

/// Whether the file lists this plugin's entry.
pub fn lists(text: &str, name: &str, source: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.get("plugins")?.as_array().cloned())
        .is_some_and(|list| list.iter().any(|e| is_entry(e, name, source)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn document() -> Value {
        json!({"name": "local", "owner": {"name": "o"}, "plugins": []})
    }

    fn entry(version: &str) -> Value {
        json!({"name": "p", "source": "./claude-code", "version": version})
    }

    fn merge(existing: Option<&str>, version: &str) -> Value {
        serde_json::from_str(
            &apply(existing.map(str::to_string), "m.json", &document(), &entry(version), false).unwrap(),
        )
        .unwrap()
    }

    fn text(value: Value) -> String {
        String::from_utf8(json::to_bytes(&value)).unwrap()
    }

    #[test]
    fn creates_a_fresh_file() {
        let merged = merge(None, "1.0.0");
        assert_eq!(merged["plugins"], json!([entry("1.0.0")]));
        assert_eq!(merged["name"], "local");
    }

    #[test]
    fn appends_and_keeps_other_entries_and_fields() {
        let existing = text(json!({"name": "mine", "owner": {"name": "me"}, "extra": 1,
            "plugins": [{"name": "other", "source": "./other"}]}));
        let merged = merge(Some(&existing), "1.0.0");
        assert_eq!((merged["name"].clone(), merged["extra"].clone()), (json!("mine"), json!(1)));
        let names: Vec<&str> =
            merged["plugins"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["other", "p"]);
    }

    #[test]
    fn updates_in_place_only_when_the_version_moves() {
        let existing = text(json!({"name": "m", "owner": {"name": "o"}, "plugins": [
            {"name": "p", "source": "./claude-code", "version": "1.0.0", "category": "edited"},
            {"name": "z", "source": "./z"}]}));
        let same = apply(Some(existing.clone()), "m.json", &document(), &entry("1.0.0"), false).unwrap();
        assert_eq!(same, existing, "same version: the entry and the bytes stay");
        let moved = merge(Some(&existing), "1.1.0");
        assert_eq!(moved["plugins"][0], entry("1.1.0"));
        assert_eq!(moved["plugins"][1]["name"], "z");
    }

    #[test]
    fn the_last_entry_out_removes_the_file_only_when_nothing_of_the_user_is_left() {
        let ours = text(json!({"name": "m", "owner": {"name": "o"}, "plugins": [entry("1.0.0")]}));
        assert_eq!(remove(ours, "m.json", "p", "./claude-code", false), Ok(None));
        let claude = text(json!({"name": "m", "owner": {"name": "o"}, "description": "Local.",
            "plugins": [entry("1.0.0")]}));
        assert_eq!(remove(claude, "m.json", "p", "./claude-code", false), Ok(None));
        let codex =
            text(json!({"name": "m", "interface": {"displayName": "M"}, "plugins": [entry("1.0.0")]}));
        assert_eq!(remove(codex, "m.json", "p", "./claude-code", false), Ok(None));
        let with_mine =
            text(json!({"name": "m", "owner": {"name": "o"}, "mine": true, "plugins": [entry("1.0.0")]}));
        let kept = remove(with_mine, "m.json", "p", "./claude-code", false).unwrap().expect("kept");
        let kept: Value = serde_json::from_str(&kept).unwrap();
        assert_eq!(kept, json!({"name": "m", "owner": {"name": "o"}, "mine": true, "plugins": []}));
    }

    #[test]
    fn matches_codex_object_sources() {
        let codex = json!({"name": "old", "source": {"source": "local", "path": "./codex"}});
        assert!(is_entry(&codex, "new", "./codex"));
    }

    #[test]
    fn refuses_a_broken_file_unless_forced() {
        let broken = Some("{\"plugins\": {\"x\": 1}}".to_string());
        assert!(apply(broken.clone(), "m.json", &document(), &entry("1"), false).is_err());
        assert!(apply(broken, "m.json", &document(), &entry("1"), true).is_ok());
    }

    #[test]
    fn removes_an_entry_and_drops_an_empty_file() {
        let two = text(json!({"name": "m", "plugins": [{"name": "p"}, {"name": "q"}]}));
        let left: Value =
            serde_json::from_str(&remove(two, "m.json", "p", "./claude-code", false).unwrap().unwrap())
                .unwrap();
        assert_eq!(left["plugins"], json!([{"name": "q"}]));
        let one = text(json!({"name": "m", "plugins": [{"name": "old", "source": "./claude-code"}]}));
        assert!(remove(one, "m.json", "p", "./claude-code", false).unwrap().is_none());
    }
}
