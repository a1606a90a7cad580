//! Templates: any `.j2` text renders or fails with an error naming the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_core::{BuildOptions, SourceTree, TargetRequest};
use plugforge_fuzz::text_bounded;

fuzz_target!(|data: &[u8]| {
    if !text_bounded(data) {
        return;
    }
    let mut tree = SourceTree::new();
    let config = br#"{"name": "fuzzed", "version": "1.0.0", "description": "Templates.", "variables": {"who": {"default": "you"}}}"#;
    tree.insert("plugforge.json", config.to_vec(), false).expect("a clean path");
    tree.insert("commands/hello.md.j2", data.to_vec(), false).expect("a clean path");
    tree.insert("AGENTS.md.j2", data.to_vec(), false).expect("a clean path");
    let mut options = BuildOptions {
        targets: vec![TargetRequest::new("claude-code"), TargetRequest::new("codex")],
        ..BuildOptions::default()
    };
    options.vars.insert("team".into(), "core".into());
    let _ = plugforge_core::build(&tree, &options);
});
