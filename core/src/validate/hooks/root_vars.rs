//! Plugin-folder variables: each runtime spells "the installed plugin's
//! folder" its own way, and a spelling it does not know stays unexpanded
//! (the shell turns `${X}` into an empty string, so `${X}/run.sh` becomes
//! `/run.sh`). Shared by the hook and MCP areas.

use std::sync::OnceLock;

use crate::runtime::Runtime;

/// One known spelling: its name, whether it names the plugin folder itself
/// (the others name its data folder), and the runtimes it belongs to.
struct Spelling {
    name: &'static str,
    root: bool,
    owner: String,
}

/// Every runtime's own spellings; a spelling several runtimes share names
/// them all ("Agent Plugins and Codex").
fn spellings() -> &'static [Spelling] {
    static SPELLINGS: OnceLock<Vec<Spelling>> = OnceLock::new();
    SPELLINGS.get_or_init(|| {
        let mut found: Vec<(&'static str, bool, Vec<&'static str>)> = Vec::new();
        for spec in Runtime::specs() {
            for &(name, root) in spec.folder_vars {
                match found.iter_mut().find(|(n, ..)| *n == name) {
                    Some((_, _, owners)) => owners.push(spec.name),
                    None => found.push((name, root, vec![spec.name])),
                }
            }
        }
        found
            .into_iter()
            .map(|(name, root, mut owners)| {
                owners.sort_unstable();
                Spelling { name, root, owner: owners.join(" and ") }
            })
            .collect()
    })
}

/// One use of a known spelling in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reference<'a> {
    pub name: &'static str,
    /// The runtimes that spelling belongs to.
    pub owner: &'static str,
    /// As written: `${NAME}` or `$NAME`.
    pub written: &'a str,
    /// The path after `NAME/`, when the variable names the plugin folder.
    pub path: Option<&'a str>,
}

/// Every known spelling in `text`; with `braced_only`, `$NAME` without
/// braces is skipped (no shell expands it).
pub(crate) fn references(text: &str, braced_only: bool) -> Vec<Reference<'_>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(offset) = text[i..].find('$') {
        let start = i + offset;
        i = start + 1;
        let braced = bytes.get(i) == Some(&b'{');
        if braced_only && !braced {
            continue;
        }
        let name_start = if braced { i + 1 } else { i };
        let name_len =
            text[name_start..].bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
        let name_end = name_start + name_len;
        if braced && bytes.get(name_end) != Some(&b'}') {
            continue;
        }
        let Some(spelling) = spellings().iter().find(|s| s.name == &text[name_start..name_end]) else {
            continue;
        };
        let end = if braced { name_end + 1 } else { name_end };
        let path = (spelling.root && bytes.get(end) == Some(&b'/')).then(|| {
            let rest = &text[end + 1..];
            let len =
                rest.find(|c: char| c.is_whitespace() || "\"'`;|&()<>$*?".contains(c)).unwrap_or(rest.len());
            &rest[..len]
        });
        out.push(Reference {
            name: spelling.name,
            owner: &spelling.owner,
            written: &text[start..end],
            path: path.filter(|p| !p.is_empty()),
        });
        i = end;
    }
    out
}

/// A path inside the plugin, cleaned of `./` segments and a trailing `/`;
/// `None` when it leaves the folder.
pub(crate) fn inside(path: &str) -> Option<String> {
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_braced_and_bare_spellings_with_their_paths() {
        let refs = references(
            "bash ${CLAUDE_PLUGIN_ROOT}/hooks/run.sh \"$PLUGIN_DATA\" ${HOME}/x $extensionPath",
            false,
        );
        let found: Vec<(&str, &str, Option<&str>)> =
            refs.iter().map(|r| (r.name, r.written, r.path)).collect();
        assert_eq!(
            found,
            [
                ("CLAUDE_PLUGIN_ROOT", "${CLAUDE_PLUGIN_ROOT}", Some("hooks/run.sh")),
                ("PLUGIN_DATA", "$PLUGIN_DATA", None),
                ("extensionPath", "$extensionPath", None),
            ]
        );
        assert_eq!(references("$PLUGIN_ROOT/x ${PLUGIN_ROOT}/y;", true).len(), 1);
        assert_eq!(references("${PLUGIN_ROOT}/y;z", true)[0].path, Some("y"));
        assert!(references("${PLUGIN_ROOTS} $PLUGIN_ROOTX ${UNCLOSED", false).is_empty());
    }

    #[test]
    fn paths_stay_inside_the_plugin() {
        assert_eq!(inside("./hooks//run.sh/"), Some("hooks/run.sh".into()));
        assert_eq!(inside("../x"), None);
    }
}
