//! The runtimes no client judges here but whose spec carries a schema check
//! of their own (`Judge::Schemas { check: Some(..) }`, derived from the
//! runtime's source or documentation): every example under `examples/` and
//! every public plugin of the real-world corpus
//! (`tests/conformance/realworld/*/plugin`) is built for each such runtime
//! with the command line, and the check reads the output root as the
//! runtime's loader would. The build must pass it with no problem, every
//! pattern it reports must compile as a regular expression, and what it
//! says the runtime loads must be exactly what the build's honesty rows say
//! it carries (skills, commands, agents, hook events, MCP servers).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use common::{TempDir, copy_dir, repo_root, run, s};
use plugforge_core::{Component, Judge, Runtime, SchemaCheck};
use serde_json::Value;

/// The components a check's inventory is compared on.
const COMPARED: [Component; 5] =
    [Component::Skill, Component::Command, Component::Agent, Component::Hook, Component::Mcp];

fn checked_runtimes() -> Vec<(Runtime, SchemaCheck)> {
    Runtime::ALL
        .iter()
        .filter_map(|runtime| match runtime.spec().judge {
            Judge::Schemas { check: Some(check), .. } => Some((*runtime, check)),
            _ => None,
        })
        .collect()
}

/// Every file below `root`, by its path relative to it.
fn tree(root: &Path, rel: &str, out: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(root.join(rel)).expect("read the output") {
        let entry = entry.expect("entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() { name } else { format!("{rel}/{name}") };
        if entry.file_type().expect("type").is_dir() {
            tree(root, &path, out);
        } else {
            out.insert(path, std::fs::read(entry.path()).expect("read"));
        }
    }
}

/// The sources: each example, and each corpus plugin copied to a folder of
/// its upstream name (a plugin without a manifest is named after it).
fn sources(tmp: &TempDir) -> Vec<(String, PathBuf)> {
    let root = repo_root();
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root.join("examples")).expect("examples/") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.push((format!("examples/{}", path.file_name().unwrap().to_string_lossy()), path));
        }
    }
    let corpus = root.join("tests/conformance/realworld");
    let mut units: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("the real-world corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("plugin").is_dir())
        .collect();
    units.sort();
    for unit in units {
        let source: Value =
            serde_json::from_slice(&std::fs::read(unit.join("SOURCE.json")).expect("SOURCE.json"))
                .expect("JSON");
        let upstream = source["path"].as_str().unwrap_or(".").trim_end_matches('/');
        let folder = match upstream.rsplit('/').next() {
            Some(name) if !name.is_empty() && name != "." => name.to_string(),
            _ => {
                source["repo"].as_str().unwrap_or("plugin").rsplit('/').next().unwrap_or("plugin").to_string()
            }
        };
        let name = unit.file_name().unwrap().to_string_lossy().into_owned();
        let copy = tmp.join(&format!("sources/{name}/{folder}"));
        copy_dir(&unit.join("plugin"), &copy);
        out.push((format!("realworld/{name}"), copy));
    }
    out
}

