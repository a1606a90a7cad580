//! Owned sections of shared text files (context files such as `AGENTS.md`,
//! or a TOML config such as Codex's `.codex/config.toml`), between marker
//! comments that name the owner, written in the file's own comment syntax.

use super::{Content, Record, Refusal};
use crate::hash::sha256_hex;
use crate::limits::position;

/// A TOML file (Codex's `config.toml`) must parse before plugforge touches
/// it, and still parse after: its tables and the user's share one namespace.
fn is_toml(file: &str) -> bool {
    file.ends_with(".toml")
}

fn toml_error(file: &str, text: &str, error: &toml_edit::TomlError) -> String {
    let (line, column) = position(text, error.span().map_or(0, |span| span.start));
    format!("{file}:{line}:{column}: invalid TOML: {}", error.message().trim_end())
}

/// Refuses a TOML file that does not parse. `--force` does not lift it:
/// replacing the file would drop the user's settings.
fn readable(file: &str, text: &str) -> Result<(), Refusal> {
    if !is_toml(file) {
        return Ok(());
    }
    match toml_edit::Document::parse(text) {
        Ok(_) => Ok(()),
        Err(e) => Err(Refusal(format!(
            "{}; plugforge edits only its own section, so fix the file by hand (--force does not replace it)",
            toml_error(file, text, &e)
        ))),
    }
}

/// The merged TOML must still parse: a table of the user's with the name
/// of one of plugforge's would make the file one Codex refuses to load.
fn still_readable(file: &str, user: &str, body: &str, merged: &str) -> Result<(), Refusal> {
    if !is_toml(file) {
        return Ok(());
    }
    let Err(e) = toml_edit::Document::parse(merged) else { return Ok(()) };
    let taken = toml_edit::Document::parse(user).ok().and_then(|user| {
        let ours = toml_edit::Document::parse(body).ok()?;
        let mut paths = Vec::new();
        tables(ours.as_table(), &mut Vec::new(), &mut paths);
        paths.into_iter().find(|path| {
            let mut here = Some(user.as_item());
            for key in path {
                here = here.and_then(|item| item.get(key.as_str()));
            }
            here.is_some()
        })
    });
    let why = match taken {
        Some(path) => format!(
            "{file}: [{}] is yours already; rename or remove it, plugforge writes a table of that name",
            path.join(".")
        ),
        None => toml_error(file, merged, &e),
    };
    Err(Refusal(format!("{why} (--force does not edit your tables)")))
}

/// Paths of the tables in `table` that hold values of their own.
fn tables(table: &toml_edit::Table, at: &mut Vec<String>, found: &mut Vec<Vec<String>>) {
    if table.iter().any(|(_, item)| !item.is_table()) && !at.is_empty() {
        found.push(at.clone());
    }
    for (key, item) in table.iter() {
        if let Some(inner) = item.as_table() {
            at.push(key.to_string());
            tables(inner, at, found);
            at.pop();
        }
    }
}

/// Whether `file` takes `#` comments (TOML, YAML) rather than HTML ones.
fn hash_comments(file: &str) -> bool {
    [".toml", ".yaml", ".yml"].iter().any(|ext| file.ends_with(ext))
}

fn begin(file: &str, id: &str) -> String {
    if hash_comments(file) { format!("# {id}:begin\n") } else { format!("<!-- {id}:begin -->\n") }
}

fn end(file: &str, id: &str) -> String {
    if hash_comments(file) { format!("# {id}:end\n") } else { format!("<!-- {id}:end -->\n") }
}

/// (start of the begin marker, start of the text, end of the end marker).
fn find(file: &str, text: &str, id: &str) -> Option<(usize, usize, usize, usize)> {
    let (begin, end) = (begin(file, id), end(file, id));
    let start = text.find(&begin)?;
    let inner = start + begin.len();
    let close = inner + text[inner..].find(&end)?;
    Some((start, inner, close, close + end.len()))
}

pub fn hash_of(file: &str, text: &str, id: &str) -> Option<String> {
    find(file, text, id).map(|(_, inner, close, _)| sha256_hex(&text.as_bytes()[inner..close]))
}

fn block(file: &str, id: &str, body: &str) -> String {
    let newline = if body.ends_with('\n') || body.is_empty() { "" } else { "\n" };
    format!("{}{body}{newline}{}", begin(file, id), end(file, id))
}

pub fn set(
    content: Content,
    file: &str,
    id: &str,
    body: &str,
    previous: Option<&Record>,
    force: bool,
) -> Result<String, Refusal> {
    let body = if body.ends_with('\n') || body.is_empty() { body.to_string() } else { format!("{body}\n") };
    let Some(text) = content else { return Ok(block(file, id, &body)) };
    readable(file, &text)?;
    let Some((start, inner, close, stop)) = find(file, &text, id) else {
        let separator = if text.is_empty() || text.ends_with("\n\n") {
            ""
        } else if text.ends_with('\n') {
            "\n"
        } else {
            "\n\n"
        };
        let merged = format!("{text}{separator}{}", block(file, id, &body));
        still_readable(file, &text, &body, &merged)?;
        return Ok(merged);
    };
    let current = &text[inner..close];
    if current == body {
        return Ok(text);
    }
    let ours =
        matches!(previous, Some(Record::Section { sha256, .. }) if *sha256 == sha256_hex(current.as_bytes()));
    if !ours && !force {
        return Err(Refusal(format!(
            "the {id} section was edited since it was generated; rerun with --force to overwrite it"
        )));
    }
    let merged = format!("{}{}{}", &text[..start], block(file, id, &body), &text[stop..]);
    let users = format!("{}{}", &text[..start], &text[stop..]);
    still_readable(file, &users, &body, &merged)?;
    Ok(merged)
}

