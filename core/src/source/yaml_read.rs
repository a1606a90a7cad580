//! YAML read straight into JSON values.
//!
//! yaml-rust2's loader builds a `Yaml` tree (a linked hash map a mapping)
//! that a conversion then copies into JSON: a frontmatter of thousands of
//! keys was held two and a half times over at its peak. This reader builds
//! the JSON from the parser's events the way the loader builds its tree:
//! the same scalar types, anchors and aliases, the same "duplicated key"
//! error at the same place. A key that is itself a collection (or an alias
//! of one), which JSON can only name `~`, is rare enough to be read through
//! the loader's tree instead.

use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};
use yaml_rust2::{Yaml, YamlLoader};

/// The key PyYAML, js-yaml 4 and Claude Code's parser (Bun's YAML) read as
/// "the keys of this mapping too" (yaml-rust2 keeps it as a plain key).
const MERGE_KEY: &str = "<<";

/// The first document of a YAML text.
#[derive(Debug, PartialEq)]
pub(crate) enum Root {
    /// YAML's null: `~`, `null`, or a document with no node.
    Null,
    Mapping(Map<String, Value>),
    /// Any other node, as JSON (a value yaml-rust2 cannot type is `null`).
    Other(Value),
}

/// Reads the first document of `text` (`None`: the text holds none), with
/// `<<` merge keys applied when `merge_keys` is set. Every document must
/// read, as yaml-rust2's loader requires.
pub(crate) fn first_document(text: &str, merge_keys: bool) -> Result<Option<Root>, ScanError> {
    let mut builder = Builder { merge_keys, root_keys: root_keys(text), ..Builder::default() };
    Parser::new_from_str(text).load(&mut builder, true)?;
    if let Some(error) = builder.error {
        return Err(error);
    }
    if builder.complex_key {
        let docs = YamlLoader::load_from_str(text)?;
        return Ok(docs.into_iter().next().map(|root| match root {
            Yaml::Null => Root::Null,
            other => root_of(to_json(other, merge_keys)),
        }));
    }
    Ok(builder.first)
}

/// How many lines of `text` may start a key of its root mapping: the room
/// to read that mapping into. Grown a key at a time, a map's entries are
/// sized to its hash table's capacity, up to 75% more than it holds (230
/// KB more for a frontmatter of 5,000 keys, held for the whole build); and
/// moved into a map of its size at the end, it would be held twice at
/// once. The YAML reader refuses a line of a value at the root's column,
/// so a line counted that starts no key is in a text it refuses; and no
/// more room is made than a frontmatter may hold keys.
fn root_keys(text: &str) -> usize {
    let lines =
        text.lines().filter(|line| line.contains(':') && !line.starts_with([' ', '\t', '#', '-'])).count();
    lines.min(crate::limits::MAX_FRONTMATTER_NODES as usize / 2)
}

