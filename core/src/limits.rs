//! Bounds on what one run takes in, so a hostile or broken input fails with
//! the `limit` error code instead of exhausting memory, stack or time. Each
//! is set far above what a real plugin needs (sources of 10,000 files are the
//! design point); the README's safety table lists them with their tests.

/// Files in one source tree: ten times the design point.
pub const MAX_SOURCE_FILES: usize = 100_000;

/// Bytes of one source tree, all files together.
pub const MAX_SOURCE_BYTES: u64 = 1 << 30;

/// Bytes of one source file: far above any text an agent reads, small
/// enough that a handful of them cannot exhaust a host.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Levels of `[`/`{` nesting in one JSON or JSONC text. Plugin manifests,
/// settings and hooks nest fewer than ten; the parsers recurse once a level.
pub const MAX_JSON_DEPTH: usize = 100;

/// minijinja fuel for one template render: every instruction costs one,
/// and every 64 bytes of data it makes (output, strings, lists) one more,
/// so a loop that never ends stops here, and so does a template that doubles
/// a string forty times, at 640 KB made: what a template may make in memory
/// stays within what the process needs anyway, so a refused render costs no
/// more than a one-file build. A template that loops over 500 items with a
/// few filters each uses under 6,500; the templates a plugin source holds
/// (a manifest, commands filled in with a few variables: a template sees
/// the plugin's metadata and the host's variables, no list of its parts)
/// use a few hundred.
pub const TEMPLATE_FUEL: u64 = 10_000;

/// Nodes one YAML text may read as once its aliases are expanded, past the
/// nodes it writes out: a config or frontmatter that reuses an anchor a few
/// times stays far below; an alias bomb (each anchor aliasing the one before
/// it ten times) passes it within a few lines instead of growing without
/// bound, since a YAML reader copies what an alias names.
pub const MAX_YAML_ALIAS_NODES: u64 = 100_000;

/// Where the aliases of `text` (YAML) first expand past
/// [`MAX_YAML_ALIAS_NODES`], as a 1-based (line, column), counted from the
/// parser's events without building anything. A text that does not parse is
/// left to the reader, which names its error.
pub fn yaml_aliases_expand_too_far(text: &str) -> Option<(usize, usize)> {
    use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
    use yaml_rust2::scanner::Marker;

    /// Nodes so far with aliases expanded, and the expanded size of each
    /// anchor once its node ends.
    #[derive(Default)]
    struct Count {
        nodes: u64,
        aliased: u64,
        open: Vec<(usize, u64)>,
        sizes: std::collections::HashMap<usize, u64>,
        past: Option<(usize, usize)>,
    }
    impl MarkedEventReceiver for Count {
        fn on_event(&mut self, event: Event, mark: Marker) {
            if self.past.is_some() {
                return;
            }
            match event {
                Event::Scalar(_, _, anchor, _) => {
                    self.nodes += 1;
                    if anchor > 0 {
                        self.sizes.insert(anchor, 1);
                    }
                }
                Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                    self.nodes += 1;
                    self.open.push((anchor, self.nodes - 1));
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    if let Some((anchor, start)) = self.open.pop()
                        && anchor > 0
                    {
                        self.sizes.insert(anchor, self.nodes - start);
                    }
                }
                Event::Alias(anchor) => {
                    let size = self.sizes.get(&anchor).copied().unwrap_or(1);
                    self.nodes = self.nodes.saturating_add(size);
                    self.aliased = self.aliased.saturating_add(size);
                    if self.aliased > MAX_YAML_ALIAS_NODES {
                        self.past = Some((mark.line().max(1), mark.col() + 1));
                    }
                }
                _ => {}
            }
        }
    }
    if !text.contains('*') {
        return None;
    }
    let mut count = Count::default();
    let _ = Parser::new_from_str(text).load(&mut count, false);
    count.past
}

/// Nodes (keys, values, list items) one frontmatter may hold. The largest
/// real one seen (a Vercel skill's, with its trigger patterns) holds 702;
/// each node costs a hundred bytes or more once read, and a runtime that
/// rewrites the frontmatter holds it again, so 40,000 one-word keys would
/// take tens of megabytes for a few hundred kilobytes of text.
pub const MAX_FRONTMATTER_NODES: u64 = 10_000;

/// Where frontmatter `yaml` first holds more than
/// [`MAX_FRONTMATTER_NODES`] nodes, as a 1-based (line, column), counted
/// from the parser's events without building anything. A text that does
/// not parse is left to the reader, which names its error.
pub fn frontmatter_too_large(yaml: &str) -> Option<(usize, usize)> {
    use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
    use yaml_rust2::scanner::Marker;

    #[derive(Default)]
    struct Count {
        nodes: u64,
        past: Option<(usize, usize)>,
    }
    impl MarkedEventReceiver for Count {
        fn on_event(&mut self, event: Event, mark: Marker) {
            if self.past.is_none()
                && matches!(event, Event::Scalar(..) | Event::SequenceStart(..) | Event::MappingStart(..))
            {
                self.nodes += 1;
                if self.nodes > MAX_FRONTMATTER_NODES {
                    self.past = Some((mark.line().max(1), mark.col() + 1));
                }
            }
        }
    }
    // Each node takes a byte of text at least (`{a,b}` is a key and an
    // empty value each two bytes).
    if (yaml.len() as u64) <= MAX_FRONTMATTER_NODES {
        return None;
    }
    let mut count = Count::default();
    let _ = Parser::new_from_str(yaml).load(&mut count, false);
    count.past
}

