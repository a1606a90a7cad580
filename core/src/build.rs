//! The build entry point: source tree + options -> every requested bundle.

use serde_json::{Value, json};
use std::borrow::Cow;

use crate::bundle::{Bundle, Output, SharedBytes, TargetFailure, check_manifest_name};
use crate::credentials::CredentialCheck;
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::model::Plugin;
use crate::model::{LoadOptions, load_plugin, read_config};
use crate::normalise::{Canonical, canonical_source};
use crate::options::{BuildOptions, TargetRequest};
use crate::path::BundlePath;
use crate::report::{Component, Diagnostic, Honesty, Level};
use crate::runtime::{self, Kind, Layout, Runtime};
use crate::source::{Config, SourceTree, UrlPolicy};
use crate::urls::UrlCheck;

/// Builds every requested runtime's bundle from `source`: a canonical
/// source, or a native plugin of any runtime `import` reads, read the way
/// `import` reads it. Nothing is written: the host plans and applies the
/// result.
///
/// A problem that concerns one runtime (a limit it enforces, a name it
/// refuses) fails that runtime only: it is listed in `Output::failures` and
/// the others are built. The build fails as a whole when the source itself
/// is unreadable, is over a limit, holds a literal credential, or no requested runtime could
/// be built, with every reason.
pub fn build(source: &SourceTree, options: &BuildOptions) -> Result<Output> {
    let prepared = PreparedBuild::new(source, options)?;
    let built = (0..prepared.targets()).map(|target| prepared.build_target(target)).collect();
    prepared.finish(built)
}

/// A build split where its targets part: [`PreparedBuild::new`] reads what
/// every target shares (the source, its config, the credential and URL
/// scans, the plugin when one parse serves all), [`PreparedBuild::build_target`]
/// builds one target from it and only reads it, and
/// [`PreparedBuild::finish`] puts the results together in target order.
/// [`build`] runs the targets one after the other; a host with threads may
/// run them at once and get the same bytes (the core itself starts none).
pub struct PreparedBuild<'a> {
    options: &'a BuildOptions,
    /// The source as the author wrote it (a native plugin before import).
    written: &'a SourceTree,
    canonical: Canonical<'a>,
    targets: Vec<(Runtime, &'static Kind)>,
    urls: UrlCheck,
    credentials: CredentialCheck,
    /// The plugin every target starts from, when the source has no
    /// templates (the per-target built-ins then reach nothing).
    shared_plugin: Option<Result<(Plugin, Vec<Diagnostic>)>>,
    /// What the targets generate alike, held once.
    generated: SharedBytes,
}

/// What one target's build gave: its bundle, the source's diagnostics and
/// the author's URLs it carries, or why it failed.
pub type TargetBuilt = Result<(Bundle, Vec<Diagnostic>, Vec<(String, String)>)>;

impl<'a> PreparedBuild<'a> {
    pub fn new(source: &'a SourceTree, options: &'a BuildOptions) -> Result<Self> {
        check_manifest_name(&options.manifest_name)?;
        source.check_limits()?;
        let written = source;
        let canonical = canonical_source(source, options.source_name.as_deref())?;
        let read = canonical.source();
        let tree = read.tree();
        let config = read_config(read, &options.vars)?;
        let targets = resolve_targets(&config, options)?;
        let mut allowed = options.allow_urls.clone();
        allowed.extend(config.allow_urls.iter().cloned());
        let policy = if options.deny_urls { UrlPolicy::Deny } else { config.urls };
        let urls = UrlCheck::new(policy, allowed, tree);
        let credentials = CredentialCheck::new(written, tree, &config.allow_credentials, config.credentials)?;
        let shared_plugin = targets
            .first()
            .filter(|_| !read.has_templates())
            .map(|&(runtime, kind)| load_plugin(read, &load_options(options, runtime, kind)));
        Ok(PreparedBuild {
            options,
            written,
            canonical,
            targets,
            urls,
            credentials,
            shared_plugin,
            generated: SharedBytes::default(),
        })
    }

    /// How many targets there are to build.
    pub fn targets(&self) -> usize {
        self.targets.len()
    }

