//! One shared JSON-model file while its merge steps run: a concrete syntax
//! tree, so a file the user wrote keeps every comment, comma, blank line and
//! key order outside the parts plugforge edits.
//!
//! JSON files (JSONC allowed: OpenCode reads `opencode.json` with comments
//! and trailing commas) are edited in place. A file plugforge creates is
//! written by the one JSON writer, so every host emits the same bytes. YAML
//! files (Hermes's `config.yaml`) have their own tree (`yaml_parts`); here
//! they are only read.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstContainerNode, CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::{Map, Value};

use super::{Content, Refusal};
use crate::limits;
use crate::source::yaml_value;

/// How a shared file's text maps to the JSON data model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Json,
    Yaml,
}

impl Dialect {
    pub fn of(file: &str) -> Dialect {
        if file.ends_with(".yaml") || file.ends_with(".yml") { Dialect::Yaml } else { Dialect::Json }
    }
}

/// What a user's JSON file may hold: comments and trailing commas (JSONC, as
/// OpenCode, VS Code and Claude Code's settings readers take them); nothing
/// looser, so a typo is reported rather than guessed at.
fn options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: true,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Why a file cannot be merged into. `--force` does not lift it: replacing a
/// file plugforge cannot read would drop whatever the user keeps there.
pub(super) fn unreadable(message: String) -> Refusal {
    Refusal(format!(
        "{message}; plugforge edits only its own entries, so fix the file by hand (--force does not replace it)"
    ))
}

/// The CST of a JSON text, or a refusal naming line and column.
fn parse_cst(file: &str, text: &str) -> Result<CstRootNode, Refusal> {
    // The parser recurses once per level: a file nested past the limit is
    // refused before it can exhaust the stack.
    if let Some((line, column)) = limits::too_deep(text) {
        return Err(unreadable(format!(
            "{file}:{line}:{column}: limit: JSON nested deeper than {} levels",
            limits::MAX_JSON_DEPTH
        )));
    }
    CstRootNode::parse(text, &options()).map_err(|e| {
        unreadable(format!("{file}:{}:{}: invalid JSON: {}", e.line_display(), e.column_display(), e.kind()))
    })
}

/// The JSON-model value of a shared file's text, for checks that only read.
pub fn decode(file: &str, text: &str) -> Option<Value> {
    match Dialect::of(file) {
        Dialect::Json => parse_cst(file, text).ok()?.to_serde_value(),
        Dialect::Yaml => match yaml_value(text) {
            Ok(Value::Null) => Some(Value::Object(Map::new())),
            other => other.ok(),
        },
    }
}

pub struct Document {
    root: CstRootNode,
    /// The tree is the user's own text (written back as edited); otherwise
    /// plugforge creates or rewrites the file as a whole.
    edited_in_place: bool,
    /// A removal took something out: an emptied file then goes.
    removed: bool,
    /// The file held nothing but this plugin's part (a marketplace whose
    /// last plugin went): it goes unless a comment of the user's is left.
    dropped: bool,
    /// A part taken out was written into a file that was there before
    /// plugforge wrote to it: emptied, the file stays, as the user had it.
    users_file: bool,
}

impl Document {
    /// Opens `content` (absent: `fresh`, an empty object unless given).
    pub fn open(content: Content, file: &str, fresh: Option<&Value>) -> Result<Document, Refusal> {
        let empty = Value::Object(Map::new());
        let (root, edited_in_place) = match &content {
            None => (tree_of(fresh.unwrap_or(&empty)), false),
            Some(text) => (parse_cst(file, text)?, true),
        };
        match root.value() {
            Some(node) if node.as_object().is_some() => {}
            // Whitespace or comments only: the object goes in beside them.
            None => {
                root.object_value_or_set();
            }
            Some(_) => return Err(unreadable(format!("{file}: the top level is not a JSON object"))),
        }
        Ok(Document { root, edited_in_place, removed: false, dropped: false, users_file: false })
    }

    /// The text as it stands.
    pub fn text(&self) -> String {
        self.root.to_string()
    }

    pub fn object(&self) -> CstObject {
        self.root.object_value().expect("opened as an object")
    }

    pub fn removed_something(&mut self) {
        self.removed = true;
    }

    pub fn emptied(&mut self) {
        self.dropped = true;
    }

    /// Notes a removed part's [`Record::found`](super::Record::found): from
    /// 1 on, the file itself was the user's.
    pub fn found(&mut self, found: usize) {
        self.users_file |= found > 0;
    }

