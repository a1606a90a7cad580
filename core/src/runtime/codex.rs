//! OpenAI Codex CLI: plugin (`.codex-plugin/plugin.json`, marketplace `.agents/plugins/marketplace.json`) and project kinds.

use super::{BOTH_SCOPES, Kind, Layout, Writer};
use crate::error::{Error, ErrorCode, Result};

pub const KINDS: &[Kind] = &[Kind {
    name: "TODO-kind",
    layout: Layout::Folder,
    scopes: BOTH_SCOPES,
    marketplace: None,
    shared: &[],
}];

pub fn write(w: &mut Writer<'_>) -> Result<()> {
    Err(Error::new(ErrorCode::UnsupportedRuntime, format!("{} is not written yet", w.runtime.id())))
}