/// Operators in one template tag (`{{ ... }}` or `{% ... %}`): filters,
/// attribute and item lookups, calls, arithmetic, comparisons and the word
/// operators. minijinja bounds bracket nesting itself, but builds a chain
/// (`x|a|b|...`, `x.a.b...`, `1 + 1 + ...`) as a tree as deep as it is long
/// and walks it recursively: 50,000 links overflow the stack. Real tags hold
/// a handful; a 2 MiB thread renders a tag at the bound.
pub const MAX_TEMPLATE_OPERATORS: usize = 500;

/// Where a tag of template `text` first holds more than
/// [`MAX_TEMPLATE_OPERATORS`] operators, as a 1-based (line, column),
/// before the template is parsed. Operators inside string literals, comments
/// and `{% raw %}` blocks do not count.
pub fn template_tag_too_long(text: &str) -> Option<(usize, usize)> {
    const WORDS: [&str; 7] = ["not", "and", "or", "in", "is", "if", "else"];
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        let open = bytes[i + 1];
        if bytes[i] != b'{' || !matches!(open, b'{' | b'%' | b'#') {
            i += 1;
            continue;
        }
        let body = i + 2;
        if open == b'#' {
            i = text[body..].find("#}").map_or(bytes.len(), |end| body + end + 2);
            continue;
        }
        let close = if open == b'{' { b'}' } else { b'%' };
        let (mut operators, mut quote) = (0usize, None);
        i = body;
        let mut end = bytes.len();
        while i < bytes.len() {
            let b = bytes[i];
            if let Some(q) = quote {
                if b == b'\\' {
                    i += 1;
                } else if b == q {
                    quote = None;
                }
                i += 1;
                continue;
            }
            if b == close && bytes.get(i + 1) == Some(&b'}') {
                end = i;
                i += 2;
                break;
            }
            let start = i;
            if b.is_ascii_alphabetic() || b == b'_' {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                operators += usize::from(WORDS.contains(&&text[start..i]));
            } else {
                operators += usize::from(b"|.[(+-*/%~=<>!".contains(&b));
                if matches!(b, b'"' | b'\'') {
                    quote = Some(b);
                }
                i += 1;
            }
            if operators > MAX_TEMPLATE_OPERATORS {
                return Some(position(text, start));
            }
        }
        // A raw block is text, whatever it holds.
        if open == b'%' && text[body..end.max(body)].trim_matches(['-', '+', ' ', '\t', '\n']) == "raw" {
            i = text[i..].find("endraw").map_or(bytes.len(), |at| i + at);
        }
    }
    None
}

