//! The project's own templates, embedded so no host needs the files on disk.

use std::sync::OnceLock;

use minijinja::value::Serde;
use minijinja::{Environment, Template};

use crate::error::{Error, ErrorCode, Result};
use crate::source::SourceTree;
use serde::Serialize;

/// `(name, source)` of a template below the templates folder (core/build.rs
/// says which folder that is).
macro_rules! template {
    ($name:literal) => {
        template!($name, $name)
    };
    ($name:literal, $file:literal) => {
        ($name, include_str!(concat!(env!("PLUGFORGE_TEMPLATES_DIR"), "/", $file)))
    };
}

/// (name, source) of every embedded template.
const TEMPLATES: &[(&str, &str)] = &[
    template!("claude-code/README.md.j2"),
    template!("gemini/README.md.j2"),
    template!("hermes/README.md.j2"),
    // Fixed code, never filled with plugin content: it has no template syntax.
    template!("hermes/__init__.py"),
    template!("generic/GUIDE.md.j2"),
    template!("cursor/README.md.j2"),
    template!("agent-plugins/README.md.j2"),
    template!("codex/README.md.j2"),
    template!("openclaw/README.md.j2"),
    template!("copilot/README.md.j2"),
    template!("antigravity/README.md.j2"),
    template!("universal/README.md.j2"),
];

/// The starter source `plugforge init` writes: (output path, template).
const STARTER: [(&str, &str); 7] = [
    template!("plugforge.json", "init/plugforge.json.j2"),
    template!("skills/{name}-basics/SKILL.md", "init/SKILL.md.j2"),
    template!("commands/hello.md", "init/command.md.j2"),
    template!("agents/{name}-helper.md", "init/agent.md.j2"),
    template!("hooks/hooks.json", "init/hooks.json.j2"),
    template!(".mcp.json", "init/mcp.json.j2"),
    template!("AGENTS.md", "init/AGENTS.md.j2"),
];

/// Renders an embedded template. Embedded templates are tested, so a failure
/// here is a bug in the project, not in the user's source.
pub fn render<S: Serialize>(name: &str, ctx: S) -> String {
    compiled(name).render(Serde(ctx)).unwrap_or_else(|e| panic!("embedded template {name}: {e:#}"))
}

/// Renders a template a runtime keeps in its own folder (its writer embeds
/// it with `include_str!`), under the `name` its bundles' manifests record
/// as the origin. Tested like the embedded ones: a failure is a bug here.
pub fn render_source<S: Serialize>(name: &str, source: &str, ctx: S) -> String {
    let env = ENVIRONMENT.get_or_init(embedded_environment);
    env.render_named_str(name, source, Serde(ctx)).unwrap_or_else(|e| panic!("template {name}: {e:#}"))
}

/// The environment the embedded templates are compiled in, once a process.
static ENVIRONMENT: OnceLock<Environment<'static>> = OnceLock::new();

/// The author's templates' environment without fuel: the fuel stops a
/// source's template that loops or grows without end, while the project's
/// own go once over the source's parts (a guide lists every skill), so
/// their work grows with a source the source bounds already limit.
fn embedded_environment() -> Environment<'static> {
    let mut env = crate::source::environment();
    env.set_fuel(None);
    env
}

/// Each embedded template, compiled on first use: every runtime renders a
/// README, and a monorepo or a fuzz run builds thousands of bundles.
static COMPILED: [OnceLock<Template<'static, 'static>>; TEMPLATES.len()] =
    [const { OnceLock::new() }; TEMPLATES.len()];

fn compiled(name: &str) -> &'static Template<'static, 'static> {
    let index = TEMPLATES.iter().position(|(n, _)| *n == name).expect("embedded template exists");
    COMPILED[index].get_or_init(|| {
        let env = ENVIRONMENT.get_or_init(embedded_environment);
        let (name, source) = TEMPLATES[index];
        env.template_from_named_str(name, source)
            .unwrap_or_else(|e| panic!("embedded template {name}: {e:#}"))
    })
}

/// `plugforge:<name>`, the manifest's `template` value for embedded templates.
pub fn origin(name: &str) -> String {
    format!("plugforge:{name}")
}

/// A starter canonical source for a plugin called `name` (kebab-case).
pub fn starter_source(name: &str) -> Result<SourceTree> {
    if !crate::source::is_kebab(name) {
        return Err(Error::new(
            ErrorCode::InvalidOptions,
            format!("plugin name {name:?} must be lowercase kebab-case"),
        ));
    }
    let env = ENVIRONMENT.get_or_init(embedded_environment);
    let mut tree = SourceTree::new();
    for (path, source) in STARTER {
        let text = env
            .render_str(source, Serde(serde_json::json!({ "name": name })))
            .unwrap_or_else(|e| panic!("embedded starter template {path}: {e:#}"));
        tree.insert(&path.replace("{name}", name), text.into_bytes(), false)?;
    }
    Ok(tree)
}
