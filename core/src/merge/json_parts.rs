//! Owned parts of shared JSON files: an entry of an object, or items of an
//! array, found by a pointer of object keys. A file named `*.yaml`/`*.yml`
//! (Hermes's `config.yaml`) holds the same data model in YAML: it is read
//! and, when a part changes, written back as plain block YAML, the way
//! Hermes itself rewrites that file on every settings change.

use serde_json::{Map, Value};

use super::{Content, Record, Refusal};
use crate::source::{parse_json, yaml_value};

/// How a shared file's text maps to the JSON data model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Json,
    Yaml,
}

impl Dialect {
    fn of(file: &str) -> Dialect {
        if file.ends_with(".yaml") || file.ends_with(".yml") { Dialect::Yaml } else { Dialect::Json }
    }

    fn name(self) -> &'static str {
        match self {
            Dialect::Json => "JSON",
            Dialect::Yaml => "YAML",
        }
    }

    /// The text as a value; an empty YAML document is an empty object.
    fn decode(self, file: &str, text: &str) -> Result<Value, String> {
        match self {
            Dialect::Json => parse_json::<Value>(file, text.as_bytes()).map_err(|e| e.message()),
            Dialect::Yaml => match yaml_value(text) {
                Ok(Value::Null) => Ok(Value::Object(Map::new())),
                other => other.map_err(|e| format!("{file}: {e}")),
            },
        }
    }

    fn encode(self, value: &Value) -> String {
        match (self, value) {
            (Dialect::Yaml, Value::Object(map)) => crate::format::yaml::document(map),
            _ => String::from_utf8(crate::json::to_bytes(value)).expect("JSON is UTF-8"),
        }
    }
}

fn parse(content: Content, file: &str, force: bool) -> Result<Value, Refusal> {
    let dialect = Dialect::of(file);
    match content {
        None => Ok(Value::Object(Map::new())),
        Some(text) => match dialect.decode(file, &text) {
            Ok(value @ Value::Object(_)) => Ok(value),
            Ok(_) | Err(_) if force => Ok(Value::Object(Map::new())),
            Ok(_) => Err(Refusal(format!(
                "{file} is not a {} object; fix it or rerun with --force to replace it",
                dialect.name()
            ))),
            Err(message) => Err(Refusal(format!("{message}; fix it or rerun with --force to replace it"))),
        },
    }
}

/// The object at `pointer`, created on the way when missing.
fn object_at<'a>(
    root: &'a mut Value,
    pointer: &[String],
    file: &str,
    force: bool,
) -> Result<&'a mut Map<String, Value>, Refusal> {
    let mut here = root;
    for key in pointer {
        let map = here.as_object_mut().expect("walked through objects only");
        let slot = map.entry(key.clone()).or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            if !force {
                return Err(Refusal(format!(
                    "{file}: \"{}\" is not an object; rerun with --force to replace it",
                    pointer.join(".")
                )));
            }
            *slot = Value::Object(Map::new());
        }
        here = slot;
    }
    Ok(here.as_object_mut().expect("checked above"))
}

fn array_at<'a>(
    root: &'a mut Value,
    pointer: &[String],
    file: &str,
    force: bool,
) -> Result<&'a mut Vec<Value>, Refusal> {
    let (last, parents) = pointer.split_last().expect("a pointer to an array names it");
    let parent = object_at(root, parents, file, force)?;
    let slot = parent.entry(last.clone()).or_insert_with(|| Value::Array(Vec::new()));
    if !slot.is_array() {
        if !force {
            return Err(Refusal(format!(
                "{file}: \"{}\" is not a list; rerun with --force to replace it",
                pointer.join(".")
            )));
        }
        *slot = Value::Array(Vec::new());
    }
    Ok(slot.as_array_mut().expect("checked above"))
}

/// The new text, or the old text byte for byte when nothing changed.
fn finish(file: &str, original: Option<&str>, value: &Value) -> String {
    let dialect = Dialect::of(file);
    if let Some(text) = original {
        if dialect.decode(file, text).ok().as_ref() == Some(value) {
            return text.to_string();
        }
    }
    dialect.encode(value)
}

