//! What one plugin folder holds, as far as the extension layer cares: its
//! declaration, the commands, skills and agents it defines, and the
//! `${NAME}` variables its MCP servers and hooks read. A source and a built
//! bundle share the layout these come from (`skills/<name>/SKILL.md`,
//! `commands/**/*.md`, `agents/*.md`, `.mcp.json`, `hooks/hooks.json`), so
//! one reader serves both; templates (`.j2`) count as the file they render.

use serde_json::Value;

use super::super::Folder;
use super::declared::{self, Declared};
use crate::error::Location;
use crate::lint::Sink;

/// The generation manifest a built bundle carries its extension in.
pub(crate) const GENERATION_MANIFEST: &str = crate::bundle::DEFAULT_MANIFEST_NAME;

/// Files whose `${NAME}` variables the runtime resolves from the
/// environment: MCP server configs and hooks.
const READING_FILES: [&str; 4] = [".mcp.json", "mcp.json", "hooks/hooks.json", "gemini-extension.json"];

/// Variables every runtime or shell provides: never bindings.
const PROVIDED: [&str; 8] =
    ["CLAUDE_PROJECT_DIR", "CLAUDE_ENV_FILE", "HOME", "USER", "PATH", "PWD", "TMPDIR", "SHELL"];

#[derive(Debug, Clone)]
pub(crate) struct Component {
    pub kind: &'static str,
    pub name: String,
    pub at: Location,
}

#[derive(Debug, Clone)]
pub(crate) struct Reference {
    pub name: String,
    pub at: Location,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Facts {
    pub name: String,
    /// A built bundle holds what its runtime kept: a binding or a conflict
    /// whose component the runtime dropped is judged on the source only.
    pub built: bool,
    pub declared: Declared,
    pub components: Vec<Component>,
    /// `${NAME}` variables read by MCP servers and hooks, in file order.
    pub references: Vec<Reference>,
    /// Text of the plugin's executable files, where a binding may be read as `$NAME`.
    pub executables: Vec<String>,
}

impl Facts {
    /// A plugforge source: the extension is in `plugforge.json`.
    pub fn of_source(folder: &Folder<'_>, config: &str) -> Facts {
        let name = name_in(folder, config, &["name"]);
        Facts::read(folder, name, declared::read(folder, config))
    }

    /// A built bundle: the extension is in its generation manifest, if any.
    pub fn of_bundle(folder: &Folder<'_>) -> Facts {
        let name = name_in(folder, GENERATION_MANIFEST, &["plugin", "name"]);
        Facts { built: true, ..Facts::read(folder, name, declared::read(folder, GENERATION_MANIFEST)) }
    }

    /// The plugin in `folder`, whichever it is.
    pub fn of_folder(folder: &Folder<'_>) -> Facts {
        match ["plugforge.json", "plugforge.json.j2"].into_iter().find(|f| folder.exists(f)) {
            Some(config) => Facts::of_source(folder, config),
            None => Facts::of_bundle(folder),
        }
    }

    pub fn defines(&self, kind: &str, name: &str) -> bool {
        self.components.iter().any(|c| c.kind == kind && c.name == name)
    }

