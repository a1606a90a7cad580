//! Owned parts of shared JSON-model files: an entry of an object, or items
//! of an array, found by a pointer of object keys. Every edit goes through
//! the file's syntax tree ([`Document`]), so whatever is not plugforge's part
//! stays as the user wrote it.

use jsonc_parser::cst::CstObject;
use serde_json::Value;

use super::document::{self, Document, Slot};
use super::{Record, Refusal};

fn place(file: &str, pointer: &[String]) -> String {
    format!("{file}: \"{}\"", pointer.join("."))
}

/// A key written twice in one object: JSON readers (OpenCode's, Node's
/// `JSON.parse`) take the last, the syntax tree finds the first, so an
/// entry plugforge added would be hidden. Refused even with --force: which
/// one is meant is the user's to say.
fn written_once(doc: &Document, object: &CstObject, path: &[String], file: &str) -> Result<(), Refusal> {
    let Some(key) = path.last() else { return Ok(()) };
    let named = |prop: &jsonc_parser::cst::CstObjectProp| {
        prop.name().and_then(|name| name.decoded_value().ok()).is_some_and(|name| &name == key)
    };
    if object.properties().iter().filter(|prop| named(prop)).count() < 2 {
        return Ok(());
    }
    let text = doc.text();
    let steps: Vec<&str> = path.iter().map(String::as_str).collect();
    let lines = crate::source::JsonPositions::of(&text).lines_at(&steps);
    let at = lines.get(1).map_or_else(String::new, |line| format!(":{line}"));
    Err(Refusal(format!(
        "{file}{at}: \"{}\" is written more than once; JSON readers take the last one, so fix the file by \
         hand (--force does not choose for you)",
        path.join(".")
    )))
}

/// How far the way to a part goes in a file.
enum Reached {
    /// The object at the end of the way (created on the way where missing).
    Object(CstObject),
    /// The way stops at a key missing from an object written on one line:
    /// the rest goes in whole, on that line ([`Document::insert_inline`]).
    OneLine { object: CstObject, missing: usize },
}

/// The object at `pointer`, created on the way when missing, unless the
/// object a key is missing from is written on one line. A key of the
/// user's that holds something else is theirs: refused even with --force.
fn object_at(doc: &Document, pointer: &[String], file: &str) -> Result<Reached, Refusal> {
    let mut here = doc.object();
    for (depth, key) in pointer.iter().enumerate() {
        written_once(doc, &here, &pointer[..=depth], file)?;
        here = match document::slot(&here, key) {
            Slot::Object(object) => object,
            Slot::Missing if document::one_line(&here.clone().into()) => {
                return Ok(Reached::OneLine { object: here, missing: depth });
            }
            Slot::Missing => here.object_value_or_create(key).expect("just created"),
            Slot::Array(_) | Slot::Other => {
                return Err(Refusal(format!(
                    "{} is not an object; plugforge does not replace what you keep there (not even with --force)",
                    place(file, &pointer[..=depth])
                )));
            }
        };
    }
    Ok(Reached::Object(here))
}

/// `value` under the keys `keys`, innermost last: `{k1: {k2: value}}`.
fn nested(keys: &[String], value: Value) -> Value {
    keys.iter().rev().fold(value, |inner, key| Value::Object([(key.clone(), inner)].into_iter().collect()))
}

/// The object at `pointer` if it is there, without creating anything.
fn existing_object(doc: &Document, pointer: &[String]) -> Option<CstObject> {
    let mut here = doc.object();
    for key in pointer {
        here = match document::slot(&here, key) {
            Slot::Object(object) => object,
            _ => return None,
        };
    }
    Some(here)
}

