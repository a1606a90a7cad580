//! `src/types.d.ts` is generated: the core's types and this binding's result
//! shapes (bytes as `Uint8Array`) are declared from their Rust definitions,
//! so a renamed or added field cannot leave the typings behind. The
//! vocabulary's unions are not in it: the package's typings get them from
//! bindings-node/vocabulary.d.cts, a section of their own (lib.rs). The test
//! fails when the checked-in file is stale; `UPDATE_EXPECT=1 cargo test -p
//! plugforge-wasm --lib` rewrites it.

use plugforge_core::typescript::{declarations, export, vocabulary};

use super::{
    ActionOut, BundleFileOut, BundleOut, Bytes, FileIn, ImportedOut, ObservedIn, OutputFileOut, PlanOut,
};

const HEADER: &str = "\
// Generated from the Rust types by bindings-wasm/src/typescript.rs: do not edit.
// Every input and result of the functions below, in the shapes they cross in
// (the vocabulary's string unions, RuntimeId and the others, in a section of their own).
";

/// What every function throws; an interface of JS's own `Error`, so it has
/// no Rust type to be declared from.
const PLUGFORGE_ERROR: &str = "\
/**
 * What every function throws: `message` lists every problem, one per line.
 */
export interface PlugforgeError extends Error {
  code: ErrorCode;
  problems: Array<Problem>;
}
";

fn types_d_ts() -> String {
    let mut parts = vec![HEADER.to_string()];
    let vocabulary: Vec<String> = vocabulary().into_iter().map(|(name, _)| name).collect();
    parts.extend(
        declarations()
            .into_iter()
            .filter(|(name, _)| !vocabulary.contains(name))
            .map(|(_, declaration)| declaration),
    );
    parts.push(PLUGFORGE_ERROR.to_string());
    parts.extend([
        export::<Bytes>(),
        export::<FileIn>(),
        export::<ObservedIn>(),
        export::<BundleFileOut>(),
        export::<BundleOut>(),
        export::<ActionOut>(),
        export::<PlanOut>(),
        export::<OutputFileOut>(),
        export::<ImportedOut>(),
    ]);
    let mut text = parts.join("\n");
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

#[test]
fn types_d_ts_is_generated_from_the_rust_types() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/types.d.ts");
    let generated = types_d_ts();
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &generated).expect("write src/types.d.ts");
    }
    let checked_in = std::fs::read_to_string(&path).expect("src/types.d.ts");
    assert!(
        checked_in == generated,
        "src/types.d.ts is stale: regenerate it with `UPDATE_EXPECT=1 cargo test -p plugforge-wasm --lib`"
    );
}
