//! Each built bundle judged as the folder it becomes on disk: its files under
//! the bundle root, detected by the same markers, run through the runtime's
//! native rules, each finding naming the bundle's runtime.

use super::super::catalog::rule;
use super::super::detect::{SubjectKind, subjects};
use super::super::{Context, Folder, check_plugin};
use crate::bundle::{Bundle, Output};
use crate::lint::Sink;
use crate::manifest::Manifest;
use crate::source::SourceTree;

pub(super) fn judge(bundle: &Bundle, output: &Output, sink: &mut Sink) {
    let tree = bundle_tree(bundle, output);
    let runtime = Some(bundle.runtime);
    let mut native = Sink::default();
    // A project or workspace kind has no plugin marker: nothing native to judge.
    let found = subjects(&tree, None, &mut Sink::default());
    for subject in found.iter().filter(|s| s.kind == SubjectKind::Plugin) {
        let folder = Folder::new(&tree, &subject.root);
        let cx = Context { tree: &tree, subject, folder, runtime: subject.runtime.or(runtime) };
        check_plugin(&cx, &mut native);
    }
    for finding in super::super::findings::finish(native, Vec::new(), false).findings {
        let Some(rule) = rule(finding.code.as_str()) else { continue };
        sink.report(rule, Some(bundle.runtime), finding.location, finding.message);
    }
}

/// The bundle's files at their paths below the output root, with the
/// generation manifest a build writes beside them.
pub(super) fn bundle_tree(bundle: &Bundle, output: &Output) -> SourceTree {
    let mut tree = SourceTree::new();
    for (path, file) in &bundle.files {
        let out = bundle.out_path(path);
        // Paths were validated when the bundle was built.
        let _ = tree.insert(out.as_str(), file.bytes.clone(), file.executable);
    }
    let manifest = Manifest::describe(bundle, &output.generator, output.scope.as_str(), GENERATED_AT);
    let _ = tree.insert(bundle.manifest.as_str(), manifest.to_bytes(), false);
    tree
}

/// A fixed time: the manifest's bytes do not matter to any rule, only its presence.
const GENERATED_AT: &str = "1970-01-01T00:00:00Z";
