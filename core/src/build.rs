//! The build entry point: source tree + options -> every requested bundle.

use serde_json::json;

use crate::bundle::{Output, check_manifest_name};
use crate::error::{Error, ErrorCode, Result};
use crate::options::{BuildOptions, TargetRequest};
use crate::runtime::{self, Runtime};
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
        marketplaces: Vec::new(),
        diagnostics: Vec::new(),
    };
    for (index, (runtime, kind)) in targets.into_iter().enumerate() {
        let load = LoadOptions {
            vars: &options.vars,
            namespace: options.namespace.as_deref(),
            builtins: vec![
                ("generator", json!(options.generator)),
                ("runtime", json!(runtime.id())),
                ("kind", json!(kind)),
                ("scope", json!(options.scope.as_str())),
            ],
        };
        let (plugin, diagnostics) = load_plugin(source, &load)?;
        if index == 0 {
            output.diagnostics = diagnostics;
        }
        let written = runtime::write(runtime, kind, &plugin, options)?;
        urls::check(&written.bundle, &allowed)?;
        output.bundles.push(written.bundle);
        output.marketplaces.extend(written.marketplace);
    }
    Ok(output)
}

/// CLI/API targets first, else the config's enabled targets, else Claude Code;
/// each kind checked before anything is generated.
fn resolve_targets(config: &Config, options: &BuildOptions) -> Result<Vec<(Runtime, &'static str)>> {
    let requested: Vec<TargetRequest> = if !options.targets.is_empty() {
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
    let mut resolved = Vec::new();
    for request in requested {
        let runtime = Runtime::parse(&request.runtime)?;
        let configured = config.targets.get(runtime.id()).and_then(|t| t.artifact.as_deref());
        let kind = runtime.resolve_kind(request.kind.as_deref().or(configured))?;
        if resolved.iter().any(|(r, _)| *r == runtime) {
            return Err(Error::new(ErrorCode::InvalidOptions, format!("{} requested twice", runtime.id())));
        }
        resolved.push((runtime, kind));
    }
    Ok(resolved)
}
