//! The documentation's links and the repository paths it names hold:
//! every relative link of README.md, ARCHITECTURE.md, CONTRIBUTING.md and
//! the book's pages (docs/) leads to a file that exists, a book page's link
//! stays inside the book, and every `#anchor` is a heading of the page it
//! points at (the slug GitHub and mdBook both give it). ARCHITECTURE.md and
//! CONTRIBUTING.md also name only paths that exist, and their commands'
//! programs exist and their shell blocks parse.

mod docs;

use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("repository")
}

fn markdown_files() -> Vec<PathBuf> {
    let root = repository();
    let mut files: Vec<PathBuf> =
        ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"].iter().map(|f| root.join(f)).collect();
    let mut stack = vec![root.join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read docs") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A heading's anchor as GitHub and mdBook make it: lowercase, letters,
/// digits, `-` and `_` kept, spaces to `-`, the rest dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(markdown: &str) -> Vec<String> {
    let mut anchors = Vec::new();
    let mut heading: Option<String> = None;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(text) | Event::Code(text) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&text);
                }
            }
            Event::End(TagEnd::Heading(_)) => anchors.push(slug(&heading.take().unwrap_or_default())),
            _ => {}
        }
    }
    anchors
}

fn links(markdown: &str) -> Vec<String> {
    Parser::new(markdown)
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some(dest_url.to_string())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn every_internal_link_and_anchor_resolves() {
    let root = repository();
    let docs = root.join("docs");
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).expect("read page");
        let page = file.strip_prefix(&root).expect("inside").display().to_string();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = link.split_once('#').map_or((link.as_str(), None), |(p, f)| (p, Some(f)));
            let target = if path.is_empty() { file.clone() } else { file.parent().expect("dir").join(path) };
            let Ok(target) = target.canonicalize() else {
                broken.push(format!("{page}: {link}: no such file"));
                continue;
            };
            if file.starts_with(&docs) && !target.starts_with(&docs) {
                broken
                    .push(format!("{page}: {link}: leaves the book (docs/); name the path in code instead"));
                continue;
            }
            if let Some(fragment) = fragment {
                let target_text = std::fs::read_to_string(&target).unwrap_or_default();
                if !anchors(&target_text).iter().any(|a| a == fragment) {
                    broken.push(format!("{page}: {link}: no heading with that anchor"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 50, "only {checked} links checked");
}

/// Code spans that name a repository path: they start with one of its
/// top-level folders or files.
fn named_paths(markdown: &str) -> Vec<String> {
    let root = repository();
    let top: Vec<String> = std::fs::read_dir(&root)
        .expect("root")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "target")
        .chain([".ci".to_string()])
        .collect();
    Parser::new(markdown)
        .filter_map(|event| match event {
            Event::Code(code) => Some(code.to_string()),
            _ => None,
        })
        .filter_map(|code| {
            let first = code.split_whitespace().next()?.to_string();
            let head = first.split('/').next()?;
            (top.iter().any(|t| t == head) && first.contains('/')).then_some(first)
        })
        .collect()
}

#[test]
fn architecture_and_contributing_name_paths_and_commands_that_exist() {
    let root = repository();
    let mut missing = Vec::new();
    let mut named = 0;
    for page in ["ARCHITECTURE.md", "CONTRIBUTING.md"] {
        let text = std::fs::read_to_string(root.join(page)).expect(page);
        for path in named_paths(&text) {
            named += 1;
            // `<runtime>`-style placeholders name a folder of folders.
            let concrete =
                path.split("/<").next().unwrap_or(&path).trim_end_matches("<id>").trim_end_matches('/');
            if !root.join(concrete).exists() {
                missing.push(format!("{page}: `{path}`"));
            }
        }
        for block in docs::shell_blocks(&text, false) {
            let parsed =
                std::process::Command::new("bash").args(["-n", "-c", &block.code]).status().expect("bash");
            assert!(parsed.success(), "{page}:{}: does not parse:\n{}", block.line, block.code);
            for line in block.code.lines().filter(|l| !l.trim().is_empty()) {
                let words: Vec<&str> = line.split_whitespace().filter(|w| !w.contains('=')).collect();
                let program = words.first().copied().unwrap_or_default();
                let exists = if program.contains('/') {
                    root.join(program).is_file()
                } else {
                    std::process::Command::new("bash")
                        .args(["-c", &format!("command -v {program} >/dev/null")])
                        .status()
                        .is_ok_and(|s| s.success())
                };
                if !exists {
                    missing.push(format!("{page}:{}: `{program}`", block.line));
                }
                // A named test target or package exists.
                if let Some(i) = words.iter().position(|w| *w == "-p") {
                    let package = words[i + 1];
                    let manifests = [
                        "core",
                        "host-fs",
                        "cli",
                        "tests",
                        "bindings-node",
                        "bindings-python",
                        "bindings-wasm",
                    ];
                    let known = manifests.iter().any(|m| {
                        std::fs::read_to_string(root.join(m).join("Cargo.toml"))
                            .is_ok_and(|t| t.contains(&format!("name = \"{package}\"")))
                    });
                    if !known {
                        missing.push(format!("{page}:{}: package {package}", block.line));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "named but missing:\n{}", missing.join("\n"));
    assert!(named > 20, "only {named} paths named");
}

#[test]
fn a_broken_link_and_a_missing_anchor_are_found() {
    let text = "# Title\n\n## Two words\n\n[a](#two-words) [b](#three) [c](missing.md)\n";
    assert_eq!(anchors(text), ["title", "two-words"]);
    assert_eq!(links(text), ["#two-words", "#three", "missing.md"]);
    assert_eq!(slug("CI with --check and the Action"), "ci-with---check-and-the-action");
}
