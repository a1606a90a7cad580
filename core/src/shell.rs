//! Where a POSIX shell command leaves a variable unquoted, and quoting it.
//!
//! Claude Code (2.1.3xx) warns, and `--strict` refuses, a shell-form hook
//! command that expands `${CLAUDE_PLUGIN_ROOT}` or `${CLAUDE_PLUGIN_DATA}`
//! outside quotes: an install path with a space splits into several words.
//! The shell-words crates split a command into words but do not say which
//! byte sits inside which quotes, and that is all this needs: a scan of the
//! three quoting states (none, '...', "...") with backslash escapes.

/// Byte ranges of `$NAME` / `${NAME}` (for each of `names`) outside any
/// quotes in `command`.
pub fn unquoted_variables(command: &str, names: &[&str]) -> Vec<(usize, usize)> {
    let bytes = command.as_bytes();
    let mut spans = Vec::new();
    walk(command, |i, single, double| {
        let end = (bytes[i] == b'$' && !single && !double).then(|| variable_end(command, i + 1, names))??;
        spans.push((i, end));
        Some(end)
    });
    spans
}

/// Walks `command` through the three quoting states (none, '...', "...")
/// with backslash escapes. At each byte that is not escaped, `at(index,
/// in_single, in_double)` may claim the bytes up to the index it returns,
/// which are then skipped.
fn walk(command: &str, mut at: impl FnMut(usize, bool, bool) -> Option<usize>) {
    let bytes = command.as_bytes();
    let (mut i, mut single, mut double) = (0, false, false);
    while i < bytes.len() {
        if let Some(end) = at(i, single, double) {
            i = end;
            continue;
        }
        let b = bytes[i];
        if single {
            single = b != b'\'';
        } else if b == b'\\' {
            i += 1;
        } else if b == b'"' {
            double = !double;
        } else if b == b'\'' && !double {
            single = true;
        }
        i += 1;
    }
}

/// The end of `NAME` or `{NAME}` at `from` when NAME is one of `names`.
fn variable_end(command: &str, from: usize, names: &[&str]) -> Option<usize> {
    let rest = &command[from..];
    if let Some(braced) = rest.strip_prefix('{') {
        let close = braced.find('}')?;
        names.contains(&&braced[..close]).then_some(from + close + 2)
    } else {
        let len = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
        names.contains(&&rest[..len]).then_some(from + len)
    }
}

/// Characters that mean the same inside double quotes as outside, so a word
/// made of them can be quoted whole: `"${X}/bin/run.sh"` rather than `"${X}"/bin/run.sh`.
fn plain_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"._/+,:@%=-".contains(&b)
}

/// `command` with each unquoted use of `names` double-quoted together with
/// the plain rest of its word; `None` when nothing was unquoted.
pub fn quote_variables(command: &str, names: &[&str]) -> Option<String> {
    let spans = unquoted_variables(command, names);
    if spans.is_empty() {
        return None;
    }
    let bytes = command.as_bytes();
    let mut out = String::with_capacity(command.len() + 2 * spans.len());
    let mut copied = 0;
    for (index, &(start, end)) in spans.iter().enumerate() {
        // The word goes on through plain bytes, but never into the next variable.
        let limit = spans.get(index + 1).map_or(bytes.len(), |next| next.0);
        let word_end = end + bytes[end..limit].iter().take_while(|b| plain_word_byte(**b)).count();
        out.push_str(&command[copied..start]);
        out.push('"');
        out.push_str(&command[start..word_end]);
        out.push('"');
        copied = word_end;
    }
    out.push_str(&command[copied..]);
    Some(out)
}

/// The folder variables of the canonical dialect a hook command may use:
/// a writer puts a path in their place.
const FOLDER_VARIABLES: [&str; 4] =
    ["PLUGIN_ROOT", "PLUGIN_DATA", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

/// Hook groups (`{"matcher": ..., "hooks": [{"type": "command", "command":
/// ...}]}`, at any depth) with every unquoted folder variable of each
/// command double-quoted together with the rest of its word, before a
/// writer replaces it by a path: the path then stays one word, and nothing
/// in it (a space, a `;`) is read by the shell. Only `type: command` hooks
/// are touched; MCP servers' `command` is an executable, not a shell line.
pub fn quote_folder_variables_in_hooks(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(quote_folder_variables_in_hooks).collect()),
        Value::Object(mut map) => {
            let is_command_hook = map.get("type").and_then(Value::as_str) == Some("command");
            for (key, item) in map.iter_mut() {
                match (key.as_str(), item) {
                    ("command", Value::String(command)) if is_command_hook => {
                        if let Some(quoted) = quote_variables(command, &FOLDER_VARIABLES) {
                            *command = quoted;
                        }
                    }
                    (_, item) => *item = quote_folder_variables_in_hooks(item.take()),
                }
            }
            Value::Object(map)
        }
        other => other,
    }
}

