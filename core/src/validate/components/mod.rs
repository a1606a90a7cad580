//! Rules of the `command` and `agent` areas, and the component layout and
//! Markdown reading the skill, hook and MCP areas share.

mod agents;
mod commands;
pub(crate) mod layout;
pub(crate) mod markdown;

use super::Context;
use super::catalog::Rule;
use super::findings::Sink;
use layout::Layout;

pub const RULES: &[&Rule] = &[
    &commands::INVALID_FRONTMATTER,
    &commands::NO_FRONTMATTER,
    &commands::MISSING_DESCRIPTION,
    &commands::INVALID_FIELD,
    &commands::INVALID_TOML,
    &commands::MISSING_PROMPT,
    &commands::IGNORED_FILE,
    &agents::INVALID_FRONTMATTER,
    &agents::NO_FRONTMATTER,
    &agents::MISSING_DESCRIPTION,
    &agents::MISSING_FIELD,
    &agents::UNKNOWN_FIELD,
    &agents::INVALID_FIELD,
];

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let layout = Layout::of(cx, sink);
    commands::check(cx, &layout, sink);
    agents::check(cx, &layout, sink);
}
