//! Shared decoding for the fuzz targets: turns fuzz bytes into the inputs
//! the core's public API takes.

use std::sync::OnceLock;

use plugforge_core::{BuildOptions, Output, Runtime, SourceTree, TargetRequest};

/// A file map from `path\0content\0path\0content...`: the format the seed
/// script writes, so mutations keep most inputs a plausible plugin folder.
/// A path starting with `+` is an executable file. Paths the core refuses
/// are dropped (refusing them is the host's job, tested elsewhere).
pub fn file_map(data: &[u8]) -> SourceTree {
    let mut tree = SourceTree::new();
    let mut parts = data.split(|b| *b == 0);
    while let Some(path) = parts.next() {
        let content = parts.next().unwrap_or_default();
        let path = String::from_utf8_lossy(path);
        let (path, executable) = match path.strip_prefix('+') {
            Some(rest) => (rest, true),
            None => (path.as_ref(), false),
        };
        let _ = tree.insert(path, content.to_vec(), executable);
    }
    tree
}

/// The file map of `data` split in two: files under `src/` (the source) and
/// the rest (an output folder as a host observed it).
pub fn source_and_rest(data: &[u8]) -> (SourceTree, SourceTree) {
    let all = file_map(data);
    let (mut source, mut rest) = (SourceTree::new(), SourceTree::new());
    for (path, file) in all.iter() {
        let (tree, path) = match path.as_str().strip_prefix("src/") {
            Some(inner) => (&mut source, inner),
            None => (&mut rest, path.as_str()),
        };
        let _ = tree.insert(path, file.bytes.clone(), file.executable);
    }
    (source, rest)
}

/// Words of template syntax that can make a render run until the core's
/// fuel is spent (about 0.75 s an input): the targets that build skip such
/// inputs to keep their pace; `validate` takes them all.
const UNBOUNDED: [&str; 7] = ["for", "macro", "*", "indent", "center", "recursive", "include"];

/// Whether every template of `tree` is free of [`UNBOUNDED`] syntax.
pub fn templates_bounded(tree: &SourceTree) -> bool {
    tree.iter().filter(|(path, _)| path.as_str().ends_with(".j2")).all(|(_, file)| text_bounded(&file.bytes))
}

pub fn text_bounded(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    !UNBOUNDED.iter().any(|word| text.contains(word))
}

/// A build for every runtime and its default kind.
pub fn all_targets() -> BuildOptions {
    BuildOptions { targets: vec![TargetRequest::new("all")], ..BuildOptions::default() }
}

/// One of `choices` picked by the input's length (divided by `stride` to
/// decorrelate two picks of one input). A target that builds for one runtime
/// (or, one input in eleven, for all at once) runs about ten times faster
/// than one that builds all of them every time, and libFuzzer still reaches
/// each choice: mutations change the length all the time.
pub fn pick(data: &[u8], stride: usize, choices: usize) -> usize {
    (data.len() / stride.max(1)) % choices.max(1)
}

/// A build for one runtime picked by the input (see [`pick`]), or for all.
pub fn picked_targets(data: &[u8], stride: usize) -> BuildOptions {
    targets_of_choice(pick(data, stride, Runtime::ALL.len() + 1))
}

/// Choice `i` of [`picked_targets`]: runtime `i`, or all past the last one.
fn targets_of_choice(chosen: usize) -> BuildOptions {
    let id = Runtime::ALL.get(chosen).map_or("all", |runtime| runtime.id());
    BuildOptions { targets: vec![TargetRequest::new(id)], ..BuildOptions::default() }
}

/// A fixed source with every component, so plans have something to merge
/// into every kind of shared file.
pub fn fixed_source() -> SourceTree {
    let files: [(&str, &str); 8] = [
        (
            "plugforge.json",
            r#"{"name": "fuzzed", "version": "1.0.0", "description": "A plugin with every component."}"#,
        ),
        ("commands/hello.md", "---\ndescription: Says hello\nargument-hint: [name]\n---\nHello $ARGUMENTS\n"),
        ("skills/greet/SKILL.md", "---\nname: greet\ndescription: Greets people.\n---\nGreet them.\n"),
        ("agents/helper.md", "---\nname: helper\ndescription: Helps.\n---\nHelp.\n"),
        (
            ".mcp.json",
            r#"{"mcpServers": {"files": {"command": "npx", "args": ["-y", "files-server"], "env": {"ROOT": "${PLUGIN_ROOT}"}}}}"#,
        ),
        (
            "hooks/hooks.json",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo check"}]}]}}"#,
        ),
        ("AGENTS.md", "Be kind to the files.\n"),
        ("settings.json", r#"{"permissions": {"allow": ["Bash(ls:*)"]}}"#),
    ];
    let mut tree = SourceTree::new();
    for (path, text) in files {
        tree.insert(path, text.as_bytes().to_vec(), false).expect("a clean path");
    }
    tree
}

/// The fixed source built for the runtime the input picks (see
/// [`picked_targets`]), each choice built once per process.
pub fn picked_fixed_output(data: &[u8], stride: usize) -> &'static Output {
    static OUTPUTS: OnceLock<Vec<Output>> = OnceLock::new();
    let outputs = OUTPUTS.get_or_init(|| {
        (0..=Runtime::ALL.len())
            .map(|chosen| {
                plugforge_core::build(&fixed_source(), &targets_of_choice(chosen))
                    .expect("the fixed source builds")
            })
            .collect()
    });
    &outputs[pick(data, stride, outputs.len())]
}

/// The fixed source built for every runtime, once per process.
pub fn fixed_output() -> &'static Output {
    static OUTPUT: OnceLock<Output> = OnceLock::new();
    OUTPUT.get_or_init(|| {
        plugforge_core::build(&fixed_source(), &all_targets()).expect("the fixed source builds")
    })
}
