//! A small TOML reader for the files plugforge judges and imports (Gemini
//! command files, Codex agents): key/value pairs with every string form,
//! numbers, booleans, arrays, inline tables and `[table]` headers. Dates and
//! arrays of tables (`[[x]]`) are refused as unsupported. Errors carry the
//! 1-based line and column.

use std::fmt;

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

/// A parsed document: the root table, plus the line each top-level key was
/// defined on (for findings about a field).
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

/// Parses `text` as a TOML document.
pub fn parse(text: &str) -> Result<TomlDocument, TomlError> {
    let text = crate::text::normalised(text);
    let mut parser = Parser { chars: text.chars().collect(), pos: 0, line: 1, column: 1 };
    parser.document()
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    column: usize,
}

impl Parser {
    fn document(&mut self) -> Result<TomlDocument, TomlError> {
        let mut doc = TomlDocument::default();
        let mut current: Vec<String> = Vec::new();
        loop {
            self.skip_blank_lines();
            let Some(c) = self.peek() else { return Ok(doc) };
            if c == '[' {
                current = self.table_header()?;
                let at = (self.line, self.column);
                open_table(&mut doc.table, &current).map_err(|m| self.error_at(at, m))?;
            } else {
                let (line, column) = (self.line, self.column);
                let keys = self.dotted_key()?;
                self.skip_spaces();
                self.expect('=')?;
                self.skip_spaces();
                let value = self.value()?;
                if current.is_empty() && keys.len() == 1 {
                    doc.key_lines.push((keys[0].clone(), line));
                }
                let mut path = current.clone();
                path.extend(keys);
                insert(&mut doc.table, &path, value).map_err(|m| self.error_at((line, column), m))?;
            }
            self.end_of_line()?;
        }
    }

    fn table_header(&mut self) -> Result<Vec<String>, TomlError> {
        self.bump();
        if self.peek() == Some('[') {
            return Err(self.error("arrays of tables ([[...]]) are not supported"));
        }
        self.skip_spaces();
        let keys = self.dotted_key()?;
        self.skip_spaces();
        self.expect(']')?;
        Ok(keys)
    }

    fn dotted_key(&mut self) -> Result<Vec<String>, TomlError> {
        let mut keys = vec![self.key()?];
        loop {
            self.skip_spaces();
            if self.peek() != Some('.') {
                return Ok(keys);
            }
            self.bump();
            self.skip_spaces();
            keys.push(self.key()?);
        }
    }

    fn key(&mut self) -> Result<String, TomlError> {
        match self.peek() {
            Some('"') => self.basic_string(),
            Some('\'') => self.literal_string(),
            Some(c) if is_bare(c) => {
                let mut key = String::new();
                while let Some(c) = self.peek().filter(|c| is_bare(*c)) {
                    key.push(c);
                    self.bump();
                }
                Ok(key)
            }
            _ => Err(self.error("expected a key")),
        }
    }

    fn value(&mut self) -> Result<Value, TomlError> {
        match self.peek() {
            Some('"') if self.starts_with("\"\"\"") => self.multi_line('"').map(Value::String),
            Some('\'') if self.starts_with("'''") => self.multi_line('\'').map(Value::String),
            Some('"') => self.basic_string().map(Value::String),
            Some('\'') => self.literal_string().map(Value::String),
            Some('[') => self.array(),
            Some('{') => self.inline_table(),
            Some(_) => self.scalar(),
            None => Err(self.error("expected a value")),
        }
    }

