//! The TOML that Gemini CLI command files use: top-level `key = value`
//! pairs with strings (basic, literal, and their multi-line forms), numbers,
//! booleans and arrays of those. Tables are refused with their line.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Location, Result};

/// Key -> (value, 1-based line).
pub type Table = Map<String, Value>;

pub fn parse(file: &str, text: &str) -> Result<(Table, Vec<(String, usize)>)> {
    let mut parser = Parser { file, text, at: 0 };
    let mut table = Table::new();
    let mut lines = Vec::new();
    loop {
        parser.skip_blank();
        if parser.at >= text.len() {
            return Ok((table, lines));
        }
        let line = parser.line();
        if parser.rest().starts_with('[') {
            return Err(parser.error("tables are not read in a command file"));
        }
        let key = parser.key()?;
        parser.skip_spaces();
        if !parser.eat("=") {
            return Err(parser.error(&format!("expected = after key {key:?}")));
        }
        parser.skip_spaces();
        let value = parser.value()?;
        parser.end_of_line()?;
        if table.contains_key(&key) {
            return Err(Error::at(
                ErrorCode::InvalidSource,
                Location::at(file, line, 1),
                format!("key {key:?} is defined twice"),
            ));
        }
        table.insert(key.clone(), value);
        lines.push((key, line));
    }
}