/// The array at `pointer`, created (with `items` in it) when missing: `None`
/// when it was, on a line of the user's, already holding them.
fn array_at(
    doc: &mut Document,
    pointer: &[String],
    items: &[Value],
    file: &str,
) -> Result<Option<jsonc_parser::cst::CstArray>, Refusal> {
    // A manifest is a file on disk: a record with no pointer is refused, not trusted.
    let Some((last, parents)) = pointer.split_last() else {
        return Err(Refusal(format!("{file}: a list part without a place; the manifest was edited")));
    };
    let parent = match object_at(doc, parents, file)? {
        Reached::Object(parent) => parent,
        Reached::OneLine { object, missing } => {
            let list = nested(&pointer[missing + 1..], Value::Array(items.to_vec()));
            doc.insert_inline(&object.into(), &document::entry_text(&pointer[missing], &list), file)?;
            return Ok(None);
        }
    };
    match document::slot(&parent, last) {
        Slot::Array(array) => Ok(Some(array)),
        Slot::Missing if document::one_line(&parent.clone().into()) => {
            let list = Value::Array(items.to_vec());
            doc.insert_inline(&parent.into(), &document::entry_text(last, &list), file)?;
            Ok(None)
        }
        Slot::Missing => Ok(Some(parent.array_value_or_create(last).expect("just created"))),
        Slot::Object(_) | Slot::Other => Err(Refusal(format!(
            "{} is not a list; plugforge does not replace what you keep there (not even with --force)",
            place(file, pointer)
        ))),
    }
}

pub fn set_entry(
    doc: &mut Document,
    file: &str,
    pointer: &[String],
    key: &str,
    value: &Value,
    previous: Option<&Record>,
    force: bool,
) -> Result<(), Refusal> {
    let object = match object_at(doc, pointer, file)? {
        Reached::Object(object) => object,
        Reached::OneLine { object, missing } => {
            let inner = Value::Object([(key.to_string(), value.clone())].into_iter().collect());
            let entry = nested(&pointer[missing + 1..], inner);
            return doc.insert_inline(&object.into(), &document::entry_text(&pointer[missing], &entry), file);
        }
    };
    written_once(doc, &object, &[pointer, &[key.to_string()]].concat(), file)?;
    let ours = match previous {
        Some(Record::JsonEntry { value: written, .. }) => Some(written),
        _ => None,
    };
    let Some(prop) = object.get(key) else {
        if document::one_line(&object.clone().into()) {
            return doc.insert_inline(&object.into(), &document::entry_text(key, value), file);
        }
        object.append(key, document::input(value));
        return Ok(());
    };
    let current = prop.value().and_then(|v| document::value(&v));
    match current.as_ref() {
        Some(current) if current == value => {}
        // Only this entry's value is replaced: the comments around it and
        // every other key stay.
        Some(current) if Some(current) == ours || force => prop.set_value(document::input(value)),
        _ => {
            let place = format!("{file}: {}", [pointer, &[key.to_string()]].concat().join("."));
            let why = if ours.is_some() {
                "was edited since it was generated"
            } else {
                "already holds an entry of yours"
            };
            return Err(Refusal(format!("{place} {why}; rerun with --force to overwrite it")));
        }
    }
    Ok(())
}

pub fn add_items(
    doc: &mut Document,
    file: &str,
    pointer: &[String],
    items: &[Value],
    previous: Option<&Record>,
    force: bool,
) -> Result<(), Refusal> {
    let Some(array) = array_at(doc, pointer, items, file)? else { return Ok(()) };
    let written: &[Value] = match previous {
        Some(Record::JsonItems { items, .. }) => items,
        _ => &[],
    };
    let present: Vec<Option<Value>> = array.elements().iter().map(document::value).collect();
    let all_there = |wanted: &[Value]| wanted.iter().all(|item| present.contains(&Some(item.clone())));
    if written == items && all_there(items) {
        return Ok(());
    }
    if !all_there(written) && !force {
        let place = pointer.join(".");
        return Err(Refusal(format!(
            "{file}: {place} was edited since it was generated; rerun with --force"
        )));
    }
    let mut kept = Vec::new();
    for element in array.elements() {
        match document::value(&element) {
            Some(item) if written.contains(&item) => element.remove(),
            item => kept.extend(item),
        }
    }
    let mut added = Vec::new();
    for item in items {
        if !kept.contains(item) {
            kept.push(item.clone());
            added.push(item);
        }
    }
    if added.is_empty() {
        return Ok(());
    }
    // A list written on one line stays on it: the items go in at its end.
    if document::one_line(&array.clone().into()) {
        let text: Vec<String> = added.iter().map(|item| document::inline(item)).collect();
        return doc.insert_inline(&array.into(), &text.join(", "), file);
    }
    for item in added {
        array.append(document::input(item));
    }
    Ok(())
}

