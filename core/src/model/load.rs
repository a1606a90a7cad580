//! Source tree -> [`Plugin`]: find the metadata, render templates, sort every
//! file into its component, and check what the runtimes rely on.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::{FileComponent, JsonComponent, MarkdownComponent, McpServers, Plugin, ReadSource, Skill, Source};
use crate::canonical::{APPS_FILE, CLAUDE_MANIFEST_DIR, CLAUDE_MANIFEST_PATH, HOOK_EVENTS};
use crate::codes::DiagnosticCode;
use crate::error::{Error, ErrorCode, Location, Problems, Result};
use crate::format::yaml;
use crate::path::BundlePath;
use crate::report::Diagnostic;
use crate::source::{
    ComponentPaths, Config, Document, RenderedFile, RenderedTree, SourceTree, TemplateContext, is_kebab,
    line_of_key, parse_document, parse_json, read_claude_manifest, render_config_file, render_tree, summary,
};
use crate::vars::{canonical_json, canonical_text};

const PLUGFORGE_CONFIG: &str = "plugforge.json";
const HOOKS_FILE: &str = "hooks/hooks.json";
const MCP_FILE: &str = ".mcp.json";

/// What the loader needs from the caller besides the tree.
pub struct LoadOptions<'a> {
    pub vars: &'a BTreeMap<String, String>,
    pub namespace: Option<&'a str>,
    /// Built-ins other than `plugin` and `namespace` (generator, runtime, kind, scope).
    pub builtins: Vec<(&'static str, Value)>,
}

/// Reads the source into the canonical model, with non-fatal findings: a
/// written source is parsed and its templates rendered; a source a
/// runtime's reader read is taken as it is.
pub fn load_plugin(source: Source<'_>, options: &LoadOptions<'_>) -> Result<(Plugin, Vec<Diagnostic>)> {
    let host_ctx = TemplateContext::host_only(options.vars)?;
    let tree = source.tree();
    let metadata = match source {
        Source::Written(tree) => read_metadata(tree, &host_ctx)?,
        Source::Read(read) => read_metadata_read(read)?,
    };
    if let Some(namespace) = options.namespace.filter(|n| !crate::source::is_namespace(n)) {
        let problem = crate::source::namespace_problem(namespace);
        return Err(Error::new(ErrorCode::InvalidOptions, format!("{problem} (the namespace option)")));
    }
    if let Some(namespace) = &metadata.config.namespace {
        let text = tree.get(metadata.file.as_str()).and_then(|f| std::str::from_utf8(&f.bytes).ok());
        let line = text.and_then(|t| line_of_key(t, "namespace"));
        let at = match line {
            Some(line) => Location::at(metadata.file.as_str(), line, 1),
            None => Location::file(metadata.file.as_str()),
        };
        check_namespace(namespace, at)?;
    }
    let namespace = options
        .namespace
        .map(str::to_string)
        .or_else(|| metadata.config.namespace.clone())
        .unwrap_or_else(|| metadata.config.name.clone());
    check_namespace(&namespace, Location::file(metadata.file.as_str()))?;
    let mut metadata = metadata;
    let (icon, icon_dropped) = icon(tree, metadata.config.icon.as_deref(), &metadata.file);
    metadata.config.icon = icon;

    let (rendered, read) = match source {
        Source::Written(tree) => (render(tree, &metadata, &namespace, options)?, None),
        Source::Read(read) => (read.files.clone(), Some(read)),
    };

    let mut sorter = Sorter::new(metadata.paths, metadata.source_is_claude, read);
    sorter.sort(rendered)?;
    let Metadata { config, extra, file, .. } = metadata;
    let (plugin, mut diagnostics) = sorter.finish(config, namespace, file, extra)?;
    diagnostics.extend(icon_dropped);
    Ok((plugin, diagnostics))
}

/// Renders the templates of a written source with the host's variables
/// (each defaulting to the config's) and the built-ins.
fn render(
    tree: &SourceTree,
    metadata: &Metadata,
    namespace: &str,
    options: &LoadOptions<'_>,
) -> Result<RenderedTree> {
    let mut vars = options.vars.clone();
    for (name, doc) in &metadata.config.variables {
        if let (false, Some(default)) = (vars.contains_key(name), &doc.default) {
            vars.insert(name.clone(), default.clone());
        }
    }
    let config = &metadata.config;
    let plugin_value =
        json!({"name": config.name, "version": config.version, "description": config.description});
    let mut ctx =
        TemplateContext::host_only(&vars)?.with("plugin", plugin_value).with("namespace", json!(namespace));
    for (name, value) in &options.builtins {
        ctx = ctx.with(name, value.clone());
    }
    let skip: Vec<&str> = metadata.skip.iter().map(String::as_str).collect();
    render_tree(tree, &skip, &ctx)
}