struct Parser<'a> {
    file: &'a str,
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn line(&self) -> usize {
        self.text[..self.at].matches('\n').count() + 1
    }

    fn error(&self, message: &str) -> Error {
        Error::at(
            ErrorCode::InvalidSource,
            Location::at(self.file, self.line(), 1),
            format!("invalid TOML: {message}"),
        )
    }

    fn eat(&mut self, token: &str) -> bool {
        if self.rest().starts_with(token) {
            self.at += token.len();
            true
        } else {
            false
        }
    }

    fn skip_spaces(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start_matches([' ', '\t']).len();
    }

    /// Spaces, newlines and comments.
    fn skip_blank(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start_matches([' ', '\t', '\r', '\n']);
            self.at += rest.len() - trimmed.len();
            if self.rest().starts_with('#') {
                self.at += self.rest().find('\n').unwrap_or(self.rest().len());
            } else {
                return;
            }
        }
    }

    fn end_of_line(&mut self) -> Result<()> {
        self.skip_spaces();
        if self.rest().starts_with('#') {
            self.at += self.rest().find('\n').unwrap_or(self.rest().len());
        }
        if self.at >= self.text.len() || self.eat("\n") || self.eat("\r\n") {
            Ok(())
        } else {
            Err(self.error("expected the end of the line"))
        }
    }

    fn key(&mut self) -> Result<String> {
        if self.rest().starts_with('"') {
            return self.basic();
        }
        if self.rest().starts_with('\'') {
            return self.literal();
        }
        let rest = self.rest();
        let len =
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len());
        if len == 0 {
            return Err(self.error("expected a key"));
        }
        let key = rest[..len].to_string();
        self.at += len;
        if self.rest().starts_with('.') {
            return Err(self.error("dotted keys are not read in a command file"));
        }
        Ok(key)
    }

    fn value(&mut self) -> Result<Value> {
        let rest = self.rest();
        if rest.starts_with("\"\"\"") {
            return self.multi_basic().map(Value::String);
        }
        if rest.starts_with("'''") {
            return self.multi_literal().map(Value::String);
        }
        if rest.starts_with('"') {
            return self.basic().map(Value::String);
        }
        if rest.starts_with('\'') {
            return self.literal().map(Value::String);
        }
        if rest.starts_with('[') {
            return self.array();
        }
        let len = rest.find([',', ']', '#', '\n', '\r', ' ']).unwrap_or(rest.len());
        let word = &rest[..len];
        let value = match word {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => {
                let plain = word.replace('_', "");
                if let Ok(n) = plain.parse::<i64>() {
                    Value::from(n)
                } else if let Some(n) = plain.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
                    Value::Number(n)
                } else {
                    return Err(self.error(&format!("unsupported value {word:?}")));
                }
            }
        };
        self.at += len;
        Ok(value)
    }

    fn array(&mut self) -> Result<Value> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            if self.eat("]") {
                return Ok(Value::Array(items));
            }
            items.push(self.value()?);
            self.skip_blank();
            if !self.eat(",") {
                self.skip_blank();
                if self.eat("]") {
                    return Ok(Value::Array(items));
                }
                return Err(self.error("expected , or ] in an array"));
            }
        }
    }

    fn literal(&mut self) -> Result<String> {
        self.at += 1;
        let rest = self.rest();
        let end = rest.find(['\'', '\n']).filter(|&i| rest[i..].starts_with('\''));
        let Some(end) = end else { return Err(self.error("unterminated literal string")) };
        let out = rest[..end].to_string();
        self.at += end + 1;
        Ok(out)
    }

    fn multi_literal(&mut self) -> Result<String> {
        self.at += 3;
        self.skip_first_newline();
        let Some(end) = closing(self.rest(), "'''") else {
            return Err(self.error("unterminated ''' string"));
        };
        let out = self.rest()[..end].to_string();
        self.at += end + 3;
        Ok(out)
    }

    fn basic(&mut self) -> Result<String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else { return Err(self.error("unterminated string")) };
            match c {
                '"' => {
                    self.at += 1;
                    return Ok(out);
                }
                '\n' => return Err(self.error("newline in a one-line string")),
                '\\' => self.escape(&mut out)?,
                c => {
                    out.push(c);
                    self.at += c.len_utf8();
                }
            }
        }
    }

    fn multi_basic(&mut self) -> Result<String> {
        self.at += 3;
        self.skip_first_newline();
        let mut out = String::new();
        loop {
            if let Some(end) = closing(self.rest(), "\"\"\"").filter(|&e| e == 0) {
                self.at += end + 3;
                return Ok(out);
            }
            let Some(c) = self.rest().chars().next() else {
                return Err(self.error("unterminated \"\"\" string"));
            };
            if c == '\\' {
                let after = &self.rest()[1..];
                let trimmed = after.trim_start_matches([' ', '\t']);
                if trimmed.starts_with('\n') || trimmed.starts_with("\r\n") {
                    // A line-ending backslash joins the lines, eating the whitespace that follows.
                    self.at += 1;
                    let rest = self.rest();
                    self.at += rest.len() - rest.trim_start_matches([' ', '\t', '\r', '\n']).len();
                    continue;
                }
                self.escape(&mut out)?;
            } else {
                out.push(c);
                self.at += c.len_utf8();
            }
        }
    }

    fn skip_first_newline(&mut self) {
        if !self.eat("\n") {
            self.eat("\r\n");
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<()> {
        let rest = self.rest();
        let Some(c) = rest[1..].chars().next() else { return Err(self.error("unterminated escape")) };
        let simple = match c {
            'b' => Some('\u{8}'),
            't' => Some('\t'),
            'n' => Some('\n'),
            'f' => Some('\u{c}'),
            'r' => Some('\r'),
            'e' => Some('\u{1b}'),
            '"' => Some('"'),
            '\\' => Some('\\'),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            self.at += 2;
            return Ok(());
        }
        let digits = match c {
            'u' => 4,
            'U' => 8,
            'x' => 2,
            _ => return Err(self.error(&format!("unknown escape \\{c}"))),
        };
        let hex = rest.get(2..2 + digits).ok_or_else(|| self.error("short unicode escape"))?;
        let code = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
        let Some(code) = code else { return Err(self.error(&format!("invalid unicode escape \\{c}{hex}"))) };
        out.push(code);
        self.at += 2 + digits;
        Ok(())
    }
}

/// Where a multi-line string closed by `quotes` ends; up to two extra
/// quotes right before the closing ones belong to the string.
fn closing(text: &str, quotes: &str) -> Option<usize> {
    let start = text.find(quotes)?;
    let quote = quotes.as_bytes()[0];
    let extra = text.as_bytes()[start + 3..].iter().take(2).take_while(|b| **b == quote).count();
    Some(start + extra)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn table(text: &str) -> Value {
        Value::Object(parse("c.toml", text).unwrap().0)
    }

    #[test]
    fn reads_every_string_form() {
        let text = "# a command\ndescription = \"Say \\\"hi\\\" \\u00e9\"\nprompt = '''\nHi {{args}}\n'''\nx = 'C:\\path'\n";
        assert_eq!(
            table(text),
            json!({"description": "Say \"hi\" é", "prompt": "Hi {{args}}\n", "x": "C:\\path"})
        );
        let text = "prompt = \"\"\"\nOne \\\n    two\n\"\"\"\"\n";
        assert_eq!(table(text), json!({"prompt": "One two\n\""}));
    }

    #[test]
    fn reads_numbers_booleans_and_arrays() {
        assert_eq!(
            table("a = 1_000\nb = 1.5\nc = true\nd = [\"x\", 'y',]\n"),
            json!({"a": 1000, "b": 1.5, "c": true, "d": ["x", "y"]})
        );
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse("c.toml", "a = 1\n[table]\n").unwrap_err();
        assert_eq!(err.location().unwrap().line, Some(2));
        let err = parse("c.toml", "a = \"open\n").unwrap_err();
        assert!(err.to_string().contains("c.toml:1"), "{err}");
        assert!(parse("c.toml", "a = 1\na = 2\n").is_err());
    }
}
