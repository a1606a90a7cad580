//! Rules of the `source` area: a plugforge source loads, builds for every
//! runtime it targets, and each built bundle passes that runtime's rules.

use super::Context;
use super::catalog::Rule;
use super::findings::Sink;

pub const RULES: &[&Rule] = &[];

pub(crate) fn check(_cx: &Context<'_>, _sink: &mut Sink) {}