/// The icon's path in the source (without `./`) when it names a PNG, JPEG
/// or SVG file that is there, or an https URL (only Claude Code takes one).
/// Anything else is dropped with a warning naming the file that names it:
/// a missing icon must not keep a plugin from building.
fn icon(tree: &SourceTree, named: Option<&str>, file: &BundlePath) -> (Option<String>, Option<Diagnostic>) {
    let Some(named) = named else { return (None, None) };
    if named.starts_with("https://") {
        return (Some(named.to_string()), None);
    }
    let path = named.strip_prefix("./").unwrap_or(named);
    let image = [".png", ".jpg", ".jpeg", ".svg"].iter().any(|ext| path.to_ascii_lowercase().ends_with(ext));
    let why = match BundlePath::new(path) {
        _ if !image => "is not a PNG, JPEG or SVG file (what the runtimes that show an icon take)",
        Ok(clean) if tree.get(clean.as_str()).is_some() => return (Some(clean.to_string()), None),
        _ => "is not a file of the plugin",
    };
    let message = format!("icon {named:?} {why}; no manifest carries an icon");
    (
        None,
        Some(Diagnostic::warning(DiagnosticCode::IconDropped, Some(Location::file(file.as_str())), message)),
    )
}

/// Just the plugin's metadata, to choose targets before a full load.
pub fn read_config(source: Source<'_>, vars: &BTreeMap<String, String>) -> Result<Config> {
    let ctx = TemplateContext::host_only(vars)?;
    match source {
        Source::Written(tree) => Ok(read_metadata(tree, &ctx)?.config),
        Source::Read(read) => Ok(read_metadata_read(read)?.config),
    }
}

struct Metadata {
    config: Config,
    extra: Map<String, Value>,
    paths: ComponentPaths,
    file: BundlePath,
    skip: Vec<String>,
    source_is_claude: bool,
}

fn read_metadata(tree: &SourceTree, ctx: &TemplateContext) -> Result<Metadata> {
    let find = |name: &str| -> Result<Option<BundlePath>> {
        let plain = tree.get(name).map(|_| name.to_string());
        let templated = tree.get(&format!("{name}.j2")).map(|_| format!("{name}.j2"));
        match (plain, templated) {
            (Some(_), Some(t)) => Err(Error::at(
                ErrorCode::InvalidSource,
                Location::file(t),
                format!("both {name} and {name}.j2 exist; keep one"),
            )),
            (a, b) => a.or(b).map(BundlePath::new).transpose(),
        }
    };
    if let Some(path) = find(PLUGFORGE_CONFIG)? {
        let bytes = render_config_file(&path, tree.get(path.as_str()).expect("found above"), ctx)?;
        let config: Config = parse_json(path.as_str(), &bytes)?;
        check_name(&config.name, &path)?;
        return Ok(Metadata {
            config,
            extra: Map::new(),
            paths: ComponentPaths::default(),
            skip: vec![path.to_string()],
            file: path,
            source_is_claude: false,
        });
    }
    if let Some(path) = find(CLAUDE_MANIFEST_PATH)? {
        let bytes = render_config_file(&path, tree.get(path.as_str()).expect("found above"), ctx)?;
        let claude = read_claude_manifest(path.as_str(), &bytes)?;
        return Ok(Metadata {
            config: claude.config,
            extra: claude.extra,
            paths: claude.paths,
            skip: vec![path.to_string()],
            file: path,
            source_is_claude: true,
        });
    }
    Err(Error::at(
        ErrorCode::InvalidSource,
        Location::file(PLUGFORGE_CONFIG),
        format!(
            "no plugforge.json (or {}) at the source root; `plugforge init` creates one",
            CLAUDE_MANIFEST_PATH
        ),
    ))
}

/// The metadata of a source a reader read: its `plugforge.json` fields, as
/// the reader set them.
fn read_metadata_read(read: &ReadSource) -> Result<Metadata> {
    let file = BundlePath::new(PLUGFORGE_CONFIG)?;
    let config = read.config.clone()?;
    check_name(&config.name, &file)?;
    Ok(Metadata {
        config,
        extra: Map::new(),
        paths: ComponentPaths::default(),
        skip: vec![file.to_string()],
        file,
        source_is_claude: false,
    })
}

fn check_name(name: &str, file: &BundlePath) -> Result<()> {
    if is_kebab(name) {
        Ok(())
    } else {
        Err(Error::at(
            ErrorCode::InvalidSource,
            Location::file(file.as_str()),
            format!(
                "plugin name {name:?} must be lowercase kebab-case (a-z, 0-9, single dashes), at most 64 chars"
            ),
        ))
    }
}

/// A namespace is checked wherever it comes from (the host's option, the
/// plugin's own `plugforge.json`) before anything is rendered with it.
fn check_namespace(namespace: &str, at: Location) -> Result<()> {
    if crate::source::is_namespace(namespace) {
        return Ok(());
    }
    Err(Error::at(ErrorCode::InvalidSource, at, crate::source::namespace_problem(namespace)))
}

