//! The threaded build is the core's build: the same output, byte for byte,
//! for a templated canonical source (each target parsed on its own), a
//! native plugin read through import (one parse shared by every target),
//! and a build where some targets fail and the others are built.

use std::path::Path;

use plugforge_core::{BuildOptions, SourceTree, TargetRequest};

fn read(dir: &str) -> SourceTree {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    plugforge_host_fs::read_tree(&root, &[]).expect("source reads")
}

fn every_target() -> BuildOptions {
    BuildOptions { targets: vec![TargetRequest::new("all")], ..BuildOptions::default() }
}

/// The whole output as JSON (bundles with every file's bytes and hash,
/// diagnostics, failures, carried URLs), and how many bundles it holds.
fn both(source: &SourceTree, options: &BuildOptions) -> (String, String, usize) {
    let serial = plugforge_core::build(source, options).expect("the core builds");
    let threaded = plugforge_host_fs::build(source, options).expect("the threads build");
    let bundles = threaded.bundles.len();
    let json = |output| serde_json::to_string(&output).expect("output serialises");
    (json(serial), json(threaded), bundles)
}

#[test]
fn a_templated_source_builds_the_same_on_threads() {
    let (serial, threaded, bundles) = both(&read("examples/striatum"), &every_target());
    assert!(bundles >= 10, "{bundles} bundles");
    assert!(serial.contains("\"sha256\""), "the output lists its files");
    assert_eq!(serial, threaded);
}

#[test]
fn a_native_plugin_builds_the_same_on_threads() {
    let (serial, threaded, bundles) =
        both(&read("tests/conformance/realworld/superpowers/plugin"), &every_target());
    assert!(bundles >= 10, "{bundles} bundles");
    assert_eq!(serial, threaded);
}

#[test]
fn failed_targets_are_listed_in_target_order_as_on_one_thread() {
    // Two agents whose names differ only by case: a runtime that names
    // agent files after their names fails, the others are built.
    let mut source = read("examples/striatum");
    for (path, text) in [
        ("agents/lead-reviewer.md", "---\nname: Reviewer\ndescription: Leads.\n---\nLead.\n"),
        ("agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n"),
    ] {
        source.insert(path, text.as_bytes().to_vec(), false).expect("inserts");
    }
    let options = every_target();
    let serial = plugforge_core::build(&source, &options).expect("the core builds");
    let threaded = plugforge_host_fs::build(&source, &options).expect("the threads build");
    let ids = |output: &plugforge_core::Output| {
        output.failures.iter().map(|f| format!("{}:{}", f.runtime, f.error.code.as_str())).collect::<Vec<_>>()
    };
    assert!(ids(&serial).contains(&"opencode:invalid_path".to_string()), "{:?}", ids(&serial));
    assert!(!serial.bundles.is_empty());
    assert_eq!(ids(&serial), ids(&threaded));
    assert_eq!(serde_json::to_string(&serial).unwrap(), serde_json::to_string(&threaded).unwrap());
}
