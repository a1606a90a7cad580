// This test reads the runtimes' facts files and writes the generated pages.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! `docs/runtimes/<id>.md` for every runtime, and each runtime folder's
//! `pinned-clients.txt` (the clients it brings, which `scripts/install-clients`
//! installs), generated from the runtimes' specs (`core/src/runtime/<folder>/`): what the registry and the
//! spec say, the honesty levels its writer reports over the reference
//! sources, each fact of its `facts.rs` with the source it was verified
//! against, and the folder's `evidence.md` where it has one. A stale or
//! missing file fails; `UPDATE_EXPECT=1` rewrites them. The book lists the
//! pages through its preprocessor (`scripts/mdbook-runtime-pages`), which is
//! run here on the book's real contents.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use plugforge_conformance::honesty::{COMPONENTS, symbol, worst_levels};
use plugforge_conformance::registry_folders as folders;
use plugforge_core::{HookEvents, HookShape, Judge, Layout, Runtime, Spec, rules};

fn repo() -> PathBuf {
    plugforge_conformance::repo_dir()
}

fn update() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1")
}

/// One fact of a `facts.rs`: its name, its value as written, its doc.
struct Fact {
    name: String,
    value: String,
    doc: String,
}

/// The module doc and the public constants of a `facts.rs`, test code left out.
fn facts(text: &str) -> (String, Vec<Fact>) {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let module: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("//!")).map(str::trim).collect();
    let mut out = Vec::new();
    let mut doc: Vec<&str> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if let Some(d) = line.strip_prefix("///") {
            doc.push(d.trim());
        } else if let Some(rest) = line.strip_prefix("pub const ") {
            let mut statement = rest.to_string();
            while !statement.trim_end().ends_with(';') && i + 1 < lines.len() {
                i += 1;
                statement.push(' ');
                statement.push_str(lines[i].trim());
            }
            let (name, value) = statement.split_once('=').unwrap_or((&statement, ""));
            let name = name.split(':').next().unwrap_or(name).trim().to_string();
            let value = value.trim().trim_end_matches(';').split_whitespace().collect::<Vec<_>>().join(" ");
            out.push(Fact { name, value, doc: doc.join(" ") });
            doc.clear();
        } else if !line.starts_with("#[") {
            doc.clear();
        }
        i += 1;
    }
    (module.join(" ").trim().to_string(), out)
}

fn code(text: &str) -> String {
    format!("`{}`", text.replace('`', "'"))
}

/// Text for a table cell: pipes escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// Prose for a table cell: also `<` outside code spans, so a `<name>` is not read as HTML.
fn prose(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in cell(text).split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        out.push_str(&if i % 2 == 0 { part.replace('<', "&lt;") } else { part.to_string() });
    }
    out
}

fn yes(flag: bool) -> &'static str {
    if flag { "yes" } else { "no" }
}

fn list(items: &[&str]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.iter().map(|i| code(i)).collect::<Vec<_>>().join(", ")
    }
}

