// This test reads the core's own sources to check them, the one place in
// this crate that may touch the filesystem.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! The core stays pure: no filesystem, environment, clock, process,
//! network or randomness, so every host gets the same bytes.

use std::path::Path;

const FORBIDDEN: [&str; 9] = [
    "std::fs",
    "std::env",
    "SystemTime",
    "Instant::",
    "std::process",
    "std::net",
    "rand::",
    "getrandom",
    "std::thread",
];

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("core/src is readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn core_sources_use_no_io_clock_or_randomness() {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() > 10, "core sources not found");
    let mut hits = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read source");
        for (number, line) in text.lines().enumerate() {
            for needle in FORBIDDEN.iter().filter(|n| line.contains(*n)) {
                hits.push(format!("{}:{}: {needle}", file.display(), number + 1));
            }
        }
    }
    assert!(hits.is_empty(), "impure API in core:\n{}", hits.join("\n"));
}

#[test]
fn the_guard_would_catch_a_forbidden_call() {
    let sample = "let t = std::time::SystemTime::now();";
    assert!(FORBIDDEN.iter().any(|n| sample.contains(n)));
}
