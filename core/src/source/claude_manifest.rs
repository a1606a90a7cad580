//! An existing Claude Code plugin (its manifest + its layout)
//! read as a canonical source, so authors need no migration.

use serde_json::{Map, Value};

use super::config::{Author, Config};
use super::json_text::{line_of_key, parse_json};
use crate::error::{Error, ErrorCode, Location, Result};
use crate::path::BundlePath;

/// Component locations a Claude manifest may redirect.
#[derive(Debug, Clone, Default)]
pub struct ComponentPaths {
    /// Extra skill roots, added to `skills/`.
    pub skills: Vec<BundlePath>,
    /// When set, replace `commands/` (files or folders).
    pub commands: Option<Vec<BundlePath>>,
    pub agents: Option<Vec<BundlePath>>,
    pub output_styles: Option<Vec<BundlePath>>,
    /// Extra hook files, added to `hooks/hooks.json`.
    pub hook_files: Vec<BundlePath>,
    pub inline_hooks: Vec<Value>,
    /// Extra MCP files, added to `.mcp.json`.
    pub mcp_files: Vec<BundlePath>,
    pub inline_mcp: Vec<Map<String, Value>>,
}

pub struct ClaudeSource {
    pub config: Config,
    pub extra: Map<String, Value>,
    pub paths: ComponentPaths,
}

/// The shared metadata keys every runtime's manifest may carry.
pub(crate) const METADATA_KEYS: [&str; 9] = [
    "name",
    "displayName",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
];

pub fn read_claude_manifest(file: &str, bytes: &[u8]) -> Result<ClaudeSource> {
    let mut manifest: Map<String, Value> = parse_json(file, bytes)?;
    let text = String::from_utf8_lossy(bytes);
    let field_error = |key: &str, message: String| {
        let line = line_of_key(&text, key).unwrap_or(1);
        Error::at(ErrorCode::InvalidSource, Location::at(file, line, 1), message)
    };
    let string = |manifest: &Map<String, Value>, key: &str| -> Result<Option<String>> {
        match manifest.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(field_error(key, format!("\"{key}\" must be a string"))),
        }
    };
    let name = string(&manifest, "name")?
        .filter(|n| !n.is_empty())
        .ok_or_else(|| field_error("name", "\"name\" is required".into()))?;
    let author =
        match manifest.get("author") {
            None => None,
            Some(value) => Some(serde_json::from_value::<Author>(value.clone()).map_err(|e| {
                field_error("author", format!("\"author\" must be {{name, email?, url?}}: {e}"))
            })?),
        };
    let keywords = match manifest.get("keywords") {
        None => Vec::new(),
        Some(value) => serde_json::from_value(value.clone())
            .map_err(|_| field_error("keywords", "\"keywords\" must be an array of strings".into()))?,
    };
    let config = Config {
        name,
        display_name: string(&manifest, "displayName")?,
        version: string(&manifest, "version")?,
        description: string(&manifest, "description")?,
        author,
        license: string(&manifest, "license")?,
        repository: string(&manifest, "repository")?,
        homepage: string(&manifest, "homepage")?,
        keywords,
        ..Config::default()
    };
    let paths = component_paths(&mut manifest, &field_error)?;
    for key in METADATA_KEYS {
        manifest.remove(key);
    }
    manifest.remove("$schema");
    Ok(ClaudeSource { config, extra: manifest, paths })
}

fn component_paths(
    manifest: &mut Map<String, Value>,
    field_error: &dyn Fn(&str, String) -> Error,
) -> Result<ComponentPaths> {
    let mut paths = ComponentPaths::default();
    let list = |key: &str, value: &Value| -> Result<Vec<BundlePath>> {
        let items: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        items.into_iter().map(|item| relative_path(key, item, field_error)).collect()
    };
    if let Some(value) = manifest.remove("skills") {
        paths.skills = list("skills", &value)?;
    }
    // The object form of `commands` names inline commands: the loader keeps it verbatim.
    if let Some(value) = manifest.get("commands").filter(|v| !v.is_object()).cloned() {
        manifest.remove("commands");
        paths.commands = Some(list("commands", &value)?);
    }
    if let Some(value) = manifest.remove("agents") {
        paths.agents = Some(list("agents", &value)?);
    }
    if let Some(value) = manifest.remove("outputStyles") {
        paths.output_styles = Some(list("outputStyles", &value)?);
    }
    if let Some(value) = manifest.remove("hooks") {
        for item in as_items(value) {
            match item {
                Value::Object(_) => paths.inline_hooks.push(item),
                other => paths.hook_files.push(relative_path("hooks", &other, field_error)?),
            }
        }
    }
    if let Some(value) = manifest.get("mcpServers").cloned() {
        let mut keep = false;
        for item in as_items(value) {
            match item {
                Value::Object(map) => paths.inline_mcp.push(map),
                Value::String(ref s) if s.ends_with(".json") => {
                    paths.mcp_files.push(relative_path("mcpServers", &item, field_error)?)
                }
                _ => keep = true,
            }
        }
        if !keep {
            manifest.remove("mcpServers");
        }
    }
    Ok(paths)
}

fn as_items(value: Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items,
        other => vec![other],
    }
}

fn relative_path(
    key: &str,
    value: &Value,
    field_error: &dyn Fn(&str, String) -> Error,
) -> Result<BundlePath> {
    let Some(text) = value.as_str() else {
        return Err(field_error(key, format!("\"{key}\" entries must be \"./\" paths")));
    };
    let Some(rest) = text.strip_prefix("./") else {
        return Err(field_error(key, format!("\"{key}\" path {text:?} must start with \"./\"")));
    };
    BundlePath::new(rest.trim_end_matches('/'))
        .map_err(|e| field_error(key, format!("\"{key}\" path {text:?} is not allowed: {}", e.message())))
}
