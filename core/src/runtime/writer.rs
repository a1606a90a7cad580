//! The toolkit every runtime writer uses: add files, copy source files with
//! the runtime's variable spelling, contribute parts of shared files, and
//! record honesty rows and diagnostics.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{Kind, Runtime};
use crate::bundle::{Bundle, GeneratedFile};
use crate::codes::DiagnosticCode;
use crate::error::{Location, Result};
use crate::json;
use crate::merge::{Merge, Part};
use crate::model::{FileComponent, Plugin, Skill};
use crate::options::BuildOptions;
use crate::path::BundlePath;
use crate::report::Component;
use crate::report::{Diagnostic, Honesty, Level};
use crate::vars::VarTable;

pub struct Writer<'a> {
    pub plugin: &'a Plugin,
    pub options: &'a BuildOptions,
    pub runtime: Runtime,
    pub kind: &'static Kind,
    pub bundle: Bundle,
}

impl<'a> Writer<'a> {
    pub fn new(
        runtime: Runtime,
        kind: &'static Kind,
        plugin: &'a Plugin,
        options: &'a BuildOptions,
    ) -> Result<Self> {
        let (root, manifest) = runtime.place(
            kind,
            &options.roots,
            &plugin.namespace,
            &options.manifest_name,
            options.plugin_folders,
        )?;
        let bundle = Bundle {
            runtime,
            kind: kind.name,
            root,
            manifest,
            namespace: plugin.namespace.clone(),
            plugin_name: plugin.config.name.clone(),
            plugin_version: plugin.config.version.clone(),
            requires: plugin.config.requires.clone(),
            conflicts: plugin.config.conflicts.clone(),
            files: Default::default(),
            merges: Vec::new(),
            honesty: Vec::new(),
            diagnostics: Vec::new(),
        };
        Ok(Writer { plugin, options, runtime, kind, bundle })
    }

    pub fn finish(self) -> Bundle {
        self.bundle
    }

    /// One honesty row for a component instance.
    pub fn honest(&mut self, component: Component, name: &str, level: Level, detail: impl Into<String>) {
        let row = Honesty {
            component,
            name: name.to_string(),
            runtime: self.runtime,
            kind: self.kind.name,
            level,
            detail: detail.into(),
        };
        self.bundle.honesty.push(row);
    }

    /// Hook groups for a runtime with no plugin options of its own: each
    /// `${user_config.KEY}` in a command handler becomes
    /// `"${CLAUDE_PLUGIN_OPTION_KEY:-default}"`, the variable Claude Code
    /// sets, falling back to the option's default. Written as it stands, the
    /// shell reads it as a bad substitution and runs nothing. One degraded
    /// row per option a hook uses.
    pub fn user_options_in_hooks(&mut self, hooks: Value) -> Value {
        let plugin = self.plugin;
        let default = |key: &str| user_option_default(plugin, key);
        let mut used = std::collections::BTreeSet::new();
        let hooks = map_commands(hooks, &mut |command: &str| {
            used.extend(user_option_keys(command));
            crate::shell::user_options_with_defaults(command, &default)
        });
        for key in used {
            let variable = crate::shell::claude_option_variable(&key);
            let fallback = match default(&key) {
                Some(d) if crate::shell::is_plain_default(&d) => format!(", else its default \"{d}\""),
                Some(_) => ", empty when unset (its default holds characters the shell would read)".into(),
                None => ", empty when unset (the option has no default)".into(),
            };
            let detail = format!(
                "hook commands read ${{user_config.{key}}} from ${variable}{fallback}: {} has no plugin options, \
                 so set {variable} where it runs to choose the value",
                self.runtime.name()
            );
            self.honest(Component::Metadata, &format!("userConfig.{key}"), Level::Degraded, detail);
        }
        hooks
    }

    pub fn warn(&mut self, code: DiagnosticCode, file: Option<&str>, message: impl Into<String>) {
        self.bundle.diagnostics.push(Diagnostic::warning(code, file.map(Location::file), message));
    }

    /// Adds a generated file at `path` (relative to the bundle root).
    pub fn add(
        &mut self,
        path: &str,
        bytes: impl Into<Arc<[u8]>>,
        template: impl Into<String>,
    ) -> Result<()> {
        self.bundle.add(BundlePath::new(path)?, GeneratedFile::new(bytes, false, template))
    }

