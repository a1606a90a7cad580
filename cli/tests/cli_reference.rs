//! `docs/reference/cli.md` is generated from the command line's clap
//! definition (`plugforge_cli::command()`): every verb, argument, flag, value
//! and help line. The test fails when the page drifts from the definition;
//! `UPDATE_EXPECT=1` rewrites it (scripts/check-generated does both).

use std::path::Path;

use clap::{Arg, ArgAction, Command};

const HEADER: &str = "\
# Command line: every verb and flag

Generated from the command line's definition (`cli/src/args.rs`) by
`UPDATE_EXPECT=1 cargo test -p plugforge-cli --test cli_reference`; do not edit by hand. The same
text is `plugforge --help` and `plugforge <verb> --help`; `npx plugforge` and `python -m plugforge`
are this same program. How the flags combine, with examples: [using the command
line](command-line.md); exit and error codes: [exit and error codes](exit-codes.md).

";

/// Table cells hold no `|` and no line break, and a `<name>` outside code is
/// text, not an HTML tag (which would hide it on GitHub and in the book).
fn cell(text: &str) -> String {
    let text = text.replace('|', "\\|").replace('\n', " ");
    let parts: Vec<String> = text
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 0 { part.replace('<', "\\<") } else { part.to_string() })
        .collect();
    parts.join("`")
}

fn takes_value(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::Set | ArgAction::Append)
}

/// How the argument is written: `-t, --target <RUNTIME>` or `<SRC>...`.
fn spelling(arg: &Arg) -> String {
    let names: Vec<String> =
        arg.get_value_names().unwrap_or_default().iter().map(|n| n.to_string()).collect();
    let value = names.first().cloned().unwrap_or_else(|| arg.get_id().to_string().to_uppercase());
    let repeated = matches!(arg.get_action(), ArgAction::Append)
        || arg.get_num_args().is_some_and(|n| n.max_values() > 1);
    let dots = if repeated { "..." } else { "" };
    if arg.is_positional() {
        return format!("<{value}>{dots}");
    }
    let mut flags = Vec::new();
    if let Some(short) = arg.get_short() {
        flags.push(format!("-{short}"));
    }
    if let Some(long) = arg.get_long() {
        flags.push(format!("--{long}"));
    }
    let mut text = flags.join(", ");
    if takes_value(arg) {
        text.push_str(&format!(" <{value}>{dots}"));
    }
    text
}

/// The help line, with the accepted values and the default when clap knows them.
fn description(arg: &Arg) -> String {
    let mut text = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    if !values.is_empty() && takes_value(arg) {
        text.push_str(&format!(" (one of {})", values.join(", ")));
    }
    let defaults: Vec<String> =
        arg.get_default_values().iter().map(|v| format!("`{}`", v.to_string_lossy())).collect();
    if !defaults.is_empty() && takes_value(arg) {
        text.push_str(&format!("; default {}", defaults.join(", ")));
    }
    if arg.is_required_set() {
        text.push_str("; required");
    }
    text
}

fn verb(text: &mut String, command: &mut Command) {
    let name = command.get_name().to_string();
    text.push_str(&format!("## plugforge {name}\n\n"));
    if let Some(about) = command.get_about() {
        text.push_str(&format!("{about}.\n\n"));
    }
    let usage = command.render_usage().to_string();
    let usage = usage
        .trim_start_matches("Usage: ")
        .replace(&format!("plugforge-{name}"), &format!("plugforge {name}"));
    text.push_str(&format!("```text\n{usage}\n```\n\n"));
    let args: Vec<&Arg> = command.get_arguments().filter(|a| !a.is_hide_set()).collect();
    if !args.is_empty() {
        text.push_str("| argument | meaning |\n|---|---|\n");
        for arg in args {
            text.push_str(&format!("| `{}` | {} |\n", cell(&spelling(arg)), cell(&description(arg))));
        }
        text.push('\n');
    }
    if let Some(after) = command.get_after_help() {
        text.push_str(&format!("```text\n{after}\n```\n\n"));
    }
}

fn reference() -> String {
    let mut command = plugforge_cli::command();
    command.build();
    let mut text = HEADER.to_string();
    if let Some(about) = command.get_about() {
        text.push_str(&format!("{about}.\n\n"));
    }
    text.push_str("| verb | what it does |\n|---|---|\n");
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        let anchor = format!("plugforge-{}", sub.get_name());
        text.push_str(&format!("| [`{}`](#{anchor}) | {} |\n", sub.get_name(), cell(&about)));
    }
    text.push('\n');
    if let Some(after) = command.get_after_help() {
        text.push_str(&format!("```text\n{after}\n```\n\n"));
    }
    let mut subs: Vec<Command> =
        command.get_subcommands().filter(|s| s.get_name() != "help").cloned().collect();
    for sub in &mut subs {
        verb(&mut text, sub);
    }
    format!("{}\n", text.trim_end())
}

#[test]
fn docs_reference_cli_md_matches_the_command_line() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reference/cli.md");
    let generated = reference();
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated).expect("write docs/reference/cli.md");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == generated,
        "docs/reference/cli.md is stale: UPDATE_EXPECT=1 cargo test -p plugforge-cli --test cli_reference"
    );
}

#[test]
fn the_reference_names_every_verb_and_every_long_flag() {
    let generated = reference();
    let command = plugforge_cli::command();
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        assert!(generated.contains(&format!("## plugforge {}\n", sub.get_name())), "{}", sub.get_name());
        for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = arg.get_long() {
                let section = generated.split(&format!("## plugforge {}\n", sub.get_name())).nth(1).unwrap();
                let section = section.split("\n## ").next().unwrap();
                assert!(section.contains(&format!("--{long}")), "plugforge {} --{long}", sub.get_name());
            }
        }
    }
}
