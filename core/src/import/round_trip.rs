//! Build, then import: for generated canonical sources and every importable
//! runtime, the imported source (loaded with the core loader) keeps each
//! component the build reported as carried. A `supported` component comes
//! back equal; a `degraded` one comes back under its name with the same
//! body (its frontmatter may have lost what the row names); an
//! `unsupported` one may be missing. Nothing the source held disappears
//! without a row saying so.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::{ImportOptions, import};
use crate::format::yaml;
use crate::model::{LoadOptions, MarkdownComponent, Plugin, Source, load_plugin};
use crate::options::{BuildOptions, TargetRequest};
use crate::report::{Honesty, Level};
use crate::runtime::Runtime;
use crate::source::SourceTree;

const CASES: u64 = 150;

/// A small xorshift64*: deterministic, no crate, good enough to vary shapes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const WORDS: [&str; 12] =
    ["deploy", "review", "lint", "tidy", "scan", "plan", "sync", "build", "probe", "audit", "trace", "fold"];
const PIECES: [&str; 14] = [
    "Run the checks.",
    "ünïcödé — naïve café",
    "日本語のテキスト",
    "emoji 🚀 and ✓",
    "Use ${PLUGIN_ROOT}/scripts/run.sh first.",
    "Cache in ${PLUGIN_DATA}/cache.",
    "a \"quoted\" word and a back\\slash",
    "  indented line",
    "\ttabbed line",
    "trailing spaces   ",
    "",
    "- a list item",
    "Use `code` here.",
    "# A heading",
];
const TOOLS: [&str; 6] = ["Read", "Grep", "Glob", "Bash", "Write", "WebFetch"];
const EVENTS: [&str; 7] =
    ["PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd", "SubagentStop", "UserPromptSubmit"];

fn body(rng: &mut Rng, arguments: bool) -> String {
    let mut lines: Vec<String> = (0..1 + rng.below(5)).map(|_| rng.pick(&PIECES).to_string()).collect();
    if arguments {
        lines.push("Target: $ARGUMENTS".into());
    }
    if rng.chance(20) {
        lines.insert(0, String::new());
    }
    let mut text = lines.join(if rng.chance(10) { "\r\n" } else { "\n" });
    if !rng.chance(15) {
        text.push('\n');
    }
    text
}

