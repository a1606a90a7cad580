//! One parsed JSON manifest (or marketplace) and the checks every runtime's
//! rules share: JSON shapes, URLs, relative paths, unknown keys with the
//! look-alike that was meant.

use serde_json::{Map, Value};

use super::findings::Sink;
use super::folder::Folder;
use super::manifest_rules::INVALID_FIELD;
use super::rule::Rule;
use crate::error::Location;
use crate::registry::Runtime;

/// The JSON manifest `rel` as an object: `None` when it is absent, does not
/// parse (reported as file/invalid-json) or is not an object (reported).
pub(crate) fn read_object(
    folder: Folder<'_>,
    rel: &str,
    runtime: Runtime,
    sink: &mut Sink,
) -> Option<Map<String, Value>> {
    match folder.json(rel, sink)? {
        Value::Object(map) => Some(map),
        other => {
            let message = format!("the manifest is {}, not an object", describe(&other));
            sink.report(&super::manifest_rules::NOT_AN_OBJECT, Some(runtime), Some(folder.at(rel)), message);
            None
        }
    }
}

/// A parsed object document of a subject, with findings located at the line
/// of the top-level key they are about.
#[derive(Clone, Copy)]
pub(crate) struct Doc<'a> {
    pub folder: Folder<'a>,
    /// The file, relative to the subject.
    pub rel: &'a str,
    pub runtime: Runtime,
    pub map: &'a Map<String, Value>,
    /// The rule a value of the wrong shape breaks.
    pub invalid_field: &'static Rule,
}

impl<'a> Doc<'a> {
    /// A manifest: wrong shapes break `manifest/invalid-field`.
    pub fn new(folder: Folder<'a>, rel: &'a str, runtime: Runtime, map: &'a Map<String, Value>) -> Self {
        Doc { folder, rel, runtime, map, invalid_field: &INVALID_FIELD }
    }

    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    /// The line of the top-level key `field` starts with (`author.name` ->
    /// `author`), or the file alone.
    pub fn at(&self, field: &str) -> Location {
        let key = field.split(['.', '[']).next().unwrap_or(field);
        if key.is_empty() { self.folder.at(self.rel) } else { self.folder.at_key(self.rel, key) }
    }

    pub fn report(&self, sink: &mut Sink, rule: &'static Rule, field: &str, message: impl Into<String>) {
        sink.report(rule, Some(self.runtime), Some(self.at(field)), message);
    }

    /// Reports `manifest/invalid-field` unless `value` has `shape`.
    pub fn expect(&self, sink: &mut Sink, field: &str, value: &Value, shape: Shape) -> bool {
        let ok = shape.accepts(value);
        if !ok {
            let message = format!("{field}: expected {}, found {}", shape.describe(), describe(value));
            self.report(sink, self.invalid_field, field, message);
        }
        ok
    }

    /// Checks the shape of each present top-level field.
    pub fn expect_fields(&self, sink: &mut Sink, fields: &[(&str, Shape)]) {
        for (key, shape) in fields {
            if let Some(value) = self.get(key) {
                self.expect(sink, key, value, *shape);
            }
        }
    }

    /// `field` as a string when present and a string (others reported).
    pub fn str_field(&self, sink: &mut Sink, field: &str) -> Option<&'a str> {
        let value = self.get(field)?;
        if self.expect(sink, field, value, Shape::Str) { value.as_str() } else { None }
    }
}

/// A JSON shape a schema asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Str,
    Bool,
    Object,
    Array,
    StrList,
    StrOrStrList,
    StrOrObject,
}

impl Shape {
    pub fn accepts(self, value: &Value) -> bool {
        let all_strings = |v: &Value| v.as_array().is_some_and(|items| items.iter().all(Value::is_string));
        match self {
            Shape::Str => value.is_string(),
            Shape::Bool => value.is_boolean(),
            Shape::Object => value.is_object(),
            Shape::Array => value.is_array(),
            Shape::StrList => all_strings(value),
            Shape::StrOrStrList => value.is_string() || all_strings(value),
            Shape::StrOrObject => value.is_string() || value.is_object(),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Shape::Str => "a string",
            Shape::Bool => "true or false",
            Shape::Object => "an object",
            Shape::Array => "an array",
            Shape::StrList => "an array of strings",
            Shape::StrOrStrList => "a string or an array of strings",
            Shape::StrOrObject => "a string or an object",
        }
    }
}

/// What a JSON value is, for messages.
pub(crate) fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(items) if items.iter().all(Value::is_string) => "an array of strings",
        Value::Array(_) => "an array holding non-strings",
        Value::Object(_) => "an object",
    }
}

