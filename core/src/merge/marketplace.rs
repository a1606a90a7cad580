//! Marketplace files are shared: an entry is appended when missing, replaced
//! in place when its version moved, and left alone otherwise; every other
//! entry, field and comment of the file is kept.

use serde_json::Value;

use super::Refusal;
use super::document::{self, Document, Slot};

/// Puts `entry` into the marketplace (`document` is the file to start from
/// when there is none, and is opened by the caller).
pub fn apply(doc: &mut Document, file: &str, entry: &Value) -> Result<(), Refusal> {
    let object = doc.object();
    let list = match document::slot(&object, "plugins") {
        Slot::Array(list) => list,
        Slot::Missing => object.array_value_or_create("plugins").expect("just created"),
        Slot::Object(_) | Slot::Other => {
            let why =
                "\"plugins\" is not a list; refusing to replace the entries it holds (not even with --force)";
            return Err(Refusal(format!("{file}: {why}")));
        }
    };
    let name = entry.get("name").and_then(Value::as_str).unwrap_or_default();
    let source = source_path(entry).unwrap_or_default();
    // A renamed namespace still points at the same bundle: its entry is ours.
    let found = list.elements().into_iter().enumerate().find_map(|(index, node)| {
        let value = document::value(&node)?;
        is_entry(&value, name, source).then_some((index, node, value))
    });
    match found {
        None => {
            list.append(document::input(entry));
        }
        Some((index, node, current))
            if current.get("version") != entry.get("version") || current.get("name") != entry.get("name") =>
        {
            // Taken out and put back at its place, indented like its neighbours.
            node.remove();
            list.insert(index, document::input(entry));
        }
        Some(_) => {}
    }
    Ok(())
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

/// Takes this plugin's entry out; once no plugin is left, and nothing of
/// the user's (a key beyond a fresh file's header, or a comment), the file
/// can go.
pub fn remove(doc: &mut Document, name: &str, source: &str) {
    let object = doc.object();
    let Slot::Array(list) = document::slot(&object, "plugins") else { return };
    let mut took = false;
    for node in list.elements() {
        if document::value(&node).is_some_and(|e| is_entry(&e, name, source)) {
            node.remove();
            took = true;
        }
    }
    // An emptied list goes too, as the husk of a removed hook group does;
    // a file left with only what a fresh one had goes with it.
    if took && list.elements().is_empty() && !document::has_comment(&list.clone().into()) {
        if let Some(prop) = object.get("plugins") {
            prop.remove();
        }
        let only_header = document::value(&object.clone().into())
            .and_then(|v| v.as_object().map(|m| m.keys().all(|k| HEADER_KEYS.contains(&k.as_str()))))
            .unwrap_or(false);
        if only_header {
            doc.emptied();
        }
    }
}

/// Whether the file lists this plugin's entry.
pub fn lists(file: &str, text: &str, name: &str, source: &str) -> bool {
    document::decode(file, text)
        .and_then(|v| v.get("plugins")?.as_array().cloned())
        .is_some_and(|list| list.iter().any(|e| is_entry(e, name, source)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::merge::Content;
    use serde_json::json;

    fn apply(
        content: Content,
        file: &str,
        fresh: &Value,
        entry: &Value,
        _force: bool,
    ) -> Result<String, Refusal> {
        let mut doc = Document::open(content, file, Some(fresh))?;
        super::apply(&mut doc, file, entry)?;
        Ok(doc.close().expect("a file"))
    }

    fn remove(text: String, file: &str, name: &str, source: &str, _force: bool) -> Result<Content, Refusal> {
        let mut doc = Document::open(Some(text), file, None)?;
        super::remove(&mut doc, name, source);
        Ok(doc.close())
    }

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
        // The emptied list goes with the entry, as its husk would; the user's key keeps the file.
        assert_eq!(kept, json!({"name": "m", "owner": {"name": "o"}, "mine": true}));
    }

    #[test]
    fn matches_codex_object_sources() {
        let codex = json!({"name": "old", "source": {"source": "local", "path": "./codex"}});
        assert!(is_entry(&codex, "new", "./codex"));
    }

    #[test]
    fn refuses_a_broken_file_even_forced() {
        let broken = Some("{\"plugins\": {\"x\": 1}}".to_string());
        for force in [false, true] {
            let why = apply(broken.clone(), "m.json", &document(), &entry("1"), force).unwrap_err().0;
            assert!(why.starts_with("m.json: \"plugins\" is not a list"), "{why}");
        }
        let unparseable =
            Some("{\n  \"plugins\": [\n    {\"name\": \"q\"}\n    {\"name\": \"r\"}\n  ]\n}\n".to_string());
        let why = apply(unparseable, "m.json", &document(), &entry("1"), true).unwrap_err().0;
        assert!(why.starts_with("m.json:3:18: invalid JSON: Expected comma"), "{why}");
    }

    #[test]
    fn keeps_the_users_comments_and_commas() {
        let users = "{\n  // the team's marketplace\n  \"name\": \"m\",\n  \"plugins\": [\n    {\"name\": \"q\", \"source\": \"./q\"}, // theirs\n  ],\n}\n";
        let with = apply(Some(users.to_string()), "m.json", &document(), &entry("1.0.0"), false).unwrap();
        assert!(with.starts_with("{\n  // the team's marketplace\n  \"name\": \"m\",\n  \"plugins\": [\n    {\"name\": \"q\", \"source\": \"./q\"}, // theirs\n"), "{with}");
        assert_eq!(document::decode("m.json", &with).unwrap()["plugins"][1], entry("1.0.0"));
        let moved = apply(Some(with.clone()), "m.json", &document(), &entry("1.1.0"), false).unwrap();
        assert_eq!(moved, with.replace("1.0.0", "1.1.0"), "the version moves in place");
        assert_eq!(remove(moved, "m.json", "p", "./claude-code", false).unwrap().as_deref(), Some(users));
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
