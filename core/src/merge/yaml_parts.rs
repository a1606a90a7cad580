//! Owned entries of a shared YAML file (Hermes's `config.yaml`), edited in
//! place on a lossless syntax tree (`yaml-edit`, rowan-based): comments,
//! blank lines, flow collections, quoting, anchors, aliases and merge keys
//! (`<<: *defaults`, which Hermes's reader, PyYAML, expands) stay byte for
//! byte outside plugforge's own entries, as they do in JSON and TOML files.
//!
//! Each run works on two views of the file: its value (what a YAML reader
//! sees), where the edit is decided and refused, and its syntax tree, where
//! only the entries that changed are spliced. The edited text is read back
//! before it is returned: unless it says exactly the decided value, the file
//! is refused and left as it is, so a layout the tree cannot edit costs a
//! message, never the user's settings.

use std::str::FromStr;

use serde_json::{Map, Value};
use yaml_edit::{Mapping, YamlFile, YamlNode};

use super::document::unreadable;
use super::{Content, Part, Record, Refusal, Step};
use crate::source::yaml_value;

/// One place an entry of plugforge's goes: `key` in the mapping at `pointer`.
struct Slot<'a> {
    pointer: &'a [String],
    key: &'a str,
    /// How many mappings on the way (the top level first) were the user's
    /// before plugforge wrote there ([`Record::found`]): never pruned.
    found: usize,
}

pub fn run(content: Content, file: &str, steps: &[Step], force: bool) -> Result<Content, Refusal> {
    let before = match &content {
        None => Map::new(),
        Some(text) => read(file, text)?,
    };
    let mut after = before.clone();
    let mut slots = Vec::new();
    let mut removed = false;
    let mut users_file = false;
    for step in steps {
        match step {
            Step::Apply(merge, previous) => match &merge.part {
                Part::JsonEntry { pointer, key, value } => {
                    set_entry(&mut after, file, pointer, key, value, previous.as_ref(), force)?;
                    slots.push(Slot { pointer, key, found: 0 });
                }
                _ => return Err(only_entries(file)),
            },
            Step::Remove(Record::JsonEntry { pointer, key, value, found, .. }) => {
                removed |= remove_entry(&mut after, file, pointer, key, value, force)?;
                users_file |= *found > 0;
                slots.push(Slot { pointer, key, found: *found });
            }
            Step::Remove(_) => return Err(only_entries(file)),
        }
    }
    if after == before {
        return Ok(content);
    }
    let text = match content.as_deref() {
        // A file with no settings yet (absent, empty, or only comments)
        // gets them after whatever it holds.
        None => crate::format::yaml::document(&after),
        Some(text) if yaml_value(text).is_ok_and(|v| v.is_null()) => {
            let separator = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
            format!("{text}{separator}{}", crate::format::yaml::document(&after))
        }
        Some(text) => edit(file, text, &slots, &mut after)?,
    };
    let written = read(file, &text).ok();
    if written.as_ref() != Some(&after) {
        return Err(not_in_place(file));
    }
    if removed && after.is_empty() {
        // Nothing but comments of the user's is left: they stay, without
        // the `{}` an emptied mapping would leave; no comment, no file,
        // unless the file was the user's before plugforge wrote to it.
        let comments: String = text
            .split_inclusive('\n')
            .filter(|line| line.trim_start().is_empty() || line.trim_start().starts_with('#'))
            .collect();
        return Ok((users_file || has_comment(&comments)).then_some(comments));
    }
    Ok(Some(text))
}

fn not_in_place(file: &str) -> Refusal {
    unreadable(format!(
        "{file}: plugforge could not change its entries in place without changing your settings"
    ))
}

fn only_entries(file: &str) -> Refusal {
    Refusal(format!("{file}: plugforge writes only entries of mappings into a YAML file"))
}

/// The top-level mapping of a YAML text (an empty document reads as an
/// empty mapping), or a refusal at the line and column of what is wrong.
fn read(file: &str, text: &str) -> Result<Map<String, Value>, Refusal> {
    match yaml_value(text) {
        Ok(Value::Null) => Ok(Map::new()),
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(unreadable(format!("{file}: the top level is not a YAML mapping"))),
        Err(e) => Err(unreadable(format!("{file}: {e}"))),
    }
}

fn place(file: &str, pointer: &[String]) -> String {
    format!("{file}: \"{}\"", pointer.join("."))
}