pub fn set_entry(
    content: Content,
    file: &str,
    pointer: &[String],
    key: &str,
    value: &Value,
    previous: Option<&Record>,
    force: bool,
) -> Result<String, Refusal> {
    let original = content.clone();
    let mut document = parse(content, file, force)?;
    let object = object_at(&mut document, pointer, file, force)?;
    let ours = match previous {
        Some(Record::JsonEntry { value: written, .. }) => Some(written),
        _ => None,
    };
    match object.get(key) {
        Some(current) if current == value => {}
        Some(current) if Some(current) == ours || force => {
            object.insert(key.to_string(), value.clone());
        }
        Some(_) => {
            let place = format!("{file}: {}", [pointer, &[key.to_string()]].concat().join("."));
            let why = if ours.is_some() {
                "was edited since it was generated"
            } else {
                "already holds an entry of yours"
            };
            return Err(Refusal(format!("{place} {why}; rerun with --force to overwrite it")));
        }
        None => {
            object.insert(key.to_string(), value.clone());
        }
    }
    Ok(finish(file, original.as_deref(), &document))
}

pub fn add_items(
    content: Content,
    file: &str,
    pointer: &[String],
    items: &[Value],
    previous: Option<&Record>,
    force: bool,
) -> Result<String, Refusal> {
    let original = content.clone();
    let mut document = parse(content, file, force)?;
    let array = array_at(&mut document, pointer, file, force)?;
    let written: &[Value] = match previous {
        Some(Record::JsonItems { items, .. }) => items,
        _ => &[],
    };
    let all_there = |array: &Vec<Value>, wanted: &[Value]| wanted.iter().all(|item| array.contains(item));
    if written == items && all_there(array, items) {
        return Ok(finish(file, original.as_deref(), &document));
    }
    if !all_there(array, written) && !force {
        let place = pointer.join(".");
        return Err(Refusal(format!(
            "{file}: {place} was edited since it was generated; rerun with --force"
        )));
    }
    array.retain(|item| !written.contains(item));
    for item in items {
        if !array.contains(item) {
            array.push(item.clone());
        }
    }
    Ok(finish(file, original.as_deref(), &document))
}

pub fn remove_entry(
    text: String,
    file: &str,
    pointer: &[String],
    key: &str,
    value: &Value,
    force: bool,
) -> Result<Content, Refusal> {
    let mut document = parse(Some(text.clone()), file, false)?;
    let Ok(object) = object_at(&mut document, pointer, file, false) else { return Ok(Some(text)) };
    match object.get(key) {
        None => return Ok(Some(text)),
        Some(current) if current == value || force => {
            object.remove(key);
        }
        Some(_) => {
            let place = [pointer, &[key.to_string()]].concat().join(".");
            return Err(Refusal(format!(
                "{file}: {place} was edited since it was generated; kept (--force removes it)"
            )));
        }
    }
    prune(&mut document, pointer);
    Ok(if emptied(&document, pointer) { None } else { Some(finish(file, Some(&text), &document)) })
}

/// Drops the containers along `pointer` that the removal left empty, deepest
/// first, so no `"Stop": []` husk stays behind in a user's file.
fn prune(document: &mut Value, pointer: &[String]) {
    for depth in (1..=pointer.len()).rev() {
        let (parents, last) = pointer[..depth].split_at(depth - 1);
        let mut here = &mut *document;
        for key in parents {
            match here.get_mut(key) {
                Some(next) => here = next,
                None => return,
            }
        }
        let Some(map) = here.as_object_mut() else { return };
        let empty = match map.get(&last[0]) {
            Some(Value::Object(inner)) => inner.is_empty(),
            Some(Value::Array(inner)) => inner.is_empty(),
            _ => false,
        };
        if !empty {
            return;
        }
        map.remove(&last[0]);
    }
}

pub fn remove_items(
    text: String,
    file: &str,
    pointer: &[String],
    items: &[Value],
    force: bool,
) -> Result<Content, Refusal> {
    let mut document = parse(Some(text.clone()), file, false)?;
    let Ok(array) = array_at(&mut document, pointer, file, false) else { return Ok(Some(text)) };
    if !items.iter().all(|item| array.contains(item)) && !force {
        return Err(Refusal(format!(
            "{file}: {} was edited since it was generated; kept (--force removes it)",
            pointer.join(".")
        )));
    }
    array.retain(|item| !items.contains(item));
    prune(&mut document, pointer);
    Ok(if emptied(&document, pointer) { None } else { Some(finish(file, Some(&text), &document)) })
}

