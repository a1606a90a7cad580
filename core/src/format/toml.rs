//! TOML output (Gemini commands, Codex agents and config): scalars and
//! arrays first, then tables; multi-line strings as literal blocks.

use serde_json::{Map, Value};

/// A table as a TOML document, ending in a newline.
pub fn document(table: &Map<String, Value>) -> String {
    let mut out = String::new();
    write_table(&mut out, table, &[]);
    out
}

/// One table placed at `path` of a larger document (`[a.b]` and its
/// content, nested tables as `[a.b.c]`), without headers for its parents:
/// a file that already defines `[a]` stays valid.
pub fn table(path: &[String], table: &Map<String, Value>) -> String {
    let header = path.iter().map(|k| key_text(k)).collect::<Vec<_>>().join(".");
    let mut out = format!("[{header}]\n");
    write_table(&mut out, table, path);
    out
}

fn is_table(value: &Value) -> bool {
    value.is_object()
}

fn is_table_array(value: &Value) -> bool {
    matches!(value, Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object))
}

fn write_table(out: &mut String, table: &Map<String, Value>, path: &[String]) {
    for (key, value) in table.iter().filter(|(_, v)| !is_table(v) && !is_table_array(v) && !v.is_null()) {
        out.push_str(&format!("{} = {}\n", key_text(key), inline(value)));
    }
    for (key, value) in table {
        let mut nested = path.to_vec();
        nested.push(key.clone());
        let header = nested.iter().map(|k| key_text(k)).collect::<Vec<_>>().join(".");
        match value {
            Value::Object(inner) => {
                separate(out);
                out.push_str(&format!("[{header}]\n"));
                write_table(out, inner, &nested);
            }
            Value::Array(items) if is_table_array(value) => {
                for item in items {
                    separate(out);
                    out.push_str(&format!("[[{header}]]\n"));
                    write_table(out, item.as_object().expect("checked"), &nested);
                }
            }
            _ => {}
        }
    }
}

fn separate(out: &mut String) {
    if !out.is_empty() && !out.ends_with("\n\n") {
        out.push('\n');
    }
}

fn key_text(key: &str) -> String {
    let bare = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if bare { key.to_string() } else { basic(key) }
}

fn inline(value: &Value) -> String {
    match value {
        Value::String(s) => string(s),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter(|v| !v.is_null()).map(inline).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| format!("{} = {}", key_text(k), inline(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        Value::Null => "\"\"".into(),
    }
}

/// Multi-line text as a literal block (no escapes to get wrong) when it can
/// be one, else a basic string.
fn string(text: &str) -> String {
    let literal_safe =
        !text.contains("'''") && !text.chars().any(|c| c.is_control() && c != '\n' && c != '\t');
    if text.contains('\n') && literal_safe {
        // TOML trims a newline right after the opening quotes, and reads up to
        // two quotes before the closing ones as content.
        format!("'''\n{text}'''")
    } else {
        basic(text)
    }
}

/// A basic string: JSON's escapes are TOML's. JSON leaves DEL (U+007F) and
/// the C1 controls as they are; TOML refuses DEL raw, so every control
/// character JSON left is escaped too.
fn basic(text: &str) -> String {
    let json = serde_json::to_string(text).expect("strings serialize");
    if !json.chars().any(char::is_control) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{:04X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_scalars_then_tables() {
        let value = json!({
            "description": "Say \"hi\"",
            "prompt": "Line one\nwith {{args}}\n",
            "tags": ["a", "b"],
            "mcp_servers": {"srv": {"command": "node", "args": ["x.js"]}},
        });
        let text = document(value.as_object().unwrap());
        assert_eq!(
            text,
            "description = \"Say \\\"hi\\\"\"\nprompt = '''\nLine one\nwith {{args}}\n'''\ntags = [\"a\", \"b\"]\n\n\
             [mcp_servers]\n\n[mcp_servers.srv]\ncommand = \"node\"\nargs = [\"x.js\"]\n"
        );
    }

    #[test]
    fn writes_one_table_below_its_parents() {
        let server = json!({"command": "./bin/d", "args": ["--root", "."], "env": {"A": "b"}});
        let path = vec!["mcp_servers".to_string(), "deploy.er".to_string()];
        assert_eq!(
            table(&path, server.as_object().unwrap()),
            "[mcp_servers.\"deploy.er\"]\ncommand = \"./bin/d\"\nargs = [\"--root\", \".\"]\n\n\
             [mcp_servers.\"deploy.er\".env]\nA = \"b\"\n"
        );
    }

    #[test]
    fn escapes_every_control_character_toml_refuses_raw() {
        let cases: &[(&str, &str)] = &[
            ("del\u{7f}", "\"del\\u007F\""),
            ("nul\u{0}", "\"nul\\u0000\""),
            ("bell\u{7}", "\"bell\\u0007\""),
            ("esc\u{1b}", "\"esc\\u001b\""),
            ("tab\tx", "\"tab\\tx\""),
            ("cr\rx", "\"cr\\rx\""),
            ("nel\u{85}", "\"nel\\u0085\""),
            ("two\nlines\u{7f}", "\"two\\nlines\\u007F\""),
        ];
        for (text, written) in cases {
            assert_eq!(string(text), *written, "{text:?}");
            let parsed: toml::Table = toml::from_str(&format!("k = {written}")).expect(written);
            assert_eq!(parsed["k"].as_str(), Some(*text), "{text:?}");
        }
    }

    #[test]
    fn falls_back_to_basic_strings_when_literal_cannot_hold_the_text() {
        assert_eq!(string("has ''' inside\nx"), "\"has ''' inside\\nx\"");
        assert_eq!(string("ends with quote'\n'"), "'''\nends with quote'\n''''");
    }
}