/// Hook groups as a runtime that runs each `command` through a shell needs
/// them: exec-form handlers as one shell line ([`exec_form_as_shell_line`]),
/// then the plugin-folder variables quoted
/// ([`quote_folder_variables_in_hooks`]).
pub fn hooks_as_shell_lines(value: serde_json::Value) -> serde_json::Value {
    quote_folder_variables_in_hooks(exec_form_as_shell_line(value))
}

/// Hook groups with every exec-form command handler (`command` plus an
/// `args` list, which Claude Code runs without a shell) written as the one
/// shell line a runtime without exec form runs: each word quoted so it stays
/// one argument, `${VAR}` words double-quoted so the variable still expands.
/// Without this a runtime that reads only `command` runs the bare program
/// (`node`) with no script.
pub fn exec_form_as_shell_line(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(exec_form_as_shell_line).collect()),
        Value::Object(mut map) => {
            let is_command_hook = map.get("type").and_then(Value::as_str).is_none_or(|t| t == "command");
            let words = |map: &serde_json::Map<String, Value>| -> Option<Vec<String>> {
                let mut words = vec![map.get("command")?.as_str()?.to_string()];
                for arg in map.get("args")?.as_array()? {
                    words.push(arg.as_str()?.to_string());
                }
                Some(words)
            };
            if is_command_hook && let Some(words) = words(&map) {
                let line: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
                map.remove("args");
                map.insert("command".into(), Value::String(line.join(" ")));
                return Value::Object(map);
            }
            for (_, item) in map.iter_mut() {
                *item = exec_form_as_shell_line(item.take());
            }
            Value::Object(map)
        }
        other => other,
    }
}