/// The file holds nothing but the (now empty) containers along `pointer`:
/// it held only our parts.
fn emptied(value: &Value, pointer: &[String]) -> bool {
    match (value, pointer.split_first()) {
        (Value::Object(map), None) => map.is_empty(),
        (Value::Array(items), None) => items.is_empty(),
        (Value::Object(map), Some((key, rest))) => {
            map.is_empty() || (map.len() == 1 && map.get(key).is_some_and(|inner| emptied(inner, rest)))
        }
        _ => false,
    }
}

fn lookup(file: &str, text: &str, pointer: &[String]) -> Option<Value> {
    let mut here = Dialect::of(file).decode(file, text).ok()?;
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
    use serde_json::json;

    fn servers() -> Vec<String> {
        vec!["mcpServers".to_string()]
    }

    fn record(value: Value) -> Record {
        Record::JsonEntry { path: ".mcp.json".into(), pointer: servers(), key: "mine".into(), value }
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
        let previous =
            Record::JsonItems { path: "s.json".into(), pointer: pointer.clone(), items: vec![old.clone()] };
        let second =
            add_items(Some(first), "s.json", &pointer, std::slice::from_ref(&new), Some(&previous), false)
                .unwrap();
        let value: Value = serde_json::from_str(&second).unwrap();
        assert_eq!(value["hooks"]["Stop"].as_array().unwrap().len(), 2);
        assert!(second.contains("theirs") && second.contains("new") && !second.contains("old"));
        assert!(!items_present("s.json", &second, &pointer, &[old]));
    }
    fn mcp_servers() -> Vec<String> {
        vec!["mcp_servers".to_string()]
    }

    #[test]
    fn yaml_files_get_a_yaml_entry_beside_the_users_settings() {
        let users = "model:\n  default: x\nmcp_servers:\n  theirs:\n    command: npx\n".to_string();
        let wanted = json!({"command": "${HOME}/.hermes/plugforge/dk/bin/deployer", "args": ["--root", "."]});
        let text =
            set_entry(Some(users), ".hermes/config.yaml", &mcp_servers(), "deployer", &wanted, None, false)
                .unwrap();
        assert_eq!(
            text,
            "model:\n  default: x\nmcp_servers:\n  theirs:\n    command: npx\n  deployer:\n    command: \
             ${HOME}/.hermes/plugforge/dk/bin/deployer\n    args:\n      - \"--root\"\n      - \".\"\n"
        );
        assert!(entry_is(".hermes/config.yaml", &text, &mcp_servers(), "deployer", &wanted));
        let previous = Record::JsonEntry {
            path: ".hermes/config.yaml".into(),
            pointer: mcp_servers(),
            key: "deployer".into(),
            value: wanted.clone(),
        };
        let again = set_entry(
            Some(text.clone()),
            ".hermes/config.yaml",
            &mcp_servers(),
            "deployer",
            &wanted,
            Some(&previous),
            false,
        )
        .unwrap();
        assert_eq!(again, text, "rerun keeps the bytes");
        let left = remove_entry(text, ".hermes/config.yaml", &mcp_servers(), "deployer", &wanted, false)
            .unwrap()
            .unwrap();
        assert_eq!(left, "model:\n  default: x\nmcp_servers:\n  theirs:\n    command: npx\n");
    }

    #[test]
    fn yaml_that_does_not_parse_is_refused_unless_forced() {
        let broken = Some("mcp_servers: [unclosed\n".to_string());
        let wanted = json!({"command": "x"});
        let refused = set_entry(broken.clone(), "c.yaml", &mcp_servers(), "a", &wanted, None, false);
        assert!(refused.unwrap_err().0.contains("invalid YAML"));
        let forced = set_entry(broken, "c.yaml", &mcp_servers(), "a", &wanted, None, true).unwrap();
        assert_eq!(forced, "mcp_servers:\n  a:\n    command: x\n");
        let empty = set_entry(Some(String::new()), "c.yml", &mcp_servers(), "a", &wanted, None, false);
        assert_eq!(empty.unwrap(), "mcp_servers:\n  a:\n    command: x\n");
    }
}
