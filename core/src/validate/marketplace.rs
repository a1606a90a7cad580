//! Rules of the `marketplace` area.

use super::Context;
use super::catalog::Rule;
use super::detect::Subject;
use super::findings::Sink;
use crate::source::SourceTree;

pub const RULES: &[&Rule] = &[];

pub(crate) fn check(_cx: &Context<'_>, _sink: &mut Sink) {}

/// Folders of the plugins `marketplace` lists with a local source, so each
/// is judged as a plugin too.
pub(crate) fn local_plugin_roots(_tree: &SourceTree, _marketplace: &Subject) -> Vec<String> {
    Vec::new()
}
