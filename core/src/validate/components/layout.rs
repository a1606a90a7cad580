//! The layout of a subject: where its runtime looks for skills, commands,
//! agents, hooks and MCP servers (each runtime's spec says how it reads
//! its folder; the types live in `crate::lint::layout`).

use serde_json::Value;

use super::super::Context;
use crate::lint::Sink;
pub(crate) use crate::lint::layout::{HookSource, Layout, LayoutInput, McpSource, SkillDepth};
use crate::runtime::Runtime;

impl Layout {
    /// The layout of `cx`'s subject. A subject without a runtime (a source
    /// judged for every target) uses the canonical layout.
    pub(crate) fn of(cx: &Context<'_>, sink: &mut Sink) -> Layout {
        let runtime = cx.runtime.unwrap_or(Runtime::CANONICAL);
        // The first manifest the runtime finds: its own, or another format's.
        let reads = &runtime.spec().reads;
        let manifest_file = reads
            .manifest
            .into_iter()
            .chain(reads.manifest_fallbacks.iter().copied())
            .find(|m| cx.folder.exists(m))
            .or(reads.manifest);
        // A runtime that reads its manifest as JSON5 or JSONC, or another
        // format's manifest: the manifest area judges their syntax, so a
        // strict-JSON miss here is not a finding.
        let lenient = reads.lenient_manifest_syntax || manifest_file != reads.manifest;
        let manifest = manifest_file
            .filter(|m| m.ends_with(".json"))
            .and_then(
                |m| if lenient { cx.folder.json(m, &mut Sink::default()) } else { cx.folder.json(m, sink) },
            )
            .filter(Value::is_object)
            .unwrap_or(Value::Null);
        let mut layout = Layout::base();
        let input = LayoutInput {
            folder: cx.folder,
            manifest: &manifest,
            manifest_rel: manifest_file.unwrap_or_default(),
        };
        (reads.layout)(&mut layout, &input);
        layout
    }
}