/// The name JSON gives a mapping key, as JavaScript and Python readers of
/// the same YAML name it.
pub(crate) fn key_string(key: &Yaml) -> String {
    match key {
        Yaml::String(s) | Yaml::Real(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        // How JSON readers (JavaScript, Python) name a null key.
        Yaml::Null => String::from("null"),
        _ => String::from("~"),
    }
}

/// A node of yaml-rust2's tree as JSON (the fallback for collection keys).
fn to_json(value: Yaml, merge_keys: bool) -> Value {
    match value {
        Yaml::Array(items) => Value::Array(items.into_iter().map(|item| to_json(item, merge_keys)).collect()),
        Yaml::Hash(hash) => {
            let map = hash.into_iter().map(|(k, v)| (key_string(&k), to_json(v, merge_keys))).collect();
            Value::Object(if merge_keys { merged(map) } else { map })
        }
        scalar => scalar_json(scalar),
    }
}

fn scalar_json(value: Yaml) -> Value {
    match value {
        Yaml::String(s) => Value::String(s),
        Yaml::Integer(i) => Value::Number(i.into()),
        Yaml::Real(s) => {
            s.parse::<f64>().ok().and_then(Number::from_f64).map_or(Value::String(s), Value::Number)
        }
        Yaml::Boolean(b) => Value::Bool(b),
        _ => Value::Null,
    }
}

fn root_of(value: Value) -> Root {
    match value {
        Value::Object(map) => Root::Mapping(map),
        other => Root::Other(other),
    }
}

/// `map` with its `<<` merge key applied: where `<<: *base` (or
/// `<<: [*a, *b]`) stands, the keys of the merged mapping(s) that the
/// mapping does not write itself, an earlier mapping's winning. A `<<`
/// whose value is not a mapping or a list of them stays a plain key. The
/// merged mappings had theirs applied when they were read.
fn merged(map: Map<String, Value>) -> Map<String, Value> {
    let mergeable = match map.get(MERGE_KEY) {
        Some(Value::Object(_)) => true,
        Some(Value::Array(many)) => many.iter().all(Value::is_object),
        _ => false,
    };
    if !mergeable {
        return map;
    }
    let written: HashSet<String> = map.keys().filter(|key| *key != MERGE_KEY).cloned().collect();
    let mut out = Map::with_capacity(map.len());
    for (key, value) in map {
        if key != MERGE_KEY {
            out.insert(key, value);
            continue;
        }
        let sources = match value {
            Value::Array(many) => many,
            one => vec![one],
        };
        for (key, value) in sources
            .into_iter()
            .filter_map(|source| match source {
                Value::Object(entries) => Some(entries),
                _ => None,
            })
            .flatten()
        {
            if !written.contains(&key) && !out.contains_key(&key) {
                out.insert(key, value);
            }
        }
    }
    out
}

/// A finished node: a scalar keeps its YAML type until it is placed (a key
/// is named from it, and compared by it for duplicates).
#[derive(Clone)]
enum Node {
    Scalar(Yaml),
    Collection(Value),
}

impl Node {
    fn into_value(self) -> Value {
        match self {
            Node::Scalar(scalar) => scalar_json(scalar),
            Node::Collection(value) => value,
        }
    }
}

/// A collection being read.
enum Open {
    Sequence {
        items: Vec<Value>,
        anchor: usize,
    },
    Mapping {
        map: Map<String, Value>,
        anchor: usize,
        /// The key read, waiting for its value.
        key: Option<Yaml>,
        /// Each key that is not a string, under the name it got, and the
        /// string key a name already had when such a key met it: YAML
        /// tells `1` from `"1"`, JSON names both `1`.
        named: Vec<(String, Yaml)>,
    },
}

#[derive(Default)]
struct Builder {
    merge_keys: bool,
    /// The room the first document's root mapping is read into.
    root_keys: usize,
    open: Vec<Open>,
    anchors: BTreeMap<usize, Node>,
    /// The root of the document being read, once read.
    root: Option<Node>,
    first: Option<Root>,
    error: Option<ScanError>,
    complex_key: bool,
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.error.is_some() || self.complex_key {
            return;
        }
        if let Err(error) = self.read(event, mark) {
            self.error = Some(error);
        }
    }
}

