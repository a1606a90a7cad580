//! The generic guide has no client to judge it (skills-ref validates skill
//! folders, and the guide has none): assert instead that GUIDE.md carries
//! every part of the Striatum example, in the words a reader acts on.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// The source file's body after its frontmatter, rendered like the build does.
fn body(text: &str) -> &str {
    text.strip_prefix("---\n").and_then(|rest| rest.split_once("\n---\n")).map_or(text, |(_, body)| body)
}

#[test]
fn the_guide_carries_every_part_of_striatum() {
    let root = repo_root();
    let out = std::env::temp_dir().join(format!("plugforge-generic-guide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", root.join("examples/striatum").to_str().unwrap(), "--target", "generic"])
        .args(["--out", out.to_str().unwrap(), "--var", "runner_version=0.7.3"])
        .status()
        .expect("run plugforge");
    assert!(status.success());
    let guide = std::fs::read_to_string(out.join("generic/GUIDE.md")).expect("GUIDE.md");
    let _ = std::fs::remove_dir_all(&out);

    let source = root.join("examples/striatum");
    let context = std::fs::read_to_string(source.join("AGENTS.md")).unwrap();
    assert!(guide.contains(&context), "the context file travels whole");
    let agent = std::fs::read_to_string(source.join("agents/striatum-recover.md")).unwrap();
    assert!(guide.contains(body(&agent)), "the agent's prompt travels whole");
    for skill in ["claim-loop", "recover", "scaffold", "supervise", "workflow"] {
        assert!(guide.contains(&format!("### striatum-{skill}\n")), "skill {skill}");
        let text =
            std::fs::read_to_string(source.join(format!("skills/striatum-{skill}/SKILL.md.j2"))).unwrap();
        // Untemplated lines of the skill body appear as they are.
        let line = body(&text).lines().find(|l| l.len() > 40 && !l.contains("{{")).unwrap();
        assert!(guide.contains(line), "skill {skill}: {line}");
    }
    for (command, hint) in [
        ("claim-next", "[session-id]"),
        ("dashboard", "<run-id>"),
        ("doctor", "[focus]"),
        ("status", "[run-id]"),
        ("why", "<run-id> <job-id>"),
    ] {
        assert!(guide.contains(&format!("### {command}\n")), "command {command}");
        assert!(guide.contains(&format!("Arguments: `{hint}`")), "command {command} hint");
    }
    assert!(guide.contains("Replace `$ARGUMENTS` with everything you would type"), "how to fill the prompts");
    assert!(!guide.contains("{{"), "no template syntax left");
}
