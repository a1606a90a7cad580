//! Markdown with YAML frontmatter, parsed by a real YAML parser so values
//! keep their meaning (`argument-hint: [name]` is a list, not a string).

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

use crate::error::{Error, ErrorCode, Location, Result};

/// A Markdown document split into its frontmatter and body.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// `None` when the file has no frontmatter block at all.
    pub frontmatter: Option<Map<String, Value>>,
    /// The text after the closing `---` line.
    pub body: String,
}

impl Document {
    pub fn field(&self, key: &str) -> Option<&Value> {
        self.frontmatter.as_ref()?.get(key)
    }

    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.field(key)?.as_str()
    }

    /// A command's `argument-hint` on one line, `[a] [b]` also when YAML read
    /// the unquoted `[a] [b]`... as a list.
    pub fn argument_hint(&self) -> Option<String> {
        let hint = match self.field("argument-hint")? {
            Value::String(s) => s.clone(),
            Value::Array(items) => items
                .iter()
                .map(|i| format!("[{}]", i.as_str().map_or_else(|| i.to_string(), str::to_string)))
                .collect::<Vec<_>>()
                .join(" "),
            other => other.to_string(),
        };
        Some(hint).filter(|h| !h.is_empty())
    }
}

/// Parses `text` (the content of `file`) into frontmatter + body.
/// A byte order mark and CRLF line endings are read as if absent, and the
/// body has neither.
pub fn parse_document(file: &str, text: &str) -> Result<Document> {
    let text = crate::text::normalised(text);
    let text = text.as_ref();
    let Some((yaml, body, first_line)) = split(text) else {
        return Ok(Document { frontmatter: None, body: text.to_string() });
    };
    // The YAML reader and the conversion below recurse once a level: a
    // frontmatter nested past the bound is refused before either runs.
    if let Some((line, column)) = crate::limits::too_deep_yaml(yaml) {
        return Err(Error::at(
            ErrorCode::Limit,
            Location::at(file, first_line + line - 1, column),
            format!("YAML nested deeper than {} levels", crate::limits::MAX_JSON_DEPTH),
        ));
    }
    let docs = YamlLoader::load_from_str(yaml).map_err(|e| {
        let marker = e.marker();
        Error::at(
            ErrorCode::InvalidSource,
            Location::at(file, first_line + marker.line().saturating_sub(1), marker.col() + 1),
            format!("invalid YAML frontmatter: {}", e.info()),
        )
    })?;
    let map = match docs.into_iter().next() {
        None | Some(Yaml::Null) => Map::new(),
        Some(Yaml::Hash(hash)) => {
            let mut map = Map::new();
            for (key, value) in hash {
                map.insert(key_string(&key), to_json(value));
            }
            map
        }
        Some(_) => {
            return Err(Error::at(
                ErrorCode::InvalidSource,
                Location::at(file, first_line, 1),
                "frontmatter must be a mapping of keys to values",
            ));
        }
    };
    Ok(Document { frontmatter: Some(map), body: body.to_string() })
}

/// A whole YAML document (its first document) as a JSON value: how shared
/// YAML files such as Hermes's `config.yaml` are read before a merge. An
/// empty document is `null`.
pub(crate) fn yaml_value(text: &str) -> std::result::Result<Value, String> {
    if let Some((line, column)) = crate::limits::too_deep_yaml(text) {
        let most = crate::limits::MAX_JSON_DEPTH;
        return Err(format!("limit: YAML nested deeper than {most} levels at line {line} column {column}"));
    }
    let docs = YamlLoader::load_from_str(&crate::text::normalised(text)).map_err(|e| {
        format!("invalid YAML at line {} column {}: {}", e.marker().line(), e.marker().col() + 1, e.info())
    })?;
    Ok(docs.into_iter().next().map_or(Value::Null, to_json))
}

/// Returns (yaml text, body, 1-based line of the first YAML line).
fn split(text: &str) -> Option<(&str, &str, usize)> {
    let rest = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == "---" {
            return Some((&rest[..offset], &rest[offset + line.len()..], 2));
        }
        offset += line.len();
    }
    if rest[offset..].trim_end() == "---" { Some((&rest[..offset], "", 2)) } else { None }
}