impl Builder {
    fn read(&mut self, event: Event, mark: Marker) -> Result<(), ScanError> {
        match event {
            Event::DocumentEnd => {
                // A document with no node is one yaml-rust2 cannot type.
                let root = self.root.take().unwrap_or(Node::Scalar(Yaml::BadValue));
                if self.first.is_none() {
                    self.first = Some(match root {
                        Node::Scalar(Yaml::Null) => Root::Null,
                        other => root_of(other.into_value()),
                    });
                }
            }
            Event::SequenceStart(anchor, _) => {
                self.complex_key |= self.expects_key();
                self.open.push(Open::Sequence { items: Vec::new(), anchor });
            }
            Event::MappingStart(anchor, _) => {
                self.complex_key |= self.expects_key();
                let map = match (self.open.is_empty(), self.first.is_none()) {
                    (true, true) => Map::with_capacity(self.root_keys),
                    _ => Map::new(),
                };
                self.open.push(Open::Mapping { map, anchor, key: None, named: Vec::new() });
            }
            Event::SequenceEnd => {
                if let Some(Open::Sequence { items, anchor }) = self.open.pop() {
                    self.place(Node::Collection(Value::Array(items)), anchor, mark)?;
                }
            }
            Event::MappingEnd => {
                if let Some(Open::Mapping { map, anchor, .. }) = self.open.pop() {
                    let map = if self.merge_keys { merged(map) } else { map };
                    self.place(Node::Collection(Value::Object(map)), anchor, mark)?;
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                self.place(Node::Scalar(scalar(value, style, tag)), anchor, mark)?
            }
            Event::Alias(id) => {
                let node = self.anchors.get(&id).cloned().unwrap_or(Node::Scalar(Yaml::BadValue));
                if matches!(node, Node::Collection(_)) && self.expects_key() {
                    self.complex_key = true;
                    return Ok(());
                }
                self.place(node, 0, mark)?;
            }
            Event::DocumentStart | Event::Nothing | Event::StreamStart | Event::StreamEnd => {}
        }
        Ok(())
    }

    /// Whether the next node read is a mapping's key.
    fn expects_key(&self) -> bool {
        matches!(self.open.last(), Some(Open::Mapping { key: None, .. }))
    }

    /// Puts a finished node where it belongs: the document's root, a
    /// sequence's next item, a mapping's key or its value.
    fn place(&mut self, node: Node, anchor: usize, mark: Marker) -> Result<(), ScanError> {
        if self.complex_key {
            return Ok(());
        }
        // Anchor ids start at 1.
        if anchor > 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.open.last_mut() {
            None => self.root = Some(node),
            Some(Open::Sequence { items, .. }) => items.push(node.into_value()),
            Some(Open::Mapping { key: slot @ None, .. }) => match node {
                Node::Scalar(key) => *slot = Some(key),
                Node::Collection(_) => self.complex_key = true,
            },
            Some(Open::Mapping { map, key, named, .. }) => {
                let key = key.take().unwrap_or(Yaml::BadValue);
                let name = key_string(&key);
                let is_string = matches!(key, Yaml::String(_));
                if map.contains_key(&name) {
                    let mut earlier = named.iter().filter(|(n, _)| *n == name).peekable();
                    // A name no other key than a string gave is a string key's.
                    let duplicate =
                        if earlier.peek().is_none() { is_string } else { earlier.any(|(_, k)| *k == key) };
                    if duplicate {
                        return Err(ScanError::new_string(
                            mark,
                            format!("{key:?}: duplicated key in mapping"),
                        ));
                    }
                    if !named.iter().any(|(n, _)| *n == name) {
                        named.push((name.clone(), Yaml::String(name.clone())));
                    }
                    named.push((name.clone(), key));
                } else if !is_string {
                    named.push((name.clone(), key));
                }
                map.insert(name, node.into_value());
            }
        }
        Ok(())
    }
}

/// A scalar typed as yaml-rust2's loader types it: quoted is a string; a
/// `!!bool`, `!!int`, `!!float` or `!!null` tag must read as one (else the
/// value cannot be typed); otherwise the YAML 1.2 core schema.
fn scalar(value: String, style: TScalarStyle, tag: Option<Tag>) -> Yaml {
    if style != TScalarStyle::Plain {
        return Yaml::String(value);
    }
    let Some(Tag { handle, suffix }) = tag else { return Yaml::from_str(&value) };
    if handle != "tag:yaml.org,2002:" {
        return Yaml::String(value);
    }
    match suffix.as_str() {
        "bool" => match value.as_str() {
            "true" | "True" | "TRUE" => Yaml::Boolean(true),
            "false" | "False" | "FALSE" => Yaml::Boolean(false),
            _ => Yaml::BadValue,
        },
        "int" => value.parse::<i64>().map_or(Yaml::BadValue, Yaml::Integer),
        "float" if is_core_float(&value) => Yaml::Real(value),
        "float" => Yaml::BadValue,
        "null" if matches!(value.as_str(), "~" | "null") => Yaml::Null,
        "null" => Yaml::BadValue,
        _ => Yaml::String(value),
    }
}

/// Whether `value` is a float of the YAML core schema (yaml-rust2's rule).
fn is_core_float(value: &str) -> bool {
    matches!(value, ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF")
        || matches!(value, ".nan" | "NaN" | ".NaN" | ".NAN")
        || value.parse::<f64>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// yaml-rust2's own loader, then the conversion: what this reader must equal.
    fn through_the_tree(text: &str, merge_keys: bool) -> Result<Option<Root>, String> {
        let docs = YamlLoader::load_from_str(text).map_err(|e| e.to_string())?;
        Ok(docs.into_iter().next().map(|root| match root {
            Yaml::Null => Root::Null,
            other => root_of(to_json(other, merge_keys)),
        }))
    }

    fn direct(text: &str, merge_keys: bool) -> Result<Option<Root>, String> {
        first_document(text, merge_keys).map_err(|e| e.to_string())
    }

    #[test]
    fn every_kind_of_node_reads_as_through_the_loaders_tree() {
        let texts = [
            "",
            "# only a comment\n",
            "~\n",
            "null\n",
            "plain\n",
            "--- \n...\n",
            "a: 1\nb: 1.50\nc: true\nd: ~\ne: 'quoted'\nf: \"1\"\ng: .inf\nh: 0x1F\ni: 1e400\n",
            "a: !!int 12\nb: !!int x\nc: !!float 1\nd: !!float x\ne: !!bool True\nf: !!bool yes\ng: !!null ~\n\
             h: !!null x\ni: !!str 5\nj: !custom 5\n",
            "list: [a, 1, {b: c}]\nblock:\n  - x\n  - - y\n    - z\nnested:\n  deep:\n    deeper: [1, 2]\n",
            "base: &base {a: 1, b: 2}\nuse: *base\nmissing: *nothing\nscalar: &s text\nagain: *s\n",
            "1: int\n\"1\": string\ntrue: bool\n\"true\": string\n~: null key\n1.0: real\n",
            "base: &b {a: 1, b: 2}\nchild:\n  <<: *b\n  b: 3\n  c: 4\n",
            "x: &x {a: 1}\ny: &y {a: 2, b: 2}\nz:\n  <<: [*x, *y]\n  c: 3\n",
            "z:\n  <<: [1, 2]\n  a: 1\nw:\n  <<: plain\n",
            "deep: &d {<<: {inner: 1}, k: v}\nuse: {<<: *d}\n",
            "? [complex, key]\n: value\nplain: 1\n",
            "? {a: 1}\n: value\n? {a: 1}\n: again\n",
            "first: 1\n---\nsecond: 2\n",
            "k: &k key\n*k : value\n",
            "a: 1\na: 2\n",
            "1: a\n1: b\n",
            "1: a\n\"1\": b\n1: c\n",
            "\"1\": a\n1: b\n\"1\": c\n",
            "first: 1\n---\na: 1\na: 2\n",
            "list:\n  - a: 1\n    a: 2\n",
            "a: [1, 2\n",
        ];
        for text in texts {
            for merge_keys in [false, true] {
                assert_eq!(
                    direct(text, merge_keys),
                    through_the_tree(text, merge_keys),
                    "{text:?} merge {merge_keys}"
                );
            }
        }
    }

    #[test]
    fn a_merge_key_takes_what_the_mapping_does_not_write_the_earlier_source_winning() {
        let text = "x: &x {a: 1, c: 1}\ny: &y {a: 2, b: 2}\nz:\n  a: 0\n  <<: [*x, *y]\n  d: 3\n";
        let Ok(Some(Root::Mapping(map))) = first_document(text, true) else { panic!("a mapping") };
        assert_eq!(serde_json::to_string(&map["z"]).unwrap(), r#"{"a":0,"c":1,"b":2,"d":3}"#);
        let Ok(Some(Root::Mapping(plain))) = first_document(text, false) else { panic!("a mapping") };
        assert!(plain["z"].get(MERGE_KEY).is_some(), "kept as a key unless merging");
    }

    #[test]
    fn a_duplicated_key_is_the_loaders_error_at_the_loaders_place() {
        let error = first_document("a: 1\nb: 2\na: 3\n", true).unwrap_err();
        assert_eq!(error.info(), "String(\"a\"): duplicated key in mapping");
        assert_eq!((error.marker().line(), error.marker().col()), (3, 3));
        // YAML tells the integer 1 from the string "1"; JSON names both "1".
        let Ok(Some(Root::Mapping(map))) = first_document("1: int\n\"1\": string\n", true) else { panic!() };
        assert_eq!(map["1"], "string");
    }
}
