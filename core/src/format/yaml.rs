//! YAML output for frontmatter and small documents (`plugin.yaml`): block
//! style, plain scalars where unambiguous, JSON-style double quotes otherwise.

use serde_json::{Map, Value};

/// `---\n<map>---\n<body>`: Markdown with frontmatter.
pub fn frontmatter(map: &Map<String, Value>, body: &str) -> String {
    format!("---\n{}---\n{body}", document(map))
}

/// A mapping as a YAML document (no `---`), ending in a newline.
pub fn document(map: &Map<String, Value>) -> String {
    let mut out = String::new();
    write_map(&mut out, map, 0);
    out
}

fn write_map(out: &mut String, map: &Map<String, Value>, indent: usize) {
    for (key, value) in map {
        out.push_str(&" ".repeat(indent));
        out.push_str(&scalar_text(key));
        out.push(':');
        write_value(out, value, indent);
    }
}

/// Writes what follows `key:` (or `-`), including the newline.
fn write_value(out: &mut String, value: &Value, indent: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            write_map(out, map, indent + 2);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            for item in items {
                out.push_str(&" ".repeat(indent + 2));
                out.push('-');
                match item {
                    Value::Object(map) if !map.is_empty() => {
                        // The first key sits on the dash's line.
                        let mut nested = String::new();
                        write_map(&mut nested, map, indent + 4);
                        out.push(' ');
                        out.push_str(nested.trim_start());
                    }
                    other => write_value(out, other, indent + 2),
                }
            }
        }
        other => {
            out.push(' ');
            out.push_str(&inline(other));
            out.push('\n');
        }
    }
}

fn inline(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => scalar_text(s),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

/// A string as a plain scalar when YAML reads it back as the same string,
/// else double-quoted (JSON escapes are valid YAML).
pub fn scalar_text(text: &str) -> String {
    if is_plain(text) { text.to_string() } else { serde_json::to_string(text).expect("strings serialize") }
}

fn is_plain(text: &str) -> bool {
    const RESERVED: [&str; 12] = ["true", "false", "yes", "no", "on", "off", "null", "~", "y", "n", "", "-"];
    let Some(first) = text.chars().next() else { return false };
    !RESERVED.contains(&text.to_ascii_lowercase().as_str())
        && !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        && !first.is_whitespace()
        && !text.ends_with(char::is_whitespace)
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.ends_with(':')
        && !text.chars().any(|c| c.is_control())
        && text.parse::<f64>().is_err()
        && !looks_numeric(text)
}

/// YAML 1.1 readers take `0x1F`, `1_000`, `.5` or `1e3` as numbers.
fn looks_numeric(text: &str) -> bool {
    let digits = text.trim_start_matches(['+', '-']);
    digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && digits.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn writes_block_yaml_that_reads_back_the_same() {
        let value = json!({
            "name": "recover",
            "description": "Fix it: now, or # later",
            "tools": ["Read", "Grep"],
            "count": 3,
            "flag": true,
            "version": "1.0",
            "nested": {"a": "yes", "list": [{"k": "v", "n": 1}]},
            "empty": [],
            "multi": "line one\nline two",
        });
        let text = document(&map(value.clone()));
        let parsed = crate::source::parse_document("x.md", &format!("---\n{text}---\n")).unwrap();
        assert_eq!(Value::Object(parsed.frontmatter.unwrap()), value, "{text}");
        assert!(text.contains("name: recover\n"), "{text}");
        assert!(text.contains("tools:\n  - Read\n  - Grep\n"), "{text}");
    }

    #[test]
    fn quotes_what_would_change_meaning() {
        for text in ["true", "No", "1.0", "0x1F", "[x]", "a: b", "", " lead", "#c", "null"] {
            assert!(scalar_text(text).starts_with('"'), "{text:?}");
        }
        assert_eq!(scalar_text("plain words"), "plain words");
    }
}
