//! Desired output + what the host saw on disk -> the list of file actions.
//! Pure: the host applies it (writes, removals, manifests last).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::bundle::{Bundle, Output, manifest_path};
use crate::error::{Location, Result};
use crate::hash::sha256_hex;
use crate::manifest::Manifest;
use crate::marketplace;
use crate::path::BundlePath;
use crate::report::Diagnostic;

/// What the host found below the output root.
#[derive(Debug, Clone, Default)]
pub struct Observed {
    /// sha256 of every file below the output root, by relative path.
    pub hashes: BTreeMap<String, String>,
    /// Bytes of the files named by `paths_to_read` that exist.
    pub contents: BTreeMap<String, Arc<[u8]>>,
}

impl Observed {
    fn hash(&self, path: &BundlePath) -> Option<&str> {
        self.hashes.get(path.as_str()).map(String::as_str)
    }

    fn bytes(&self, path: &BundlePath) -> Option<&[u8]> {
        self.contents.get(path.as_str()).map(|b| &b[..])
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanOptions {
    /// Overwrite edited or foreign files, remove edited leftovers.
    pub force: bool,
    /// RFC 3339 time for new manifests; kept from the previous manifest when
    /// nothing changed.
    pub generated_at: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
    pub sha256: Option<String>,
    pub executable: bool,
}

impl Action {
    pub(crate) fn new(path: BundlePath, op: Op) -> Self {
        Action { path, op, reason: None, bytes: None, sha256: None, executable: false }
    }

    pub(crate) fn because(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    pub(crate) fn writing(mut self, bytes: Arc<[u8]>, executable: bool) -> Self {
        self.sha256 = Some(sha256_hex(&bytes));
        self.bytes = Some(bytes);
        self.executable = executable;
        self
    }

    pub fn writes(&self) -> bool {
        matches!(self.op, Op::Create | Op::Update | Op::Remove)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
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
}

impl Plan {
    pub(crate) fn from_actions(actions: Vec<Action>, diagnostics: Vec<Diagnostic>) -> Plan {
        let mut summary = Summary::default();
        for action in &actions {
            *match action.op {
                Op::Create => &mut summary.create,
                Op::Update => &mut summary.update,
                Op::Unchanged => &mut summary.unchanged,
                Op::Conflict => &mut summary.conflict,
                Op::Remove => &mut summary.remove,
                Op::Keep => &mut summary.keep,
            } += 1;
        }
        Plan { refused: summary.conflict > 0, actions, summary, diagnostics }
    }

    /// How many files applying the plan touches.
    pub fn writes(&self) -> usize {
        self.actions.iter().filter(|a| a.writes()).count()
    }
}

/// Computes the plan for writing `output` over what `observed` found.
pub fn plan(output: &Output, observed: &Observed, options: &PlanOptions) -> Result<Plan> {
    crate::bundle::check_manifest_name(&output.manifest_name)?;
    let mut files = Vec::new();
    let mut manifests = Vec::new();
    let mut diagnostics = Vec::new();
    for bundle in &output.bundles {
        let manifest_at = manifest_path(&bundle.root, &output.manifest_name);
        let previous = read_previous(observed, &manifest_at, &mut diagnostics);
        files.extend(bundle_actions(bundle, previous.as_ref(), observed, options.force));
        let manifest =
            Manifest::describe(bundle, &output.generator, output.scope.as_str(), &options.generated_at);
        manifests.push(manifest_action(manifest_at, manifest, previous.as_ref(), observed));
    }
    for spec in &output.marketplaces {
        files.push(marketplace_action(spec, observed, options.force));
    }
    files.extend(manifests);
    Ok(Plan::from_actions(files, diagnostics))
}

pub(crate) fn read_previous(
    observed: &Observed,
    manifest_at: &BundlePath,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Manifest> {
    let bytes = observed.bytes(manifest_at)?;
    match Manifest::parse(manifest_at.as_str(), bytes) {
        Ok(manifest) => Some(manifest.sorted()),
        Err(e) => {
            let message = format!("{}; every file there is treated as untracked", e.message());
            diagnostics.push(Diagnostic::warning(
                "invalid_manifest",
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
) -> Vec<Action> {
    let mut actions = Vec::with_capacity(bundle.files.len());
    for (rel, file) in &bundle.files {
        let path = rel.under(bundle.root.as_str());
        let tracked = previous.and_then(|m| m.file(rel.as_str()));
        let action = match (observed.hash(&path), tracked) {
            (None, _) => Action::new(path, Op::Create),
            (Some(on_disk), _) if on_disk == file.sha256 => Action::new(path, Op::Unchanged),
            (Some(on_disk), Some(t)) if on_disk == t.sha256 => Action::new(path, Op::Update),
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
            Op::Create | Op::Update => action.writing(file.bytes.clone(), file.executable),
            _ => action,
        });
    }
    if let Some(previous) = previous {
        for tracked in &previous.files {
            let Ok(rel) = BundlePath::new(tracked.path.as_str()) else { continue };
            if bundle.files.contains_key(&rel) {
                continue;
            }
            actions.extend(stale_action(rel.under(bundle.root.as_str()), &tracked.sha256, observed, force));
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
    Some(if on_disk == tracked_sha {
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

fn file_action(path: BundlePath, bytes: Arc<[u8]>, observed: &Observed) -> Action {
    let sha = sha256_hex(&bytes);
    match observed.hash(&path) {
        None => Action::new(path, Op::Create).writing(bytes, false),
        Some(on_disk) if on_disk == sha => Action::new(path, Op::Unchanged),
        Some(_) => Action::new(path, Op::Update).writing(bytes, false),
    }
}

fn marketplace_action(spec: &crate::bundle::MarketplaceEntry, observed: &Observed, force: bool) -> Action {
    let existing = observed.bytes(&spec.path);
    if existing.is_none() && observed.hash(&spec.path).is_some() {
        return Action::new(spec.path.clone(), Op::Conflict)
            .because("exists but its content was not provided to merge into");
    }
    match marketplace::merge(existing, spec) {
        Ok(bytes) => file_action(spec.path.clone(), bytes.into(), observed),
        Err(e) if force => {
            let fresh = marketplace::merge(None, spec).expect("a fresh marketplace always merges");
            Action::new(spec.path.clone(), Op::Update)
                .because(format!("{}; replaced (--force)", e.message()))
                .writing(fresh.into(), false)
        }
        Err(e) => Action::new(spec.path.clone(), Op::Conflict)
            .because(format!("{}; fix it or rerun with --force to replace it", e.message())),
    }
}