/// One argument as a POSIX shell word: bare when it holds nothing the shell
/// reads, double-quoted when it uses `${VAR}` (with `"`, `\` and `` ` ``
/// escaped), single-quoted otherwise.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    if word.contains("${") {
        let mut out = String::from('"');
        for c in word.chars() {
            if matches!(c, '"' | '\\' | '`') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
        return out;
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// The environment variable Claude Code sets for user option `key` in a
/// hook's environment: `CLAUDE_PLUGIN_OPTION_<KEY>`, the key upper-cased
/// with every character outside `[A-Za-z0-9_]` made `_` (as 2.1.332 does).
pub fn claude_option_variable(key: &str) -> String {
    let key: String =
        key.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    format!("CLAUDE_PLUGIN_OPTION_{}", key.to_ascii_uppercase())
}

/// `command` with each `${user_config.KEY}` read from the hook's
/// environment instead: Claude Code (since 2.1.207) refuses a shell-form
/// hook that would have the substituted value re-parsed by the shell, and
/// sets `CLAUDE_PLUGIN_OPTION_<KEY>` for every option. The variable is
/// double-quoted wherever the reference stood (outside quotes, inside
/// `"..."`, or inside `'...'`, which is closed and reopened around it), so
/// the value stays one word. `None` when the command has no reference.
pub fn user_options_from_environment(command: &str) -> Option<String> {
    user_options_with_defaults(command, &|_| None)
}

/// [`user_options_from_environment`], each variable falling back to
/// `default(KEY)` when it is unset (`${CLAUDE_PLUGIN_OPTION_KEY:-coach}`):
/// what a runtime that has no plugin options runs, where nothing sets the
/// variable. A default the shell would read (a quote, `$`, `}`, a
/// backslash) is not written; [`is_plain_default`] says which are.
pub fn user_options_with_defaults(command: &str, default: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    const OPEN: &str = "${user_config.";
    if !command.contains(OPEN) {
        return None;
    }
    let mut out = String::with_capacity(command.len() + 16);
    let mut copied = 0;
    walk(command, |i, single, double| {
        let key_at = i + OPEN.len();
        // Bytes, not `&command[i..]`: the walk visits every byte, inside
        // multi-byte characters too; OPEN is ASCII, so a match is on a boundary.
        let close =
            command.as_bytes()[i..].starts_with(OPEN.as_bytes()).then(|| command[key_at..].find('}'))??;
        let key = &command[key_at..key_at + close];
        let fallback =
            default(key).filter(|d| is_plain_default(d)).map(|d| format!(":-{d}")).unwrap_or_default();
        let variable = format!("{}{fallback}", claude_option_variable(key));
        out.push_str(&command[copied..i]);
        out.push_str(&match (single, double) {
            (true, _) => format!("'\"${{{variable}}}\"'"),
            (false, true) => format!("${{{variable}}}"),
            (false, false) => format!("\"${{{variable}}}\""),
        });
        copied = key_at + close + 1;
        Some(copied)
    });
    out.push_str(&command[copied..]);
    Some(out)
}

/// A default that reads the same inside `"${VAR:-...}"` as written: no
/// quote, `$`, backquote, backslash or brace for the shell to act on.
pub fn is_plain_default(text: &str) -> bool {
    !text.is_empty()
        && !text.chars().any(|c| matches!(c, '"' | '\'' | '$' | '`' | '\\' | '{' | '}') || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAUDE: &[&str] = &["CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

    #[test]
    fn an_exec_form_hook_becomes_one_shell_line_with_every_argument() {
        use serde_json::json;
        // Claude Code's documented exec form.
        let hooks = json!({"PostToolUse": [{"matcher": "Edit|Write", "hooks": [
            {"type": "command", "command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/scripts/format.js", "--fix", "it's"], "timeout": 10},
            {"type": "command", "command": "echo plain"},
            {"type": "http", "url": "https://x.example", "args": ["kept"]}
        ]}]});
        assert_eq!(
            exec_form_as_shell_line(hooks),
            json!({"PostToolUse": [{"matcher": "Edit|Write", "hooks": [
                {"type": "command", "command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/format.js\" --fix 'it'\\''s'", "timeout": 10},
                {"type": "command", "command": "echo plain"},
                {"type": "http", "url": "https://x.example", "args": ["kept"]}
            ]}]})
        );
        assert_eq!(shell_word("a \"b\" ${X}"), "\"a \\\"b\\\" ${X}\"");
    }

    fn flagged(command: &str) -> bool {
        !unquoted_variables(command, CLAUDE).is_empty()
    }

    #[test]
    fn user_options_are_read_from_the_environment_in_every_quoting_state() {
        let cases = [
            ("run ${user_config.api_url}", "run \"${CLAUDE_PLUGIN_OPTION_API_URL}\""),
            ("run \"--url=${user_config.apiUrl}\"", "run \"--url=${CLAUDE_PLUGIN_OPTION_APIURL}\""),
            ("echo 'at ${user_config.dir} now'", "echo 'at '\"${CLAUDE_PLUGIN_OPTION_DIR}\"' now'"),
            (
                "a ${user_config.x-y} b ${user_config.x-y}",
                "a \"${CLAUDE_PLUGIN_OPTION_X_Y}\" b \"${CLAUDE_PLUGIN_OPTION_X_Y}\"",
            ),
        ];
        for (command, expected) in cases {
            assert_eq!(user_options_from_environment(command).as_deref(), Some(expected), "{command}");
        }
        assert_eq!(user_options_from_environment("run ${CLAUDE_PLUGIN_ROOT}/x"), None);
        // An unclosed reference is left for Claude Code's own message.
        assert_eq!(
            user_options_from_environment("run ${user_config.x").as_deref(),
            Some("run ${user_config.x")
        );
    }

    #[test]
    fn flags_what_claude_code_flags() {
        // Each case as `claude plugin validate` 2.1.332 judged it.
        for bare in [
            "C ${CLAUDE_PLUGIN_ROOT}/x.sh",
            "E $CLAUDE_PLUGIN_ROOT/x.sh",
            "G ${CLAUDE_PLUGIN_DATA}/x",
            "I x=${CLAUDE_PLUGIN_ROOT}/y",
        ] {
            assert!(flagged(bare), "{bare}");
        }
        for quoted in [
            "A \"${CLAUDE_PLUGIN_ROOT}/x.sh\"",
            "B '${CLAUDE_PLUGIN_ROOT}/x.sh'",
            "D \"${CLAUDE_PLUGIN_ROOT}\"/x.sh",
            "F \"$CLAUDE_PLUGIN_ROOT/x.sh\"",
            "H cd \"${CLAUDE_PLUGIN_ROOT}\" && ./x.sh",
            "J \"a ${CLAUDE_PLUGIN_ROOT}/x.sh b\"",
        ] {
            assert!(!flagged(quoted), "{quoted}");
        }
        assert!(!flagged("echo \\${CLAUDE_PLUGIN_ROOT} ${CLAUDE_PLUGIN_ROOTS} $HOME"));
        assert!(flagged("echo \"it's\" ${CLAUDE_PLUGIN_ROOT}"));
    }

    #[test]
    fn quotes_the_plain_word_and_keeps_the_rest() {
        let quote = |c: &str| quote_variables(c, CLAUDE);
        assert_eq!(
            quote("${CLAUDE_PLUGIN_ROOT}/scripts/format.sh").as_deref(),
            Some("\"${CLAUDE_PLUGIN_ROOT}/scripts/format.sh\"")
        );
        assert_eq!(
            quote("node $CLAUDE_PLUGIN_ROOT/a.js --out=x ${CLAUDE_PLUGIN_DATA}/*.log").as_deref(),
            Some("node \"$CLAUDE_PLUGIN_ROOT/a.js\" --out=x \"${CLAUDE_PLUGIN_DATA}/\"*.log")
        );
        assert_eq!(
            quote("${CLAUDE_PLUGIN_ROOT}${CLAUDE_PLUGIN_DATA};ls").as_deref(),
            Some("\"${CLAUDE_PLUGIN_ROOT}\"\"${CLAUDE_PLUGIN_DATA}\";ls")
        );
        assert_eq!(quote("bash \"${CLAUDE_PLUGIN_ROOT}/run.sh\""), None);
        for command in ["${CLAUDE_PLUGIN_ROOT}/a b", "x=${CLAUDE_PLUGIN_ROOT}/y; $CLAUDE_PLUGIN_DATA"] {
            assert!(!flagged(&quote(command).unwrap()), "{command}");
        }
    }
}
