// This test reads the core's own sources to check them, the one place in
// this crate that may touch the filesystem.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! Each runtime's file names live in its `facts.rs` (`core/src/runtime/<rt>/`;
//! the canonical dialect's, which are Claude Code's, in `core/src/canonical.rs`):
//! the writer, the validator and the importer read them from there, so a
//! change to a runtime is a change to its folder only. Test code may spell
//! them out, since it checks what the facts say.

use std::path::{Path, PathBuf};

/// Spellings of the manifest folders that only a facts table may hold.
const SPELLINGS: [&str; 6] = [
    "\".claude-plugin",
    ".claude-plugin/",
    "\".codex-plugin",
    ".codex-plugin/",
    "\".cursor-plugin",
    ".cursor-plugin/",
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("core/src is readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module name of `line` when it declares a module kept in its own
/// file (`mod name;`, with any visibility).
fn declared_module(line: &str) -> Option<&str> {
    let line = line.trim();
    let rest = line.strip_suffix(';')?;
    let name = rest.rsplit_once("mod ")?.1;
    name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_').then_some(name)
}

/// The files of modules declared right after `#[cfg(test)]`, which hold
/// test code only.
fn test_module_files(file: &Path, text: &str) -> Vec<PathBuf> {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let parent = file.parent().expect("a source has a folder");
    let dir = if matches!(stem, "mod" | "lib") { parent.to_path_buf() } else { parent.join(stem) };
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .filter(|pair| pair[0].trim() == "#[cfg(test)]")
        .filter_map(|pair| declared_module(pair[1]))
        .flat_map(|name| [dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")])
        .collect()
}

/// `file:line` of every spelling outside test code in `text`: reading stops
/// at the first `#[cfg(test)]` that opens a test module in place.
fn hits(file: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let opens_tests = line.trim() == "#[cfg(test)]"
            && lines.get(index + 1).is_none_or(|next| declared_module(next).is_none());
        if opens_tests {
            break;
        }
        for spelling in SPELLINGS.iter().filter(|s| line.contains(*s)) {
            out.push(format!("{file}:{}: {spelling}", index + 1));
        }
    }
    out
}

#[test]
fn manifest_folders_are_spelled_only_in_facts_tables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    assert!(files.len() > 10, "core sources not found");
    let texts: Vec<(PathBuf, String)> =
        files.into_iter().map(|f| (f.clone(), std::fs::read_to_string(&f).expect("read source"))).collect();
    let test_files: Vec<PathBuf> = texts.iter().flat_map(|(f, text)| test_module_files(f, text)).collect();
    assert!(!test_files.is_empty(), "test module declarations not found");
    let runtimes = root.join("src").join("runtime");
    let mut found = Vec::new();
    for (file, text) in &texts {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let in_runtime_folder = file.parent().and_then(Path::parent) == Some(runtimes.as_path());
        // `canonical.rs` is the canonical dialect's facts table: Claude Code's
        // names that a canonical source shares, below the source loader, and
        // re-exported by `runtime/claude_code/facts.rs`.
        let canonical = *file == root.join("src").join("canonical.rs");
        if (name == "facts.rs" && in_runtime_folder)
            || canonical
            || name == "tests.rs"
            || test_files.contains(file)
        {
            continue;
        }
        let shown = file.strip_prefix(root).unwrap_or(file).display().to_string();
        found.extend(hits(&shown, text));
    }
    assert!(found.is_empty(), "spell these through the runtime's facts.rs instead:\n{}", found.join("\n"));
}

#[test]
fn the_guard_would_catch_a_spelling_and_skips_test_code() {
    let sample = "const A: &str = \".codex-plugin/plugin.json\";\n#[cfg(test)]\nmod tests;\n\
                  // see .claude-plugin/marketplace.json\n#[cfg(test)]\nmod tests {\n    \".cursor-plugin\"\n}\n";
    let found = hits("x.rs", sample);
    assert_eq!(found, ["x.rs:1: \".codex-plugin", "x.rs:1: .codex-plugin/", "x.rs:4: .claude-plugin/"]);
    let files = test_module_files(Path::new("src/import/mod.rs"), "#[cfg(test)]\nmod round_trip;\n");
    assert!(files.contains(&PathBuf::from("src/import/round_trip.rs")));
    let files =
        test_module_files(Path::new("src/validate/manifest.rs"), "#[cfg(test)]\npub(crate) mod tests;\n");
    assert!(files.contains(&PathBuf::from("src/validate/manifest/tests.rs")));
}