    fn basic_string(&mut self) -> Result<String, TomlError> {
        self.bump();
        let mut out = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => return Err(self.error("unterminated string")),
                Some('"') => {
                    self.bump();
                    return Ok(out);
                }
                Some('\\') => out.push(self.escape()?),
                Some(c) => {
                    out.push(c);
                    self.bump();
                }
            }
        }
    }

    fn literal_string(&mut self) -> Result<String, TomlError> {
        self.bump();
        let mut out = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => return Err(self.error("unterminated string")),
                Some('\'') => {
                    self.bump();
                    return Ok(out);
                }
                Some(c) => {
                    out.push(c);
                    self.bump();
                }
            }
        }
    }

    /// `"""..."""` (escapes, `\` line continuations) or `'''...'''` (raw);
    /// a newline right after the opening quotes is dropped.
    fn multi_line(&mut self, quote: char) -> Result<String, TomlError> {
        let start = (self.line, self.column);
        for _ in 0..3 {
            self.bump();
        }
        if self.peek() == Some('\r') && self.chars.get(self.pos + 1) == Some(&'\n') {
            self.bump();
        }
        if self.peek() == Some('\n') {
            self.bump();
        }
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error_at(start, "unterminated multi-line string")),
                Some(c) if c == quote && self.starts_with(&quote.to_string().repeat(3)) => {
                    for _ in 0..3 {
                        self.bump();
                    }
                    // Up to two more quotes belong to the content (`""""` ends with one quote).
                    for _ in 0..2 {
                        if self.peek() == Some(quote) {
                            out.push(quote);
                            self.bump();
                        }
                    }
                    return Ok(out);
                }
                Some('\\') if quote == '"' => {
                    if self.line_continuation() {
                        continue;
                    }
                    out.push(self.escape()?);
                }
                Some(c) => {
                    out.push(c);
                    self.bump();
                }
            }
        }
    }

    /// A `\` ending a line inside `"""`: skips it and the following whitespace.
    fn line_continuation(&mut self) -> bool {
        let mut ahead = self.pos + 1;
        while matches!(self.chars.get(ahead), Some(' ' | '\t' | '\r')) {
            ahead += 1;
        }
        if self.chars.get(ahead) != Some(&'\n') {
            return false;
        }
        while matches!(self.peek(), Some(' ' | '\t' | '\r' | '\n' | '\\')) {
            self.bump();
        }
        true
    }

    fn escape(&mut self) -> Result<char, TomlError> {
        let at = (self.line, self.column);
        self.bump();
        let c = self.peek().ok_or_else(|| self.error("unterminated escape"))?;
        self.bump();
        let simple = match c {
            'b' => Some('\u{8}'),
            't' => Some('\t'),
            'n' => Some('\n'),
            'f' => Some('\u{c}'),
            'r' => Some('\r'),
            '"' => Some('"'),
            '\\' => Some('\\'),
            _ => None,
        };
        if let Some(simple) = simple {
            return Ok(simple);
        }
        let digits = match c {
            'u' => 4,
            'U' => 8,
            _ => return Err(self.error_at(at, format!("invalid escape \\{c}"))),
        };
        let mut hex = String::new();
        for _ in 0..digits {
            hex.push(self.peek().ok_or_else(|| self.error("unterminated escape"))?);
            self.bump();
        }
        u32::from_str_radix(&hex, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| self.error_at(at, format!("invalid unicode escape \\{c}{hex}")))
    }

    fn array(&mut self) -> Result<Value, TomlError> {
        self.bump();
        let mut items = Vec::new();
        loop {
            self.skip_blank_lines();
            if self.peek() == Some(']') {
                self.bump();
                return Ok(Value::Array(items));
            }
            items.push(self.value()?);
            self.skip_blank_lines();
            match self.peek() {
                Some(',') => self.bump(),
                Some(']') => {}
                _ => return Err(self.error("expected `,` or `]` in an array")),
            }
        }
    }

    fn inline_table(&mut self) -> Result<Value, TomlError> {
        self.bump();
        let mut table = Map::new();
        self.skip_spaces();
        if self.peek() == Some('}') {
            self.bump();
            return Ok(Value::Object(table));
        }
        loop {
            self.skip_spaces();
            let at = (self.line, self.column);
            let keys = self.dotted_key()?;
            self.skip_spaces();
            self.expect('=')?;
            self.skip_spaces();
            let value = self.value()?;
            insert(&mut table, &keys, value).map_err(|m| self.error_at(at, m))?;
            self.skip_spaces();
            match self.peek() {
                Some(',') => self.bump(),
                Some('}') => {
                    self.bump();
                    return Ok(Value::Object(table));
                }
                _ => return Err(self.error("expected `,` or `}` in an inline table")),
            }
        }
    }

    /// Booleans, integers and floats; anything else (dates included) is refused.
    fn scalar(&mut self) -> Result<Value, TomlError> {
        let at = (self.line, self.column);
        let mut word = String::new();
        while let Some(c) =
            self.peek().filter(|c| !matches!(c, ',' | ']' | '}' | '#' | '\n' | ' ' | '\t' | '\r'))
        {
            word.push(c);
            self.bump();
        }
        match word.as_str() {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "" => return Err(self.error_at(at, "expected a value")),
            _ => {}
        }
        let digits = word.replace('_', "");
        if let Ok(i) = digits.parse::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if word.bytes().next().is_some_and(|b| b.is_ascii_digit() || b == b'+' || b == b'-') {
            if let Some(n) = digits.parse::<f64>().ok().and_then(Number::from_f64) {
                return Ok(Value::Number(n));
            }
        }
        Err(self.error_at(at, format!("invalid value `{word}` (strings need quotes)")))
    }

    /// After a key/value pair or a header: only spaces and a comment may follow.
    fn end_of_line(&mut self) -> Result<(), TomlError> {
        self.skip_spaces();
        self.skip_comment();
        match self.peek() {
            None => Ok(()),
            Some('\n') => {
                self.bump();
                Ok(())
            }
            Some('\r') if self.chars.get(self.pos + 1) == Some(&'\n') => {
                self.bump();
                self.bump();
                Ok(())
            }
            Some(c) => Err(self.error(format!("unexpected `{c}` after a value (one key = value per line)"))),
        }
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }

    fn skip_comment(&mut self) {
        if self.peek() == Some('#') {
            while self.peek().is_some_and(|c| c != '\n') {
                self.bump();
            }
        }
    }

    fn skip_blank_lines(&mut self) {
        loop {
            self.skip_spaces();
            self.skip_comment();
            match self.peek() {
                Some('\n' | '\r') => self.bump(),
                _ => return,
            }
        }
    }

    fn expect(&mut self, c: char) -> Result<(), TomlError> {
        if self.peek() == Some(c) {
            self.bump();
            Ok(())
        } else {
            Err(self.error(format!("expected `{c}`")))
        }
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += 1;
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
    }

    fn error(&self, message: impl Into<String>) -> TomlError {
        self.error_at((self.line, self.column), message)
    }

    fn error_at(&self, (line, column): (usize, usize), message: impl Into<String>) -> TomlError {
        TomlError { line, column, message: message.into() }
    }
}