/// Sorts rendered files into components, collecting every problem found.
struct Sorter<'r> {
    paths: ComponentPaths,
    /// The source as a reader read it: the documents it already parsed.
    read: Option<&'r ReadSource>,
    source_is_claude: bool,
    problems: Problems,
    diagnostics: Vec<Diagnostic>,
    skill_files: BTreeMap<String, Vec<(BundlePath, RenderedFile)>>,
    commands: Vec<MarkdownComponent>,
    agents: Vec<MarkdownComponent>,
    output_styles: Vec<FileComponent>,
    hooks: Vec<(BundlePath, RenderedFile)>,
    mcp: Vec<(BundlePath, RenderedFile)>,
    settings: Option<JsonComponent>,
    apps: Option<JsonComponent>,
    bin: Vec<FileComponent>,
    context: Option<FileComponent>,
    claude_md: Option<FileComponent>,
    readme: Option<FileComponent>,
    support: Vec<FileComponent>,
}

impl<'r> Sorter<'r> {
    fn new(paths: ComponentPaths, source_is_claude: bool, read: Option<&'r ReadSource>) -> Self {
        Sorter {
            paths,
            read,
            source_is_claude,
            problems: Problems::default(),
            diagnostics: Vec::new(),
            skill_files: BTreeMap::new(),
            commands: Vec::new(),
            agents: Vec::new(),
            output_styles: Vec::new(),
            hooks: Vec::new(),
            mcp: Vec::new(),
            settings: None,
            apps: None,
            bin: Vec::new(),
            context: None,
            claude_md: None,
            readme: None,
            support: Vec::new(),
        }
    }

    fn sort(&mut self, rendered: RenderedTree) -> Result<()> {
        for (path, file) in rendered {
            self.place(path, file);
        }
        Ok(())
    }

    fn place(&mut self, path: BundlePath, file: RenderedFile) {
        let p = path.as_str();
        if p == HOOKS_FILE || self.paths.hook_files.contains(&path) {
            return self.hooks.push((path, file));
        }
        if p == MCP_FILE || self.paths.mcp_files.contains(&path) {
            return self.mcp.push((path, file));
        }
        if let Some(skill) = self.skill_of(&path) {
            return self.skill_files.entry(skill).or_default().push((path, file));
        }
        if p.strip_prefix(CLAUDE_MANIFEST_DIR).is_some_and(|rest| rest.starts_with('/')) {
            let message = format!("{p} is ignored: every runtime's manifest is generated");
            return self.diagnostics.push(Diagnostic::warning(
                DiagnosticCode::IgnoredFile,
                Some(Location::file(p)),
                message,
            ));
        }
        if let Some(rel) = component_rel(&path, self.paths.commands.as_deref(), "commands") {
            if p.ends_with(".md") {
                return self.markdown(path, rel, file, Kind::Command);
            }
        }
        if let Some(rel) = component_rel(&path, self.paths.agents.as_deref(), "agents") {
            if p.ends_with(".md") {
                return self.markdown(path, rel, file, Kind::Agent);
            }
        }
        if let Some(rel) = component_rel(&path, self.paths.output_styles.as_deref(), "output-styles") {
            let target = BundlePath::new(format!("output-styles/{rel}")).expect("valid parts");
            return self.output_styles.push(FileComponent { path: target, file });
        }
        let redirected = [
            ("commands", self.paths.commands.is_some()),
            ("agents", self.paths.agents.is_some()),
            ("output-styles", self.paths.output_styles.is_some()),
        ];
        if let Some((dir, _)) =
            redirected.iter().find(|(dir, custom)| *custom && path.strip_prefix(dir).is_some())
        {
            let message = format!(
                "{p} is ignored: the manifest sets \"{dir}\" paths, so Claude Code does not load {dir}/ either"
            );
            return self.diagnostics.push(Diagnostic::warning(
                DiagnosticCode::IgnoredFile,
                Some(Location::file(p)),
                message,
            ));
        }
        match p {
            "settings.json" => self.settings = self.json_component(&path, &file),
            APPS_FILE => self.apps = self.json_component(&path, &file),
            "AGENTS.md" => self.context = Some(FileComponent { path, file }),
            "CLAUDE.md" => self.claude_md = Some(FileComponent { path, file }),
            "README.md" => self.readme = Some(FileComponent { path, file }),
            _ if p.starts_with("bin/") => self.bin.push(FileComponent { path, file }),
            _ if path.file_name().starts_with(".plugforge-manifest") => {
                let message = format!("{p} is ignored: generation manifests are never copied");
                self.diagnostics.push(Diagnostic::warning(
                    DiagnosticCode::IgnoredFile,
                    Some(Location::file(p)),
                    message,
                ));
            }
            _ => self.support.push(FileComponent { path, file }),
        }
    }

