// This test reads the core's own sources to check them, the one place in
// this crate that may touch the filesystem.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! A runtime is its folder (`core/src/runtime/<rt>/`) plus one line of the
//! registry (`Variant => folder as "id",` in `core/src/registry.rs`).
//! Outside `core/src/runtime/` and the registry, no code names a
//! runtime: no `Runtime::<Variant>` (so no `match` or comparison on a
//! runtime either, which would need one), no path into a runtime's folder,
//! and no manifest folder spelled out; everything asks the registry or a
//! runtime's spec. Each runtime's file names live in its `facts.rs` (the
//! canonical dialect's, which are Claude Code's, in `core/src/canonical.rs`). Test
//! code may name runtimes, since it checks what they say.

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
    matches(file, text, &|line: &str| {
        SPELLINGS.iter().filter(|s| line.contains(*s)).map(|s| s.to_string()).collect()
    })
}

/// `file:line: what` for every line of non-test code in `text` where
/// `find` finds something.
fn matches(file: &str, text: &str, find: &dyn Fn(&str) -> Vec<String>) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let opens_tests = line.trim() == "#[cfg(test)]"
            && lines.get(index + 1).is_none_or(|next| declared_module(next).is_none());
        if opens_tests {
            break;
        }
        for found in find(line) {
            out.push(format!("{file}:{}: {found}", index + 1));
        }
    }
    out
}

/// Every core source with its text, and the files that hold test code only.
fn core_sources() -> (Vec<(PathBuf, String)>, Vec<PathBuf>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    assert!(files.len() > 10, "core sources not found");
    let texts: Vec<(PathBuf, String)> =
        files.into_iter().map(|f| (f.clone(), std::fs::read_to_string(&f).expect("read source"))).collect();
    let test_files: Vec<PathBuf> = texts.iter().flat_map(|(f, text)| test_module_files(f, text)).collect();
    assert!(!test_files.is_empty(), "test module declarations not found");
    (texts, test_files)
}

/// The registry's lines, `Variant => folder as "id"` (then `,`, or `{` and
/// the runtime's own rule codes), as (variant, folder).
fn registry(text: &str) -> Vec<(String, String)> {
    let start = text.find("macro_rules! registry {").expect("core/src/registry.rs defines registry!");
    let body = &text[start..text[start..].find("\n}\n").map_or(text.len(), |end| start + end)];
    body.lines()
        .filter_map(|line| {
            let (variant, rest) = line.trim().split_once(" => ")?;
            let (folder, _) = rest.split_once(" as \"")?;
            Some((variant.trim().to_string(), folder.trim().to_string()))
        })
        .collect()
}

/// The runtime names on `line`: `Runtime::<Variant>`, and paths into a
/// runtime's folder (`runtime::<folder>`, also inside `runtime::{...}`).
fn runtime_names(line: &str, registry: &[(String, String)]) -> Vec<String> {
    let ends_word = |rest: &str| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let mut found = Vec::new();
    for (variant, folder) in registry {
        for needle in [format!("Runtime::{variant}"), format!("runtime::{folder}")] {
            if line.match_indices(&needle).any(|(at, _)| ends_word(&line[at + needle.len()..])) {
                found.push(needle);
            }
        }
        if let Some(group) =
            line.split_once("runtime::{").map(|(_, rest)| rest.split('}').next().unwrap_or(rest))
        {
            if group.split(',').any(|item| item.trim() == folder) {
                found.push(format!("runtime::{{{folder}}}"));
            }
        }
    }
    found
}

#[test]
fn only_runtime_folders_and_the_registry_name_a_runtime() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runtimes = root.join("src").join("runtime");
    let registry_file = root.join("src").join("registry.rs");
    let registry_text = std::fs::read_to_string(&registry_file).expect("read the registry");
    let registry = registry(&registry_text);
    assert!(registry.len() >= 12, "the registry lists {} runtimes", registry.len());
    for (_, folder) in &registry {
        assert!(
            runtimes.join(folder).join("mod.rs").is_file(),
            "{folder}: no core/src/runtime/{folder}/mod.rs"
        );
    }
    let (texts, test_files) = core_sources();
    let mut found = Vec::new();
    for (file, text) in &texts {
        if file.starts_with(&runtimes)
            || *file == registry_file
            || file.file_name().is_some_and(|n| n == "tests.rs")
            || test_files.contains(file)
        {
            continue;
        }
        let shown = file.strip_prefix(root).unwrap_or(file).display().to_string();
        found.extend(matches(&shown, text, &|line: &str| runtime_names(line, &registry)));
    }
    assert!(
        found.is_empty(),
        "outside core/src/runtime/, ask the registry (core/src/registry.rs) or the runtime's spec instead of naming it:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_runtime_guard_would_catch_a_name_and_skips_test_code() {
    let registry = registry(
        "macro_rules! registry {\n    ClaudeCode => claude_code as \"claude-code\",\n    Codex => codex as \"codex\" {\n        Rule = \"a/b\",\n    },\n}\n",
    );
    assert_eq!(registry, [("ClaudeCode".into(), "claude_code".into()), ("Codex".into(), "codex".into())]);
    let sample = "if r == Runtime::Codex {}\nlet x = Runtime::CodexLike;\nuse crate::runtime::{Runtime, codex};\n\
                  let y = crate::runtime::claude_code::facts::X;\n#[cfg(test)]\nmod tests {\n    Runtime::Codex\n}\n";
    let found = matches("x.rs", sample, &|line: &str| runtime_names(line, &registry));
    assert_eq!(found, ["x.rs:1: Runtime::Codex", "x.rs:3: runtime::{codex}", "x.rs:4: runtime::claude_code"]);
}

#[test]
fn manifest_folders_are_spelled_only_in_facts_tables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (texts, test_files) = core_sources();
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
