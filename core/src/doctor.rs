//! Doctor: what is wrong with generated bundles on disk, each finding with
//! the exact command that fixes it. It reports; it never fixes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::bundle::{DEFAULT_MANIFEST_NAME, Generator, Output, Scope};
use crate::error::Result;
use crate::manifest::Manifest;
use crate::merge;
use crate::path::BundlePath;
use crate::plan::{Observed, read_previous};
use crate::report::{Diagnostic, Severity};
use crate::runtime::Runtime;
use crate::uninstall::{Installed, locate};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct DoctorOptions {
    /// `runtime` or `runtime:kind`.
    pub runtimes: Vec<String>,
    /// The plugin namespace: needed for kinds written into a project folder.
    pub namespace: Option<String>,
    pub scope: Scope,
    pub manifest_name: String,
    /// The generator installed now; an older one in a manifest is outdated.
    pub generator: Generator,
    /// The command that regenerates the bundles, quoted into every fix.
    pub build_command: String,
    /// Where the output root is, as the user typed it, for `rm` fixes.
    pub out_dir: String,
    /// Bundle folder per runtime id, as given to the build.
    pub roots: BTreeMap<String, String>,
}

impl Default for DoctorOptions {
    fn default() -> Self {
        DoctorOptions {
            runtimes: vec!["claude-code".into()],
            namespace: None,
            scope: Scope::Project,
            manifest_name: DEFAULT_MANIFEST_NAME.into(),
            generator: Generator::default(),
            build_command: "plugforge build".into(),
            out_dir: ".".into(),
            roots: BTreeMap::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub runtime: String,
    pub path: String,
    pub message: String,
    pub fix: String,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct DoctorReport {
    pub findings: Vec<Finding>,
    pub diagnostics: Vec<Diagnostic>,
}

impl DoctorReport {
    pub fn healthy(&self) -> bool {
        self.findings.is_empty()
    }
}

fn installed(options: &DoctorOptions) -> Result<Vec<Installed>> {
    locate(
        &options.runtimes,
        options.namespace.as_deref(),
        options.scope,
        &options.manifest_name,
        &options.roots,
    )
}

/// Files the host must read before [`doctor`].
pub fn doctor_paths_to_read(options: &DoctorOptions) -> Result<Vec<BundlePath>> {
    Ok(installed(options)?.iter().flat_map(Installed::paths_to_read).collect())
}

/// Checks each bundle; `desired` (a fresh build of the source, if the host
/// has one) also catches output that changed since generation.
pub fn doctor(
    options: &DoctorOptions,
    observed: &Observed,
    desired: Option<&Output>,
) -> Result<DoctorReport> {
    let mut report = DoctorReport::default();
    for bundle in installed(options)? {
        let Some(manifest) = read_previous(observed, &bundle.manifest, &mut report.diagnostics) else {
            report.findings.push(missing(options, &bundle, observed));
            continue;
        };
        let mut check = Check { options, bundle: &bundle, report: &mut report };
        check.version(&manifest);
        if let Some(wanted) = desired.and_then(|o| o.bundles.iter().find(|b| b.manifest == bundle.manifest)) {
            check.content(&manifest, wanted);
        }
        check.files(&manifest, observed);
        check.shared(&manifest, observed);
        check.codex_hook_trust(&manifest);
    }
    Ok(report)
}

fn missing(options: &DoctorOptions, bundle: &Installed, observed: &Observed) -> Finding {
    let listed = bundle
        .kind
        .marketplace
        .and_then(|file| observed.contents.get(file).map(|bytes| (file, bytes)))
        .filter(|(_, bytes)| marketplace_points_at(bytes, &bundle.root));
    let place = if bundle.root.is_empty() { bundle.manifest.to_string() } else { bundle.root.clone() };
    let message = match listed {
        Some((file, _)) => format!("{file} lists a plugin at ./{}, but no bundle is there", bundle.root),
        None => {
            format!("no {} {} bundle at {}/{place}", bundle.runtime.id(), bundle.kind.name, options.out_dir)
        }
    };
    Finding {
        code: "plugin_missing",
        severity: Severity::Error,
        runtime: bundle.runtime.id().into(),
        path: place,
        message,
        fix: options.build_command.clone(),
    }
}

fn marketplace_points_at(bytes: &[u8], root: &str) -> bool {
    let source = format!("./{root}");
    serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()
        .and_then(|v| v.get("plugins")?.as_array().cloned())
        .is_some_and(|list| list.iter().any(|e| e.get("source").and_then(|s| s.as_str()) == Some(&source)))
}

struct Check<'a> {
    options: &'a DoctorOptions,
    bundle: &'a Installed,
    report: &'a mut DoctorReport,
}

impl Check<'_> {
    fn push(&mut self, code: &'static str, severity: Severity, path: String, message: String, fix: String) {
        let runtime = self.bundle.runtime.id().to_string();
        self.report.findings.push(Finding { code, severity, runtime, path, message, fix });
    }

    /// Codex installs a plugin's hooks inert: each runs only once the user
    /// trusts it (Codex 0.171 stores the trust per hook in
    /// `~/.codex/config.toml`), so hooks that "never fire" are this, not a
    /// broken bundle. Said as information: nothing is wrong on disk.
    fn codex_hook_trust(&mut self, manifest: &Manifest) {
        let hooks = manifest.files.iter().any(|f| f.path == "hooks/hooks.json");
        if self.bundle.runtime != Runtime::Codex || self.bundle.kind.name != "plugin" || !hooks {
            return;
        }
        let path = format!("{}/hooks/hooks.json", self.bundle.root);
        let message = "Codex runs this plugin's hooks only after you trust them; until then they never fire"
            .to_string();
        let fix = crate::runtime::codex::HOOK_TRUST.to_string();
        self.push("hooks_need_trust", Severity::Info, path, message, fix);
    }

    fn version(&mut self, manifest: &Manifest) {
        let current = &self.options.generator;
        if manifest.generator.name == current.name && older(&manifest.generator.version, &current.version) {
            let message = format!(
                "generated by {} {}, but {} is installed",
                manifest.generator.name, manifest.generator.version, current.version
            );
            let (path, fix) = (self.bundle.manifest.to_string(), self.options.build_command.clone());
            self.push("plugin_outdated", Severity::Warning, path, message, fix);
        }
    }

    fn content(&mut self, manifest: &Manifest, bundle: &crate::bundle::Bundle) {
        let same = manifest.files.len() == bundle.files.len()
            && manifest
                .files
                .iter()
                .zip(&bundle.files)
                .all(|(m, (p, f))| m.path == p.as_str() && m.sha256 == f.sha256);
        if !same {
            let message = "the source or the templates changed since this bundle was generated".to_string();
            let (path, fix) = (self.bundle.manifest.to_string(), self.options.build_command.clone());
            self.push("plugin_outdated", Severity::Warning, path, message, fix);
        }
    }

    fn files(&mut self, manifest: &Manifest, observed: &Observed) {
        let root = self.bundle.root.clone();
        for tracked in &manifest.files {
            let path = join(&root, &tracked.path);
            match observed.hashes.get(&path) {
                None => {
                    let message = format!("{path} was generated but is gone");
                    let fix = self.options.build_command.clone();
                    self.push("file_missing", Severity::Warning, path, message, fix);
                }
                Some(sha) if *sha != tracked.sha256 => {
                    let message =
                        format!("{path} was edited since it was generated; builds keep it until forced");
                    let fix = format!("{} --force", self.options.build_command);
                    self.push("file_edited", Severity::Info, path, message, fix);
                }
                Some(_) => {}
            }
        }
        // Files of a project folder are the user's; only a bundle's own folder has orphans.
        if root.is_empty() {
            return;
        }
        let prefix = format!("{root}/");
        let manifest_at = self.bundle.manifest.clone();
        for path in observed.hashes.keys().filter(|p| p.starts_with(&prefix)) {
            let rel = &path[prefix.len()..];
            if path != manifest_at.as_str() && manifest.file(rel).is_none() {
                let message = format!("{path} is not tracked by {manifest_at}: not generated, or no longer");
                let fix = format!("rm -- {}", shell_quote(&format!("{}/{path}", self.options.out_dir)));
                self.push("file_orphaned", Severity::Info, path.clone(), message, fix);
            }
        }
    }
}

impl Check<'_> {
    /// Shared-file parts still as written.
    fn shared(&mut self, manifest: &Manifest, observed: &Observed) {
        for record in &manifest.merged {
            let content = observed.contents.get(record.path()).and_then(|b| std::str::from_utf8(b).ok());
            if !merge::intact(content, record) {
                let path = record.path().to_string();
                let message =
                    format!("this plugin's part of {path} was edited or removed since it was generated");
                let fix = format!("{} --force", self.options.build_command);
                self.push("file_edited", Severity::Info, path, message, fix);
            }
        }
    }
}

fn join(root: &str, rel: &str) -> String {
    if root.is_empty() { rel.to_string() } else { format!("{root}/{rel}") }
}

/// Numeric dotted-version comparison; pre-release tags sort before the release.
pub fn older(a: &str, b: &str) -> bool {
    fn key(v: &str) -> (Vec<u64>, bool) {
        let (core, pre) = v.split_once('-').map_or((v, false), |(c, _)| (c, true));
        (core.split('.').map(|p| p.parse().unwrap_or(0)).collect(), !pre)
    }
    key(a) < key(b)
}

pub fn shell_quote(text: &str) -> String {
    if text.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+".contains(&b)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_versions_numerically() {
        assert!(older("0.7.3", "0.10.0"));
        assert!(older("1.0.0-rc.1", "1.0.0"));
        assert!(!older("1.0.0", "1.0.0"));
        assert!(!older("2.0", "1.9.9"));
    }

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(shell_quote("out/claude-code/x.md"), "out/claude-code/x.md");
        assert_eq!(shell_quote("a b/it's"), "'a b/it'\\''s'");
    }
}
