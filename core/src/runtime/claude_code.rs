//! Claude Code plugin: `.claude-plugin/plugin.json` plus the default layout.

use serde_json::{Map, Value, json};

use super::Written;
use crate::bundle::{Bundle, GeneratedFile, MarketplaceEntry, manifest_path};
use crate::error::Result;
use crate::json;
use crate::model::{FileComponent, MarkdownComponent, Plugin};
use crate::options::BuildOptions;
use crate::path::BundlePath;
use crate::report::{Diagnostic, Honesty, Level};
use crate::templates;
use crate::vars::CLAUDE_VARS;

const RUNTIME: &str = "claude-code";
const MARKETPLACE_FILE: &str = ".claude-plugin/marketplace.json";
/// The only plugin `settings.json` keys Claude Code applies.
const APPLIED_SETTINGS: [&str; 2] = ["agent", "subagentStatusLine"];
/// Agent frontmatter keys Claude Code ignores for plugin agents.
const IGNORED_AGENT_KEYS: [&str; 3] = ["permissionMode", "hooks", "mcpServers"];

pub fn write(
    kind: &'static str,
    root: BundlePath,
    plugin: &Plugin,
    options: &BuildOptions,
) -> Result<Written> {
    let mut writer = Writer {
        plugin,
        kind,
        bundle: Bundle {
            runtime: RUNTIME,
            kind,
            root,
            namespace: plugin.namespace.clone(),
            plugin_name: plugin.config.name.clone(),
            plugin_version: plugin.config.version.clone(),
            files: Default::default(),
            honesty: Vec::new(),
            diagnostics: Vec::new(),
        },
    };
    writer.manifest()?;
    writer.skills()?;
    writer.markdown("command", &plugin.commands)?;
    writer.markdown("agent", &plugin.agents)?;
    writer.copies("output-style", &plugin.output_styles, true)?;
    writer.copies("bin", &plugin.bin, true)?;
    writer.copies("file", &plugin.support, false)?;
    writer.hooks()?;
    writer.mcp()?;
    writer.settings()?;
    writer.context();
    writer.readme(options)?;
    let marketplace = options.marketplace.then(|| marketplace_entry(plugin, &writer.bundle.root));
    Ok(Written { bundle: writer.bundle, marketplace })
}

struct Writer<'a> {
    plugin: &'a Plugin,
    kind: &'static str,
    bundle: Bundle,
}