    /// Builds target `index` (`0..targets()`).
    pub fn build_target(&self, index: usize) -> TargetBuilt {
        let (runtime, kind) = self.targets[index];
        // The shared plugin is copied only for a target that takes parts
        // out of it: a copy is every skill's parsed frontmatter again.
        let (mut plugin, diagnostics) = match &self.shared_plugin {
            Some(Ok((plugin, diagnostics))) => (Cow::Borrowed(plugin), diagnostics.clone()),
            Some(Err(error)) => return Err(error.clone()),
            None => {
                let (plugin, diagnostics) =
                    load_plugin(self.canonical.source(), &load_options(self.options, runtime, kind))?;
                (Cow::Owned(plugin), diagnostics)
            }
        };
        let target = plugin.config.targets.get(runtime.id());
        let switched_off = target.and_then(|t| t.hooks) == Some(false);
        let omits = target.is_some_and(|t| !t.omit.is_empty());
        let hooks = if switched_off { plugin.to_mut().hooks.take() } else { None };
        let omitted = if omits { omit(plugin.to_mut(), runtime)? } else { Vec::new() };
        let plugin = plugin.as_ref();
        let mut bundle = runtime::write(runtime, kind, plugin, self.options)?;
        let manifest = runtime.spec().reads.manifest.unwrap_or("manifest");
        if let Some(hooks) = hooks {
            let events = hooks.value.get("hooks").and_then(|h| h.as_object()).map(|h| h.len()).unwrap_or(0);
            bundle.honesty.push(Honesty {
                component: Component::Hook,
                name: hooks.origin.to_string(),
                runtime,
                kind: kind.name,
                level: Level::Unsupported,
                detail: format!(
                    "{events} hook event(s) left out: targets.{}.hooks is false, the author's choice for this runtime \
                     (import sets it where the plugin's own {manifest} loads none of them)",
                    runtime.id()
                ),
            });
        }
        for (component, name) in omitted {
            bundle.honesty.push(Honesty {
                component,
                name,
                runtime,
                kind: kind.name,
                level: Level::Unsupported,
                detail: format!(
                    "left out: targets.{}.omit names it, the author's choice for this runtime \
                     (import sets it where the plugin's own {manifest} does not load it)",
                    runtime.id()
                ),
            });
        }
        bundle.honesty.extend(lsp_server_rows(plugin, &bundle, runtime, kind));
        let files = if carries_unjudged_components(plugin, runtime) {
            0
        } else {
            plugin.support.len() + usize::from(plugin.readme.is_some())
        };
        if let Some(why) = crate::report::nothing_to_load(&bundle.honesty, files) {
            return Err(Error::new(ErrorCode::NothingToLoad, why));
        }
        crate::portable::check_bundle(&bundle)?;
        crate::manifest_paths::check(runtime, &bundle, self.written, plugin.metadata_file.as_str())?;
        self.credentials.check_bundle(&bundle)?;
        let carried = self.urls.check(&bundle, runtime.required_urls())?;
        bundle.compact();
        self.generated.share(&mut bundle);
        Ok((bundle, diagnostics, carried))
    }