    /// Copies a skill's SKILL.md to `to` (default: its canonical path) as
    /// [`Writer::copy`] does; for a runtime that follows the Agent Skills
    /// specification, one without a `name` gets its folder's. Whether a
    /// name was added.
    pub fn copy_skill_main(
        &mut self,
        skill: &Skill,
        to: Option<&str>,
        vars: Option<VarTable>,
    ) -> Result<bool> {
        let original = skill.main.file.text().unwrap_or_default();
        let translated = vars.and_then(|v| v.text(original));
        let named = self.runtime.spec().skills.follows_agent_skills_spec
            && skill.document.frontmatter.is_some()
            && skill.document.field("name").is_none();
        match named
            .then(|| super::skill_fold::with_folder_name(skill, translated.as_deref().unwrap_or(original)))
        {
            Some(Some(text)) => {
                let path = to.unwrap_or(skill.main.path.as_str());
                self.bundle.add(
                    BundlePath::new(path)?,
                    GeneratedFile::new(
                        text.into_bytes(),
                        skill.main.file.executable,
                        skill.main.file.origin.to_string(),
                    ),
                )?;
                Ok(true)
            }
            _ => self.copy(&skill.main, to, vars).map(|()| false),
        }
    }

    /// Adds a JSON file in the one house style.
    pub fn add_json(&mut self, path: &str, value: &Value, template: impl Into<String>) -> Result<()> {
        self.add(path, json::to_bytes(value), template)
    }

    /// Copies a source file to `to` (default: its canonical path), rewriting
    /// plugin-root variables in text with `vars`. Unchanged bytes stay shared.
    pub fn copy(&mut self, from: &FileComponent, to: Option<&str>, vars: Option<VarTable>) -> Result<()> {
        let file = &from.file;
        let rewritten = match (file.text(), vars) {
            (Some(text), Some(vars)) => vars.text(text),
            _ => None,
        };
        let path = match to {
            Some(path) => BundlePath::new(path)?,
            None => from.path.clone(),
        };
        let generated = match rewritten {
            Some(text) => GeneratedFile::new(text.into_bytes(), file.executable, file.origin.to_string()),
            // The same bytes in every runtime's bundle: hashed once.
            None => GeneratedFile {
                sha256: self.plugin.copied_hashes.of(&file.bytes),
                bytes: file.bytes.clone(),
                executable: file.executable,
                template: file.origin.to_string(),
            },
        };
        self.bundle.add(path, generated)
    }

    /// Contributes a part of a shared file at `path` below the output root.
    pub fn merge(&mut self, path: &str, part: Part) -> Result<()> {
        let path = BundlePath::new(path)?;
        // A section sits inside a file others share: a BOM there would be a
        // stray character mid-file, and CRLF would mix line endings.
        let part = match part {
            Part::Section { id, text } => {
                Part::Section { id, text: crate::text::normalised(&text).into_owned() }
            }
            other => other,
        };
        self.bundle.merges.push(Merge { path, part });
        Ok(())
    }

    /// The plugin's identity and publisher fields in the order every manifest
    /// uses: name (the namespace), displayName when asked, version,
    /// description, author, homepage, repository, license, keywords.
    pub fn metadata(&self, display_name: bool) -> Map<String, Value> {
        let config = &self.plugin.config;
        let mut manifest = Map::new();
        manifest.insert("name".into(), json!(self.plugin.namespace));
        let display = config.display_name.as_ref().filter(|_| display_name);
        let strings = [
            ("displayName", display),
            ("version", config.version.as_ref()),
            ("description", config.description.as_ref()),
        ];
        for (key, value) in strings {
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
        manifest
    }

    /// The per-runtime manifest overrides of `plugforge.json` (`targets.<id>.manifest`).
    pub fn overrides(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.plugin.config.targets.get(self.runtime.id()).into_iter().flat_map(|t| t.manifest.iter())
    }
}

impl Writer<'_> {
    /// The names of `component`'s rows this bundle carries (not unsupported),
    /// each once, for its README.
    pub fn written(&self, component: Component) -> Vec<Value> {
        let mut names: Vec<&str> = Vec::new();
        for row in
            self.bundle.honesty.iter().filter(|r| r.component == component && r.level != Level::Unsupported)
        {
            if !names.contains(&row.name.as_str()) {
                names.push(&row.name);
            }
        }
        names.into_iter().map(|n| json!(n)).collect()
    }
}

