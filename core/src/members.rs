//! Several plugins into one output root (a monorepo): each member's folder
//! bundles go to `<runtime>/<plugin>/`, each runtime's marketplace file lists
//! every member, and the build is refused before anything is written when
//! the members get in each other's way: two with one name, versions that
//! disagree, or what `validate` finds across the plugins of a marketplace
//! (component and MCP server names, required plugins, declared conflicts).
//! Two members writing one file concern the runtime that puts every
//! plugin's files in one place: that runtime is not built and listed with
//! the files, the others are.

use std::collections::BTreeMap;

use crate::bundle::{Output, TargetFailure};
use crate::error::{Error, ErrorCode, Location, Problem, Result};
use crate::options::BuildOptions;
use crate::path::{BundlePath, parent};
use crate::plan::{Observed, Op, PlanOptions, layout, plan};
use crate::registry::{ArtifactKind, Runtime};
use crate::report::Severity;
use crate::runtime::Layout;
use crate::source::SourceTree;
use crate::validate::{ValidateOptions, validate};

/// One plugin of a monorepo build.
pub struct Member<'a> {
    /// The member's folder as the user named it: problems in its files are
    /// reported below it.
    pub label: String,
    pub source: &'a SourceTree,
    /// The folder's own name (a Claude Code plugin without a manifest is
    /// named after it).
    pub source_name: Option<String>,
    /// Files of `source` that stand for a place in another file (a
    /// marketplace entry a manifest was written from): findings in them
    /// point there instead.
    pub origins: Vec<(String, Location)>,
}

/// Findings of `validate` that are about plugins sharing one marketplace;
/// any of them at error severity refuses the build.
const ACROSS_PLUGINS: [&str; 7] = [
    "marketplace/duplicate-plugin",
    "marketplace/name-collision",
    "marketplace/mcp-server-collision",
    "marketplace/version-mismatch",
    "marketplace/plugin-name-mismatch",
    "extension/collision",
    "extension/missing-plugin",
];

/// Builds every member with `options` into one output: folder bundles at
/// `<runtime>/<plugin>/`, marketplace entries for all of them. Every
/// member's own problems are reported together (with its folder in front
/// of each file), then the problems between members.
pub fn build_members(members: &[Member<'_>], options: &BuildOptions) -> Result<Output> {
    if members.is_empty() {
        return Err(Error::new(ErrorCode::InvalidOptions, "a monorepo build needs at least one plugin"));
    }
    let mut problems = Vec::new();
    let mut code = None;
    let mut outputs = Vec::new();
    for member in members {
        let options =
            BuildOptions { plugin_folders: true, source_name: member.source_name.clone(), ..options.clone() };
        match crate::build(member.source, &options) {
            Ok(output) => outputs.push((member, output)),
            Err(error) => {
                code.get_or_insert(error.code);
                problems.extend(error.problems.into_iter().map(|p| below(member, p)));
            }
        }
    }
    if !problems.is_empty() {
        return Err(Error::from_problems(code.unwrap_or(ErrorCode::InvalidSource), problems));
    }
    let mut combined: Option<Output> = None;
    let mut owners: BTreeMap<String, &str> = BTreeMap::new();
    let mut writers: BTreeMap<BundlePath, &str> = BTreeMap::new();
    // Two members writing one file is a problem of the runtime that puts
    // every plugin's files in one place, not of the plugins: that runtime is
    // not built (listed with the files), every other one is.
    let mut clashes: BTreeMap<(Runtime, ArtifactKind), Vec<Problem>> = BTreeMap::new();
    for (member, mut output) in outputs {
        let label = member.label.as_str();
        if let Some(bundle) = output.bundles.first() {
            if let Some(other) = owners.insert(bundle.namespace.clone(), label) {
                problems.push(Problem {
                    message: format!(
                        "{label} and {other} are both the plugin {:?}: a marketplace lists one plugin per name",
                        bundle.namespace
                    ),
                    location: Some(Location::file(label)),
                });
            }
        }
        problems.extend(version_disagreement(label, &output));
        for bundle in &output.bundles {
            for rel in bundle.files.keys() {
                let path = bundle.out_path(rel);
                if let Some(other) = writers.insert(path.clone(), label) {
                    clashes.entry((bundle.runtime, bundle.kind)).or_default().push(Problem {
                        message: format!(
                            "{path} would be written by both {other} and {label} ({} puts every plugin's files \
                             in one place): rename one of the two, or build {} for them separately",
                            bundle.runtime, bundle.runtime
                        ),
                        location: Some(Location::file(label)),
                    });
                }
            }
        }
        // A runtime not built for one member of many: its reasons name the member.
        for failure in &mut output.failures {
            let problems = std::mem::take(&mut failure.error.problems);
            failure.error.problems = problems.into_iter().map(|p| below(member, p)).collect();
        }
        let in_bundles = output.bundles.iter_mut().flat_map(|b| b.diagnostics.iter_mut());
        for diagnostic in output.diagnostics.iter_mut().chain(in_bundles) {
            if let Some(location) = diagnostic.location.as_mut() {
                *location = member.locate(location);
            }
        }
        match combined.as_mut() {
            None => combined = Some(output),
            Some(all) => {
                all.bundles.append(&mut output.bundles);
                all.shared.append(&mut output.shared);
                all.neighbours.append(&mut output.neighbours);
                all.diagnostics.append(&mut output.diagnostics);
                all.urls.append(&mut output.urls);
                all.failures.append(&mut output.failures);
            }
        }
    }
    let mut output = combined.expect("at least one member built");
    for ((runtime, kind), problems) in clashes {
        output.bundles.retain(|bundle| (bundle.runtime, bundle.kind) != (runtime, kind));
        output.failures.push(TargetFailure {
            runtime,
            kind,
            error: Error::from_problems(ErrorCode::InvalidSource, problems),
            skipped: false,
        });
    }
    output.shared.sort();
    output.shared.dedup();
    output.neighbours.sort();
    output.neighbours.dedup();
    output.members = true;
    if problems.is_empty() {
        problems.extend(across_plugins(&output)?);
    }
    if !problems.is_empty() {
        return Err(Error::from_problems(ErrorCode::InvalidSource, problems));
    }
    Ok(output)
}

/// `problem` with its file named below the member's folder.
fn below(member: &Member<'_>, mut problem: Problem) -> Problem {
    problem.location = Some(match &problem.location {
        Some(location) => member.locate(location),
        None => Location::file(&member.label),
    });
    problem
}

impl Member<'_> {
    /// `location` (in the member's source) as the user finds it: below the
    /// member's folder, or where a file written for it came from.
    fn locate(&self, location: &Location) -> Location {
        match self.origins.iter().find(|(file, _)| *file == location.file) {
            Some((_, origin)) => origin.clone(),
            None => Location { file: format!("{}/{}", self.label, location.file), ..location.clone() },
        }
    }
}

