//! A generated marketplace: `n` plugin sources of the size public
//! marketplaces hold (a few skills, commands and agents, hooks and an MCP
//! server each), for the scale figure.

use std::path::Path;

pub fn write(out: &Path, n: usize) -> std::io::Result<()> {
    for p in 0..n {
        let dir = out.join(format!("p{p:03}"));
        let name = format!("plugin-{p:03}");
        let put = |rel: String, text: String| -> std::io::Result<()> {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().expect("below the plugin"))?;
            std::fs::write(path, text)
        };
        put(
            "plugforge.json".into(),
            format!(
                "{{\n  \"name\": \"{name}\",\n  \"version\": \"1.{p}.0\",\n  \"description\": \"Generated plugin {p} of a marketplace\",\n  \"author\": {{\"name\": \"bench\"}}\n}}\n"
            ),
        )?;
        // Sizes vary with the plugin number so the marketplace is not one
        // plugin copied: 1-6 skills, 1-10 commands, 0-3 agents.
        for s in 0..1 + p % 6 {
            put(
                format!("skills/{name}-s{s}/SKILL.md"),
                format!(
                    "---\nname: {name}-s{s}\ndescription: Skill {s} of {name}, used when the task needs it\n---\n{}\n",
                    "Steps to follow, with the reasons for each.\n".repeat(40)
                ),
            )?;
            put(format!("skills/{name}-s{s}/references/notes.md"), "Reference material.\n".repeat(120))?;
        }
        for c in 0..1 + p % 10 {
            put(
                format!("commands/{name}-c{c}.md"),
                format!(
                    "---\ndescription: Command {c} of {name}\n---\nDo the thing with $ARGUMENTS.\n{}",
                    "More detail.\n".repeat(20)
                ),
            )?;
        }
        for a in 0..p % 4 {
            put(
                format!("agents/{name}-a{a}.md"),
                format!(
                    "---\nname: {name}-a{a}\ndescription: Agent {a} of {name}\n---\n{}",
                    "You review changes.\n".repeat(30)
                ),
            )?;
        }
        put(
            "hooks/hooks.json".into(),
            "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo formatted\"}]}\n    ]\n  }\n}\n".into(),
        )?;
        put(
            ".mcp.json".into(),
            format!(
                "{{\n  \"mcpServers\": {{\n    \"{name}-tool\": {{\"command\": \"node\", \"args\": [\"server.js\"]}}\n  }}\n}}\n"
            ),
        )?;
    }
    Ok(())
}
