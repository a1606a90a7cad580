//! YAML output for frontmatter and small documents (`plugin.yaml`): block
//! style, plain scalars where unambiguous, JSON-style double quotes otherwise.

use serde_json::{Map, Value};

/// `---\n<map>---\n<body>`: Markdown with frontmatter. The file is
/// generated, so its body has no BOM and LF line endings whatever the
/// source file it came from.
pub fn frontmatter(map: &Map<String, Value>, body: &str) -> String {
    format!("---\n{}---\n{}", document(map), crate::text::normalised(body))
}

/// A mapping as a YAML document (no `---`), ending in a newline.
pub fn document(map: &Map<String, Value>) -> String {
    let mut out = String::new();
    write_map(&mut out, map, 0);
    out
}

/// The longest key written as `key:`, under YAML's 1024-character limit
/// for implicit keys with room for the `: `.
const MAX_IMPLICIT_KEY: usize = 1000;

fn write_map(out: &mut String, map: &Map<String, Value>, indent: usize) {
    for (key, value) in map {
        write_entry(out, key, value, indent);
    }
}

/// One `key: value` entry of a block mapping at `indent`, as [`document`]
/// writes each: a writer with thousands of entries writes them as they
/// come, with no map of them all.
pub fn write_entry(out: &mut String, key: &str, value: &Value, indent: usize) {
    let key = scalar_text(key);
    out.push_str(&" ".repeat(indent));
    if key.chars().count() > MAX_IMPLICIT_KEY {
        // YAML reads `key:` only when the key is at most 1024
        // characters; a longer one (an escaped key grows sixfold) is
        // written as an explicit `? key` / `: value` pair.
        out.push_str("? ");
        out.push_str(&key);
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    } else {
        out.push_str(&key);
    }
    out.push(':');
    write_value(out, value, indent);
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
    if is_plain(text) { text.to_string() } else { quoted(text) }
}

/// A double-quoted scalar. JSON leaves DEL, the C1 controls and the Unicode
/// line separators raw; YAML readers refuse the first two (PyYAML: "special
/// characters are not allowed") and fold the others, so they are escaped.
fn quoted(text: &str) -> String {
    let json = serde_json::to_string(text).expect("strings serialize");
    if !json.chars().any(is_break_or_control) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if is_break_or_control(c) {
            out.push_str(&format!("\\u{:04X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn is_plain(text: &str) -> bool {
    // YAML 1.1 (PyYAML, js-yaml's default schema) reads these as booleans,
    // null, the merge key or the value key; case varies (`YES`, `Off`, `NULL`).
    const RESERVED: [&str; 16] = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", "", "-", "<<", "=", ".nan", ".inf",
    ];
    let Some(first) = text.chars().next() else { return false };
    !RESERVED.contains(&text.to_ascii_lowercase().as_str())
        && !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        && !first.is_whitespace()
        && !text.ends_with(char::is_whitespace)
        && !text.contains(": ")
        && !text.contains(" #")
        // Flow indicators are plain text in a block scalar, but they end a
        // scalar inside a flow collection and the reader's nesting bound
        // counts them: quoted, every reader takes them as text.
        && !text.contains(['[', ']', '{', '}'])
        && !text.ends_with(':')
        && !text.chars().any(is_break_or_control)
        && text.parse::<f64>().is_err()
        && !looks_numeric(text)
        && !looks_like_timestamp(text)
}

/// Control characters, and the characters YAML 1.1 reads as line breaks
/// (NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR) or drops (a byte order mark).
fn is_break_or_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
}

/// YAML 1.1 readers take `0x1F`, `0o17`, `0b101`, `1_000`, `.5`, `1e+3`,
/// `1.10`, `.inf` or sexagesimal `1:20` as numbers. Any such run of digits,
/// letters and number punctuation after an optional sign is quoted: a few
/// more strings quoted than needed, none retyped.
fn looks_numeric(text: &str) -> bool {
    let digits = text.trim_start_matches(['+', '-']);
    digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && digits.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':' | '+' | '-'))
}