pub fn remove_entry(
    doc: &mut Document,
    file: &str,
    pointer: &[String],
    key: &str,
    value: &Value,
    found: usize,
    force: bool,
) -> Result<(), Refusal> {
    doc.found(found);
    let Some(object) = existing_object(doc, pointer) else { return Ok(()) };
    let Some(prop) = object.get(key) else { return Ok(()) };
    let current = prop.value().and_then(|v| document::value(&v));
    if current.as_ref() != Some(value) && !force {
        let place = [pointer, &[key.to_string()]].concat().join(".");
        return Err(Refusal(format!(
            "{file}: {place} was edited since it was generated; kept (--force removes it)"
        )));
    }
    prop.remove();
    doc.removed_something();
    prune(doc, pointer, found);
    Ok(())
}

/// Drops the containers along `pointer` that the removal left empty, deepest
/// first, so no `"Stop": []` husk stays behind in a user's file. One the
/// file held before plugforge wrote there (the first `found`, counting the
/// top-level object), or that holds a comment, is the user's and stays.
fn prune(doc: &Document, pointer: &[String], found: usize) {
    for depth in (found.max(1)..=pointer.len()).rev() {
        let (parents, last) = pointer[..depth].split_at(depth - 1);
        let Some(parent) = existing_object(doc, parents) else { return };
        let Some(prop) = parent.get(&last[0]) else { return };
        let empty = match document::slot(&parent, &last[0]) {
            Slot::Object(inner) => inner.properties().is_empty(),
            Slot::Array(inner) => inner.elements().is_empty(),
            _ => false,
        };
        if !empty || document::has_comment(&prop.clone().into()) {
            return;
        }
        prop.remove();
    }
}

pub fn remove_items(
    doc: &mut Document,
    file: &str,
    pointer: &[String],
    items: &[Value],
    found: usize,
    force: bool,
) -> Result<(), Refusal> {
    doc.found(found);
    let Some((last, parents)) = pointer.split_last() else { return Ok(()) };
    let Some(parent) = existing_object(doc, parents) else { return Ok(()) };
    let Slot::Array(array) = document::slot(&parent, last) else { return Ok(()) };
    let present: Vec<Option<Value>> = array.elements().iter().map(document::value).collect();
    if !items.iter().all(|item| present.contains(&Some(item.clone()))) && !force {
        return Err(Refusal(format!(
            "{file}: {} was edited since it was generated; kept (--force removes it)",
            pointer.join(".")
        )));
    }
    for element in array.elements() {
        if document::value(&element).is_some_and(|item| items.contains(&item)) {
            element.remove();
            doc.removed_something();
        }
    }
    prune(doc, pointer, found);
    Ok(())
}

fn lookup(file: &str, text: &str, pointer: &[String]) -> Option<Value> {
    let mut here = document::decode(file, text)?;
    for key in pointer {
        here = here.get_mut(key)?.take();
    }
    Some(here)
}

pub fn entry_is(file: &str, text: &str, pointer: &[String], key: &str, value: &Value) -> bool {
    lookup(file, text, pointer).and_then(|object| object.get(key).cloned()).as_ref() == Some(value)
}