impl Writer<'_> {
    fn honest(&mut self, component: &'static str, name: &str, level: Level, detail: impl Into<String>) {
        let row = Honesty {
            component,
            name: name.to_string(),
            runtime: RUNTIME,
            kind: self.kind,
            level,
            detail: detail.into(),
        };
        self.bundle.honesty.push(row);
    }

    fn add(&mut self, path: &str, bytes: Vec<u8>, template: String) -> Result<()> {
        self.bundle.add(BundlePath::new(path)?, GeneratedFile::new(bytes, false, template))
    }

    fn copy(&mut self, component: &FileComponent, translate: bool) -> Result<()> {
        let file = &component.file;
        let bytes = match file.text().filter(|_| translate).and_then(|t| CLAUDE_VARS.text(t)) {
            Some(text) => text.into_bytes().into(),
            None => file.bytes.clone(),
        };
        let generated = GeneratedFile::new(bytes, file.executable, file.origin.to_string());
        self.bundle.add(component.path.clone(), generated)
    }

    fn manifest(&mut self) -> Result<()> {
        let config = &self.plugin.config;
        let mut manifest = Map::new();
        manifest.insert("name".into(), json!(self.plugin.namespace));
        let optional = [
            ("displayName", config.display_name.as_ref()),
            ("version", config.version.as_ref()),
            ("description", config.description.as_ref()),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                manifest.insert(key.into(), json!(value));
            }
        }
        if let Some(author) = &config.author {
            manifest.insert("author".into(), json!(author));
        }
        for (key, value) in
            [("homepage", &config.homepage), ("repository", &config.repository), ("license", &config.license)]
        {
            if let Some(value) = value {
                manifest.insert(key.into(), json!(value));
            }
        }
        if !config.keywords.is_empty() {
            manifest.insert("keywords".into(), json!(config.keywords));
        }
        for (key, value) in self.plugin.claude_extra.iter().chain(self.target_overrides()) {
            manifest.insert(key.clone(), value.clone());
        }
        self.warn_missing_metadata(&manifest);
        self.add(
            ".claude-plugin/plugin.json",
            json::to_bytes(&manifest),
            templates::origin("claude-code/plugin.json"),
        )
    }

    fn target_overrides(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.plugin.config.targets.get(RUNTIME).into_iter().flat_map(|t| t.manifest.iter())
    }

    /// `claude plugin validate --strict` fails on these; say so before a user finds out.
    fn warn_missing_metadata(&mut self, manifest: &Map<String, Value>) {
        let file = self.plugin.metadata_file.to_string();
        for key in ["version", "description", "author"] {
            if !manifest.contains_key(key) {
                let message =
                    format!("no {key}: `claude plugin validate --strict` rejects a plugin without one");
                let location = Some(crate::error::Location::file(file.clone()));
                self.bundle.diagnostics.push(Diagnostic::warning("missing_metadata", location, message));
            }
        }
    }

    fn skills(&mut self) -> Result<()> {
        for skill in &self.plugin.skills {
            self.copy(&skill.main, true)?;
            for file in &skill.files {
                self.copy(file, false)?;
            }
            self.honest("skill", &skill.name, Level::Supported, format!("skills/{}/SKILL.md", skill.name));
        }
        Ok(())
    }

    fn markdown(&mut self, component: &'static str, items: &[MarkdownComponent]) -> Result<()> {
        for item in items {
            self.copy(&item.file, true)?;
            let ignored: Vec<&str> =
                IGNORED_AGENT_KEYS.iter().copied().filter(|k| item.document.field(k).is_some()).collect();
            if component == "agent" && !ignored.is_empty() {
                let detail = format!("Claude Code ignores {} for plugin agents", ignored.join(", "));
                self.honest(component, &item.name, Level::Degraded, detail);
            } else {
                self.honest(component, &item.name, Level::Supported, item.file.path.to_string());
            }
        }
        Ok(())
    }

    fn copies(&mut self, component: &'static str, items: &[FileComponent], report: bool) -> Result<()> {
        for item in items {
            self.copy(item, false)?;
            if report {
                self.honest(component, item.path.as_str(), Level::Supported, item.path.to_string());
            }
        }
        Ok(())
    }

    fn hooks(&mut self) -> Result<()> {
        let Some(hooks) = &self.plugin.hooks else { return Ok(()) };
        let value = CLAUDE_VARS.json(hooks.value.clone());
        let events: Vec<String> = value
            .get("hooks")
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        for event in &events {
            self.honest("hook", event, Level::Supported, "hooks/hooks.json, ${CLAUDE_PLUGIN_ROOT}");
        }
        self.add("hooks/hooks.json", json::to_bytes(&value), hooks.origin.to_string())
    }

    fn mcp(&mut self) -> Result<()> {
        let Some(mcp) = &self.plugin.mcp else { return Ok(()) };
        let servers = CLAUDE_VARS.json(Value::Object(mcp.servers.clone()));
        for name in mcp.servers.keys() {
            self.honest("mcp", name, Level::Supported, ".mcp.json");
        }
        self.add(".mcp.json", json::to_bytes(&json!({ "mcpServers": servers })), mcp.origin.to_string())
    }

    fn settings(&mut self) -> Result<()> {
        let Some(settings) = &self.plugin.settings else { return Ok(()) };
        let value = CLAUDE_VARS.json(settings.value.clone());
        let ignored: Vec<&str> = value
            .as_object()
            .map(|m| m.keys().map(String::as_str).filter(|k| !APPLIED_SETTINGS.contains(k)).collect())
            .unwrap_or_default();
        if ignored.is_empty() {
            self.honest("settings", "settings.json", Level::Supported, "settings.json");
        } else {
            let detail = format!(
                "Claude Code applies only {} from a plugin's settings.json; ignored: {}",
                APPLIED_SETTINGS.join(" and "),
                ignored.join(", ")
            );
            self.honest("settings", "settings.json", Level::Degraded, detail);
        }
        self.add("settings.json", json::to_bytes(&value), settings.origin.to_string())
    }

    fn context(&mut self) {
        if let Some(context) = &self.plugin.context {
            let detail = "Claude Code plugins load no context file (a root CLAUDE.md is ignored); \
                          move its guidance into a skill";
            self.honest("context", context.path.as_str(), Level::Unsupported, detail);
        }
    }

    fn readme(&mut self, options: &BuildOptions) -> Result<()> {
        if let Some(readme) = &self.plugin.readme {
            return self.copy(readme, true);
        }
        let plugin = self.plugin;
        let described = |items: &[MarkdownComponent]| -> Vec<Value> {
            items
                .iter()
                .map(|c| json!({"name": c.name, "description": c.document.str_field("description")}))
                .collect()
        };
        let skills: Vec<Value> = plugin
            .skills
            .iter()
            .map(|s| json!({"name": s.name, "description": s.document.str_field("description")}))
            .collect();
        let hooks: Vec<String> = plugin
            .hooks
            .as_ref()
            .and_then(|h| h.value.get("hooks")?.as_object().map(|m| m.keys().cloned().collect()))
            .unwrap_or_default();
        let mcp: Vec<&String> = plugin.mcp.as_ref().map(|m| m.servers.keys().collect()).unwrap_or_default();
        let ctx = json!({
            "plugin": {
                "name": plugin.config.name,
                "display_name": plugin.config.display_name,
                "version": plugin.config.version,
                "description": plugin.config.description,
            },
            "namespace": plugin.namespace,
            "root": self.bundle.root.as_str(),
            "marketplace": options.marketplace.then(|| marketplace_name(plugin)),
            "skills": skills,
            "commands": described(&plugin.commands),
            "agents": described(&plugin.agents),
            "hooks": hooks,
            "mcp_servers": mcp,
            "generator": options.generator,
            "manifest": manifest_path(&BundlePath::new("x").expect("valid"), &options.manifest_name).file_name(),
        });
        let text = templates::render("claude-code/README.md.j2", ctx);
        self.add("README.md", text.into_bytes(), templates::origin("claude-code/README.md.j2"))
    }
}

