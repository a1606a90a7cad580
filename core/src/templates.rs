//! The project's own templates, embedded so no host needs the files on disk.

use minijinja::value::Serde;

use crate::error::{Error, ErrorCode, Result};
use crate::source::SourceTree;
use serde::Serialize;

/// (name, source) of every embedded template.
const TEMPLATES: &[(&str, &str)] = &[
    ("claude-code/README.md.j2", include_str!("../../templates/claude-code/README.md.j2")),
    ("gemini/README.md.j2", include_str!("../../templates/gemini/README.md.j2")),
    ("hermes/README.md.j2", include_str!("../../templates/hermes/README.md.j2")),
    // Fixed code, never filled with plugin content: it has no template syntax.
    ("hermes/__init__.py", include_str!("../../templates/hermes/__init__.py")),
    ("generic/GUIDE.md.j2", include_str!("../../templates/generic/GUIDE.md.j2")),
    ("cursor/README.md.j2", include_str!("../../templates/cursor/README.md.j2")),
    ("agent-plugins/README.md.j2", include_str!("../../templates/agent-plugins/README.md.j2")),
    ("codex/README.md.j2", include_str!("../../templates/codex/README.md.j2")),
    ("openclaw/README.md.j2", include_str!("../../templates/openclaw/README.md.j2")),
    ("copilot/README.md.j2", include_str!("../../templates/copilot/README.md.j2")),
    ("antigravity/README.md.j2", include_str!("../../templates/antigravity/README.md.j2")),
    ("universal/README.md.j2", include_str!("../../templates/universal/README.md.j2")),
];

/// The starter source `plugforge init` writes: (output path, template).
const STARTER: [(&str, &str); 7] = [
    ("plugforge.json", include_str!("../../templates/init/plugforge.json.j2")),
    ("skills/{name}-basics/SKILL.md", include_str!("../../templates/init/SKILL.md.j2")),
    ("commands/hello.md", include_str!("../../templates/init/command.md.j2")),
    ("agents/{name}-helper.md", include_str!("../../templates/init/agent.md.j2")),
    ("hooks/hooks.json", include_str!("../../templates/init/hooks.json.j2")),
    (".mcp.json", include_str!("../../templates/init/mcp.json.j2")),
    ("AGENTS.md", include_str!("../../templates/init/AGENTS.md.j2")),
];

/// Renders an embedded template. Embedded templates are tested, so a failure
/// here is a bug in the project, not in the user's source.
pub fn render<S: Serialize>(name: &str, ctx: S) -> String {
    let env = crate::source::environment();
    let (_, source) = TEMPLATES.iter().find(|(n, _)| *n == name).expect("embedded template exists");
    env.render_named_str(name, source, Serde(ctx))
        .unwrap_or_else(|e| panic!("embedded template {name}: {e:#}"))
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
    let env = crate::source::environment();
    let mut tree = SourceTree::new();
    for (path, source) in STARTER {
        let text = env
            .render_str(source, Serde(serde_json::json!({ "name": name })))
            .unwrap_or_else(|e| panic!("embedded starter template {path}: {e:#}"));
        tree.insert(&path.replace("{name}", name), text.into_bytes(), false)?;
    }
    Ok(tree)
}
