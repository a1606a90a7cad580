//! Rules of the `manifest` area: each runtime's plugin manifest, judged the
//! way that runtime's own loader and validator judge it (the rules live in
//! the runtime's folder; its spec names them).

pub(crate) use crate::lint::manifest_rules as rules;
pub use crate::lint::manifest_rules::RULES;

use super::Context;
use crate::lint::Sink;

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let Some(runtime) = cx.runtime else { return };
    let reads = &runtime.spec().reads;
    if let Some(manifest) = reads.manifest.filter(|_| reads.manifest_required) {
        if !cx.folder.exists(manifest) {
            let message = format!("no {manifest}: {} needs it to load the plugin", runtime.id());
            sink.report(&rules::MISSING, Some(runtime), Some(cx.folder.at(manifest)), message);
            return;
        }
    }
    if let Some(check_manifest) = reads.check_manifest {
        check_manifest(&cx.lint(), sink);
    }
}

#[cfg(test)]
pub(crate) mod tests;
