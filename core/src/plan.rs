//! Desired output + what the host saw on disk -> the list of file actions.
//! Pure: the host applies it (writes, removals, manifests last).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bundle::{Bundle, Output};
use crate::codes::DiagnosticCode;
use crate::error::{Location, Result};
use crate::hash::Sha256Digest;
use crate::manifest::Manifest;
use crate::merge::{self, Part, Record, Refusal, Step};
use crate::path::{BundlePath, parent};
use crate::report::Diagnostic;
use crate::runtime::{Layout, Runtime};

/// What the host found below the output root.
#[derive(Debug, Clone, Default)]
pub struct Observed {
    /// sha256 of the files below the output root, by relative path. A
    /// host may leave a file no plan looks at unhashed (`None`: it equals
    /// no hash, so such a file is never taken for plugforge's) or out (a
    /// build's host lists only those and every file named like a manifest:
    /// see [`crate::Output::retired_manifests`]); it must hash
    /// the files tracked by the manifests `paths_to_read` names by their
    /// exact path and the paths a build writes
    /// ([`crate::Output::paths_to_hash`]). Another plugin's files need no
    /// hash: the plan asks about them only at those paths.
    pub hashes: BTreeMap<String, Option<Sha256Digest>>,
    /// Bytes of the files named by `paths_to_read` that exist.
    pub contents: BTreeMap<String, Arc<[u8]>>,
}

impl Observed {
    /// Whether a file is at `path`, and its sha256 if the host hashed it.
    fn hash(&self, path: &BundlePath) -> Option<Option<Sha256Digest>> {
        self.hashes.get(path.as_str()).copied()
    }

    fn bytes(&self, path: &BundlePath) -> Option<&[u8]> {
        self.bytes_at(path.as_str())
    }