fn is_bare(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Makes sure the table at `path` exists (a `[a.b]` header).
fn open_table(root: &mut Map<String, Value>, path: &[String]) -> Result<(), String> {
    let mut table = root;
    for key in path {
        let entry = table.entry(key.clone()).or_insert_with(|| Value::Object(Map::new()));
        table = entry.as_object_mut().ok_or_else(|| format!("`{key}` is already a value, not a table"))?;
    }
    Ok(())
}

fn insert(root: &mut Map<String, Value>, path: &[String], value: Value) -> Result<(), String> {
    let Some((last, parents)) = path.split_last() else { return Ok(()) };
    open_table(root, parents)?;
    let mut table = root;
    for key in parents {
        table = table.get_mut(key).and_then(Value::as_object_mut).expect("opened above");
    }
    if table.contains_key(last) {
        return Err(format!("key `{}` is defined twice", path.join(".")));
    }
    table.insert(last.clone(), value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_bom_and_crlf_are_read_as_if_absent() {
        let doc = parse("\u{feff}description = \"d\"\r\nprompt = \"\"\"\r\nline\r\n\"\"\"\r\n").unwrap();
        assert_eq!(Value::Object(doc.table), json!({"description": "d", "prompt": "line\n"}));
        assert_eq!(doc.key_lines, [("description".to_string(), 1), ("prompt".to_string(), 2)]);
    }

    fn table(text: &str) -> Value {
        Value::Object(parse(text).unwrap().table)
    }

    fn error(text: &str) -> TomlError {
        parse(text).unwrap_err()
    }

    #[test]
    fn reads_the_gemini_command_shapes() {
        let text =
            "# Deploys\ndescription = \"Deploy \\\"it\\\"\"\nprompt = \"\"\"\nRun {{args}}\n  now\n\"\"\"\n";
        assert_eq!(table(text), json!({"description": "Deploy \"it\"", "prompt": "Run {{args}}\n  now\n"}));
        let literal = "prompt = '''\nC:\\path\\{{args}}'''\ndescription = 'raw \\n'\n";
        assert_eq!(table(literal), json!({"prompt": "C:\\path\\{{args}}", "description": "raw \\n"}));
    }

    #[test]
    fn reads_numbers_booleans_arrays_and_tables() {
        let text =
            "a = 1_000\nb = -2.5\nc = true\nd = [\"x\", 'y',\n  3, ]\ne = { f = \"g\" }\n[t.u]\nv = 1\n";
        assert_eq!(
            table(text),
            json!({"a": 1000, "b": -2.5, "c": true, "d": ["x", "y", 3], "e": {"f": "g"}, "t": {"u": {"v": 1}}})
        );
    }

    #[test]
    fn multi_line_strings_keep_inner_quotes_and_join_continuations() {
        assert_eq!(table("p = \"\"\"a \"q\" b\"\"\"\"\n"), json!({"p": "a \"q\" b\""}));
        assert_eq!(table("p = \"\"\"one \\\n    two\"\"\"\n"), json!({"p": "one two"}));
        assert_eq!(table("p = \"\\u00e9\"\n"), json!({"p": "é"}));
    }

    #[test]
    fn records_top_level_key_lines() {
        let doc = parse("\n# c\ndescription = \"d\"\nprompt = \"\"\"\nx\n\"\"\"\n").unwrap();
        assert_eq!(doc.line_of("description"), Some(3));
        assert_eq!(doc.line_of("prompt"), Some(4));
        assert_eq!(doc.line_of("other"), None);
    }

    #[test]
    fn errors_point_at_line_and_column() {
        let unquoted = error("description = \"ok\"\nprompt = run it\n");
        assert_eq!((unquoted.line, unquoted.column), (2, 10));
        assert!(unquoted.message.contains("strings need quotes"), "{unquoted}");
        let open = error("a = \"x\"\nprompt = \"\"\"\nnever closed\n");
        assert_eq!((open.line, open.message.as_str()), (2, "unterminated multi-line string"));
        let twice = error("a = 1\na = 2\n");
        assert_eq!((twice.line, twice.message.as_str()), (2, "key `a` is defined twice"));
        assert_eq!(error("a = \"x\" b = 1\n").line, 1);
        assert_eq!(error("= 1\n").message, "expected a key");
        assert_eq!(error("a = \"\\q\"\n").message, "invalid escape \\q");
        assert_eq!(error("a = \"open\nb = 1\n").message, "unterminated string");
        assert!(error("[[x]]\n").message.contains("not supported"));
    }

    #[test]
    fn empty_and_comment_only_documents_are_empty_tables() {
        assert_eq!(table(""), json!({}));
        assert_eq!(table("# nothing\r\n\r\n"), json!({}));
    }
}