/// Every manifest a member's bundles carry states one version.
fn version_disagreement(label: &str, output: &Output) -> Option<Problem> {
    let mut versions: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for bundle in &output.bundles {
        versions
            .entry(bundle.plugin_version.as_deref().unwrap_or("none"))
            .or_default()
            .push(bundle.runtime.id());
    }
    (versions.len() > 1).then(|| {
        let said: Vec<String> = versions
            .iter()
            .map(|(version, runtimes)| format!("{version} ({})", runtimes.join(", ")))
            .collect();
        Problem {
            message: format!("{label}: its bundles disagree on the version: {}", said.join(" vs ")),
            location: Some(Location::file(label)),
        }
    })
}

/// The output as it would land on an empty root, judged by `validate` for
/// the rules that concern several plugins of one marketplace.
fn across_plugins(output: &Output) -> Result<Vec<Problem>> {
    let fresh = plan(output, Observed::default(), &PlanOptions::default())?;
    let mut tree = SourceTree::new();
    for action in fresh.actions.iter().filter(|a| a.op == Op::Create) {
        if let Some(bytes) = &action.bytes {
            tree.insert(action.path.as_str(), bytes.clone(), action.executable)?;
        }
    }
    let report = validate(&tree, &ValidateOptions::default())?;
    let problems = report
        .findings
        .into_iter()
        .filter(|f| f.severity == Severity::Error && ACROSS_PLUGINS.contains(&f.code.as_str()))
        .map(|f| Problem { message: format!("{}: {}", f.code, f.message), location: f.location })
        .collect();
    Ok(problems)
}

impl Output {
    /// Bundle manifests found below the root (`observed` lists every file
    /// named like a manifest, whatever else it leaves out)
    /// that no bundle of this monorepo output owns, where a member's bundle
    /// would be: beside a member's folder (`<runtime>/<other plugin>/`) or
    /// beside a member's manifest in a project's state folder. These are the
    /// members removed since the last build; the host reads them and sets
    /// [`Output::retired`]. A single plugin's build retires nothing.
    pub fn retired_manifests(&self, observed: &Observed) -> Vec<BundlePath> {
        if !self.members {
            return Vec::new();
        }
        let current: Vec<&BundlePath> = self.bundles.iter().map(|b| &b.manifest).collect();
        // `<runtime>/<plugin>/<manifest>`: the runtime folders of this build;
        // `<state dir>/<plugin><manifest>`: the state folders of this build.
        let mut folder_homes = Vec::new();
        let mut project_homes = Vec::new();
        for bundle in &self.bundles {
            let parent = parent(bundle.manifest.as_str()).unwrap_or("");
            match layout(bundle.runtime.id(), bundle.kind.as_str()) {
                Some(Layout::Folder) => folder_homes.push(parent_or_root(parent)),
                _ => project_homes.push(parent.to_string()),
            }
        }
        folder_homes.retain(|home| !home.is_empty());
        let name = self.manifest_name.as_str();
        let mut retired: Vec<BundlePath> = observed
            .hashes
            .keys()
            .filter(|path| path.ends_with(name))
            .filter_map(|path| BundlePath::new(path.as_str()).ok())
            .filter(|path| !current.contains(&path))
            .filter(|path| {
                let parent = parent(path.as_str()).unwrap_or("");
                let own_file = path.as_str().rsplit('/').next() == Some(name);
                if own_file {
                    folder_homes.contains(&parent_or_root(parent))
                } else {
                    project_homes.iter().any(|home| home == parent)
                }
            })
            .collect();
        retired.sort();
        retired
    }
}

fn parent_or_root(path: &str) -> String {
    parent(path).unwrap_or("").to_string()
}