    fn bytes_at(&self, path: &str) -> Option<&[u8]> {
        self.contents.get(path).map(|b| &b[..])
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanOptions {
    /// Overwrite edited or foreign files, remove edited leftovers.
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub force: bool,
    /// RFC 3339 time for new manifests; kept from the previous manifest when
    /// nothing changed.
    pub generated_at: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Op {
    Create,
    Update,
    Unchanged,
    /// Refused without --force: the file on disk is not what was generated.
    Conflict,
    Remove,
    /// An edited file that is no longer generated: left in place.
    Keep,
}

#[derive(Debug, Clone, Serialize)]
pub struct Action {
    pub path: BundlePath,
    pub op: Op,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The bytes to write, for create and update.
    #[serde(skip)]
    pub bytes: Option<Arc<[u8]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<Sha256Digest>,
    pub executable: bool,
    /// sha256 of the file the plan saw at `path` (`None`: there was none,
    /// or one the host did not hash, which no plan writes over). A host
    /// checks the file is still that right before it replaces or removes
    /// it: one changed since is a conflict, never overwritten.
    #[serde(skip)]
    pub found: Option<Sha256Digest>,
}

impl Action {
    pub(crate) fn new(path: BundlePath, op: Op) -> Self {
        Action { path, op, reason: None, bytes: None, sha256: None, executable: false, found: None }
    }

    pub(crate) fn because(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// The bytes to write, with their hash already known (a generated file
    /// carries its own, a merged one is hashed once by its caller).
    pub(crate) fn writing_hashed(mut self, bytes: Arc<[u8]>, sha256: Sha256Digest, executable: bool) -> Self {
        self.sha256 = Some(sha256);
        self.bytes = Some(bytes);
        self.executable = executable;
        self
    }

    pub fn writes(&self) -> bool {
        matches!(self.op, Op::Create | Op::Update | Op::Remove)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Summary {
    pub create: usize,
    pub update: usize,
    pub unchanged: usize,
    pub conflict: usize,
    pub remove: usize,
    pub keep: usize,
}

/// The actions in apply order (manifests last), and whether the plan is
/// refused (any conflict): a refused plan must not be applied at all.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub actions: Vec<Action>,
    pub refused: bool,
    pub summary: Summary,
    pub diagnostics: Vec<Diagnostic>,
    /// How many of the last actions are bundle manifests. A host may apply
    /// the other actions in any order (in parallel, flushed once), but must
    /// apply these only once every other action has landed: a manifest
    /// never names bytes that are not on disk yet.
    #[serde(skip)]
    pub manifests: usize,
}

impl Plan {
    pub(crate) fn from_actions(
        mut actions: Vec<Action>,
        manifests: usize,
        diagnostics: Vec<Diagnostic>,
        observed: &Observed,
    ) -> Plan {
        let mut summary = Summary::default();
        for action in &mut actions {
            action.found = observed.hashes.get(action.path.as_str()).copied().flatten();
            *match action.op {
                Op::Create => &mut summary.create,
                Op::Update => &mut summary.update,
                Op::Unchanged => &mut summary.unchanged,
                Op::Conflict => &mut summary.conflict,
                Op::Remove => &mut summary.remove,
                Op::Keep => &mut summary.keep,
            } += 1;
        }
        Plan { refused: summary.conflict > 0, actions, summary, diagnostics, manifests }
    }

    /// How many files applying the plan touches.
    pub fn writes(&self) -> usize {
        self.actions.iter().filter(|a| a.writes()).count()
    }
}

/// Computes the plan for writing `output` over what `observed` found.
/// Takes `observed`: each bundle's previous manifest (as large as the new
/// one, a few megabytes for a large build) goes once it is read, before the
/// new manifests are made.
pub fn plan(output: &Output, observed: Observed, options: &PlanOptions) -> Result<Plan> {
    let mut observed = observed;
    crate::bundle::check_manifest_name(&output.manifest_name)?;
    // A manifest written over a generated file would replace it, and the
    // next plan would read the file as a manifest.
    for bundle in &output.bundles {
        if let Some((rel, _)) = bundle.files.iter().find(|(rel, _)| bundle.out_path(rel) == bundle.manifest) {
            return Err(crate::Error::at(
                crate::ErrorCode::InvalidOptions,
                Location::file(rel.as_str()),
                format!(
                    "manifest name {:?} refused: the {} bundle writes {} itself; choose another --manifest-name",
                    output.manifest_name, bundle.runtime, bundle.manifest
                ),
            ));
        }
    }
    // One action a generated file, most builds: sized once, not doubled
    // past a large build's count.
    let generated: usize = output.bundles.iter().map(|b| b.files.len() + b.merges.len()).sum();
    let mut files = Vec::with_capacity(generated + output.bundles.len());
    let mut manifests = Vec::with_capacity(output.bundles.len());
    let mut diagnostics = Vec::new();
    let mut shared: BTreeMap<BundlePath, Vec<Step>> = BTreeMap::new();
    let own: Vec<&BundlePath> = output.bundles.iter().map(|b| &b.manifest).chain(&output.retired).collect();
    let neighbours = Neighbours::read(&observed, &output.manifest_name, &own);
    // Another plugin's manifests are read into `neighbours`: their text
    // (as large as the plugin's file list) goes before this plan's grows.
    observed.contents.retain(|path, _| !neighbours.manifests.iter().any(|m| m.as_str() == path));
    for bundle in &output.bundles {
        let previous = take_previous(&mut observed, &bundle.manifest, &mut diagnostics);
        let observed = &observed;
        let actions = bundle_actions(bundle, previous.as_ref(), observed, options.force, &neighbours);
        files.extend(actions.into_iter().filter_map(|a| neighbours.spare_file(a, &mut diagnostics)));
        let records = previous.as_ref().map_or(&[][..], |m| m.merged.as_slice());
        for record in merge::stale(records, &bundle.merges) {
            push_step(&mut shared, record.path(), Step::Remove(record.clone()));
        }
        for wanted in &bundle.merges {
            let step = Step::Apply(wanted.clone(), merge::previous_for(wanted, records).cloned());
            shared.entry(wanted.path.clone()).or_default().push(step);
        }
        let mut manifest =
            Manifest::describe(bundle, &output.generator, output.scope.as_str(), &options.generated_at);
        // What of a shared file was the user's before this part was first
        // written there stays so: kept from the record that wrote it, or
        // read from the file now.
        let others: Vec<&Record> = neighbours.records.iter().map(|(_, record)| record).collect();
        for record in &mut manifest.merged {
            let found = match records.iter().find(|previous| previous.same_slot(record)) {
                Some(previous) => previous.found(),
                None => merge::found_in(observed.bytes_at(record.path()), record, &others),
            };
            record.set_found(found);
        }
        manifests.push(manifest_action(bundle.manifest.clone(), manifest, previous.as_ref(), observed));
    }
    if !output.retired.is_empty() {
        let written: BTreeSet<BundlePath> = files.iter().map(|a| a.path.clone()).collect();
        let mut retiring = Vec::new();
        for manifest_at in &output.retired {
            let Some(previous) = take_previous(&mut observed, manifest_at, &mut diagnostics) else {
                continue;
            };
            let root = retired_root(&previous, manifest_at);
            let over = Over {
                observed: &observed,
                force: options.force,
                neighbours: &neighbours,
                diagnostics: &mut diagnostics,
            };
            manifests.push(retire(&root, manifest_at.clone(), previous, over, &mut retiring, &mut shared));
        }
        // A file another member writes now is that member's, not a leftover.
        retiring.retain(|a: &Action| !written.contains(&a.path));
        files.extend(retiring);
    }
    for (path, steps) in shared {
        let steps = neighbours.spare_parts(steps);
        if !steps.is_empty() {
            files.extend(shared_action(path, &steps, &observed, options.force));
        }
    }
    let count = manifests.len();
    files.extend(manifests);
    Ok(Plan::from_actions(files, count, diagnostics, &observed))
}

/// What the other bundles written into the same project (or home) folder
/// record: two plugins may both write one file (the same skill, adopted by
/// the second build because its bytes are the same) or one part (the same
/// hook, one section of `AGENTS.md` for several runtimes of one plugin).
/// Whatever one of them still records is theirs too: a bundle that lets go
/// of it (uninstalled, retired, or no longer generating it) leaves it in
/// place, and a build never changes a file whose bytes another one tracks
/// without `--force`.
#[derive(Debug, Default)]
pub(crate) struct Neighbours {
    /// Output-root path -> the manifest tracking it (an index into
    /// `manifests`: a neighbour may track thousands of files) and the
    /// sha256 it tracks (`None`: not a sha256, so no file's).
    files: BTreeMap<String, (usize, Option<Sha256Digest>)>,
    manifests: Vec<BundlePath>,
    records: Vec<(BundlePath, Record)>,
}

impl Neighbours {
    /// Every manifest of an in-place bundle `observed` holds, except `own`
    /// (the bundles this plan writes, retires or uninstalls). One that does
    /// not parse claims nothing: its own bundle's next run reports it.
    pub(crate) fn read(observed: &Observed, manifest_name: &str, own: &[&BundlePath]) -> Neighbours {
        let mut neighbours = Neighbours::default();
        let mut files = Vec::new();
        for (path, bytes) in &observed.contents {
            if !crate::runtime::is_in_place_manifest(path, manifest_name)
                || own.iter().any(|own| own.as_str() == path)
            {
                continue;
            }
            let (Ok(at), Ok(manifest)) = (BundlePath::new(path.as_str()), Manifest::parse(path, bytes))
            else {
                continue;
            };
            let root = retired_root(&manifest, &at);
            let index = neighbours.manifests.len();
            neighbours.manifests.push(at.clone());
            for tracked in &manifest.files {
                let Ok(rel) = BundlePath::new(tracked.path.as_str()) else { continue };
                let file = rel.under(&root);
                // Asked about only where this plan acts on a file that is
                // there: a path it writes or its own manifest tracks, which
                // the host hashed (see `Observed::hashes`). Another file,
                // left out or unhashed, is not held: in a project folder
                // that is all the other plugin's thousands.
                if !matches!(observed.hashes.get(file.as_str()), Some(Some(_))) {
                    continue;
                }
                files.push((file.as_str().to_string(), (index, Sha256Digest::from_hex(&tracked.sha256))));
            }
            neighbours.records.extend(manifest.merged.into_iter().map(|record| (at.clone(), record)));
        }
        // Collected into a map with full nodes (one filled in path order
        // splits them half full). Of two manifests tracking one path, the
        // first read keeps it: the sort is stable and `dedup_by` keeps the
        // first of a run.
        files.sort_by(|a, b| a.0.cmp(&b.0));
        files.dedup_by(|later, first| later.0 == first.0);
        neighbours.files = files.into_iter().collect();
        neighbours
    }

    /// `action`, unless it removes a file another bundle tracks: that file
    /// stays, with a note saying whose it is.
    fn spare_file(&self, action: Action, diagnostics: &mut Vec<Diagnostic>) -> Option<Action> {
        if !matches!(action.op, Op::Remove | Op::Keep) {
            return Some(action);
        }
        let Some(manifest) = self.files.get(action.path.as_str()).map(|(at, _)| &self.manifests[*at]) else {
            return Some(action);
        };
        let message = format!("left in place: {manifest} tracks it too");
        diagnostics.push(Diagnostic::info(
            DiagnosticCode::KeptForAnotherBundle,
            Some(Location::file(action.path.as_str())),
            message,
        ));
        None
    }

    /// The manifest of another bundle that tracks the bytes `on_disk` at `path`.
    fn tracking(&self, path: &BundlePath, on_disk: Option<Sha256Digest>) -> Option<&BundlePath> {
        let on_disk = on_disk?;
        self.files
            .get(path.as_str())
            .filter(|(_, sha)| *sha == Some(on_disk))
            .map(|(manifest, _)| &self.manifests[*manifest])
    }

    /// `steps` over one shared file without taking out what another bundle
    /// records: a removed part another records too is left, and so are the
    /// items of a list another records (an update removes only the items
    /// it no longer wants that no other bundle wants either).
    pub(crate) fn spare_parts(&self, steps: Vec<Step>) -> Vec<Step> {
        if self.records.is_empty() {
            return steps;
        }
        steps
            .into_iter()
            .filter_map(|step| match step {
                Step::Remove(Record::JsonItems { path, pointer, items, found }) => {
                    let items = self.unclaimed_items(&path, &pointer, items, &[]);
                    (!items.is_empty()).then_some(Step::Remove(Record::JsonItems {
                        path,
                        pointer,
                        items,
                        found,
                    }))
                }
                Step::Remove(record) => {
                    (!self.records.iter().any(|(_, theirs)| merge::same_part(theirs, &record)))
                        .then_some(Step::Remove(record))
                }
                Step::Apply(merge, Some(Record::JsonItems { path, pointer, items: written, found })) => {
                    let wanted = match &merge.part {
                        Part::JsonItems { items, .. } => items.as_slice(),
                        _ => &[],
                    };
                    let written = self.unclaimed_items(&path, &pointer, written, wanted);
                    Some(Step::Apply(merge, Some(Record::JsonItems { path, pointer, items: written, found })))
                }
                step => Some(step),
            })
            .collect()
    }

    /// `items` of the list at `pointer` in `path`, less those another
    /// bundle records there that `kept` does not hold.
    fn unclaimed_items(
        &self,
        path: &str,
        pointer: &[String],
        items: Vec<Value>,
        kept: &[Value],
    ) -> Vec<Value> {
        let claimed: Vec<&Value> = self
            .records
            .iter()
            .filter_map(|(_, record)| match record {
                Record::JsonItems { path: p, pointer: q, items, .. } if p == path && q == pointer => {
                    Some(items)
                }
                _ => None,
            })
            .flatten()
            .collect();
        items.into_iter().filter(|item| kept.contains(item) || !claimed.contains(&item)).collect()
    }
}

/// What a bundle is taken away over: the output root as observed, whether
/// edits go too, the other bundles there, and where notes go.
pub(crate) struct Over<'a> {
    pub observed: &'a Observed,
    pub force: bool,
    pub neighbours: &'a Neighbours,
    pub diagnostics: &'a mut Vec<Diagnostic>,
}

/// Takes one bundle away: its tracked files (an edited one is kept unless
/// `force`), its parts of shared files (as steps into `shared`), and its
/// manifest, which is returned (rewritten to list the files kept, if any).
pub(crate) fn retire(
    root: &str,
    manifest: BundlePath,
    previous: Manifest,
    over: Over<'_>,
    actions: &mut Vec<Action>,
    shared: &mut BTreeMap<BundlePath, Vec<Step>>,
) -> Action {
    let Over { observed, force, neighbours, diagnostics } = over;
    let mut kept = Vec::new();
    for tracked in &previous.files {
        let Ok(rel) = BundlePath::new(tracked.path.as_str()) else { continue };
        let stale = stale_action(rel.under(root), &tracked.sha256, observed, force);
        // Another bundle's file too: neither removed nor kept as this one's.
        if let Some(action) = stale.and_then(|action| neighbours.spare_file(action, diagnostics)) {
            if action.op == Op::Keep {
                kept.push(tracked.clone());
            }
            actions.push(action);
        }
    }
    for record in &previous.merged {
        push_step(shared, record.path(), Step::Remove(record.clone()));
    }
    if kept.is_empty() {
        return Action::new(manifest, Op::Remove);
    }
    let rest = Manifest { files: kept, merged: Vec::new(), ..previous };
    // A second run finds this manifest already written: unchanged, so a
    // rerun with nothing changed writes nothing.
    let action = file_action(manifest, rest.to_bytes().into(), observed);
    match action.op {
        Op::Unchanged => action,
        _ => action.because("still lists the edited files kept"),
    }
}

/// A retired bundle's root: the manifest's folder for a folder bundle, the
/// output root for one written into a project.
pub(crate) fn retired_root(previous: &Manifest, manifest_at: &BundlePath) -> String {
    match layout(&previous.runtime, &previous.kind) {
        Some(Layout::InPlace { .. }) => String::new(),
        _ => parent(manifest_at.as_str()).unwrap_or("").to_string(),
    }
}

/// Where a runtime's artifact kind writes, by the names a manifest records.
pub(crate) fn layout(runtime: &str, kind: &str) -> Option<Layout> {
    let runtime = Runtime::parse(runtime).ok()?;
    runtime.kinds().iter().find(|k| k.name.as_str() == kind).map(|k| k.layout)
}

pub(crate) fn push_step(shared: &mut BTreeMap<BundlePath, Vec<Step>>, path: &str, step: Step) {
    if let Ok(path) = BundlePath::new(path) {
        shared.entry(path).or_default().push(step);
    }
}

/// Runs the merge steps of one shared file: an edited part refuses the
/// plan (unless forced), an emptied file is removed.
pub(crate) fn shared_action(
    path: BundlePath,
    steps: &[Step],
    observed: &Observed,
    force: bool,
) -> Option<Action> {
    let original = match (observed.bytes(&path), observed.hash(&path)) {
        (Some(bytes), _) => match std::str::from_utf8(bytes) {
            // A BOM would stop the JSON and YAML readers; the merged file is
            // written without one.
            Ok(text) => Some(crate::text::without_bom(text).to_string()),
            Err(_) => {
                return Some(Action::new(path, Op::Conflict).because("not UTF-8 text; cannot merge into it"));
            }
        },
        (None, Some(_)) => {
            return Some(
                Action::new(path, Op::Conflict)
                    .because("exists but its content was not provided to merge into"),
            );
        }
        (None, None) => None,
    };
    match merge::run(original.clone(), path.as_str(), steps, force) {
        Err(Refusal(why)) => Some(Action::new(path, Op::Conflict).because(why)),
        Ok(None) if original.is_some() => {
            Some(Action::new(path, Op::Remove).because("no part of it is left"))
        }
        Ok(None) => None,
        Ok(Some(text)) => Some(file_action(path, text.into_bytes().into(), observed)),
    }
}

/// [`read_previous`], the manifest's bytes taken out of `observed`: read
/// once, they are not needed again.
fn take_previous(
    observed: &mut Observed,
    manifest_at: &BundlePath,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Manifest> {
    let bytes = observed.contents.remove(manifest_at.as_str())?;
    parse_previous(manifest_at, &bytes, diagnostics)
}

pub(crate) fn read_previous(
    observed: &Observed,
    manifest_at: &BundlePath,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Manifest> {
    parse_previous(manifest_at, observed.bytes(manifest_at)?, diagnostics)
}

fn parse_previous(
    manifest_at: &BundlePath,
    bytes: &[u8],
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Manifest> {
    match Manifest::parse(manifest_at.as_str(), bytes) {
        Ok(manifest) => Some(manifest.sorted()),
        Err(e) => {
            let message = format!("{}; every file there is treated as untracked", e.message());
            diagnostics.push(Diagnostic::warning(
                DiagnosticCode::InvalidManifest,
                Some(Location::file(manifest_at.as_str())),
                message,
            ));
            None
        }
    }
}

fn bundle_actions(
    bundle: &Bundle,
    previous: Option<&Manifest>,
    observed: &Observed,
    force: bool,
    neighbours: &Neighbours,
) -> Vec<Action> {
    let mut actions = Vec::with_capacity(bundle.files.len());
    for (rel, file) in &bundle.files {
        let path = bundle.out_path(rel);
        let tracked = previous.and_then(|m| m.file(rel.as_str()));
        let action = match (observed.hash(&path), tracked) {
            (None, _) => Action::new(path, Op::Create),
            (Some(on_disk), _) if on_disk == Some(file.sha256) => Action::new(path, Op::Unchanged),
            (Some(on_disk), _) if neighbours.tracking(&path, on_disk).is_some() => {
                let theirs = neighbours.tracking(&path, on_disk).expect("just found");
                let why = format!("{theirs} tracks these bytes: another bundle wrote the same file");
                if force {
                    Action::new(path, Op::Update).because(format!("{why}; overwritten (--force)"))
                } else {
                    Action::new(path, Op::Conflict).because(format!("{why}; rerun with --force to overwrite"))
                }
            }
            (Some(on_disk), Some(t)) if on_disk.is_some_and(|sha| sha == *t.sha256) => {
                Action::new(path, Op::Update)
            }
            (Some(_), tracked) => {
                let why = if tracked.is_some() {
                    "edited since it was generated"
                } else {
                    "not generated here: a file of yours is in the way"
                };
                if force {
                    Action::new(path, Op::Update).because(format!("{why}; overwritten (--force)"))
                } else {
                    Action::new(path, Op::Conflict).because(format!("{why}; rerun with --force to overwrite"))
                }
            }
        };
        actions.push(match action.op {
            Op::Create | Op::Update => {
                action.writing_hashed(file.bytes.clone(), file.sha256, file.executable)
            }
            _ => action,
        });
    }
    if let Some(previous) = previous {
        for tracked in &previous.files {
            let Ok(rel) = BundlePath::new(tracked.path.as_str()) else { continue };
            if bundle.files.contains_key(&rel) {
                continue;
            }
            actions.extend(stale_action(bundle.out_path(&rel), &tracked.sha256, observed, force));
        }
    }
    actions
}

/// A tracked file that is no longer generated: removed unless edited.
pub(crate) fn stale_action(
    path: BundlePath,
    tracked_sha: &str,
    observed: &Observed,
    force: bool,
) -> Option<Action> {
    let on_disk = observed.hash(&path)?;
    Some(if on_disk.is_some_and(|sha| sha == tracked_sha) {
        Action::new(path, Op::Remove)
    } else if force {
        Action::new(path, Op::Remove).because("edited, removed (--force)")
    } else {
        Action::new(path, Op::Keep).because("edited since it was generated; kept (--force removes it)")
    })
}

fn manifest_action(
    path: BundlePath,
    mut manifest: Manifest,
    previous: Option<&Manifest>,
    observed: &Observed,
) -> Action {
    // Same content as before: keep the old time so a rerun is byte-identical.
    if let Some(previous) = previous {
        let candidate = Manifest { generated_at: previous.generated_at.clone(), ..manifest.clone() };
        if &candidate == previous {
            manifest = candidate;
        }
    }
    let bytes: Arc<[u8]> = manifest.to_bytes().into();
    file_action(path, bytes, observed)
}

pub(crate) fn file_action(path: BundlePath, bytes: Arc<[u8]>, observed: &Observed) -> Action {
    let sha = Sha256Digest::of(&bytes);
    match observed.hash(&path) {
        None => Action::new(path, Op::Create).writing_hashed(bytes, sha, false),
        Some(on_disk) if on_disk == Some(sha) => Action::new(path, Op::Unchanged),
        Some(_) => Action::new(path, Op::Update).writing_hashed(bytes, sha, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{BuildOptions, TargetRequest};
    use crate::source::SourceTree;

    #[test]
    fn a_shared_file_saved_with_a_bom_and_crlf_is_merged_into() {
        let mut source = SourceTree::new();
        source.insert("plugforge.json", br#"{"name": "p", "version": "1.0.0"}"#.to_vec(), false).unwrap();
        let options =
            BuildOptions { targets: vec![TargetRequest::new("claude-code")], ..BuildOptions::default() };
        let output = crate::build(&source, &options).unwrap();
        let marketplace = ".claude-plugin/marketplace.json";
        let existing = "\u{feff}{\r\n  \"name\": \"m\",\r\n  \"owner\": {\"name\": \"o\"},\r\n  \"plugins\": []\r\n}\r\n";
        let mut observed = Observed::default();
        observed.hashes.insert(marketplace.into(), Some(Sha256Digest::of(existing.as_bytes())));
        observed.contents.insert(marketplace.into(), existing.as_bytes().into());
        let options = PlanOptions { force: false, generated_at: "2026-01-01T00:00:00Z".into() };
        let plan = plan(&output, observed, &options).unwrap();
        let action = plan.actions.iter().find(|a| a.path.as_str() == marketplace).expect("merged");
        assert_eq!(action.op, Op::Update, "{action:?}");
        let text = std::str::from_utf8(action.bytes.as_deref().unwrap()).unwrap();
        assert!(
            text.starts_with('{') && text.contains("\"name\": \"m\"") && text.contains("\"p\""),
            "{text}"
        );
    }
}