/// The rows of `runtime` a build carries (not left out), by component and name.
fn carried(report: &Value, runtime: Runtime) -> BTreeSet<(String, String)> {
    let compared: Vec<String> = COMPARED.iter().map(|c| c.to_string()).collect();
    report["honesty"]
        .as_array()
        .expect("honesty rows")
        .iter()
        .filter(|row| row["runtime"] == runtime.id() && row["level"] != "unsupported")
        .filter(|row| compared.iter().any(|c| row["component"] == c.as_str()))
        .map(|row| {
            (row["component"].as_str().unwrap().to_string(), row["name"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn every_example_and_corpus_plugin_passes_each_runtime_schema_check() {
    let runtimes = checked_runtimes();
    if runtimes.is_empty() {
        return;
    }
    let tmp = TempDir::new("schema-judges");
    let sources = sources(&tmp);
    assert!(sources.len() > 10, "the examples and the corpus were not found: {sources:?}");
    let mut failures = Vec::new();
    let mut judged = 0;
    let mut skipped = Vec::new();
    for (runtime, check) in &runtimes {
        for (index, (label, source)) in sources.iter().enumerate() {
            let out = tmp.join(&format!("out/{}/{index}", runtime.id()));
            let built = run(&["build", s(source), "--target", runtime.id(), "--out", s(&out), "--json"]);
            if built.code != 0 {
                // A plugin this runtime can load nothing of (MCP servers alone,
                // for a runtime without them) is not built: nothing to check.
                if built.json()["error"]["code"] == "nothing_to_load" {
                    skipped.push(format!("{label} ({}): nothing to load", runtime.id()));
                    continue;
                }
                // A corpus unit that is no plugin as committed (its content
                // lives in a marketplace entry) fails for every runtime alike.
                let canonical =
                    run(&["build", s(source), "--target", Runtime::CANONICAL.id(), "--out", s(&out)]);
                if canonical.code != 0 {
                    skipped.push(label.clone());
                    continue;
                }
                failures.push(format!(
                    "{label}: build --target {} exited {}: {}",
                    runtime.id(),
                    built.code,
                    built.stderr
                ));
                continue;
            }
            let report = built.json();
            let bundle = report["bundles"]
                .as_array()
                .and_then(|b| b.iter().find(|b| b["runtime"] == runtime.id()))
                .unwrap_or_else(|| panic!("{label}: no {} bundle in the report", runtime.id()));
            let mut files = BTreeMap::new();
            tree(&out, "", &mut files);
            let verdict = check(&files, bundle["root"].as_str().expect("root"));
            judged += 1;
            for problem in &verdict.problems {
                failures.push(format!("{label} ({}): {problem}", runtime.id()));
            }
            for (at, pattern) in &verdict.patterns {
                if let Err(e) = regex::Regex::new(pattern) {
                    failures
                        .push(format!("{label} ({}): {at}: {pattern:?} does not compile: {e}", runtime.id()));
                }
            }
            let loaded: BTreeSet<(String, String)> =
                verdict.loaded.iter().map(|(c, n)| (c.to_string(), n.clone())).collect();
            let rows = carried(&report, *runtime);
            if loaded != rows {
                failures.push(format!(
                    "{label} ({}): the check loads {:?} but the build's rows carry {:?}",
                    runtime.id(),
                    loaded.difference(&rows).collect::<Vec<_>>(),
                    rows.difference(&loaded).collect::<Vec<_>>()
                ));
            }
        }
    }
    eprintln!(
        "schema judges: {judged} bundles judged, {} problems; not built (not plugins as committed, or nothing to load): {skipped:?}",
        failures.len()
    );
    assert!(judged > sources.len() / 2, "most sources did not build");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The rows a universal build says `runtime` carries of the folder: its
/// host rows (`"<name>: ..."`) that are not left out.
fn carried_by_host(report: &Value, runtime: Runtime) -> BTreeSet<(String, String)> {
    let prefix = format!("{}: ", runtime.name());
    let compared: Vec<String> = COMPARED.iter().map(|c| c.to_string()).collect();
    report["honesty"]
        .as_array()
        .expect("honesty rows")
        .iter()
        .filter(|row| {
            row["detail"].as_str().is_some_and(|d| d.starts_with(&prefix)) && row["level"] != "unsupported"
        })
        .filter(|row| compared.iter().any(|c| row["component"] == c.as_str()))
        .map(|row| {
            (row["component"].as_str().unwrap().to_string(), row["name"].as_str().unwrap().to_string())
        })
        .collect()
}

/// A schema-checked runtime that loads other formats reads the universal
/// folder through them: its check, run on each universal folder as that
/// runtime's loader reads it (manifest and marketplace file included), must
/// load exactly what the folder's rows for that host say it carries. A
/// folder whose check finds a problem must have a skill, command, agent,
/// hook or server row of that host left out.
#[test]
fn each_schema_checked_runtime_loads_the_universal_folder_as_its_rows_say() {
    let universal = Runtime::parse("universal").expect("the universal runtime");
    let runtimes: Vec<_> =
        checked_runtimes().into_iter().filter(|(r, _)| !r.spec().reads.loads_formats.is_empty()).collect();
    if runtimes.is_empty() {
        return;
    }
    let tmp = TempDir::new("schema-judges-universal");
    let sources = sources(&tmp);
    let mut failures = Vec::new();
    let mut judged = 0;
    let mut with_problems: Vec<String> = Vec::new();
    for (index, (label, source)) in sources.iter().enumerate() {
        let out = tmp.join(&format!("out/{index}"));
        let built = run(&["build", s(source), "--target", universal.id(), "--out", s(&out), "--json"]);
        if built.code != 0 {
            continue;
        }
        let report = built.json();
        let root = report["bundles"][0]["root"].as_str().expect("root").to_string();
        let mut files = BTreeMap::new();
        tree(&out, "", &mut files);
        for (runtime, check) in &runtimes {
            let verdict = check(&files, &root);
            judged += 1;
            let rows = carried_by_host(&report, *runtime);
            if !verdict.problems.is_empty() {
                let prefix = format!("{}: ", runtime.name());
                let left_out = report["honesty"].as_array().unwrap().iter().any(|row| {
                    row["level"] == "unsupported"
                        && COMPARED.iter().any(|c| row["component"] == c.to_string().as_str())
                        && row["detail"].as_str().is_some_and(|d| d.starts_with(&prefix))
                });
                if !left_out {
                    failures.push(format!(
                        "{label} ({}): {:?} and no row says so",
                        runtime.id(),
                        verdict.problems
                    ));
                }
                with_problems.push(format!("{label}: {:?}", verdict.problems));
                continue;
            }
            let loaded: BTreeSet<(String, String)> =
                verdict.loaded.iter().map(|(c, n)| (c.to_string(), n.clone())).collect();
            if loaded != rows {
                failures.push(format!(
                    "{label} ({} in universal): the check loads {:?} but the rows carry {:?}",
                    runtime.id(),
                    loaded.difference(&rows).collect::<Vec<_>>(),
                    rows.difference(&loaded).collect::<Vec<_>>()
                ));
            }
        }
    }
    eprintln!(
        "universal folders judged: {judged}, {} failures; loaded less than the folder holds: {with_problems:#?}",
        failures.len()
    );
    assert!(judged > sources.len() / 2, "most sources did not build for universal");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