    /// `skills/<name>/...` (or below a manifest skills root) -> `<name>`.
    fn skill_of(&mut self, path: &BundlePath) -> Option<String> {
        let default_root = BundlePath::new("skills").expect("valid");
        for root in std::iter::once(&default_root).chain(self.paths.skills.iter()) {
            if let Some(rel) = path.strip_prefix(root.as_str()) {
                return match rel.as_str().split_once('/') {
                    Some((name, _)) => Some(format!("{root}\u{0}{name}")),
                    None => {
                        let message = format!("{path} is ignored: a skill lives in {root}/<name>/SKILL.md");
                        let location = Some(Location::file(path.as_str()));
                        self.diagnostics.push(Diagnostic::warning(
                            DiagnosticCode::IgnoredFile,
                            location,
                            message,
                        ));
                        Some(String::new())
                    }
                };
            }
        }
        None
    }

    fn markdown(&mut self, path: BundlePath, rel: String, file: RenderedFile, kind: Kind) {
        let Some(text) = file.text() else {
            return self.problems.push(Location::file(file.origin.as_str()), "not UTF-8 text");
        };
        let document = match self.document(&path, text) {
            Ok(document) => document,
            Err(e) => return self.problems.absorb(e),
        };
        let (document, file) = self.with_quoted_frontmatter(document, file);
        let (document, file) = match self.with_derived_description(&path, document, file) {
            Ok(described) => described,
            Err(e) => return self.problems.absorb(e),
        };
        let file = canonical_markdown(file);
        let stem = rel.strip_suffix(".md").unwrap_or(&rel).to_string();
        let (name, dir) = match kind {
            Kind::Command => (stem.replace('/', ":"), "commands"),
            Kind::Agent => (document.str_field("name").map(str::to_string).unwrap_or(stem.clone()), "agents"),
        };
        if kind == Kind::Agent && name != stem.rsplit('/').next().unwrap_or(&stem) {
            let message =
                format!("agent name {name:?} differs from its file name; some runtimes drop such agents");
            self.diagnostics.push(Diagnostic::warning(
                DiagnosticCode::AgentNameMismatch,
                Some(Location::file(path.as_str())),
                message,
            ));
        }
        let target = BundlePath::new(format!("{dir}/{rel}")).expect("valid parts");
        let component = MarkdownComponent { name, document, file: FileComponent { path: target, file } };
        match kind {
            Kind::Command => self.commands.push(component),
            Kind::Agent => self.agents.push(component),
        }
    }

    /// A command or agent with no `description` gets one from its first
    /// heading or paragraph, which is what a reader of the file sees first;
    /// every runtime lists it by its description, and Claude Code's strict
    /// validation refuses it without one. The change is a warning: the
    /// author can write their own.
    /// A file whose frontmatter reads only once quoted (as Claude Code reads
    /// it) or re-indented (as PyYAML, js-yaml 4 and Claude Code read a
    /// multi-line list closed at its key's column) is warned about at its
    /// line and carried in the form it reads as, so no bundle holds YAML a
    /// strict reader refuses.
    fn with_quoted_frontmatter(
        &mut self,
        mut document: Document,
        file: RenderedFile,
    ) -> (Document, RenderedFile) {
        let Some(quoted) = document.quoted.take() else { return (document, file) };
        let origin = file.origin.as_str();
        let location = match quoted.line() {
            Some(line) => Location::at(origin, line, 1),
            None => Location::file(origin),
        };
        let (change, fix) = quoted.change_and_fix();
        let message = format!(
            "{}; read the same way, and written {change} into every bundle: {fix} so every YAML reader agrees",
            quoted.message()
        );
        self.diagnostics.push(Diagnostic::warning(
            DiagnosticCode::FrontmatterQuoted,
            Some(location),
            message,
        ));
        (document, RenderedFile { bytes: quoted.text.into_bytes().into(), ..file })
    }

    fn with_derived_description(
        &mut self,
        path: &BundlePath,
        document: Document,
        file: RenderedFile,
    ) -> Result<(Document, RenderedFile)> {
        let has = document.str_field("description").is_some_and(|d| !d.trim().is_empty());
        if has {
            return Ok((document, file));
        }
        let location = Some(Location::file(file.origin.as_str()));
        if document.frontmatter.is_none() && unopened_frontmatter(&document.body) {
            let message = format!(
                "{path} starts with `key: value` lines closed by `---` but no opening `---`: \
                 add the opening `---` line so runtimes read its frontmatter"
            );
            self.diagnostics.push(Diagnostic::warning(
                DiagnosticCode::FrontmatterUnopened,
                location,
                message,
            ));
            return Ok((document, file));
        }
        let Some(description) = summary(&document.body, true) else {
            let message = format!("{path} has no frontmatter description and no text to take one from");
            self.diagnostics.push(Diagnostic::warning(DiagnosticCode::MissingDescription, location, message));
            return Ok((document, file));
        };
        let text = file.text().expect("read as text above");
        let line = format!("description: {}\n", yaml::scalar_text(&description));
        let described = match document.frontmatter {
            None => format!("---\n{line}---\n{text}"),
            Some(_) => {
                let rest = text.strip_prefix("\u{feff}").unwrap_or(text);
                let after_open = rest.find('\n').map_or(rest.len(), |i| i + 1);
                format!("{}{line}{}", &rest[..after_open], &rest[after_open..])
            }
        };
        let message = format!(
            "{path} has no description; the bundles describe it as {description:?}, from its first lines \
             (add `description:` to its frontmatter to choose it)"
        );
        self.diagnostics.push(Diagnostic::warning(DiagnosticCode::DescriptionDerived, location, message));
        let document = parse_document(path.as_str(), &described)?;
        Ok((document, RenderedFile { bytes: described.into_bytes().into(), ..file }))
    }

