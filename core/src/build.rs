//! The build entry point: source tree + options -> every requested bundle.

use serde_json::json;

use crate::bundle::{Output, check_manifest_name};
use crate::error::{Error, ErrorCode, Result};
use crate::options::{BuildOptions, TargetRequest};
use crate::path::BundlePath;
use crate::runtime::{self, Kind, Runtime};
use crate::source::{Config, LoadOptions, SourceTree, load_plugin, read_config};
use crate::urls;

/// Builds every requested runtime's bundle from `source`. Nothing is
/// written: the host plans and applies the result.
pub fn build(source: &SourceTree, options: &BuildOptions) -> Result<Output> {
    check_manifest_name(&options.manifest_name)?;
    let config = read_config(source, &options.vars)?;
    let targets = resolve_targets(&config, options)?;
    let mut allowed = options.allow_urls.clone();
    allowed.extend(config.allow_urls.iter().cloned());

    let mut output = Output {
        generator: options.generator.clone(),
        scope: options.scope,
        manifest_name: options.manifest_name.clone(),
        bundles: Vec::new(),
        shared: Vec::new(),
        diagnostics: Vec::new(),
    };
    for (index, (runtime, kind)) in targets.into_iter().enumerate() {
        let load = LoadOptions {
            vars: &options.vars,
            namespace: options.namespace.as_deref(),
            builtins: vec![
                ("generator", json!(options.generator)),
                ("runtime", json!(runtime.id())),
                ("kind", json!(kind.name)),
                ("scope", json!(options.scope.as_str())),
            ],
        };
        let (plugin, diagnostics) = load_plugin(source, &load)?;
        if index == 0 {
            output.diagnostics = diagnostics;
        }
        let bundle = runtime::write(runtime, kind, &plugin, options)?;
        let required = runtime.required_urls().iter().map(|url| url.to_string());
        urls::check(&bundle, &allowed.iter().cloned().chain(required).collect::<Vec<_>>())?;
        let shared = kind.shared.iter().chain(kind.marketplace.iter());
        output.shared.extend(shared.map(|p| BundlePath::new(*p)).collect::<Result<Vec<_>>>()?);
        output.bundles.push(bundle);
    }
    Ok(output)
}

/// The id that asks for every runtime, each with its default kind.
pub const ALL_TARGETS: &str = "all";

/// CLI/API targets first, else the config's enabled targets, else Claude Code;
/// each kind and scope checked before anything is generated.
fn resolve_targets(config: &Config, options: &BuildOptions) -> Result<Vec<(Runtime, &'static Kind)>> {
    let requested: Vec<TargetRequest> = if options.targets.iter().any(|t| t.runtime == ALL_TARGETS) {
        Runtime::ALL.iter().map(|r| TargetRequest::new(r.id())).collect()
    } else if !options.targets.is_empty() {
        options.targets.clone()
    } else {
        let enabled: Vec<TargetRequest> = config
            .targets
            .iter()
            .filter(|(_, t)| t.enabled != Some(false))
            .map(|(id, _)| TargetRequest::new(id.clone()))
            .collect();
        if enabled.is_empty() { vec![TargetRequest::new(Runtime::ClaudeCode.id())] } else { enabled }
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
    Ok(resolved)
}