pub fn remove(text: String, file: &str, id: &str, sha256: &str, force: bool) -> Result<Content, Refusal> {
    readable(file, &text)?;
    let Some((start, inner, close, stop)) = find(file, &text, id) else { return Ok(Some(text)) };
    if sha256_hex(&text.as_bytes()[inner..close]) != sha256 && !force {
        return Err(Refusal(format!(
            "the {id} section was edited since it was generated; kept (--force removes it)"
        )));
    }
    let rest = format!("{}{}", &text[..start], &text[stop..]);
    let rest = rest.trim_end_matches('\n').to_string();
    Ok(if rest.trim().is_empty() { None } else { Some(rest + "\n") })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(body: &str) -> Record {
        Record::Section {
            path: "AGENTS.md".into(),
            id: "plugforge:x".into(),
            sha256: sha256_hex(body.as_bytes()),
        }
    }

    #[test]
    fn appends_replaces_and_removes_a_section() {
        let mine = "# My notes\n".to_string();
        let with = set(Some(mine.clone()), "AGENTS.md", "plugforge:x", "Use x.", None, false).unwrap();
        assert_eq!(with, "# My notes\n\n<!-- plugforge:x:begin -->\nUse x.\n<!-- plugforge:x:end -->\n");
        let again =
            set(Some(with.clone()), "AGENTS.md", "plugforge:x", "Use x.\n", Some(&record("Use x.\n")), false)
                .unwrap();
        assert_eq!(again, with, "rerun keeps the bytes");
        let changed =
            set(Some(with.clone()), "AGENTS.md", "plugforge:x", "Use y.", Some(&record("Use x.\n")), false)
                .unwrap();
        assert!(changed.contains("Use y.\n") && changed.starts_with("# My notes\n"));
        assert_eq!(
            remove(changed, "AGENTS.md", "plugforge:x", &sha256_hex(b"Use y.\n"), false).unwrap(),
            Some(mine)
        );
    }

    #[test]
    fn an_edited_section_is_refused_unless_forced() {
        let edited = "<!-- plugforge:x:begin -->\nMine now.\n<!-- plugforge:x:end -->\n".to_string();
        assert!(
            set(Some(edited.clone()), "AGENTS.md", "plugforge:x", "Use x.", Some(&record("Use x.\n")), false)
                .is_err()
        );
        assert!(
            set(Some(edited.clone()), "AGENTS.md", "plugforge:x", "Use x.", Some(&record("Use x.\n")), true)
                .is_ok()
        );
        assert!(remove(edited.clone(), "AGENTS.md", "plugforge:x", &sha256_hex(b"Use x.\n"), false).is_err());
        assert_eq!(remove(edited, "AGENTS.md", "plugforge:x", &sha256_hex(b"Use x.\n"), true).unwrap(), None);
    }

    #[test]
    fn a_toml_file_gets_hash_comment_markers() {
        let users = "model = \"o3\"\n\n[mcp_servers.theirs]\ncommand = \"t\"\n".to_string();
        let body = "[mcp_servers.mine]\ncommand = \"m\"\n";
        let with = set(Some(users.clone()), "c.toml", "plugforge:x", body, None, false).unwrap();
        assert_eq!(
            with,
            format!("{users}\n# plugforge:x:begin\n{body}# plugforge:x:end\n"),
            "a TOML comment, so the file stays valid TOML"
        );
        assert_eq!(hash_of("c.toml", &with, "plugforge:x"), Some(sha256_hex(body.as_bytes())));
        assert_eq!(
            remove(with, "c.toml", "plugforge:x", &sha256_hex(body.as_bytes()), false).unwrap(),
            Some(users)
        );
    }

    #[test]
    fn a_toml_file_that_does_not_parse_is_refused_at_its_line_and_column_even_forced() {
        let broken = "# mine\nmodel = \"o3\"\n[mcp_servers.theirs\ncommand = \"t\"\n".to_string();
        for force in [false, true] {
            let why = set(Some(broken.clone()), "c.toml", "plugforge:x", "[a]\nb = 1\n", None, force)
                .unwrap_err()
                .0;
            assert!(why.starts_with("c.toml:3:20: invalid TOML: "), "{why}");
            assert!(why.contains("--force does not replace it"), "{why}");
            let why = remove(broken.clone(), "c.toml", "plugforge:x", "", force).unwrap_err().0;
            assert!(why.starts_with("c.toml:3:20: "), "{why}");
        }
    }

    #[test]
    fn a_users_table_of_the_same_name_is_refused_even_forced() {
        let users = "# mine\n[mcp_servers.d]\ncommand = \"mine\"\n".to_string();
        let body = "[mcp_servers.d]\ncommand = \"ours\"\n";
        for force in [false, true] {
            let why = set(Some(users.clone()), "c.toml", "plugforge:x", body, None, force).unwrap_err().0;
            assert!(why.starts_with("c.toml: [mcp_servers.d] is yours already"), "{why}");
        }
        let beside = "[mcp_servers.theirs]\ncommand = \"t\"\n".to_string();
        let with = set(Some(beside.clone()), "c.toml", "plugforge:x", body, None, false).unwrap();
        assert_eq!(with, format!("{beside}\n# plugforge:x:begin\n{body}# plugforge:x:end\n"));
    }
}