    /// The document at `path`: the one the reader wrote, else `text` parsed.
    fn document(&self, path: &BundlePath, text: &str) -> Result<Document> {
        match self.read.and_then(|read| read.documents.get(path)) {
            Some(document) => Ok(document.clone()),
            None => parse_document(path.as_str(), text),
        }
    }

    /// The JSON file at `path`: the value the reader wrote, else its bytes parsed.
    fn json(&self, path: &BundlePath, bytes: &[u8]) -> Result<Value> {
        match self.read.and_then(|read| read.json.get(path)) {
            Some(value) => Ok(value.clone()),
            None => parse_json(path.as_str(), bytes),
        }
    }

    fn json_component(&mut self, path: &BundlePath, file: &RenderedFile) -> Option<JsonComponent> {
        match self.json(path, &file.bytes) {
            Ok(value) if value.is_object() => {
                Some(JsonComponent { value: canonical_json(value), origin: file.origin.clone() })
            }
            Ok(_) => {
                self.problems.push(Location::file(path.as_str()), "must be a JSON object");
                None
            }
            Err(e) => {
                self.problems.absorb(e);
                None
            }
        }
    }

    fn finish(
        mut self,
        config: Config,
        namespace: String,
        metadata_file: BundlePath,
        claude_extra: Map<String, Value>,
    ) -> Result<(Plugin, Vec<Diagnostic>)> {
        let skills = self.build_skills();
        let hooks = self.build_hooks();
        let mcp = self.build_mcp();
        self.check_duplicates(&skills);
        let context = self.context.take().or_else(|| self.claude_md.take().filter(|_| self.source_is_claude));
        if let Some(claude_md) = self.claude_md.take() {
            self.support.push(claude_md);
        }
        self.problems.finish(ErrorCode::InvalidSource)?;
        self.commands.sort_by(|a, b| a.name.cmp(&b.name));
        self.agents.sort_by(|a, b| a.name.cmp(&b.name));
        let plugin = Plugin {
            config,
            namespace,
            metadata_file,
            claude_extra,
            skills,
            commands: self.commands,
            agents: self.agents,
            output_styles: self.output_styles,
            hooks,
            mcp,
            settings: self.settings,
            apps: self.apps,
            bin: self.bin,
            context,
            readme: self.readme,
            support: self.support,
            copied_hashes: Default::default(),
        };
        Ok((plugin, self.diagnostics))
    }

    fn build_skills(&mut self) -> Vec<Skill> {
        let mut skills = Vec::new();
        for (key, files) in std::mem::take(&mut self.skill_files) {
            let Some((root, name)) = key.split_once('\u{0}') else { continue };
            let dir = format!("{root}/{name}");
            let Some(main_index) = files.iter().position(|(p, _)| p.as_str() == format!("{dir}/SKILL.md"))
            else {
                // A SKILL.md a level (or more) further down is the skill the
                // author meant: the problem names it.
                let nested = files
                    .iter()
                    .map(|(p, _)| p.as_str())
                    .filter(|p| p.ends_with("/SKILL.md"))
                    .min_by_key(|p| p.matches('/').count());
                match nested {
                    Some(nested) => self.problems.push(
                        Location::file(nested),
                        format!(
                            "{nested} is nested too deep: a skill is {root}/<name>/SKILL.md, so move it up to \
                             {root}/{}/SKILL.md",
                            nested.trim_end_matches("/SKILL.md").rsplit('/').next().unwrap_or(name)
                        ),
                    ),
                    None => self
                        .problems
                        .push(Location::file(dir.as_str()), format!("skill folder {dir} has no SKILL.md")),
                }
                continue;
            };
            let mut main = None;
            let mut rest = Vec::new();
            for (index, (path, file)) in files.into_iter().enumerate() {
                let rel = path.strip_prefix(&dir).expect("grouped by dir");
                let target = BundlePath::new(format!("skills/{name}/{rel}")).expect("valid parts");
                if index == main_index {
                    let read = file.bytes.clone();
                    let file = canonical_markdown(file);
                    // The reader's document is this file's only when its text stays as read.
                    let as_read = std::sync::Arc::ptr_eq(&read, &file.bytes);
                    main = Some((path, as_read, FileComponent { path: target, file }));
                } else {
                    rest.push(FileComponent { path: target, file });
                }
            }
            let (source_path, as_read, main) = main.expect("index found above");
            let Some(text) = main.file.text() else {
                self.problems.push(Location::file(main.file.origin.as_str()), "SKILL.md is not UTF-8 text");
                continue;
            };
            let document = if as_read {
                self.document(&source_path, text)
            } else {
                parse_document(source_path.as_str(), text)
            };
            let document = match document {
                Ok(document) => document,
                Err(e) => {
                    self.problems.absorb(e);
                    continue;
                }
            };
            let (document, file) = self.with_quoted_frontmatter(document, main.file);
            let main = FileComponent { file, ..main };
            self.check_skill(name, &source_path, &document);
            skills.push(Skill { name: name.to_string(), document, main, files: rest });
        }
        skills
    }

