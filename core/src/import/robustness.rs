//! `import` never panics: damaged manifests, hooks, servers, commands and
//! bytes that are not text give an error or notes, whatever the runtime.

use super::{ImportOptions, import, importable};
use crate::source::SourceTree;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Well-formed native files, damaged at random below.
const FILES: [(&str, &str); 16] = [
    (
        ".claude-plugin/plugin.json",
        r#"{"name": "k", "version": "1", "commands": {"a": {"content": "x"}}, "hooks": "./h.json", "mcpServers": {"s": {"command": "c"}}}"#,
    ),
    (
        ".codex-plugin/plugin.json",
        r#"{"name": "k", "skills": ["./s"], "interface": {"displayName": "K"}, "hooks": {"hooks": {}}}"#,
    ),
    (
        "gemini-extension.json",
        r#"{"name": "k", "version": "1", "contextFileName": ["G.md"], "mcpServers": {"s": {"httpUrl": "u"}}}"#,
    ),
    (
        ".cursor-plugin/plugin.json",
        r#"{"name": "k", "commands": "./c", "hooks": {"hooks": {"stop": [{"command": "./x"}]}}}"#,
    ),
    ("plugin.json", r#"{"$schema": "s", "name": "k", "author": {"name": 1}, "extensions": 3}"#),
    (
        "hooks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "timeout": 5}]}]}}"#,
    ),
    (".mcp.json", r#"{"mcpServers": {"a": {"command": "./x", "cwd": "."}, "b": {"url": "u"}}}"#),
    ("mcp.json", r#"{"$schema": "x", "mcpServers": {"a": {"type": "stdio", "command": "./x"}}}"#),
    ("commands/ns/x.toml", "description = \"d\"\nprompt = '''\nDo {{args}} !{ls} @{f}\n'''\n"),
    ("commands/x.md", "---\nname: x\ndescription: d\n---\nBody $ARGUMENTS\n"),
    ("agents/a.md", "---\nname: a\ntools:\n  - read_file\n---\nBody\n"),
    ("skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\nBody\n"),
    ("rules/r.mdc", "---\nalwaysApply: true\n---\nRule\n"),
    ("SKILL.md", "---\nname: root\n---\n"),
    ("h.json", r#"{"hooks": {"Stop": []}}"#),
    ("G.md", "context\n"),
];

fn damage(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..rng.below(4) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len());
        match rng.below(4) {
            0 => {
                bytes.remove(at);
            }
            1 => {
                let noise = b"{}[]\",:'\\\n\xff-";
                bytes.insert(at, noise[rng.below(noise.len())]);
            }
            2 => bytes.truncate(at),
            _ => bytes[at] = b"\"{}:x"[rng.below(5)],
        }
    }
    bytes
}

#[test]
fn damaged_native_plugins_give_errors_or_notes_never_a_panic() {
    for seed in 1..=400u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut tree = SourceTree::new();
        for (path, text) in FILES {
            if rng.below(4) > 0 {
                let bytes = if rng.below(3) == 0 { damage(&mut rng, text) } else { text.as_bytes().to_vec() };
                tree.insert(path, bytes, false).expect("valid path");
            }
        }
        for runtime in importable() {
            let options = ImportOptions {
                from: Some(runtime.id().into()),
                name: Some("k".into()),
                ..ImportOptions::default()
            };
            let _ = import(&tree, &options);
        }
    }
}
