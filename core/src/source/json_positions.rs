//! Where each object key of a JSON (or JSONC) text sits, from the
//! `jsonc-parser` syntax tree: findings about a field point at its line
//! without searching the text (where a key's name inside a string value or
//! a comment would be taken for the key).

use std::collections::BTreeMap;

use jsonc_parser::ast::{ObjectPropName, Value};
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};

/// One node: an object key (at the key) or an array element (at its
/// start), by its path from the root (keys, and indexes in decimal), with
/// its 1-based line and column and its value when that is a string.
#[derive(Debug, Clone, PartialEq)]
struct Node {
    path: Vec<String>,
    is_key: bool,
    line: usize,
    column: usize,
    string_value: Option<String>,
}

impl Node {
    fn name(&self) -> &str {
        self.path.last().map_or("", String::as_str)
    }
}

/// Every object key and array element of a text, in document order. Empty
/// when the text does not parse (the value's own parse reports that) or
/// nests past [`crate::limits::MAX_JSON_DEPTH`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JsonPositions {
    nodes: Vec<Node>,
}

impl JsonPositions {
    pub fn of(text: &str) -> JsonPositions {
        let text = crate::text::without_bom(text);
        if crate::limits::too_deep(text).is_some() {
            return JsonPositions::default();
        }
        let Ok(parsed) =
            jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &ParseOptions::default())
        else {
            return JsonPositions::default();
        };
        let mut positions = JsonPositions::default();
        if let Some(value) = &parsed.value {
            let lines = LineStarts::of(text);
            positions.walk(value, &mut Vec::new(), &lines, text);
        }
        positions
    }

    fn walk(&mut self, value: &Value<'_>, path: &mut Vec<String>, lines: &LineStarts, text: &str) {
        let mut visit = |this: &mut Self, step: String, start: usize, is_key: bool, child: &Value<'_>| {
            path.push(step);
            let (line, column) = lines.line_and_column(text, start);
            let string_value = child.as_string_lit().map(|s| s.value.to_string());
            this.nodes.push(Node { path: path.clone(), is_key, line, column, string_value });
            this.walk(child, path, lines, text);
            path.pop();
        };
        match value {
            Value::Object(object) => {
                for property in &object.properties {
                    let (name, start) = match &property.name {
                        ObjectPropName::String(s) => (s.value.to_string(), s.range.start),
                        ObjectPropName::Word(w) => (w.value.to_string(), w.range.start),
                    };
                    visit(self, name, start, true, &property.value);
                }
            }
            Value::Array(array) => {
                for (i, element) in array.elements.iter().enumerate() {
                    visit(self, i.to_string(), element.range().start, false, element);
                }
            }
            _ => {}
        }
    }

    /// The line of the first key named `key`, at any depth, in document order.
    pub fn line_of_key(&self, key: &str) -> Option<usize> {
        self.nodes.iter().find(|n| n.is_key && n.name() == key).map(|n| n.line)
    }

    /// The line of the first string value equal to `value` (of a key, at
    /// the key; of an array element, at the element).
    pub fn line_of_string(&self, value: &str) -> Option<usize> {
        self.nodes.iter().find(|n| n.string_value.as_deref() == Some(value)).map(|n| n.line)
    }

    /// Whether the top-level object has `key`.
    pub fn has_top_level_key(&self, key: &str) -> bool {
        self.nodes.iter().any(|n| n.is_key && n.path.len() == 1 && n.name() == key)
    }

    /// The line of the node at `path` (keys, and array indexes in decimal).
    /// The lines of every node at `path`: more than one when a key is
    /// written twice in one object.
    pub fn lines_at(&self, path: &[&str]) -> Vec<usize> {
        let at = |n: &&Node| n.path.iter().map(String::as_str).eq(path.iter().copied());
        self.nodes.iter().filter(at).map(|n| n.line).collect()
    }

    pub fn line_at(&self, path: &[&str]) -> Option<usize> {
        self.nodes.iter().find(|n| n.path.iter().map(String::as_str).eq(path.iter().copied())).map(|n| n.line)
    }

    /// The lines of every `key` whose value is a string, by that string, in
    /// document order; `below` keeps only those under that top-level key
    /// (the `name` of each marketplace entry under `plugins`, not the
    /// marketplace's own).
    pub fn string_pair_lines(&self, key: &str, below: Option<&str>) -> BTreeMap<String, Vec<usize>> {
        let mut lines: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for node in &self.nodes {
            let under = below.is_none_or(|top| node.path.len() > 1 && node.path[0] == top);
            if !node.is_key || node.name() != key || !under {
                continue;
            }
            if let Some(value) = &node.string_value {
                lines.entry(value.clone()).or_default().push(node.line);
            }
        }
        lines
    }
}

