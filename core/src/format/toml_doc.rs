//! The reader for the TOML files plugforge judges and imports (Gemini CLI
//! command files): the `toml` crate, parsed once into a located table. TOML
//! 1.0 as Gemini CLI reads it: dates, arrays of tables, hex and special
//! floats included. Errors carry the 1-based line and column.

use std::fmt;
use std::ops::Range;

use serde::Deserialize;
use serde_json::{Map, Number, Value};

/// Why a TOML text does not parse, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TomlError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for TomlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.message, self.line, self.column)
    }
}

/// A parsed document: the root table in file order, plus the line each
/// top-level key is defined on (for findings about a field).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TomlDocument {
    pub table: Map<String, Value>,
    pub key_lines: Vec<(String, usize)>,
}

impl TomlDocument {
    /// The line where top-level `key` is defined.
    pub fn line_of(&self, key: &str) -> Option<usize> {
        self.key_lines.iter().find(|(k, _)| k == key).map(|(_, line)| *line)
    }
}

/// Parses `text` as a TOML document. A byte order mark is read as absent
/// and CRLF line ends as LF, so a multi-line string saved on Windows reads
/// as the same text (lines and columns do not move).
pub fn parse(text: &str) -> Result<TomlDocument, TomlError> {
    let text = crate::text::normalised(text);
    let text = text.as_ref();
    let error = |e: toml::de::Error| {
        let (line, column) = line_and_column(text, e.span());
        TomlError { line, column, message: e.message().trim_end().to_string() }
    };
    // Every error the parser recovered from, reported at the first: a value
    // without quotes is the cause of what the parser trips on after it.
    let (located, errors) = toml::de::DeTable::parse_recoverable(text);
    if let Some(first) = errors.into_iter().min_by_key(|e| e.span().map_or(0, |s| s.start)) {
        return Err(error(first));
    }
    let mut key_lines: Vec<(String, usize)> = located
        .get_ref()
        .keys()
        .map(|key| (key.get_ref().to_string(), line_and_column(text, Some(key.span())).0))
        .collect();
    key_lines.sort_by_key(|(_, line)| *line);
    let values = toml::Table::deserialize(toml::de::Deserializer::from(located)).map_err(error)?;
    let mut table = Map::new();
    for (key, _) in &key_lines {
        if let Some(value) = values.get(key) {
            table.insert(key.clone(), json(value));
        }
    }
    Ok(TomlDocument { table, key_lines })
}

/// The 1-based line and column (in characters) of a span's start.
fn line_and_column(text: &str, span: Option<Range<usize>>) -> (usize, usize) {
    let mut offset = span.map_or(0, |s| s.start.min(text.len()));
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A TOML value as JSON: dates and times become their TOML text; a float
/// JSON cannot hold (`inf`, `nan`) becomes null.
fn json(value: &toml::Value) -> Value {
    match value {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.iter().map(json).collect()),
        toml::Value::Table(t) => Value::Object(t.iter().map(|(k, v)| (k.clone(), json(v))).collect()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn table(text: &str) -> Value {
        Value::Object(parse(text).unwrap().table)
    }

    fn error(text: &str) -> TomlError {
        parse(text).unwrap_err()
    }

    #[test]
    fn a_bom_and_crlf_are_read_as_if_absent() {
        let doc = parse("\u{feff}description = \"d\"\r\nprompt = \"\"\"\r\nline\r\n\"\"\"\r\n").unwrap();
        assert_eq!(Value::Object(doc.table), json!({"description": "d", "prompt": "line\n"}));
        assert_eq!(doc.key_lines, [("description".to_string(), 1), ("prompt".to_string(), 2)]);
    }

    #[test]
    fn reads_every_string_form() {
        let text = "# Deploys\ndescription = \"Deploy \\\"it\\\" \\u00e9\"\nprompt = \"\"\"\nRun {{args}}\n  now\n\"\"\"\n";
        assert_eq!(table(text), json!({"description": "Deploy \"it\" é", "prompt": "Run {{args}}\n  now\n"}));
        let literal = "prompt = '''\nC:\\path\\{{args}}'''\ndescription = 'raw \\n'\n";
        assert_eq!(table(literal), json!({"prompt": "C:\\path\\{{args}}", "description": "raw \\n"}));
        assert_eq!(table("p = \"\"\"a \"q\" b\"\"\"\"\n"), json!({"p": "a \"q\" b\""}));
        assert_eq!(table("p = \"\"\"one \\\n    two\"\"\"\n"), json!({"p": "one two"}));
        // A line continuation followed by a tab still joins the lines (the
        // hand-written reader kept the tab and the line end).
        assert_eq!(table("p = \"\"\"a \\\t\n\tb\"\"\"\n"), json!({"p": "a b"}));
    }

    #[test]
    fn reads_what_the_hand_written_reader_refused() {
        let text = "a = 0x1F\nb = inf\nwhen = 1979-05-27\n[[x]]\nn = 1\n[[x]]\nn = 2\n";
        assert_eq!(table(text), json!({"a": 31, "b": null, "when": "1979-05-27", "x": [{"n": 1}, {"n": 2}]}));
        assert_eq!(
            table(
                "a = 1_000\nb = -2.5\nc = true\nd = [\"x\", 'y',\n  3, ]\ne = { f = \"g\" }\n[t.u]\nv = 1\n"
            ),
            json!({"a": 1000, "b": -2.5, "c": true, "d": ["x", "y", 3], "e": {"f": "g"}, "t": {"u": {"v": 1}}})
        );
    }

    #[test]
    fn refuses_what_the_hand_written_reader_accepted() {
        for invalid in ["a = 007\n", "a = 1_\n", "[t]\n[t]\n", "a = 1\na = 2\n"] {
            let err = error(invalid);
            assert!(err.line >= 1 && !err.message.is_empty(), "{invalid:?}: {err}");
        }
        assert_eq!(error("[t]\nx = 1\n[t]\n").line, 3);
        assert_eq!(error("a = 1\na = 2\n").line, 2);
    }

    #[test]
    fn records_top_level_key_lines() {
        let doc = parse("\n# c\ndescription = \"d\"\nprompt = \"\"\"\nx\n\"\"\"\n[t]\nk = 1\n").unwrap();
        assert_eq!(doc.line_of("description"), Some(3));
        assert_eq!(doc.line_of("prompt"), Some(4));
        assert_eq!(doc.line_of("t"), Some(7));
        assert_eq!(doc.line_of("other"), None);
        let keys: Vec<&str> = doc.table.keys().map(String::as_str).collect();
        assert_eq!(keys, ["description", "prompt", "t"], "file order");
    }

    #[test]
    fn errors_point_at_line_and_column() {
        let unquoted = error("description = \"ok\"\nprompt = run it\n");
        assert_eq!((unquoted.line, unquoted.column), (2, 10), "{unquoted}");
        // An unterminated string is noticed where the text ends.
        let open = error("a = \"x\"\nprompt = \"\"\"\nnever closed\n");
        assert_eq!(open.line, 4, "{open}");
        assert!(open.message.contains("multi-line basic string"), "{open}");
        assert_eq!(error("a = \"x\" b = 1\n").line, 1);
        assert_eq!(error("x = 1\na = \"\\q\"\n").line, 2);
        assert_eq!(error("a = \"open\nb = 1\n").line, 1);
        // Columns count characters, not bytes.
        assert_eq!(error("d = \"é\" x\n").column, 9);
    }

    #[test]
    fn empty_and_comment_only_documents_are_empty_tables() {
        assert_eq!(table(""), json!({}));
        assert_eq!(table("# nothing\r\n\r\n"), json!({}));
    }
}