    fn check_skill(&mut self, name: &str, path: &BundlePath, document: &crate::source::Document) {
        let location = Some(Location::file(path.as_str()));
        if document.frontmatter.is_none() {
            let message = format!("{path} has no frontmatter; add name and description");
            return self.diagnostics.push(Diagnostic::warning(
                DiagnosticCode::MissingFrontmatter,
                location,
                message,
            ));
        }
        match document.str_field("description") {
            None | Some("") => {
                let message = format!("{path} has no description; most runtimes drop such a skill");
                self.diagnostics.push(Diagnostic::warning(
                    DiagnosticCode::MissingDescription,
                    location.clone(),
                    message,
                ));
            }
            Some(description) if description.chars().count() > 1024 => {
                let message = format!(
                    "{path}: description is over 1024 characters; the runtimes that refuse such a skill get it \
                     shortened (their skill rows say where)"
                );
                self.diagnostics.push(Diagnostic::warning(
                    DiagnosticCode::DescriptionTooLong,
                    location.clone(),
                    message,
                ));
            }
            _ => {}
        }
        if let Some(declared) = document.str_field("name").filter(|declared| *declared != name) {
            let message =
                format!("skill name {declared:?} differs from its folder {name:?}; the folder name is used");
            self.diagnostics.push(Diagnostic::warning(DiagnosticCode::SkillNameMismatch, location, message));
        }
    }

    fn build_hooks(&mut self) -> Option<JsonComponent> {
        let files = std::mem::take(&mut self.hooks);
        let mut merged: Map<String, Value> = Map::new();
        let mut description = None;
        let mut origin = None;
        let inline = std::mem::take(&mut self.paths.inline_hooks);
        let parsed: Vec<_> = files
            .into_iter()
            .map(|(path, file)| {
                let text = String::from_utf8_lossy(&file.bytes).into_owned();
                (path.to_string(), self.json(&path, &file.bytes), text, Some(file.origin))
            })
            .collect();
        let inline =
            inline.into_iter().map(|v| (CLAUDE_MANIFEST_PATH.to_string(), Ok(v), String::new(), None));
        for (file, value, text, file_origin) in parsed.into_iter().chain(inline) {
            let value = match value {
                Ok(value) => value,
                Err(e) => {
                    self.problems.absorb(e);
                    continue;
                }
            };
            origin = origin.or(file_origin);
            match check_hooks(&file, &text, &value) {
                Ok(()) => {}
                Err(e) => {
                    self.problems.absorb(e);
                    continue;
                }
            }
            if description.is_none() {
                description = value.get("description").cloned();
            }
            let events = value.get("hooks").and_then(Value::as_object).cloned().unwrap_or_default();
            for (event, groups) in events {
                let slot = merged.entry(event).or_insert_with(|| Value::Array(Vec::new()));
                if let (Value::Array(into), Value::Array(from)) = (slot, groups) {
                    into.extend(from);
                }
            }
        }
        let origin = origin.unwrap_or_else(|| BundlePath::new(CLAUDE_MANIFEST_PATH).expect("valid"));
        if merged.is_empty() && description.is_none() && !self.source_has_hooks(&origin) {
            return None;
        }
        let mut value = Map::new();
        if let Some(description) = description {
            value.insert("description".into(), description);
        }
        value.insert("hooks".into(), Value::Object(merged));
        Some(JsonComponent { value: canonical_json(Value::Object(value)), origin })
    }

    fn source_has_hooks(&self, origin: &BundlePath) -> bool {
        origin.as_str() != CLAUDE_MANIFEST_PATH
    }