/// The mapping at `pointer`, created on the way where missing or empty
/// (`mcp_servers:` with nothing after it). A key that holds something else
/// is the user's: refused even with --force.
fn mapping_at<'a>(
    model: &'a mut Map<String, Value>,
    file: &str,
    pointer: &[String],
) -> Result<&'a mut Map<String, Value>, Refusal> {
    let mut here = model;
    for (depth, key) in pointer.iter().enumerate() {
        let slot = here.entry(key.clone()).or_insert(Value::Null);
        if slot.is_null() {
            *slot = Value::Object(Map::new());
        }
        here = match slot {
            Value::Object(map) => map,
            _ => {
                return Err(Refusal(format!(
                    "{} is not a mapping; plugforge does not replace what you keep there (not even with --force)",
                    place(file, &pointer[..=depth])
                )));
            }
        };
    }
    Ok(here)
}

fn set_entry(
    model: &mut Map<String, Value>,
    file: &str,
    pointer: &[String],
    key: &str,
    value: &Value,
    previous: Option<&Record>,
    force: bool,
) -> Result<(), Refusal> {
    let ours = match previous {
        Some(Record::JsonEntry { value: written, .. }) => Some(written),
        _ => None,
    };
    let mapping = mapping_at(model, file, pointer)?;
    match mapping.get(key) {
        None => {}
        Some(current) if current == value => return Ok(()),
        Some(current) if Some(current) == ours || force => {}
        Some(_) => {
            let place = format!("{file}: {}", [pointer, &[key.to_string()]].concat().join("."));
            let why = if ours.is_some() {
                "was edited since it was generated"
            } else {
                "already holds an entry of yours"
            };
            return Err(Refusal(format!("{place} {why}; rerun with --force to overwrite it")));
        }
    }
    mapping.insert(key.to_string(), value.clone());
    Ok(())
}

/// Takes plugforge's entry out; whether there was one to take.
fn remove_entry(
    model: &mut Map<String, Value>,
    file: &str,
    pointer: &[String],
    key: &str,
    value: &Value,
    force: bool,
) -> Result<bool, Refusal> {
    let mut here = &mut *model;
    for step in pointer {
        here = match here.get_mut(step) {
            Some(Value::Object(map)) => map,
            _ => return Ok(false),
        };
    }
    match here.get(key) {
        None => Ok(false),
        Some(current) if current == value || force => {
            here.remove(key);
            Ok(true)
        }
        Some(_) => {
            let place = [pointer, &[key.to_string()]].concat().join(".");
            Err(Refusal(format!(
                "{file}: {place} was edited since it was generated; kept (--force removes it)"
            )))
        }
    }
}

/// The user's `text` with each slot set to what `after` holds there (or
/// taken out), and nothing else touched. Mappings a removal left empty go,
/// unless they hold a comment; `after` drops them too.
fn edit(
    file: &str,
    text: &str,
    slots: &[Slot<'_>],
    after: &mut Map<String, Value>,
) -> Result<String, Refusal> {
    let tree = YamlFile::from_str(text)
        .map_err(|e| unreadable(format!("{file}: plugforge cannot edit this YAML in place: {e}")))?;
    let Some(top) = tree.document().and_then(|d| d.as_mapping()) else {
        return Err(unreadable(format!("{file}: the top level is not a YAML mapping")));
    };
    for slot in slots {
        let wanted = lookup(after, slot.pointer).and_then(|m| m.get(slot.key)).cloned();
        match wanted {
            Some(value) => put(&top, slot, &value, after).ok_or_else(|| not_in_place(file))?,
            None => {
                take_out(&top, slot);
                prune(&top, slot.pointer, slot.found, after);
            }
        }
    }
    Ok(tree.to_string())
}

fn lookup<'a>(model: &'a Map<String, Value>, pointer: &[String]) -> Option<&'a Map<String, Value>> {
    pointer.iter().try_fold(model, |here, key| here.get(key)?.as_object())
}

/// The mapping at `pointer` in the tree, if every step is a mapping there.
fn tree_mapping(top: &Mapping, pointer: &[String]) -> Option<Mapping> {
    pointer.iter().try_fold(top.clone(), |here, key| here.get_mapping(key.as_str()))
}

/// Sets the slot's entry. Where a mapping along the way is missing (or
/// empty), the first missing one is written whole from `after`.
fn put(top: &Mapping, slot: &Slot<'_>, value: &Value, after: &Map<String, Value>) -> Option<()> {
    let mut here = top.clone();
    for (depth, key) in slot.pointer.iter().enumerate() {
        match here.get_mapping(key.as_str()) {
            Some(inner) => here = inner,
            None => {
                let whole = lookup(after, &slot.pointer[..=depth]).cloned().unwrap_or_default();
                let (key_node, value_node) = node(key, &Value::Object(whole))?;
                here.set(key_node, value_node);
                return Some(());
            }
        }
    }
    let (key_node, value_node) = node(slot.key, value)?;
    here.set(key_node, value_node);
    Some(())
}