impl Writer<'_> {
    /// For a runtime (`name` in messages) whose plugins have no settings
    /// file, no output styles and no `bin/` on PATH: `bin/` is shipped
    /// (degraded), support files travel as they are except `withheld`
    /// ((path, why): a file that would confuse the runtime), and settings
    /// and output styles are said unsupported.
    pub fn plain_files(&mut self, name: &str, withheld: &[(&str, String)]) -> Result<()> {
        let plugin = self.plugin;
        for file in &plugin.bin {
            self.copy(file, None, None)?;
            let detail = format!("shipped at {}; {name} puts no plugin bin/ on PATH", file.path);
            self.honest(Component::Bin, file.path.as_str(), Level::Degraded, detail);
        }
        for file in &plugin.support {
            if let Some((path, why)) = withheld.iter().find(|(path, _)| *path == file.path.as_str()) {
                self.warn(DiagnosticCode::IgnoredFile, Some(path), why.clone());
                continue;
            }
            self.copy(file, None, None)?;
        }
        if plugin.settings.is_some() {
            let detail = format!("{name} plugins have no settings file; not written");
            self.honest(Component::Settings, "settings.json", Level::Unsupported, detail);
        }
        for style in &plugin.output_styles {
            let detail = format!("{name} has no output styles; not written");
            self.honest(Component::OutputStyle, style.path.as_str(), Level::Unsupported, detail);
        }
        Ok(())
    }
}

impl Writer<'_> {
    /// The output root seen from the bundle's folder (`../`, or `../../` for
    /// a plugin of a monorepo build), as the README commands run from that
    /// folder name it. The trailing slash keeps it a local path: Claude Code
    /// refuses a bare `..`, and reads `a/b` as a GitHub repository.
    pub fn output_root(&self) -> String {
        let depth = self.bundle.root.split('/').filter(|part| !part.is_empty()).count().max(1);
        "../".repeat(depth)
    }

    /// The plugin's icon file as a manifest names it (`./assets/icon.png`);
    /// `None` without one or for an icon URL, which only Claude Code takes.
    pub fn icon_file(&self) -> Option<String> {
        let icon = self.plugin.config.icon.as_deref()?;
        (!icon.starts_with("https://")).then(|| format!("./{icon}"))
    }

    /// Copies the author's own README (with `vars`, the runtime's variable
    /// spelling) when the source has one; says whether it did.
    pub fn authored_readme(&mut self, vars: Option<VarTable>) -> Result<bool> {
        match &self.plugin.readme {
            Some(readme) => self.copy(readme, None, vars).map(|()| true),
            None => Ok(false),
        }
    }

    /// README.md from `<folder>/README.md.j2`, with the context every
    /// README reads (the plugin, namespace, bundle root, output root seen
    /// from it, marketplace, generator and manifest name) and then the
    /// runtime's own `fields` (what it lists), whose keys win.
    pub fn render_readme(&mut self, folder: &str, fields: Value) -> Result<()> {
        let template = format!("{folder}/README.md.j2");
        let text = crate::templates::render(&template, self.readme_context(fields));
        self.add("README.md", text.into_bytes(), crate::templates::origin(&template))
    }

    /// README.md from a template the runtime keeps in its own folder
    /// (`source`, embedded with `include_str!`), recorded as `name`
    /// (`<runtime>/README.md.j2`); the context is [`Writer::render_readme`]'s.
    pub fn render_readme_from(&mut self, name: &str, source: &str, fields: Value) -> Result<()> {
        let text = crate::templates::render_source(name, source, self.readme_context(fields));
        self.add("README.md", text.into_bytes(), crate::templates::origin(name))
    }

    /// What every README template reads, then the runtime's own `fields`.
    fn readme_context(&self, fields: Value) -> Value {
        let mut ctx = json!({
            "plugin": readme_plugin(self.plugin),
            "namespace": self.plugin.namespace,
            "root": self.bundle.root,
            "up": self.output_root(),
            "marketplace": self.options.marketplace.then(|| self.marketplace_name()),
            "generator": self.options.generator,
            "manifest": self.bundle.manifest.file_name(),
        });
        if let (Value::Object(ctx), Value::Object(fields)) = (&mut ctx, fields) {
            ctx.extend(fields);
        }
        ctx
    }

    /// The marketplace the bundle is listed in: the one name every plugin
    /// of a monorepo build shares, else the source's own, else `local-<plugin>`.
    pub fn marketplace_name(&self) -> String {
        let config = &self.plugin.config.marketplace;
        let name = self.options.marketplace_name.clone().or_else(|| config.name.clone());
        name.unwrap_or_else(|| format!("local-{}", self.plugin.namespace))
    }

    /// Lists the bundle in a marketplace file of Claude Code's shape at
    /// `path` (below the output root): `{name, owner{name, email?},
    /// plugins[{name, source, description?, version?}]}`, the source a `./`
    /// path to the bundle. Several runtimes read this shape under their own
    /// file name.
    pub fn claude_shaped_marketplace_entry(&mut self, path: &str) -> Result<()> {
        let plugin = self.plugin;
        let config = &plugin.config;
        let document =
            json!({"name": self.marketplace_name(), "owner": marketplace_owner(plugin), "plugins": []});
        let mut entry = Map::new();
        entry.insert("name".into(), json!(plugin.namespace));
        entry.insert("source".into(), json!(format!("./{}", self.bundle.root)));
        if let Some(description) = &config.description {
            entry.insert("description".into(), json!(description));
        }
        if let Some(version) = &config.version {
            entry.insert("version".into(), json!(version));
        }
        self.merge(path, Part::MarketplaceEntry { document, entry: Value::Object(entry) })
    }
}