    /// The output of every target's result, `built[i]` being target `i`'s.
    pub fn finish(self, built: Vec<TargetBuilt>) -> Result<Output> {
        let options = self.options;
        let every_runtime = asks_for_every_runtime(options);
        let mut urls = self.urls;
        let mut output = Output {
            generator: options.generator.clone(),
            scope: options.scope,
            manifest_name: options.manifest_name.clone(),
            bundles: Vec::new(),
            shared: Vec::new(),
            neighbours: Vec::new(),
            diagnostics: self
                .canonical
                .diagnostics
                .into_iter()
                .chain(self.credentials.warnings().iter().cloned())
                .collect(),
            urls: Vec::new(),
            failures: Vec::new(),
            members: false,
            retired: Vec::new(),
        };
        let mut source_diagnostics = None;
        for ((runtime, kind), result) in self.targets.into_iter().zip(built) {
            match result {
                Ok((bundle, diagnostics, carried)) => {
                    source_diagnostics.get_or_insert(diagnostics);
                    urls.record(carried);
                    let shared = kind.shared.iter().chain(kind.marketplace.iter());
                    output.shared.extend(shared.map(|p| BundlePath::new(*p)).collect::<Result<Vec<_>>>()?);
                    // Another plugin's bundle in the same project folder may
                    // write a file or part this one lets go of: the plan
                    // reads every manifest there to leave those in place.
                    if matches!(kind.layout, Layout::InPlace { .. }) && output.neighbours.is_empty() {
                        output.neighbours = runtime::in_place_manifest_patterns(&options.manifest_name);
                    }
                    output.bundles.push(bundle);
                }
                Err(error) => {
                    let skipped = every_runtime && error.code == ErrorCode::NothingToLoad;
                    output.failures.push(TargetFailure { runtime, kind: kind.name, error, skipped });
                }
            }
        }
        if output.bundles.is_empty() {
            return Err(every_failure(output.failures));
        }
        output.diagnostics.extend(source_diagnostics.unwrap_or_default());
        output.urls = urls.carried();
        Ok(output)
    }
}

/// Takes the skills, agents and commands `targets.<id>.omit` names out of
/// `plugin`: each one's component and name, for its row. An entry naming
/// none of them is an error, so a misspelt path does not go unnoticed.
fn omit(plugin: &mut Plugin, runtime: Runtime) -> Result<Vec<(Component, String)>> {
    let Some(entries) = plugin.config.targets.get(runtime.id()).map(|t| t.omit.clone()) else {
        return Ok(Vec::new());
    };
    let names = |path: &str| entries.iter().any(|e| path == e || path.starts_with(&format!("{e}/")));
    let mut used = vec![false; entries.len()];
    let mut mark = |path: &str| {
        for (i, e) in entries.iter().enumerate() {
            if path == e || path.starts_with(&format!("{e}/")) {
                used[i] = true;
            }
        }
    };
    let mut omitted = Vec::new();
    plugin.skills.retain(|skill| {
        let folder = skill.main.path.as_str().strip_suffix("/SKILL.md").unwrap_or(skill.main.path.as_str());
        let out = names(folder);
        if out {
            mark(folder);
            omitted.push((Component::Skill, skill.name.clone()));
        }
        !out
    });
    for (list, component) in
        [(&mut plugin.agents, Component::Agent), (&mut plugin.commands, Component::Command)]
    {
        list.retain(|item| {
            let out = names(item.file.path.as_str());
            if out {
                mark(item.file.path.as_str());
                omitted.push((component, item.name.clone()));
            }
            !out
        });
    }
    if let Some(i) = used.iter().position(|u| !u) {
        return Err(Error::at(
            ErrorCode::InvalidSource,
            crate::error::Location::file(plugin.metadata_file.as_str()),
            format!(
                "targets.{}.omit entry {:?} names no skill folder, agent or command of the plugin",
                runtime.id(),
                entries[i]
            ),
        ));
    }
    Ok(omitted)
}