fn take_out(top: &Mapping, slot: &Slot<'_>) {
    if let Some(mapping) = tree_mapping(top, slot.pointer) {
        mapping.remove(slot.key);
    }
}

/// Drops the mappings along `pointer` a removal left empty, deepest first,
/// so no `mcp_servers: {}` husk stays in the user's file. One the file held
/// before plugforge wrote there (the first `found`, the top level counted),
/// or that holds a comment, is the user's and stays.
fn prune(top: &Mapping, pointer: &[String], found: usize, after: &mut Map<String, Value>) {
    for depth in (found.max(1)..=pointer.len()).rev() {
        let (parents, last) = pointer[..depth].split_at(depth - 1);
        let Some(parent) = tree_mapping(top, parents) else { return };
        let Some(entry) = parent.find_entry_by_key(last[0].as_str()) else { return };
        let empty = parent.get_mapping(last[0].as_str()).is_some_and(|m| m.is_empty());
        if !empty || has_comment(&entry.to_string()) {
            return;
        }
        parent.remove(last[0].as_str());
        let model_parent =
            parents.iter().try_fold(&mut *after, |here, key| here.get_mut(key)?.as_object_mut());
        if let Some(model_parent) = model_parent {
            model_parent.remove(&last[0]);
        }
    }
}

/// The key and value as plugforge's YAML writer writes them (quoted where a
/// YAML 1.1 reader would retype them), as nodes the tree can take: in a
/// flow mapping the tree lays them out in flow style. `None` when the tree
/// cannot take the writer's text (the run then refuses the file).
fn node(key: &str, value: &Value) -> Option<(YamlNode, YamlNode)> {
    let mut one = Map::new();
    one.insert(key.to_string(), value.clone());
    let parsed = YamlFile::from_str(&crate::format::yaml::document(&one)).ok()?;
    let entry = parsed.document()?.as_mapping()?.entries().next()?;
    Some((entry.key_node()?, entry.value_node()?))
}