    /// Puts `entry` (`"key": value` in an object, items in an array) at the
    /// end of `container`, a container written on one line, on that line:
    /// after the last entry (`, entry`), after a trailing comma (` entry,`),
    /// or inside empty brackets. Taking the entry out again (the syntax
    /// tree's removal) gives back the line as it was; appending through the
    /// tree would spread the user's line over several.
    pub fn insert_inline(
        &mut self,
        container: &CstContainerNode,
        entry: &str,
        file: &str,
    ) -> Result<(), Refusal> {
        let children = container.children();
        let significant =
            |child: &&CstNode| !child.is_whitespace() && !child.is_newline() && !child.is_comment();
        // Every child but the closing bracket, from the end: the opening one is there at least.
        let last = children.iter().rev().skip(1).find(significant).expect("an opening bracket");
        let (at, piece) = match last.token_char() {
            Some(',') => (start_of(last) + 1, format!(" {entry},")),
            Some('{' | '[') => (start_of(last) + 1, entry.to_string()),
            _ => (start_of(last) + last.to_string().len(), format!(", {entry}")),
        };
        let text = self.root.to_string();
        self.root = parse_cst(file, &format!("{}{piece}{}", &text[..at], &text[at..]))?;
        Ok(())
    }

    /// The text to write; `None` when a removal left nothing of anyone's.
    pub fn close(self) -> Content {
        let nothing_left = self.dropped || (self.removed && self.object().properties().is_empty());
        if nothing_left && !self.users_file && !has_comment(&self.root.clone().into()) {
            return None;
        }
        if self.edited_in_place {
            return Some(self.root.to_string());
        }
        let value = self.root.to_serde_value().unwrap_or(Value::Object(Map::new()));
        Some(String::from_utf8(crate::json::to_bytes(&value)).expect("JSON is UTF-8"))
    }
}

/// A tree for a value plugforge itself writes out (never shown as is: its
/// text is rendered again by the JSON writer on close).
fn tree_of(value: &Value) -> CstRootNode {
    let root = CstRootNode::parse("", &options()).expect("the empty text parses");
    root.set_value(input(value));
    root
}

/// Where `node` starts in its tree's text.
fn start_of(node: &CstNode) -> usize {
    let mut at = 0;
    let mut here = node.clone();
    while let Some(parent) = here.parent() {
        at += here.previous_siblings().map(|sibling| sibling.to_string().len()).sum::<usize>();
        here = parent.into();
    }
    at
}

/// Whether a container's own brackets and entries share one line (what it
/// holds may span several): appending through the tree would break it up.
pub fn one_line(container: &CstContainerNode) -> bool {
    !container.children().iter().any(CstNode::is_newline)
}

/// `value` as JSON on one line, spaced as people write it (`{"a": [1, 2]}`).
pub fn inline(value: &Value) -> String {
    struct Spaced;
    impl serde_json::ser::Formatter for Spaced {
        fn begin_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first { Ok(()) } else { w.write_all(b", ") }
        }
        fn begin_object_key<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first { Ok(()) } else { w.write_all(b", ") }
        }
        fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            w.write_all(b": ")
        }
    }
    let mut out = Vec::new();
    let mut writer = serde_json::Serializer::with_formatter(&mut out, Spaced);
    serde::Serialize::serialize(value, &mut writer).expect("a JSON value serializes");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// `"key": value` on one line.
pub fn entry_text(key: &str, value: &Value) -> String {
    format!("{}: {}", inline(&Value::String(key.to_string())), inline(value))
}

pub fn has_comment(node: &CstNode) -> bool {
    node.is_comment() || node.children().iter().any(has_comment)
}

/// A value as the CST builder takes it.
pub fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect()),
    }
}

pub fn value(node: &CstNode) -> Option<Value> {
    node.to_serde_value()
}

/// A property's value as a container, if it is one of that kind.
pub enum Slot {
    Missing,
    Object(CstObject),
    Array(CstArray),
    Other,
}

pub fn slot(object: &CstObject, key: &str) -> Slot {
    let Some(prop) = object.get(key) else { return Slot::Missing };
    match prop.value() {
        Some(CstNode::Container(CstContainerNode::Object(o))) => Slot::Object(o),
        Some(CstNode::Container(CstContainerNode::Array(a))) => Slot::Array(a),
        _ => Slot::Other,
    }
}