fn names(rng: &mut Rng, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for _ in 0..rng.below(max + 1) {
        let name = format!("{}-{}", rng.pick(&WORDS), rng.below(90) + 10);
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

fn sentence(rng: &mut Rng) -> String {
    format!("{} the {} — ✓ {}", rng.pick(&WORDS), rng.pick(&WORDS), rng.below(1000))
}

fn generate(seed: u64) -> SourceTree {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut files: Vec<(String, String)> = Vec::new();
    let config = json!({
        "name": format!("gen-{seed}"),
        "version": format!("1.0.{seed}"),
        "description": sentence(&mut rng),
        "allowUrls": ["https://mcp.example.com/"],
    });
    files.push(("plugforge.json".into(), serde_json::to_string_pretty(&config).expect("JSON")));
    let skill_names = names(&mut rng, 3);
    let command_names: Vec<String> =
        names(&mut rng, 3).into_iter().filter(|n| !skill_names.contains(n)).collect();
    for name in skill_names {
        let mut fm = Map::new();
        fm.insert("name".into(), json!(name));
        fm.insert("description".into(), json!(sentence(&mut rng)));
        if rng.chance(20) {
            fm.insert("when_to_use".into(), json!(sentence(&mut rng)));
        }
        if rng.chance(20) {
            fm.insert("license".into(), json!("MIT"));
        }
        files.push((format!("skills/{name}/SKILL.md"), yaml::frontmatter(&fm, &body(&mut rng, false))));
        if rng.chance(30) {
            files.push((format!("skills/{name}/references/notes.md"), body(&mut rng, false)));
        }
    }
    for name in command_names {
        let mut fm = Map::new();
        fm.insert("description".into(), json!(sentence(&mut rng)));
        if rng.chance(25) {
            fm.insert("model".into(), json!("haiku"));
        }
        let arguments = rng.chance(50);
        let folder = if rng.chance(20) { "ops/" } else { "" };
        files.push((
            format!("commands/{folder}{name}.md"),
            yaml::frontmatter(&fm, &body(&mut rng, arguments)),
        ));
    }
    for name in names(&mut rng, 2) {
        let mut fm = Map::new();
        fm.insert("name".into(), json!(name));
        fm.insert("description".into(), json!(sentence(&mut rng)));
        if rng.chance(60) {
            let mut tools: Vec<&str> = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let tool = rng.pick(&TOOLS);
                if !tools.contains(&tool) {
                    tools.push(tool);
                }
            }
            fm.insert("tools".into(), json!(tools.join(", ")));
        }
        if rng.chance(30) {
            fm.insert("model".into(), json!(rng.pick(&["sonnet", "inherit", "gemini-2.5-pro"])));
        }
        files.push((format!("agents/{name}.md"), yaml::frontmatter(&fm, &body(&mut rng, false))));
    }
    if rng.chance(60) {
        files.push(("hooks/hooks.json".into(), hooks(&mut rng).to_string()));
    }
    if rng.chance(60) {
        files.push((".mcp.json".into(), servers(&mut rng).to_string()));
    }
    if rng.chance(40) {
        files.push(("AGENTS.md".into(), body(&mut rng, false)));
    }
    let mut tree = SourceTree::new();
    for (path, text) in files {
        tree.insert(&path, text.into_bytes(), false).expect("generated paths are valid");
    }
    tree.insert("scripts/run.sh", b"#!/bin/sh\necho run\n".to_vec(), true).expect("valid");
    if rng.chance(40) {
        tree.insert("bin/gen-tool", b"#!/bin/sh\necho tool\n".to_vec(), true).expect("valid");
    }
    tree
}

fn hooks(rng: &mut Rng) -> Value {
    let mut events = Map::new();
    for _ in 0..1 + rng.below(3) {
        let event = rng.pick(&EVENTS);
        let mut group = Map::new();
        if event.contains("ToolUse") && rng.chance(50) {
            group.insert("matcher".into(), json!("Bash"));
        }
        let handlers: Vec<Value> = (0..1 + rng.below(2))
            .map(|i| {
                let command = if rng.chance(50) {
                    // Quoted, as Claude Code wants it: a bare one comes back quoted.
                    format!("\"${{PLUGIN_ROOT}}/scripts/run.sh\" {i}")
                } else {
                    format!("echo {}", rng.pick(&WORDS))
                };
                let mut handler = json!({"type": "command", "command": command});
                if rng.chance(30) {
                    handler["timeout"] = json!(1 + rng.below(30));
                }
                handler
            })
            .collect();
        group.insert("hooks".into(), Value::Array(handlers));
        events.insert(event.to_string(), json!([group]));
    }
    json!({ "hooks": events })
}

fn servers(rng: &mut Rng) -> Value {
    let mut servers = Map::new();
    for (i, name) in names(rng, 2).into_iter().enumerate() {
        let server = match rng.below(3) {
            0 => {
                json!({"command": format!("${{PLUGIN_ROOT}}/bin/srv{i}"), "args": ["--root", "${PLUGIN_ROOT}"]})
            }
            1 => {
                json!({"command": "npx", "args": ["-y", format!("@example/{name}")], "env": {"MODE": "fast"}})
            }
            _ => json!({"type": "http", "url": format!("https://mcp.example.com/{name}")}),
        };
        servers.insert(name, server);
    }
    json!({ "mcpServers": servers })
}

fn load(tree: &SourceTree, what: &str) -> Plugin {
    let vars = BTreeMap::new();
    let options = LoadOptions { vars: &vars, namespace: None, builtins: Vec::new() };
    load_plugin(Source::Written(tree), &options).unwrap_or_else(|e| panic!("{what} does not load: {e}")).0
}

fn round_trip(seed: u64, runtime: Runtime) {
    let source = generate(seed);
    let options = BuildOptions { targets: vec![TargetRequest::new(runtime.id())], ..Default::default() };
    let what = format!("seed {seed} via {}", runtime.id());
    let output = match crate::build(&source, &options) {
        // Nothing of this source is one the runtime loads: no bundle to read back.
        Err(e) if e.code == crate::error::ErrorCode::NothingToLoad => return,
        built => built.unwrap_or_else(|e| panic!("{what}: build: {e}")),
    };
    let bundle = &output.bundles[0];
    let mut native = SourceTree::new();
    for (path, file) in &bundle.files {
        native.insert(path.as_str(), file.bytes.clone(), file.executable).expect("bundle paths are valid");
    }
    let imported =
        import(&native, &ImportOptions { from: Some(runtime.id().into()), ..ImportOptions::default() })
            .unwrap_or_else(|e| panic!("{what}: import: {e}"));
    let before = load(&source, &format!("{what}: the source"));
    let after = load(&imported.source, &format!("{what}: the imported source"));
    let check = Check { what: what.clone(), rows: &bundle.honesty };
    check.metadata(&before, &after);
    check.markdown("skill", &skills(&before), &skills(&after));
    check.skill_files(&before, &after);
    check.markdown("command", &markdown(&before.commands), &markdown(&after.commands));
    check.markdown("agent", &markdown(&before.agents), &markdown(&after.agents));
    check.hooks(&before, &after);
    check.servers(&before, &after);
    check.context(&before, &after);
    check.support(&before, &after);
    check.bin(&before, &after);
    // Every runtime's bundles from both, for a fifth of the seeds (a build
    // for every runtime costs what the rest of the round trip does).
    if seed % 5 == 0 {
        same_as_imported(&what, &native, &imported.source);
    }
}

/// The native bundle built as it is (loaded as its reader read it) gives
/// exactly the bytes its imported source gives, for every runtime.
fn same_as_imported(what: &str, native: &SourceTree, imported: &SourceTree) {
    let all = BuildOptions { targets: vec![TargetRequest::new("all")], ..Default::default() };
    let files = |output: &crate::Output| -> Vec<(String, crate::Sha256Digest)> {
        let bundles = output.bundles.iter();
        bundles.flat_map(|b| b.files.iter().map(|(p, f)| (b.out_path(p).to_string(), f.sha256))).collect()
    };
    let direct = crate::build(native, &all).unwrap_or_else(|e| panic!("{what}: direct build: {e}"));
    let via = crate::build(imported, &all).unwrap_or_else(|e| panic!("{what}: build of the import: {e}"));
    assert!(files(&direct) == files(&via), "{what}: a direct build differs from import + build");
}

/// name -> (frontmatter, body)
type Components = BTreeMap<String, (Map<String, Value>, String)>;

fn skills(plugin: &Plugin) -> Components {
    plugin
        .skills
        .iter()
        .map(|s| {
            (s.name.clone(), (s.document.frontmatter.clone().unwrap_or_default(), s.document.body.clone()))
        })
        .collect()
}

fn markdown(items: &[MarkdownComponent]) -> Components {
    items
        .iter()
        .map(|c| {
            (c.name.clone(), (c.document.frontmatter.clone().unwrap_or_default(), c.document.body.clone()))
        })
        .collect()
}

fn folded(frontmatter: &Map<String, Value>) -> Map<String, Value> {
    let mut out = frontmatter.clone();
    if let Some(Value::String(when)) = out.shift_remove("when_to_use") {
        let description = out.get("description").and_then(Value::as_str).unwrap_or_default();
        out.insert("description".into(), json!(format!("{description} {when}")));
    }
    out
}

struct Check<'a> {
    what: String,
    rows: &'a [Honesty],
}

