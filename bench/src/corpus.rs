//! The shared bench corpus, byte for byte what `make-corpus` writes (one
//! synthetic plugin as a plugforge source and as a rulesync source, the
//! same content): skills with a reference file each, commands, agents, one
//! MCP server. The filler words come from Python's `random.Random(7)`
//! (MT19937 and `choice`), reimplemented so the benchmark runs from the
//! repository alone and its figures compare with the shared corpus.

use std::path::Path;

/// How many of each component the corpus holds.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub skills: usize,
    pub commands: usize,
    pub agents: usize,
}

impl Shape {
    /// The shared corpus: about 2,700 source files, 10,100 output files
    /// for four runtimes.
    pub const SHARED: Shape = Shape { skills: 1000, commands: 500, agents: 200 };
}

const WORDS: [&str; 15] = [
    "plan", "build", "test", "review", "deploy", "lint", "format", "migrate", "index", "search", "cache",
    "queue", "parse", "render", "sync",
];

/// MT19937 seeded the way Python's `random.seed(7)` seeds it.
struct Mt {
    state: [u32; 624],
    index: usize,
}

impl Mt {
    fn python_seed(seed: u32) -> Self {
        let mut mt = Mt::plain(19_650_218);
        // init_by_array with the key [seed].
        let key = [seed];
        let (n, mut i, mut j) = (624usize, 1usize, 0usize);
        for _ in 0..n.max(key.len()) {
            let prev = mt.state[i - 1] ^ (mt.state[i - 1] >> 30);
            mt.state[i] =
                (mt.state[i] ^ prev.wrapping_mul(1_664_525)).wrapping_add(key[j]).wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..n - 1 {
            let prev = mt.state[i - 1] ^ (mt.state[i - 1] >> 30);
            mt.state[i] = (mt.state[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
        }
        mt.state[0] = 0x8000_0000;
        mt.index = 624;
        mt
    }

    fn plain(seed: u32) -> Self {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            state[i] =
                1_812_433_253u32.wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30)).wrapping_add(i as u32);
        }
        Mt { state, index: 624 }
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
                let mut next = self.state[(i + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    next ^= 0x9908_b0df;
                }
                self.state[i] = next;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random.choice(WORDS)`: `getrandbits(4)` until below 15.
    fn word(&mut self) -> &'static str {
        loop {
            let r = (self.next_u32() >> 28) as usize;
            if r < WORDS.len() {
                return WORDS[r];
            }
        }
    }

    fn para(&mut self, count: usize) -> String {
        (0..count).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }

    fn paras(&mut self, count: usize, words: usize, separator: &str) -> String {
        (0..count).map(|_| self.para(words)).collect::<Vec<_>>().join(separator)
    }
}

/// Every file of both sources, paths relative to the corpus folder
/// (`plugforge/...` and `rulesync/...`), in the order `make-corpus` writes.
pub fn files(shape: Shape) -> Vec<(String, String)> {
    let mut rnd = Mt::python_seed(7);
    let mut out = Vec::new();
    let mut put = |path: String, text: String| out.push((path, text));
    put(
        "plugforge/plugforge.json".into(),
        "{\n  \"name\": \"bench-plugin\",\n  \"version\": \"1.0.0\",\n  \"description\": \"Synthetic benchmark plugin\",\n  \"author\": {\n    \"name\": \"bench\"\n  }\n}\n".into(),
    );
    put(
        "rulesync/rulesync.jsonc".into(),
        "{\n  \"targets\": [\n    \"claudecode\",\n    \"codexcli\",\n    \"cursor\",\n    \"opencode\"\n  ],\n  \"features\": [\n    \"skills\",\n    \"commands\",\n    \"subagents\",\n    \"mcp\"\n  ],\n  \"outputRoots\": [\n    \".\"\n  ],\n  \"delete\": true\n}".into(),
    );
    put(
        "rulesync/.rulesync/rules/overview.md".into(),
        "---\nroot: true\ntargets: [\"*\"]\n---\n# Overview\n".into(),
    );
    for i in 0..shape.skills {
        let name = format!("skill-{i:05}");
        let desc = rnd.para(20);
        let body = rnd.paras(6, 60, "\n\n");
        let reference = rnd.paras(30, 40, "\n") + "\n";
        put(
            format!("plugforge/skills/{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: {desc}\n---\n{body}\n"),
        );
        put(format!("plugforge/skills/{name}/references/guide.md"), reference.clone());
        put(
            format!("rulesync/.rulesync/skills/{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: {desc}\ntargets: [\"*\"]\n---\n{body}\n"),
        );
        put(format!("rulesync/.rulesync/skills/{name}/references/guide.md"), reference);
    }
    for i in 0..shape.commands {
        let name = format!("cmd-{i:05}");
        let desc = rnd.para(12);
        let body = rnd.paras(5, 30, "\n") + "\n$ARGUMENTS";
        put(format!("plugforge/commands/{name}.md"), format!("---\ndescription: {desc}\n---\n{body}\n"));
        put(
            format!("rulesync/.rulesync/commands/{name}.md"),
            format!("---\ndescription: {desc}\ntargets: [\"*\"]\n---\n{body}\n"),
        );
    }
    for i in 0..shape.agents {
        let name = format!("agent-{i:05}");
        let desc = rnd.para(15);
        let body = rnd.paras(8, 40, "\n");
        put(
            format!("plugforge/agents/{name}.md"),
            format!("---\nname: {name}\ndescription: {desc}\n---\n{body}\n"),
        );
        put(
            format!("rulesync/.rulesync/subagents/{name}.md"),
            format!("---\nname: {name}\ndescription: {desc}\ntargets: [\"*\"]\n---\n{body}\n"),
        );
    }
    put(
        "plugforge/.mcp.json".into(),
        "{\n  \"mcpServers\": {\n    \"local-tool\": {\n      \"command\": \"node\",\n      \"args\": [\n        \"server.js\"\n      ]\n    }\n  }\n}\n".into(),
    );
    put(
        "rulesync/.rulesync/mcp.json".into(),
        "{\n  \"mcpServers\": {\n    \"local-tool\": {\n      \"type\": \"stdio\",\n      \"command\": \"node\",\n      \"args\": [\n        \"server.js\"\n      ]\n    }\n  }\n}\n".into(),
    );
    out
}

/// The plugforge half as an in-memory source tree.
pub fn source(shape: Shape) -> plugforge_core::SourceTree {
    let mut tree = plugforge_core::SourceTree::new();
    for (path, text) in files(shape) {
        if let Some(rel) = path.strip_prefix("plugforge/") {
            tree.insert(rel, text.into_bytes(), false).expect("valid path");
        }
    }
    tree
}

/// Writes both sources below `out`.
pub fn write(out: &Path, shape: Shape) -> std::io::Result<()> {
    for (path, text) in files(shape) {
        let path = out.join(path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, text)?;
    }
    Ok(())
}