/// Headings one level down (the evidence sits below the page's title).
fn demoted(markdown: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            out.push('#');
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn page(runtime: Runtime, folder: &str) -> String {
    let spec: &Spec = runtime.spec();
    let dir = repo().join("core/src/runtime").join(folder);
    let facts_text = std::fs::read_to_string(dir.join("facts.rs")).unwrap_or_default();
    let (summary, mut facts) = facts(&facts_text);
    // Facts the runtime shares with the canonical vocabulary are defined
    // there and re-exported (`pub use crate::canonical::{A as B, ...}`).
    if let Some(list) =
        facts_text.split("pub use crate::canonical::{").nth(1).and_then(|rest| rest.split('}').next())
    {
        let canonical = std::fs::read_to_string(repo().join("core/src/canonical.rs")).expect("canonical.rs");
        let (_, shared) = self::facts(&canonical);
        let mut reexported: Vec<Fact> = Vec::new();
        for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (original, alias) = item.split_once(" as ").unwrap_or((item, item));
            let fact =
                shared.iter().find(|f| f.name == original.trim()).expect("a re-exported canonical fact");
            reexported.push(Fact {
                name: alias.trim().to_string(),
                value: fact.value.clone(),
                doc: fact.doc.clone(),
            });
        }
        reexported.append(&mut facts);
        facts = reexported;
    }
    let mut p = format!(
        "<!-- Generated from core/src/runtime/{folder}/ by tests/tests/runtime_pages.rs: edit the runtime's \
         folder, then run scripts/check-generated --update rust. -->\n\n# {} (`{}`)\n\n",
        spec.name,
        runtime.id()
    );
    if !summary.is_empty() {
        p.push_str(&format!("{summary}\n\n"));
    }
    p.push_str(&format!(
        "`--target all` builds it: {}. `--target {}` builds its default kind.\n\n",
        yes(spec.in_target_all),
        runtime.id()
    ));

    p.push_str("## Artifact kinds\n\n| kind | written to | scopes | marketplace | shared files |\n|---|---|---|---|---|\n");
    for (i, kind) in spec.kinds.iter().enumerate() {
        let place = match kind.layout {
            Layout::Folder => "its own folder below the output root".to_string(),
            Layout::InPlace { state_dir } => {
                format!("the project (or home) folder; manifest in {}", code(state_dir))
            }
        };
        let scopes: Vec<&str> = kind.scopes.iter().map(|s| s.as_str()).collect();
        p.push_str(&format!(
            "| `{}`{} | {place} | {} | {} | {} |\n",
            kind.name,
            if i == 0 { " (default)" } else { "" },
            scopes.join(", "),
            kind.marketplace.map_or("none".into(), code),
            list(kind.shared)
        ));
    }

    p.push_str(
        "\n## Components\n\nWhat its writer does with each component of the reference sources \
                (`yes` supported, `degraded` carried with a loss it reports, `no` left out with a report, \
                `n/a` nothing to carry):\n\n| kind |",
    );
    for component in COMPONENTS {
        p.push_str(&format!(" {component} |"));
    }
    p.push_str(&format!("\n|---|{}\n", "---|".repeat(COMPONENTS.len())));
    for kind in spec.kinds {
        let worst = worst_levels(runtime, kind);
        p.push_str(&format!("| `{}` |", kind.name));
        for component in COMPONENTS {
            p.push_str(&format!(" {} |", symbol(worst.get(component).copied())));
        }
        p.push('\n');
    }

    let reads = &spec.reads;
    p.push_str("\n## What it reads\n\n");
    p.push_str(&format!(
        "- Manifest: {}{}.\n",
        reads.manifest.map_or("none".into(), code),
        if reads.manifest_required { " (required: it refuses a plugin without it)" } else { "" }
    ));
    p.push_str(&format!(
        "- Marker (what makes a folder its plugin): {}.\n",
        reads.marker.map_or("none".into(), code)
    ));
    if !reads.manifest_fallbacks.is_empty() {
        p.push_str(&format!(
            "- Reads as its own, when its manifest is absent: {}.\n",
            list(reads.manifest_fallbacks)
        ));
    }
    if !reads.loads_formats.is_empty() {
        let formats: Vec<&str> = reads.loads_formats.iter().map(|f| f.id()).collect();
        p.push_str(&format!("- Loads other formats' plugins: {}.\n", list(&formats)));
    }
    if let Some(manifestless) = reads.loads_manifestless {
        p.push_str(&format!(
            "- Loads a folder with no manifest holding any of {}, as a {} plugin.\n",
            list(manifestless.markers),
            manifestless.as_format.name()
        ));
    }
    p.push_str(&format!(
        "- Manifest syntax: {}.\n",
        if reads.lenient_manifest_syntax { "JSON5 or JSONC" } else { "strict" }
    ));
    p.push_str(&format!(
        "- Skills: {}{}.\n",
        if spec.skills.follows_agent_skills_spec {
            "held to the Agent Skills specification"
        } else {
            "its own checks (frontmatter types, a `description` key)"
        },
        if spec.skills.strict_spec_keys { ", unknown frontmatter keys refused" } else { "" }
    ));
    p.push_str(&format!(
        "- Commands: {}; frontmatter {}{}.\n",
        list(spec.commands.extensions),
        if spec.commands.frontmatter_required { "expected" } else { "optional" },
        spec.commands
            .description
            .as_ref()
            .map_or(String::new(), |d| format!("; a missing description is reported ({})", d.why_needed))
    ));
    p.push_str(&format!(
        "- Agents: {}{}; frontmatter {}.\n",
        if spec.agents.recursive { "in subfolders too" } else { "directly in the agents folder" },
        spec.agents.skipped_prefix.map_or(String::new(), |c| format!(", skipping files starting with `{c}`")),
        if spec.agents.frontmatter_required { "expected" } else { "optional" }
    ));
    if let Some(trust) = &spec.hook_trust {
        p.push_str(&format!(
            "- Hooks of a {} bundle ({}) run only once trusted: {}.\n",
            code(trust.kind.as_str()),
            code(trust.hooks_file),
            trust.how
        ));
    }

    p.push_str("\n## Hooks and MCP servers\n\n");
    match &spec.hooks {
        Some(hooks) => {
            match hooks.events {
                HookEvents::Listed(events) => {
                    p.push_str(&format!("- Hook events it runs: {}.\n", list(events)))
                }
                HookEvents::CamelCase => p.push_str("- Hook events it runs: any camelCase name.\n"),
            }
            match hooks.shape {
                HookShape::Grouped { handler_types } => {
                    let types: Vec<&str> = handler_types.iter().map(|(t, _)| *t).collect();
                    p.push_str(&format!("- Entries grouped by matcher; handler types {}.\n", list(&types)));
                }
                HookShape::Flat => p.push_str("- Flat entries (`{command, matcher?}`), not grouped.\n"),
            }
            p.push_str(&format!("- Variables hook commands see expanded: {}.\n", list(hooks.expands)));
            if let Some(keys) = hooks.top_level_keys {
                p.push_str(&format!("- A hooks file may hold only {} at its top level.\n", list(keys)));
            }
        }
        None => p.push_str("- Its hooks files are not judged here.\n"),
    }
    let vars: Vec<&str> = spec.folder_vars.iter().map(|(var, _)| *var).collect();
    p.push_str(&format!("- Its spellings of the plugin and data folder variables: {}.\n", list(&vars)));
    if let Some(files) = spec.mcp.files {
        p.push_str(&format!("- MCP server files it reads: {}.\n", list(files)));
    }
    if let Some(expands) = spec.mcp.expands {
        p.push_str(&format!("- Variables it expands in MCP server fields: {}.\n", list(expands)));
    }
    if let Some(marketplace) = &spec.marketplace {
        p.push_str(&format!("- Marketplace file it reads: {}.\n", code(marketplace.file)));
    }

    p.push_str("\n## As a source\n\n");
    match &spec.read {
        Some(reader) => {
            p.push_str(&format!(
                "Its plugins build directly, and `plugforge import --from {}` writes them as a canonical source.",
                runtime.id()
            ));
            if let Some(layout) = reader.manifestless_layout {
                p.push_str(&format!(
                    " A folder with no manifest is its plugin when it holds any of {}; it is named after the folder.",
                    list(layout)
                ));
            }
            p.push('\n');
        }
        None => p.push_str("Not read as a source.\n"),
    }
    if let Some(foreign) = &spec.foreign {
        p.push_str(&format!(
            "\nBeside another format's manifest, its manifest {} fills missing metadata{}{}.\n",
            code(foreign.manifest),
            if foreign.runtime_only_fields.is_empty() {
                String::new()
            } else {
                format!(
                    ", and {} are kept for its bundle (`targets.{}.manifest`)",
                    list(foreign.runtime_only_fields),
                    runtime.id()
                )
            },
            foreign.marketplace.map_or(String::new(), |m| format!(
                "; its marketplace {} may list the folder itself",
                code(m)
            ))
        ));
    }

    p.push_str("\n## Judge\n\n");
    match &spec.judge {
        Judge::Clients(checks) => {
            for check in *checks {
                let client = check.client;
                let package = client
                    .package
                    .strip_prefix("pypi:")
                    .map_or(format!("npm `{}`", client.package), |pkg| format!("PyPI `{pkg}`"));
                let kinds: Vec<String> = check.kinds.iter().map(|k| code(k.as_str())).collect();
                p.push_str(&format!(
                    "- **{}** ({package} {}), judging the {} kind, run offline in a throwaway HOME by {} (`plugforge verify` runs it too).\n",
                    client.id,
                    client.version,
                    kinds.join(" and "),
                    code(check.driver)
                ));
                if !client.load.is_empty() {
                    p.push_str(&format!("  - Load: {}.\n", list(client.load)));
                }
                p.push_str(&format!("  - What it loaded: {}.\n", list(client.list)));
            }
        }
        Judge::Schemas { why, test, .. } => {
            p.push_str(&format!(
                "No client runs here: {why}. The bundles are checked against its schemas by {}.\n",
                code(test)
            ));
        }
        Judge::Nothing(why) => p.push_str(&format!("Nothing loads it: {why}.\n")),
    }

    let own: Vec<_> = rules().into_iter().filter(|r| spec.rules.iter().any(|o| o.code == r.code)).collect();
    if !own.is_empty() {
        p.push_str("\n## Rules of its own\n\n");
        for rule in own {
            p.push_str(&format!("- `{}`: {}\n", rule.code, rule.summary));
        }
    }

    if !facts.is_empty() {
        p.push_str(&format!(
            "\n## Facts\n\nFrom `core/src/runtime/{folder}/facts.rs`, each with where it was verified.\n\n| fact | value | verified |\n|---|---|---|\n"
        ));
        for fact in &facts {
            let value = if fact.value.chars().count() > 80 {
                format!("{}…", fact.value.chars().take(77).collect::<String>())
            } else {
                fact.value.clone()
            };
            p.push_str(&format!("| `{}` | {} | {} |\n", fact.name, cell(&code(&value)), prose(&fact.doc)));
        }
    }
    if let Ok(evidence) = std::fs::read_to_string(dir.join("evidence.md")) {
        p.push_str("\n## Evidence\n\n");
        p.push_str(&demoted(&evidence));
    }
    p
}

