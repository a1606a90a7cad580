//! Command prompts between Claude Code's syntax and Qwen Code's.
//!
//! Qwen Code replaces `{{args}}` in a command prompt with everything typed
//! after the command and appends that text to a prompt without it; it runs
//! `!{cmd}` blocks (after confirmation) and inlines `@{path}`. `$ARGUMENTS`
//! is replaced only inside a `!{...}` block, and there are no positional
//! arguments ([`facts::ARGS`]). So Claude's `$ARGUMENTS` becomes `{{args}}`,
//! `` !`cmd` `` becomes `!{cmd}`, and `$1`..`$9` are rewritten and reported;
//! [`to_claude`] reads the same forms back.

use super::facts::ARGS;

/// A translated prompt and what changed on the way, for the honesty report.
#[derive(Debug, PartialEq, Eq)]
pub struct Prompt {
    pub text: String,
    pub notes: Vec<String>,
}

/// The line put before a prompt whose `$N` became `<argument N>`: with
/// `$ARGUMENTS` in it, and without.
const WITH_ALL: &str = "(<argument N> below is the N-th word of the arguments given to this command.)\n\n";
const WITHOUT_ALL: &str = "Arguments: {{args}}\n(<argument N> below is the N-th word of these arguments.)\n\n";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// `$ARGUMENTS`
    All,
    /// `$N` or `$ARGUMENTS[N-1]`, 1-based.
    Nth(usize),
}

/// (byte start, byte end, token) of every argument placeholder.
fn scan(body: &str) -> Vec<(usize, usize, Token)> {
    let mut found = Vec::new();
    for (at, _) in body.match_indices('$') {
        let rest = &body[at + 1..];
        if let Some(after) = rest.strip_prefix("ARGUMENTS") {
            let indexed = after
                .strip_prefix('[')
                .and_then(|s| s.split_once(']'))
                .and_then(|(digits, _)| digits.parse::<usize>().ok().map(|n| (n, digits.len() + 2)));
            match indexed {
                Some((n, len)) => found.push((at, at + 1 + "ARGUMENTS".len() + len, Token::Nth(n + 1))),
                None => found.push((at, at + 1 + "ARGUMENTS".len(), Token::All)),
            }
            continue;
        }
        let mut digits = rest.chars();
        if let (Some(d @ '1'..='9'), next) = (digits.next(), digits.next()) {
            if !next.is_some_and(|c| c.is_ascii_digit()) {
                found.push((at, at + 2, Token::Nth(d as usize - '0' as usize)));
            }
        }
    }
    found
}

fn replace(body: &str, tokens: &[(usize, usize, Token)], with: impl Fn(Token) -> String) -> String {
    let mut out = String::with_capacity(body.len());
    let mut last = 0;
    for (start, end, token) in tokens {
        out.push_str(&body[last..*start]);
        out.push_str(&with(*token));
        last = *end;
    }
    out.push_str(&body[last..]);
    out
}

/// A Claude Code command body as a Qwen Code prompt.
pub fn to_qwen(body: &str) -> Prompt {
    let mut notes = Vec::new();
    if body.contains("!{") || body.contains("@{") {
        notes.push("Qwen Code runs !{...} and inlines @{...} in a prompt, which Claude Code leaves as text".into());
    }
    let body = shell_lines(body, &mut notes);
    let tokens = scan(&body);
    let all = tokens.iter().any(|(_, _, t)| *t == Token::All);
    let mut positions: Vec<usize> = tokens
        .iter()
        .filter_map(|(_, _, t)| match t {
            Token::Nth(n) => Some(*n),
            Token::All => None,
        })
        .collect();
    positions.sort_unstable();
    positions.dedup();
    let text = match (positions.as_slice(), all) {
        ([], _) => replace(&body, &tokens, |_| ARGS.into()),
        ([1], false) => {
            notes.push(
                "$1 becomes {{args}}, the whole argument text (Qwen Code has no positional arguments)".into(),
            );
            replace(&body, &tokens, |_| ARGS.into())
        }
        _ => {
            let list: Vec<String> = positions.iter().map(|n| format!("${n}")).collect();
            notes.push(format!(
                "{} become <argument N>, explained in a line before the prompt (Qwen Code has no positional arguments)",
                list.join(", ")
            ));
            let translated = replace(&body, &tokens, |t| match t {
                Token::All => ARGS.into(),
                Token::Nth(n) => format!("<argument {n}>"),
            });
            format!("{}{translated}", if all { WITH_ALL } else { WITHOUT_ALL })
        }
    };
    Prompt { text, notes }
}

