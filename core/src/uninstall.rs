//! Uninstall: remove what a manifest says was generated, never a user's edit
//! unless forced, and take the plugin's entry out of shared marketplaces.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::bundle::{DEFAULT_MANIFEST_NAME, check_manifest_name, manifest_path};
use crate::error::{Location, Result};
use crate::manifest::Manifest;
use crate::marketplace;
use crate::path::BundlePath;
use crate::plan::{Action, Observed, Op, Plan, read_previous, stale_action};
use crate::report::Diagnostic;
use crate::runtime::Runtime;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct UninstallOptions {
    pub runtimes: Vec<String>,
    pub manifest_name: String,
    pub force: bool,
    /// Bundle folder per runtime id, as given to the build.
    pub roots: BTreeMap<String, String>,
}

impl Default for UninstallOptions {
    fn default() -> Self {
        UninstallOptions {
            runtimes: vec!["claude-code".into()],
            manifest_name: DEFAULT_MANIFEST_NAME.into(),
            force: false,
            roots: BTreeMap::new(),
        }
    }
}

/// Files the host must read before [`uninstall_plan`]: manifests and marketplaces.
pub fn uninstall_paths_to_read(options: &UninstallOptions) -> Result<Vec<BundlePath>> {
    check_manifest_name(&options.manifest_name)?;
    let mut paths = Vec::new();
    for id in &options.runtimes {
        let runtime = Runtime::parse(id)?;
        let root = runtime.root(&options.roots)?;
        paths.push(manifest_path(&root, &options.manifest_name));
        if let Some(file) = runtime.marketplace_file() {
            paths.push(BundlePath::new(file)?);
        }
    }
    Ok(paths)
}

pub fn uninstall_plan(options: &UninstallOptions, observed: &Observed) -> Result<Plan> {
    check_manifest_name(&options.manifest_name)?;
    let mut actions = Vec::new();
    let mut manifests = Vec::new();
    let mut diagnostics = Vec::new();
    for id in &options.runtimes {
        let runtime = Runtime::parse(id)?;
        let root = runtime.root(&options.roots)?;
        let manifest_at = manifest_path(&root, &options.manifest_name);
        let Some(previous) = read_previous(observed, &manifest_at, &mut diagnostics) else {
            let message = format!("nothing to uninstall for {id}: no readable manifest at {manifest_at}");
            diagnostics.push(Diagnostic::info(
                "not_installed",
                Some(Location::file(manifest_at.as_str())),
                message,
            ));
            continue;
        };
        let mut kept = Vec::new();
        for tracked in &previous.files {
            let Ok(rel) = BundlePath::new(tracked.path.as_str()) else { continue };
            if let Some(action) =
                stale_action(rel.under(root.as_str()), &tracked.sha256, observed, options.force)
            {
                if action.op == Op::Keep {
                    kept.push(tracked.clone());
                }
                actions.push(action);
            }
        }
        if let Some(file) = runtime.marketplace_file() {
            actions.extend(marketplace_removal(file, &previous.namespace, &root, observed)?);
        }
        manifests.push(if kept.is_empty() {
            Action::new(manifest_at, Op::Remove)
        } else {
            let rest = Manifest { files: kept, ..previous };
            Action::new(manifest_at, Op::Update)
                .because("still lists the edited files kept")
                .writing(rest.to_bytes().into(), false)
        });
    }
    actions.extend(manifests);
    Ok(Plan::from_actions(actions, diagnostics))
}

fn marketplace_removal(
    file: &str,
    name: &str,
    root: &BundlePath,
    observed: &Observed,
) -> Result<Option<Action>> {
    let Some(bytes) = observed.contents.get(file) else { return Ok(None) };
    let source = format!("./{root}");
    if !marketplace::lists(bytes, name, &source) {
        return Ok(None);
    }
    let path = BundlePath::new(file)?;
    Ok(Some(match marketplace::remove(bytes, file, name, &source)? {
        None => Action::new(path, Op::Remove).because("no plugin left in it"),
        Some(rest) => {
            let bytes: Arc<[u8]> = rest.into();
            Action::new(path, Op::Update).because(format!("entry {name:?} removed")).writing(bytes, false)
        }
    }))
}
