// This test runs the scaffold script and reads the spec's source.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! `scripts/new-runtime` scaffolds a runtime whose every spec field is said
//! or a compile error naming it (so the crate does not build until each is
//! said), registers it before the generic targets, and adds a golden vector
//! in the runtime's own folder, where every host's listing finds it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    plugforge_conformance::repo_dir()
}

/// The fields of `pub struct Spec`, read from its source.
fn spec_fields() -> Vec<String> {
    let text = std::fs::read_to_string(repo().join("core/src/runtime/spec.rs")).expect("spec.rs");
    let body = &text[text.find("pub struct Spec {").expect("the Spec struct")..];
    let body = &body[..body.find("\n}\n").expect("its end")];
    body.lines()
        .skip(1)
        .filter_map(|line| {
            let line = line.trim();
            let rest = line.strip_prefix("pub(crate) ").or(line.strip_prefix("pub "))?;
            Some(rest.split(':').next()?.to_string())
        })
        .collect()
}

fn scaffold(args: &[&str]) -> std::process::Output {
    Command::new("python3").arg(repo().join("scripts/new-runtime")).args(args).output().expect("python3 runs")
}

#[test]
fn a_scaffolded_runtime_says_every_spec_field_or_fails_to_compile() {
    let output = scaffold(&["--dry-run", "demo-cli", "--name", "Demo CLI"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let files: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&output.stdout).expect("JSON");
    let module = files["core/src/runtime/demo_cli/mod.rs"].as_str().expect("the runtime's mod.rs");
    let fields = spec_fields();
    assert!(fields.len() >= 10, "Spec fields not found: {fields:?}");
    for field in &fields {
        let line = module
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{field}:")))
            .unwrap_or_else(|| panic!("the scaffold does not say `{field}`"));
        let filled = ["name", "kinds", "write"].contains(&field.as_str());
        assert_eq!(line.contains("compile_error!"), !filled, "{line}");
    }
    assert!(module.contains("name: \"Demo CLI\""));
    let registry = files["core/src/registry.rs"].as_str().expect("the registry");
    let line = registry.find("    DemoCli => demo_cli as \"demo-cli\",\n").expect("the registry line");
    let generic = registry.find("    Generic => generic as \"generic\",\n").expect("generic");
    assert!(line < generic, "registered after generic");
    let vector = "core/src/runtime/demo_cli/conformance/vectors/demo-cli-striatum";
    let case: serde_json::Value =
        serde_json::from_str(files[&format!("{vector}/case.json")].as_str().expect("case"))
            .expect("case.json");
    assert_eq!(case["options"]["targets"][0]["runtime"], "demo-cli");
    let source = Path::new(vector).join(case["source"].as_str().expect("a source"));
    assert_eq!(lexical(&source), Path::new("examples/striatum"), "the vector builds the Striatum example");
    // A vector of its own for each shared source every runtime builds.
    let root = repo().canonicalize().expect("the repository");
    let every: Vec<_> = plugforge_conformance::cases().into_iter().filter(|c| c.file.every_runtime).collect();
    assert!(!every.is_empty(), "no everyRuntime vector");
    for shared in every {
        let vector = format!("core/src/runtime/demo_cli/conformance/vectors/demo-cli-{}", shared.name);
        let text = files
            .get(&format!("{vector}/case.json"))
            .and_then(|v| v.as_str())
            .unwrap_or_else(|| panic!("no {vector}"));
        let case: serde_json::Value = serde_json::from_str(text).expect("case.json");
        assert_eq!(case["options"]["targets"], serde_json::json!([{"runtime": "demo-cli"}]), "{vector}");
        let source = Path::new(&vector).join(case["source"].as_str().expect("a source"));
        let want = shared.source_dir().canonicalize().expect("its source");
        assert_eq!(lexical(&source), want.strip_prefix(&root).expect("in the repository"), "{vector}");
    }
    assert!(files.contains_key("core/src/runtime/demo_cli/facts.rs"));
    let outside: Vec<&String> = files
        .keys()
        .filter(|path| !path.starts_with("core/src/runtime/demo_cli/") && *path != "core/src/registry.rs")
        .collect();
    assert!(
        outside.is_empty(),
        "the scaffold writes outside the runtime's folder and the registry: {outside:?}"
    );
}

/// `path` with each `..` taking away the folder before it.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => assert!(out.pop(), "{} leaves the repository", path.display()),
            other => out.push(other),
        }
    }
    out
}

#[test]
fn the_scaffold_refuses_a_runtime_that_exists_or_a_bad_id() {
    for args in [["--dry-run", "codex"], ["--dry-run", "Not_Kebab"]] {
        let output = scaffold(&args);
        assert!(!output.status.success(), "{args:?} was accepted");
        assert!(String::from_utf8_lossy(&output.stderr).contains("new-runtime:"), "{args:?}");
    }
}
