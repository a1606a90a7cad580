//! A synthetic plugin source of any size, the same shape every run: skills
//! with a reference file each, commands and agents, one MCP server.

use plugforge_core::SourceTree;

/// How many of each component the corpus holds.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub skills: usize,
    pub commands: usize,
    pub agents: usize,
}

const WORDS: [&str; 15] = [
    "plan", "build", "test", "review", "deploy", "lint", "format", "migrate", "index", "search", "cache",
    "queue", "parse", "render", "sync",
];

/// xorshift64: deterministic filler text, no dependency.
struct Words(u64);

impl Words {
    fn next(&mut self) -> &'static str {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        WORDS[(self.0 % WORDS.len() as u64) as usize]
    }

    fn para(&mut self, count: usize) -> String {
        (0..count).map(|_| self.next()).collect::<Vec<_>>().join(" ")
    }

    fn paras(&mut self, count: usize, words: usize, separator: &str) -> String {
        (0..count).map(|_| self.para(words)).collect::<Vec<_>>().join(separator)
    }
}

pub fn source(shape: Shape) -> SourceTree {
    let mut words = Words(7);
    let mut tree = SourceTree::new();
    let mut put =
        |path: String, text: String| tree.insert(&path, text.into_bytes(), false).expect("valid path");
    put(
        "plugforge.json".into(),
        "{\n  \"name\": \"bench-plugin\",\n  \"version\": \"1.0.0\",\n  \"description\": \"Synthetic benchmark plugin\",\n  \"author\": {\"name\": \"bench\"}\n}\n".into(),
    );
    for i in 0..shape.skills {
        let name = format!("skill-{i:05}");
        let description = words.para(20);
        let body = words.paras(6, 60, "\n\n");
        put(
            format!("skills/{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: {description}\n---\n{body}\n"),
        );
        put(format!("skills/{name}/references/guide.md"), words.paras(30, 40, "\n") + "\n");
    }
    for i in 0..shape.commands {
        let description = words.para(12);
        let body = words.paras(5, 30, "\n");
        put(
            format!("commands/cmd-{i:05}.md"),
            format!("---\ndescription: {description}\n---\n{body}\n$ARGUMENTS\n"),
        );
    }
    for i in 0..shape.agents {
        let name = format!("agent-{i:05}");
        let description = words.para(15);
        let body = words.paras(8, 40, "\n");
        put(
            format!("agents/{name}.md"),
            format!("---\nname: {name}\ndescription: {description}\n---\n{body}\n"),
        );
    }
    put(
        ".mcp.json".into(),
        "{\n  \"mcpServers\": {\n    \"local-tool\": {\"command\": \"node\", \"args\": [\"server.js\"]}\n  }\n}\n".into(),
    );
    tree
}
