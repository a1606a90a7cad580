//! What each kind of each runtime says it does with every component, read
//! from its honesty rows over the reference sources: the support matrix and
//! the runtime pages are both generated from it.

use std::collections::BTreeMap;

use plugforge_core::{BuildOptions, Kind, Level, Runtime, TargetRequest, build};

use crate::{case, read_tree};

/// The components the matrix and the runtime pages show, in order.
pub const COMPONENTS: [&str; 9] =
    ["skill", "command", "agent", "hook", "mcp", "settings", "bin", "output-style", "context"];

/// A level as the tables spell it; `n/a` where no row names the component.
pub fn symbol(level: Option<Level>) -> &'static str {
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

/// The worst level per component over the reference sources
/// (`canonical-full`, `claude-plugin-source`) for one kind of a runtime.
pub fn worst_levels(runtime: Runtime, kind: &Kind) -> BTreeMap<&'static str, Level> {
    let sources = ["canonical-full", "claude-plugin-source"].map(|name| read_tree(&case(name).source_dir()));
    let mut worst: BTreeMap<&str, Level> = BTreeMap::new();
    for source in &sources {
        let options = BuildOptions {
            targets: vec![TargetRequest { runtime: runtime.id().into(), kind: Some(kind.name.into()) }],
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
    worst
}