/// `2024-01-01`, `2024-1-1 10:00:00`, `2001-12-14t21:59:43.10-05:00`: YAML
/// 1.1 timestamps, which PyYAML and js-yaml turn into dates.
fn looks_like_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 8
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4] == b'-'
        && text.chars().all(|c| c.is_ascii_digit() || "-:.+TtZz \t".contains(c))
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

    /// Every scalar a YAML 1.1 reader (PyYAML, js-yaml) would read as
    /// something other than the same string, by what it would become.
    const RETYPED_BY_YAML_1_1: &[(&str, &str)] = &[
        ("2024-01-01", "date"),
        ("2024-1-1", "date"),
        ("2001-12-14t21:59:43.10-05:00", "timestamp"),
        ("2001-12-14 21:59:43.10 -5", "timestamp"),
        ("2024-01-01T10:00:00Z", "timestamp"),
        ("yes", "bool"),
        ("Yes", "bool"),
        ("YES", "bool"),
        ("no", "bool"),
        ("NO", "bool"),
        ("on", "bool"),
        ("On", "bool"),
        ("OFF", "bool"),
        ("off", "bool"),
        ("y", "bool"),
        ("Y", "bool"),
        ("n", "bool"),
        ("N", "bool"),
        ("True", "bool"),
        ("FALSE", "bool"),
        ("1", "int"),
        ("-1", "int"),
        ("+1", "int"),
        ("1.10", "float"),
        ("1.0", "float"),
        ("0x1F", "int"),
        ("0X1f", "int"),
        ("1_000", "int"),
        ("0o17", "int"),
        ("017", "int"),
        ("0b1010", "int"),
        ("1:20", "sexagesimal int"),
        ("190:20:30.15", "sexagesimal float"),
        (".inf", "float"),
        ("-.inf", "float"),
        ("+.INF", "float"),
        (".Inf", "float"),
        (".nan", "float"),
        (".NaN", "float"),
        (".5", "float"),
        ("1e3", "float"),
        ("1e+3", "float"),
        ("6.8523015e+5", "float"),
        ("685.230_15e+03", "float"),
        ("null", "null"),
        ("Null", "null"),
        ("NULL", "null"),
        ("~", "null"),
        ("", "null"),
        ("<<", "merge key"),
        ("=", "value key"),
        (" leading space", "trimmed"),
        ("trailing space ", "trimmed"),
        ("tab\tinside", "control"),
        ("del\u{7f}", "control"),
        ("nel\u{85}inside", "line break"),
        ("line\u{2028}separator", "line break"),
        ("bom\u{feff}", "dropped"),
    ];

    #[test]
    fn quotes_every_scalar_yaml_1_1_would_retype() {
        for (text, becomes) in RETYPED_BY_YAML_1_1 {
            let written = scalar_text(text);
            assert!(written.starts_with('"'), "{text:?} (a {becomes} in YAML 1.1) written as {written}");
            let parsed = crate::source::parse_document("x.md", &format!("---\nk: {written}\n---\n")).unwrap();
            let value = parsed.frontmatter.unwrap().remove("k");
            assert_eq!(value, Some(Value::String(text.to_string())), "{text:?} written as {written}");
        }
    }

    #[test]
    fn escapes_what_yaml_readers_refuse_raw_even_when_quoted() {
        assert_eq!(scalar_text("del\u{7f}"), "\"del\\u007F\"");
        assert_eq!(scalar_text("c1\u{9f}"), "\"c1\\u009F\"");
        assert_eq!(scalar_text("line\u{2028}separator"), "\"line\\u2028separator\"");
    }

    #[test]
    fn keeps_ordinary_words_plain() {
        for text in [
            "recover",
            "Read, Grep",
            "v1.0",
            "claude-opus-4",
            "say-yes",
            "no-op",
            "on-call",
            "a:b",
            "1st place",
        ] {
            assert_eq!(scalar_text(text), *text, "{text:?}");
        }
    }
}