    fn read(folder: &Folder<'_>, name: String, declared: Declared) -> Facts {
        let mut facts = Facts { name, declared, ..Facts::default() };
        for (path, file) in folder.below("") {
            let rel = path.strip_suffix(".j2").unwrap_or(&path);
            if let Some(component) = component_of(rel) {
                facts.components.push(Component { at: folder.at(&path), ..component });
            }
            let Ok(text) = std::str::from_utf8(&file.bytes) else { continue };
            if READING_FILES.contains(&rel) {
                facts.references.extend(
                    references_in(text).map(|(name, line, column)| Reference {
                        name,
                        at: folder.at_line(&path, line, column),
                    }),
                );
            }
            if file.executable {
                facts.executables.push(text.to_string());
            }
        }
        facts
    }
}

/// `skills/<n>/SKILL.md`, `commands/<a>/<b>.md` (invoked as `a:b`) or `agents/<n>.md`.
fn component_of(rel: &str) -> Option<Component> {
    let at = Location::default();
    if let Some(rest) = rel.strip_prefix("skills/") {
        let name = rest.strip_suffix("/SKILL.md").filter(|n| !n.contains('/'))?;
        return Some(Component { kind: "skill", name: name.to_string(), at });
    }
    if let Some(rest) = rel.strip_prefix("commands/") {
        let name = rest.strip_suffix(".md")?.replace('/', ":");
        return Some(Component { kind: "command", name, at });
    }
    let name = rel.strip_prefix("agents/")?.strip_suffix(".md").filter(|n| !n.contains('/'))?;
    Some(Component { kind: "agent", name: name.to_string(), at })
}

/// Every `${NAME}` in `text` naming an environment variable the plugin
/// expects to be bound: upper snake case, not provided by runtime or shell,
/// with its 1-based line and column. `${NAME:-default}` counts as `NAME`.
pub(crate) fn references_in(text: &str) -> impl Iterator<Item = (String, usize, usize)> + '_ {
    text.lines().enumerate().flat_map(|(index, line)| {
        line.match_indices("${").filter_map(move |(at, _)| {
            let inner = &line[at + 2..];
            let inner = &inner[..inner.find('}')?];
            let name = inner.split(':').next().unwrap_or(inner);
            let column = line[..at].chars().count() + 1;
            is_binding_name(name).then(|| (name.to_string(), index + 1, column))
        })
    })
}

/// Upper snake case, and not a variable runtimes or shells set themselves.
pub(crate) fn is_binding_name(name: &str) -> bool {
    is_env_name(name)
        && !PROVIDED.contains(&name)
        && !name.ends_with("PLUGIN_ROOT")
        && !name.ends_with("PLUGIN_DATA")
}

/// `[A-Z_][A-Z0-9_]*`: a name every shell and runtime passes through.
pub(crate) fn is_env_name(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_uppercase() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Whether an executable reads `name` as `$NAME` or `${NAME}`.
pub(crate) fn mentions(text: &str, name: &str) -> bool {
    text.match_indices('$').any(|(at, _)| {
        let rest = &text[at + 1..];
        let rest = rest.strip_prefix('{').unwrap_or(rest);
        rest.strip_prefix(name)
            .is_some_and(|after| !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    })
}

/// A string at `path` (keys from the root) of a JSON file, or "".
fn name_in(folder: &Folder<'_>, file: &str, path: &[&str]) -> String {
    let value = folder.json(file, &mut Sink::default()).unwrap_or(Value::Null);
    path.iter().fold(&value, |v, key| v.get(key).unwrap_or(&Value::Null)).as_str().unwrap_or("").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_name_bindings_with_line_and_column() {
        let text = "{\n  \"env\": {\"URL\": \"${NEON_DATABASE_URL}\", \"ROOT\": \"${CLAUDE_PLUGIN_ROOT}/x\"},\n  \"k\": \"${TOKEN:-none} ${HOME} ${extensionPath} ${user_config.key}\"\n}";
        let found: Vec<_> = references_in(text).collect();
        assert_eq!(found, vec![("NEON_DATABASE_URL".to_string(), 2, 19), ("TOKEN".to_string(), 3, 9)]);
    }

    #[test]
    fn executables_mention_whole_names_only() {
        assert!(mentions("curl -H \"$API_TOKEN\"", "API_TOKEN"));
        assert!(mentions("echo ${API_TOKEN}", "API_TOKEN"));
        assert!(!mentions("echo $API_TOKEN_2", "API_TOKEN"));
        assert!(!mentions("echo API_TOKEN", "API_TOKEN"));
    }

    #[test]
    fn components_follow_the_shared_layout() {
        let kinds = |rel: &str| component_of(rel).map(|c| (c.kind, c.name));
        assert_eq!(kinds("skills/review/SKILL.md"), Some(("skill", "review".into())));
        assert_eq!(kinds("skills/review/references/x.md"), None);
        assert_eq!(kinds("commands/git/checkpoint.md"), Some(("command", "git:checkpoint".into())));
        assert_eq!(kinds("agents/watcher.md"), Some(("agent", "watcher".into())));
        assert_eq!(kinds("agents/notes/x.md"), None);
    }
}