/// Whether `text` parses as an absolute URL the way the WHATWG URL parser
/// (`new URL()`, zod's `z.url()`) accepts it: a scheme, and for the special
/// schemes a non-empty host without forbidden characters.
pub(crate) fn is_url(text: &str) -> bool {
    let text = text.trim_matches(|c: char| c <= ' ');
    let Some((scheme, rest)) = text.split_once(':') else { return false };
    let mut chars = scheme.chars();
    let scheme_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    if !scheme_ok {
        return false;
    }
    if !["http", "https", "ws", "wss", "ftp"].contains(&scheme.to_ascii_lowercase().as_str()) {
        return true;
    }
    let authority = rest.trim_start_matches(['/', '\\']);
    let authority = authority.split(['/', '\\', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    // An IPv6 literal `[...]` is taken as it is; any other host must be
    // non-empty and free of the characters WHATWG forbids in hosts.
    let (host_ok, port) = match host_port.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((_, port)) => (true, port.strip_prefix(':').unwrap_or(port)),
            None => return false,
        },
        None => {
            let (host, port) = host_port.split_once(':').unwrap_or((host_port, ""));
            (!host.is_empty() && !host.chars().any(|c| c <= ' ' || "#%/:<>?@[\\]^|".contains(c)), port)
        }
    };
    host_ok && port.chars().all(|c| c.is_ascii_digit())
}

/// Why a manifest path is not a clean relative path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PathProblem {
    /// `/x`, `C:\x` or `~/x`.
    Absolute,
    /// A `..` segment.
    Escapes,
}

/// `path` relative to the plugin root, without `./` and trailing slashes
/// ("" = the root itself).
pub(crate) fn relative_path(path: &str) -> Result<String, PathProblem> {
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if path.starts_with(['/', '\\', '~']) || drive {
        return Err(PathProblem::Absolute);
    }
    let mut parts = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => return Err(PathProblem::Escapes),
            part => parts.push(part),
        }
    }
    Ok(parts.join("/"))
}

/// Whether `rel` (a clean relative path) names a file or a folder of the
/// plugin.
pub(crate) fn path_exists(folder: Folder<'_>, rel: &str) -> bool {
    rel.is_empty() || folder.exists(rel) || folder.has_dir(rel)
}

/// The known key `key` was probably meant as: same letters ignoring case
/// and `_`/`-`, or at most two edits away.
pub(crate) fn look_alike<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let fold = |s: &str| s.chars().filter(|c| *c != '_' && *c != '-').collect::<String>().to_lowercase();
    let folded = fold(key);
    if let Some(hit) = known.iter().find(|k| fold(k) == folded) {
        return Some(hit);
    }
    if key.chars().count() < 4 || key.len() > 64 {
        return None;
    }
    known
        .iter()
        .copied()
        .filter(|k| edit_distance(&folded, &fold(k)) <= 2)
        .min_by_key(|k| edit_distance(&folded, &fold(k)))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_follow_the_whatwg_parser() {
        for ok in [
            "https://x",
            "ftp://x",
            "x:y",
            "mailto:a@b.c",
            "localhost:3000",
            "https://x.com/a b",
            "file:///tmp",
            "http://[::1]:80/",
        ] {
            assert!(is_url(ok), "{ok}");
        }
        for bad in ["http://", "https://exa mple.com", "//x.com", "", "example.com", "https://x:port"] {
            assert!(!is_url(bad), "{bad}");
        }
    }

    #[test]
    fn relative_paths_are_cleaned_or_refused() {
        assert_eq!(relative_path("./skills/"), Ok("skills".into()));
        assert_eq!(relative_path("./"), Ok(String::new()));
        assert_eq!(relative_path("./a/../b"), Err(PathProblem::Escapes));
        assert_eq!(relative_path("/etc"), Err(PathProblem::Absolute));
        assert_eq!(relative_path("C:\\x"), Err(PathProblem::Absolute));
    }

    #[test]
    fn look_alikes_fold_case_and_separators() {
        let known = ["userConfig", "mcpServers", "author", "displayName"];
        assert_eq!(look_alike("user_config", &known), Some("userConfig"));
        assert_eq!(look_alike("author2", &known), Some("author"));
        assert_eq!(look_alike("displayname", &known), Some("displayName"));
        assert_eq!(look_alike("mcp", &known), None);
        assert_eq!(look_alike("zzzzzz", &known), None);
    }
}