/// Claude's `` !`cmd` `` (run before the prompt is sent) -> Qwen's `!{cmd}`.
fn shell_lines(body: &str, notes: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    let mut changed = false;
    while let Some(at) = rest.find("!`") {
        let after = &rest[at + 2..];
        let Some(close) = after.find('`') else { break };
        let command = &after[..close];
        out.push_str(&rest[..at]);
        if command.contains('\n') || !balanced(command) {
            out.push_str(&rest[at..at + 2 + close + 1]);
        } else {
            out.push_str(&format!("!{{{command}}}"));
            changed = true;
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    if changed {
        notes.push("!`cmd` becomes !{cmd}; Qwen Code asks before running it".into());
    }
    out
}

fn balanced(text: &str) -> bool {
    let mut depth: i32 = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// A Qwen Code prompt as a Claude Code command body: `{{args}}` ->
/// `$ARGUMENTS`, `!{cmd}` -> `` !`cmd` ``, the explained `<argument N>` ->
/// `$N`. Returns the body and what has no Claude form (kept as text).
pub fn to_claude(prompt: &str) -> (String, Vec<&'static str>) {
    let mut problems = Vec::new();
    let body = match prompt.strip_prefix(WITH_ALL).or_else(|| prompt.strip_prefix(WITHOUT_ALL)) {
        Some(body) => (1..=9).fold(body.to_string(), |text, n| {
            text.replace(&format!("<argument {n}>"), &format!("${n}"))
        }),
        None => prompt.to_string(),
    };
    let body = body.replace(ARGS, "$ARGUMENTS");
    let mut out = String::with_capacity(body.len());
    let mut rest = body.as_str();
    while let Some(at) = rest.find("!{") {
        let after = &rest[at + 2..];
        out.push_str(&rest[..at]);
        match closing_brace(after) {
            Some(close) if !after[..close].contains(['`', '\n']) => {
                out.push_str(&format!("!`{}`", &after[..close]));
                rest = &after[close + 1..];
            }
            _ => {
                problems.push("a !{...} shell block spanning lines or holding a backtick has no Claude form; kept as text");
                out.push_str("!{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    if out.contains("@{") {
        problems.push("@{path} file injection has no canonical counterpart: kept as text, which other runtimes do not expand");
    }
    (out, problems)
}

/// The index of the `}` closing a block whose `{` was just read.
fn closing_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(at),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_become_args_and_come_back() {
        let p = to_qwen("Show the status for $ARGUMENTS.\n");
        assert_eq!(p.text, "Show the status for {{args}}.\n");
        assert!(p.notes.is_empty());
        assert_eq!(to_claude(&p.text).0, "Show the status for $ARGUMENTS.\n");
    }

    #[test]
    fn positionals_are_explained_and_read_back() {
        let p = to_qwen("Run `striatum status --run-id $1 --json` (id: $1)");
        assert_eq!(p.text, "Run `striatum status --run-id {{args}} --json` (id: {{args}})");
        assert!(p.notes[0].starts_with("$1 becomes {{args}}"));
        let p = to_qwen("All: $ARGUMENTS\nRun: $1\nJob: $2\n");
        assert_eq!(p.text, format!("{WITH_ALL}All: {{{{args}}}}\nRun: <argument 1>\nJob: <argument 2>\n"));
        assert_eq!(to_claude(&p.text).0, "All: $ARGUMENTS\nRun: $1\nJob: $2\n");
        let p = to_qwen("from $ARGUMENTS[0] to $2");
        assert_eq!(to_claude(&p.text).0, "from $1 to $2");
    }

    #[test]
    fn shell_lines_translate_both_ways() {
        let p = to_qwen("Status: !`git status --short`\nKeep !`echo {` as is");
        assert_eq!(p.text, "Status: !{git status --short}\nKeep !`echo {` as is");
        assert_eq!(p.notes, ["!`cmd` becomes !{cmd}; Qwen Code asks before running it"]);
        assert_eq!(to_claude("Nested !{echo {a}} done").0, "Nested !`echo {a}` done");
        let (text, problems) = to_claude("Odd !{echo `x`} and @{a.md}");
        assert_eq!(text, "Odd !{echo `x`} and @{a.md}");
        assert_eq!(problems.len(), 2);
    }

    #[test]
    fn leaves_shell_expansions_and_money_alone() {
        let p = to_qwen("Deploy $1 to ${2:-eu-west-1} for $10 or $HOME");
        assert_eq!(p.text, "Deploy {{args}} to ${2:-eu-west-1} for $10 or $HOME");
    }
}