/// The file in a runtime's folder pinning the clients it brings.
const PINS_FILE: &str = "pinned-clients.txt";

/// Each runtime's pins: the clients its judge runs that no runtime before it
/// in registry order runs (each client is pinned once, where it first
/// appears), as `scripts/install-clients` reads them; `None` when it brings none.
fn pins() -> Vec<Option<String>> {
    let mut seen = BTreeSet::new();
    Runtime::ALL
        .iter()
        .map(|runtime| {
            let Judge::Clients(checks) = &runtime.spec().judge else { return None };
            let mut lines = String::new();
            for client in checks.iter().map(|c| c.client).filter(|c| seen.insert(c.id)) {
                lines.push_str(&format!(
                    "{}|{}@{}|{}",
                    client.id, client.package, client.version, client.binary
                ));
                let launch = client.launch.pin();
                if !client.extra_packages.is_empty() || !launch.is_empty() {
                    lines.push_str(&format!("|{}", client.extra_packages.join(" ")));
                }
                if !launch.is_empty() {
                    lines.push_str(&format!("|{launch}"));
                }
                lines.push('\n');
            }
            (!lines.is_empty()).then(|| {
                format!(
                    "# The clients that judge {} (its spec's `judge`), pinned for scripts/install-clients.\n\
                     # Generated by tests/tests/runtime_pages.rs; do not edit.\n\
                     # id|package@version|binary below the install prefix[|extra npm packages[|launch]]\n{lines}",
                    runtime.name()
                )
            })
        })
        .collect()
}

