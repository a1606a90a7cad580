//! Markdown with YAML frontmatter, parsed by a real YAML parser so values
//! keep their meaning (`argument-hint: [name]` is a list, not a string).

use serde_json::{Map, Value};
use yaml_rust2::{Yaml, YamlLoader};

use super::yaml_read::{Root, first_document};

use crate::error::{Error, ErrorCode, Location, Result};

/// A Markdown document split into its frontmatter and body.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// `None` when the file has no frontmatter block at all.
    pub frontmatter: Option<Map<String, Value>>,
    /// The text after the closing `---` line.
    pub body: String,
    /// Set when the frontmatter is not valid YAML as written but reads once
    /// its values are quoted the way Claude Code's loader quotes them, or
    /// once the lines of a multi-line flow collection are indented past
    /// their key (as PyYAML, js-yaml 4 and Claude Code's parser read them).
    pub quoted: Option<Box<QuotedFrontmatter>>,
}

/// Frontmatter read only after quoting or re-indenting: what was wrong,
/// what changed, and the file as it reads (so bundles carry YAML every
/// reader accepts).
#[derive(Debug, Clone)]
pub struct QuotedFrontmatter {
    /// The strict YAML error, at its line in the file.
    pub error: Error,
    /// `(line in the file, key)` of each value that was quoted.
    pub keys: Vec<(usize, String)>,
    /// Lines in the file of a multi-line `[...]` or `{...}` value that were
    /// indented past the key holding it.
    pub indented: Vec<usize>,
    /// The whole file with the quoted frontmatter.
    pub text: String,
}

impl QuotedFrontmatter {
    /// What is wrong and how the runtimes read it anyway; each reader adds
    /// what follows for it.
    pub fn message(&self) -> String {
        let problem = self.error.problems.first().map_or("", |p| p.message.as_str());
        let at = self.error.location().map_or_else(String::new, |l| format!(" at {l}"));
        let mut readings = Vec::new();
        if !self.indented.is_empty() {
            let lines: Vec<String> = self.indented.iter().map(usize::to_string).collect();
            let s = if lines.len() == 1 { "" } else { "s" };
            readings.push(format!(
                "PyYAML, js-yaml 4 and Claude Code read it with line{s} {} of a multi-line list or \
                 mapping indented past its key",
                lines.join(", ")
            ));
        }
        if !self.keys.is_empty() || self.indented.is_empty() {
            let keys: Vec<String> =
                self.keys.iter().map(|(line, key)| format!("`{key}` (line {line})")).collect();
            let keys = if keys.is_empty() { "its leading tabs".to_string() } else { keys.join(", ") };
            readings.push(format!("Claude Code reads it with {keys} quoted"));
        }
        format!("the frontmatter is not valid YAML ({problem}{at}); {}", readings.join("; "))
    }

