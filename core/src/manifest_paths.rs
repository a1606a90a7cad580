//! Paths a build copies into a runtime's manifest stay inside the bundle.
//!
//! A manifest's path fields come from the author (`targets.<id>.manifest`
//! overrides, a native plugin's own `logo`, `apps`, `lspServers`, ...), not
//! from plugforge's writers alone. The runtime's own manifest rules, the
//! ones `validate` runs on an output folder, judge the manifest as built;
//! a path they find leaving the plugin folder (a `..` segment, an absolute
//! path) refuses that runtime's build, naming the source file the manifest
//! came from and the line of the field's key there.

use crate::bundle::Bundle;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::lint::manifest_rules::{PATH_ESCAPES, PATH_NOT_RELATIVE};
use crate::lint::{Cx, Folder, Sink};
use crate::runtime::Runtime;
use crate::source::{JsonPositions, SourceTree};

/// `written` is the source as the author wrote it; `metadata` the file the
/// plugin's metadata came from (`plugforge.json`, or the manifest an import
/// drafted it from). A refusal names the author's file holding the field:
/// `targets.<id>.manifest` in `plugforge.json`, or a native manifest.
pub(crate) fn check(runtime: Runtime, bundle: &Bundle, written: &SourceTree, metadata: &str) -> Result<()> {
    let reads = &runtime.spec().reads;
    let (Some(check), Some(manifest)) = (reads.check_manifest, reads.manifest) else { return Ok(()) };
    let Some(file) = bundle.files.iter().find(|(path, _)| path.as_str() == manifest).map(|(_, f)| f) else {
        return Ok(());
    };
    let mut alone = SourceTree::new();
    alone.insert(manifest, file.bytes.clone(), false)?;
    let mut sink = Sink::default();
    let cx = Cx { folder: Folder::new(&alone, ""), runtime: Some(runtime), lenient_frontmatter: false };
    check(&cx, &mut sink);
    let escapes = [PATH_ESCAPES.code, PATH_NOT_RELATIVE.code];
    let findings: Vec<_> =
        sink.into_findings().into_iter().filter(|f| escapes.iter().any(|code| f.code == *code)).collect();
    if findings.is_empty() {
        return Ok(());
    }
    // Where the author may have written a manifest's field.
    let mut origins: Vec<&str> = vec![metadata];
    origins.extend(Runtime::specs().filter_map(|spec| spec.reads.manifest));
    origins.retain(|path| written.get(path).is_some());
    let problems = findings.into_iter().map(|finding| {
        // The field is the message's head (`logo: ...`, `interface.logo: ...`).
        let field = finding.message.split(':').next().unwrap_or_default();
        let override_path: Vec<&str> =
            ["targets", runtime.id(), "manifest"].into_iter().chain(field.split('.')).collect();
        let field_path: Vec<&str> = field.split('.').collect();
        let found = origins.iter().find_map(|origin| {
            let text = std::str::from_utf8(&written.get(origin)?.bytes).ok()?;
            let positions = JsonPositions::of(text);
            let line = positions.line_at(&override_path).or_else(|| positions.line_at(&field_path))?;
            Some((*origin, Some(line)))
        });
        let (origin, line) = found.unwrap_or((metadata, None));
        let location = Location { file: origin.to_string(), line, column: None };
        let message = format!(
            "{} (in the {} manifest, {manifest}); a path a manifest carries must stay inside the bundle",
            finding.message,
            runtime.id()
        );
        crate::error::Problem { message, location: Some(location) }
    });
    Err(Error::from_problems(ErrorCode::InvalidPath, problems.collect()))
}
