//! Gemini CLI command files, read with the `toml` crate (TOML 1.0, as
//! Gemini's own reader takes them): the top-level keys as JSON values, each
//! with the line it is defined on, and errors at their line and column.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Location, Result};

/// Key -> value, in file order.
pub type Table = Map<String, Value>;

pub fn parse(file: &str, text: &str) -> Result<(Table, Vec<(String, usize)>)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let at = |span: Option<std::ops::Range<usize>>, message: String| {
        let offset = span.map_or(0, |s| s.start.min(text.len()));
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Error::at(
            ErrorCode::InvalidSource,
            Location::at(file, line, column),
            format!("invalid TOML: {message}"),
        )
    };
    let spans = toml::de::DeTable::parse(text).map_err(|e| at(e.span(), e.message().to_string()))?;
    let values: toml::Table = toml::from_str(text).map_err(|e| at(e.span(), e.message().to_string()))?;
    let mut lines: Vec<(String, usize)> = spans
        .get_ref()
        .keys()
        .map(|key| {
            let line = text[..key.span().start.min(text.len())].matches('\n').count() + 1;
            (key.get_ref().to_string(), line)
        })
        .collect();
    lines.sort_by_key(|(_, line)| *line);
    let mut table = Table::new();
    for (key, _) in &lines {
        if let Some(value) = values.get(key) {
            table.insert(key.clone(), json(value));
        }
    }
    Ok((table, lines))
}

/// A TOML value as JSON; dates and times become their TOML text.
fn json(value: &toml::Value) -> Value {
    match value {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.iter().map(json).collect()),
        toml::Value::Table(t) => Value::Object(t.iter().map(|(k, v)| (k.clone(), json(v))).collect()),
    }
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
        // A line continuation followed by a tab joins the lines too.
        assert_eq!(table("p = \"\"\"a \\\t\n\tb\"\"\"\n"), json!({"p": "a b"}));
    }

    #[test]
    fn reads_numbers_booleans_arrays_tables_and_dates() {
        assert_eq!(
            table("a = 1_000\nb = 1.5\nc = true\nd = [\"x\", 'y',]\ne = 0x1F\n"),
            json!({"a": 1000, "b": 1.5, "c": true, "d": ["x", "y"], "e": 31})
        );
        let text = "prompt = \"p\"\nargs = [ { name = \"a\", description = \"b\" } ]\nwhen = 1979-05-27\n";
        assert_eq!(
            table(text),
            json!({"prompt": "p", "args": [{"name": "a", "description": "b"}], "when": "1979-05-27"})
        );
        let (_, lines) = parse("c.toml", text).unwrap();
        assert_eq!(lines, [("prompt".to_string(), 1), ("args".to_string(), 2), ("when".to_string(), 3)]);
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse("c.toml", "a = \"open\n").unwrap_err();
        assert!(err.to_string().contains("c.toml:1"), "{err}");
        let err = parse("c.toml", "a = 1\na = 2\n").unwrap_err();
        assert_eq!(err.location().unwrap().line, Some(2), "{err}");
        for invalid in ["a = 007\n", "a = 1_\n", "[t]\n[t]\n"] {
            assert!(parse("c.toml", invalid).is_err(), "{invalid:?} is not TOML");
        }
    }
}