impl Check<'_> {
    fn level(&self, component: &str, name: &str) -> Level {
        let row = self.rows.iter().find(|r| r.component == component && r.name == name);
        row.unwrap_or_else(|| panic!("{}: no honesty row for {component} {name}", self.what)).level
    }

    fn metadata(&self, before: &Plugin, after: &Plugin) {
        let (b, a) = (&before.config, &after.config);
        assert_eq!(
            (&b.name, &b.version, &b.description),
            (&a.name, &a.version, &a.description),
            "{}: metadata",
            self.what
        );
    }

    fn markdown(&self, component: &str, before: &Components, after: &Components) {
        for (name, (frontmatter, body)) in before {
            let level = self.level(component, name);
            if level == Level::Unsupported {
                continue;
            }
            let Some((got_frontmatter, got_body)) = after.get(name) else {
                panic!(
                    "{}: {component} {name} ({level:?}) vanished; imported: {:?}",
                    self.what,
                    after.keys().collect::<Vec<_>>()
                );
            };
            assert_eq!(got_body, body, "{}: {component} {name} body", self.what);
            if level == Level::Supported {
                // Runtimes that choose a skill by its description alone fold
                // `when_to_use` into it, which keeps its meaning.
                let expected = if got_frontmatter.contains_key("when_to_use") {
                    frontmatter.clone()
                } else {
                    folded(frontmatter)
                };
                assert_eq!(got_frontmatter, &expected, "{}: {component} {name} frontmatter", self.what);
            } else if let Some(description) =
                frontmatter.get("description").filter(|_| !frontmatter.contains_key("when_to_use"))
            {
                assert_eq!(
                    got_frontmatter.get("description"),
                    Some(description),
                    "{}: {component} {name} description",
                    self.what
                );
            }
        }
    }

    /// Every (event, matcher, command) triple of a carried event comes back;
    /// a supported event comes back handler for handler.
    fn hooks(&self, before: &Plugin, after: &Plugin) {
        let Some(hooks) = &before.hooks else { return };
        let events = hooks.value["hooks"].as_object().cloned().unwrap_or_default();
        let got =
            after.hooks.as_ref().and_then(|h| h.value["hooks"].as_object().cloned()).unwrap_or_default();
        for (event, groups) in events {
            let level = self.level("hook", &event);
            if level == Level::Unsupported {
                continue;
            }
            let imported = got.get(&event).cloned().unwrap_or(json!([]));
            let flat = |groups: &Value, full: bool| -> Vec<Value> {
                let mut out = Vec::new();
                for group in groups.as_array().into_iter().flatten() {
                    for handler in group["hooks"].as_array().into_iter().flatten() {
                        let handler = if full { handler.clone() } else { json!(handler["command"]) };
                        out.push(json!([group.get("matcher"), handler]));
                    }
                }
                out
            };
            let full = level == Level::Supported;
            assert_eq!(flat(&imported, full), flat(&groups, full), "{}: hook {event} ({level:?})", self.what);
        }
    }

    fn servers(&self, before: &Plugin, after: &Plugin) {
        let Some(mcp) = &before.mcp else { return };
        let got = after.mcp.as_ref().map(|m| m.servers.clone()).unwrap_or_default();
        for (name, server) in &mcp.servers {
            if self.level("mcp", name) == Level::Unsupported {
                continue;
            }
            let imported =
                got.get(name).unwrap_or_else(|| panic!("{}: MCP server {name} vanished", self.what));
            assert_eq!(imported, server, "{}: MCP server {name}", self.what);
        }
    }

    /// Support files travel to every bundle and come back byte for byte.
    fn support(&self, before: &Plugin, after: &Plugin) {
        for file in &before.support {
            let got = after.support.iter().find(|f| f.path == file.path);
            let got = got.unwrap_or_else(|| panic!("{}: support file {} vanished", self.what, file.path));
            assert_eq!(got.file.bytes, file.file.bytes, "{}: {} bytes", self.what, file.path);
            assert_eq!(
                got.file.executable, file.file.executable,
                "{}: {} executable bit",
                self.what, file.path
            );
        }
    }

    /// The files beside a carried SKILL.md come back byte for byte.
    fn skill_files(&self, before: &Plugin, after: &Plugin) {
        for skill in &before.skills {
            if self.level("skill", &skill.name) == Level::Unsupported {
                continue;
            }
            let got = after.skills.iter().find(|s| s.name == skill.name).expect("checked with the skill");
            let paths = |files: &[crate::model::FileComponent]| -> Vec<(String, Vec<u8>)> {
                files.iter().map(|f| (f.path.to_string(), f.file.bytes.to_vec())).collect()
            };
            assert_eq!(
                paths(&got.files),
                paths(&skill.files),
                "{}: files of skill {}",
                self.what,
                skill.name
            );
        }
    }

    /// `bin/` executables ship with every bundle that carries them.
    fn bin(&self, before: &Plugin, after: &Plugin) {
        for file in &before.bin {
            if self.level("bin", file.path.as_str()) == Level::Unsupported {
                continue;
            }
            let got = after.bin.iter().find(|f| f.path == file.path);
            let got = got.unwrap_or_else(|| panic!("{}: {} vanished", self.what, file.path));
            assert_eq!(
                (&got.file.bytes, got.file.executable),
                (&file.file.bytes, file.file.executable),
                "{}: {}",
                self.what,
                file.path
            );
        }
    }

    fn context(&self, before: &Plugin, after: &Plugin) {
        let Some(context) = &before.context else { return };
        if self.level("context", context.path.as_str()) == Level::Unsupported {
            return;
        }
        // A runtime that wraps the context in a generated file (a Cursor
        // rule) writes it with LF line endings: the text comes back, the
        // line endings may not.
        let text = |p: &Plugin| {
            p.context.as_ref().and_then(|c| c.file.text().map(|t| crate::text::normalised(t).into_owned()))
        };
        assert_eq!(text(after), text(before), "{}: context", self.what);
    }
}

#[test]
fn generated_sources_survive_build_then_import_on_every_runtime() {
    for seed in 1..=CASES {
        for runtime in super::importable() {
            round_trip(seed, runtime);
        }
    }
}