    /// The line of the first quoted value or indented line, else of the
    /// strict error.
    pub fn line(&self) -> Option<usize> {
        let first_key = self.keys.first().map(|(line, _)| *line);
        let first_indented = self.indented.first().copied();
        match (first_key, first_indented) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b).or_else(|| self.error.location().and_then(|l| l.line)),
        }
    }

    /// How the text was changed (`quoted`, `indented`) and how to make the
    /// source valid YAML as it reads.
    pub fn change_and_fix(&self) -> (&'static str, &'static str) {
        match (self.keys.is_empty(), self.indented.is_empty()) {
            (_, true) => ("quoted", "quote it in the source"),
            (true, false) => ("indented", "indent those lines past their key in the source"),
            (false, false) => {
                ("quoted and indented", "quote it and indent those lines past their key in the source")
            }
        }
    }
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
        return Ok(Document { frontmatter: None, body: text.to_string(), quoted: None });
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
    if let Some((line, column)) = crate::limits::yaml_aliases_expand_too_far(yaml) {
        return Err(Error::at(
            ErrorCode::Limit,
            Location::at(file, first_line + line - 1, column),
            format!("YAML aliases expand past {} nodes", crate::limits::MAX_YAML_ALIAS_NODES),
        ));
    }
    if let Some((line, column)) = crate::limits::frontmatter_too_large(yaml) {
        return Err(Error::at(
            ErrorCode::Limit,
            Location::at(file, first_line + line - 1, column),
            format!("frontmatter with more than {} keys and values", crate::limits::MAX_FRONTMATTER_NODES),
        ));
    }
    let strict = match mapping(file, yaml, first_line) {
        Ok(map) => return Ok(Document { frontmatter: Some(map), body: body.to_string(), quoted: None }),
        Err(error) => error,
    };
    // Authors close a multi-line `[...]` under its key (`tools: [` ... `]`
    // at the key's column). The YAML spec wants flow lines indented past
    // the key, and yaml-rust2 (like js-yaml 5) refuses them, but PyYAML,
    // js-yaml 4 and Claude Code's parser (Bun's YAML) read them; inside
    // `[...]` and `{...}` indentation carries no meaning, so indenting
    // those lines reads the values those parsers read.
    let (yaml_indented, indented) = flow_reindented(yaml).unwrap_or_else(|| (yaml.to_string(), Vec::new()));
    let indented: Vec<usize> = indented.into_iter().map(|index| first_line + index).collect();
    let reading = |text: &str, keys: Vec<(usize, String)>, map| Document {
        frontmatter: Some(map),
        body: body.to_string(),
        quoted: Some(Box::new(QuotedFrontmatter {
            error: strict.clone(),
            keys,
            indented: indented.clone(),
            text: format!("---\n{text}---\n{body}"),
        })),
    };
    if !indented.is_empty()
        && let Ok(map) = mapping(file, &yaml_indented, first_line)
    {
        return Ok(reading(&yaml_indented, Vec::new(), map));
    }
    // Authors write `description: Use this when: ...` unquoted, and Claude
    // Code loads such files: on a YAML error it quotes each plain value that
    // holds YAML syntax and reads again. Reading them the same way keeps the
    // plugins it loads buildable; only the quoted reading is ever written.
    let Some((quoted_yaml, keys)) = claude_quoted(&yaml_indented) else { return Err(strict) };
    let Ok(map) = mapping(file, &quoted_yaml, first_line) else { return Err(strict) };
    let keys = keys.into_iter().map(|(index, key)| (first_line + index, key)).collect();
    Ok(reading(&quoted_yaml, keys, map))
}

/// The lines of multi-line flow collections (`[...]`, `{...}`) that the
/// YAML reader refuses as indented no further than the block holding the
/// collection, moved one column past where that block's line starts
/// (further if the reader still refuses them). Returns the text and the 0-based index
/// of each moved line; `None` when no such line is in the way, or moving
/// one does not get past it.
fn flow_reindented(yaml: &str) -> Option<(String, Vec<usize>)> {
    use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
    use yaml_rust2::scanner::Marker;

    /// The collections open where the reader stopped: (column, 1-based
    /// line) of each.
    #[derive(Default)]
    struct Open(Vec<(usize, usize)>);
    impl MarkedEventReceiver for Open {
        fn on_event(&mut self, event: Event, mark: Marker) {
            match event {
                Event::SequenceStart(..) | Event::MappingStart(..) => self.0.push((mark.col(), mark.line())),
                Event::SequenceEnd | Event::MappingEnd => {
                    self.0.pop();
                }
                _ => {}
            }
        }
    }
    if crate::limits::too_deep_yaml(yaml).is_some() || !yaml.contains(['[', '{']) {
        return None;
    }
    let mut lines: Vec<String> = yaml.split('\n').map(str::to_string).collect();
    let mut moved: Vec<usize> = Vec::new();
    for _ in 0..=lines.len() {
        let text = lines.join("\n");
        let mut open = Open::default();
        let Err(error) = Parser::new_from_str(&text).load(&mut open, false) else {
            return (!moved.is_empty()).then_some((text, moved));
        };
        let info = error.info();
        if info != "invalid indentation" && info != "invalid indentation in flow construct" {
            return None;
        }
        let (line, column) = (error.marker().line(), error.marker().col());
        let index = line.checked_sub(1)?;
        let current = lines.get(index)?;
        let indentation = current.len() - current.trim_start_matches(' ').len();
        // The offending token opens its line, and the line holds whole
        // entries (or closes the collection): a key, `:` and value spread
        // over lines (`{` `k` `:` `v` `}`) is refused by PyYAML and js-yaml
        // at any indentation, so it stays refused.
        let content = current.trim();
        let whole_entries = content.starts_with([']', '}']) || content.ends_with([',', ']', '}', '[', '{']);
        if indentation != column || current[indentation..].starts_with('\t') || !whole_entries {
            return None;
        }
        // A collection written `[`/`{` on an earlier line.
        let is_flow = |&(col, start_line): &(usize, usize)| {
            let opener = start_line.checked_sub(1).and_then(|i| lines.get(i)?.chars().nth(col));
            matches!(opener, Some('[' | '{')) && start_line < line
        };
        let &(bracket, opened) = open.0.iter().find(|entry| is_flow(entry))?;
        // The block holding the collection starts where the opening line's
        // text does, after any `- ` item markers.
        let opening = &lines[opened - 1];
        let mut block = opening.len() - opening.trim_start_matches(' ').len();
        while opening[block..].starts_with("- ") {
            block += 2;
            block += opening[block..].len() - opening[block..].trim_start_matches(' ').len();
        }
        // One column past the block; if the reader still refuses the line,
        // past the opening bracket.
        let wanted = if moved.contains(&index) { bracket + 1 } else { block + 1 };
        if wanted <= column {
            return None;
        }
        lines[index] = format!("{}{}", " ".repeat(wanted - column), lines[index]);
        if !moved.contains(&index) {
            moved.push(index);
        }
    }
    None
}

