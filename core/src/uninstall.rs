//! Uninstall: remove what a manifest says was generated, never a user's edit
//! unless forced, and take the plugin's parts out of shared files.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::bundle::{DEFAULT_MANIFEST_NAME, Scope, check_manifest_name};
use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::path::BundlePath;
use crate::plan::{Action, Neighbours, Observed, Op, Over, Plan, read_previous, retire, shared_action};
use crate::report::Diagnostic;
use crate::runtime::{Kind, Layout, Runtime, split_target};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct UninstallOptions {
    /// `runtime` or `runtime:kind`.
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub runtimes: Vec<String>,
    /// The plugin namespace: needed for kinds written into a project folder.
    #[cfg_attr(feature = "typescript", ts(optional = nullable))]
    pub namespace: Option<String>,
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub scope: Scope,
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub manifest_name: String,
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub force: bool,
    /// Bundle folder per runtime id, as given to the build.
    #[cfg_attr(feature = "typescript", ts(as = "Option<_>", optional))]
    pub roots: BTreeMap<String, String>,
}

impl Default for UninstallOptions {
    fn default() -> Self {
        UninstallOptions {
            runtimes: vec!["claude-code".into()],
            namespace: None,
            scope: Scope::Project,
            manifest_name: DEFAULT_MANIFEST_NAME.into(),
            force: false,
            roots: BTreeMap::new(),
        }
    }
}

/// One generated bundle to find on disk: where its manifest is, and which
/// shared files it may hold parts of.
pub(crate) struct Installed {
    pub runtime: Runtime,
    pub kind: &'static Kind,
    pub root: String,
    pub manifest: BundlePath,
}

/// Resolves `runtime[:kind]` targets to their manifest locations.
pub(crate) fn locate(
    targets: &[String],
    namespace: Option<&str>,
    scope: Scope,
    manifest_name: &str,
    roots: &BTreeMap<String, String>,
) -> Result<Vec<Installed>> {
    check_manifest_name(manifest_name)?;
    if let Some(namespace) = namespace.filter(|n| !crate::source::is_namespace(n)) {
        return Err(Error::new(ErrorCode::InvalidOptions, crate::source::namespace_problem(namespace)));
    }
    let mut found = Vec::new();
    for target in targets {
        let (id, kind) = split_target(target);
        let runtime = Runtime::parse(id)?;
        let kind = runtime.kind(kind, scope)?;
        let namespace = match (kind.layout, namespace) {
            (Layout::Folder, _) => "",
            (Layout::InPlace { .. }, Some(namespace)) => namespace,
            (Layout::InPlace { .. }, None) => {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    format!("{target} is written into the project folder: name the plugin with --namespace"),
                ));
            }
        };
        let (root, manifest) = runtime.place(kind, roots, namespace, manifest_name, false)?;
        found.push(Installed { runtime, kind, root, manifest });
    }
    Ok(found)
}

impl Installed {
    /// Manifest plus every shared file the kind may have written parts of.
    pub fn paths_to_read(&self) -> Vec<BundlePath> {
        let shared = self.kind.shared.iter().chain(self.kind.marketplace.iter());
        let shared = shared.filter_map(|p| BundlePath::new(*p).ok());
        std::iter::once(self.manifest.clone()).chain(shared).collect()
    }
}

fn installed(options: &UninstallOptions) -> Result<Vec<Installed>> {
    locate(
        &options.runtimes,
        options.namespace.as_deref(),
        options.scope,
        &options.manifest_name,
        &options.roots,
    )
}

/// Files the host must read before [`uninstall_plan`]: manifests and shared files.
pub fn uninstall_paths_to_read(options: &UninstallOptions) -> Result<Vec<BundlePath>> {
    let installed = installed(options)?;
    let mut paths: Vec<BundlePath> = installed.iter().flat_map(Installed::paths_to_read).collect();
    // The other bundles in the same project folder: what they record stays.
    if installed.iter().any(|bundle| matches!(bundle.kind.layout, Layout::InPlace { .. })) {
        paths.extend(crate::runtime::in_place_manifest_patterns(&options.manifest_name));
    }
    Ok(paths)
}

pub fn uninstall_plan(options: &UninstallOptions, observed: &Observed) -> Result<Plan> {
    let mut actions = Vec::new();
    let mut manifests = Vec::new();
    let mut diagnostics = Vec::new();
    let mut shared = BTreeMap::new();
    let installed = installed(options)?;
    let own: Vec<&BundlePath> = installed.iter().map(|bundle| &bundle.manifest).collect();
    let neighbours = Neighbours::read(observed, &options.manifest_name, &own);
    for bundle in installed {
        let Some(previous) = read_previous(observed, &bundle.manifest, &mut diagnostics) else {
            let message = format!(
                "nothing to uninstall for {} {}: no readable manifest at {}",
                bundle.runtime.id(),
                bundle.kind.name,
                bundle.manifest
            );
            diagnostics.push(Diagnostic::info(
                DiagnosticCode::NotInstalled,
                Some(Location::file(bundle.manifest.as_str())),
                message,
            ));
            continue;
        };
        manifests.push(retire(
            &bundle.root,
            bundle.manifest,
            previous,
            Over { observed, force: options.force, neighbours: &neighbours, diagnostics: &mut diagnostics },
            &mut actions,
            &mut shared,
        ));
    }
    for (path, steps) in shared {
        let steps = neighbours.spare_parts(steps);
        if steps.is_empty() {
            continue;
        }
        // An edited shared part stays where it is: uninstall never refuses as a whole.
        match shared_action(path, &steps, observed, options.force) {
            Some(action) if action.op == Op::Conflict => actions.push(Action { op: Op::Keep, ..action }),
            other => actions.extend(other),
        }
    }
    let count = manifests.len();
    actions.extend(manifests);
    Ok(Plan::from_actions(actions, count, diagnostics, observed))
}