fn key_string(key: &Yaml) -> String {
    match key {
        Yaml::String(s) | Yaml::Real(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        _ => String::from("~"),
    }
}

fn to_json(value: Yaml) -> Value {
    match value {
        Yaml::String(s) => Value::String(s),
        Yaml::Integer(i) => Value::Number(i.into()),
        Yaml::Real(s) => {
            s.parse::<f64>().ok().and_then(Number::from_f64).map_or(Value::String(s), Value::Number)
        }
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Array(items) => Value::Array(items.into_iter().map(to_json).collect()),
        Yaml::Hash(hash) => {
            Value::Object(hash.into_iter().map(|(k, v)| (key_string(&k), to_json(v))).collect())
        }
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_nested_past_the_limit_is_a_limit_error_not_a_crash() {
        let text = format!("---\nname: deep\ndescription: {}\n---\nBody.\n", "[".repeat(200_000));
        let error = parse_document("skills/deep/SKILL.md", &text).unwrap_err();
        assert_eq!(error.code, ErrorCode::Limit);
        assert_eq!(
            error.location(),
            Some(&Location::at("skills/deep/SKILL.md", 3, 13 + crate::limits::MAX_JSON_DEPTH))
        );
        assert!(
            yaml_value(&format!("a: {}", "{".repeat(200_000)))
                .unwrap_err()
                .starts_with("limit: YAML nested deeper than 100 levels")
        );
    }

    #[test]
    fn a_bom_and_crlf_keep_the_frontmatter_and_leave_the_body_plain() {
        let text = "\u{feff}---\r\nname: deploy\r\ndescription: Deploys.\r\n---\r\n# Deploy\r\n\r\nGo.\r\n";
        let document = parse_document("skills/deploy/SKILL.md", text).unwrap();
        assert_eq!(document.str_field("name"), Some("deploy"));
        assert_eq!(document.str_field("description"), Some("Deploys."));
        assert_eq!(document.body, "# Deploy\n\nGo.\n");
        let error = parse_document("x.md", "\u{feff}---\r\nname: [\r\n---\r\n").unwrap_err();
        assert_eq!(error.location().unwrap().line, Some(3), "{error}");
    }

    #[test]
    fn parses_frontmatter_with_real_yaml_types() {
        let doc =
            parse_document("c.md", "---\ndescription: Go\nargument-hint: [name]\n---\nBody $ARGUMENTS\n")
                .unwrap();
        assert_eq!(doc.str_field("description"), Some("Go"));
        assert_eq!(doc.field("argument-hint"), Some(&serde_json::json!(["name"])));
        assert_eq!(doc.body, "Body $ARGUMENTS\n");
    }

    #[test]
    fn argument_hints_read_as_lists_print_as_brackets() {
        let listed = parse_document("c.md", "---\nargument-hint: [name]\n---\n").unwrap();
        assert_eq!(listed.argument_hint().as_deref(), Some("[name]"));
        let quoted = parse_document("c.md", "---\nargument-hint: \"<run-id> <job-id>\"\n---\n").unwrap();
        assert_eq!(quoted.argument_hint().as_deref(), Some("<run-id> <job-id>"));
        assert_eq!(parse_document("c.md", "x").unwrap().argument_hint(), None);
    }

    #[test]
    fn no_frontmatter_is_not_an_error() {
        let doc = parse_document("c.md", "# Title\n").unwrap();
        assert!(doc.frontmatter.is_none());
        assert_eq!(doc.body, "# Title\n");
    }

    #[test]
    fn yaml_errors_point_at_the_file_line() {
        let err =
            parse_document("commands/x.md", "---\ndescription: ok\nbad: [unclosed\n---\nbody\n").unwrap_err();
        let loc = err.location().unwrap();
        assert_eq!(loc.file, "commands/x.md");
        assert!(matches!(loc.line, Some(3) | Some(4)), "{err}");
        assert!(err.message().contains("invalid YAML frontmatter"));
    }

    #[test]
    fn reads_a_whole_yaml_document() {
        let value = yaml_value("model: x\nmcp_servers:\n  a:\n    args: [-y, 1]\n").unwrap();
        assert_eq!(value, serde_json::json!({"model": "x", "mcp_servers": {"a": {"args": ["-y", 1]}}}));
        assert_eq!(yaml_value("").unwrap(), Value::Null);
        assert!(yaml_value("a: [unclosed\n").unwrap_err().contains("invalid YAML"));
    }

    #[test]
    fn scalar_frontmatter_is_refused() {
        let err = parse_document("a.md", "---\njust text\n---\n").unwrap_err();
        assert!(err.message().contains("must be a mapping"));
    }
}