/// The frontmatter `yaml` (starting at `first_line` of `file`) as a map.
fn mapping(file: &str, yaml: &str, first_line: usize) -> Result<Map<String, Value>> {
    let root = first_document(yaml, true).map_err(|e| {
        let marker = e.marker();
        Error::at(
            ErrorCode::InvalidSource,
            Location::at(file, first_line + marker.line().saturating_sub(1), marker.col() + 1),
            format!("invalid YAML frontmatter: {}", e.info()),
        )
    })?;
    match root {
        None | Some(Root::Null) => Ok(Map::new()),
        Some(Root::Mapping(map)) => Ok(map),
        Some(Root::Other(_)) => Err(Error::at(
            ErrorCode::InvalidSource,
            Location::at(file, first_line, 1),
            "frontmatter must be a mapping of keys to values",
        )),
    }
}

/// Characters that make a plain YAML value mean something else (Claude
/// Code's list): flow and block indicators, anchors, tags, comments.
const YAML_SYNTAX: &[char] = &['{', '}', '[', ']', '*', '&', '#', '!', '|', '>', '%', '@', '`'];

/// Claude Code's second reading of frontmatter that failed as YAML: each
/// top-level `key: value` line whose value is unquoted and holds YAML syntax
/// (or `: `) gets the value double-quoted, and leading tabs become two
/// spaces each. Returns the new text and the 0-based line and key of each
/// quoted value; `None` when nothing changes.
fn claude_quoted(yaml: &str) -> Option<(String, Vec<(usize, String)>)> {
    let mut keys = Vec::new();
    let mut lines = Vec::new();
    for (index, line) in yaml.split('\n').enumerate() {
        let quoted = quoted_line(line);
        if let Some((key, _)) = &quoted {
            keys.push((index, key.to_string()));
        }
        let line = quoted.map_or_else(|| line.to_string(), |(_, line)| line);
        let tabs = line.len() - line.trim_start_matches('\t').len();
        lines.push(format!("{}{}", "  ".repeat(tabs), &line[tabs..]));
    }
    let text = lines.join("\n");
    (text != yaml).then_some((text, keys))
}

/// `key: value` with `value` double-quoted, when Claude Code would quote it.
fn quoted_line(line: &str) -> Option<(&str, String)> {
    let (key, rest) = line.split_once(':')?;
    let is_key = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-');
    if !is_key || !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let value = rest.trim_start();
    if value.is_empty() || value.contains('\r') {
        return None;
    }
    let already_quoted = |q: char| value.starts_with(q) && value.ends_with(q);
    if already_quoted('"') || already_quoted('\'') {
        return None;
    }
    let is_list = value.starts_with('[')
        && value.ends_with(']')
        && crate::limits::yaml_aliases_expand_too_far(value).is_none()
        && matches!(YamlLoader::load_from_str(value).as_deref(), Ok([Yaml::Array(_)]));
    if is_list || !(value.contains(YAML_SYNTAX) || value.contains(": ")) {
        return None;
    }
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    Some((key, format!("{key}: \"{escaped}\"")))
}

