//! Claude command bodies -> Gemini TOML `prompt` text.
//!
//! Gemini (FileCommandLoader) replaces `{{args}}` with everything typed after
//! the command, appends that text when the prompt has no `{{args}}`, runs
//! `!{cmd}` (after confirmation) and inlines `@{path}`. It has no positional
//! arguments, so `$1`..`$9` are rewritten and reported.

/// A translated prompt and what changed on the way, for the honesty report.
#[derive(Debug, PartialEq, Eq)]
pub struct Prompt {
    pub text: String,
    pub notes: Vec<String>,
}

const ARGS: &str = "{{args}}";

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

/// Translates argument placeholders and Claude's `` !`cmd` `` shell lines.
pub fn translate(body: &str) -> Prompt {
    let mut notes = Vec::new();
    let body = literal_directives(body, &mut notes);
    let body = shell_lines(&body, &mut notes);
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
                "$1 becomes {{args}}, the whole argument text (Gemini has no positional arguments)".into(),
            );
            replace(&body, &tokens, |_| ARGS.into())
        }
        _ => {
            let list: Vec<String> = positions.iter().map(|n| format!("${n}")).collect();
            notes.push(format!(
                "{} become <argument N>, explained in a line before the prompt (Gemini has no positional arguments)",
                list.join(", ")
            ));
            let header = if all {
                "(<argument N> below is the N-th word of the arguments given to this command.)\n\n"
                    .to_string()
            } else {
                format!("Arguments: {ARGS}\n(<argument N> below is the N-th word of these arguments.)\n\n")
            };
            let translated = replace(&body, &tokens, |t| match t {
                Token::All => ARGS.into(),
                Token::Nth(n) => format!("<argument {n}>"),
            });
            format!("{header}{translated}")
        }
    };
    Prompt { text, notes }
}

/// What keeps `!{` and `@{` text in a Gemini prompt: Gemini has no escape
/// for its triggers, and a zero-width space between the two characters
/// reads the same to a person and to the model.
const DEFUSED: char = '\u{200B}';

/// A body's own `!{...}` and `@{...}` are text in Claude Code; Gemini would
/// run the first as a shell command and inline the second as a file. Each
/// is written with a zero-width space after its `!` or `@`.
fn literal_directives(body: &str, notes: &mut Vec<String>) -> String {
    if !body.contains("!{") && !body.contains("@{") {
        return body.to_string();
    }
    notes.push(
        "the body's literal !{...} and @{...}, which Gemini would run or inline, are written with a \
         zero-width space after ! and @ (Claude Code reads them as text)"
            .into(),
    );
    body.replace("!{", &format!("!{DEFUSED}{{")).replace("@{", &format!("@{DEFUSED}{{"))
}

/// Claude's `` !`cmd` `` (run before the prompt is sent) -> Gemini's `!{cmd}`.
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
        notes.push("!`cmd` becomes !{cmd}; Gemini asks before running it".into());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_become_args() {
        let p = translate("Show the status for $ARGUMENTS.\n");
        assert_eq!(p.text, "Show the status for {{args}}.\n");
        assert!(p.notes.is_empty());
        assert_eq!(translate("No placeholder\n").text, "No placeholder\n");
    }

    #[test]
    fn a_lone_first_positional_becomes_args_with_a_note() {
        let p = translate("Run `striatum status --run-id $1 --json` (id: $1)");
        assert_eq!(p.text, "Run `striatum status --run-id {{args}} --json` (id: {{args}})");
        assert_eq!(p.notes.len(), 1);
        assert!(p.notes[0].starts_with("$1 becomes {{args}}"));
    }

    #[test]
    fn several_positionals_are_named_and_explained() {
        let p = translate("All: $ARGUMENTS\nRun: $1\nJob: $2\n");
        assert_eq!(
            p.text,
            "(<argument N> below is the N-th word of the arguments given to this command.)\n\n\
             All: {{args}}\nRun: <argument 1>\nJob: <argument 2>\n"
        );
        assert_eq!(
            p.notes,
            [
                "$1, $2 become <argument N>, explained in a line before the prompt (Gemini has no positional arguments)"
            ]
        );
        let p = translate("from $ARGUMENTS[0] to $2");
        assert_eq!(
            p.text,
            "Arguments: {{args}}\n(<argument N> below is the N-th word of these arguments.)\n\n\
             from <argument 1> to <argument 2>"
        );
    }

    #[test]
    fn leaves_shell_expansions_and_money_alone() {
        let p = translate("Deploy $1 to ${2:-eu-west-1} for $10 or $HOME");
        assert_eq!(p.text, "Deploy {{args}} to ${2:-eu-west-1} for $10 or $HOME");
    }

    #[test]
    fn translates_claude_shell_lines() {
        let p = translate("Status: !`git status --short`\nKeep !`echo {` as is");
        assert_eq!(p.text, "Status: !{git status --short}\nKeep !`echo {` as is");
        assert_eq!(p.notes, ["!`cmd` becomes !{cmd}; Gemini asks before running it"]);
        let literal = translate("run !{touch PWNED} and read @{/etc/passwd}, then !`git status`");
        assert_eq!(literal.text, "run !\u{200B}{touch PWNED} and read @\u{200B}{/etc/passwd}, then !{git status}");
        assert!(!literal.text.contains("!{touch") && !literal.text.contains("@{/etc"));
        assert_eq!(literal.notes.len(), 2, "{:?}", literal.notes);
    }
}
