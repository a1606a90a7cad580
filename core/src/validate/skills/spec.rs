//! The Agent Skills specification's frontmatter rules, as the reference
//! validator (`skills-ref validate`) applies them: six known keys, a
//! lowercase kebab `name` equal to the folder, a description of at most
//! 1024 characters, a compatibility note of at most 500.

use serde_json::Value;

use super::super::Context;
use super::{
    DESCRIPTION_TOO_LONG, INVALID_FIELD, INVALID_NAME, MISSING_REQUIRED_FIELD, NAME_NOT_FOLDER, UNKNOWN_FIELD,
};
use crate::lint::Sink;
use crate::lint::markdown::{Markdown, at_field, kind};
use crate::runtime::Runtime;

pub(crate) const FIELDS: [&str; 6] =
    ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
const MAX_NAME: usize = 64;
const MAX_DESCRIPTION: usize = 1024;
const MAX_COMPATIBILITY: usize = 500;

/// `runtime` is the loader judging the skill; `None` for a folder of Agent
/// Skills.
pub(super) fn check(
    cx: &Context<'_>,
    runtime: Option<Runtime>,
    doc: &Markdown,
    folder: Option<&str>,
    sink: &mut Sink,
) {
    let id = runtime;
    let rel = doc.rel.as_str();
    for key in ["name", "description"] {
        let empty = match doc.field(key) {
            None => true,
            Some(Value::String(s)) => s.trim().is_empty(),
            Some(_) => false,
        };
        if empty {
            sink.report(
                &MISSING_REQUIRED_FIELD,
                id,
                Some(cx.folder.at(rel)),
                format!("no `{key}` in the frontmatter: Agent Skills clients skip or reject the skill"),
            );
        }
    }
    match doc.field("name") {
        Some(Value::String(name)) if !name.trim().is_empty() => {
            if let Some(why) = name_problem(name) {
                sink.report(
                    &INVALID_NAME,
                    id,
                    Some(at_field(&cx.lint(), doc, "name")),
                    format!("name {name:?} {why}"),
                );
            }
            if let Some(folder) = folder.filter(|f| f != name) {
                sink.report(
                    &NAME_NOT_FOLDER,
                    id,
                    Some(at_field(&cx.lint(), doc, "name")),
                    format!("name {name:?} differs from its folder {folder:?}"),
                );
            }
        }
        Some(other) if !other.is_string() => {
            invalid(cx, doc, "name", format!("`name` must be a string, not {}", kind(other)), sink)
        }
        _ => {}
    }
    match doc.field("description") {
        Some(Value::String(description)) => {
            let chars = description.chars().count();
            if chars > MAX_DESCRIPTION {
                sink.report(
                    &DESCRIPTION_TOO_LONG,
                    id,
                    Some(at_field(&cx.lint(), doc, "description")),
                    format!("description has {chars} characters; at most {MAX_DESCRIPTION} are allowed"),
                );
            }
        }
        Some(other) => invalid(
            cx,
            doc,
            "description",
            format!("`description` must be a string, not {}", kind(other)),
            sink,
        ),
        None => {}
    }
    if let Some(compatibility) = doc.field("compatibility") {
        match compatibility.as_str() {
            None => invalid(
                cx,
                doc,
                "compatibility",
                format!("`compatibility` must be a string, not {}", kind(compatibility)),
                sink,
            ),
            Some(text) if text.chars().count() > MAX_COMPATIBILITY => invalid(
                cx,
                doc,
                "compatibility",
                format!(
                    "`compatibility` has {} characters; at most {MAX_COMPATIBILITY} are allowed",
                    text.chars().count()
                ),
                sink,
            ),
            Some(_) => {}
        }
    }
    if let Some(license) = doc.field("license").filter(|l| !l.is_string()) {
        invalid(cx, doc, "license", format!("`license` must be a string, not {}", kind(license)), sink);
    }
    if let Some(metadata) = doc.field("metadata").filter(|m| !m.is_object()) {
        invalid(
            cx,
            doc,
            "metadata",
            format!("`metadata` must be a mapping of keys to text, not {}", kind(metadata)),
            sink,
        );
    }
    // A folder of Agent Skills (no runtime) is held to the specification's key set.
    let strict_keys = runtime.is_none_or(|r| r.spec().skills.strict_spec_keys);
    let Some(frontmatter) = doc.frontmatter.as_ref().filter(|_| strict_keys) else {
        return;
    };
    for key in frontmatter.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        sink.report(
            &UNKNOWN_FIELD,
            id,
            Some(at_field(&cx.lint(), doc, key)),
            format!("`{key}` is not an Agent Skills field: skills-ref rejects the skill"),
        );
    }
}

fn invalid(cx: &Context<'_>, doc: &Markdown, key: &str, message: String, sink: &mut Sink) {
    sink.report(&INVALID_FIELD, cx.runtime, Some(at_field(&cx.lint(), doc, key)), message);
}

/// Why `name` breaks the specification's name rule, if it does. Letters
/// follow the reference validator: any lowercase alphanumeric character.
pub(crate) fn name_problem(name: &str) -> Option<&'static str> {
    if name.chars().count() > MAX_NAME {
        Some("is longer than 64 characters")
    } else if name.chars().any(|c| c.is_uppercase()) {
        Some("must be lowercase")
    } else if !name.chars().all(|c| c.is_alphanumeric() || c == '-') {
        Some("may hold only letters, digits and hyphens")
    } else if name.starts_with('-') || name.ends_with('-') {
        Some("must not start or end with a hyphen")
    } else if name.contains("--") {
        Some("must not hold two hyphens in a row")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_specification() {
        assert_eq!(name_problem("pdf-tools"), None);
        assert_eq!(name_problem("v2"), None);
        assert_eq!(name_problem("PDF"), Some("must be lowercase"));
        assert_eq!(name_problem("pdf_tools"), Some("may hold only letters, digits and hyphens"));
        assert_eq!(name_problem("-pdf"), Some("must not start or end with a hyphen"));
        assert_eq!(name_problem("pdf-"), Some("must not start or end with a hyphen"));
        assert_eq!(name_problem("pdf--tools"), Some("must not hold two hyphens in a row"));
        assert_eq!(name_problem(&"a".repeat(64)), None);
        assert_eq!(name_problem(&"a".repeat(65)), Some("is longer than 64 characters"));
    }
}