/// Whether a YAML text holds a comment. The text is one the parser took:
/// a `#` starts a comment outside quotes when it opens the line or follows
/// a space.
fn has_comment(text: &str) -> bool {
    YamlFile::from_str(text).is_ok_and(|tree| tree.comments().next().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::{Merge, Part};
    use serde_json::json;

    const FILE: &str = ".hermes/config.yaml";

    fn servers() -> Vec<String> {
        vec!["mcp_servers".to_string()]
    }

    fn ours() -> Value {
        json!({"command": "${HOME}/.hermes/plugforge/dk/bin/deployer", "args": ["--root", ".", "yes"], "env": {"LEVEL": "1.0"}})
    }

    fn apply(
        content: Content,
        value: &Value,
        previous: Option<Value>,
        force: bool,
    ) -> Result<Content, Refusal> {
        let merge = Merge {
            path: crate::path::BundlePath::new(FILE).unwrap(),
            part: Part::JsonEntry { pointer: servers(), key: "deployer".into(), value: value.clone() },
        };
        let previous = previous.map(|value| Record::JsonEntry {
            path: FILE.into(),
            pointer: servers(),
            key: "deployer".into(),
            value,
            found: 0,
        });
        run(content, FILE, &[Step::Apply(merge, previous)], force)
    }

    fn remove(text: &str, value: &Value, force: bool) -> Result<Content, Refusal> {
        let record = Record::JsonEntry {
            path: FILE.into(),
            pointer: servers(),
            key: "deployer".into(),
            value: value.clone(),
            found: 0,
        };
        run(Some(text.to_string()), FILE, &[Step::Remove(record)], force)
    }

    /// A config.yaml the way people keep one: comments, flow collections,
    /// an anchor merged into two servers, quoted strings, blank lines.
    const USERS: &str = "\
# Hermes settings
model:
  default: anthropic/claude-sonnet-4   # the one I pay for
  tags: [fast, cheap]

defaults: &server_defaults
  timeout: 30
  env: {LOG: debug, 'QUOTED': \"yes\"}

mcp_servers:
  # my own servers
  github:
    <<: *server_defaults
    command: npx
    args: [-y, '@modelcontextprotocol/server-github']
  files: {command: uvx, args: [mcp-files], <<: *server_defaults}

display: {skin: dark, compact: true}  # trailing
";

    #[test]
    fn a_users_yaml_keeps_every_byte_outside_plugforges_entry() {
        let built = apply(Some(USERS.into()), &ours(), None, false).unwrap().unwrap();
        let entry = "  deployer:\n    command: \"${HOME}/.hermes/plugforge/dk/bin/deployer\"\n    args:\n      - \"--root\"\n      - \".\"\n      - \"yes\"\n    env:\n      LEVEL: \"1.0\"\n";
        let expected = USERS.replacen(
            "  files: {command: uvx, args: [mcp-files], <<: *server_defaults}\n",
            &format!("  files: {{command: uvx, args: [mcp-files], <<: *server_defaults}}\n{entry}"),
            1,
        );
        assert_eq!(built, expected);

        let again = apply(Some(built.clone()), &ours(), Some(ours()), false).unwrap();
        assert_eq!(again.as_deref(), Some(built.as_str()), "a rebuild keeps the bytes");

        let edited = built.replace("LEVEL: \"1.0\"", "LEVEL: \"2.0\"");
        let refused = apply(Some(edited.clone()), &ours(), Some(ours()), false).unwrap_err().0;
        assert!(refused.contains("mcp_servers.deployer was edited since it was generated"), "{refused}");
        let forced = apply(Some(edited.clone()), &ours(), Some(ours()), true).unwrap();
        assert_eq!(
            forced.as_deref(),
            Some(built.as_str()),
            "--force resets plugforge's entry and nothing else"
        );

        assert_eq!(
            remove(&built, &ours(), false).unwrap().as_deref(),
            Some(USERS),
            "uninstall gives the bytes back"
        );
        assert!(remove(&edited, &ours(), false).is_err());
        assert_eq!(remove(&edited, &ours(), true).unwrap().as_deref(), Some(USERS));
    }

    #[test]
    fn an_entry_in_a_flow_mapping_is_written_in_flow_style() {
        let users = "mcp_servers: {theirs: {command: x}}  # mine\nmodel: m\n";
        let built = apply(Some(users.into()), &ours(), None, false).unwrap().unwrap();
        assert!(built.starts_with("mcp_servers: {theirs: {command: x}, deployer: {"), "{built}");
        assert!(built.ends_with("}  # mine\nmodel: m\n"), "{built}");
        assert_eq!(read(FILE, &built).unwrap()["mcp_servers"]["deployer"], ours());
        assert_eq!(remove(&built, &ours(), false).unwrap().as_deref(), Some(users));
    }

    #[test]
    fn a_missing_or_empty_servers_mapping_is_added_and_taken_out_again() {
        for users in ["model: m\n", "model: m", "model: m\nmcp_servers:\n", "# just a comment\n", ""] {
            let built = apply(Some(users.into()), &ours(), None, false).unwrap().unwrap();
            assert_eq!(read(FILE, &built).unwrap()["mcp_servers"]["deployer"], ours(), "{users:?}: {built}");
            assert!(
                built.starts_with(users.trim_end_matches(['\n', ':']).trim_end_matches("mcp_servers")),
                "{built}"
            );
            let left = remove(&built, &ours(), false).unwrap();
            match users {
                "" => assert_eq!(left, None, "a file of plugforge's alone goes"),
                "model: m\nmcp_servers:\n" => assert_eq!(left.as_deref(), Some("model: m\n")),
                _ => assert_eq!(left.as_deref(), Some(users)),
            }
        }
        assert_eq!(apply(None, &ours(), None, false).unwrap(), Some(crate::format::yaml::document(&read(FILE, "mcp_servers:\n  deployer:\n    command: \"${HOME}/.hermes/plugforge/dk/bin/deployer\"\n    args:\n      - \"--root\"\n      - .\n      - \"yes\"\n    env:\n      LEVEL: \"1.0\"\n").unwrap())));
    }

    #[test]
    fn what_is_not_a_mapping_or_not_yaml_is_refused_even_forced() {
        for force in [false, true] {
            let why = apply(Some("mcp_servers: [a]\n".into()), &ours(), None, force).unwrap_err().0;
            assert!(why.contains("\"mcp_servers\" is not a mapping"), "{why}");
            let why = apply(Some("- a\n".into()), &ours(), None, force).unwrap_err().0;
            assert!(why.contains("the top level is not a YAML mapping"), "{why}");
            let why = apply(Some("mcp_servers: [unclosed\n".into()), &ours(), None, force).unwrap_err().0;
            assert!(why.contains("invalid YAML at line 2 column 1"), "{why}");
        }
    }

    #[test]
    fn a_users_entry_of_the_same_name_is_theirs_unless_forced() {
        let users = "mcp_servers:\n  deployer: {command: mine}\n  other: 1\n";
        assert!(
            apply(Some(users.into()), &ours(), None, false)
                .unwrap_err()
                .0
                .contains("already holds an entry of yours")
        );
        let forced = apply(Some(users.into()), &ours(), None, true).unwrap().unwrap();
        assert!(forced.ends_with("  other: 1\n"), "{forced}");
        assert_eq!(read(FILE, &forced).unwrap()["mcp_servers"]["deployer"], ours());
    }
}
