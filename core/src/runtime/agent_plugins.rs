//! Agent Plugins 1.0: the closed root `plugin.json`, `skills/`, spec `mcp.json`.

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
