//! Owned sections of shared text files (context files such as `AGENTS.md`),
//! between marker comments that name the owner.

use super::{Content, Record, Refusal};
use crate::hash::sha256_hex;

fn begin(id: &str) -> String {
    format!("<!-- {id}:begin -->\n")
}

fn end(id: &str) -> String {
    format!("<!-- {id}:end -->\n")
}

/// (start of the begin marker, start of the text, end of the end marker).
fn find(text: &str, id: &str) -> Option<(usize, usize, usize, usize)> {
    let (begin, end) = (begin(id), end(id));
    let start = text.find(&begin)?;
    let inner = start + begin.len();
    let close = inner + text[inner..].find(&end)?;
    Some((start, inner, close, close + end.len()))
}

pub fn hash_of(text: &str, id: &str) -> Option<String> {
    find(text, id).map(|(_, inner, close, _)| sha256_hex(&text.as_bytes()[inner..close]))
}

fn block(id: &str, body: &str) -> String {
    let newline = if body.ends_with('\n') || body.is_empty() { "" } else { "\n" };
    format!("{}{body}{newline}{}", begin(id), end(id))
}

pub fn set(
    content: Content,
    id: &str,
    body: &str,
    previous: Option<&Record>,
    force: bool,
) -> Result<String, Refusal> {
    let body = if body.ends_with('\n') || body.is_empty() { body.to_string() } else { format!("{body}\n") };
    let Some(text) = content else { return Ok(block(id, &body)) };
    let Some((start, inner, close, stop)) = find(&text, id) else {
        let separator = if text.is_empty() || text.ends_with("\n\n") {
            ""
        } else if text.ends_with('\n') {
            "\n"
        } else {
            "\n\n"
        };
        return Ok(format!("{text}{separator}{}", block(id, &body)));
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
    Ok(format!("{}{}{}", &text[..start], block(id, &body), &text[stop..]))
}

pub fn remove(text: String, id: &str, sha256: &str, force: bool) -> Result<Content, Refusal> {
    let Some((start, inner, close, stop)) = find(&text, id) else { return Ok(Some(text)) };
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
        let with = set(Some(mine.clone()), "plugforge:x", "Use x.", None, false).unwrap();
        assert_eq!(with, "# My notes\n\n<!-- plugforge:x:begin -->\nUse x.\n<!-- plugforge:x:end -->\n");
        let again =
            set(Some(with.clone()), "plugforge:x", "Use x.\n", Some(&record("Use x.\n")), false).unwrap();
        assert_eq!(again, with, "rerun keeps the bytes");
        let changed =
            set(Some(with.clone()), "plugforge:x", "Use y.", Some(&record("Use x.\n")), false).unwrap();
        assert!(changed.contains("Use y.\n") && changed.starts_with("# My notes\n"));
        assert_eq!(remove(changed, "plugforge:x", &sha256_hex(b"Use y.\n"), false).unwrap(), Some(mine));
    }

    #[test]
    fn an_edited_section_is_refused_unless_forced() {
        let edited = "<!-- plugforge:x:begin -->\nMine now.\n<!-- plugforge:x:end -->\n".to_string();
        assert!(
            set(Some(edited.clone()), "plugforge:x", "Use x.", Some(&record("Use x.\n")), false).is_err()
        );
        assert!(set(Some(edited.clone()), "plugforge:x", "Use x.", Some(&record("Use x.\n")), true).is_ok());
        assert!(remove(edited.clone(), "plugforge:x", &sha256_hex(b"Use x.\n"), false).is_err());
        assert_eq!(remove(edited, "plugforge:x", &sha256_hex(b"Use x.\n"), true).unwrap(), None);
    }
}