pub fn marketplace_name(plugin: &Plugin) -> String {
    plugin.config.marketplace.name.clone().unwrap_or_else(|| format!("local-{}", plugin.namespace))
}

fn marketplace_entry(plugin: &Plugin, root: &BundlePath) -> MarketplaceEntry {
    let config = &plugin.config;
    let mut entry = Map::new();
    entry.insert("name".into(), json!(plugin.namespace));
    entry.insert("source".into(), json!(format!("./{root}")));
    if let Some(description) = &config.description {
        entry.insert("description".into(), json!(description));
    }
    if let Some(version) = &config.version {
        entry.insert("version".into(), json!(version));
    }
    if let Some(author) = &config.author {
        entry.insert("author".into(), json!(author));
    }
    if let Some(category) = &config.marketplace.category {
        entry.insert("category".into(), json!(category));
    }
    let owner = config
        .marketplace
        .owner
        .as_ref()
        .or(config.author.as_ref())
        .map_or_else(|| json!({"name": plugin.namespace}), |owner| json!(owner));
    let description = config
        .marketplace
        .description
        .clone()
        .unwrap_or_else(|| format!("Local marketplace for the {} plugin", plugin.namespace));
    let document = json!({
        "name": marketplace_name(plugin),
        "owner": owner,
        "description": description,
        "plugins": [],
    });
    MarketplaceEntry {
        runtime: RUNTIME,
        path: BundlePath::new(MARKETPLACE_FILE).expect("valid"),
        document,
        entry: Value::Object(entry),
    }
}
