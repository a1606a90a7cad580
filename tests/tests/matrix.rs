//! The README's support matrix is generated from the runtimes' own honesty
//! rows: every kind of every runtime builds the reference sources, and the
//! worst level per component is the cell. `UPDATE_EXPECT=1` rewrites it.

use std::collections::BTreeMap;

use plugforge_conformance::{read_tree, vectors_dir};
use plugforge_core::{BuildOptions, Level, Runtime, TargetRequest, build};

const COMPONENTS: [&str; 9] =
    ["skill", "command", "agent", "hook", "mcp", "settings", "bin", "output-style", "context"];
const BEGIN: &str = "<!-- support-matrix:begin -->\n";
const END: &str = "<!-- support-matrix:end -->";

fn symbol(level: Option<Level>) -> &'static str {
    match level {
        Some(Level::Supported) => "yes",
        Some(Level::Degraded) => "degraded",
        Some(Level::Unsupported) => "no",
        None => "n/a",
    }
}

fn rank(level: Level) -> u8 {
    match level {
        Level::Supported => 0,
        Level::Degraded => 1,
        Level::Unsupported => 2,
    }
}

fn matrix() -> String {
    let sources = ["canonical-full", "claude-plugin-source"]
        .map(|case| read_tree(&vectors_dir().join(case).join("input")));
    let mut table = String::from("| runtime:kind |");
    for component in COMPONENTS {
        table.push_str(&format!(" {component} |"));
    }
    table.push_str(&format!("\n|---|{}\n", "---|".repeat(COMPONENTS.len())));
    for runtime in Runtime::ALL {
        for kind in runtime.kinds() {
            let mut worst: BTreeMap<&str, Level> = BTreeMap::new();
            for source in &sources {
                let options = BuildOptions {
                    targets: vec![TargetRequest {
                        runtime: runtime.id().into(),
                        kind: Some(kind.name.into()),
                    }],
                    namespace: Some("ref".into()),
                    // A kind may serve one scope only (Hermes's workspace: user).
                    scope: kind.scopes[0],
                    ..BuildOptions::default()
                };
                let output =
                    build(source, &options).unwrap_or_else(|e| panic!("{}:{}: {e}", runtime.id(), kind.name));
                for row in output.bundles.iter().flat_map(|b| b.honesty.iter()) {
                    let slot = worst.entry(row.component).or_insert(row.level);
                    if rank(row.level) > rank(*slot) {
                        *slot = row.level;
                    }
                }
            }
            table.push_str(&format!("| `{}:{}` |", runtime.id(), kind.name));
            for component in COMPONENTS {
                table.push_str(&format!(" {} |", symbol(worst.get(component).copied())));
            }
            table.push('\n');
        }
    }
    table
}

#[test]
fn readme_support_matrix_matches_the_runtimes() {
    let readme_path = vectors_dir().join("../../README.md");
    let readme = std::fs::read_to_string(&readme_path).expect("README.md");
    let start = readme.find(BEGIN).expect("README has the support-matrix markers") + BEGIN.len();
    let end = readme[start..].find(END).expect("end marker") + start;
    let generated = matrix();
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1") {
        let updated = format!("{}{generated}{}", &readme[..start], &readme[end..]);
        std::fs::write(&readme_path, updated).expect("write README");
        return;
    }
    assert_eq!(
        &readme[start..end],
        generated,
        "README support matrix is stale: UPDATE_EXPECT=1 cargo test -p plugforge-conformance"
    );
}
