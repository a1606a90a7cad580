//! Plugin-folder variables: each runtime spells "the installed plugin's
//! folder" its own way, and a spelling it does not know stays unexpanded
//! (the shell turns `${X}` into an empty string, so `${X}/run.sh` becomes
//! `/run.sh`). Shared by the hook and MCP areas.

use crate::runtime::{Runtime, agent_plugins, claude_code, codex, cursor, gemini};

/// Where a variable is used: hook commands run through a shell that sees the
/// runtime's environment; MCP fields are substituted by the runtime alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    Hook,
    Mcp,
}

/// Every known spelling, with the runtime it belongs to.
const SPELLINGS: [(&str, &str); 6] = [
    (claude_code::facts::PLUGIN_ROOT_VAR, "Claude Code"),
    (claude_code::facts::PLUGIN_DATA_VAR, "Claude Code"),
    (agent_plugins::facts::PLUGIN_ROOT_VAR, "Agent Plugins and Codex"),
    (agent_plugins::facts::PLUGIN_DATA_VAR, "Agent Plugins and Codex"),
    (gemini::facts::PLUGIN_ROOT_VAR, "Gemini CLI"),
    (cursor::facts::PLUGIN_ROOT_VAR, "Cursor"),
];

/// Spellings that name the plugin folder itself (the others name its data folder).
const ROOTS: [&str; 4] = [
    claude_code::facts::PLUGIN_ROOT_VAR,
    agent_plugins::facts::PLUGIN_ROOT_VAR,
    gemini::facts::PLUGIN_ROOT_VAR,
    cursor::facts::PLUGIN_ROOT_VAR,
];

/// The spellings `runtime` expands at `place`; `None` when the runtime has
/// no such place and nothing is checked.
pub(crate) fn understood(runtime: Runtime, place: Place) -> Option<&'static [&'static str]> {
    Some(match (runtime, place) {
        (Runtime::ClaudeCode, _) => {
            &[claude_code::facts::PLUGIN_ROOT_VAR, claude_code::facts::PLUGIN_DATA_VAR]
        }
        // Codex exports PLUGIN_ROOT/PLUGIN_DATA and the CLAUDE_ copies to hook
        // commands (codex-rs/hooks discovery.rs), but expands nothing in `.mcp.json`.
        (Runtime::Codex, Place::Hook) => &[
            codex::facts::PLUGIN_ROOT_VAR,
            codex::facts::PLUGIN_DATA_VAR,
            claude_code::facts::PLUGIN_ROOT_VAR,
            claude_code::facts::PLUGIN_DATA_VAR,
        ],
        (Runtime::Codex, Place::Mcp) => &[],
        (Runtime::Gemini, _) => &[gemini::facts::PLUGIN_ROOT_VAR],
        (Runtime::Cursor, _) => &[cursor::facts::PLUGIN_ROOT_VAR],
        (Runtime::AgentPlugins, Place::Mcp) => &agent_plugins::facts::RESERVED_ENV,
        (Runtime::OpenCode, Place::Mcp) => &[],
        _ => return None,
    })
}

/// One use of a known spelling in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reference<'a> {
    pub name: &'static str,
    /// The runtime that spelling belongs to.
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
        let Some((name, owner)) = SPELLINGS.iter().find(|(n, _)| *n == &text[name_start..name_end]) else {
            continue;
        };
        let end = if braced { name_end + 1 } else { name_end };
        let path = (ROOTS.contains(name) && bytes.get(end) == Some(&b'/')).then(|| {
            let rest = &text[end + 1..];
            let len =
                rest.find(|c: char| c.is_whitespace() || "\"'`;|&()<>$*?".contains(c)).unwrap_or(rest.len());
            &rest[..len]
        });
        out.push(Reference { name, owner, written: &text[start..end], path: path.filter(|p| !p.is_empty()) });
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
