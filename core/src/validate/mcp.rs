//! Rules of the `mcp` area.

use super::Context;
use super::catalog::Rule;
use super::findings::Sink;

pub const RULES: &[&Rule] = &[];

pub(crate) fn check(_cx: &Context<'_>, _sink: &mut Sink) {}