/// A whole YAML document (its first document) as a JSON value: how shared
/// YAML files such as Hermes's `config.yaml` are read before a merge. An
/// empty document is `null`.
pub(crate) fn yaml_value(text: &str) -> std::result::Result<Value, String> {
    if let Some((line, column)) = crate::limits::too_deep_yaml(text) {
        let most = crate::limits::MAX_JSON_DEPTH;
        return Err(format!("limit: YAML nested deeper than {most} levels at line {line} column {column}"));
    }
    if let Some((line, column)) = crate::limits::yaml_aliases_expand_too_far(text) {
        let most = crate::limits::MAX_YAML_ALIAS_NODES;
        return Err(format!("limit: YAML aliases expand past {most} nodes at line {line} column {column}"));
    }
    // `<<` stays a key: a shared file (Hermes's `config.yaml`) is read to
    // have an entry spliced in as written, and `plugin.yaml` is checked as
    // written.
    let root = first_document(&crate::text::normalised(text), false).map_err(|e| {
        format!("invalid YAML at line {} column {}: {}", e.marker().line(), e.marker().col() + 1, e.info())
    })?;
    Ok(match root {
        None | Some(Root::Null) => Value::Null,
        Some(Root::Mapping(map)) => Value::Object(map),
        Some(Root::Other(value)) => value,
    })
}

/// Returns (yaml text, body, 1-based line of the first YAML line).
/// The 1-based line of top-level key `key` of the frontmatter of Markdown
/// `text` (read as [`parse_document`] reads it, quoted the way Claude Code
/// quotes a frontmatter that is not YAML).
pub(crate) fn frontmatter_key_line(text: &str, key: &str) -> Option<usize> {
    let text = crate::text::normalised(text);
    let (yaml, _, first_line) = split(&text)?;
    let lines = match yaml_key_lines(yaml) {
        Some(lines) => lines,
        // Quoting keeps every key on its line.
        None => yaml_key_lines(&claude_quoted(yaml)?.0)?,
    };
    lines.into_iter().find(|(k, _)| k == key).map(|(_, line)| first_line + line - 1)
}