    fn build_mcp(&mut self) -> Option<McpServers> {
        let files = std::mem::take(&mut self.mcp);
        let inline = std::mem::take(&mut self.paths.inline_mcp);
        if files.is_empty() && inline.is_empty() {
            return None;
        }
        let mut servers = Map::new();
        let mut origin = None;
        for (path, file) in files {
            origin = origin.or(Some(file.origin.clone()));
            let text = String::from_utf8_lossy(&file.bytes).into_owned();
            match self.json(&path, &file.bytes).and_then(|v| mcp_servers(path.as_str(), &text, v)) {
                Ok(found) => servers.extend(found),
                Err(e) => self.problems.absorb(e),
            }
        }
        for map in inline {
            match mcp_servers(CLAUDE_MANIFEST_PATH, "", Value::Object(map)) {
                Ok(found) => servers.extend(found),
                Err(e) => self.problems.absorb(e),
            }
        }
        let origin = origin.unwrap_or_else(|| BundlePath::new(CLAUDE_MANIFEST_PATH).expect("valid"));
        let servers = match canonical_json(Value::Object(servers)) {
            Value::Object(map) => map,
            _ => unreachable!("an object stays an object"),
        };
        Some(McpServers { servers, origin })
    }

    /// Names must be unique per kind. A command and a skill may share a
    /// name, as Claude Code allows; a runtime that turns commands into
    /// skills refuses that pair itself, for its own bundle only.
    fn check_duplicates(&mut self, skills: &[Skill]) {
        let mut seen: BTreeMap<(&str, String), String> = BTreeMap::new();
        let entries = skills
            .iter()
            .map(|s| ("skill", s.name.clone(), s.main.file.origin.to_string()))
            .chain(self.commands.iter().map(|c| ("command", c.name.clone(), c.file.file.origin.to_string())))
            .chain(self.agents.iter().map(|a| ("agent", a.name.clone(), a.file.file.origin.to_string())));
        let mut duplicates = Vec::new();
        for (kind, name, origin) in entries {
            if let Some(first) = seen.get(&(kind, name.clone())) {
                duplicates.push((origin, format!("duplicate name {name:?}: {first} already defines it")));
            } else {
                seen.insert((kind, name), origin);
            }
        }
        let mut seen_files = BTreeSet::new();
        for component in self.commands.iter().chain(&self.agents) {
            if !seen_files.insert(component.file.path.clone()) {
                let origin = component.file.file.origin.to_string();
                duplicates.push((origin, format!("two sources map to {}", component.file.path)));
            }
        }
        for (origin, message) in duplicates {
            self.problems.push(Location::file(origin), message);
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Command,
    Agent,
}

/// The path below a component root: manifest-given files/folders or the default folder.
fn component_rel(path: &BundlePath, custom: Option<&[BundlePath]>, default: &str) -> Option<String> {
    match custom {
        None => path.strip_prefix(default).map(|rel| rel.to_string()),
        Some(entries) => entries.iter().find_map(|entry| {
            if entry == path {
                Some(path.file_name().to_string())
            } else {
                path.strip_prefix(entry.as_str()).map(|rel| rel.to_string())
            }
        }),
    }
}

/// A command, agent or SKILL.md as the runtimes' writers read it: variable
/// spellings canonical, no BOM, LF line endings. Unchanged files keep
/// sharing their bytes.
fn canonical_markdown(file: RenderedFile) -> RenderedFile {
    let Some(text) = file.text() else { return file };
    let plain = crate::text::normalised(text);
    match canonical_text(&plain) {
        Some(text) => RenderedFile { bytes: text.into_bytes().into(), ..file },
        None if crate::text::is_normalised(text) => file,
        None => RenderedFile { bytes: plain.into_owned().into_bytes().into(), ..file },
    }
}

fn check_hooks(file: &str, text: &str, value: &Value) -> Result<()> {
    let at = |key: &str, message: String| {
        let line = line_of_key(text, key).unwrap_or(1);
        Error::at(ErrorCode::InvalidSource, Location::at(file, line, 1), message)
    };
    let Some(object) = value.as_object() else {
        return Err(at("", "hooks config must be a JSON object".into()));
    };
    let Some(events) = object.get("hooks").and_then(Value::as_object) else {
        return Err(at("hooks", "hooks config needs a \"hooks\" object of event -> matcher groups".into()));
    };
    for (event, groups) in events {
        if !HOOK_EVENTS.contains(&event.as_str()) {
            return Err(at(
                event,
                format!("unknown hook event {event:?}; known events: {}", HOOK_EVENTS.join(", ")),
            ));
        }
        let Some(groups) = groups.as_array() else {
            return Err(at(event, format!("hooks.{event} must be an array of matcher groups")));
        };
        for group in groups {
            let handlers = group.get("hooks").and_then(Value::as_array);
            let valid =
                handlers.is_some_and(|hs| hs.iter().all(|h| h.get("type").is_some_and(Value::is_string)));
            if !valid {
                return Err(at(
                    event,
                    format!("hooks.{event}: each group needs \"hooks\": [{{\"type\": ...}}]"),
                ));
            }
            // A command hook with nothing to run would be written into every
            // bundle, where each runtime fails or skips it.
            let empty_command = handlers.into_iter().flatten().any(|h| {
                h.get("type").and_then(Value::as_str) == Some("command")
                    && h.get("command").and_then(Value::as_str).is_none_or(|c| c.trim().is_empty())
            });
            if empty_command {
                return Err(at(
                    event,
                    format!("hooks.{event}: a hook of type \"command\" needs a \"command\" to run"),
                ));
            }
        }
    }
    Ok(())
}

/// `{"mcpServers": {...}}` or the flat `{name: server}` form -> servers.
fn mcp_servers(file: &str, text: &str, value: Value) -> Result<Map<String, Value>> {
    let at = |key: &str, message: String| {
        let line = line_of_key(text, key).unwrap_or(1);
        Error::at(ErrorCode::InvalidSource, Location::at(file, line, 1), message)
    };
    let Value::Object(mut object) = value else {
        return Err(at("", "MCP config must be a JSON object".into()));
    };
    let servers = match object.remove("mcpServers") {
        Some(Value::Object(servers)) => servers,
        Some(_) => return Err(at("mcpServers", "\"mcpServers\" must be an object of name -> server".into())),
        None => object,
    };
    for (name, server) in &servers {
        let ok = server.as_object().is_some_and(|s| {
            s.get("command").is_some_and(Value::is_string) || s.get("url").is_some_and(Value::is_string)
        });
        if !ok {
            return Err(at(
                name,
                format!("MCP server {name:?} needs a \"command\" (stdio) or a \"url\" string"),
            ));
        }
    }
    Ok(servers)
}

/// A body that opens with `key: value` lines and a `---` line: frontmatter
/// whose opening `---` is missing, not text to take a description from.
fn unopened_frontmatter(body: &str) -> bool {
    let mut lines = body.lines().map(str::trim).skip_while(|l| l.is_empty());
    let Some(first) = lines.next() else { return false };
    let looks_like_key = |line: &str| {
        line.split_once(':')
            .is_some_and(|(key, _)| !key.is_empty() && !key.contains(' ') && !key.starts_with('#'))
    };
    looks_like_key(first) && lines.take(40).any(|line| line == "---")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_one(files: &[(&str, &str)]) -> (Plugin, Vec<Diagnostic>) {
        let mut tree = SourceTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        let vars = BTreeMap::new();
        load_plugin(
            Source::Written(&tree),
            &LoadOptions { vars: &vars, namespace: None, builtins: Vec::new() },
        )
        .unwrap()
    }

    const CONFIG: (&str, &str) = ("plugforge.json", r#"{"name": "kit", "version": "1.0.0"}"#);

    #[test]
    fn a_command_without_a_description_is_described_by_its_first_heading_or_paragraph() {
        let (plugin, diagnostics) = build_one(&[
            CONFIG,
            ("commands/sweep.md", "# Sweep **the** repo\n\nRemove files.\n"),
            ("commands/plain.md", "\nRemove stray\nfiles from $ARGUMENTS.\n\nMore.\n"),
            ("agents/scout.md", "---\nname: scout\n---\nScouts `ahead`.\n"),
        ]);
        let text = |c: &MarkdownComponent| c.file.file.text().unwrap().to_string();
        assert_eq!(
            text(&plugin.commands[1]),
            "---\ndescription: Sweep the repo\n---\n# Sweep **the** repo\n\nRemove files.\n"
        );
        assert_eq!(
            plugin.commands[0].document.str_field("description"),
            Some("Remove stray files from $ARGUMENTS.")
        );
        assert_eq!(
            text(&plugin.agents[0]),
            "---\ndescription: Scouts ahead.\nname: scout\n---\nScouts `ahead`.\n"
        );
        assert_eq!(diagnostics.iter().filter(|d| d.code == "description_derived").count(), 3);
    }

    #[test]
    fn frontmatter_without_its_opening_line_is_kept_as_written_and_reported() {
        let text = "name: broken\ndescription: no opening line\n---\n\nBody.\n";
        let (plugin, diagnostics) = build_one(&[CONFIG, ("commands/broken.md", text)]);
        assert_eq!(plugin.commands[0].file.file.text(), Some(text));
        assert!(diagnostics.iter().any(|d| d.code == "frontmatter_unopened"), "{diagnostics:?}");
    }

    #[test]
    fn a_body_with_no_text_gets_no_description() {
        let (plugin, diagnostics) = build_one(&[CONFIG, ("commands/empty.md", "```\ncode only\n```\n")]);
        assert_eq!(plugin.commands[0].document.str_field("description"), None);
        assert!(diagnostics.iter().any(|d| d.code == "missing_description"), "{diagnostics:?}");
    }
}