/// Where `text` (JSON or JSONC) first nests deeper than [`MAX_JSON_DEPTH`],
/// as a 1-based (line, column), without building anything: brackets inside
/// strings and comments do not count.
pub fn too_deep(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 1;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    return Some(position(text, i));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where YAML `text` first nests deeper than [`MAX_JSON_DEPTH`] (the same
/// bound: YAML frontmatter and config files carry the JSON data model), as
/// a 1-based (line, column). Counts block levels (indentation, `- ` items
/// on one line) and flow brackets outside quotes and comments; it may count
/// a bracket of a plain scalar too, which only errs on the safe side.
pub fn too_deep_yaml(text: &str) -> Option<(usize, usize)> {
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    let mut offset = 0usize;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start_matches(' ').len();
        let rest = &body[indent..];
        if flow == 0 && !rest.is_empty() && !rest.starts_with('#') {
            while indents.last().is_some_and(|&top| top >= indent) {
                indents.pop();
            }
            indents.push(indent);
        }
        let mut items = 0;
        let mut i = indent;
        let bytes = body.as_bytes();
        while bytes.get(i) == Some(&b'-') && matches!(bytes.get(i + 1), Some(b' ')) {
            items += 1;
            i += 2;
            while bytes.get(i) == Some(&b' ') {
                i += 1;
            }
        }
        if indents.len() + items > MAX_JSON_DEPTH {
            return Some(position(text, offset + i));
        }
        let mut quote = None;
        let mut j = i;
        while j < bytes.len() {
            let b = bytes[j];
            match quote {
                Some(q) if b == q => quote = None,
                Some(b'"') if b == b'\\' => j += 1,
                Some(_) => {}
                None => match b {
                    b'"' | b'\'' => quote = Some(b),
                    b'#' if j == 0 || bytes[j - 1] == b' ' || bytes[j - 1] == b'\t' => break,
                    b'[' | b'{' => {
                        flow += 1;
                        if indents.len() + items + flow > MAX_JSON_DEPTH {
                            return Some(position(text, offset + j));
                        }
                    }
                    b']' | b'}' => flow = flow.saturating_sub(1),
                    _ => {}
                },
            }
            j += 1;
        }
        offset += line.len();
    }
    None
}

/// 1-based (line, column) of byte `offset`, columns counted in characters.
pub fn position(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nine anchors, each aliasing the one before ten times: 10^9 nodes in
    /// a reader that copies aliases, 400 bytes of text.
    pub(crate) fn alias_bomb() -> String {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..10 {
            let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{aliases}]\n"));
        }
        text
    }

    #[test]
    fn a_frontmatter_past_the_node_bound_is_found_at_the_node_past_it() {
        let keys = |n: u64| (1..=n).map(|i| format!("k{i}: v{i}\n")).collect::<String>();
        // The mapping itself, then a key and a value each line.
        let most = (MAX_FRONTMATTER_NODES - 1) / 2;
        assert_eq!(frontmatter_too_large(&keys(most)), None);
        assert_eq!(frontmatter_too_large(&keys(most + 1)), Some((most as usize + 1, 8)));
        let flow = format!("k: {{{}}}\n", "a,".repeat(MAX_FRONTMATTER_NODES as usize));
        assert_eq!(frontmatter_too_large(&flow).map(|(line, _)| line), Some(1));
    }

    #[test]
    fn a_template_tag_past_the_operator_bound_is_found_and_strings_comments_and_raw_are_not_counted() {
        let chain = |n: usize| format!("line one\n{{{{ \"a\"{} }}}}\n", "|upper".repeat(n));
        assert_eq!(template_tag_too_long(&chain(MAX_TEMPLATE_OPERATORS)), None);
        assert_eq!(template_tag_too_long(&chain(50_000)), Some((2, 6 + 6 * MAX_TEMPLATE_OPERATORS + 1)));
        let lookups = format!("{{% set x = plugin{} %}}", ".name".repeat(100_000));
        assert!(template_tag_too_long(&lookups).is_some());
        let quiet = format!(
            "{{{{ \"{}\" }}}}{{# {} #}}{{% raw %}}{{{{ x{} }}}}{{% endraw %}}{}",
            "|".repeat(5000),
            "|".repeat(5000),
            "|a".repeat(5000),
            "| text |".repeat(1000)
        );
        assert_eq!(template_tag_too_long(&quiet), None);
    }

    #[test]
    fn an_alias_bomb_is_found_where_it_passes_the_bound_and_a_few_aliases_are_not() {
        assert_eq!(yaml_aliases_expand_too_far(&alias_bomb()), Some((5, 45)));
        let defaults = "d: &d {timeout: 30, env: {A: 1}}\na: {<<: *d}\nb:\n  <<: *d\n";
        assert_eq!(yaml_aliases_expand_too_far(defaults), None);
        assert_eq!(yaml_aliases_expand_too_far("a: [unclosed *x"), None);
    }

    #[test]
    fn nesting_is_counted_outside_strings_and_comments_only() {
        let deep = "[".repeat(MAX_JSON_DEPTH + 1);
        assert_eq!(too_deep(&deep), Some((1, MAX_JSON_DEPTH + 1)));
        let at_the_limit = format!("{}{}", "[".repeat(MAX_JSON_DEPTH), "]".repeat(MAX_JSON_DEPTH));
        assert_eq!(too_deep(&at_the_limit), None);
        let quoted = format!(
            "{{\"a\": \"{}\\\"\", // {}\n /* {} */ \"b\": 1}}",
            "[".repeat(500),
            "{".repeat(500),
            "[".repeat(500)
        );
        assert_eq!(too_deep(&quoted), None);
        let second_line = format!("{{\n  \"a\": {}", "[".repeat(MAX_JSON_DEPTH));
        assert_eq!(too_deep(&second_line), Some((2, 7 + MAX_JSON_DEPTH)));
    }

    #[test]
    fn yaml_nesting_counts_indentation_items_and_brackets() {
        let flow = format!("name: {}", "[".repeat(200_000));
        assert_eq!(too_deep_yaml(&flow), Some((1, 6 + MAX_JSON_DEPTH)));
        let items = format!("a: 1\n{}x\n", "- ".repeat(MAX_JSON_DEPTH + 5));
        assert!(too_deep_yaml(&items).is_some_and(|(line, _)| line == 2));
        let mut block = String::new();
        for i in 0..MAX_JSON_DEPTH + 1 {
            block.push_str(&format!("{}k{i}:\n", " ".repeat(i)));
        }
        assert_eq!(too_deep_yaml(&block), Some((MAX_JSON_DEPTH + 1, MAX_JSON_DEPTH + 1)));
        let plain = "name: deploy\ndescription: 'use [x] and \"{y}\"' # a [comment\nlist:\n  - [a, [b]]\n  - {c: d}\n";
        assert_eq!(too_deep_yaml(plain), None);
    }
}