/// Byte offsets of line starts, for offset -> line and column in one search.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn of(text: &str) -> LineStarts {
        LineStarts(std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect())
    }

    /// 1-based line and column (in characters) of byte `offset`.
    fn line_and_column(&self, text: &str, offset: usize) -> (usize, usize) {
        let index = self.0.partition_point(|&start| start <= offset).saturating_sub(1);
        let start = self.0[index];
        let column = text.get(start..offset).map_or(0, |s| s.chars().count()) + 1;
        (index + 1, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_by_the_syntax_tree_not_the_text() {
        let text = "{\n  \"description\": \"set name in the hooks\",\n  // \"name\" in a comment\n  \"name\": \"p\"\n}\n";
        let positions = JsonPositions::of(text);
        assert_eq!(positions.line_of_key("name"), Some(4));
        assert_eq!(positions.line_of_key("description"), Some(2));
        assert_eq!(positions.line_of_key("hooks"), None);
        assert!(positions.has_top_level_key("name"));
        assert_eq!(positions.line_of_string("p"), Some(4));
        assert_eq!(positions.line_of_string("name"), None, "a comment is not a value");
        let list = JsonPositions::of("{\"a\": [\n \"x\",\n \"y\"]}");
        assert_eq!(list.line_of_string("y"), Some(3));
    }

    #[test]
    fn nested_keys_and_columns() {
        let text = "{\"a\": {\n  \"é\": 1, \"Stop\": []}}";
        let positions = JsonPositions::of(text);
        assert_eq!(positions.line_of_key("Stop"), Some(2));
        assert!(!positions.has_top_level_key("Stop"));
        assert_eq!(positions.nodes[2].column, 11, "columns count characters");
        assert_eq!(positions.line_at(&["a", "Stop"]), Some(2));
        assert_eq!(positions.line_at(&["a", "x"]), None);
    }

    #[test]
    fn string_pairs_below_a_top_level_key() {
        let text = "{\n \"name\": \"market\",\n \"plugins\": [\n  {\"name\": \"a\"},\n  {\"name\": \"b\", \"x\": {\"name\": 3}},\n  {\"name\": \"a\"}\n ]\n}";
        let positions = JsonPositions::of(text);
        let below = positions.string_pair_lines("name", Some("plugins"));
        assert_eq!(below.get("a"), Some(&vec![4, 6]));
        assert_eq!(below.get("b"), Some(&vec![5]));
        assert_eq!(below.get("market"), None);
        assert_eq!(positions.string_pair_lines("name", None).get("market"), Some(&vec![2]));
        assert_eq!(positions.line_at(&["plugins", "2"]), Some(6), "array elements at their start");
    }

    #[test]
    fn a_text_that_does_not_parse_or_nests_too_deep_has_no_positions() {
        assert_eq!(JsonPositions::of("{\"a\": "), JsonPositions::default());
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(JsonPositions::of(&deep), JsonPositions::default());
        assert_eq!(JsonPositions::of("\u{feff}{\r\n\"k\": 1}").line_of_key("k"), Some(2));
    }
}
