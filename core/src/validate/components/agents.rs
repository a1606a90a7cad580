//! Sub-agents: Markdown with frontmatter. Claude Code checks field types and
//! warns without a description; Gemini CLI's schema is strict (an unknown
//! key or a Claude-style `tools: Read, Grep` fails the agent's load);
//! OpenCode fails its whole config on a wrong `mode` or `tools`.

use super::super::Context;
use super::layout::Layout;
use crate::lint::Sink;
use crate::lint::component_rules::agent::*;
use crate::lint::markdown::{self, MarkdownRules};
use crate::runtime::Runtime;

pub(crate) fn check(cx: &Context<'_>, layout: &Layout, sink: &mut Sink) {
    let runtime = cx.runtime.unwrap_or(Runtime::CANONICAL);
    let agents = &runtime.spec().agents;
    for dir in &layout.agents {
        for rel in markdown::files(&cx.lint(), dir, &[".md"], agents.recursive) {
            let file_name = rel.rsplit('/').next().unwrap_or(&rel);
            if agents.skipped_prefix.is_some_and(|prefix| file_name.starts_with(prefix)) {
                continue;
            }
            check_agent(cx, runtime, &rel, sink);
        }
    }
}

fn check_agent(cx: &Context<'_>, runtime: Runtime, rel: &str, sink: &mut Sink) {
    let spec = runtime.spec();
    let rules = MarkdownRules {
        invalid_frontmatter: &INVALID_FRONTMATTER,
        quoted_frontmatter: Some(&QUOTED_FRONTMATTER),
        no_frontmatter: spec.agents.frontmatter_required.then_some(&NO_FRONTMATTER),
    };
    let lint = Context { runtime: Some(runtime), ..*cx }.lint();
    let Some(doc) = markdown::read(&lint, rel, &rules, sink) else { return };
    if let Some(check_frontmatter) = spec.reads.check_component_frontmatter {
        check_frontmatter(&lint, &doc, &INVALID_FIELD, sink);
    }
    if let Some(check) = spec.agents.check {
        check(&lint, &doc, sink);
    }
}
