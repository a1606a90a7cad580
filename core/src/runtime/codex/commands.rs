//! Commands in Codex: no slash commands. At install Codex 0.171 migrates a
//! plugin's `commands/**/*.md` into skills named `source-command-<name>`, but
//! only the ones its rules accept (repo `openai/codex`,
//! `codex-rs/core-plugins/src/command_migration.rs`; checked by installing).
//! The project kind applies the same rules when it writes commands as skills.

use crate::model::MarkdownComponent;

/// Codex's limit on a migrated skill's name.
const MAX_SKILL_NAME: usize = 64;

/// Why Codex would not migrate `command`, or `None` when it does.
pub fn refusal(command: &MarkdownComponent) -> Option<String> {
    let stem = command.file.path.as_str().rsplit('/').next().unwrap_or_default();
    if stem == "README.md" {
        return Some("Codex skips commands/README.md".into());
    }
    let described = command.document.field("description").is_some_and(|d| match d {
        serde_json::Value::String(s) => !s.trim().is_empty(),
        serde_json::Value::Bool(_) | serde_json::Value::Number(_) => true,
        _ => false,
    });
    if !described {
        return Some("Codex migrates only commands with a frontmatter description".into());
    }
    if migrated_name(&command.name).chars().count() > MAX_SKILL_NAME {
        return Some(format!("its migrated skill name would pass Codex's {MAX_SKILL_NAME}-character limit"));
    }
    template_feature(&command.document.body).map(|feature| {
        format!("Codex does not migrate commands whose body uses {feature} (it has no argument substitution)")
    })
}

/// The first template feature Codex refuses to migrate, as the user would spell it.
fn template_feature(body: &str) -> Option<&'static str> {
    if body.contains("$ARGUMENTS") {
        return Some("$ARGUMENTS");
    }
    if body.as_bytes().windows(2).any(|w| w[0] == b'$' && w[1].is_ascii_digit()) {
        return Some("$1-style arguments");
    }
    if body.contains("{{") && body.contains("}}") {
        return Some("{{...}}");
    }
    if body.contains("!`") || body.contains("! `") {
        return Some("!`shell`");
    }
    if body.split_whitespace().any(|token| token.len() > 1 && token.starts_with('@')) {
        return Some("@file");
    }
    None
}

/// The skill name Codex gives a migrated command (`a:b` -> `source-command-a-b`).
pub fn migrated_name(command: &str) -> String {
    slug(&format!("source-command-{command}"))
}

/// Lowercase ASCII alphanumerics with single dashes, as Codex slugifies.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FileComponent;
    use crate::path::BundlePath;
    use crate::source::{RenderedFile, parse_document};

    fn command(name: &str, text: &str) -> MarkdownComponent {
        let path = BundlePath::new(format!("commands/{}.md", name.replace(':', "/"))).unwrap();
        let file =
            RenderedFile { bytes: text.as_bytes().to_vec().into(), executable: false, origin: path.clone() };
        MarkdownComponent {
            name: name.into(),
            document: parse_document(path.as_str(), text).unwrap(),
            file: FileComponent { path, file },
        }
    }

    #[test]
    fn follows_codex_migration_rules() {
        assert_eq!(refusal(&command("plain", "---\ndescription: Plain\n---\nDo it.\n")), None);
        assert_eq!(refusal(&command("root", "---\ndescription: R\n---\nRun ${PLUGIN_ROOT}/x.sh\n")), None);
        assert_eq!(
            refusal(&command("args", "---\ndescription: A\n---\nFor $ARGUMENTS.\n")).unwrap(),
            "Codex does not migrate commands whose body uses $ARGUMENTS (it has no argument substitution)"
        );
        assert!(
            refusal(&command("pos", "---\ndescription: P\n---\nFor $1.\n")).unwrap().contains("$1-style")
        );
        assert!(
            refusal(&command("at", "---\ndescription: P\n---\nRead @notes.md\n")).unwrap().contains("@file")
        );
        assert_eq!(
            refusal(&command("bare", "Show it.\n")).unwrap(),
            "Codex migrates only commands with a frontmatter description"
        );
    }

    #[test]
    fn names_migrated_skills_as_codex_does() {
        assert_eq!(migrated_name("deploy"), "source-command-deploy");
        assert_eq!(migrated_name("gcs:sync"), "source-command-gcs-sync");
        assert_eq!(slug("Dk--Deploy_Now"), "dk-deploy-now");
    }
}