/// One row per language server the source declares (`lspServers`, in the
/// manifest fields carried for a runtime): supported where this bundle's own
/// manifest carries the field, left out everywhere else. No writer
/// translates the field, so the row is judged from what was written.
fn lsp_server_rows(plugin: &Plugin, bundle: &Bundle, runtime: Runtime, kind: &Kind) -> Vec<Honesty> {
    const FIELD: &str = "lspServers";
    let declared = plugin
        .claude_extra
        .get(FIELD)
        .into_iter()
        .chain(plugin.config.targets.values().filter_map(|t| t.manifest.get(FIELD)));
    let mut names: Vec<String> = Vec::new();
    for value in declared {
        let found: Vec<String> = match value {
            Value::Object(servers) => servers.keys().cloned().collect(),
            Value::Array(paths) => paths.iter().filter_map(Value::as_str).map(str::to_string).collect(),
            Value::String(path) => vec![path.clone()],
            _ => Vec::new(),
        };
        for name in found {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    let manifest = runtime.spec().reads.manifest;
    let carried = manifest
        .and_then(|path| bundle.files.iter().find(|(p, _)| p.as_str() == path))
        .and_then(|(_, file)| serde_json::from_slice::<Value>(&file.bytes).ok())
        .and_then(|manifest| manifest.get(FIELD).cloned());
    let (level, detail) = match (&carried, manifest) {
        (Some(_), Some(path)) => (Level::Supported, format!("{path}: {FIELD}")),
        _ => (
            Level::Unsupported,
            format!(
                "{} is given no language servers: {FIELD} is not translated for it; left out",
                runtime.spec().name
            ),
        ),
    };
    names
        .into_iter()
        .map(|name| Honesty {
            component: Component::Lsp,
            name,
            runtime,
            kind: kind.name,
            level,
            detail: detail.clone(),
        })
        .collect()
}

/// Manifest fields that declare something a runtime loads (servers,
/// component paths) without a row of their own when carried as they are.
const LOADING_MANIFEST_FIELDS: [&str; 8] =
    ["lspServers", "mcpServers", "hooks", "commands", "agents", "skills", "outputStyles", "apps"];

/// Whether the manifest this runtime gets carries such a field as written
/// (a Claude-only field, or the author's override for the runtime): its
/// bundle may load what no row says, so its files alone are not judged.
fn carries_unjudged_components(plugin: &Plugin, runtime: Runtime) -> bool {
    let overrides = plugin.config.targets.get(runtime.id()).into_iter().flat_map(|t| t.manifest.keys());
    plugin.claude_extra.keys().chain(overrides).any(|key| LOADING_MANIFEST_FIELDS.contains(&key.as_str()))
}

fn load_options<'o>(options: &'o BuildOptions, runtime: Runtime, kind: &'static Kind) -> LoadOptions<'o> {
    LoadOptions {
        vars: &options.vars,
        namespace: options.namespace.as_deref(),
        builtins: vec![
            ("generator", json!(options.generator)),
            ("runtime", json!(runtime.id())),
            ("kind", json!(kind.name)),
            ("scope", json!(options.scope.as_str())),
        ],
    }
}

/// The error of a build where no runtime could be built: one runtime's
/// error as it is; for several, each distinct reason once, naming the
/// runtimes it stopped when they differ. When no runtime has anything to
/// load, the error says so first, so the reason is not read as a fault of
/// one runtime.
fn every_failure(failures: Vec<TargetFailure>) -> Error {
    if failures.is_empty() || failures.iter().any(|f| f.error.code != ErrorCode::NothingToLoad) {
        return distinct_failures(failures);
    }
    let headline = Problem {
        message: "nothing to build: no requested runtime can load anything this source holds".to_string(),
        location: None,
    };
    let each = failures.into_iter().flat_map(|failure| {
        let runtime = failure.runtime;
        failure.error.problems.into_iter().map(move |problem| Problem {
            message: format!("{}: {}", runtime.id(), problem.message),
            location: problem.location,
        })
    });
    Error::from_problems(ErrorCode::NothingToLoad, std::iter::once(headline).chain(each).collect())
}

fn distinct_failures(failures: Vec<TargetFailure>) -> Error {
    let mut distinct: Vec<(Error, Vec<Runtime>)> = Vec::new();
    for failure in failures {
        match distinct.iter_mut().find(|(error, _)| *error == failure.error) {
            Some((_, runtimes)) => runtimes.push(failure.runtime),
            None => distinct.push((failure.error, vec![failure.runtime])),
        }
    }
    if distinct.len() == 1 {
        return distinct.pop().expect("one").0;
    }
    let code = distinct[0].0.code;
    let problems = distinct
        .into_iter()
        .flat_map(|(error, runtimes)| {
            let label = runtimes.iter().map(|r| r.id()).collect::<Vec<_>>().join(", ");
            error.problems.into_iter().map(move |problem| Problem {
                message: format!("{label}: {}", problem.message),
                location: problem.location,
            })
        })
        .collect();
    Error::from_problems(code, problems)
}

/// The id that asks for every runtime, each with its default kind.
pub const ALL_TARGETS: &str = "all";

/// Whether the build asks for every runtime (`all`) rather than naming them.
fn asks_for_every_runtime(options: &BuildOptions) -> bool {
    options.targets.iter().any(|t| t.runtime == ALL_TARGETS)
}

/// CLI/API targets first, else the config's enabled targets, else Claude Code;
/// each kind and scope checked before anything is generated.
fn resolve_targets(config: &Config, options: &BuildOptions) -> Result<Vec<(Runtime, &'static Kind)>> {
    let requested: Vec<TargetRequest> = if asks_for_every_runtime(options) {
        // The universal folder lists the plugin, under its own name, in the
        // marketplace files claude-code, codex and copilot write: it is asked for by name.
        Runtime::ALL.iter().filter(|r| r.spec().in_target_all).map(|r| TargetRequest::new(r.id())).collect()
    } else if !options.targets.is_empty() {
        options.targets.clone()
    } else {
        let enabled: Vec<TargetRequest> = config
            .targets
            .iter()
            .filter(|(_, t)| t.enabled != Some(false))
            .map(|(id, _)| TargetRequest::new(id.clone()))
            .collect();
        if enabled.is_empty() { vec![TargetRequest::new(Runtime::DEFAULT.id())] } else { enabled }
    };
    let mut resolved: Vec<(Runtime, &'static Kind)> = Vec::new();
    for request in requested {
        let runtime = Runtime::parse(&request.runtime)?;
        let configured = config.targets.get(runtime.id()).and_then(|t| t.artifact.as_deref());
        let kind = runtime.kind(request.kind.as_deref().or(configured), options.scope)?;
        if resolved.iter().any(|(r, k)| *r == runtime && k.name == kind.name) {
            let message = format!("{} {} requested twice", runtime.id(), kind.name);
            return Err(Error::new(ErrorCode::InvalidOptions, message));
        }
        resolved.push((runtime, kind));
    }
    if options.marketplace {
        refuse_shared_marketplaces(&resolved)?;
    }
    Ok(resolved)
}

/// Two kinds whose entries would both be named after the plugin in one
/// marketplace file (the universal folder and the host's own bundle) cannot
/// share an output root.
fn refuse_shared_marketplaces(resolved: &[(Runtime, &'static Kind)]) -> Result<()> {
    let files = |kind: &Kind| -> Vec<&'static str> {
        kind.marketplace
            .into_iter()
            .chain(kind.shared.iter().copied().filter(|f| f.ends_with("marketplace.json")))
            .collect()
    };
    for (index, (first, first_kind)) in resolved.iter().enumerate() {
        for (second, second_kind) in &resolved[index + 1..] {
            let theirs = files(second_kind);
            if let Some(file) = files(first_kind).into_iter().find(|f| theirs.contains(f)) {
                let message = format!(
                    "{} and {} would both list the plugin in {file}: build them into separate output roots \
                     (or pass --no-marketplace)",
                    first.id(),
                    second.id()
                );
                return Err(Error::new(ErrorCode::InvalidOptions, message));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(files: &[(&str, &str)]) -> SourceTree {
        let mut tree = SourceTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        tree
    }

    fn targets(ids: &[&str]) -> BuildOptions {
        BuildOptions {
            targets: ids.iter().map(|id| TargetRequest::new(*id)).collect(),
            ..BuildOptions::default()
        }
    }

    #[test]
    fn a_source_over_a_limit_is_refused_with_the_limit_code() {
        use crate::limits::{MAX_FILE_BYTES, MAX_SOURCE_BYTES, MAX_SOURCE_FILES};
        let mut tree = source(&[("plugforge.json", r#"{"name": "p", "version": "1.0.0"}"#)]);
        // One file over the per-file bound.
        let big: std::sync::Arc<[u8]> = vec![b'x'; MAX_FILE_BYTES as usize + 1].into();
        let err = tree.insert("skills/s/big.txt", big, false).unwrap_err();
        assert_eq!(err.code, ErrorCode::Limit);
        assert_eq!(
            err.message(),
            format!(
                "skills/s/big.txt: {} bytes, over the 64 MiB one source file may hold",
                MAX_FILE_BYTES + 1
            )
        );
        assert_eq!(tree.get("skills/s/big.txt"), None, "not kept");
        let refused = build(&tree, &targets(&["claude-code"])).unwrap_err();
        assert_eq!(refused, err, "every entry point refuses the tree");
        assert_eq!(crate::validate(&tree, &Default::default()).unwrap_err(), err);

        // Files at the per-file bound, one Arc shared: the total goes over.
        let mut tree = SourceTree::new();
        let most: std::sync::Arc<[u8]> = vec![b'y'; MAX_FILE_BYTES as usize].into();
        let fit = (MAX_SOURCE_BYTES / MAX_FILE_BYTES) as usize;
        for i in 0..fit {
            tree.insert(&format!("f{i}"), most.clone(), false).unwrap();
        }
        let err = tree.insert("one-more", most.clone(), false).unwrap_err();
        assert_eq!(
            (err.code, err.message()),
            (ErrorCode::Limit, "one-more: the source's files hold more than 1024 MiB together".to_string())
        );
        tree.insert("f0", most, false).expect("replacing a file does not grow the tree");

        // The file count: the design point is 10,000 files; the bound is ten times that.
        let mut tree = SourceTree::new();
        for i in 0..MAX_SOURCE_FILES {
            tree.insert(&format!("d{}/f{i}", i % 100), b"x".to_vec(), false).unwrap();
        }
        let err = tree.insert("last", b"x".to_vec(), false).unwrap_err();
        assert_eq!(err.message(), "last: the source holds more than 100000 files");
        assert_eq!(crate::import(&tree, &Default::default()).unwrap_err(), err);
    }

    #[test]
    fn a_template_that_loops_fails_the_build_with_the_limit_code() {
        let tree = source(&[
            ("plugforge.json", r#"{"name": "p", "version": "1.0.0"}"#),
            (
                "skills/s/SKILL.md.j2",
                "---\nname: s\ndescription: Loops.\n---\n{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}\n",
            ),
        ]);
        let err = build(&tree, &targets(&["claude-code"])).unwrap_err();
        assert_eq!(err.code, ErrorCode::Limit, "{err}");
        assert_eq!(err.location().map(|l| l.file.as_str()), Some("skills/s/SKILL.md.j2"));
    }

    #[test]
    fn two_skills_differing_by_case_fail_each_runtime_naming_the_source() {
        let tree = source(&[
            ("plugforge.json", r#"{"name": "p", "version": "1.0.0"}"#),
            ("skills/Deploy/SKILL.md", "---\nname: Deploy\ndescription: Deploys.\n---\nGo.\n"),
            ("skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploys.\n---\nGo.\n"),
        ]);
        let error = build(&tree, &targets(&["claude-code"])).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidPath, "{error}");
        assert_eq!(error.location().unwrap().file, "skills/deploy/SKILL.md", "{error}");
        assert!(error.message().contains("only by case"), "{error}");
    }

    #[test]
    fn a_non_portable_path_fails_its_runtime_only() {
        let tree = source(&[
            ("plugforge.json", r#"{"name": "p", "version": "1.0.0"}"#),
            ("skills/aux/SKILL.md", "---\nname: aux\ndescription: Helps.\n---\nGo.\n"),
        ]);
        let output = build(&tree, &targets(&["claude-code", "generic"])).expect("generic is built");
        let generic = &output.bundles[0];
        assert_eq!(generic.runtime, "generic");
        assert!(generic.files.keys().all(|path| !path.as_str().contains("/aux/")));
        let [failure] = output.failures.as_slice() else { panic!("{:?}", output.failures) };
        assert_eq!(failure.runtime, "claude-code");
        assert_eq!(failure.error.code, ErrorCode::InvalidPath);
        assert_eq!(failure.error.location().unwrap().file, "skills/aux/SKILL.md", "{}", failure.error);
        assert!(failure.error.message().contains("reserves for a device"), "{}", failure.error);
    }

    const APPS_ONLY: &[(&str, &str)] = &[
        ("plugforge.json", r#"{"name": "crm", "version": "1.0.0", "description": "A CRM connector."}"#),
        (".app.json", r#"{"apps": {"crm": {"id": "asdk_app_0123"}}}"#),
    ];

    #[test]
    fn app_connectors_alone_build_codex_and_list_every_other_runtime_of_all_as_not_built() {
        let output = build(&source(APPS_ONLY), &targets(&["all"])).expect("codex is built");
        let built: Vec<&str> = output.bundles.iter().map(|b| b.runtime.id()).collect();
        assert_eq!(built, ["codex"]);
        let codex = &output.bundles[0];
        let app = codex.honesty.iter().find(|h| h.component == Component::App).expect("an app row");
        assert_eq!((app.name.as_str(), app.level), ("crm", Level::Supported));
        assert!(codex.files.keys().any(|p| p.as_str() == ".app.json"));
        let in_all = Runtime::ALL.iter().filter(|r| r.spec().in_target_all).count();
        assert_eq!(output.failures.len(), in_all - 1);
        for failure in &output.failures {
            assert!(failure.skipped, "{}", failure.runtime);
            assert_eq!(failure.error.code, ErrorCode::NothingToLoad);
            assert_eq!(failure.error.message(), "nothing this runtime can load (apps: unsupported)");
        }
        assert!(!output.failed(), "all: listed, not a failure");
    }

    #[test]
    fn a_runtime_named_that_would_load_nothing_fails_and_alone_fails_the_build() {
        let output = build(&source(APPS_ONLY), &targets(&["codex", "gemini"])).expect("codex is built");
        let [failure] = output.failures.as_slice() else { panic!("{:?}", output.failures) };
        assert_eq!((failure.runtime.id(), failure.skipped), ("gemini", false));
        assert!(output.failed(), "a named runtime that builds nothing is a failure");

        let error = build(&source(APPS_ONLY), &targets(&["gemini", "claude-code"])).unwrap_err();
        assert_eq!(error.code, ErrorCode::NothingToLoad);
        assert_eq!(
            error.message(),
            "nothing to build: no requested runtime can load anything this source holds\n\
             gemini: nothing this runtime can load (apps: unsupported)\n\
             claude-code: nothing this runtime can load (apps: unsupported)"
        );
    }

    #[test]
    fn a_source_with_no_component_is_built_as_a_skeleton_and_files_alone_are_nothing_to_load() {
        let tree = source(&[("plugforge.json", r#"{"name": "p", "version": "1.0.0"}"#)]);
        let output = build(&tree, &targets(&["gemini"])).expect("a skeleton is built");
        assert_eq!(output.bundles.len(), 1);

        // Content listed where no runtime looks is only files to every runtime.
        let tree = source(&[
            ("plugforge.json", r#"{"name": "p", "version": "1.0.0"}"#),
            ("README.md", "# p\n"),
            ("elsewhere/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploys.\n---\nGo.\n"),
        ]);
        let output = build(&tree, &targets(&["all"])).unwrap_err();
        assert_eq!(output.code, ErrorCode::NothingToLoad);
        assert!(
            output.message().contains(
                "gemini: nothing this runtime can load (its 2 file(s) hold no skill, command, agent, hook, \
                 MCP server or other component a runtime loads)"
            ),
            "{output}"
        );
    }

    #[test]
    fn a_credential_rendered_from_a_host_variable_is_refused_naming_the_template() {
        let tree = source(&[
            ("plugforge.json", r#"{"name": "p", "version": "1.0.0"}"#),
            ("commands/login.md.j2", "---\ndescription: Logs in.\n---\nUse {{ token }}.\n"),
        ]);
        let mut options = targets(&["claude-code"]);
        options.vars.insert("token".into(), "ghp_0123456789abcdefghijABCDEFGHIJ012345".into());
        let error = build(&tree, &options).unwrap_err();
        assert_eq!(error.code, ErrorCode::Credential, "{error}");
        assert_eq!(error.location().unwrap().file, "commands/login.md.j2");
        assert!(
            error.message().contains("ghp_…") && !error.message().contains("0123456789abcdef"),
            "{error}"
        );
    }
}
