//! Slash commands: Markdown with frontmatter (Claude Code, Codex, Cursor,
//! OpenCode) or Gemini CLI's TOML files (`prompt` required, `description`
//! optional, both strings: Gemini's `FileCommandLoader` skips any other file).

use super::super::Context;
use super::layout::Layout;
use crate::lint::Sink;
use crate::lint::component_rules::command::*;
use crate::lint::markdown::{self, MarkdownRules};
use crate::runtime::Runtime;

const MARKDOWN: MarkdownRules = MarkdownRules {
    invalid_frontmatter: &INVALID_FRONTMATTER,
    quoted_frontmatter: Some(&QUOTED_FRONTMATTER),
    no_frontmatter: Some(&NO_FRONTMATTER),
};

pub(crate) fn check(cx: &Context<'_>, layout: &Layout, sink: &mut Sink) {
    let runtime = cx.runtime.unwrap_or(Runtime::CANONICAL);
    let commands = &runtime.spec().commands;
    let lint = Context { runtime: Some(runtime), ..*cx }.lint();
    if let Some(check_own_format) = commands.own_format {
        return check_own_format(&lint, &layout.commands, sink);
    }
    for dir in &layout.commands {
        for rel in markdown::files(&lint, dir, commands.extensions, true) {
            if !rel.ends_with("/SKILL.md") && rel != "SKILL.md" {
                check_markdown(&lint, runtime, &rel, sink);
            }
        }
    }
}

fn check_markdown(cx: &crate::lint::Cx<'_>, runtime: Runtime, rel: &str, sink: &mut Sink) {
    let spec = runtime.spec();
    let rules = if spec.commands.frontmatter_required {
        MARKDOWN
    } else {
        MarkdownRules { no_frontmatter: None, ..MARKDOWN }
    };
    let Some(doc) = markdown::read(cx, rel, &rules, sink) else { return };
    if let Some(check_frontmatter) = spec.reads.check_component_frontmatter {
        check_frontmatter(cx, &doc, &INVALID_FIELD, sink);
    }
    let Some(description) = &spec.commands.description else { return };
    let described = if description.key_alone_suffices {
        doc.has_key("description")
    } else {
        doc.str_field("description").is_some_and(|d| !d.trim().is_empty())
    };
    if doc.frontmatter.is_some() && !described {
        sink.report(
            &MISSING_DESCRIPTION,
            Some(runtime),
            Some(cx.folder.at(rel)),
            format!("the frontmatter has no `description`: {}", description.why_needed),
        );
    }
}