/// A marketplace's `owner`: the configured owner or the author, `{name, email?}`.
pub fn marketplace_owner(plugin: &Plugin) -> Value {
    let config = &plugin.config;
    let owner = config.marketplace.owner.as_ref().or(config.author.as_ref());
    let mut value = Map::new();
    value.insert("name".into(), json!(owner.map_or(plugin.namespace.as_str(), |o| o.name.as_str())));
    if let Some(email) = owner.and_then(|o| o.email.as_ref()) {
        value.insert("email".into(), json!(email));
    }
    Value::Object(value)
}

/// The `plugin` block every bundle README template reads.
fn readme_plugin(plugin: &Plugin) -> Value {
    let config = &plugin.config;
    json!({
        "name": config.name,
        "display_name": config.display_name,
        "version": config.version,
        "description": config.description,
    })
}

/// The components a bundle drops, for its README's "left out" list.
pub fn left_out(rows: &[Honesty]) -> Vec<Value> {
    rows.iter()
        .filter(|row| row.level == Level::Unsupported)
        .map(|row| json!({"component": row.component, "name": row.name}))
        .collect()
}

/// The default a user option declares, as the text a shell variable holds.
pub fn user_option_default(plugin: &Plugin, key: &str) -> Option<String> {
    match super::claude_code::user_options(plugin)?.get(key)?.get("default")? {
        Value::String(text) => Some(text.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Every `${user_config.KEY}` key named in `command`.
fn user_option_keys(command: &str) -> Vec<String> {
    command
        .split("${user_config.")
        .skip(1)
        .filter_map(|rest| rest.find('}').map(|end| rest[..end].to_string()))
        .collect()
}

/// Hook groups with `f` applied to the `command` of each command handler
/// (`type: command`, at any depth); `None` from `f` keeps the command.
fn map_commands(value: Value, f: &mut dyn FnMut(&str) -> Option<String>) -> Value {
    match value {
        Value::Object(mut map) => {
            let is_command = map.get("type").and_then(Value::as_str).is_none_or(|t| t == "command");
            if is_command && let Some(Value::String(command)) = map.get("command") {
                if let Some(changed) = f(command) {
                    map.insert("command".into(), Value::String(changed));
                }
                return Value::Object(map);
            }
            Value::Object(map.into_iter().map(|(k, v)| (k, map_commands(v, f))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(|v| map_commands(v, f)).collect()),
        other => other,
    }
}