/// The 1-based lines of the top-level mapping keys of `yaml`, from the YAML
/// parser's event positions; `None` when it is not YAML.
pub(crate) fn yaml_key_lines(yaml: &str) -> Option<Vec<(String, usize)>> {
    use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
    use yaml_rust2::scanner::Marker;

    /// Depth 1 is the root mapping; there, keys and values alternate.
    #[derive(Default)]
    struct TopKeys {
        depth: usize,
        expect_key: bool,
        keys: Vec<(String, usize)>,
    }
    impl TopKeys {
        /// A node of the root mapping ended: a key or a value.
        fn node_done(&mut self, key: Option<(String, usize)>) {
            if self.expect_key {
                self.keys.extend(key);
            }
            self.expect_key = !self.expect_key;
        }
    }
    impl MarkedEventReceiver for TopKeys {
        fn on_event(&mut self, event: Event, mark: Marker) {
            match event {
                Event::MappingStart(..) | Event::SequenceStart(..) => {
                    if self.depth == 0 {
                        self.expect_key = true;
                    }
                    self.depth += 1;
                }
                Event::MappingEnd | Event::SequenceEnd => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 1 {
                        self.node_done(None);
                    }
                }
                Event::Scalar(value, ..) if self.depth == 1 => self.node_done(Some((value, mark.line()))),
                Event::Alias(_) if self.depth == 1 => self.node_done(None),
                _ => {}
            }
        }
    }
    if crate::limits::too_deep_yaml(yaml).is_some() {
        return None;
    }
    let mut found = TopKeys::default();
    Parser::new_from_str(yaml).load(&mut found, false).ok()?;
    Some(found.keys)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_keys_are_found_by_the_yaml_parser() {
        let text = "---\ndescription: |\n  name: not a key\nname: deploy\nmetadata:\n  name: nested\nmodel: x\n---\nBody\n";
        assert_eq!(frontmatter_key_line(text, "name"), Some(4));
        assert_eq!(frontmatter_key_line(text, "description"), Some(2));
        assert_eq!(frontmatter_key_line(text, "model"), Some(7));
        assert_eq!(frontmatter_key_line(text, "missing"), None);
        assert_eq!(frontmatter_key_line("no frontmatter\n", "name"), None);
        // Not YAML as written, read as Claude Code quotes it.
        let unquoted = "---\nname: a\ndescription: Use when: the user asks [x]\nmodel: y\n---\n";
        assert_eq!(frontmatter_key_line(unquoted, "model"), Some(4));
        assert_eq!(
            yaml_key_lines("kind: a\nlist:\n  - kind: b\nname: c\n"),
            Some(vec![("kind".into(), 1), ("list".into(), 2), ("name".into(), 4)])
        );
    }

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
        let error = parse_document("x.md", "\u{feff}---\r\nname: a\r\n  b: c\r\n---\r\n").unwrap_err();
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
        let err = parse_document("commands/x.md", "---\ndescription: ok\nbad: \"unclosed\n---\nbody\n")
            .unwrap_err();
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
    fn unquoted_values_holding_yaml_syntax_read_as_claude_code_reads_them() {
        // The shape of claude-plugins-official's silent-failure-hunter agent.
        let text = "---\nname: hunter\ndescription: Use it when: errors hide. Examples:\\n<example>user: \"hi\"</example>\nmodel: inherit\n---\nBody.\n";
        let document = parse_document("agents/hunter.md", text).unwrap();
        assert_eq!(
            document.str_field("description"),
            Some("Use it when: errors hide. Examples:\\n<example>user: \"hi\"</example>")
        );
        assert_eq!(document.str_field("model"), Some("inherit"));
        assert_eq!(document.body, "Body.\n");
        let quoted = document.quoted.as_deref().expect("read only after quoting");
        assert_eq!(quoted.keys, vec![(3, "description".to_string())]);
        assert_eq!(quoted.line(), Some(3));
        assert_eq!(quoted.error.location().and_then(|l| l.line), Some(3));
        assert_eq!(
            quoted.text,
            "---\nname: hunter\ndescription: \"Use it when: errors hide. Examples:\\\\n<example>user: \\\"hi\\\"</example>\"\nmodel: inherit\n---\nBody.\n"
        );
        let again = parse_document("agents/hunter.md", &quoted.text).unwrap();
        assert!(again.quoted.is_none(), "the quoted text is valid YAML");
        assert_eq!(again.frontmatter, document.frontmatter);
        assert_eq!(
            quoted.message(),
            "the frontmatter is not valid YAML (invalid YAML frontmatter: mapping values are not allowed in this \
             context at agents/hunter.md:3:25); Claude Code reads it with `description` (line 3) quoted"
        );
    }

    #[test]
    fn valid_yaml_and_what_quoting_cannot_mend_stay_as_they_were() {
        let valid = parse_document("a.md", "---\ndescription: a # comment\ntags: [a, b]\n---\n").unwrap();
        assert!(valid.quoted.is_none());
        assert_eq!(valid.str_field("description"), Some("a"));
        // Claude Code refuses these too: an unterminated quote, a nested line.
        for text in ["---\ndescription: \"unterminated\n---\n", "---\ndescription: Greet: x\n  bad: [\n---\n"]
        {
            let error = parse_document("a.md", text).unwrap_err();
            assert!(error.message().contains("invalid YAML frontmatter"), "{error}");
        }
        // A list stays a list; leading tabs are read as two spaces each.
        let tabbed = parse_document("a.md", "---\nmeta:\n\tkey: v\nname: x: y\n---\n").unwrap();
        assert_eq!(tabbed.field("meta"), Some(&serde_json::json!({"key": "v"})));
        assert_eq!(tabbed.str_field("name"), Some("x: y"));
    }

    #[test]
    fn a_multi_line_list_closed_at_its_keys_column_reads_as_pyyaml_js_yaml_and_claude_code_read_it() {
        // The shape of awesome-copilot's react19-commander agent: the `]`
        // sits at the key's column, which the YAML spec (and yaml-rust2,
        // js-yaml 5) refuse and PyYAML, js-yaml 4 and Bun's YAML accept.
        let text = "---\nname: commander\ntools: [\n  'agent',\n  'search'\n]\nagents: [\n  'auditor'\n]\nargument-hint: Go.\n---\nBody.\n";
        let document = parse_document("agents/commander.agent.md", text).unwrap();
        assert_eq!(
            document.frontmatter,
            Some(
                serde_json::json!({"name": "commander", "tools": ["agent", "search"], "agents": ["auditor"], "argument-hint": "Go."})
                    .as_object()
                    .unwrap()
                    .clone()
            )
        );
        assert_eq!(document.body, "Body.\n");
        let read = document.quoted.as_deref().expect("read only once indented");
        assert!(read.keys.is_empty());
        assert_eq!(read.indented, vec![6, 9]);
        assert_eq!(read.line(), Some(6));
        assert_eq!(read.error.location().and_then(|l| l.line), Some(6));
        assert_eq!(
            read.text,
            "---\nname: commander\ntools: [\n  'agent',\n  'search'\n ]\nagents: [\n  'auditor'\n ]\nargument-hint: Go.\n---\nBody.\n"
        );
        let again = parse_document("agents/commander.agent.md", &read.text).unwrap();
        assert!(again.quoted.is_none(), "the indented text is valid YAML");
        assert_eq!(again.frontmatter, document.frontmatter);
        assert_eq!(
            read.message(),
            "the frontmatter is not valid YAML (invalid YAML frontmatter: invalid indentation at \
             agents/commander.agent.md:6:1); PyYAML, js-yaml 4 and Claude Code read it with lines 6, 9 of a \
             multi-line list or mapping indented past its key"
        );
        assert_eq!(read.change_and_fix().0, "indented");
    }

    #[test]
    fn nested_flow_lists_at_their_keys_column_read_with_their_values() {
        // The shape of awesome-copilot's terraform and diffblue-cover agents:
        // an MCP server's `args: [` list closed at the column of `args`, a
        // comment and a multi-line quoted string inside it.
        let text = "---\nname: t\nmcp-servers:\n  terraform:\n    type: 'local'\n    args: [\n      'run',\n      # why\n      '-e', 'A',\n      \"two\n      words\",\n    ]\n    env:\n      A: '1'\n    tools: { a: 1,\n  b: 2 }\n---\n";
        let document = parse_document("agents/t.agent.md", text).unwrap();
        assert_eq!(
            document.field("mcp-servers"),
            Some(&serde_json::json!({"terraform": {
                "type": "local", "args": ["run", "-e", "A", "two words"], "env": {"A": "1"}, "tools": {"a": 1, "b": 2}
            }}))
        );
        assert_eq!(document.quoted.as_deref().map(|r| r.indented.clone()), Some(vec![12, 16]));
        // Entries at the key's column, as PyYAML and js-yaml 4 read them.
        let entries = parse_document("a.md", "---\nflow: [a,\nb,\nc]\nx: 1\n---\n").unwrap();
        assert_eq!(entries.field("flow"), Some(&serde_json::json!(["a", "b", "c"])));
        assert_eq!(entries.quoted.as_deref().map(|r| r.indented.clone()), Some(vec![3, 4]));
    }

    #[test]
    fn what_indenting_cannot_mend_stays_refused() {
        // A key, `:` and value on lines of their own (yaml-test-suite
        // VJP3), a block line under a flow list, an unclosed list, a tab:
        // refused by PyYAML and js-yaml too.
        for text in [
            "---\nk: {\nk\n:\nv\n}\n---\n",
            "---\ntools: [\n  a,\n]\n  b: c\n---\n",
            "---\ntools: [\n  a,\nname: x\n---\n",
            "---\ntools: [\n\ta\n]\n---\n",
        ] {
            let error = parse_document("a.md", text).unwrap_err();
            assert!(error.message().contains("invalid YAML frontmatter"), "{text:?}: {error}");
        }
    }

    #[test]
    fn merge_keys_and_null_keys_read_as_pyyaml_js_yaml_and_claude_code_read_them() {
        let text = "---\nbase: &b {model: x, tools: [a]}\nname: n\n<<: *b\ntools: [c]\nmeta:\n  <<: [{a: 1}, {a: 2, b: 2}]\n  c: 3\n~: empty\n---\n";
        let document = parse_document("a.md", text).unwrap();
        let read = serde_json::Value::Object(document.frontmatter.unwrap());
        assert_eq!(
            read,
            serde_json::json!({
                "base": {"model": "x", "tools": ["a"]}, "name": "n", "model": "x", "tools": ["c"],
                "meta": {"a": 1, "b": 2, "c": 3}, "null": "empty"
            })
        );
        // Keys in the order js-yaml 4 gives them: merged ones where `<<` stood.
        let keys: Vec<&String> = read.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["base", "name", "model", "tools", "meta", "null"]);
        // A `<<` of a plain value is a key like any other.
        let plain = parse_document("a.md", "---\n<<: text\n---\n").unwrap();
        assert_eq!(plain.str_field("<<"), Some("text"));
    }

    #[test]
    fn scalar_frontmatter_is_refused() {
        let err = parse_document("a.md", "---\njust text\n---\n").unwrap_err();
        assert!(err.message().contains("must be a mapping"));
    }
}