fn check(path: &Path, generated: &str, stale: &mut Vec<String>) {
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    if committed == generated {
        return;
    }
    if update() {
        std::fs::write(path, generated).expect("write a generated file");
    } else {
        stale.push(path.strip_prefix(repo()).unwrap_or(path).display().to_string());
    }
}

#[test]
fn runtime_pages_and_client_pins_are_generated_from_the_specs() {
    let folders = folders();
    assert_eq!(folders.len(), Runtime::ALL.len(), "one registry line per runtime");
    let pages = repo().join("docs/runtimes");
    let mut stale = Vec::new();
    let mut expected = BTreeSet::new();
    for (runtime, folder) in Runtime::ALL.iter().zip(&folders) {
        let path = pages.join(format!("{}.md", runtime.id()));
        expected.insert(path.clone());
        check(&path, &page(*runtime, folder), &mut stale);
    }
    for entry in std::fs::read_dir(&pages).expect("docs/runtimes") {
        let path = entry.expect("entry").path();
        assert!(expected.contains(&path), "{} names no runtime of the registry", path.display());
    }
    for (folder, pins) in folders.iter().zip(pins()) {
        let path = repo().join("core/src/runtime").join(folder).join(PINS_FILE);
        match pins {
            Some(pins) => check(&path, &pins, &mut stale),
            None if path.exists() && update() => std::fs::remove_file(&path).expect("remove stale pins"),
            None if path.exists() => {
                stale.push(format!("core/src/runtime/{folder}/{PINS_FILE} (brings no client)"))
            }
            None => {}
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing (generated from the runtime specs): {}; run scripts/check-generated --update rust",
        stale.join(", ")
    );
}

#[test]
fn facts_are_read_with_their_docs() {
    let (summary, facts) = facts(
        "//! What X reads.\n\n/// The manifest [1].\npub const MANIFEST: &str = \"m.json\";\n#[doc(hidden)]\n/// Events [2].\npub const EVENTS: [&str; 2] = [\n    \"a\",\n    \"b\",\n];\n#[cfg(test)]\n/// Test only.\npub const T: u8 = 1;\n",
    );
    assert_eq!(summary, "What X reads.");
    let rows: Vec<(&str, &str, &str)> =
        facts.iter().map(|f| (f.name.as_str(), f.value.as_str(), f.doc.as_str())).collect();
    assert_eq!(
        rows,
        [("MANIFEST", "\"m.json\"", "The manifest [1]."), ("EVENTS", "[ \"a\", \"b\", ]", "Events [2].")]
    );
}

/// The book as mdBook hands it to a preprocessor: the runtimes overview (and
/// a chapter below it written by hand), with the root the preprocessor reads
/// the registry and the pages from.
fn book_input(summary_extra: &str) -> String {
    serde_json::json!([
        {"root": repo().display().to_string(), "config": {"book": {"src": "docs"}}, "renderer": "html", "mdbook_version": "0.5.4"},
        {"items": [
            {"PartTitle": "Runtimes"},
            {"Chapter": {"name": "Runtimes and honesty", "content": "# Runtimes\n", "number": null,
                "sub_items": [{"Chapter": {"name": "Below", "content": "", "number": null, "sub_items": [],
                    "path": summary_extra, "source_path": summary_extra, "parent_names": ["Runtimes and honesty"]}}],
                "path": "runtimes.md", "source_path": "runtimes.md", "parent_names": []}}
        ]}
    ])
    .to_string()
}

/// Runs `scripts/mdbook-runtime-pages` on `input`: its exit status, stdout and stderr.
fn preprocess(input: &str) -> (bool, String, String) {
    use std::io::Write as _;
    let mut child = std::process::Command::new("python3")
        .arg(repo().join("scripts/mdbook-runtime-pages"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().expect("piped").write_all(input.as_bytes()).expect("write the book");
    let out = child.wait_with_output().expect("the preprocessor ends");
    (
        out.status.success(),
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

#[test]
fn the_book_lists_every_runtime_page_below_the_overview_in_registry_order() {
    let summary = std::fs::read_to_string(repo().join("docs/SUMMARY.md")).expect("docs/SUMMARY.md");
    assert!(summary.contains("- [Runtimes and honesty](runtimes.md)\n"), "SUMMARY.md lists the overview");
    assert!(!summary.contains("](runtimes/"), "SUMMARY.md lists no runtime page: the preprocessor adds them");
    let book_toml = std::fs::read_to_string(repo().join("book.toml")).expect("book.toml");
    assert!(
        book_toml.contains("command = \"python3 scripts/mdbook-runtime-pages\""),
        "book.toml runs the preprocessor"
    );

    let (ok, stdout, stderr) = preprocess(&book_input("guides/below.md"));
    assert!(ok, "the preprocessor failed: {stderr}");
    let book: serde_json::Value = serde_json::from_str(&stdout).expect("the book as JSON");
    let below = book["items"][1]["Chapter"]["sub_items"].as_array().expect("the overview's chapters");
    let listed: Vec<(String, String)> = below
        .iter()
        .map(|c| {
            let c = &c["Chapter"];
            (c["name"].as_str().expect("a name").to_string(), c["path"].as_str().expect("a path").to_string())
        })
        .collect();
    let mut expected: Vec<(String, String)> =
        Runtime::ALL.iter().map(|r| (r.spec().name.to_string(), format!("runtimes/{}.md", r.id()))).collect();
    expected.push(("Below".to_string(), "guides/below.md".to_string()));
    assert_eq!(listed, expected);
    for chapter in &below[..Runtime::ALL.len()] {
        let path = chapter["Chapter"]["path"].as_str().expect("a path");
        let page = std::fs::read_to_string(repo().join("docs").join(path)).expect("the page");
        assert_eq!(chapter["Chapter"]["content"], page.as_str(), "{path} is carried whole");
        assert_eq!(chapter["Chapter"]["parent_names"], serde_json::json!(["Runtimes and honesty"]));
    }

    // A page listed by hand as well would be in the book twice.
    let (ok, _, stderr) = preprocess(&book_input("runtimes/codex.md"));
    assert!(!ok, "a runtime page listed in SUMMARY.md is refused");
    assert!(stderr.contains("SUMMARY.md lists runtimes/codex.md"), "{stderr}");
}