pub fn items_present(file: &str, text: &str, pointer: &[String], items: &[Value]) -> bool {
    lookup(file, text, pointer)
        .and_then(|v| v.as_array().cloned())
        .is_some_and(|array| items.iter().all(|i| array.contains(i)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::Content;
    use serde_json::json;

    // The steps over a file's text, one at a time, as the earlier tests take them.
    fn set_entry(
        content: Content,
        file: &str,
        pointer: &[String],
        key: &str,
        value: &Value,
        previous: Option<&Record>,
        force: bool,
    ) -> Result<String, Refusal> {
        let mut doc = Document::open(content, file, None)?;
        super::set_entry(&mut doc, file, pointer, key, value, previous, force)?;
        Ok(doc.close().expect("an applied part leaves a file"))
    }

    fn add_items(
        content: Content,
        file: &str,
        pointer: &[String],
        items: &[Value],
        previous: Option<&Record>,
        force: bool,
    ) -> Result<String, Refusal> {
        let mut doc = Document::open(content, file, None)?;
        super::add_items(&mut doc, file, pointer, items, previous, force)?;
        Ok(doc.close().expect("an applied part leaves a file"))
    }

    fn remove_entry(
        text: String,
        file: &str,
        pointer: &[String],
        key: &str,
        value: &Value,
        force: bool,
    ) -> Result<Content, Refusal> {
        let mut doc = Document::open(Some(text), file, None)?;
        super::remove_entry(&mut doc, file, pointer, key, value, 0, force)?;
        Ok(doc.close())
    }

    fn remove_items(
        text: String,
        file: &str,
        pointer: &[String],
        items: &[Value],
        force: bool,
    ) -> Result<Content, Refusal> {
        let mut doc = Document::open(Some(text), file, None)?;
        super::remove_items(&mut doc, file, pointer, items, 0, force)?;
        Ok(doc.close())
    }

    fn servers() -> Vec<String> {
        vec!["mcpServers".to_string()]
    }

    fn record(value: Value) -> Record {
        Record::JsonEntry {
            path: ".mcp.json".into(),
            pointer: servers(),
            key: "mine".into(),
            value,
            found: 0,
        }
    }

    #[test]
    fn sets_an_entry_next_to_the_users_own() {
        let users = r#"{"mcpServers": {"theirs": {"command": "x"}}}"#.to_string();
        let text =
            set_entry(Some(users), ".mcp.json", &servers(), "mine", &json!({"command": "y"}), None, false)
                .unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value, json!({"mcpServers": {"theirs": {"command": "x"}, "mine": {"command": "y"}}}));
        let again = set_entry(
            Some(text.clone()),
            ".mcp.json",
            &servers(),
            "mine",
            &json!({"command": "y"}),
            Some(&record(json!({"command": "y"}))),
            false,
        );
        assert_eq!(again.unwrap(), text, "rerun keeps the bytes");
    }

    #[test]
    fn an_edited_or_foreign_entry_is_refused_unless_forced() {
        let edited = r#"{"mcpServers": {"mine": {"command": "edited"}}}"#.to_string();
        let wanted = json!({"command": "y"});
        let previous = record(json!({"command": "old"}));
        assert!(
            set_entry(Some(edited.clone()), "f", &servers(), "mine", &wanted, Some(&previous), false)
                .is_err()
        );
        assert!(set_entry(Some(edited.clone()), "f", &servers(), "mine", &wanted, None, false).is_err());
        assert!(set_entry(Some(edited.clone()), "f", &servers(), "mine", &wanted, None, true).is_ok());
        let unedited = r#"{"mcpServers": {"mine": {"command": "old"}}}"#.to_string();
        assert!(set_entry(Some(unedited), "f", &servers(), "mine", &wanted, Some(&previous), false).is_ok());
    }

    #[test]
    fn removes_entries_and_drops_an_emptied_file() {
        let only = r#"{"mcpServers": {"mine": {"command": "y"}}}"#.to_string();
        assert_eq!(
            remove_entry(only, "f", &servers(), "mine", &json!({"command": "y"}), false).unwrap(),
            None
        );
        let shared = r#"{"mcpServers": {"mine": {"command": "y"}, "theirs": {}}}"#.to_string();
        let left =
            remove_entry(shared, "f", &servers(), "mine", &json!({"command": "y"}), false).unwrap().unwrap();
        assert!(left.contains("theirs") && !left.contains("mine"));
    }

    #[test]
    fn removal_leaves_no_empty_husks() {
        let pointer = vec!["hooks".to_string(), "Stop".to_string()];
        let ours = json!({"hooks": [{"type": "command", "command": "ours"}]});
        let text = json!({"model": "x", "hooks": {"Stop": [ours.clone()]}}).to_string();
        let left =
            remove_items(text, "s.json", &pointer, std::slice::from_ref(&ours), false).unwrap().unwrap();
        assert_eq!(serde_json::from_str::<Value>(&left).unwrap(), json!({"model": "x"}));
    }

    #[test]
    fn appends_items_and_replaces_our_previous_ones() {
        let pointer = vec!["hooks".to_string(), "Stop".to_string()];
        let users =
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "theirs"}]}]}}"#.to_string();
        let old = json!({"hooks": [{"type": "command", "command": "old"}]});
        let new = json!({"hooks": [{"type": "command", "command": "new"}]});
        let first =
            add_items(Some(users), "s.json", &pointer, std::slice::from_ref(&old), None, false).unwrap();
        let previous = Record::JsonItems {
            path: "s.json".into(),
            pointer: pointer.clone(),
            items: vec![old.clone()],
            found: 0,
        };
        let second =
            add_items(Some(first), "s.json", &pointer, std::slice::from_ref(&new), Some(&previous), false)
                .unwrap();
        let value: Value = serde_json::from_str(&second).unwrap();
        assert_eq!(value["hooks"]["Stop"].as_array().unwrap().len(), 2);
        assert!(second.contains("theirs") && second.contains("new") && !second.contains("old"));
        assert!(!items_present("s.json", &second, &pointer, &[old]));
    }
    const USERS_JSONC: &str = "// My OpenCode setup\n{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  /* the model I use */\n  \"model\": \"m\",\n  \"mcp\": {\n    // my own server\n    \"mine\": {\"type\": \"local\", \"command\": [\"s\"],},\n  },\n  \"theme\": \"dark\", // trailing\n}\n";

    fn mcp() -> Vec<String> {
        vec!["mcp".to_string()]
    }

    #[test]
    fn a_users_jsonc_keeps_every_byte_outside_plugforges_entry() {
        let ours = json!({"type": "local", "command": ["d", "--root", "."], "enabled": true});
        let built =
            set_entry(Some(USERS_JSONC.into()), "opencode.json", &mcp(), "d", &ours, None, false).unwrap();
        let entry = "\n    \"d\": {\n      \"type\": \"local\",\n      \"command\": [\"d\", \"--root\", \".\"],\n      \"enabled\": true,\n    },";
        assert_eq!(built, USERS_JSONC.replacen("[\"s\"],},", &format!("[\"s\"],}},{entry}"), 1), "{built}");
        let previous = Record::JsonEntry {
            path: "opencode.json".into(),
            pointer: mcp(),
            key: "d".into(),
            value: ours.clone(),
            found: 0,
        };
        let again =
            set_entry(Some(built.clone()), "opencode.json", &mcp(), "d", &ours, Some(&previous), false);
        assert_eq!(again.unwrap(), built, "a rebuild keeps the bytes");

        let edited = built.replace("\"enabled\": true", "\"enabled\": false");
        assert!(
            set_entry(Some(edited.clone()), "opencode.json", &mcp(), "d", &ours, Some(&previous), false)
                .is_err()
        );
        let forced =
            set_entry(Some(edited.clone()), "opencode.json", &mcp(), "d", &ours, Some(&previous), true);
        assert_eq!(forced.unwrap(), built, "--force resets plugforge's entry and nothing else");

        let left = remove_entry(built, "opencode.json", &mcp(), "d", &ours, false).unwrap();
        assert_eq!(left.as_deref(), Some(USERS_JSONC), "uninstall gives the user's bytes back");
        let forced = remove_entry(edited, "opencode.json", &mcp(), "d", &ours, true).unwrap();
        assert_eq!(forced.as_deref(), Some(USERS_JSONC));
    }

    #[test]
    fn json_that_does_not_parse_is_a_conflict_at_its_line_and_column_even_forced() {
        let broken = "{\n  // mine\n  \"model\": \"x\"\n  \"theme\": \"dark\"\n}\n".to_string();
        for force in [false, true] {
            let why = set_entry(Some(broken.clone()), "opencode.json", &mcp(), "d", &json!({}), None, force)
                .unwrap_err()
                .0;
            assert!(why.starts_with("opencode.json:3:15: invalid JSON: Expected comma"), "{why}");
            assert!(why.contains("--force does not replace it"), "{why}");
            let why =
                remove_entry(broken.clone(), "opencode.json", &mcp(), "d", &json!({}), force).unwrap_err().0;
            assert!(why.starts_with("opencode.json:3:15: "), "{why}");
        }
        let not_an_object = set_entry(Some("[1]".into()), "o.json", &mcp(), "d", &json!({}), None, true);
        assert!(not_an_object.unwrap_err().0.starts_with("o.json: the top level is not a JSON object"));
        let not_a_table =
            set_entry(Some("{\"mcp\": 3}".into()), "o.json", &mcp(), "d", &json!({}), None, true);
        assert!(not_a_table.unwrap_err().0.starts_with("o.json: \"mcp\" is not an object"));
    }

    #[test]
    fn a_key_written_twice_is_refused_at_its_second_line_even_forced() {
        let twice =
            "{\n  \"mcp\": {\"a\": {}},\n  \"theme\": \"dark\",\n  \"mcp\": {\"b\": {}}\n}\n".to_string();
        for force in [false, true] {
            let why = set_entry(Some(twice.clone()), "opencode.json", &mcp(), "d", &json!({}), None, force)
                .unwrap_err()
                .0;
            assert!(why.starts_with("opencode.json:4: \"mcp\" is written more than once"), "{why}");
        }
        let inner = "{\"mcp\": {\"d\": 1, \"d\": 2}}".to_string();
        let why = set_entry(Some(inner), "opencode.json", &mcp(), "d", &json!(3), None, true).unwrap_err().0;
        assert!(why.starts_with("opencode.json:1: \"mcp.d\" is written more than once"), "{why}");
    }

    #[test]
    fn json_nested_past_the_limit_is_refused_before_it_is_parsed() {
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        let why = set_entry(Some(deep), "o.json", &mcp(), "d", &json!({}), None, true).unwrap_err().0;
        assert!(why.starts_with("o.json:1:106: limit: JSON nested deeper than 100 levels"), "{why}");
    }

    #[test]
    fn a_removal_keeps_a_container_or_file_that_holds_a_comment() {
        let pointer = vec!["hooks".to_string(), "Stop".to_string()];
        let ours = json!({"command": "ours"});
        let text =
            "{\n  \"hooks\": {\n    // keep my hooks here\n    \"Stop\": [{\"command\": \"ours\"}]\n  }\n}\n"
                .to_string();
        let left =
            remove_items(text, "s.json", &pointer, std::slice::from_ref(&ours), false).unwrap().unwrap();
        assert!(left.contains("// keep my hooks here"), "{left}");
        let only_a_comment = "// mine\n{\"mcp\": {\"d\": 1}}\n".to_string();
        let left = remove_entry(only_a_comment, "o.json", &mcp(), "d", &json!(1), false).unwrap();
        assert_eq!(left.as_deref(), Some("// mine\n{}\n"));
    }
}
